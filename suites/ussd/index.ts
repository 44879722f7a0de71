// Suite `ussd`: crawl the menu graph the way a phone user would, and check every view and every link (spec "USSD
// view", "USSD views"). Menu texts, depth and numbering are not known in advance, so the checks judge only what the
// spec states; the crawl itself is suites/ussd/helpers/crawler.ts and the rules suites/ussd/rules.ts.
//
// One crawl per run, shared by every check: it lives in the suite's state, which its setup makes for each run.
// The check that happens to start it would otherwise own hundreds of recorded exchanges, so they are taken off it and
// kept with the crawl; a check that finds a problem attaches the exchanges that show it, and only those.
import { defineCheck, defineSuite, type CheckContext, type RunFlags } from '../../src/engine/index.js';
import {
  TransportError,
  describeResponse,
  expectErrorBody,
  expectRejection,
  expectSchema,
  expectStatus,
  parseJson,
  readEnvelope,
  ENVELOPE_OWNER,
  envelopeDefects,
  isObject,
  redirectNote,
  validateAgainst,
  type Exchange,
  type HttpResponse,
} from '../kit/index.js';
import {
  SKIP_REASONS,
  crawl,
  ussdDataOf,
  type Crawl,
  type CrawlLink,
  type CrawlStart,
  type CrawlView,
  type FetchOutcome,
  type SkipReason,
} from './helpers/crawler.js';
import {
  assetIdSeen,
  backNotJudged,
  backNumbersSeen,
  backProblems,
  crawlSummary,
  customerProblems,
  deadLinks,
  endScreensSeen,
  frontierLines,
  homePortfolioSeen,
  isHttpMethod,
  linkTrail,
  menus,
  movedCause,
  negativePageLinks,
  notInMessage,
  numberingSeen,
  numberProblems,
  pagingProblems,
  requestsMenuSeen,
  requestUrlProblem,
  schemaProblems,
  symbolMismatches,
  unknownCustomerViewProblems,
  whereIs,
  type Problem,
} from './rules.js';
import { differsOnlyInPage, followLink, mutationOf, normaliseUrl, scopeOf } from './helpers/url.js';

type UssdCrawl = Crawl<Exchange>;

/** The crawl's own time budget stays well inside this, so a slow server yields a partial crawl and a warning. */
const CRAWL_CHECK_TIMEOUT_MS = 90_000;
const ORDER_STATUSES = ['PENDING', 'COMPLETED', 'CANCELED', 'ERROR'] as const;
/** customerId values that are not integers: no number at all, and a decimal a lenient parser would cut to 1. */
const NOT_INTEGERS = ['abc', '1.5'];
/** How many pages of one requests list the status checks and the order flow read at most. */
const MAX_LIST_PAGES = 20;
/** The status checks read up to nine requests lists (each filter twice, and the unfiltered one) of that many pages. */
const LISTS_CHECK_TIMEOUT_MS = 90_000;

/** The suite's state in one run: the crawl every check reads, started by whichever check asks first. */
interface UssdState {
  crawl?: Promise<UssdCrawl>;
}

/** Caps of the crawl: far above any menu tree a phone user walks, low enough to end on a graph without end. */
const lifecycle = {
  options: {
    maxViews: { default: 500, description: 'views the USSD crawl visits at most (--ussd-max-views)' },
    maxDepth: {
      default: 12,
      description: 'options the USSD crawl presses from a start menu at most (--ussd-max-depth)',
    },
  },
  setup: (): UssdState => ({}),
};

const stateOf = (ctx: CheckContext) => ctx.state as UssdState;

function ussdUrl(ctx: CheckContext, endpoint: string, query: Record<string, string | number>): string {
  const u = new URL(`${ctx.target.baseUrl}/ussd/${endpoint}`);
  for (const [k, v] of Object.entries(query)) u.searchParams.set(k, String(v));
  return u.href;
}

async function fetchView(ctx: CheckContext, url: string): Promise<FetchOutcome<Exchange>> {
  try {
    const res = await ctx.send({ method: 'GET', path: url });
    return { status: res.status, text: res.text, ref: res.exchange };
  } catch (e) {
    if (e instanceof TransportError) return { error: e.message, ref: e.exchange };
    throw e;
  }
}

/**
 * The run's crawl, started by whichever check asks first. A crawl that broke, or that was stopped with the check that
 * ran it (its time limit), is not everyone's verdict: it is dropped and the asking check crawls afresh.
 */
async function sharedCrawl(ctx: CheckContext): Promise<UssdCrawl> {
  const customerId = ctx.fixture('customerId');
  for (;;) {
    // A check past its time limit runs on unobserved; it must not start a crawl that its stopped signal would cut short.
    if (ctx.signal.aborted) throw new Error('the check was stopped before the crawl');
    const st = stateOf(ctx);
    let pending = st.crawl;
    const mine = pending === undefined;
    if (!pending) {
      pending = runCrawl(ctx, customerId);
      st.crawl = pending;
    }
    const drop = () => {
      if (st.crawl === pending) delete st.crawl;
    };
    let c: UssdCrawl;
    try {
      c = await pending;
    } catch (e) {
      drop();
      throw e;
    }
    if (!c.aborted) return c;
    drop();
    if (mine) return c;
  }
}

async function runCrawl(ctx: CheckContext, customerId: number): Promise<UssdCrawl> {
  const starts: CrawlStart[] = [
    { name: 'stocks', url: ussdUrl(ctx, 'stocks', { customerId }) },
    { name: 'assets', url: ussdUrl(ctx, 'assets', { customerId }) },
    { name: 'requests', url: ussdUrl(ctx, 'requests', { customerId }) },
    { name: 'home', url: ussdUrl(ctx, 'home', { customerId }), optional: true },
    { name: 'portfolio', url: ussdUrl(ctx, 'portfolio', { customerId }), optional: true },
  ];
  const sent = new Set<Exchange>();
  try {
    return await crawl<Exchange>({
      baseUrl: ctx.target.baseUrl,
      starts,
      maxViews: ctx.options.maxViews!,
      maxDepth: ctx.options.maxDepth!,
      allowMutations: ctx.flags.allowMutations,
      signal: ctx.signal,
      fetch: async (url) => {
        const out = await fetchView(ctx, url);
        sent.add(out.ref);
        return out;
      },
    });
  } finally {
    for (let i = ctx.exchanges.length - 1; i >= 0; i--) if (sent.has(ctx.exchanges[i]!)) ctx.exchanges.splice(i, 1);
  }
}

/** Puts a crawl exchange on this check's record, so the report shows it; returns it for the finding to name. */
function attach(ctx: CheckContext, view: CrawlView<Exchange> | undefined): Exchange | undefined {
  const ex = view?.ref;
  if (!ex) return undefined;
  if (!ctx.exchanges.some((e) => e.seq === ex.seq)) ctx.exchanges.push({ ...ex, checkId: ctx.check.id });
  return ex;
}

/** Fails with the first problem (and its exchange), listing a few more so a reviewer sees whether it is systematic. */
function failOn(ctx: CheckContext, problems: Array<Problem<Exchange>>, verdict: string, expected: string): void {
  const first = problems[0];
  if (!first) return;
  const exchange = attach(ctx, first.view);
  for (const v of first.also ?? []) attach(ctx, v);
  const others = problems.slice(1);
  const listed = others.slice(0, 5).map((p) => `- ${p.message}`);
  if (others.length > 5) listed.push(`- … and ${others.length - 5} more`);
  ctx.fail(`${verdict}: ${first.message}`, {
    expected,
    ...(others.length > 0 ? { observed: [`${others.length} more:`, ...listed].join('\n') } : {}),
    ...(exchange ? { exchange } : {}),
  });
}

/**
 * One problem per view for rules that judge a view as a whole (`per: 'view'`) or each of its options (`'option'`):
 * every menu judged, or every option of it, is recorded as judged (a view without options has no option to judge).
 */
function perView(
  ctx: CheckContext,
  c: UssdCrawl,
  per: 'view' | 'option',
  judge: (view: ReturnType<typeof menus<Exchange>>[number]) => string[],
): Array<Problem<Exchange>> {
  return menus(c).flatMap((view) => {
    const found = judge(view);
    if (per === 'view') ctx.judged(`view GET ${view.url}`);
    else if (view.ussd.options.length > 0) ctx.judged(`options of GET ${view.url}`, view.ussd.options.length);
    return found.length === 0 ? [] : [{ view, message: `${whereIs(view)}: ${found.join('; ')}` }];
  });
}

type SkipRemedy = Parameters<CheckContext['skip']>[1];

/** Ends a check that judged nothing as a skip that says why, never as a pass (the engine holds the same rule). */
function skipUnjudged(ctx: CheckContext, why: string, remedy?: SkipRemedy): void {
  if (ctx.subjectsJudged.count === 0) ctx.skip(why, remedy);
}

/** How the start menus answered, for a skip: "stocks 500, assets 500, requests 200". */
function startsAnswered(c: UssdCrawl): string {
  return [...c.views.values()]
    .filter((v) => v.steps.length === 0)
    .map((v) => `${v.start} ${v.status ?? v.error ?? '?'}`)
    .join(', ');
}

/** A skip for a crawl that judged no view: no start menu answered 200 with a USSD view. */
function noViewReason(c: UssdCrawl): string {
  return `no view answered 200 with a USSD view (start menus: ${startsAnswered(c)}): there is no menu to judge; ussd.links.alive judges the start menus`;
}

/** A skip for option rules over menus that offer none. */
function noOptionReason(c: UssdCrawl): string {
  const n = menus(c).length;
  return n === 0
    ? noViewReason(c)
    : `the ${n} view${n === 1 ? '' : 's'} seen offer no option: there is no option to judge`;
}

/**
 * When the crawl saw options and followed none of them, the skip of a rule on where options lead: it judged nothing
 * ("29 options seen, 0 followed: 29 foreign-origin (…)"), and a pass would claim a graph that was not seen. The
 * remedy is --allow-mutations when only order and cancel links were left.
 */
function nothingFollowed(c: UssdCrawl): { reason: string; remedy?: SkipRemedy } | undefined {
  if (c.links.length === 0 || c.links.some((l) => !l.skipped)) return undefined;
  const by = new Map<SkipReason, number>();
  for (const l of c.links) by.set(l.skipped!, (by.get(l.skipped!) ?? 0) + 1);
  const reasons = [...by].map(([r, n]) => `${n} ${r}: ${SKIP_REASONS[r]}`).join('; ');
  const mutations = !c.options.allowMutations && [...by.keys()].every((r) => r === 'order' || r === 'cancel');
  return {
    reason: `${c.links.length} option${c.links.length === 1 ? '' : 's'} seen, 0 followed (${reasons})`,
    ...(mutations ? { remedy: { kind: 'allow-mutations' } as const } : {}),
  };
}

function skipIfNothingFollowed(ctx: CheckContext, c: UssdCrawl, consequence: string): void {
  const none = nothingFollowed(c);
  if (none) ctx.skip(`${none.reason}: ${consequence}`, none.remedy);
}

function option(raw: unknown): unknown {
  return (raw as { option?: unknown } | null)?.option;
}

/**
 * The option URLs of a USSD view body, where they lead below `{base_url}` (a link written on another origin is followed
 * by its path, as the crawl does: url.ts followedUrl); none when the body is not one.
 */
function optionUrls(ctx: CheckContext, text: string, base: string): URL[] {
  return optionLinks(ctx, text, base).urls;
}

/** optionUrls, and how many options lead nowhere below `{base_url}` (no URL, or none naming a USSD view). */
function optionLinks(ctx: CheckContext, text: string, base: string): { urls: URL[]; unplaced: number } {
  const parsed = parseJson(text);
  const options = parsed.ok
    ? (parsed.value as { data?: { ussdOptions?: unknown } } | null)?.data?.ussdOptions
    : undefined;
  if (!Array.isArray(options)) return { urls: [], unplaced: 0 };
  const scope = scopeOf(ctx.target.baseUrl);
  const placed = options.map((o) => followLink((o as { requestUrl?: unknown } | null)?.requestUrl, base, scope)?.url);
  const urls = placed.filter((u): u is URL => u !== undefined);
  return { urls, unplaced: placed.length - urls.length };
}

// ---- the requests lists -----------------------------------------------------------------------------------------

type OrderStatus = (typeof ORDER_STATUSES)[number];

/** What a requests list offers, read over its pages. */
interface RequestsListing {
  /** requestId → the answer of the page that offered it. */
  ids: Map<string, HttpResponse>;
  /** Pages that did not answer 200. */
  failed: HttpResponse[];
  /** The page cap stopped the walk: more requests may follow. */
  capped: boolean;
  /**
   * The status filters the list offers: options to the same view with a `status` it does not carry (and no requestId,
   * nothing that places or cancels), by URL.
   */
  filters: URL[];
  /** Options of its pages that lead nowhere below `{base_url}`: what they list cannot be read. */
  unplaced: number;
}

/** requestIds offered by a requests list, over its pages (followed by their links, never by assuming what page means). */
async function requestIdsListed(ctx: CheckContext, firstUrl: string): Promise<RequestsListing> {
  const listing: RequestsListing = { ids: new Map(), failed: [], capped: false, filters: [], unplaced: 0 };
  const seen = new Set<string>([firstUrl]);
  const filters = new Set<string>();
  const queue = [firstUrl];
  for (let read = 0; queue.length > 0; read++) {
    if (read === MAX_LIST_PAGES) {
      listing.capped = true;
      break;
    }
    const url = queue.shift()!;
    const res = await ctx.send({ method: 'GET', path: url });
    if (res.status !== 200) {
      listing.failed.push(res);
      continue;
    }
    const here = new URL(url);
    const { urls, unplaced } = optionLinks(ctx, res.text, url);
    listing.unplaced += unplaced;
    for (const u of urls) {
      if (mutationOf(u)) continue;
      const id = u.searchParams.get('requestId');
      if (id !== null) {
        if (!listing.ids.has(id)) listing.ids.set(id, res);
      } else if (differsOnlyInPage(here, u)) {
        if (!seen.has(u.href)) {
          seen.add(u.href);
          queue.push(u.href);
        }
      } else if (isFilterOf(u, here) && !filters.has(normaliseUrl(u))) {
        filters.add(normaliseUrl(u));
        listing.filters.push(u);
      }
    }
  }
  return listing;
}

/** A link from the list at `list` to the same view narrowed by a `status` the list does not carry: a status filter. */
function isFilterOf(u: URL, list: URL): boolean {
  return (
    u.origin === list.origin &&
    u.pathname === list.pathname &&
    u.searchParams.has('status') &&
    !list.searchParams.has('status')
  );
}

/** The requests the requests menu lists, and how it was read. */
interface MenuRequests extends RequestsListing {
  /** The menu's own status filters, when it lists no request itself and they were read instead ("1) Pending … 4) Failed"). */
  through: URL[];
}

/**
 * The requests the unfiltered requests menu lists: on its pages or, when it lists none itself but offers status
 * filters (a menu of "1) Pending … 4) Failed", which the spec allows: what the menu shows is not given), under those
 * filters, each read over its pages, as a phone user would reach them.
 */
async function requestsOfMenu(ctx: CheckContext, customerId: number): Promise<MenuRequests> {
  const own = await requestIdsListed(ctx, ussdUrl(ctx, 'requests', { customerId }));
  if (own.ids.size > 0 || own.filters.length === 0 || own.failed.length > 0 || own.capped)
    return { ...own, through: [] };
  const out: MenuRequests = {
    ids: new Map(),
    failed: [],
    capped: false,
    filters: own.filters,
    unplaced: own.unplaced,
    through: own.filters,
  };
  for (const filter of own.filters) {
    const l = await requestIdsListed(ctx, filter.href);
    for (const [id, res] of l.ids) if (!out.ids.has(id)) out.ids.set(id, res);
    out.failed.push(...l.failed);
    out.capped ||= l.capped;
    out.unplaced += l.unplaced;
  }
  return out;
}

/** "status=PENDING, status=COMPLETED": the filters by their status. */
function filterNames(filters: readonly URL[]): string {
  return filters.map((u) => `status=${u.searchParams.getAll('status').join(',')}`).join(', ');
}

async function listingsByStatus(
  ctx: CheckContext,
  customerId: number,
  statuses: readonly OrderStatus[],
): Promise<Map<OrderStatus, RequestsListing>> {
  const out = new Map<OrderStatus, RequestsListing>();
  for (const status of statuses)
    out.set(status, await requestIdsListed(ctx, ussdUrl(ctx, 'requests', { customerId, status })));
  return out;
}

/** Filters that did not answer 200 on some page are judged by ussd.requests.status-filters; here they are noted. */
function unreadFilters(ctx: CheckContext, listings: Map<OrderStatus, RequestsListing>): OrderStatus[] {
  const unread: OrderStatus[] = [];
  for (const [status, l] of listings) {
    if (l.failed.length === 0 && !l.capped) continue;
    unread.push(status);
    const why = l.capped
      ? `has more than ${MAX_LIST_PAGES} pages`
      : `answered ${l.failed.map((r) => r.status).join(', ')}`;
    ctx.observe(`status=${status} ${why}: not read whole (a failed filter is judged by ussd.requests.status-filters)`);
  }
  return unread;
}

function idsText(ids: Iterable<string>, max = 5): string {
  const all = [...ids];
  return all.length === 0 ? 'none' : `${all.slice(0, max).join(', ')}${all.length > max ? `, … (${all.length})` : ''}`;
}

/** requestIds listed under more than one filter, each with those filters (in the spec's order). */
function listedTwice(listings: Map<OrderStatus, RequestsListing>): Map<string, OrderStatus[]> {
  const under = new Map<string, OrderStatus[]>();
  for (const status of ORDER_STATUSES)
    for (const id of listings.get(status)?.ids.keys() ?? []) under.set(id, [...(under.get(id) ?? []), status]);
  return new Map([...under].filter(([, statuses]) => statuses.length > 1));
}

function filtersText(statuses: readonly OrderStatus[]): string {
  return statuses.map((s) => `status=${s}`).join(' and ');
}

function requestLine(res: HttpResponse): string {
  return `GET ${res.exchange.request.url}`;
}

// ---- invalid query values ----------------------------------------------------------------------------------------

/** A value outside its parameter's domain, sent to one view with the fixture's customerId and nothing else. */
interface InvalidValue {
  endpoint: 'stocks' | 'assets' | 'requests';
  param: string;
  value: string;
  /** The parameter's row, and the Limits row for a negative page. */
  requirements: string[];
}

const INVALID_PAGES = ['-1', 'x', '1.5'];
/** "page | integer >= 0" on each view. */
const PAGE_ROWS = { stocks: 'REQ-USSD-07', requests: 'REQ-USSD-15', assets: 'REQ-USSD-20' } as const;

// Only parameters whose every reading, by the most lenient server, is a read. Never amount (it places an order) or
// cancelMode (it cancels one), which is why REQ-USSD-05 and REQ-USSD-14 have no check. inputMode=maybe read as true
// opens an amount prompt at most: an order needs an amount, and no amount (nor even an instrument) is sent.
// searchMode only searches, detail only shows more, and requestId without cancelMode names a request to show.

/** Outside a closed domain the parameter rows state (REQ-USSD-10): refusing them is MUST. */
const OUT_OF_DOMAIN: readonly InvalidValue[] = [
  ...(['stocks', 'requests', 'assets'] as const).flatMap((endpoint) =>
    INVALID_PAGES.map((value): InvalidValue => ({
      endpoint,
      param: 'page',
      value,
      requirements: [PAGE_ROWS[endpoint], ...(Number(value) < 0 ? ['REQ-LIM-02'] : [])],
    })),
  ),
  { endpoint: 'requests', param: 'requestId', value: 'abc', requirements: ['REQ-USSD-16'] },
  { endpoint: 'requests', param: 'status', value: 'FOO', requirements: ['REQ-USSD-17'] },
];

/** Not a boolean however a boolean is written (REQ-USSD-25): refusing them is SHOULD, not crashing on them MUST. */
const NOT_BOOLEANS: readonly InvalidValue[] = [
  { endpoint: 'stocks', param: 'inputMode', value: 'maybe', requirements: ['REQ-USSD-06'] },
  { endpoint: 'stocks', param: 'searchMode', value: 'maybe', requirements: ['REQ-USSD-08'] },
  { endpoint: 'assets', param: 'detail', value: 'maybe', requirements: ['REQ-USSD-21'] },
];

interface ProbeProblem {
  res: HttpResponse;
  message: string;
  requirements: string[];
}

async function sendInvalid(ctx: CheckContext, customerId: number, v: InvalidValue): Promise<HttpResponse> {
  return ctx.send({ method: 'GET', path: `/ussd/${v.endpoint}`, query: { customerId, [v.param]: v.value } });
}

function invalidText(v: InvalidValue): string {
  return `GET /ussd/${v.endpoint} with ${v.param}=${v.value}`;
}

function isRefusal(res: HttpResponse): boolean {
  return res.status >= 400 && res.status <= 499;
}

/** A value outside a closed domain that was not refused (a 5xx is no refusal); undefined when it was. */
function notRefused(v: InvalidValue, res: HttpResponse): ProbeProblem | undefined {
  if (isRefusal(res)) return undefined;
  const requirements = ['REQ-USSD-10', ...v.requirements];
  if (res.status >= 500)
    return {
      res,
      message: `${invalidText(v)} answered ${res.status}: the server failed instead of refusing the value`,
      requirements,
    };
  // A menu served for a negative page may offer another one: said, as it shows what the server made of the value.
  const parsed = res.status === 200 ? parseJson(res.text) : undefined;
  const data = parsed?.ok ? ussdDataOf(parsed.value) : undefined;
  const negative = data ? negativePageLinks(data.options, res.exchange.request.url) : [];
  return {
    res,
    message: `${invalidText(v)} answered ${answerLine(res)}${redirectNote(res)}: the value was not refused (a value clamped or ignored is no refusal)${negative.length > 0 ? `; the menu even leads to a negative page: ${negative[0]}` : ''}`,
    requirements,
  };
}

/** A boolean switch given "maybe": no 5xx, and a 2xx is a USSD view. Undefined when it holds. */
function booleanUnhandled(ctx: CheckContext, v: InvalidValue, res: HttpResponse): ProbeProblem | undefined {
  if (res.status >= 500)
    return {
      res,
      message: `${invalidText(v)} answered ${res.status}: the server failed instead of refusing the value`,
      requirements: v.requirements,
    };
  if (res.status < 200 || res.status > 299) return undefined;
  const parsed = parseJson(res.text);
  const body = parsed.ok ? parsed.value : undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      res,
      message: `${invalidText(v)} answered ${res.status} with ${parsed.ok ? 'JSON that is not an object' : 'a body that is not JSON'}, not a USSD view`,
      requirements: [...v.requirements, 'REQ-USSD-01'],
    };
  }
  const env = readEnvelope(ctx, res);
  const shape = validateAgainst('ussd-view', env.data, 'data');
  if (shape.length === 0) return undefined;
  return {
    res,
    message: `${invalidText(v)} answered ${res.status} with no USSD view: ${shape
      .slice(0, 3)
      .map((p) => `${p.path} ${p.message}`)
      .join('; ')}`,
    requirements: [...v.requirements, 'REQ-USSD-01'],
  };
}

/** Fails with the first problem and its exchange, listing the others. */
function failProbes(ctx: CheckContext, problems: ProbeProblem[], expected: string): void {
  const first = problems[0];
  if (!first) return;
  const others = problems.slice(1).map((p) => `- ${p.message}`);
  ctx.fail(first.message, {
    expected,
    observed: [describeResponse(first.res), ...(others.length > 0 ? [`${others.length} more:`, ...others] : [])].join(
      '\n',
    ),
    exchange: first.res.exchange,
    requirements: [...new Set(problems.flatMap((p) => p.requirements))],
  });
}

// ---- the order flow (--allow-mutations) ------------------------------------------------------------------------

async function statusesListing(ctx: CheckContext, customerId: number, requestId: string): Promise<string[]> {
  const listings = await listingsByStatus(ctx, customerId, ORDER_STATUSES);
  return ORDER_STATUSES.filter((status) => listings.get(status)!.ids.has(requestId));
}

/** The status and the first line of the menu shown ("200 "Order received""), or a body excerpt when it is no menu. */
function answerLine(res: HttpResponse): string {
  const parsed = parseJson(res.text);
  const data = parsed.ok ? ussdDataOf(parsed.value) : undefined;
  const title = data?.message.split(/\r\n|\r|\n/)[0];
  return title ? `${res.status} "${title}"` : describeResponse(res);
}

/** "stocks → page=1, requests → page=1": the page value of the first paging option of each start menu's first page. */
function firstPageLinks(c: UssdCrawl): string {
  const found: string[] = [];
  for (const view of menus(c).filter((v) => v.steps.length === 0)) {
    const link = c.links.find(
      (l) => l.from === view.key && l.url !== undefined && differsOnlyInPage(new URL(view.url), new URL(l.url)),
    );
    const page = link ? new URL(link.url!).searchParams.get('page') : null;
    if (page !== null) found.push(`${view.start} → page=${page}`);
  }
  return found.length === 0 ? 'no start menu offers another page' : found.join(', ');
}

function amountOf(link: CrawlLink): number {
  const u = new URL(link.url!);
  for (const [k, v] of u.searchParams) if (k.toLowerCase() === 'amount') return Number(v);
  return Number.POSITIVE_INFINITY;
}

// ---- the suite -------------------------------------------------------------------------------------------------

// With --allow-mutations the crawl and the order check place orders, which may change the customer's assets,
// transactions and requests while other checks read them: each check of the suite then runs alone.
export default defineSuite({
  name: 'ussd',
  title: 'USSD: the menu graph, every view and every link',
  alone: (flags: RunFlags) => flags.allowMutations,
  ...lifecycle,
  checks: [
    defineCheck({
      id: 'ussd.crawl.bounded',
      title: 'The USSD menus end: a crawl from the start menus covers them within the view and depth caps',
      level: 'SHOULD',
      requirements: ['REQ-SVC-04'],
      explain: {
        sends:
          'GET /ussd/stocks, /ussd/requests and /ussd/assets for the fixture customer, then every option URL the crawler reaches (never one that places or cancels an order without --allow-mutations)',
        passes:
          "the server's answers show that the USSD menus end: a crawl from the start menus covers them within the view and depth caps",
        fails:
          'any answer that does not (the check warns); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
      async run(ctx) {
        const c = await sharedCrawl(ctx);
        for (const line of crawlSummary(c)) ctx.observe(line);
        for (const note of deadLinks(c).notes) ctx.observe(`start menu not reachable: ${note}`);
        if (c.frontier.length === 0) {
          skipIfNothingFollowed(ctx, c, 'whether the menus end is not known beyond the start menus');
          // The menus end where the crawl ended without a cap: every view it visited is a subject.
          ctx.judged('view visited by the crawl', c.views.size);
          return;
        }
        const reasons = [...new Set(c.frontier.map((f) => f.reason))];
        const lines = frontierLines(c);
        ctx.fail(
          `the crawl stopped before the menus ended (${reasons.join(', ')}): ${c.frontier.length} views not visited; the graph may be without end`,
          {
            expected: `every menu reachable within ${c.options.maxViews} views and ${c.options.maxDepth} options from a start menu (raise --ussd-max-views / --ussd-max-depth for a larger menu tree)`,
            observed: [`frontier (first ${lines.length} of ${c.frontier.length}):`, ...lines.map((l) => `- ${l}`)].join(
              '\n',
            ),
          },
        );
      },
    }),
    defineCheck({
      id: 'ussd.view.schema',
      title:
        'Every USSD view answers in the envelope, data = {ussdMessage, ussdOptions[{option, requestUrl, requestType}]}',
      level: 'MUST',
      requirements: [
        'REQ-SVC-03',
        'REQ-ENV-01',
        'REQ-ENV-03',
        'REQ-ENV-04',
        'REQ-USSDV-01',
        'REQ-USSDV-02',
        'REQ-USSDV-03',
        'REQ-USSD-01',
      ],
      explain: {
        sends:
          'GET /ussd/stocks, /ussd/requests and /ussd/assets for the fixture customer, then every option URL the crawler reaches (never one that places or cancels an order without --allow-mutations)',
        passes:
          "the server's answers show that every USSD view answers in the envelope, data = {ussdMessage, ussdOptions[{option, requestUrl, requestType}]}",
        fails:
          'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
      async run(ctx) {
        const c = await sharedCrawl(ctx);
        const answered = [...c.views.values()].filter((v) => v.status === 200);
        for (const view of answered)
          for (const defect of isObject(view.body) ? envelopeDefects(view.body, view.status!) : [])
            ctx.alsoSee({
              requirements: [defect.requirement],
              ownedBy: ENVELOPE_OWNER,
              message: `the envelope of ${whereIs(view)} has ${defect.what}`,
              ...(view.ref ? { exchange: view.ref } : {}),
            });
        const problems = answered.flatMap((view) => {
          const found = schemaProblems(view);
          ctx.judged(`view GET ${view.url}`);
          return found.length === 0 ? [] : [{ view, message: `${whereIs(view)}: ${found.slice(0, 4).join('; ')}` }];
        });
        failOn(
          ctx,
          problems,
          'a view does not match the "USSD view" table',
          'the envelope {data, code, message} with data: ussdMessage (string), ussdOptions (array of {option integer, requestUrl string, requestType string})',
        );
        skipUnjudged(ctx, noViewReason(c));
      },
    }),
    defineCheck({
      id: 'ussd.view.message',
      title: 'The ussdMessage of every view is text to show the user, not empty',
      level: 'MUST',
      requirements: ['REQ-USSDV-02'],
      explain: {
        sends:
          'GET /ussd/stocks, /ussd/requests and /ussd/assets for the fixture customer, then every option URL the crawler reaches (never one that places or cancels an order without --allow-mutations)',
        passes: "the server's answers show that the ussdMessage of every view is text to show the user, not empty",
        fails:
          'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
      async run(ctx) {
        const c = await sharedCrawl(ctx);
        const problems = perView(ctx, c, 'view', (v) =>
          v.ussd.message.trim() === '' ? [`ussdMessage is ${JSON.stringify(v.ussd.message)}`] : [],
        );
        failOn(ctx, problems, 'a menu shows no text', 'a non-empty ussdMessage with the numbered choices');
        skipUnjudged(ctx, noViewReason(c));
      },
    }),
    defineCheck({
      id: 'ussd.options.numbers',
      title: 'Option numbers are integers, one per choice: no number is used twice in a view',
      level: 'MUST',
      requirements: ['REQ-USSDV-03', 'REQ-USSDV-04'],
      explain: {
        sends:
          'GET /ussd/stocks, /ussd/requests and /ussd/assets for the fixture customer, then every option URL the crawler reaches (never one that places or cancels an order without --allow-mutations)',
        passes:
          "the server's answers show that option numbers are integers, one per choice: no number is used twice in a view",
        fails:
          'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
      async run(ctx) {
        const c = await sharedCrawl(ctx);
        const problems = perView(ctx, c, 'option', (v) => numberProblems(v.ussd.options));
        failOn(
          ctx,
          problems,
          'option numbers a user cannot press unambiguously',
          'integer option numbers, each used by one option only',
        );
        skipUnjudged(ctx, noOptionReason(c));
      },
    }),
    defineCheck({
      id: 'ussd.options.in-message',
      title: 'Every option number is shown in ussdMessage as a numbered choice (in any common numbering style)',
      level: 'MUST',
      requirements: ['REQ-USSDV-04'],
      explain: {
        sends:
          'GET /ussd/stocks, /ussd/requests and /ussd/assets for the fixture customer, then every option URL the crawler reaches (never one that places or cancels an order without --allow-mutations)',
        passes:
          "the server's answers show that every option number is shown in ussdMessage as a numbered choice (in any common numbering style)",
        fails:
          'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
      async run(ctx) {
        const c = await sharedCrawl(ctx);
        const problems = perView(ctx, c, 'option', (v) => {
          const missing = notInMessage(v.ussd.message, v.ussd.options);
          return missing.length === 0
            ? []
            : [
                `option${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not shown in ${JSON.stringify(v.ussd.message)}`,
              ];
        });
        failOn(
          ctx,
          problems,
          'an option the user cannot see',
          'each option number on a line of ussdMessage such as "1. Buy", "1) Buy", "1 - Buy" or "0 Back"',
        );
        skipUnjudged(ctx, noOptionReason(c));
      },
    }),
    defineCheck({
      id: 'ussd.options.follow-up',
      title:
        'Each option leads to the choice shown with its number: no label names the instrument of another option and not its own',
      level: 'MUST',
      requirements: ['REQ-USSDV-04', 'REQ-USSDV-05'],
      explain: {
        sends:
          'GET /ussd/stocks, /ussd/requests and /ussd/assets for the fixture customer, then every option URL the crawler reaches (never one that places or cancels an order without --allow-mutations)',
        passes:
          "the server's answers show that each option leads to the choice shown with its number: no label names the instrument of another option and not its own",
        fails:
          'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
      async run(ctx) {
        // Menu texts are not known in advance, so only the one tie a client can read from both sides is judged: the
        // instrument symbol a label shows and the `symbol` its URL carries. A list whose links are shifted by one (choice
        // 2 "AMZN" opening GOOGL) shows it.
        const c = await sharedCrawl(ctx);
        const problems = menus(c).flatMap((view) => {
          const found = symbolMismatches(view.ussd.message, view.ussd.options, view.url, (n) =>
            ctx.judged(`options of GET ${view.url}`, n),
          );
          return found.length === 0 ? [] : [{ view, message: `${whereIs(view)}: ${found.join('; ')}` }];
        });
        failOn(
          ctx,
          problems,
          'an option that leads to another choice than the one shown with its number',
          "the requestUrl of the option numbered n is the follow-up of the choice shown as n (a label naming an instrument leads to that instrument's symbol)",
        );
        skipIfNothingFollowed(ctx, c, 'no option was followed, so no follow-up was seen past the start menus');
        skipUnjudged(
          ctx,
          menus(c).length === 0
            ? noViewReason(c)
            : `no option of the ${menus(c).length} menus seen shows an instrument symbol in its label and carries it in its URL (symbol=): there is no tie between a label and a follow-up to judge`,
        );
      },
    }),
    defineCheck({
      id: 'ussd.options.request-url',
      title: 'Every requestUrl is a full URL on the target, under {base_url}, addressing a USSD endpoint',
      level: 'MUST',
      requirements: ['REQ-USSDV-05', 'REQ-USSDV-09'],
      explain: {
        sends:
          'GET /ussd/stocks, /ussd/requests and /ussd/assets for the fixture customer, then every option URL the crawler reaches (never one that places or cancels an order without --allow-mutations)',
        passes:
          "the server's answers show that every requestUrl is a full URL on the target, under {base_url}, addressing a USSD endpoint",
        fails:
          'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange, and where every faulty link was written the same way (on one other origin: a server behind a proxy building links from its own address; on the target without the base path: a proxy prefix left out) says so in one line with the fix, the crawl following those links by path below {base_url} so that the other checks judge where they lead; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
      async run(ctx) {
        const c = await sharedCrawl(ctx);
        const problems = perView(ctx, c, 'option', (v) =>
          v.ussd.options.flatMap((raw, i) => {
            const p = requestUrlProblem((raw as { requestUrl?: unknown } | null)?.requestUrl, c.scope);
            return p ? [`option ${JSON.stringify(option(raw))} (ussdOptions[${i}]): ${p}`] : [];
          }),
        );
        // One cause in one line where it is one: links built from another origin, or without the proxy's prefix.
        const cause = problems.length > 0 ? movedCause(c) : undefined;
        if (cause) {
          const exchange = attach(ctx, cause.view);
          ctx.fail(`a follow-up URL a client cannot use as given: ${cause.message}`, {
            expected: cause.expected,
            observed: [`e.g. in ${whereIs(cause.view)}:`, ...cause.examples.map((e) => `- ${e}`)].join('\n'),
            ...(exchange ? { exchange } : {}),
          });
        }
        failOn(
          ctx,
          problems,
          'a follow-up URL a client cannot use as given',
          `an absolute URL under ${ctx.target.baseUrl}/ussd/ (stocks, assets, requests, home or portfolio)`,
        );
        skipUnjudged(ctx, noOptionReason(c));
      },
    }),
    defineCheck({
      id: 'ussd.options.request-type',
      title: 'Every requestType names an HTTP method',
      level: 'MUST',
      requirements: ['REQ-USSDV-06'],
      explain: {
        sends:
          'GET /ussd/stocks, /ussd/requests and /ussd/assets for the fixture customer, then every option URL the crawler reaches (never one that places or cancels an order without --allow-mutations)',
        passes: "the server's answers show that every requestType names an HTTP method",
        fails:
          'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
      async run(ctx) {
        const c = await sharedCrawl(ctx);
        const problems = perView(ctx, c, 'option', (v) =>
          v.ussd.options.flatMap((raw, i) => {
            const type = (raw as { requestType?: unknown } | null)?.requestType;
            return isHttpMethod(type)
              ? []
              : [
                  `option ${JSON.stringify(option(raw))} (ussdOptions[${i}]): requestType is ${JSON.stringify(type) ?? 'missing'}`,
                ];
          }),
        );
        failOn(
          ctx,
          problems,
          'a follow-up request without an HTTP method',
          'requestType is an HTTP method (GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS)',
        );
        skipUnjudged(ctx, noOptionReason(c));
      },
    }),
    defineCheck({
      id: 'ussd.options.get',
      title: 'Every requestType is GET, as in every option the spec shows',
      level: 'SHOULD',
      requirements: ['REQ-USSDV-07'],
      explain: {
        sends:
          'GET /ussd/stocks, /ussd/requests and /ussd/assets for the fixture customer, then every option URL the crawler reaches (never one that places or cancels an order without --allow-mutations)',
        passes: "the server's answers show that every requestType is GET, as in every option the spec shows",
        fails:
          'any answer that does not (the check warns); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
      async run(ctx) {
        const c = await sharedCrawl(ctx);
        const problems = perView(ctx, c, 'option', (v) =>
          v.ussd.options.flatMap((raw, i) => {
            const type = (raw as { requestType?: unknown } | null)?.requestType;
            return type === 'GET'
              ? []
              : [
                  `option ${JSON.stringify(option(raw))} (ussdOptions[${i}]): requestType ${JSON.stringify(type) ?? 'missing'}`,
                ];
          }),
        );
        failOn(
          ctx,
          problems,
          'a requestType other than "GET" (the crawler follows only GET, in any case)',
          'requestType "GET"',
        );
        skipUnjudged(ctx, noOptionReason(c));
      },
    }),
    defineCheck({
      id: 'ussd.options.customer-id',
      title: 'A follow-up URL that carries customerId carries the customer of the view it is on, once and unchanged',
      level: 'SHOULD',
      requirements: ['REQ-USSDV-11'],
      explain: {
        sends:
          'GET /ussd/stocks, /ussd/requests and /ussd/assets for the fixture customer, then every option URL the crawler reaches (never one that places or cancels an order without --allow-mutations)',
        passes:
          "the server's answers show that every follow-up URL that carries customerId carries the fixture customer's, once and unchanged (a URL without it is judged by ussd.links.alive: the parameter is required, so the link is dead)",
        fails:
          'a follow-up URL whose customerId names another customer, or that repeats the parameter (the check warns); the report names the menu, option and URL and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
      async run(ctx) {
        // The "requestUrl" row names customerId among the parameters and says nothing of its value: that a follow-up
        // carries the same customer is the one reasonable reading (REQ-USSDV-11, SHOULD). Whether it is there at all is
        // judged where the link is followed: without the required parameter it is dead (ussd.links.alive).
        const customerId = ctx.fixture('customerId');
        const c = await sharedCrawl(ctx);
        const notes = new Set<string>();
        const problems = menus(c).flatMap((view) => {
          const found = customerProblems(view.ussd.options, view.url, c.scope, customerId);
          for (const n of found.notes) notes.add(n);
          if (found.judged > 0) ctx.judged(`options of GET ${view.url}`, found.judged);
          return found.problems.length === 0
            ? []
            : [{ view, message: `${whereIs(view)}: ${found.problems.join('; ')}` }];
        });
        for (const n of [...notes].slice(0, 3)) ctx.observe(n);
        if (notes.size > 3) ctx.observe(`… and ${notes.size - 3} more links without customerId`);
        failOn(
          ctx,
          problems,
          'a follow-up URL that names another customer',
          `customerId=${customerId}, once, in every follow-up URL that carries customerId`,
        );
        skipUnjudged(
          ctx,
          menus(c).length === 0
            ? noViewReason(c)
            : `no option of the ${menus(c).length} menus seen leads to a USSD view with customerId in its URL: there is no customerId to judge${notes.size > 0 ? ` (${notes.size} links without it, judged by ussd.links.alive)` : ''}`,
        );
      },
    }),
    defineCheck({
      id: 'ussd.links.alive',
      title:
        'Every start menu and every option followed answers 200 with a USSD view (a dead link names the menu, option and path)',
      level: 'MUST',
      requirements: [
        'REQ-USSDV-05',
        'REQ-USSDV-09',
        'REQ-USSD-01',
        'REQ-USSD-03',
        'REQ-USSD-09',
        'REQ-USSD-12',
        'REQ-USSD-18',
      ],
      explain: {
        sends:
          'GET /ussd/stocks, /ussd/requests and /ussd/assets for the fixture customer, then every option URL the crawler reaches (never one that places or cancels an order without --allow-mutations)',
        passes:
          "the server's answers show that every start menu and every option followed answers 200 with a USSD view (a dead link names the menu, option and path)",
        fails:
          'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
      async run(ctx) {
        const c = await sharedCrawl(ctx);
        const dead = deadLinks(c);
        for (const n of dead.notes) ctx.observe(n);
        failOn(
          ctx,
          dead.problems,
          'a dead link',
          'every option a user can press leads to a menu: 200 with a USSD view',
        );
        skipIfNothingFollowed(ctx, c, "no option's follow-up was requested, so none could be found dead or alive");
        // Each start menu the spec defines, and each option followed, answered a USSD view: the subjects.
        const starts = [...c.views.values()].filter((v) => v.steps.length === 0 && !v.optionalStart).length;
        if (starts > 0) ctx.judged('start menu', starts);
        const followed = c.links.filter((l) => !l.skipped).length;
        if (followed > 0) ctx.judged('option followed', followed);
        skipUnjudged(ctx, `no start menu was requested and no option followed (${crawlSummary(c).join('; ')})`);
      },
    }),
    defineCheck({
      id: 'ussd.links.back',
      title:
        'The last option of every menu leads back to a parent menu (another menu on the path here, one that offers this menu, an earlier page, home or portfolio; never the menu itself, a later page, nor round a cycle)',
      level: 'MUST',
      requirements: ['REQ-USSDV-08'],
      explain: {
        sends:
          'GET /ussd/stocks, /ussd/requests and /ussd/assets for the fixture customer, then every option URL the crawler reaches (never one that places or cancels an order without --allow-mutations)',
        passes:
          "the server's answers show that the last option of every menu leads back to a parent menu: another menu on the path here, one that offers this menu (a paged list on any of its pages), an earlier page of the same list, home or portfolio (for a start menu, any other USSD view; never a later page), and that the ways back do not go round a cycle; a view without options (an END screen) is no menu, /ussd/home, the top menu, is not judged, and nor is a last option whose URL leads outside {base_url} to no USSD view (ussd.options.request-url fails it)",
        fails:
          'a last option that leads forward (a later page of the same list included, "98 More" last), or to the menu itself (the same URL in any parameter order, or another page of it with the same content), or menus whose ways back lead to each other and never reach home or portfolio: the check fails, naming the menu by its path of options and showing the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
      async run(ctx) {
        const c = await sharedCrawl(ctx);
        for (const note of backNotJudged(c)) ctx.observe(note);
        const unplaced: string[] = [];
        const problems = backProblems(c, {
          judged: (view) => ctx.judged(`last option of GET ${view.url}`),
          unjudged: (view, link) => unplaced.push(`${whereIs(view)} → ${JSON.stringify(link?.requestUrl)}`),
        });
        if (unplaced.length > 0)
          ctx.observe(
            `${unplaced.length} menu${unplaced.length === 1 ? '' : 's'} whose last option leads outside {base_url} to no USSD view, not judged (where it leads is unknown; the URL is ussd.options.request-url's): ${unplaced.slice(0, 3).join('; ')}${unplaced.length > 3 ? '; …' : ''}`,
          );
        failOn(
          ctx,
          problems,
          'a menu without a way back',
          'the last option leads to another menu: one on the path from the start menu, one that offers this one, /ussd/home or /ussd/portfolio; and following the ways back leaves every cycle',
        );
        skipUnjudged(
          ctx,
          menus(c).length === 0
            ? noViewReason(c)
            : `none of the ${menus(c).length} views seen is a menu with a way back to judge (${[...backNotJudged(c), ...(unplaced.length > 0 ? [`${unplaced.length} menus whose last option leads outside {base_url} to no USSD view`] : [])].join('; ') || 'no options'})`,
        );
      },
    }),
    defineCheck({
      id: 'ussd.links.paging',
      title:
        'Paging options (page=) lead to another page of content, and no option but the last (ussd.links.back judges it) leads to the view it is on',
      level: 'SHOULD',
      requirements: ['REQ-USSD-23'],
      explain: {
        sends:
          'GET /ussd/stocks, /ussd/requests and /ussd/assets for the fixture customer, then every option URL the crawler reaches (never one that places or cancels an order without --allow-mutations)',
        passes:
          "the server's answers show that paging options (page=) lead to another page of content, and no option but the last leads to the view it is on",
        fails:
          'any answer that does not (the check warns); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
      async run(ctx) {
        const c = await sharedCrawl(ctx);
        const problems = pagingProblems(c, (l) => ctx.judged(`option ${String(l.option)} of ${l.from}`));
        failOn(
          ctx,
          problems,
          'paging that does not move',
          'an option that changes page shows a different page; an option other than the last (the way back, judged by ussd.links.back) leads somewhere else',
        );
        skipIfNothingFollowed(ctx, c, 'no page was reached by an option, so no paging could be seen to move');
        skipUnjudged(
          ctx,
          menus(c).length === 0
            ? noViewReason(c)
            : `no menu of the ${menus(c).length} seen offers an option besides its last: there is no paging or choice to judge`,
        );
      },
    }),
    defineCheck({
      id: 'ussd.requests.status-filters',
      title: 'The requests menu answers a USSD view for each status filter: PENDING, COMPLETED, CANCELED, ERROR',
      level: 'MUST',
      requirements: ['REQ-STATE-03', 'REQ-USSD-01', 'REQ-USSD-12', 'REQ-USSD-17'],
      explain: {
        sends:
          'GET /ussd/requests for the fixture customer with status=PENDING, COMPLETED, CANCELED and ERROR, one at a time',
        passes: 'each answers 200 with a USSD view: the envelope, data = {ussdMessage, ussdOptions}',
        fails:
          'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const customerId = ctx.fixture('customerId');
        for (const status of ORDER_STATUSES) {
          const res = await ctx.send({ method: 'GET', path: '/ussd/requests', query: { customerId, status } });
          expectStatus(ctx, res, 200, `200 with the requests menu filtered by status=${status}`);
          const env = readEnvelope(ctx, res);
          expectSchema(ctx, res, env.data, 'ussd-view', { path: 'data', table: 'USSD view' });
          ctx.judged(`GET /ussd/requests?status=${status}`);
        }
      },
    }),
    defineCheck({
      id: 'ussd.requests.status-disjoint',
      title:
        'A request is listed under one status filter at most: the requestIds offered under PENDING, COMPLETED, CANCELED and ERROR are disjoint',
      level: 'MUST',
      requirements: ['REQ-STATE-03', 'REQ-USSD-17'],
      explain: {
        sends: `the requests menu of the fixture customer under each status filter (PENDING, COMPLETED, CANCELED, ERROR), every page followed (at most ${MAX_LIST_PAGES}); the filters that list a request twice are read again, in the reverse order`,
        passes:
          "the server's answers show that a request is listed under one status filter at most: the requestIds offered under PENDING, COMPLETED, CANCELED and ERROR are disjoint",
        fails:
          'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      timeoutMs: LISTS_CHECK_TIMEOUT_MS,
      async run(ctx) {
        const customerId = ctx.fixture('customerId');
        const first = await listingsByStatus(ctx, customerId, ORDER_STATUSES);
        unreadFilters(ctx, first);
        ctx.observe(
          `requestIds listed: ${[...first].map(([status, l]) => `status=${status}: ${idsText(l.ids.keys())}`).join('; ')}`,
        );
        const listing = [...first].filter(([, l]) => l.ids.size > 0).map(([status]) => status);
        const unplaced = [...first.values()].reduce((n, l) => n + l.unplaced, 0);
        if (listing.length < 2 && unplaced > 0)
          ctx.skip(
            `the status filters list ${listing.length === 0 ? 'no request' : `requests under status=${listing[0]} only`} that could be read: ${unplaced} of their options lead outside {base_url} to no USSD view (judged by ussd.options.request-url), so which requests they list is not known`,
          );
        if (listing.length < 2) {
          ctx.skip(
            `customer ${customerId} has requests under ${listing.length === 0 ? 'no status filter' : `status=${listing[0]} only`}: two filters cannot list the same request, so the rule cannot be judged (a fixture customer with requests in two statuses can)`,
            { kind: 'fixture', fixture: 'customerId' },
          );
        }
        // Each request listed under some filter is a subject: it is looked for under the other three.
        ctx.judged(
          'request listed under a status filter',
          new Set([...first.values()].flatMap((l) => [...l.ids.keys()])).size,
        );
        const suspects = listedTwice(first);
        if (suspects.size === 0) return;
        // A request may change status between two reads (PENDING, then COMPLETED, read in that order): the filters
        // involved are read again in the reverse order, and only a request listed twice both times fails.
        const involved = ORDER_STATUSES.filter((s) =>
          [...suspects.values()].some((statuses) => statuses.includes(s)),
        ).reverse();
        const again = await listingsByStatus(ctx, customerId, involved);
        const confirmed = [...listedTwice(again)];
        if (confirmed.length === 0) {
          ctx.observe(
            `listed under two filters on a first read, under one on a second (a status changed in between): ${[...suspects].map(([id, s]) => `${id} (${s.join(', ')})`).join('; ')}`,
          );
          return;
        }
        const [id, statuses] = confirmed[0]!;
        ctx.fail(`request ${id} is listed under ${filtersText(statuses)}`, {
          expected:
            'each requestId under one status filter at most: a request has one status, PENDING, COMPLETED, CANCELED or ERROR',
          observed: [
            ...statuses.slice(1).map((s) => `${requestLine(again.get(s)!.ids.get(id)!)} offers requestId ${id} too`),
            ...confirmed.slice(1, 6).map(([other, s]) => `request ${other}: ${filtersText(s)}`),
            ...(confirmed.length > 6 ? [`… and ${confirmed.length - 6} more requests`] : []),
          ].join('\n'),
          exchange: again.get(statuses[0]!)!.ids.get(id)!.exchange,
        });
      },
    }),
    defineCheck({
      id: 'ussd.requests.status-covered',
      title:
        'Every request the requests menu lists is listed under the status filter of one of PENDING, COMPLETED, CANCELED, ERROR',
      level: 'MUST',
      requirements: ['REQ-STATE-03', 'REQ-USSD-17'],
      explain: {
        sends: `the unfiltered requests menu of the fixture customer (and, when it lists no request itself but offers status filters, each of them) and the menu under each status filter, every page followed (at most ${MAX_LIST_PAGES}); the filters are read a second time, in the reverse order, when a request is under none`,
        passes:
          "the server's answers show that every request the requests menu lists is listed under the status filter of one of PENDING, COMPLETED, CANCELED, ERROR",
        fails:
          'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      timeoutMs: LISTS_CHECK_TIMEOUT_MS,
      async run(ctx) {
        // The four statuses are all there are: a request that no filter lists has another status, or a filter misses it.
        // Whether the unfiltered menu lists every request is not shown; only the requests it does list are judged.
        const customerId = ctx.fixture('customerId');
        const all = await requestsOfMenu(ctx, customerId);
        const where =
          all.through.length === 0
            ? 'the unfiltered requests menu'
            : `the requests menu's own status filters (${filterNames(all.through)})`;
        if (all.failed.length > 0 || all.capped) {
          ctx.skip(
            `${where} could not be read whole (${all.capped ? `more than ${MAX_LIST_PAGES} pages` : `${all.failed.map((r) => `${requestLine(r)} answered ${r.status}`).join('; ')}`}): the requests to look for are not known (a dead link is judged by ussd.links.alive)`,
          );
        }
        if (all.ids.size === 0 && all.unplaced > 0)
          ctx.skip(
            `${where} lists no request that could be read: ${all.unplaced} of its options lead outside {base_url} to no USSD view (judged by ussd.options.request-url), so the requests to look for are not known`,
          );
        if (all.ids.size === 0)
          ctx.skip(
            `the requests menu of customer ${customerId} lists no request${all.through.length > 0 ? `, under none of its status filters (${filterNames(all.through)}) either` : ''}: there is none to look for under the filters (fixtures.customerId naming a customer with order requests lets it be judged)`,
            { kind: 'fixture', fixture: 'customerId' },
          );
        const missingFrom = (listings: Map<OrderStatus, RequestsListing>) =>
          [...all.ids.keys()].filter((id) => ![...listings.values()].some((l) => l.ids.has(id)));
        const first = await listingsByStatus(ctx, customerId, ORDER_STATUSES);
        const unread = unreadFilters(ctx, first);
        const byFilter = [...first].map(([status, l]) => `${status} ${l.ids.size}`).join(', ');
        ctx.observe(
          all.through.length === 0
            ? `${all.ids.size} requests listed unfiltered; by filter: ${byFilter}`
            : `the requests menu lists no request itself but offers ${all.through.length} status filters (${filterNames(all.through)}): ${all.ids.size} requests listed under them; by filter: ${byFilter}`,
        );
        // Each request the menu lists is a subject: it is looked for under the four filters.
        ctx.judged(`request listed by ${where}`, all.ids.size);
        if (missingFrom(first).length === 0) return;
        if (unread.length > 0)
          ctx.skip(
            `requestIds under no filter read: ${idsText(missingFrom(first))}; status=${unread.join(', ')} could not be read whole, and they may be listed there`,
          );
        // A request may change status while the filters are read: they are read again, in the reverse order.
        const again = await listingsByStatus(ctx, customerId, [...ORDER_STATUSES].reverse());
        const unreadAgain = unreadFilters(ctx, again);
        if (unreadAgain.length > 0)
          ctx.skip(
            `requestIds under no filter on a first read: ${idsText(missingFrom(first))}; on the second, status=${unreadAgain.join(', ')} could not be read whole`,
          );
        const missing = missingFrom(again).filter((id) => missingFrom(first).includes(id));
        if (missing.length === 0) {
          ctx.observe(
            `requests under no filter on a first read were found on a second: ${idsText(missingFrom(first))}`,
          );
          return;
        }
        ctx.fail(
          `request ${missing[0]} is listed by the requests menu but under none of the status filters PENDING, COMPLETED, CANCELED, ERROR`,
          {
            expected:
              'every listed request is listed under the filter of its status, which is one of PENDING, COMPLETED, CANCELED, ERROR',
            observed: `under no filter (read twice): ${idsText(missing, 10)}; by filter: ${[...again].map(([status, l]) => `${status}: ${idsText(l.ids.keys())}`).join('; ')}`,
            exchange: all.ids.get(missing[0]!)!.exchange,
          },
        );
      },
    }),
    defineCheck({
      id: 'ussd.customer.required',
      title:
        'A USSD view requested without customerId, or with one that is not an integer, is rejected (any 4xx) with the error body',
      level: 'MUST',
      requirements: ['REQ-USSD-04', 'REQ-USSD-13', 'REQ-USSD-19'],
      explain: {
        sends: `GET /ussd/stocks, /ussd/assets and /ussd/requests without customerId, and with customerId=${NOT_INTEGERS.join(' and customerId=')}`,
        passes: 'each is rejected (any 4xx) with the error body {code, message}',
        fails:
          'a 2xx, a 5xx, or a rejection without the error body: the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        for (const endpoint of ['stocks', 'assets', 'requests']) {
          const res = await ctx.send({ method: 'GET', path: `/ussd/${endpoint}` });
          expectRejection(ctx, res, `GET /ussd/${endpoint} without the required customerId is rejected (any 4xx)`);
          expectErrorBody(ctx, res);
          ctx.judged(`GET /ussd/${endpoint} without customerId`);
          for (const customerId of NOT_INTEGERS) {
            const bad = await ctx.send({ method: 'GET', path: `/ussd/${endpoint}`, query: { customerId } });
            expectRejection(
              ctx,
              bad,
              `GET /ussd/${endpoint}?customerId=${customerId} is rejected (any 4xx): customerId is an integer`,
            );
            expectErrorBody(ctx, bad);
            ctx.judged(`GET /ussd/${endpoint}?customerId=${customerId}`);
          }
        }
      },
    }),
    defineCheck({
      id: 'ussd.customer.unknown',
      title:
        "A USSD view for a customer that does not exist is rejected (any 4xx) with the error body, or is a view that says so and serves none of a customer's menus",
      level: 'SHOULD',
      requirements: ['REQ-ERR-04'],
      explain: {
        sends:
          'GET /ussd/stocks, /ussd/assets and /ussd/requests with customerId = fixtures.unknownId, a customer that does not exist',
        passes:
          'each is rejected (any 4xx) with the error body, or answered with a USSD view that says the customer is unknown and offers at most the way home (/ussd/home or /ussd/portfolio)',
        fails:
          'a view that serves the menus as if the customer existed, a rejection without the error body, a redirect or a 5xx: the check warns; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        // The USSD endpoints list no errors: a refusal and a screen saying the customer is unknown are both readings
        // (REQ-USSD-24, recorded by ussd.info.readings). Serving the menus of a customer who does not exist is neither.
        const unknownId = ctx.fixture('unknownId');
        for (const endpoint of ['stocks', 'assets', 'requests']) {
          const res = await ctx.send({ method: 'GET', path: `/ussd/${endpoint}`, query: { customerId: unknownId } });
          if (res.status >= 200 && res.status <= 299) {
            const env = readEnvelope(ctx, res);
            const problems = unknownCustomerViewProblems(
              env.data,
              res.exchange.request.url,
              scopeOf(ctx.target.baseUrl),
            );
            if (problems.length > 0) {
              ctx.fail(
                `GET /ussd/${endpoint}?customerId=${unknownId} (a customer that does not exist) was served as if the customer existed: ${problems[0]}`,
                {
                  expected:
                    'a rejection (any 4xx) with the error body, or a USSD view that says the customer is unknown and offers at most the way home (/ussd/home or /ussd/portfolio)',
                  observed: [describeResponse(res), ...problems.slice(1, 6).map((p) => `- ${p}`)].join('\n'),
                  exchange: res.exchange,
                },
              );
            }
            ctx.judged(`GET /ussd/${endpoint}?customerId=${unknownId}`);
            continue;
          }
          expectRejection(
            ctx,
            res,
            `GET /ussd/${endpoint}?customerId=${unknownId} (a customer that does not exist) is rejected, or answered a view that says so`,
          );
          expectErrorBody(ctx, res);
          ctx.judged(`GET /ussd/${endpoint}?customerId=${unknownId}`);
          if (res.status !== 404) ctx.observe(`/ussd/${endpoint} answers ${res.status} for an unknown customer`);
        }
      },
    }),
    defineCheck({
      id: 'ussd.info.readings',
      title:
        'Which reading the server took of the open points of the USSD views: numbering, the number of the way back, views without options, page values, assetId, home and portfolio, an unknown customer (refused with which status, a view, or an END screen)',
      level: 'INFO',
      requirements: ['REQ-USSDV-10', 'REQ-USSD-11', 'REQ-USSD-22', 'REQ-USSD-24'],
      explain: {
        sends:
          'GET /ussd/stocks, /ussd/requests and /ussd/assets for the fixture customer, then every option URL the crawler reaches (never one that places or cancels an order without --allow-mutations); and GET /ussd/stocks, /ussd/assets and /ussd/requests with customerId = fixtures.unknownId, a customer that does not exist',
        passes:
          'always, once the answer could be read: the check records how the views number their choices, which number leads back, the views without options (END screens), the page values, where assetId appears, home and portfolio, and how an unknown customer is answered (the status of a refusal: the USSD endpoints list no errors; a view, or an END screen without options)',
        fails:
          'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning)',
      },
      timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
      async run(ctx) {
        const c = await sharedCrawl(ctx);
        ctx.observe(`numbering of the choices (not given): ${numberingSeen(c)}`);
        ctx.observe(`number of the way back (the last option; not given): ${backNumbersSeen(c)}`);
        ctx.observe(endScreensSeen(c));
        ctx.observe(
          `USSD page values (their unit is not given; the crawl follows them, never computes one): ${firstPageLinks(c)}`,
        );
        ctx.observe(assetIdSeen(c));
        ctx.observe(homePortfolioSeen(c));
        ctx.observe(requestsMenuSeen(c));
        // The crawl's views are what the readings above were read from.
        ctx.judged('view read for the readings', c.views.size);
        const unknownId = ctx.fixture('unknownId');
        const answers: Array<{ endpoint: string; status: number; kind: 'refused' | 'view' | 'end' | 'other' }> = [];
        for (const endpoint of ['stocks', 'assets', 'requests']) {
          const res = await ctx.send({ method: 'GET', path: `/ussd/${endpoint}`, query: { customerId: unknownId } });
          const data = (parseJson(res.text) as { value?: { data?: { ussdOptions?: unknown } } }).value?.data;
          const view = res.status === 200 && validateAgainst('ussd-view', data, 'data').length === 0;
          // A view without options is an END screen: the gateway shows the text and ends the session.
          const end = view && Array.isArray(data?.ussdOptions) && data.ussdOptions.length === 0;
          ctx.judged(`GET /ussd/${endpoint}?customerId=${unknownId}`);
          answers.push({
            endpoint,
            status: res.status,
            kind: res.status >= 400 && res.status <= 499 ? 'refused' : end ? 'end' : view ? 'view' : 'other',
          });
        }
        const statuses = answers.map((a) => a.status).join(', ');
        const kinds = new Set(answers.map((a) => a.kind));
        // The USSD endpoints list no errors: which 4xx refuses an unknown customer is the server's reading (REQ-USSD-24).
        if (kinds.size === 1 && kinds.has('refused'))
          ctx.observe(
            `unknown customer: refused (${statuses})${answers.every((a) => a.status === 404) ? ': 404 Not Found, as the Errors table lists for what does not exist' : ': a 4xx other than 404 (the USSD endpoints list no errors)'}`,
          );
        else if (kinds.size === 1 && kinds.has('view'))
          ctx.observe(
            `unknown customer: a view saying so (${statuses}); ussd.customer.unknown judges that it serves no menu of a customer`,
          );
        else if (kinds.size === 1 && kinds.has('end'))
          ctx.observe(
            `unknown customer: an END screen saying so, no options (${statuses}); ussd.customer.unknown judges that it shows text`,
          );
        else
          ctx.observe(
            `unknown customer: ${answers.map((a) => `/ussd/${a.endpoint} ${a.status} (${a.kind === 'end' ? 'END screen' : a.kind})`).join(', ')}`,
          );
      },
    }),
    defineCheck({
      id: 'ussd.params.domain-refused',
      title:
        'A page below 0 or not an integer, a requestId that is not an integer, a status outside PENDING, COMPLETED, CANCELED, ERROR is refused (any 4xx)',
      level: 'MUST',
      requirements: [
        'REQ-USSD-10',
        'REQ-USSD-07',
        'REQ-USSD-15',
        'REQ-USSD-16',
        'REQ-USSD-17',
        'REQ-USSD-20',
        'REQ-LIM-02',
      ],
      explain: {
        sends:
          'for the fixture customer, one value at a time: /ussd/stocks, /ussd/requests and /ussd/assets with page=-1, x or 1.5; /ussd/requests with requestId=abc and with status=FOO (never amount or cancelMode, which place or cancel orders)',
        passes: 'each is refused (any 4xx): the value is outside the closed domain its parameter row states',
        fails:
          'a 2xx (the value clamped or ignored, or served as is), a redirect or a 5xx (a crash is no refusal): the check fails, naming the value and what was served; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const customerId = ctx.fixture('customerId');
        const problems: ProbeProblem[] = [];
        const seen: string[] = [];
        for (const v of OUT_OF_DOMAIN) {
          const res = await sendInvalid(ctx, customerId, v);
          seen.push(`${v.endpoint} ${v.param}=${v.value}: ${res.status}`);
          const problem = notRefused(v, res);
          ctx.judged(invalidText(v));
          if (problem) problems.push(problem);
        }
        ctx.observe(seen.join('; '));
        failProbes(
          ctx,
          problems,
          'a value outside the closed domain of its parameter is refused (any 4xx): page is an integer >= 0, requestId an integer, status one of PENDING, COMPLETED, CANCELED, ERROR',
        );
      },
    }),
    defineCheck({
      id: 'ussd.params.boolean-handled',
      title:
        'A boolean switch given a value that is not a boolean (inputMode, searchMode, detail = maybe) never crashes a view',
      level: 'MUST',
      requirements: ['REQ-USSD-01', 'REQ-USSD-06', 'REQ-USSD-08', 'REQ-USSD-21'],
      explain: {
        sends:
          'for the fixture customer, one value at a time: /ussd/stocks with inputMode=maybe and with searchMode=maybe, /ussd/assets with detail=maybe (never cancelMode, which cancels orders)',
        passes: 'each is refused (any 4xx), or served as a USSD view',
        fails:
          'a 5xx, or a 2xx that is no USSD view: the check fails; refusing the value is ussd.params.boolean-refused (SHOULD); no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        // Refusing the value is the SHOULD (ussd.params.boolean-refused): how a boolean is written is not shown.
        const customerId = ctx.fixture('customerId');
        const problems: ProbeProblem[] = [];
        const seen: string[] = [];
        for (const v of NOT_BOOLEANS) {
          const res = await sendInvalid(ctx, customerId, v);
          seen.push(`${v.endpoint} ${v.param}=${v.value}: ${res.status}`);
          const problem = booleanUnhandled(ctx, v, res);
          ctx.judged(invalidText(v));
          if (problem) problems.push(problem);
        }
        ctx.observe(seen.join('; '));
        failProbes(
          ctx,
          problems,
          'a value that is not a boolean is refused (any 4xx) or served as a USSD view; never a 5xx',
        );
      },
    }),
    defineCheck({
      id: 'ussd.params.boolean-refused',
      title:
        'A boolean switch given a value that is not a boolean (inputMode, searchMode, detail = maybe) is refused (any 4xx)',
      level: 'SHOULD',
      requirements: ['REQ-USSD-25'],
      explain: {
        sends:
          'for the fixture customer, one value at a time: /ussd/stocks with inputMode=maybe and with searchMode=maybe, /ussd/assets with detail=maybe (never cancelMode, which cancels orders)',
        passes: 'each is refused (any 4xx)',
        fails:
          'a 2xx or a redirect (the value was not refused): the check warns; a 5xx is left to ussd.params.boolean-handled; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const customerId = ctx.fixture('customerId');
        const problems: ProbeProblem[] = [];
        for (const v of NOT_BOOLEANS) {
          const res = await sendInvalid(ctx, customerId, v);
          if (isRefusal(res)) {
            ctx.judged(invalidText(v));
            continue;
          }
          // A 5xx is ussd.params.boolean-handled's failure, not a second one here.
          if (res.status >= 500)
            ctx.observe(`${invalidText(v)} answered ${res.status}: judged by ussd.params.boolean-handled`);
          else
            problems.push({
              res,
              message: `${invalidText(v)} answered ${res.status}${redirectNote(res)}: the value was not refused`,
              requirements: ['REQ-USSD-25'],
            });
        }
        failProbes(
          ctx,
          problems,
          'a value that is not a boolean is refused (any 4xx): "maybe" is true or false in no writing of a boolean',
        );
        skipUnjudged(
          ctx,
          `every value answered 5xx (${NOT_BOOLEANS.map(invalidText).join('; ')}): a crash is judged by ussd.params.boolean-handled, and whether the value is refused was not seen`,
        );
      },
    }),
    defineCheck({
      id: 'ussd.flow.order-cancel',
      title:
        'With --allow-mutations: an order placed through input mode is listed PENDING, then canceled through cancel mode and listed CANCELED',
      level: 'INFO',
      requirements: ['REQ-STATE-07'],
      explain: {
        sends:
          'with --allow-mutations only: the smallest order the crawled menus offer (an option carrying amount), then the requests menu, the detail of the new request and its cancel option',
        passes:
          'always, once the answer could be read: the check records the status filters the new request is listed under once placed (PENDING expected) and once canceled (CANCELED expected)',
        fails:
          'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning); without --allow-mutations it is skipped',
      },
      timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
      async run(ctx) {
        if (!ctx.flags.allowMutations)
          ctx.skip('places and cancels an order: runs only with --allow-mutations', { kind: 'allow-mutations' });
        const customerId = ctx.fixture('customerId');
        const c = await sharedCrawl(ctx);
        const orders = c.links.filter((l) => l.mutation === 'order' && l.url !== undefined);
        // The smallest amount offered: the least a real account is charged if the server executes it.
        const order = orders.sort((a, b) => amountOf(a) - amountOf(b))[0];
        if (!order) return ctx.skip('no option of the menus carries amount: no order can be placed through them');

        const before = (await requestsOfMenu(ctx, customerId)).ids;
        const placed = await ctx.send({ method: 'GET', path: order.url! });
        ctx.observe(`placed an order: ${linkTrail(c, order)} → GET ${order.url} → ${answerLine(placed)}`);
        // What the server answered to an order is recorded whatever it was: the subject of this INFO check.
        ctx.judged(`order placed: GET ${order.url}`);
        if (placed.status !== 200) return;
        const offered = optionUrls(ctx, placed.text, order.url!)
          .map((u) => u.searchParams.get('requestId'))
          .filter((id): id is string => id !== null);
        const after = (await requestsOfMenu(ctx, customerId)).ids;
        const requestId = offered[0] ?? [...after.keys()].find((id) => !before.has(id));
        if (requestId === undefined) {
          ctx.observe(
            'the new order request could not be found: no requestId on the confirmation, and no new request in the requests menu',
          );
          return;
        }
        ctx.observe(
          `request ${requestId} is listed under: ${(await statusesListing(ctx, customerId, requestId)).join(', ') || 'no status filter'} (PENDING expected)`,
        );

        const detailUrl = ussdUrl(ctx, 'requests', { customerId, requestId });
        const detail = await ctx.send({ method: 'GET', path: detailUrl });
        const cancel = (detail.status === 200 ? optionUrls(ctx, detail.text, detailUrl) : []).find(
          (u) => mutationOf(u) === 'cancel' && u.searchParams.get('requestId') === requestId,
        );
        if (!cancel) {
          ctx.observe(
            `the detail of request ${requestId} (GET ${detailUrl} → ${detail.status}) offers no cancel option`,
          );
          return;
        }
        const canceled = await ctx.send({ method: 'GET', path: cancel.href });
        ctx.observe(`canceled it: GET ${cancel.href} → ${answerLine(canceled)}`);
        ctx.observe(
          `request ${requestId} is then listed under: ${(await statusesListing(ctx, customerId, requestId)).join(', ') || 'no status filter'} (CANCELED expected)`,
        );
      },
    }),
  ],
});
