// Area `ussd.options`: the options of every menu (numbering, message, follow-up, requestUrl, requestType, customerId).
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import { choiceNumbers, labelOf } from './helpers/choices.js';
import { type Crawl, type CrawlLink, type CrawlView } from './helpers/crawler.js';
import {
  SPECIFIED_ENDPOINTS,
  endpointOf,
  followLink,
  isAbsoluteUrl,
  pathInScope,
  resolveUrl,
  type TargetScope,
} from './helpers/url.js';
import { menus, requestUrlOf, whereIs } from './helpers/menu-graph.js';
import { observedCrawl } from './helpers/observed-crawl.js';
import { CRAWL_CHECK_TIMEOUT_MS, sharedCrawl, type UssdCrawl } from './helpers/shared-crawl.js';
import {
  attach,
  failOn,
  noViewReason,
  option,
  perView,
  skipIfNothingFollowed,
  skipUnjudged,
} from './helpers/verdicts.js';

/** A skip for option rules over menus that offer none. */
function noOptionReason(c: UssdCrawl): string {
  const n = menus(c).length;
  return n === 0
    ? noViewReason(c)
    : `the ${n} view${n === 1 ? '' : 's'} seen offer no option: there is no option to judge`;
}

/**
 * A rule over the options of every menu of a crawl (the suite's own, or observed traffic's): the first menu it finds
 * wrong fails the check, naming a few more; a crawl that offered no option to judge is a skip.
 */
function judgeOptions(
  ctx: CheckContext,
  c: UssdCrawl,
  problemsOf: Parameters<typeof perView>[3],
  verdict: string,
  expected: string,
): void {
  failOn(ctx, perView(ctx, c, 'option', problemsOf), verdict, expected);
  skipUnjudged(ctx, noOptionReason(c));
}

/** Option numbers a user can press unambiguously. */
function judgeNumbers(ctx: CheckContext, c: UssdCrawl): void {
  judgeOptions(
    ctx,
    c,
    (v) => numberProblems(v.ussd.options),
    'option numbers a user cannot press unambiguously',
    'integer option numbers, each used by one option only',
  );
}

/** Every option number shown in the menu's text. */
function judgeShownOptions(ctx: CheckContext, c: UssdCrawl): void {
  judgeOptions(
    ctx,
    c,
    (v) => {
      const missing = notInMessage(v.ussd.message, v.ussd.options);
      return missing.length === 0
        ? []
        : [
            `option${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not shown in ${JSON.stringify(v.ussd.message)}`,
          ];
    },
    'an option the user cannot see',
    'each option number on a line of ussdMessage such as "1. Buy", "1) Buy", "1 - Buy" or "0 Back"',
  );
}

/** The options whose requestType `accepts` refuses, each named with `says` and its value. */
function requestTypeProblems(options: readonly unknown[], accepts: (type: unknown) => boolean, says: string): string[] {
  return options.flatMap((raw, i) => {
    const type = (raw as { requestType?: unknown } | null)?.requestType;
    return accepts(type)
      ? []
      : [`option ${JSON.stringify(option(raw))} (ussdOptions[${i}]): ${says} ${JSON.stringify(type) ?? 'missing'}`];
  });
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
interface MovedCause<R> {
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
function movedCause<R>(crawl: Crawl<R>): MovedCause<R> | undefined {
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

interface CustomerFinding {
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

export const optionsChecks = [
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
        'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
    },
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      judgeNumbers(ctx, await sharedCrawl(ctx));
    },
    // Observed traffic: the options of every USSD view the traffic holds.
    async observe(ctx) {
      judgeNumbers(ctx, observedCrawl(ctx));
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
        'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
    },
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      judgeShownOptions(ctx, await sharedCrawl(ctx));
    },
    // Observed traffic: the options of every USSD view the traffic holds.
    async observe(ctx) {
      judgeShownOptions(ctx, observedCrawl(ctx));
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
        'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
    },
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      // Menu texts are not known in advance, so only the one tie a client can read from both sides is judged: the
      // instrument symbol a label shows and the `symbol` its URL carries. A list whose links are shifted by one (choice
      // 2 "AMZN" opening GOOGL) shows it.
      judgeFollowUps(ctx, await sharedCrawl(ctx));
    },
    // Observed traffic: the options of every USSD view the traffic holds.
    async observe(ctx) {
      judgeFollowUps(ctx, observedCrawl(ctx));
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
        'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange, and where every faulty link was written the same way (on one other origin: a server behind a proxy building links from its own address; on the target without the base path: a proxy prefix left out) says so in one line with the fix, the crawl following those links by path below {base_url} so that the other checks judge where they lead',
    },
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      judgeRequestUrls(ctx, await sharedCrawl(ctx));
    },
    // Observed traffic: the options of every USSD view the traffic holds.
    async observe(ctx) {
      judgeRequestUrls(ctx, observedCrawl(ctx));
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
        'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
    },
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      judgeRequestTypes(ctx, await sharedCrawl(ctx));
    },
    // Observed traffic: the options of every USSD view the traffic holds.
    async observe(ctx) {
      judgeRequestTypes(ctx, observedCrawl(ctx));
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
        'any answer that does not (the check warns); the report names the field, status or item that differs and shows the exchange',
    },
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      judgeGets(ctx, await sharedCrawl(ctx));
    },
    // Observed traffic: the options of every USSD view the traffic holds.
    async observe(ctx) {
      judgeGets(ctx, observedCrawl(ctx));
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
        'a follow-up URL whose customerId names another customer, or that repeats the parameter (the check warns); the report names the menu, option and URL and shows the exchange',
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
        return found.problems.length === 0 ? [] : [{ view, message: `${whereIs(view)}: ${found.problems.join('; ')}` }];
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
];

/** ussd.options.follow-up, over the views of a crawl (the suite's own or observed traffic's). */
function judgeFollowUps(ctx: CheckContext, c: UssdCrawl): void {
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
}

/** ussd.options.request-url, over the views of a crawl (the suite's own or observed traffic's). */
function judgeRequestUrls(ctx: CheckContext, c: UssdCrawl): void {
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
}

/** ussd.options.request-type: every requestType an HTTP method. */
function judgeRequestTypes(ctx: CheckContext, c: UssdCrawl): void {
  judgeOptions(
    ctx,
    c,
    (v) => requestTypeProblems(v.ussd.options, isHttpMethod, 'requestType is'),
    'a follow-up request without an HTTP method',
    'requestType is an HTTP method (GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS)',
  );
}

/** ussd.options.get: every requestType GET. */
function judgeGets(ctx: CheckContext, c: UssdCrawl): void {
  judgeOptions(
    ctx,
    c,
    (v) => requestTypeProblems(v.ussd.options, (type) => type === 'GET', 'requestType'),
    'a requestType other than "GET" (the crawler follows only GET, in any case)',
    'requestType "GET"',
  );
}
