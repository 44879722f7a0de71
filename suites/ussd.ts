// Suite `ussd`: crawl the menu graph the way a phone user would, and check every view and every link (spec "USSD
// view", "USSD views"). Menu texts, depth and numbering are not known in advance, so the checks judge only what the
// spec states; the crawl itself is src/ussd/crawler.ts and the rules src/ussd/rules.ts.
//
// One crawl per run, shared by every check: it is memoised on the run's Session, which every check of one run shares.
// The check that happens to start it would otherwise own hundreds of recorded exchanges, so they are taken off it and
// kept with the crawl; a check that finds a problem attaches the exchanges that show it, and only those.
import type { CheckContext } from '../src/runner/context.js';
import type { Session } from '../src/runner/session.js';
import type { Exchange } from '../src/http/exchange.js';
import { TransportError, type HttpResponse } from '../src/http/client.js';
import { parseJson } from '../src/http/json.js';
import { defineCheck, defineSuite } from '../src/runner/check.js';
import { describeResponse, expectErrorBody, expectRejection, expectSchema, expectStatus, readEnvelope } from '../src/runner/expect.js';
import { crawl, ussdDataOf, type Crawl, type CrawlLink, type CrawlStart, type CrawlView, type FetchOutcome } from '../src/ussd/crawler.js';
import {
  backProblems,
  crawlSummary,
  customerProblems,
  deadLinks,
  frontierLines,
  isHttpMethod,
  linkTrail,
  menus,
  notInMessage,
  numberProblems,
  pagingProblems,
  requestUrlProblem,
  schemaProblems,
  whereIs,
  type Problem,
} from '../src/ussd/rules.js';
import { differsOnlyInPage, mutationOf, resolveUrl } from '../src/ussd/url.js';

type UssdCrawl = Crawl<Exchange>;

/** The crawl's own time budget stays well inside this, so a slow server yields a partial crawl and a warning. */
const CRAWL_CHECK_TIMEOUT_MS = 90_000;
const ORDER_STATUSES = ['PENDING', 'COMPLETED', 'CANCELED', 'ERROR'] as const;
/** How many pages of one requests list the order flow reads at most. */
const MAX_LIST_PAGES = 20;

const crawls = new WeakMap<Session, Promise<UssdCrawl>>();

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
    let pending = crawls.get(ctx.session);
    const mine = pending === undefined;
    if (!pending) {
      pending = runCrawl(ctx, customerId);
      crawls.set(ctx.session, pending);
    }
    const drop = () => crawls.get(ctx.session) === pending && crawls.delete(ctx.session);
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
      maxViews: ctx.flags.ussdMaxViews,
      maxDepth: ctx.flags.ussdMaxDepth,
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

/** One problem per view for rules that judge a view as a whole. */
function perView(c: UssdCrawl, judge: (view: ReturnType<typeof menus<Exchange>>[number]) => string[]): Array<Problem<Exchange>> {
  return menus(c).flatMap((view) => {
    const found = judge(view);
    return found.length === 0 ? [] : [{ view, message: `${whereIs(view)}: ${found.join('; ')}` }];
  });
}

function option(raw: unknown): unknown {
  return (raw as { option?: unknown } | null)?.option;
}

/** The option URLs of a USSD view body, resolved; none when the body is not one. */
function optionUrls(text: string, base: string): URL[] {
  const parsed = parseJson(text);
  const options = parsed.ok ? ((parsed.value as { data?: { ussdOptions?: unknown } } | null)?.data?.ussdOptions) : undefined;
  if (!Array.isArray(options)) return [];
  return options
    .map((o) => (o as { requestUrl?: unknown } | null)?.requestUrl)
    .map((href) => (typeof href === 'string' ? resolveUrl(href, base) : undefined))
    .filter((u): u is URL => u !== undefined);
}

// ---- the order flow (--allow-mutations) ------------------------------------------------------------------------

/** requestIds offered by a requests list, over its pages (followed by their links, never by assuming what page means). */
async function requestIdsListed(ctx: CheckContext, firstUrl: string): Promise<Set<string>> {
  const ids = new Set<string>();
  const seen = new Set<string>([firstUrl]);
  const queue = [firstUrl];
  while (queue.length > 0 && seen.size <= MAX_LIST_PAGES) {
    const url = queue.shift()!;
    const res = await ctx.send({ method: 'GET', path: url });
    if (res.status !== 200) continue;
    for (const u of optionUrls(res.text, url)) {
      if (mutationOf(u)) continue;
      const id = u.searchParams.get('requestId');
      if (id !== null) ids.add(id);
      else if (differsOnlyInPage(new URL(url), u) && !seen.has(u.href)) {
        seen.add(u.href);
        queue.push(u.href);
      }
    }
  }
  return ids;
}

async function statusesListing(ctx: CheckContext, customerId: number, requestId: string): Promise<string[]> {
  const found: string[] = [];
  for (const status of ORDER_STATUSES) {
    if ((await requestIdsListed(ctx, ussdUrl(ctx, 'requests', { customerId, status }))).has(requestId)) found.push(status);
  }
  return found;
}

/** The status and the first line of the menu shown ("200 "Order received""), or a body excerpt when it is no menu. */
function answerLine(res: HttpResponse): string {
  const parsed = parseJson(res.text);
  const data = parsed.ok ? ussdDataOf(parsed.value) : undefined;
  const title = data?.message.split(/\r\n|\r|\n/)[0];
  return title ? `${res.status} "${title}"` : describeResponse(res);
}

function amountOf(link: CrawlLink): number {
  const u = new URL(link.url!);
  for (const [k, v] of u.searchParams) if (k.toLowerCase() === 'amount') return Number(v);
  return Number.POSITIVE_INFINITY;
}

// ---- the suite -------------------------------------------------------------------------------------------------

export default defineSuite('ussd', 'USSD: the menu graph, every view and every link', [
  defineCheck({
    id: 'ussd.crawl.bounded',
    title: 'The USSD menus end: a crawl from the start menus covers them within the view and depth caps',
    level: 'SHOULD',
    requirements: ['REQ-SVC-04'],
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      const c = await sharedCrawl(ctx);
      for (const line of crawlSummary(c)) ctx.observe(line);
      for (const note of deadLinks(c).notes) ctx.observe(`start menu not reachable: ${note}`);
      if (c.frontier.length === 0) return;
      const reasons = [...new Set(c.frontier.map((f) => f.reason))];
      const lines = frontierLines(c);
      ctx.fail(`the crawl stopped before the menus ended (${reasons.join(', ')}): ${c.frontier.length} views not visited; the graph may be without end`, {
        expected: `every menu reachable within ${c.options.maxViews} views and ${c.options.maxDepth} options from a start menu (raise --ussd-max-views / --ussd-max-depth for a larger menu tree)`,
        observed: [`frontier (first ${lines.length} of ${c.frontier.length}):`, ...lines.map((l) => `- ${l}`)].join('\n'),
      });
    },
  }),
  defineCheck({
    id: 'ussd.view.schema',
    title: 'Every USSD view answers in the envelope, data = {ussdMessage, ussdOptions[{option, requestUrl, requestType}]}',
    level: 'MUST',
    requirements: ['REQ-SVC-03', 'REQ-ENV-01', 'REQ-ENV-03', 'REQ-ENV-04', 'REQ-USSDV-01', 'REQ-USSDV-02', 'REQ-USSDV-03', 'REQ-USSD-01'],
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      const c = await sharedCrawl(ctx);
      const problems = [...c.views.values()]
        .filter((v) => v.status === 200)
        .flatMap((view) => {
          const found = schemaProblems(view);
          return found.length === 0 ? [] : [{ view, message: `${whereIs(view)}: ${found.slice(0, 4).join('; ')}` }];
        });
      failOn(ctx, problems, 'a view does not match the "USSD view" table', 'the envelope {data, code, message} with data: ussdMessage (string), ussdOptions (array of {option integer, requestUrl string, requestType string})');
    },
  }),
  defineCheck({
    id: 'ussd.view.message',
    title: 'The ussdMessage of every view is text to show the user, not empty',
    level: 'MUST',
    requirements: ['REQ-USSDV-02'],
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      const c = await sharedCrawl(ctx);
      const problems = perView(c, (v) => (v.ussd.message.trim() === '' ? [`ussdMessage is ${JSON.stringify(v.ussd.message)}`] : []));
      failOn(ctx, problems, 'a menu shows no text', 'a non-empty ussdMessage with the numbered choices');
    },
  }),
  defineCheck({
    id: 'ussd.options.numbers',
    title: 'Option numbers are integers, one per choice: no number is used twice in a view',
    level: 'MUST',
    requirements: ['REQ-USSDV-03', 'REQ-USSDV-04'],
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      const c = await sharedCrawl(ctx);
      const problems = perView(c, (v) => numberProblems(v.ussd.options));
      failOn(ctx, problems, 'option numbers a user cannot press unambiguously', 'integer option numbers, each used by one option only');
    },
  }),
  defineCheck({
    id: 'ussd.options.in-message',
    title: 'Every option number is shown in ussdMessage as a numbered choice (in any common numbering style)',
    level: 'MUST',
    requirements: ['REQ-USSDV-04'],
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      const c = await sharedCrawl(ctx);
      const problems = perView(c, (v) => {
        const missing = notInMessage(v.ussd.message, v.ussd.options);
        return missing.length === 0 ? [] : [`option${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not shown in ${JSON.stringify(v.ussd.message)}`];
      });
      failOn(ctx, problems, 'an option the user cannot see', 'each option number on a line of ussdMessage such as "1. Buy", "1) Buy", "1 - Buy" or "0 Back"');
    },
  }),
  defineCheck({
    id: 'ussd.options.request-url',
    title: 'Every requestUrl is a full URL on the target, under {base_url}, addressing a USSD endpoint',
    level: 'MUST',
    requirements: ['REQ-USSDV-05', 'REQ-USSDV-09'],
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      const c = await sharedCrawl(ctx);
      const problems = perView(c, (v) =>
        v.ussd.options.flatMap((raw, i) => {
          const p = requestUrlProblem((raw as { requestUrl?: unknown } | null)?.requestUrl, c.scope);
          return p ? [`option ${JSON.stringify(option(raw))} (ussdOptions[${i}]): ${p}`] : [];
        }),
      );
      failOn(ctx, problems, 'a follow-up URL a client cannot use as given', `an absolute URL under ${ctx.target.baseUrl}/ussd/ (stocks, assets, requests, home or portfolio)`);
    },
  }),
  defineCheck({
    id: 'ussd.options.request-type',
    title: 'Every requestType names an HTTP method',
    level: 'MUST',
    requirements: ['REQ-USSDV-06'],
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      const c = await sharedCrawl(ctx);
      const problems = perView(c, (v) =>
        v.ussd.options.flatMap((raw, i) => {
          const type = (raw as { requestType?: unknown } | null)?.requestType;
          return isHttpMethod(type) ? [] : [`option ${JSON.stringify(option(raw))} (ussdOptions[${i}]): requestType is ${JSON.stringify(type) ?? 'missing'}`];
        }),
      );
      failOn(ctx, problems, 'a follow-up request without an HTTP method', 'requestType is an HTTP method (GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS)');
    },
  }),
  defineCheck({
    id: 'ussd.options.get',
    title: 'Every requestType is GET, as in every option the spec shows',
    level: 'SHOULD',
    requirements: ['REQ-USSDV-07'],
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      const c = await sharedCrawl(ctx);
      const problems = perView(c, (v) =>
        v.ussd.options.flatMap((raw, i) => {
          const type = (raw as { requestType?: unknown } | null)?.requestType;
          return type === 'GET' ? [] : [`option ${JSON.stringify(option(raw))} (ussdOptions[${i}]): requestType ${JSON.stringify(type) ?? 'missing'}`];
        }),
      );
      failOn(ctx, problems, 'a follow-up request that is not a GET (the crawler does not follow it)', 'requestType "GET"');
    },
  }),
  defineCheck({
    id: 'ussd.options.customer-id',
    title: 'customerId is carried, unchanged, into every follow-up URL',
    level: 'MUST',
    requirements: ['REQ-USSDV-05', 'REQ-USSD-04'],
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      const customerId = ctx.fixture('customerId');
      const c = await sharedCrawl(ctx);
      const notes = new Set<string>();
      const problems = perView(c, (v) => {
        const found = customerProblems(v.ussd.options, v.url, c.scope, customerId);
        for (const n of found.notes) notes.add(n);
        return found.problems;
      });
      for (const n of [...notes].slice(0, 3)) ctx.observe(n);
      if (notes.size > 3) ctx.observe(`… and ${notes.size - 3} more links to home or portfolio without customerId`);
      failOn(ctx, problems, 'a follow-up URL that loses the customer', `customerId=${customerId} in every follow-up URL of /ussd/stocks, /ussd/assets, /ussd/requests (the parameter is required there)`);
    },
  }),
  defineCheck({
    id: 'ussd.links.alive',
    title: 'Every start menu and every option followed answers 200 with a USSD view (a dead link names the menu, option and path)',
    level: 'MUST',
    requirements: ['REQ-USSDV-05', 'REQ-USSDV-09', 'REQ-USSD-01', 'REQ-USSD-03', 'REQ-USSD-09', 'REQ-USSD-12', 'REQ-USSD-18'],
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      const c = await sharedCrawl(ctx);
      const dead = deadLinks(c);
      for (const n of dead.notes) ctx.observe(n);
      failOn(ctx, dead.problems, 'a dead link', 'every option a user can press leads to a menu: 200 with a USSD view');
    },
  }),
  defineCheck({
    id: 'ussd.links.back',
    title: 'The last option of every menu leads back to a parent menu (one on the path here, one that offers this menu, home or portfolio)',
    level: 'MUST',
    requirements: ['REQ-USSDV-08'],
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      const c = await sharedCrawl(ctx);
      failOn(ctx, backProblems(c), 'a menu without a way back', 'the last option leads to a menu on the path from the start menu, a menu that offers this one, /ussd/home or /ussd/portfolio');
    },
  }),
  defineCheck({
    id: 'ussd.links.paging',
    title: 'Paging options (page=) lead to another page of content, and no option leads to the view it is on',
    level: 'SHOULD',
    requirements: ['REQ-USSD-23'],
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      const c = await sharedCrawl(ctx);
      failOn(ctx, pagingProblems(c), 'paging that does not move', 'an option that changes page shows a different page; an option (other than the way back of a root menu) leads somewhere else');
    },
  }),
  defineCheck({
    id: 'ussd.requests.status-filters',
    title: 'The requests menu answers a USSD view for each status filter: PENDING, COMPLETED, CANCELED, ERROR',
    level: 'MUST',
    requirements: ['REQ-STATE-03', 'REQ-USSD-01', 'REQ-USSD-12', 'REQ-USSD-17'],
    async run(ctx) {
      const customerId = ctx.fixture('customerId');
      for (const status of ORDER_STATUSES) {
        const res = await ctx.send({ method: 'GET', path: '/ussd/requests', query: { customerId, status } });
        expectStatus(ctx, res, 200, `200 with the requests menu filtered by status=${status}`);
        const env = readEnvelope(ctx, res);
        expectSchema(ctx, res, env.data, 'ussd-view', { path: 'data', table: 'USSD view' });
      }
    },
  }),
  defineCheck({
    id: 'ussd.customer.required',
    title: 'A USSD view requested without customerId is rejected (any 4xx) with the error body',
    level: 'MUST',
    requirements: ['REQ-USSD-04', 'REQ-USSD-13', 'REQ-USSD-19'],
    async run(ctx) {
      for (const endpoint of ['stocks', 'assets', 'requests']) {
        const res = await ctx.send({ method: 'GET', path: `/ussd/${endpoint}` });
        expectRejection(ctx, res, `GET /ussd/${endpoint} without the required customerId is rejected (any 4xx)`);
        expectErrorBody(ctx, res);
      }
    },
  }),
  defineCheck({
    id: 'ussd.customer.unknown',
    title: 'A USSD view for a customer that does not exist is rejected (any 4xx) with the error body',
    level: 'MUST',
    requirements: ['REQ-USSD-04', 'REQ-USSD-13', 'REQ-USSD-19'],
    async run(ctx) {
      const unknownId = ctx.fixture('unknownId');
      for (const endpoint of ['stocks', 'assets', 'requests']) {
        const res = await ctx.send({ method: 'GET', path: `/ussd/${endpoint}`, query: { customerId: unknownId } });
        expectRejection(ctx, res, `GET /ussd/${endpoint}?customerId=${unknownId} (a customer that does not exist) is rejected, not served a menu`);
        expectErrorBody(ctx, res);
        if (res.status !== 404) ctx.observe(`/ussd/${endpoint} answers ${res.status} for an unknown customer`);
      }
    },
  }),
  defineCheck({
    id: 'ussd.customer.unknown-404',
    title: 'A USSD view for a customer that does not exist answers 404 Not Found',
    level: 'SHOULD',
    requirements: ['REQ-ERR-04'],
    async run(ctx) {
      const unknownId = ctx.fixture('unknownId');
      for (const endpoint of ['stocks', 'assets', 'requests']) {
        const res = await ctx.send({ method: 'GET', path: `/ussd/${endpoint}`, query: { customerId: unknownId } });
        expectStatus(ctx, res, 404, `404: customer ${unknownId} does not exist`);
      }
    },
  }),
  defineCheck({
    id: 'ussd.flow.order-cancel',
    title: 'With --allow-mutations: an order placed through input mode is listed PENDING, then canceled through cancel mode and listed CANCELED',
    level: 'INFO',
    requirements: ['REQ-STATE-07'],
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      if (!ctx.flags.allowMutations) ctx.skip('places and cancels an order: runs only with --allow-mutations');
      const customerId = ctx.fixture('customerId');
      const c = await sharedCrawl(ctx);
      const orders = c.links.filter((l) => l.mutation === 'order' && l.url !== undefined);
      // The smallest amount offered: the least a real account is charged if the server executes it.
      const order = orders.sort((a, b) => amountOf(a) - amountOf(b))[0];
      if (!order) return ctx.skip('no option of the menus carries amount: no order can be placed through them');

      const allRequests = ussdUrl(ctx, 'requests', { customerId });
      const before = await requestIdsListed(ctx, allRequests);
      const placed = await ctx.send({ method: 'GET', path: order.url! });
      ctx.observe(`placed an order: ${linkTrail(c, order)} → GET ${order.url} → ${answerLine(placed)}`);
      if (placed.status !== 200) return;
      const offered = optionUrls(placed.text, order.url!)
        .map((u) => u.searchParams.get('requestId'))
        .filter((id): id is string => id !== null);
      const after = await requestIdsListed(ctx, allRequests);
      const requestId = offered[0] ?? [...after].find((id) => !before.has(id));
      if (requestId === undefined) {
        ctx.observe('the new order request could not be found: no requestId on the confirmation, and no new request in the requests menu');
        return;
      }
      ctx.observe(`request ${requestId} is listed under: ${(await statusesListing(ctx, customerId, requestId)).join(', ') || 'no status filter'} (PENDING expected)`);

      const detailUrl = ussdUrl(ctx, 'requests', { customerId, requestId });
      const detail = await ctx.send({ method: 'GET', path: detailUrl });
      const cancel = (detail.status === 200 ? optionUrls(detail.text, detailUrl) : []).find(
        (u) => mutationOf(u) === 'cancel' && u.searchParams.get('requestId') === requestId,
      );
      if (!cancel) {
        ctx.observe(`the detail of request ${requestId} (GET ${detailUrl} → ${detail.status}) offers no cancel option`);
        return;
      }
      const canceled = await ctx.send({ method: 'GET', path: cancel.href });
      ctx.observe(`canceled it: GET ${cancel.href} → ${answerLine(canceled)}`);
      ctx.observe(`request ${requestId} is then listed under: ${(await statusesListing(ctx, customerId, requestId)).join(', ') || 'no status filter'} (CANCELED expected)`);
    },
  }),
  // With --allow-mutations the crawl and the order check place orders, which may change the customer's assets,
  // transactions and requests while other checks read them: each check of the suite then runs alone.
], { alone: (flags) => flags.allowMutations });
