// What the spec's "USSD view" section requires of each view and of the menu graph, as pure functions over a crawl.
// Each returns problems that name where they are the way a phone user would retrace them ("stocks → 2 → 1"), so the
// suite only has to pick the evidence and word the verdict.
import { validateAgainst } from '../kit/index.js';
import { choiceNumbers, labelOf, numberedChoices, optionStyles } from './helpers/choices.js';
import {
  CAP_REASONS,
  SKIP_REASONS,
  formatTrail,
  menuName,
  type Crawl,
  type CrawlLink,
  type CrawlView,
  type SkipReason,
} from './helpers/crawler.js';
import {
  SPECIFIED_ENDPOINTS,
  differsOnlyInPage,
  endpointOf,
  followLink,
  isAbsoluteUrl,
  listIdentity,
  pathInScope,
  resolveUrl,
  type TargetScope,
} from './helpers/url.js';

export interface Problem<R> {
  /** The view whose response shows the problem. */
  view: CrawlView<R>;
  /** One line: where, then what. */
  message: string;
  /** Other views whose responses belong to the evidence (the target of a link). */
  also?: Array<CrawlView<R>>;
}

/** A view that answered 200 with something shaped like a USSD view. */
function isMenu<R>(view: CrawlView<R> | undefined): view is CrawlView<R> & { ussd: NonNullable<CrawlView<R>['ussd']> } {
  return view !== undefined && view.status === 200 && view.ussd !== undefined;
}

export function menus<R>(crawl: Crawl<R>): Array<CrawlView<R> & { ussd: NonNullable<CrawlView<R>['ussd']> }> {
  return [...crawl.views.values()].filter(isMenu);
}

/** "stocks → 2 (menu "AAPL - Apple Inc.")". */
export function whereIs<R>(view: CrawlView<R>): string {
  return `${formatTrail(view.start, view.steps)} (menu "${menuName(view)}")`;
}

function optionText<R>(view: CrawlView<R>, index: number): string {
  const raw = view.ussd?.options[index] as { option?: unknown } | undefined;
  const label = view.ussd ? labelOf(view.ussd.message, raw?.option) : undefined;
  return `option ${JSON.stringify(raw?.option)}${label ? ` "${label}"` : ''}`;
}

function requestUrlOf(raw: unknown): unknown {
  return (raw as { requestUrl?: unknown } | null)?.requestUrl;
}

// ---- per view ------------------------------------------------------------------------------------------------

/** "Response envelope" and "USSD view": data, code (the status), message, and data.ussdMessage/ussdOptions typed. */
export function schemaProblems<R>(view: CrawlView<R>): string[] {
  if (view.jsonError) return [`the body is not JSON (${view.jsonError})`];
  // code and message are the envelope owner's (envelopeDefects): one cause, one failure.
  const problems = validateAgainst('envelope', view.body)
    .filter((p) => p.path !== 'code' && p.path !== 'message')
    .map((p) => `${p.path} ${p.message}`);
  const env = view.body as Record<string, unknown> | undefined;
  if (typeof env === 'object' && env !== null && 'data' in env)
    problems.push(...validateAgainst('ussd-view', env.data, 'data').map((p) => `${p.path} ${p.message}`));
  return problems;
}

/** Options that are not integers, and numbers used by more than one option ("One per choice"). */
export function numberProblems(options: readonly unknown[]): string[] {
  const problems: string[] = [];
  const seen = new Map<number, number>();
  options.forEach((raw, i) => {
    const n = (raw as { option?: unknown } | null)?.option;
    if (typeof n !== 'number' || !Number.isSafeInteger(n)) {
      problems.push(`ussdOptions[${i}].option is ${JSON.stringify(n) ?? 'missing'}, not an integer`);
      return;
    }
    seen.set(n, (seen.get(n) ?? 0) + 1);
  });
  for (const [n, count] of seen) if (count > 1) problems.push(`option ${n} is used by ${count} options`);
  return problems;
}

/** Integer options the message does not show as a numbered choice (in any common style). */
export function notInMessage(message: string, options: readonly unknown[]): number[] {
  const shown = choiceNumbers(message);
  const missing: number[] = [];
  for (const raw of options) {
    const n = (raw as { option?: unknown } | null)?.option;
    if (typeof n === 'number' && Number.isSafeInteger(n) && !shown.has(n) && !missing.includes(n)) missing.push(n);
  }
  return missing;
}

/** "Full URL of the follow-up request" that "address[es] the USSD endpoints". */
export function requestUrlProblem(raw: unknown, scope: TargetScope): string | undefined {
  if (typeof raw !== 'string' || raw.trim() === '')
    return `requestUrl is ${JSON.stringify(raw) ?? 'missing'}, not a URL`;
  if (!isAbsoluteUrl(raw.trim())) return `requestUrl ${JSON.stringify(raw)} is not a full URL (no scheme and host)`;
  const u = resolveUrl(raw.trim(), `${scope.origin}/`);
  if (!u) return `requestUrl ${JSON.stringify(raw)} is not an http(s) URL`;
  if (u.origin !== scope.origin)
    return `requestUrl ${JSON.stringify(raw)} is on ${u.origin}, not on the target's origin ${scope.origin}`;
  const path = pathInScope(u, scope);
  if (path === undefined) return `requestUrl ${JSON.stringify(raw)} is outside the base path ${scope.basePath}`;
  if (!endpointOf(u, scope))
    return `requestUrl ${JSON.stringify(raw)} addresses ${path}, which is none of /ussd/stocks, /ussd/assets, /ussd/requests, /ussd/home, /ussd/portfolio`;
  return undefined;
}

/** One cause for the requestUrls a client cannot follow as given: their links all moved the same way (url.ts Moved). */
export interface MovedCause<R> {
  message: string;
  expected: string;
  /** The first menu that shows it. */
  view: CrawlView<R>;
  /** A few of the links, as written and where the crawl followed them. */
  examples: string[];
}

/**
 * When every requestUrl that fails requestUrlProblem was followed below `{base_url}` (crawler `moved`) and all were
 * written the same way, on one other origin or on the target's origin under one other prefix: the cause, in one line,
 * with its fix, instead of a list of every option of every menu. A server behind a proxy that builds its links from
 * its own address, or without the prefix the proxy adds, shows it.
 */
export function movedCause<R>(crawl: Crawl<R>): MovedCause<R> | undefined {
  const byOption = new Map(crawl.links.map((l) => [`${l.from} ${l.index}`, l]));
  let total = 0;
  let first: CrawlView<R> | undefined;
  const faulty: CrawlLink[] = [];
  const menusWith = new Set<string>();
  for (const view of menus(crawl)) {
    view.ussd.options.forEach((raw, i) => {
      total++;
      if (requestUrlProblem(requestUrlOf(raw), crawl.scope) === undefined) return;
      const link = byOption.get(`${view.key} ${i}`);
      faulty.push(link ?? ({ from: view.key, index: i } as CrawlLink));
      menusWith.add(view.key);
      first ??= view;
    });
  }
  if (faulty.length === 0 || faulty.some((l) => l.moved === undefined || l.url === undefined)) return undefined;
  const whereWritten = (l: CrawlLink): string => {
    const u = resolveUrl(String(l.requestUrl).trim(), l.from)!;
    return l.moved === 'origin' ? u.origin : `${u.origin}${u.pathname.replace(/\/ussd\/[^/]+\/?$/, '')}`;
  };
  const places = new Set(faulty.map((l) => `${l.moved} ${whereWritten(l)}`));
  if (places.size !== 1) return undefined;
  const kind = faulty[0]!.moved!;
  const place = whereWritten(faulty[0]!);
  const count =
    faulty.length === total
      ? `every requestUrl (${total} options in ${menusWith.size} menus)`
      : `${faulty.length} of the ${total} requestUrls (in ${menusWith.size} menus)`;
  const base = `${crawl.scope.origin}${crawl.scope.basePath}`;
  const is = faulty.length === total || faulty.length === 1 ? 'is' : 'are';
  const followed =
    'the crawl followed them by path and query below {base_url}, and the other rules judged where they lead';
  return {
    view: first!,
    examples: faulty.slice(0, 3).map((l) => `${JSON.stringify(l.requestUrl)} (followed as GET ${l.url})`),
    ...(kind === 'origin'
      ? {
          message: `${count} ${is} on ${place}, not on the target's origin ${crawl.scope.origin}: the server builds its links from an address the client did not reach (behind a proxy, its own); ${followed}`,
          expected: `links on the origin the client reached, ${crawl.scope.origin}: a server behind a proxy builds them from the forwarded host and scheme (Forwarded, or X-Forwarded-Host and X-Forwarded-Proto) or from a configured public base URL`,
        }
      : {
          message: `${count} ${is} under ${place}/ussd/, outside the base path ${crawl.scope.basePath || '/'} of ${base}: the server builds its links without the prefix the proxy in front of it adds; ${followed}`,
          expected: `links under ${base}/ussd/: a server mounted below a prefix by its proxy builds them with it (X-Forwarded-Prefix, or a configured public base URL)`,
        }),
  };
}

/** RFC 9110 methods (case-insensitive here: "get" names a method, the SHOULD check asks for "GET" exactly). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function isHttpMethod(value: unknown): boolean {
  return typeof value === 'string' && METHODS.has(value.trim().toUpperCase());
}

export interface CustomerFinding {
  problems: string[];
  /** Options judged: those whose follow-up URL addresses a USSD view and carries customerId. */
  judged: number;
  /**
   * Links without customerId: noted, not failed here. To home or portfolio their contract is not shown; to the other
   * views the parameter is required, so the link is dead, which ussd.links.alive judges when it follows it.
   */
  notes: string[];
}

/** customerId, where a follow-up URL of a USSD endpoint carries it, carried once and with the same value. */
export function customerProblems(
  options: readonly unknown[],
  viewUrl: string,
  scope: TargetScope,
  customerId: number,
): CustomerFinding {
  const out: CustomerFinding = { problems: [], notes: [], judged: 0 };
  options.forEach((raw, i) => {
    const url = requestUrlOf(raw);
    // Where the link leads below {base_url}: a link written on another origin is ussd.options.request-url's, and its
    // customerId is judged here all the same.
    const u = followLink(url, viewUrl, scope)?.url;
    const endpoint = u ? endpointOf(u, scope) : undefined;
    if (!u || !endpoint) return;
    const values = u.searchParams.getAll('customerId');
    const n = (raw as { option?: unknown }).option;
    if (values.length === 0) {
      out.notes.push(
        `option ${JSON.stringify(n)} → ${url}: no customerId (${
          SPECIFIED_ENDPOINTS.includes(endpoint)
            ? `required on /ussd/${endpoint}: ussd.links.alive judges the link`
            : `the contract of /ussd/${endpoint} is not shown`
        })`,
      );
      return;
    }
    out.judged++;
    if (values.length > 1) {
      out.problems.push(
        `option ${JSON.stringify(n)} (ussdOptions[${i}]) → ${url}: customerId given ${values.length} times (${values.join(', ')}), not once`,
      );
    } else if (!sameInteger(values[0]!, customerId)) {
      out.problems.push(
        `option ${JSON.stringify(n)} (ussdOptions[${i}]) → ${url}: customerId ${values[0]} instead of ${customerId}`,
      );
    }
  });
  return out;
}

function sameInteger(text: string, n: number): boolean {
  return /^\s*\d+\s*$/.test(text) && Number(text) === n;
}

/** Follow-up URLs that ask for a negative page ("page | integer >= 0"): a choice that leads before the first page. */
export function negativePageLinks(options: readonly unknown[], viewUrl: string): string[] {
  return options.flatMap((raw, i) => {
    const url = requestUrlOf(raw);
    const u = typeof url === 'string' ? resolveUrl(url.trim(), viewUrl) : undefined;
    const pages = u ? u.searchParams.getAll('page').filter((p) => Number(p) < 0) : [];
    return pages.length === 0
      ? []
      : [
          `option ${JSON.stringify((raw as { option?: unknown }).option)} (ussdOptions[${i}]) → ${url}: page ${pages.join(', ')}`,
        ];
  });
}

/**
 * Options whose label, as the message shows it, names the instrument another option of the view leads to and not the
 * one its own URL carries (`symbol`): the number shown for one choice leads to another's follow-up. Only siblings are
 * compared, options whose URLs have the same path and parameter names (the items of one list), so that a search's
 * paging link, whose `symbol` is the text searched for, is not taken for an instrument. Symbols are matched as whole
 * words and case-sensitively, and single characters not at all, so that plain words are not read as symbols.
 */
export function symbolMismatches(
  message: string,
  options: readonly unknown[],
  viewUrl: string,
  /** Told how many options were compared: those whose label and URL both show a symbol. */
  judged?: (count: number) => void,
): string[] {
  const entries = options.flatMap((raw) => {
    const n = (raw as { option?: unknown } | null)?.option;
    const url = requestUrlOf(raw);
    const u = typeof url === 'string' ? resolveUrl(url.trim(), viewUrl) : undefined;
    const symbol = u?.searchParams.get('symbol')?.trim();
    const label = labelOf(message, n);
    const kind = u ? `${u.pathname}?${[...new Set(u.searchParams.keys())].sort().join('&')}` : '';
    return symbol && label ? [{ n, url, symbol, label, kind }] : [];
  });
  if (entries.length > 0) judged?.(entries.length);
  return entries.flatMap((e) => {
    if (namesSymbol(e.label, e.symbol)) return [];
    const other = entries.find(
      (o) =>
        o.kind === e.kind &&
        o.symbol !== e.symbol &&
        o.symbol.length > 1 &&
        /\p{L}/u.test(o.symbol) &&
        namesSymbol(e.label, o.symbol),
    );
    return other
      ? [
          `option ${JSON.stringify(e.n)} "${e.label}" leads to ${e.url} (symbol ${e.symbol}), while its label names ${other.symbol}, the instrument of option ${JSON.stringify(other.n)}`,
        ]
      : [];
  });
}

function namesSymbol(label: string, symbol: string): boolean {
  const escaped = symbol.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'u').test(label);
}

// ---- the graph -----------------------------------------------------------------------------------------------

/**
 * The options that may be "the last option of a menu": the last of ussdOptions, and the one(s) numbered as the choice
 * shown last in the message (a server may order the array otherwise than the screen). Where an option stands decides,
 * not its number: a "0 Back" shown first, and first in the array, is the first option, and the last one must go back.
 */
export function lastOptionIndexes(view: { ussd?: { message: string; options: unknown[] } }): number[] {
  const options = view.ussd?.options ?? [];
  if (options.length === 0) return [];
  const numbers = options.map((raw) => (raw as { option?: unknown } | null)?.option);
  const out = new Set([options.length - 1]);
  const lastShown = numberedChoices(view.ussd!.message)
    .filter((c) => numbers.includes(c.number))
    .at(-1);
  numbers.forEach((n, i) => {
    if (lastShown && n === lastShown.number) out.add(i);
  });
  return [...out].sort((a, b) => a - b);
}

function linksByView<R>(crawl: Crawl<R>): Map<string, CrawlLink[]> {
  const by = new Map<string, CrawlLink[]>();
  for (const l of crawl.links) {
    const list = by.get(l.from) ?? [];
    list.push(l);
    by.set(l.from, list);
  }
  return by;
}

/** How a view that is not a menu answered, in a few words. */
function answerOf<R>(view: CrawlView<R>): string {
  if (view.error) return `no usable response (${view.error})`;
  if (view.status !== 200) return `answered ${view.status}`;
  if (view.jsonError) return `answered 200 with a body that is not JSON`;
  return 'answered 200 without a USSD view (data.ussdMessage, data.ussdOptions)';
}

/** The link that leads to a view: the one that found it, or for a start the first link that points to it. */
function linkInto<R>(crawl: Crawl<R>, view: CrawlView<R>): { parent: CrawlView<R>; index: number } | undefined {
  const step = view.steps.at(-1);
  if (step) {
    const parent = crawl.views.get(step.from);
    return parent ? { parent, index: step.index } : undefined;
  }
  const link = crawl.links.find((l) => l.key === view.key && !l.skipped);
  const parent = link ? crawl.views.get(link.from) : undefined;
  return parent && link ? { parent, index: link.index } : undefined;
}

export interface DeadLinks<R> {
  problems: Array<Problem<R>>;
  /** Start menus the spec does not define that did not answer, and that no option leads to; links to a home or portfolio the server does not serve. */
  notes: string[];
}

/**
 * How a server says it does not serve /ussd/home or /ussd/portfolio ("Contract … not shown": menus may link to them
 * and another system serve them, REQ-USSD-22): the path is unknown (404, 410), the method not offered (405), or
 * nothing is implemented there (501).
 */
const NOT_SERVED_STATUSES: ReadonlySet<number> = new Set([404, 405, 410, 501]);

/** A view of /ussd/home or /ussd/portfolio that the server does not serve, by its status. */
function notServedContract<R>(view: CrawlView<R>, scope: TargetScope): 'home' | 'portfolio' | undefined {
  const endpoint = endpointOf(new URL(view.url), scope);
  return (endpoint === 'home' || endpoint === 'portfolio') &&
    view.status !== undefined &&
    NOT_SERVED_STATUSES.has(view.status)
    ? endpoint
    : undefined;
}

/** Every start menu and every followed link answers 200 with a USSD view. */
export function deadLinks<R>(crawl: Crawl<R>): DeadLinks<R> {
  const out: DeadLinks<R> = { problems: [], notes: [] };
  for (const view of crawl.views.values()) {
    if (isMenu(view)) continue;
    const into = linkInto(crawl, view);
    const count = crawl.links.filter((l) => l.key === view.key && !l.skipped).length;
    if (!into) {
      if (view.optionalStart)
        out.notes.push(
          `${view.start} (GET ${view.url}) ${answerOf(view)}; no option leads there, and its contract is not shown`,
        );
      else out.problems.push({ view, message: `start menu ${view.start}: GET ${view.url} ${answerOf(view)}` });
      continue;
    }
    const unserved = notServedContract(view, crawl.scope);
    if (unserved) {
      out.notes.push(
        `/ussd/${unserved} (GET ${view.url}) answered ${view.status}: not served, only linked (its contract is not shown); ${count} option${count === 1 ? '' : 's'} lead${count === 1 ? 's' : ''} there`,
      );
      continue;
    }
    const trail = formatTrail(into.parent.start, [
      ...into.parent.steps,
      {
        from: into.parent.key,
        option: (into.parent.ussd?.options[into.index] as { option?: unknown })?.option,
        index: into.index,
      },
    ]);
    out.problems.push({
      view,
      message: `${trail}: ${optionText(into.parent, into.index)} of menu "${menuName(into.parent)}" → GET ${view.url} ${answerOf(view)}${count > 1 ? ` (${count} options lead there)` : ''}`,
      also: [into.parent],
    });
  }
  return out;
}

/** A USSD view with no options at all: an END screen, no menu ("The last option of a menu" says nothing of it). */
function isEndScreen<R>(view: CrawlView<R>): boolean {
  return isMenu(view) && view.ussd.options.length === 0;
}

function endScreens<R>(crawl: Crawl<R>): Array<CrawlView<R>> {
  return menus(crawl).filter(isEndScreen);
}

function isHome<R>(view: CrawlView<R>, scope: TargetScope): boolean {
  return endpointOf(new URL(view.url), scope) === 'home';
}

/**
 * Whether a link from `view` leads to the view itself: the same URL in any parameter order, or (when only `page`
 * differs) a page showing the same content, as `page=0` and no `page` may well be.
 */
function isSameView<R>(crawl: Crawl<R>, view: CrawlView<R>, link: CrawlLink): boolean {
  if (link.key === view.key) return true;
  if (!link.url || !differsOnlyInPage(new URL(view.url), new URL(link.url))) return false;
  const target = link.key === undefined ? undefined : crawl.views.get(link.key);
  return isMenu(target) && isMenu(view) && target.ussd.message === view.ussd.message;
}

/**
 * For a link to another page of the same list (only `page` differs), the page values of the view and of the target
 * (no `page` is 0); undefined for any other link, or a page value that is no number.
 */
function pageOrder(view: URL, to: URL): { from: number; to: number } | undefined {
  if (!differsOnlyInPage(view, to)) return undefined;
  const from = Number(view.searchParams.get('page') ?? 0);
  const target = Number(to.searchParams.get('page') ?? 0);
  return Number.isFinite(from) && Number.isFinite(target) ? { from, to: target } : undefined;
}

/** Links the crawl could not place below {base_url}: where they lead is unknown, so no rule on it can judge them. */
const UNPLACED: ReadonlySet<SkipReason> = new Set(['foreign-origin', 'outside-ussd', 'invalid-url']);

/** A link whose target the rules on where links lead can judge: a URL placed below {base_url}. */
function judgeable(link: CrawlLink | undefined): link is CrawlLink & { url: string; key: string } {
  return (
    link?.url !== undefined && link.key !== undefined && (link.skipped === undefined || !UNPLACED.has(link.skipped))
  );
}

/** Where a last option that does lead back leads: home or portfolio (named by the spec), or another view. */
type WayBack = { root: true } | { root: false; key: string };

/**
 * "The last option of a menu leads back to a parent menu (home, portfolio or another menu)." A parent is another view
 * than the menu itself: a menu on the path here, one that offers this menu, the list it was selected from (on any of
 * its pages), home or portfolio; for a start menu, whose place is not shown, any other USSD view. Another page of the same list is one
 * only if it comes before this page: paging forward ("98 More" last) is no way back. And the ways back must lead
 * somewhere: menus whose last options go round a cycle (A back to B, B back to A) are each the parent of the other,
 * which no menu hierarchy has. Not judged: views without options (END screens, no menus) and /ussd/home (the top: nothing above it).
 */
export function backProblems<R>(
  crawl: Crawl<R>,
  hooks: {
    /** Told of each menu whose last option was judged (it leads to a parent, or the problem says where it leads). */
    judged?: (view: CrawlView<R>) => void;
    /**
     * Told of each menu whose last option leads nowhere the rule can judge: no URL, or one outside {base_url} that
     * names no USSD view. Where it leads is unknown; that the URL is unusable is ussd.options.request-url's failure.
     */
    unjudged?: (view: CrawlView<R>, link: CrawlLink | undefined) => void;
  } = {},
): Array<Problem<R>> {
  const byView = linksByView(crawl);
  // A parent offers the view among its choices; its own way back does not make it one, nor does a link to itself.
  // Parents are lists, named whatever their page (listIdentity): a paged list is the parent on any of its pages.
  const offeredBy = new Map<string, Set<string>>();
  for (const view of menus(crawl)) {
    const last = new Set(lastOptionIndexes(view));
    const list = listIdentity(view.url);
    for (const l of byView.get(view.key) ?? []) {
      if (last.has(l.index) || l.key === undefined || l.key === view.key) continue;
      const set = offeredBy.get(l.key) ?? new Set<string>();
      set.add(list);
      offeredBy.set(l.key, set);
    }
  }
  const problems: Array<Problem<R>> = [];
  /** The menus judged, each with where its last option(s) that lead to a parent go. */
  const ways = new Map<string, WayBack[]>();
  for (const view of menus(crawl)) {
    if (isEndScreen(view) || isHome(view, crawl.scope)) continue;
    const links = byView.get(view.key) ?? [];
    const candidates = lastOptionIndexes(view).filter((i) => judgeable(links.find((x) => x.index === i)));
    if (candidates.length === 0) {
      hooks.unjudged?.(
        view,
        links.find((x) => x.index === lastOptionIndexes(view).at(-1)),
      );
      continue;
    }
    const self: number[] = [];
    const forward: number[] = [];
    const wayBack = (index: number): WayBack | undefined => {
      const l = links.find((x) => x.index === index);
      if (!l?.url || l.key === undefined) return undefined;
      if (isSameView(crawl, view, l)) {
        self.push(index);
        return undefined;
      }
      const u = new URL(l.url);
      const endpoint = endpointOf(u, crawl.scope);
      if (endpoint === 'home' || endpoint === 'portfolio') return { root: true };
      // Another page of the same list is above this one only if it comes before it (a Back to the previous page, as
      // ExUssd's BACK goes to the previous chunk); a later page ("98 More") is forward, whatever the crawl's path was
      // or the Previous that page offers. Earlier means a smaller page, whether page counts pages or items.
      const pages = pageOrder(new URL(view.url), u);
      if (pages !== undefined) {
        if (pages.to < pages.from) return { root: false, key: l.key };
        forward.push(index);
        return undefined;
      }
      // A paged list is the parent on any of its pages: a request placed by the crawl may sit on a page the crawl
      // read before it existed, or on another page than the one the crawl came through, and Back may lead to the page
      // that holds it, or to the first.
      const list = listIdentity(u);
      const parent =
        view.ancestors.some((k) => listIdentity(k) === list) ||
        (offeredBy.get(view.key)?.has(list) ?? false) ||
        // The menu this one was selected from, by its URL: the same endpoint with some of its parameters dropped (a
        // list for a detail), whatever page of it. This holds even when the crawl's copy of that list predates an
        // order the crawl placed.
        isNarrowing(withoutPage(view.url), withoutPage(u)) ||
        // Which menu is above a start menu is not shown; any other USSD view will do.
        (view.steps.length === 0 && endpoint !== undefined);
      return parent ? { root: false, key: l.key } : undefined;
    };
    const found = candidates.map(wayBack).filter((w): w is WayBack => w !== undefined);
    hooks.judged?.(view);
    if (found.length > 0) {
      ways.set(view.key, found);
      continue;
    }
    const index = candidates.at(-1)!;
    const url = JSON.stringify(requestUrlOf(view.ussd.options[index]));
    if (self.length === candidates.length) {
      problems.push({
        view,
        message: `${whereIs(view)}: the last option, ${optionText(view, index)}, leads to ${url}, this same view${
          links.find((x) => x.index === index)?.key === view.key ? '' : ' (another page of it, with the same content)'
        }: a menu is not its own parent, and the user is left where they are`,
      });
      continue;
    }
    const l = links.find((x) => x.index === index);
    const target = l?.key ? crawl.views.get(l.key) : undefined;
    if (forward.includes(index)) {
      const pages = pageOrder(new URL(view.url), new URL(l!.url!))!;
      problems.push({
        view,
        message: `${whereIs(view)}: the last option, ${optionText(view, index)}, leads to ${url}, a later page of this list (page ${pages.to} after ${pages.from}): paging forward is no way back`,
        ...(target ? { also: [target] } : {}),
      });
      continue;
    }
    const path = view.ancestors.map((k) => `"${menuName(crawl.views.get(k))}"`).join(', ');
    problems.push({
      view,
      message:
        `${whereIs(view)}: the last option, ${optionText(view, index)}, leads to ${url}` +
        `${target ? ` (menu "${menuName(target)}")` : ''}, which is not a menu on the path here${path ? ` (${path})` : ''}, not a menu that offers this one, and not home or portfolio`,
      ...(target ? { also: [target] } : {}),
    });
  }
  problems.push(...backCycles(crawl, ways));
  return problems;
}

/**
 * Menus whose ways back go round a cycle: each leads back only to menus that lead back, in the end, to itself, never
 * reaching home, portfolio, or a view the rule does not judge (not visited, an END screen, a menu whose own way back
 * failed). One problem per cycle, named by its first menu in crawl order; menus that merely lead into a cycle are fine.
 */
function backCycles<R>(crawl: Crawl<R>, ways: Map<string, WayBack[]>): Array<Problem<R>> {
  // Reached backwards from what is not in a cycle, over the ways back: what is left over can only go round.
  const leadsHere = new Map<string, string[]>();
  const out: string[] = [];
  for (const [key, targets] of ways) {
    if (targets.some((t) => t.root || !ways.has(t.key))) out.push(key);
    for (const t of targets) {
      if (t.root) continue;
      const from = leadsHere.get(t.key);
      if (from) from.push(key);
      else leadsHere.set(t.key, [key]);
    }
  }
  const escapes = new Set(out);
  while (out.length > 0)
    for (const from of leadsHere.get(out.pop()!) ?? [])
      if (!escapes.has(from)) {
        escapes.add(from);
        out.push(from);
      }
  const order = new Map([...crawl.views.keys()].map((k, i) => [k, i]));
  const done = new Set<string>();
  const problems: Array<Problem<R>> = [];
  for (const start of ways.keys()) {
    if (escapes.has(start) || done.has(start)) continue;
    const path: string[] = [];
    const onPath = new Map<string, number>();
    let at = start;
    while (!onPath.has(at) && !done.has(at)) {
      onPath.set(at, path.length);
      path.push(at);
      // Every way back of a menu left over leads to another one left over.
      at = (ways.get(at)!.find((t) => !t.root) as { key: string }).key;
    }
    for (const k of path) done.add(k);
    if (!onPath.has(at)) continue; // it leads into a cycle found before
    const ring = path.slice(onPath.get(at));
    const first = ring.reduce((a, b) => (order.get(a)! <= order.get(b)! ? a : b));
    const cycle = [...ring.slice(ring.indexOf(first)), ...ring.slice(0, ring.indexOf(first)), first];
    const views = cycle.map((k) => crawl.views.get(k)!);
    const [head, next] = views as [CrawlView<R>, CrawlView<R>];
    problems.push({
      view: head,
      message:
        `${whereIs(head)}: the last option leads back to "${menuName(next)}", and the ways back go round ${ring.length} menus ` +
        `(${views.map((v) => `"${menuName(v)}"`).join(' → ')}) and never reach home, portfolio or a menu above them`,
      also: views.slice(1, -1),
    });
  }
  return problems;
}

/** What links.back does not judge, and why: /ussd/home (the top menu) and views without options (END screens). */
export function backNotJudged<R>(crawl: Crawl<R>): string[] {
  const notes: string[] = [];
  const home = menus(crawl).find((v) => isHome(v, crawl.scope) && !isEndScreen(v));
  if (home) {
    const last = lastOptionIndexes(home).at(-1)!;
    notes.push(
      `${whereIs(home)} is the top menu: its last option, ${optionText(home, last)} → ${JSON.stringify(requestUrlOf(home.ussd?.options[last]))}, is not judged (no menu is above it)`,
    );
  }
  const ends = endScreens(crawl);
  if (ends.length > 0)
    notes.push(
      `${ends.length} view${ends.length === 1 ? '' : 's'} without options (END screens, no menus): no way back to judge, e.g. ${whereIs(ends[0]!)}`,
    );
  return notes;
}

/** The URL without its `page` parameter. */
function withoutPage(url: string | URL): URL {
  const u = new URL(url);
  u.searchParams.delete('page');
  return u;
}

/** Whether `child` is `parent` with parameters added: same origin and path, and every parameter of `parent` kept. */
export function isNarrowing(child: URL, parent: URL): boolean {
  if (child.origin !== parent.origin || child.pathname !== parent.pathname) return false;
  const kept = [...child.searchParams].map(([k, v]) => `${k}=${v}`);
  const parentPairs = [...parent.searchParams].map(([k, v]) => `${k}=${v}`);
  return parentPairs.length < kept.length && parentPairs.every((p) => kept.includes(p));
}

/**
 * Paging links (only `page` differs) that show the same content, and options that lead to the view itself. The last
 * option is links.back's: leading to the view itself, it fails there (a menu is not its own parent), not twice.
 */
export function pagingProblems<R>(
  crawl: Crawl<R>,
  /** Told of each option judged: every option but the last whose URL is known, a paging one compared with its page. */
  judged?: (link: CrawlLink) => void,
): Array<Problem<R>> {
  const byView = linksByView(crawl);
  const problems: Array<Problem<R>> = [];
  for (const view of menus(crawl)) {
    const last = new Set(lastOptionIndexes(view));
    for (const l of byView.get(view.key) ?? []) {
      if (!judgeable(l) || last.has(l.index)) continue;
      judged?.(l);
      if (l.key === view.key) {
        problems.push({
          view,
          message: `${whereIs(view)}: ${optionText(view, l.index)} leads to this same view (${l.url})`,
        });
        continue;
      }
      if (!differsOnlyInPage(new URL(view.url), new URL(l.url))) continue;
      const target = crawl.views.get(l.key);
      if (isMenu(target) && target.ussd.message === view.ussd.message) {
        problems.push({
          view,
          message: `${whereIs(view)}: ${optionText(view, l.index)} → ${l.url} shows the same content as this page`,
          also: [target],
        });
      }
    }
  }
  return problems;
}

// ---- the readings a server took (INFO) ----------------------------------------------------------------------

/** "N. label ×120": the numbering styles of the options' lines over every menu. */
export function numberingSeen<R>(crawl: Crawl<R>): string {
  const counts = new Map<string, number>();
  for (const view of menus(crawl)) {
    const numbers = view.ussd.options
      .map((raw) => (raw as { option?: unknown } | null)?.option)
      .filter((n): n is number => typeof n === 'number');
    for (const style of optionStyles(view.ussd.message, numbers)) counts.set(style, (counts.get(style) ?? 0) + 1);
  }
  return counts.size === 0 ? 'none seen' : [...counts].map(([style, n]) => `"${style}" ×${n}`).join(', ');
}

/** Views without options, END screens (choice ussd-terminal): "none", or how many and the first, by its path. */
export function endScreensSeen<R>(crawl: Crawl<R>): string {
  const ends = endScreens(crawl);
  const head = 'views without options (END screens; no menus, so no way back is judged)';
  if (ends.length === 0) return `${head}: none`;
  return `${head}: ${ends.length}, e.g. ${ends
    .slice(0, 3)
    .map((v) => whereIs(v))
    .join('; ')}`;
}

/**
 * The number of each menu's last option against the others': "after the items (n+1) in 40 menus", "0 in 40 menus",
 * "99 after an option 0 in 40 menus" (a Back numbered 0 followed by another way out, such as Home).
 */
export function backNumbersSeen<R>(crawl: Crawl<R>): string {
  const counts = new Map<string, number>();
  for (const view of menus(crawl)) {
    const numbers = view.ussd.options.map((raw) => (raw as { option?: unknown } | null)?.option);
    const last = numbers.at(-1);
    if (typeof last !== 'number') continue;
    const items = numbers.slice(0, -1).filter((n): n is number => typeof n === 'number');
    const kind =
      last === 0
        ? '0'
        : last === (items.length === 0 ? 1 : Math.max(...items) + 1)
          ? 'after the items (n+1)'
          : items.at(-1) === 0
            ? `${last} after an option 0`
            : `${last}, neither 0 nor after the items`;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return counts.size === 0 ? 'no menu seen' : [...counts].map(([kind, n]) => `${kind} in ${n} menus`).join(', ');
}

/** Whether /ussd/stocks reads the assetId the asset menu's links carry (REQ-USSD-11): its view against the one without. */
export function assetIdSeen<R>(crawl: Crawl<R>): string {
  const withAsset = menus(crawl).filter((v) => {
    const u = new URL(v.url);
    return (
      endpointOf(u, crawl.scope) === 'stocks' &&
      u.searchParams.has('assetId') &&
      [...u.searchParams.keys()].every((k) => k === 'customerId' || k === 'assetId')
    );
  });
  if (withAsset.length === 0) return 'assetId: not seen (no option followed carries it alone)';
  const plain = menus(crawl).find((v) => {
    const u = new URL(v.url);
    return endpointOf(u, crawl.scope) === 'stocks' && [...u.searchParams.keys()].every((k) => k === 'customerId');
  });
  const same = plain ? withAsset.filter((v) => v.ussd.message === plain.ussd.message).length : 0;
  if (same === withAsset.length)
    return `assetId: ignored (${withAsset.length} views of /ussd/stocks with assetId show the stocks menu without it)`;
  if (same === 0)
    return `assetId: served (${withAsset.length} views of /ussd/stocks with assetId each show a view of their own, e.g. "${menuName(withAsset[0])}")`;
  return `assetId: served for ${withAsset.length - same} and ignored for ${same} of ${withAsset.length} views of /ussd/stocks with assetId`;
}

/** Whether /ussd/home and /ussd/portfolio are served (REQ-USSD-22), by the answers the crawl got there. */
export function homePortfolioSeen<R>(crawl: Crawl<R>): string {
  const answers = (['home', 'portfolio'] as const).map((endpoint) => {
    const views = [...crawl.views.values()].filter((v) => endpointOf(new URL(v.url), crawl.scope) === endpoint);
    if (views.length === 0) return { endpoint, kind: 'not requested', status: '' };
    if (views.every((v) => isMenu(v))) return { endpoint, kind: 'served', status: '200' };
    const unserved = views.find((v) => notServedContract(v, crawl.scope));
    if (unserved && views.every((v) => notServedContract(v, crawl.scope)))
      return { endpoint, kind: 'not served', status: String(unserved.status) };
    return { endpoint, kind: 'other', status: [...new Set(views.map((v) => v.status ?? v.error ?? '?'))].join('/') };
  });
  const [home, portfolio] = answers as [(typeof answers)[number], (typeof answers)[number]];
  if (home.kind === portfolio.kind && home.kind === 'served')
    return '/ussd/home and /ussd/portfolio: served as USSD views';
  if (home.kind === portfolio.kind && home.kind === 'not served')
    return `/ussd/home and /ussd/portfolio: not served (${home.status}, ${portfolio.status}); menus link to them only`;
  return answers
    .map((a) => `/ussd/${a.endpoint}: ${a.kind}${a.status && a.kind !== 'served' ? ` (${a.status})` : ''}`)
    .join('; ');
}

/**
 * What the requests menu shows unfiltered (the spec gives only "returns the customer requests menu"): the requests, or
 * a menu of status filters ("1) Pending … 4) Failed 5) Cancel a request 0) Back") under which they are listed. Read from
 * the crawl's start menu `requests`: options that name a request (requestId) and options that add a `status`.
 */
export function requestsMenuSeen<R>(crawl: Crawl<R>): string {
  const head = 'requests menu (what it shows unfiltered is not given)';
  const view = [...crawl.views.values()].find((v) => v.steps.length === 0 && v.start === 'requests');
  if (!isMenu(view)) return `${head}: not seen (${view ? answerOf(view) : 'not requested'})`;
  const here = new URL(view.url);
  const links = crawl.links.filter((l) => l.from === view.key && l.url !== undefined && l.mutation === undefined);
  const urls = links.map((l) => new URL(l.url!)).filter((u) => u.pathname === here.pathname);
  const items = urls.filter((u) => u.searchParams.has('requestId')).length;
  const filters = urls
    .filter((u) => u.searchParams.has('status') && !u.searchParams.has('requestId') && !here.searchParams.has('status'))
    .map((u) => u.searchParams.get('status')!);
  const offered = filters.length === 0 ? '' : `${filters.length} status filters (${filters.join(', ')})`;
  if (items > 0)
    return `${head}: lists the requests, ${items} on its first page${offered ? `, and offers ${offered}` : ''}`;
  if (filters.length > 0) return `${head}: a menu of ${offered}, no request listed on it`;
  return `${head}: no request and no status filter on its first page`;
}

/**
 * A view answered for a customer that does not exist (REQ-USSD-24) must not serve a customer's menus: its options may
 * lead home or to portfolio (the way back), never to /ussd/stocks, /ussd/assets or /ussd/requests.
 */
export function unknownCustomerViewProblems(data: unknown, viewUrl: string, scope: TargetScope): string[] {
  const problems = validateAgainst('ussd-view', data, 'data').map((p) => `${p.path} ${p.message}`);
  if (problems.length > 0) return problems;
  const view = data as { ussdMessage: string; ussdOptions: unknown[] };
  if (view.ussdMessage.trim() === '')
    problems.push('ussdMessage is empty: the user is not told the customer is unknown');
  view.ussdOptions.forEach((raw, i) => {
    const url = requestUrlOf(raw);
    const u = followLink(url, viewUrl, scope)?.url;
    const endpoint = u ? endpointOf(u, scope) : undefined;
    if (endpoint !== 'home' && endpoint !== 'portfolio')
      problems.push(
        `option ${JSON.stringify((raw as { option?: unknown }).option)} (ussdOptions[${i}]) leads to ${JSON.stringify(url)}: a menu of a customer`,
      );
  });
  return problems;
}

// ---- the report of the crawl ---------------------------------------------------------------------------------

/** The crawl in a few lines: what was visited, followed, skipped and why, and how deep it went. */
export function crawlSummary<R>(crawl: Crawl<R>): string[] {
  const views = [...crawl.views.values()];
  const starts = views.filter((v) => v.steps.length === 0).map((v) => v.start);
  const followed = crawl.links.filter((l) => !l.skipped).length;
  const bySkip = new Map<SkipReason, CrawlLink[]>();
  for (const l of crawl.links) if (l.skipped) bySkip.set(l.skipped, [...(bySkip.get(l.skipped) ?? []), l]);
  const o = crawl.options;
  const lines = [
    `crawled ${views.length} views (${views.filter(isMenu).length} menus) from ${starts.join(', ')} in ${crawl.durationMs} ms, ` +
      `${o.concurrency} at a time; depth reached ${crawl.maxDepthReached} (cap ${o.maxDepth}), view cap ${o.maxViews}` +
      `${o.allowMutations ? '; --allow-mutations: order and cancel links followed' : ''}`,
    `${crawl.links.length} options seen, ${followed} followed` +
      (bySkip.size === 0 ? '' : `; not followed: ${[...bySkip].map(([r, ls]) => `${ls.length} ${r}`).join(', ')}`),
  ];
  const moved = crawl.links.filter((l) => l.moved !== undefined);
  if (moved.length > 0) {
    const kinds = (['origin', 'base-path'] as const).flatMap((kind) => {
      const ls = moved.filter((l) => l.moved === kind);
      if (ls.length === 0) return [];
      const first = ls[0]!;
      return [
        `${ls.length} ${kind === 'origin' ? `on another origin than ${crawl.scope.origin}` : `on the target's origin outside ${crawl.scope.basePath || '/'}`}, e.g. ${JSON.stringify(first.requestUrl)} → GET ${first.url}`,
      ];
    });
    lines.push(
      `${moved.length} option${moved.length === 1 ? '' : 's'} written outside {base_url} followed by path and query below it (${kinds.join('; ')}): ussd.options.request-url judges where they were written, the other rules where they lead`,
    );
  }
  for (const [reason, ls] of bySkip) {
    if (CAP_REASONS.has(reason)) continue;
    const shown = ls.slice(0, 3).map((l) => `${linkTrail(crawl, l)}: ${JSON.stringify(l.requestUrl)}`);
    lines.push(
      `not followed (${SKIP_REASONS[reason]}): ${shown.join('; ')}${ls.length > 3 ? `; and ${ls.length - 3} more` : ''}`,
    );
  }
  return lines;
}

/** The frontier: views the caps or the budget left unvisited. */
export function frontierLines<R>(crawl: Crawl<R>, max = 10): string[] {
  return crawl.frontier
    .slice(0, max)
    .map((f) => `${formatTrail(f.start, f.steps)}: GET ${f.url} (${SKIP_REASONS[f.reason]})`);
}

/** "stocks → 2 → 1" for the option a link is. */
export function linkTrail<R>(crawl: Crawl<R>, link: CrawlLink): string {
  const from = crawl.views.get(link.from);
  if (!from) return '?';
  return formatTrail(from.start, [...from.steps, { from: from.key, option: link.option, index: link.index }]);
}
