// Area `ussd.info`: the readings the server took where the spec shows none (INFO).
import { defineCheck } from '../../src/engine/index.js';
import { parseJson, validateAgainst } from '../kit/index.js';
import { optionStyles } from './helpers/choices.js';
import { menuName, type Crawl } from './helpers/crawler.js';
import { differsOnlyInPage, endpointOf } from './helpers/url.js';
import { answerOf, endScreens, isMenu, menus, notServedContract, whereIs } from './helpers/menu-graph.js';
import { CRAWL_CHECK_TIMEOUT_MS, sharedCrawl, type UssdCrawl } from './helpers/shared-crawl.js';

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

/** "N. label ×120": the numbering styles of the options' lines over every menu. */
function numberingSeen<R>(crawl: Crawl<R>): string {
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
function backNumbersSeen<R>(crawl: Crawl<R>): string {
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
function assetIdSeen<R>(crawl: Crawl<R>): string {
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
function homePortfolioSeen<R>(crawl: Crawl<R>): string {
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
function requestsMenuSeen<R>(crawl: Crawl<R>): string {
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

export const infoChecks = [
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
];
