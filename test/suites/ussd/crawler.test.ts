// The USSD crawler and the rules it feeds, without a server: URL identity, numbered-choice parsing in every common
// style, the caps (cyclic graphs, graphs without end, slow answers), the frontier, the concurrency bound, and the
// safety rule that order and cancel links are listed but never followed without --allow-mutations.
import { describe, expect, it } from 'vitest';
import { choiceNumbers, labelOf, numberedChoices, optionStyles } from '../../../suites/ussd/helpers/choices.js';
import { crawl, formatTrail, type CrawlOptions, type FetchOutcome } from '../../../suites/ussd/helpers/crawler.js';
import { frontierLines } from '../../../suites/ussd/crawl.js';
import { crawlSummary, deadLinks } from '../../../suites/ussd/helpers/menu-graph.js';
import { endScreensSeen } from '../../../suites/ussd/info.js';
import {
  backNotJudged,
  backProblems,
  isNarrowing,
  lastOptionIndexes,
  pagingProblems,
} from '../../../suites/ussd/links.js';
import {
  customerProblems,
  isHttpMethod,
  notInMessage,
  numberProblems,
  requestUrlProblem,
  symbolMismatches,
} from '../../../suites/ussd/options.js';
import { negativePageLinks } from '../../../suites/ussd/params.js';
import { schemaProblems } from '../../../suites/ussd/view.js';
import {
  differsOnlyInPage,
  endpointOf,
  isAbsoluteUrl,
  mutationOf,
  normaliseUrl,
  resolveUrl,
  scopeOf,
} from '../../../suites/ussd/helpers/url.js';

const BASE = 'https://api.example/v1';
const SCOPE = scopeOf(BASE);

// ---- a server made of plain data -------------------------------------------------------------------------------

interface FakeOption {
  n: unknown;
  to: string;
  type?: unknown;
}

type Page = { title: string; options: FakeOption[] } | { status: number };

/** A view body the way the spec shapes it; `to` is relative to BASE unless absolute. */
function body(title: string, options: FakeOption[]): string {
  const lines = [title, ...options.map((o) => `${String(o.n)}. ${o.to.split('?')[0]!.split('/').pop()}`)];
  return JSON.stringify({
    code: '200',
    message: 'Success',
    data: {
      ussdMessage: lines.join('\n'),
      ussdOptions: options.map((o) => ({
        option: o.n,
        requestUrl: isAbsoluteUrl(o.to) ? o.to : `${BASE}${o.to}`,
        requestType: o.type ?? 'GET',
      })),
    },
  });
}

/** A fetch over a map of views keyed by path+query as written (the crawler's URLs are compared normalised). */
function server(
  pages: Record<string, Page> | ((u: URL) => Page | undefined),
  options: { delayMs?: (url: string) => number } = {},
) {
  const fetched: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const lookup = (u: URL): Page | undefined => {
    if (typeof pages === 'function') return pages(u);
    const rel = `${u.pathname.slice('/v1'.length)}${u.search}`;
    return pages[rel] ?? Object.entries(pages).find(([k]) => normaliseUrl(`${BASE}${k}`) === normaliseUrl(u))?.[1];
  };
  const fetch = async (url: string): Promise<FetchOutcome<string>> => {
    fetched.push(url);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      const delay = options.delayMs?.(url) ?? 0;
      await new Promise((r) => setTimeout(r, delay));
      const page = lookup(new URL(url));
      if (!page) return { status: 404, text: '{"code":"404","message":"Not Found"}', ref: url };
      if ('status' in page) return { status: page.status, text: `{"code":"${page.status}","message":"x"}`, ref: url };
      return { status: 200, text: body(page.title, page.options), ref: url };
    } finally {
      inFlight--;
    }
  };
  return { fetch, fetched, maxInFlight: () => maxInFlight };
}

function options(
  fetch: CrawlOptions<string>['fetch'],
  extra: Partial<CrawlOptions<string>> = {},
): CrawlOptions<string> {
  return {
    baseUrl: BASE,
    starts: [{ name: 'stocks', url: `${BASE}/ussd/stocks?customerId=7` }],
    fetch,
    maxViews: 500,
    maxDepth: 12,
    ...extra,
  };
}

// ---- URLs -------------------------------------------------------------------------------------------------------

describe('URL identity and scope', () => {
  it('names the same view whatever the parameter order, case of scheme and host, default port or fragment', () => {
    const a = normaliseUrl('https://api.example/v1/ussd/stocks?customerId=7&symbol=AAPL&page=1');
    expect(normaliseUrl('https://api.example/v1/ussd/stocks?page=1&symbol=AAPL&customerId=7')).toBe(a);
    expect(normaliseUrl('HTTPS://API.EXAMPLE:443/v1/ussd/stocks?symbol=AAPL&customerId=7&page=1#top')).toBe(a);
    expect(normaliseUrl('https://api.example/v1/ussd/stocks?symbol=AAPL&customerId=7&page=1')).toBe(a);
  });

  it('keeps apart what may differ: values, paths, a page=0 against no page, repeated parameters', () => {
    const a = normaliseUrl('https://api.example/v1/ussd/stocks?customerId=7');
    expect(normaliseUrl('https://api.example/v1/ussd/stocks?customerId=8')).not.toBe(a);
    expect(normaliseUrl('https://api.example/v1/ussd/assets?customerId=7')).not.toBe(a);
    expect(normaliseUrl('https://api.example/v1/ussd/stocks?customerId=7&page=0')).not.toBe(a);
    expect(normaliseUrl('https://api.example/v1/ussd/stocks?customerId=7&customerId=7')).not.toBe(a);
    expect(normaliseUrl('https://api.example/v1/ussd/stocks?b=2&a=1&a=0')).toBe(
      normaliseUrl('https://api.example/v1/ussd/stocks?a=0&a=1&b=2'),
    );
  });

  it('tells full URLs from relative ones, and resolves relative ones against the view', () => {
    expect(isAbsoluteUrl('https://api.example/v1/ussd/home')).toBe(true);
    expect(isAbsoluteUrl('/v1/ussd/home')).toBe(false);
    expect(isAbsoluteUrl('//api.example/v1/ussd/home')).toBe(false);
    expect(resolveUrl('/v1/ussd/home?customerId=7', `${BASE}/ussd/stocks`)!.href).toBe(
      'https://api.example/v1/ussd/home?customerId=7',
    );
    expect(resolveUrl('mailto:x@example.org', BASE)).toBeUndefined();
    expect(resolveUrl('http://[bad', BASE)).toBeUndefined();
  });

  it('knows the five USSD endpoints under the base path, on the target origin only', () => {
    expect(endpointOf(new URL(`${BASE}/ussd/stocks?customerId=7`), SCOPE)).toBe('stocks');
    expect(endpointOf(new URL(`${BASE}/ussd/portfolio/`), SCOPE)).toBe('portfolio');
    expect(endpointOf(new URL(`${BASE}/ussd/stock`), SCOPE)).toBeUndefined();
    expect(endpointOf(new URL('https://api.example/ussd/stocks'), SCOPE)).toBeUndefined();
    expect(endpointOf(new URL('https://other.example/v1/ussd/stocks'), SCOPE)).toBeUndefined();
    expect(endpointOf(new URL('https://api.example/v10/ussd/stocks'), SCOPE)).toBeUndefined();
  });

  it('recognises order and cancel links in any spelling, and only those', () => {
    const m = (q: string) => mutationOf(new URL(`${BASE}/ussd/stocks?customerId=7&${q}`));
    expect(m('inputMode=true&symbol=AAPL&amount=10')).toBe('order');
    expect(m('Amount=10')).toBe('order');
    expect(m('cancelMode=true&requestId=5')).toBe('cancel');
    expect(m('cancelmode=TRUE&requestId=5')).toBe('cancel');
    expect(m('cancelMode=1&requestId=5')).toBe('cancel');
    expect(m('cancelMode=false&requestId=5')).toBeUndefined();
    expect(m('inputMode=true&symbol=AAPL')).toBeUndefined();
  });

  it('tells paging links (only page differs) from other links', () => {
    const u = (q: string) => new URL(`${BASE}/ussd/stocks?${q}`);
    expect(differsOnlyInPage(u('customerId=7'), u('page=1&customerId=7'))).toBe(true);
    expect(differsOnlyInPage(u('customerId=7&page=3'), u('customerId=7&page=6'))).toBe(true);
    expect(differsOnlyInPage(u('customerId=7&page=1'), u('customerId=7&page=1'))).toBe(false);
    expect(differsOnlyInPage(u('customerId=7'), u('customerId=7'))).toBe(false);
    expect(differsOnlyInPage(u('customerId=7&page=1'), u('customerId=7&symbol=X&page=1'))).toBe(false);
    expect(isNarrowing(u('customerId=7&symbol=X'), u('customerId=7'))).toBe(true);
    expect(isNarrowing(u('customerId=7&symbol=X'), u('customerId=7&symbol=Y'))).toBe(false);
    expect(isNarrowing(u('customerId=7'), u('customerId=7'))).toBe(false);
  });
});

// ---- numbered choices -------------------------------------------------------------------------------------------

describe('numbered choices in ussdMessage', () => {
  it.each([
    ['1. Buy', 1, 'Buy'],
    ['1.Buy', 1, 'Buy'],
    ['1) Buy', 1, 'Buy'],
    ['1)Buy', 1, 'Buy'],
    ['1 - Buy', 1, 'Buy'],
    ['1- Buy', 1, 'Buy'],
    ['1 – Buy', 1, 'Buy'],
    ['1: Buy', 1, 'Buy'],
    ['1 => Buy', 1, 'Buy'],
    ['(1) Buy', 1, 'Buy'],
    ['[1] Buy', 1, 'Buy'],
    ['  12.  Next page', 12, 'Next page'],
    ['0 Back', 0, 'Back'],
    ['00 Main menu', 0, 'Main menu'],
  ])('reads %j as choice %i', (line, n, label) => {
    expect(numberedChoices(`Title\n${line}`)).toEqual([{ number: n, label, line: 1 }]);
  });

  it('reads every line ending and several choices on one line', () => {
    expect([...choiceNumbers('Menu\r\n1. A\r2) B\n0 Back')]).toEqual([1, 2, 0]);
    expect(numberedChoices('Confirm?\n1.Yes 2.No').map((c) => [c.number, c.label])).toEqual([
      [1, 'Yes'],
      [2, 'No'],
    ]);
    expect(numberedChoices('1) AAPL  2) MSFT  0) Back').map((c) => [c.number, c.label])).toEqual([
      [1, 'AAPL'],
      [2, 'MSFT'],
      [0, 'Back'],
    ]);
  });

  it('reads choices written on one line in every numbering style it knows, navigation lines included', () => {
    const read = (message: string) => numberedChoices(message).map((c) => [c.number, c.label]);
    // ExUssd writes its navigation on one line: "0:BACK 00:HOME" (00 is the integer 0), "98:MORE 0:BACK".
    expect(read('Menu\n1:Buy\n0:BACK 00:HOME')).toEqual([
      [1, 'Buy'],
      [0, 'BACK'],
      [0, 'HOME'],
    ]);
    expect(read('Menu\n98:MORE 0:BACK')).toEqual([
      [98, 'MORE'],
      [0, 'BACK'],
    ]);
    // …and label first, as its Nav writes the name before the match: "BACK:0 MORE:98", "BACK:0" alone.
    expect(read('Menu\n1:Buy\nBACK:0 MORE:98')).toEqual([
      [1, 'Buy'],
      [0, 'BACK'],
      [98, 'MORE'],
    ]);
    expect(read('Menu\n1. Buy\nBACK : 0')).toEqual([
      [1, 'Buy'],
      [0, 'BACK'],
    ]);
    expect(read('Menu\n1. Buy\nGo back:0 Main menu:00')).toEqual([
      [1, 'Buy'],
      [0, 'Go back'],
      [0, 'Main menu'],
    ]);
    // A text line with one figure is no navigation: "Balance: 100", "Total: 2 requests".
    expect(read('Account\nBalance: 100\nTotal: 2 requests\n1. Back')).toEqual([[1, 'Back']]);
    const buySell = [
      [1, 'Buy'],
      [2, 'Sell'],
    ];
    for (const line of [
      '1. Buy 2. Sell',
      '1.Buy 2.Sell',
      '1) Buy 2) Sell',
      '1)Buy 2)Sell',
      '1: Buy 2: Sell',
      '1:Buy 2:Sell',
      '1 - Buy 2 - Sell',
      '1- Buy 2- Sell',
      '1 – Buy 2 – Sell',
      '1 => Buy 2 => Sell',
      '1 > Buy 2 > Sell',
      '1.) Buy 2.) Sell',
      '(1) Buy (2) Sell',
      '[1] Buy [2] Sell',
    ])
      expect(read(`Menu\n${line}`), line).toEqual(buySell);
    // A line in any style goes on with ".", ")" or ":" (items in one style, the navigation in ExUssd's).
    expect(read('Menu\n1 - Buy 98:MORE 0:BACK')).toEqual([
      [1, 'Buy'],
      [98, 'MORE'],
      [0, 'BACK'],
    ]);
    expect(read('Menu\n(1) Buy 0. Back')).toEqual([
      [1, 'Buy'],
      [0, 'Back'],
    ]);
  });

  it('does not read a bare number, a time, a decimal or a dash between numbers inside a line as a further choice', () => {
    const read = (message: string) => numberedChoices(message).map((c) => [c.number, c.label]);
    expect(read('Menu\n1. Buy 2 shares')).toEqual([[1, 'Buy 2 shares']]);
    expect(read('Menu\n1. Order at 10:30 today')).toEqual([[1, 'Order at 10:30 today']]);
    expect(read('Menu\n1. AAPL USD 10.50 each')).toEqual([[1, 'AAPL USD 10.50 each']]);
    // A dash after a number is read only on a line that numbers its choices with a dash.
    expect(read('Menu\n1. AAPL 10 - Apple')).toEqual([[1, 'AAPL 10 - Apple']]);
    expect(read('Menu\n1) Gain 2 (Apple)')).toEqual([[1, 'Gain 2 (Apple)']]);
    expect(read('Menu\n0 Back 00 Home')).toEqual([[0, 'Back 00 Home']]);
  });

  it('names the numbering style of each option line, telling "1.Buy" from "1. Buy" and "1:Buy" from "1: Buy"', () => {
    const styles = (lines: string[]) => optionStyles(['Menu', ...lines].join('\n'), [1, 2]);
    expect(styles(['1. Buy', '2. Back'])).toEqual(['N. label', 'N. label']);
    expect(styles(['1.Buy', '2.Back'])).toEqual(['N.label', 'N.label']);
    expect(styles(['1:Buy', '2:Back'])).toEqual(['N:label', 'N:label']);
    expect(styles(['1: Buy', ' 2)  Back'])).toEqual(['N: label', 'N) label']);
    expect(styles(['1 - Buy', '2 Back'])).toEqual(['N - label', 'N label']);
  });

  it('does not take decimals, amounts or text for choices', () => {
    expect(
      numberedChoices('1.5 units held\nValue: USD 10.50\nBuy AAPL for USD 10\nRequest #730104 is PENDING.'),
    ).toEqual([]);
    expect(numberedChoices('1.')).toEqual([]);
  });

  it('gives the label of an option number, and which options the message leaves out', () => {
    const message = 'Stocks (1-3 of 5)\n1. AAPL Apple\n2. MSFT Microsoft\n4) Next\n0 Back';
    expect(labelOf(message, 2)).toBe('MSFT Microsoft');
    expect(labelOf(message, '2')).toBeUndefined();
    const opts = [1, 2, 3, 4, 0].map((option) => ({ option }));
    expect(notInMessage(message, opts)).toEqual([3]);
  });
});

// ---- the crawl --------------------------------------------------------------------------------------------------

describe('crawl', () => {
  it('visits each distinct view once on a cyclic graph, whatever the parameter order of the links', async () => {
    const s = server({
      '/ussd/stocks?customerId=7': {
        title: 'Stocks',
        options: [
          { n: 1, to: '/ussd/stocks?symbol=A&customerId=7' },
          { n: 2, to: '/ussd/home?customerId=7' },
        ],
      },
      '/ussd/stocks?customerId=7&symbol=A': {
        title: 'A',
        options: [
          { n: 1, to: '/ussd/stocks?customerId=7&symbol=A' },
          { n: 2, to: '/ussd/stocks?customerId=7' },
        ],
      },
      '/ussd/home?customerId=7': {
        title: 'Home',
        options: [
          { n: 1, to: '/ussd/stocks?customerId=7' },
          { n: 2, to: '/ussd/home?customerId=7' },
        ],
      },
    });
    const c = await crawl(options(s.fetch));
    expect(s.fetched).toHaveLength(3);
    expect(c.views.size).toBe(3);
    expect(c.frontier).toEqual([]);
    expect(c.links.every((l) => l.skipped === undefined)).toBe(true);
    expect(c.maxDepthReached).toBe(1);
  });

  it('ends on a graph that grows without end at the depth cap, and reports the frontier', async () => {
    const s = server((u) => {
      const n = Number(u.searchParams.get('page') ?? 0);
      return {
        title: `Page ${n}`,
        options: [
          { n: 1, to: `/ussd/stocks?customerId=7&page=${n + 1}` },
          { n: 2, to: '/ussd/home?customerId=7' },
        ],
      };
    });
    const c = await crawl(options(s.fetch, { maxDepth: 5 }));
    // pages 0..5 and home, once each
    expect(c.views.size).toBe(7);
    expect(c.maxDepthReached).toBe(5);
    expect(c.frontier).toHaveLength(1);
    expect(c.frontier[0]).toMatchObject({ reason: 'depth-cap', depth: 6 });
    expect(frontierLines(c)[0]).toBe(
      `stocks → 1 → 1 → 1 → 1 → 1 → 1: GET ${BASE}/ussd/stocks?customerId=7&page=6 (the depth cap was reached)`,
    );
    expect(c.links.filter((l) => l.skipped === 'depth-cap')).toHaveLength(1);
  });

  it('gives every view of a long chain its whole path: steps, ancestors and depth', async () => {
    // A paged list 1,500 pages long, each page also offering a detail: the shape of a long instrument list.
    const s = server((u) => {
      const n = Number(u.searchParams.get('page') ?? 0);
      const list = n === 0 ? '/ussd/stocks?customerId=7' : `/ussd/stocks?customerId=7&page=${n}`;
      if (u.searchParams.has('detail')) return { title: `Detail ${n}`, options: [{ n: 1, to: list }] };
      const next = n < 1499 ? [{ n: 1, to: `/ussd/stocks?customerId=7&page=${n + 1}` }] : [];
      return {
        title: `Page ${n}`,
        options: [...next, { n: next.length + 1, to: `/ussd/stocks?customerId=7&page=${n}&detail=1` }],
      };
    });
    const c = await crawl(options(s.fetch, { maxDepth: 10_000, maxViews: 10_000 }));
    expect(c.views.size).toBe(3000);
    expect(c.maxDepthReached).toBe(1500);
    const detail = c.views.get(normaliseUrl(`${BASE}/ussd/stocks?customerId=7&page=1499&detail=1`))!;
    expect(detail.depth).toBe(1500);
    expect(detail.steps).toHaveLength(1500);
    expect(detail.steps.slice(0, 2).map((st) => st.option)).toEqual([1, 1]);
    expect(detail.steps.at(-1)).toMatchObject({
      option: 1,
      index: 0,
      from: normaliseUrl(`${BASE}/ussd/stocks?customerId=7&page=1499`),
    });
    expect(detail.ancestors).toHaveLength(1500);
    expect(detail.ancestors[0]).toBe(normaliseUrl(`${BASE}/ussd/stocks?customerId=7`));
    expect(detail.ancestors).toEqual(detail.steps.map((st) => st.from));
    const start = c.views.get(normaliseUrl(`${BASE}/ussd/stocks?customerId=7`))!;
    expect(start.steps).toEqual([]);
    expect(start.ancestors).toEqual([]);
  });

  it('keeps the path of a view when a sibling path goes on from the same view', async () => {
    const s = server({
      '/ussd/stocks?customerId=7': {
        title: 'Stocks',
        options: [
          { n: 1, to: '/ussd/stocks?customerId=7&a=1' },
          { n: 2, to: '/ussd/stocks?customerId=7&b=1' },
        ],
      },
      '/ussd/stocks?customerId=7&a=1': { title: 'A', options: [{ n: 9, to: '/ussd/stocks?customerId=7&a=2' }] },
      '/ussd/stocks?customerId=7&b=1': { title: 'B', options: [{ n: 8, to: '/ussd/stocks?customerId=7&b=2' }] },
      '/ussd/stocks?customerId=7&a=2': { title: 'A2', options: [] },
      '/ussd/stocks?customerId=7&b=2': { title: 'B2', options: [] },
    });
    const c = await crawl(options(s.fetch));
    const trail = (q: string) => {
      const v = c.views.get(normaliseUrl(`${BASE}/ussd/stocks?customerId=7${q}`))!;
      return formatTrail(v.start, v.steps);
    };
    expect(trail('&a=2')).toBe('stocks → 1 → 9');
    expect(trail('&b=2')).toBe('stocks → 2 → 8');
  });

  it('ends on a graph that grows without end at the view cap', async () => {
    const s = server((u) => {
      const n = Number(u.searchParams.get('n') ?? 0);
      return {
        title: `View ${n}`,
        options: Array.from({ length: 5 }, (_, i) => ({
          n: i + 1,
          to: `/ussd/stocks?customerId=7&n=${n * 5 + i + 1}`,
        })),
      };
    });
    const c = await crawl(options(s.fetch, { maxViews: 20, maxDepth: 100 }));
    expect(c.views.size).toBe(20);
    expect(s.fetched).toHaveLength(20);
    expect(c.frontier.length).toBeGreaterThan(0);
    expect(new Set(c.frontier.map((f) => f.reason))).toEqual(new Set(['view-cap']));
    expect(crawlSummary(c)[0]).toMatch(
      /^crawled 20 views \(20 menus\) from stocks in \d+ ms, 4 at a time; depth reached 2 \(cap 100\), view cap 20$/,
    );
  });

  it('ends on a server that answers slowly, at its time budget', async () => {
    const s = server(
      (u) => {
        const n = Number(u.searchParams.get('n') ?? 0);
        return {
          title: `View ${n}`,
          options: [1, 2, 3].map((i) => ({ n: i, to: `/ussd/stocks?customerId=7&n=${n * 3 + i}` })),
        };
      },
      { delayMs: () => 40 },
    );
    const c = await crawl(options(s.fetch, { budgetMs: 150 }));
    // The menus never end and the view cap (500) takes at least 5 s at 40 ms a view, 4 at a time: the budget ended the
    // crawl, whatever the machine's load (which only makes the budget come sooner).
    expect(c.views.size).toBeLessThan(500);
    expect(new Set(c.frontier.map((f) => f.reason))).toEqual(new Set(['budget']));
    expect(c.links.some((l) => l.skipped === 'budget')).toBe(true);
  });

  it('ends when the check running it is stopped', async () => {
    const abort = new AbortController();
    const s = server(
      (u) => ({
        title: 'x',
        options: [{ n: 1, to: `/ussd/stocks?customerId=7&n=${Number(u.searchParams.get('n') ?? 0) + 1}` }],
      }),
      { delayMs: () => 5 },
    );
    setTimeout(() => abort.abort(), 30);
    const c = await crawl(options(s.fetch, { signal: abort.signal, maxDepth: 10_000, maxViews: 10_000 }));
    expect(c.frontier.map((f) => f.reason)).toEqual(['aborted']);
    expect(c.aborted).toBe(true);
  });

  it('runs at most `concurrency` requests at a time, and gives the same paths whatever the answer order', async () => {
    const pages = (u: URL): Page => {
      const n = Number(u.searchParams.get('n') ?? 0);
      if (n >= 40) return { title: `Leaf ${n}`, options: [{ n: 1, to: '/ussd/stocks?customerId=7' }] };
      return {
        title: `View ${n}`,
        options: [1, 2, 3].map((i) => ({ n: i, to: `/ussd/stocks?customerId=7&n=${n * 3 + i}` })),
      };
    };
    const fast = server(pages);
    const jittery = server(pages, { delayMs: (url) => (url.length * 7919) % 13 });
    const a = await crawl(options(fast.fetch));
    const b = await crawl(options(jittery.fetch));
    expect(jittery.maxInFlight()).toBeLessThanOrEqual(4);
    expect(jittery.maxInFlight()).toBeGreaterThan(1);
    const trails = (c: typeof a) => [...c.views.values()].map((v) => `${v.key} ${formatTrail(v.start, v.steps)}`);
    expect(trails(b)).toEqual(trails(a));
    const one = server(pages, { delayMs: () => 1 });
    await crawl(options(one.fetch, { concurrency: 1 }));
    expect(one.maxInFlight()).toBe(1);
  });

  it('lists order and cancel links without following them', async () => {
    const s = server({
      '/ussd/stocks?customerId=7': {
        title: 'Buy AAPL',
        options: [
          { n: 1, to: '/ussd/stocks?customerId=7&inputMode=true&symbol=AAPL&amount=10' },
          { n: 2, to: '/ussd/stocks?customerId=7&inputMode=true&symbol=AAPL&Amount=50' },
          { n: 3, to: '/ussd/requests?customerId=7&requestId=9&cancelMode=true' },
          { n: 4, to: '/ussd/requests?customerId=7&requestId=9&cancelMode=false' },
          { n: 5, to: '/ussd/home?customerId=7' },
        ],
      },
    });
    const c = await crawl(options(s.fetch));
    expect(s.fetched.map((u) => new URL(u).search)).toEqual([
      '?customerId=7',
      '?customerId=7&requestId=9&cancelMode=false',
      '?customerId=7',
    ]);
    expect(c.links.map((l) => l.skipped)).toEqual(['order', 'order', 'cancel', undefined, undefined]);
    expect(c.links.filter((l) => l.mutation).map((l) => l.mutation)).toEqual(['order', 'order', 'cancel']);
    expect(crawlSummary(c).join('\n')).toContain(
      'not followed (places an order (carries amount); followed only with --allow-mutations): stocks → 1:',
    );
  });

  it('follows them with allowMutations, one order per prompt and one cancel per request', async () => {
    const s = server({
      '/ussd/stocks?customerId=7': {
        title: 'Buy',
        options: [
          { n: 1, to: '/ussd/stocks?customerId=7&inputMode=true&symbol=AAPL&amount=10' },
          { n: 2, to: '/ussd/stocks?customerId=7&inputMode=true&symbol=AAPL&amount=50' },
          { n: 3, to: '/ussd/requests?customerId=7&requestId=9&cancelMode=true' },
          { n: 4, to: '/ussd/requests?customerId=7&requestId=9&status=PENDING&cancelMode=true' },
          { n: 5, to: '/ussd/stocks?customerId=7' },
        ],
      },
      '/ussd/stocks?customerId=7&inputMode=true&symbol=AAPL&amount=10': {
        title: 'Order received',
        options: [{ n: 1, to: '/ussd/stocks?customerId=7' }],
      },
      '/ussd/requests?customerId=7&requestId=9&cancelMode=true': {
        title: 'Canceled',
        options: [{ n: 1, to: '/ussd/stocks?customerId=7' }],
      },
    });
    const c = await crawl(options(s.fetch, { allowMutations: true }));
    expect(s.fetched).toHaveLength(3);
    expect(c.links.slice(0, 4).map((l) => l.skipped)).toEqual([
      undefined,
      'repeat-mutation',
      undefined,
      'repeat-mutation',
    ]);
    expect(deadLinks(c).problems).toEqual([]);
  });

  it('never sends a request off the target, outside /ussd/, or with another method than GET', async () => {
    const s = server({
      '/ussd/stocks?customerId=7': {
        title: 'Links',
        options: [
          { n: 1, to: 'https://evil.example/v1/ussd/stocks?customerId=7' },
          { n: 2, to: '/webhooks' },
          { n: 3, to: '/ussd/assets?customerId=7', type: 'POST' },
          { n: 4, to: 'ftp://api.example/v1/ussd/stocks' },
          { n: 5, to: '/ussd/assets?customerId=7', type: 'get' },
          { n: 6, to: 'https://evil.example/v1/webhooks' },
        ],
      },
      '/ussd/assets?customerId=7': { title: 'Assets', options: [{ n: 1, to: '/ussd/stocks?customerId=7' }] },
    });
    const c = await crawl(options(s.fetch));
    expect(s.fetched).toEqual([`${BASE}/ussd/stocks?customerId=7`, `${BASE}/ussd/assets?customerId=7`]);
    expect(c.links.slice(0, 6).map((l) => [l.skipped, l.moved])).toEqual([
      // On another origin but naming a USSD view: followed by its path below {base_url}, never sent there.
      [undefined, 'origin'],
      ['outside-ussd', undefined],
      ['method', undefined],
      ['invalid-url', undefined],
      [undefined, undefined],
      ['foreign-origin', undefined],
    ]);
    expect(c.links[0]!.url).toBe(`${BASE}/ussd/stocks?customerId=7`);
  });

  it('follows links built from an internal origin, or without the base path, by their path and query below {base_url}', async () => {
    const base = 'https://public.example/api/v1';
    const fetched: string[] = [];
    const view = (title: string, links: string[]) =>
      JSON.stringify({
        code: '200',
        message: 'Success',
        data: {
          ussdMessage: [title, ...links.map((_, i) => `${i + 1}. Go`)].join('\n'),
          ussdOptions: links.map((to, i) => ({ option: i + 1, requestUrl: to, requestType: 'GET' })),
        },
      });
    const c = await crawl({
      baseUrl: base,
      starts: [{ name: 'stocks', url: `${base}/ussd/stocks?customerId=7` }],
      maxViews: 10,
      maxDepth: 3,
      fetch: async (url) => {
        fetched.push(url);
        const u = new URL(url);
        const text =
          u.pathname === '/api/v1/ussd/stocks'
            ? view('Stocks', [
                'http://127.0.0.1:9999/v1/ussd/assets?customerId=7',
                'https://public.example/v1/ussd/home?customerId=7',
              ])
            : view('Other', [`${base}/ussd/stocks?customerId=7`]);
        return { status: 200, text, ref: url };
      },
    });
    expect(fetched).toEqual([
      `${base}/ussd/stocks?customerId=7`,
      `${base}/ussd/assets?customerId=7`,
      `${base}/ussd/home?customerId=7`,
    ]);
    expect(c.links.slice(0, 2).map((l) => [l.moved, l.url])).toEqual([
      ['origin', `${base}/ussd/assets?customerId=7`],
      ['base-path', `${base}/ussd/home?customerId=7`],
    ]);
    // Where they lead is judged as if written right: the way back leads home, the menus are alive.
    expect(deadLinks(c).problems).toEqual([]);
    expect(backProblems(c)).toEqual([]);
    expect(crawlSummary(c)[2]).toBe(
      '2 options written outside {base_url} followed by path and query below it (1 on another origin than https://public.example, e.g. "http://127.0.0.1:9999/v1/ussd/assets?customerId=7" → GET https://public.example/api/v1/ussd/assets?customerId=7; 1 on the target\'s origin outside /api/v1, e.g. "https://public.example/v1/ussd/home?customerId=7" → GET https://public.example/api/v1/ussd/home?customerId=7): ussd.options.request-url judges where they were written, the other rules where they lead',
    );
  });

  it('follows a relative requestUrl (the URL check reports it), and keeps what a broken view answered', async () => {
    const s = server({
      '/ussd/stocks?customerId=7': {
        title: 'S',
        options: [
          { n: 1, to: '/ussd/requests?customerId=7' },
          { n: 2, to: '/ussd/assets?customerId=7' },
        ],
      },
      '/ussd/requests?customerId=7': { status: 500 },
    });
    const relative = async (url: string) => {
      const out = await s.fetch(url);
      return 'text' in out && out.status === 200 ? { ...out, text: out.text.replaceAll(BASE, '/v1') } : out;
    };
    const c = await crawl(options(relative));
    expect(c.views.size).toBe(3);
    expect([...c.views.values()].map((v) => v.status)).toEqual([200, 500, 404]);
  });

  it('records a fetch that throws as a view without a usable answer', async () => {
    const c = await crawl(
      options(async () => {
        throw new Error('connection reset');
      }),
    );
    expect([...c.views.values()][0]).toMatchObject({ error: 'connection reset' });
    expect(deadLinks(c).problems.map((p) => p.message)).toEqual([
      `start menu stocks: GET ${BASE}/ussd/stocks?customerId=7 no usable response (connection reset)`,
    ]);
  });
});

// ---- rules ------------------------------------------------------------------------------------------------------

describe('rules', () => {
  it('names a dead link by the path of options, the menu and the option that lead to it; a home or portfolio not served is a note', async () => {
    const s = server({
      '/ussd/stocks?customerId=7': {
        title: 'Stocks',
        options: [
          { n: 1, to: '/ussd/stocks?customerId=7&symbol=A' },
          { n: 2, to: '/ussd/home?customerId=7' },
        ],
      },
      '/ussd/stocks?customerId=7&symbol=A': {
        title: 'A detail',
        options: [
          { n: 1, to: '/ussd/stock?customerId=7&symbol=A&x=1' },
          { n: 2, to: '/ussd/stocks?customerId=7' },
        ],
      },
    });
    const c = await crawl(
      options(s.fetch, {
        starts: [
          { name: 'stocks', url: `${BASE}/ussd/stocks?customerId=7` },
          { name: 'portfolio', url: `${BASE}/ussd/portfolio?customerId=7`, optional: true },
        ],
      }),
    );
    const dead = deadLinks(c);
    expect(dead.problems.map((p) => p.message)).toEqual([
      `stocks → 1 → 1: option 1 "stock" of menu "A detail" → GET ${BASE}/ussd/stock?customerId=7&symbol=A&x=1 answered 404`,
    ]);
    expect(dead.problems[0]!.view.ref).toBe(`${BASE}/ussd/stock?customerId=7&symbol=A&x=1`);
    // An optional start that does not answer, and that nothing links to, is a note; so is a link to a home the server
    // does not serve (404: "Contract of /ussd/home … not shown", REQ-USSD-22).
    expect(dead.notes).toEqual([
      `portfolio (GET ${BASE}/ussd/portfolio?customerId=7) answered 404; no option leads there, and its contract is not shown`,
      `/ussd/home (GET ${BASE}/ussd/home?customerId=7) answered 404: not served, only linked (its contract is not shown); 1 option leads there`,
    ]);
  });

  it('accepts as a way back: a menu on the path, one that offers the view, the list it was selected from, home, portfolio', async () => {
    const s = server({
      '/ussd/stocks?customerId=7': {
        title: 'Stocks',
        options: [
          { n: 1, to: '/ussd/stocks?customerId=7&symbol=A' },
          { n: 2, to: '/ussd/stocks?customerId=7&page=1' },
          { n: 0, to: '/ussd/home?customerId=7' },
        ],
      },
      '/ussd/stocks?customerId=7&page=1': {
        title: 'Stocks 2',
        options: [
          { n: 1, to: '/ussd/stocks?customerId=7&symbol=B&page=1' },
          { n: 0, to: '/ussd/stocks?customerId=7' },
        ],
      },
      '/ussd/stocks?customerId=7&symbol=A': {
        title: 'A',
        options: [
          { n: 1, to: '/ussd/assets?customerId=7' },
          { n: 2, to: '/ussd/stocks?customerId=7' },
        ],
      },
      '/ussd/stocks?customerId=7&symbol=B&page=1': {
        title: 'B',
        options: [{ n: 1, to: '/ussd/portfolio?customerId=7' }],
      },
      '/ussd/assets?customerId=7': {
        title: 'Assets',
        options: [
          { n: 1, to: '/ussd/assets?customerId=7&detail=true' },
          { n: 2, to: '/ussd/stocks?customerId=7&symbol=A' },
        ],
      },
      '/ussd/assets?customerId=7&detail=true': {
        title: 'Details',
        options: [{ n: 1, to: '/ussd/assets?customerId=7' }],
      },
      '/ussd/home?customerId=7': { title: 'Home', options: [{ n: 1, to: '/ussd/home?customerId=7' }] },
      '/ussd/portfolio?customerId=7': { title: 'Portfolio', options: [{ n: 1, to: '/ussd/home?customerId=7' }] },
    });
    const c = await crawl(options(s.fetch));
    expect(backProblems(c)).toEqual([]);
    expect(pagingProblems(c)).toEqual([]);
  });

  it('fails a last option that leads forward; a view without options is an END screen, not judged', async () => {
    const s = server({
      '/ussd/stocks?customerId=7': {
        title: 'Stocks',
        options: [
          { n: 1, to: '/ussd/stocks?customerId=7&symbol=A' },
          { n: 2, to: '/ussd/stocks?customerId=7&symbol=B' },
          { n: 3, to: '/ussd/home?customerId=7' },
        ],
      },
      '/ussd/stocks?customerId=7&symbol=A': {
        title: 'A',
        options: [{ n: 1, to: '/ussd/stocks?customerId=7&symbol=B' }],
      },
      '/ussd/stocks?customerId=7&symbol=B': { title: 'B', options: [] },
      '/ussd/home?customerId=7': { title: 'Home', options: [{ n: 1, to: '/ussd/stocks?customerId=7' }] },
    });
    const c = await crawl(options(s.fetch));
    expect(backProblems(c).map((p) => p.message)).toEqual([
      `stocks → 1 (menu "A"): the last option, option 1 "stocks", leads to "${BASE}/ussd/stocks?customerId=7&symbol=B" (menu "B"), which is not a menu on the path here ("Stocks"), not a menu that offers this one, and not home or portfolio`,
    ]);
    expect(backNotJudged(c)).toEqual([
      'stocks → 3 (menu "Home") is the top menu: its last option, option 1 "stocks" → "https://api.example/v1/ussd/stocks?customerId=7", is not judged (no menu is above it)',
      '1 view without options (END screens, no menus): no way back to judge, e.g. stocks → 2 (menu "B")',
    ]);
    expect(endScreensSeen(c)).toBe(
      'views without options (END screens; no menus, so no way back is judged): 1, e.g. stocks → 2 (menu "B")',
    );
  });

  it('crawls a view without options as an END screen: every rule copes with it, none fails it', async () => {
    const s = server({
      '/ussd/assets?customerId=7': {
        title: 'My assets',
        options: [
          { n: 1, to: '/ussd/assets?customerId=7&detail=true' },
          { n: 2, to: '/ussd/home?customerId=7' },
        ],
      },
      '/ussd/assets?customerId=7&detail=true': { title: 'My assets - details\nAAPL 10 @ 190.00', options: [] },
      '/ussd/home?customerId=7': { title: 'Home', options: [{ n: 1, to: '/ussd/assets?customerId=7' }] },
    });
    const c = await crawl(options(s.fetch, { starts: [{ name: 'assets', url: `${BASE}/ussd/assets?customerId=7` }] }));
    const end = c.views.get(normaliseUrl(`${BASE}/ussd/assets?customerId=7&detail=true`))!;
    expect(end.ussd).toEqual({ message: 'My assets - details\nAAPL 10 @ 190.00', options: [] });
    expect(c.links.filter((l) => l.from === end.key)).toEqual([]);
    expect(c.frontier).toEqual([]);
    expect(deadLinks(c).problems).toEqual([]);
    expect(backProblems(c)).toEqual([]);
    expect(pagingProblems(c)).toEqual([]);
    expect(schemaProblems(end)).toEqual([]);
    expect(numberProblems(end.ussd!.options)).toEqual([]);
    expect(notInMessage(end.ussd!.message, end.ussd!.options)).toEqual([]);
    expect(lastOptionIndexes(end)).toEqual([]);
    expect(customerProblems(end.ussd!.options, end.url, SCOPE, 7)).toEqual({ problems: [], notes: [], judged: 0 });
    expect(crawlSummary(c)[0]).toMatch(/^crawled 3 views \(3 menus\) from assets in \d+ ms/);
    expect(endScreensSeen(c)).toBe(
      'views without options (END screens; no menus, so no way back is judged): 1, e.g. assets → 1 (menu "My assets - details")',
    );
  });

  it('fails a last option that pages forward ("98 More"), even when the next page offers Previous; a Back to an earlier page is a way back', async () => {
    const s = server({
      '/ussd/home?customerId=7': {
        title: 'Home',
        options: [
          { n: 1, to: '/ussd/stocks?customerId=7' },
          // The later page of the assets list is reached first: the earlier one is not on its path.
          { n: 2, to: '/ussd/assets?customerId=7&page=1' },
          { n: 3, to: '/ussd/assets?customerId=7' },
          { n: 4, to: '/ussd/home?customerId=7' },
        ],
      },
      // ExUssd's order: items, "0 BACK", then "98 MORE" last.
      '/ussd/stocks?customerId=7': {
        title: 'Stocks',
        options: [
          { n: 1, to: '/ussd/stocks?customerId=7&symbol=A' },
          { n: 0, to: '/ussd/home?customerId=7' },
          { n: 98, to: '/ussd/stocks?customerId=7&page=1' },
        ],
      },
      '/ussd/stocks?customerId=7&page=1': {
        title: 'Stocks 2',
        options: [
          { n: 1, to: '/ussd/stocks?customerId=7' },
          { n: 0, to: '/ussd/home?customerId=7' },
        ],
      },
      '/ussd/stocks?customerId=7&symbol=A': { title: 'A', options: [{ n: 0, to: '/ussd/stocks?customerId=7' }] },
      // Back leads to the previous page, as ExUssd's BACK goes to the previous chunk.
      '/ussd/assets?customerId=7&page=1': {
        title: 'Assets 2',
        options: [{ n: 0, to: '/ussd/assets?customerId=7' }],
      },
      '/ussd/assets?customerId=7': {
        title: 'Assets',
        options: [
          { n: 1, to: '/ussd/assets?customerId=7&page=1' },
          { n: 0, to: '/ussd/home?customerId=7' },
        ],
      },
    });
    const c = await crawl(options(s.fetch, { starts: [{ name: 'home', url: `${BASE}/ussd/home?customerId=7` }] }));
    expect(backProblems(c).map((p) => p.message)).toEqual([
      `home → 1 (menu "Stocks"): the last option, option 98 "stocks", leads to "${BASE}/ussd/stocks?customerId=7&page=1", a later page of this list (page 1 after 0): paging forward is no way back`,
    ]);
  });

  it('takes a paged list for the parent on any of its pages: a Back to another page of the list a view came from', async () => {
    const s = server({
      '/ussd/home?customerId=7': {
        title: 'Home',
        options: [
          { n: 1, to: '/ussd/requests?customerId=7&status=PENDING' },
          { n: 2, to: '/ussd/stocks?customerId=7&symbol=A&inputMode=true' },
          { n: 3, to: '/ussd/home?customerId=7' },
        ],
      },
      // Page 1 of the Pending list, read before the order exists.
      '/ussd/requests?customerId=7&status=PENDING': {
        title: 'Pending requests',
        options: [
          { n: 1, to: '/ussd/requests?customerId=7&status=PENDING&requestId=1' },
          { n: 2, to: '/ussd/home?customerId=7' },
        ],
      },
      '/ussd/requests?customerId=7&status=PENDING&requestId=1': {
        title: 'Request #1',
        options: [{ n: 1, to: '/ussd/requests?customerId=7&status=PENDING' }],
      },
      // An order's confirmation opens the new request inside the Pending list…
      '/ussd/stocks?customerId=7&symbol=A&inputMode=true': {
        title: 'Order received',
        options: [
          { n: 1, to: '/ussd/requests?customerId=7&status=PENDING&requestId=9' },
          { n: 2, to: '/ussd/home?customerId=7' },
        ],
      },
      // …whose Back leads to page 2 of that list, where it sits: the list is its parent, on any page.
      '/ussd/requests?customerId=7&status=PENDING&requestId=9': {
        title: 'Request #9',
        options: [{ n: 1, to: '/ussd/requests?customerId=7&status=PENDING&page=1' }],
      },
      '/ussd/requests?customerId=7&status=PENDING&page=1': {
        title: 'Pending requests 2',
        options: [
          { n: 1, to: '/ussd/requests?customerId=7&status=PENDING&requestId=9&page=1' },
          { n: 2, to: '/ussd/requests?customerId=7&status=PENDING' },
        ],
      },
      '/ussd/requests?customerId=7&status=PENDING&requestId=9&page=1': {
        title: 'Request #9',
        // Back to page 3 of another list: no page of a parent.
        options: [{ n: 1, to: '/ussd/requests?customerId=7&status=ERROR&page=2' }],
      },
      '/ussd/requests?customerId=7&status=ERROR&page=2': {
        title: 'Error requests 3',
        options: [{ n: 1, to: '/ussd/home?customerId=7' }],
      },
    });
    const c = await crawl(options(s.fetch, { starts: [{ name: 'home', url: `${BASE}/ussd/home?customerId=7` }] }));
    expect(backProblems(c).map((p) => p.message)).toEqual([
      `home → 2 → 1 → 1 → 1 (menu "Request #9"): the last option, option 1 "requests", leads to "${BASE}/ussd/requests?customerId=7&status=ERROR&page=2" (menu "Error requests 3"), which is not a menu on the path here ("Home", "Order received", "Request #9", "Pending requests 2"), not a menu that offers this one, and not home or portfolio`,
    ]);
  });

  it('fails a last option that leads to the menu itself, however its URL is written; /ussd/home reloading is not judged', async () => {
    const s = server({
      // A start menu that reloads itself, its parameters in another order.
      '/ussd/stocks?customerId=7&lang=en': {
        title: 'Stocks',
        options: [
          { n: 1, to: '/ussd/stocks?customerId=7&symbol=A' },
          { n: 2, to: '/ussd/requests?customerId=7' },
          { n: 3, to: '/ussd/stocks?lang=en&customerId=7' },
        ],
      },
      // Every option leads to the view itself: offering itself does not make it its own parent.
      '/ussd/stocks?customerId=7&symbol=A': {
        title: 'A',
        options: [
          { n: 1, to: '/ussd/stocks?customerId=7&symbol=A' },
          { n: 2, to: '/ussd/stocks?symbol=A&customerId=7' },
        ],
      },
      // The way back to page=0, which shows the very same screen: the same view.
      '/ussd/requests?customerId=7': {
        title: 'Requests',
        options: [
          { n: 1, to: '/ussd/home?customerId=7' },
          { n: 2, to: '/ussd/requests?customerId=7&page=0' },
        ],
      },
      '/ussd/requests?customerId=7&page=0': {
        title: 'Requests',
        options: [
          { n: 1, to: '/ussd/home?customerId=7' },
          { n: 2, to: '/ussd/requests?customerId=7&page=0' },
        ],
      },
      '/ussd/home?customerId=7': {
        title: 'Home',
        options: [
          { n: 1, to: '/ussd/stocks?customerId=7&lang=en' },
          { n: 2, to: '/ussd/home?customerId=7' },
        ],
      },
    });
    const c = await crawl(
      options(s.fetch, {
        starts: [
          { name: 'stocks', url: `${BASE}/ussd/stocks?customerId=7&lang=en` },
          { name: 'home', url: `${BASE}/ussd/home?customerId=7`, optional: true },
        ],
      }),
    );
    expect(backProblems(c).map((p) => p.message)).toEqual([
      `stocks (menu "Stocks"): the last option, option 3 "stocks", leads to "${BASE}/ussd/stocks?lang=en&customerId=7", this same view: a menu is not its own parent, and the user is left where they are`,
      `stocks → 1 (menu "A"): the last option, option 2 "stocks", leads to "${BASE}/ussd/stocks?symbol=A&customerId=7", this same view: a menu is not its own parent, and the user is left where they are`,
      `stocks → 2 (menu "Requests"): the last option, option 2 "requests", leads to "${BASE}/ussd/requests?customerId=7&page=0", this same view (another page of it, with the same content): a menu is not its own parent, and the user is left where they are`,
      `stocks → 2 → 2 (menu "Requests"): the last option, option 2 "requests", leads to "${BASE}/ussd/requests?customerId=7&page=0", this same view: a menu is not its own parent, and the user is left where they are`,
    ]);
    // The last options are links.back's; only A's first option is a second way to the same view.
    expect(pagingProblems(c).map((p) => p.message)).toEqual([
      `stocks → 1 (menu "A"): option 1 "stocks" leads to this same view (${BASE}/ussd/stocks?customerId=7&symbol=A)`,
    ]);
  });

  it('fails the ways back of menus that lead to each other and never reach home; a menu leading into the cycle is fine', async () => {
    const menus = (cycle: boolean) =>
      server({
        '/ussd/assets?customerId=7': {
          title: 'My assets',
          options: [
            { n: 1, to: '/ussd/assets?customerId=7&detail=true' },
            { n: 2, to: '/ussd/home?customerId=7' },
          ],
        },
        // A and B offer each other, and each one's Back leads to the other (B is no page of A: a later page is judged
        // as paging forward before any cycle).
        '/ussd/assets?customerId=7&detail=true': {
          title: 'A',
          options: [
            { n: 1, to: '/ussd/stocks?customerId=7&assetId=2' },
            { n: 2, to: '/ussd/stocks?customerId=7&assetId=1' },
            { n: 3, to: cycle ? '/ussd/stocks?customerId=7&assetId=2' : '/ussd/assets?customerId=7' },
          ],
        },
        '/ussd/stocks?customerId=7&assetId=2': {
          title: 'B',
          options: [
            { n: 1, to: '/ussd/assets?customerId=7&detail=true' },
            { n: 2, to: '/ussd/assets?customerId=7&detail=true' },
          ],
        },
        // Leads back into the cycle: its own way back is to a menu that offers it.
        '/ussd/stocks?customerId=7&assetId=1': {
          title: 'C',
          options: [{ n: 1, to: '/ussd/assets?customerId=7&detail=true' }],
        },
        '/ussd/home?customerId=7': { title: 'Home', options: [{ n: 1, to: '/ussd/assets?customerId=7' }] },
      });
    const start = { starts: [{ name: 'assets', url: `${BASE}/ussd/assets?customerId=7` }] };
    expect(backProblems(await crawl(options(menus(false).fetch, start)))).toEqual([]);
    const problems = backProblems(await crawl(options(menus(true).fetch, start)));
    expect(problems.map((p) => p.message)).toEqual([
      'assets → 1 (menu "A"): the last option leads back to "B", and the ways back go round 2 menus ("A" → "B" → "A") and never reach home, portfolio or a menu above them',
    ]);
    expect(problems[0]!.also!.map((v) => v.url)).toEqual([`${BASE}/ussd/stocks?customerId=7&assetId=2`]);
  });

  it('fails start menus whose ways back lead round each other', async () => {
    const s = server({
      '/ussd/stocks?customerId=7': {
        title: 'Stocks',
        options: [
          { n: 1, to: '/ussd/stocks?customerId=7&symbol=A' },
          { n: 2, to: '/ussd/assets?customerId=7' },
        ],
      },
      '/ussd/stocks?customerId=7&symbol=A': { title: 'A', options: [{ n: 1, to: '/ussd/stocks?customerId=7' }] },
      '/ussd/assets?customerId=7': { title: 'Assets', options: [{ n: 1, to: '/ussd/requests?customerId=7' }] },
      '/ussd/requests?customerId=7': { title: 'Requests', options: [{ n: 1, to: '/ussd/stocks?customerId=7' }] },
    });
    const c = await crawl(
      options(s.fetch, {
        starts: ['stocks', 'assets', 'requests'].map((name) => ({ name, url: `${BASE}/ussd/${name}?customerId=7` })),
      }),
    );
    // A leads into the cycle of the three start menus, and is not reported itself.
    expect(backProblems(c).map((p) => p.message)).toEqual([
      'stocks (menu "Stocks"): the last option leads back to "Assets", and the ways back go round 3 menus ("Stocks" → "Assets" → "Requests" → "Stocks") and never reach home, portfolio or a menu above them',
    ]);
  });

  it('takes the last option as the last of the array or the one shown last, never by its number', () => {
    const view = (message: string, numbers: number[]) => ({
      ussd: { message, options: numbers.map((option) => ({ option })) },
    });
    expect(lastOptionIndexes(view('M\n1. A\n2. B', [1, 2]))).toEqual([1]);
    // A non-contiguous "0 Back" last on screen and in the array, in either numbering style.
    expect(lastOptionIndexes(view('M\n1) A\n2) B\n0) Back', [1, 2, 0]))).toEqual([2]);
    // The array in another order than the screen: both readings of "last" count.
    expect(lastOptionIndexes(view('M\n1. A\n2. B\n0. Back', [0, 1, 2]))).toEqual([0, 2]);
    expect(lastOptionIndexes(view('M\n1. A\n2. B\n3. Back', [3, 1, 2]))).toEqual([0, 2]);
    // A 0 listed first on screen and first in the array is the first option, whatever its number.
    expect(lastOptionIndexes(view('M\n0. Back\n1. A\n2. B', [0, 1, 2]))).toEqual([2]);
    // A number shown last that two options use: either may be meant.
    expect(lastOptionIndexes(view('M\n1. A\n2. B\n2. Back', [1, 2, 2, 5]))).toEqual([1, 2, 3]);
    // Choices the message does not show (or shows for no option) leave the array's order.
    expect(lastOptionIndexes(view('M without numbers', [0, 1]))).toEqual([1]);
    expect(lastOptionIndexes(view('M\n1. A\n9. Z', [0, 1]))).toEqual([1]);
    expect(lastOptionIndexes(view('M', []))).toEqual([]);
  });

  it('fails a menu that lists Back first and ends with an option that leads forward, and passes it with Back last', async () => {
    const menus = (backFirst: boolean) =>
      server({
        '/ussd/stocks?customerId=7': {
          title: 'Stocks',
          options: [
            { n: 1, to: '/ussd/stocks?customerId=7&symbol=A' },
            { n: 2, to: '/ussd/home?customerId=7' },
          ],
        },
        '/ussd/stocks?customerId=7&symbol=A': {
          title: 'A',
          options: backFirst
            ? [
                { n: 0, to: '/ussd/stocks?customerId=7' },
                { n: 1, to: '/ussd/stocks?customerId=7&symbol=A&inputMode=true' },
              ]
            : [
                { n: 1, to: '/ussd/stocks?customerId=7&symbol=A&inputMode=true' },
                { n: 0, to: '/ussd/stocks?customerId=7' },
              ],
        },
        '/ussd/stocks?customerId=7&symbol=A&inputMode=true': {
          title: 'Buy A',
          options: [{ n: 1, to: '/ussd/stocks?customerId=7&symbol=A' }],
        },
        '/ussd/home?customerId=7': { title: 'Home', options: [{ n: 1, to: '/ussd/stocks?customerId=7' }] },
      });
    expect(backProblems(await crawl(options(menus(false).fetch)))).toEqual([]);
    expect(backProblems(await crawl(options(menus(true).fetch))).map((p) => p.message)).toEqual([
      `stocks → 1 (menu "A"): the last option, option 1 "stocks", leads to "${BASE}/ussd/stocks?customerId=7&symbol=A&inputMode=true" (menu "Buy A"), which is not a menu on the path here ("Stocks"), not a menu that offers this one, and not home or portfolio`,
    ]);
  });

  it('finds an option whose label names the instrument of another option, and only then', () => {
    const opts = (symbols: string[]) =>
      symbols.map((s, i) => ({
        option: i + 1,
        requestUrl: `${BASE}/ussd/stocks?customerId=7&symbol=${encodeURIComponent(s)}`,
      }));
    const at = `${BASE}/ussd/stocks?customerId=7`;
    const list = 'Stocks\n1. AAPL Apple\n2. MSFT Microsoft\n3. GOOGL Alphabet';
    expect(symbolMismatches(list, opts(['AAPL', 'MSFT', 'GOOGL']), at)).toEqual([]);
    expect(symbolMismatches(list, opts(['MSFT', 'GOOGL', 'AMZN']), at)).toEqual([
      `option 2 "MSFT Microsoft" leads to ${BASE}/ussd/stocks?customerId=7&symbol=GOOGL (symbol GOOGL), while its label names MSFT, the instrument of option 1`,
      `option 3 "GOOGL Alphabet" leads to ${BASE}/ussd/stocks?customerId=7&symbol=AMZN (symbol AMZN), while its label names GOOGL, the instrument of option 2`,
    ]);
    // Labels without symbols, a label naming its own symbol beside another, a symbol in another case, single letters.
    expect(symbolMismatches('S\n1. Apple\n2. Microsoft', opts(['MSFT', 'AAPL']), at)).toEqual([]);
    expect(symbolMismatches('S\n1. AAPL or MSFT\n2. MSFT', opts(['AAPL', 'MSFT']), at)).toEqual([]);
    expect(symbolMismatches('S\n1. Buy msft\n2. MSFT', opts(['AAPL', 'MSFT']), at)).toEqual([]);
    expect(symbolMismatches('S\n1. Ford F\n2. A share of T', opts(['T', 'F']), at)).toEqual([]);
    expect(symbolMismatches('S\n1. BRK.B Berkshire\n2. BRK.A Berkshire', opts(['BRK.A', 'BRK.B']), at)).toHaveLength(2);
    // Search results named by their names, and the Next link whose symbol is the text searched for: not siblings.
    const results = [
      { option: 1, requestUrl: `${BASE}/ussd/stocks?customerId=7&symbol=AAPL` },
      { option: 2, requestUrl: `${BASE}/ussd/stocks?customerId=7&searchMode=true&symbol=Apple&page=1` },
    ];
    expect(symbolMismatches('Results for "Apple"\n1. Apple Inc.\n2. Next', results, at)).toEqual([]);
  });

  it('finds follow-up URLs that ask for a negative page', () => {
    const at = `${BASE}/ussd/stocks?customerId=7&page=-1`;
    expect(
      negativePageLinks(
        [
          { option: 1, requestUrl: `${BASE}/ussd/stocks?customerId=7` },
          { option: 2, requestUrl: `${BASE}/ussd/stocks?customerId=7&page=-2` },
          { option: 3, requestUrl: `${BASE}/ussd/stocks?customerId=7&page=0` },
          { option: 4, requestUrl: '/v1/ussd/stocks?customerId=7&page=-0.5' },
          { option: 5, requestUrl: `${BASE}/ussd/stocks?customerId=7&page=x` },
        ],
        at,
      ),
    ).toEqual([
      `option 2 (ussdOptions[1]) → ${BASE}/ussd/stocks?customerId=7&page=-2: page -2`,
      'option 4 (ussdOptions[3]) → /v1/ussd/stocks?customerId=7&page=-0.5: page -0.5',
    ]);
  });

  it('finds paging that does not move: a link to the same view, or a page with the same content', async () => {
    const s = server({
      '/ussd/stocks?customerId=7': {
        title: 'Stocks',
        options: [
          { n: 1, to: '/ussd/stocks?customerId=7&page=3' },
          { n: 2, to: '/ussd/stocks?customerId=7' },
          { n: 3, to: '/ussd/home?customerId=7' },
        ],
      },
      '/ussd/stocks?customerId=7&page=3': {
        title: 'Stocks',
        options: [
          { n: 1, to: '/ussd/stocks?customerId=7&page=3' },
          { n: 2, to: '/ussd/stocks?customerId=7' },
          { n: 3, to: '/ussd/home?customerId=7' },
        ],
      },
      '/ussd/home?customerId=7': { title: 'Home', options: [{ n: 1, to: '/ussd/home?customerId=7' }] },
    });
    const c = await crawl(options(s.fetch));
    expect(pagingProblems(c).map((p) => p.message)).toEqual([
      `stocks (menu "Stocks"): option 1 "stocks" → ${BASE}/ussd/stocks?customerId=7&page=3 shows the same content as this page`,
      `stocks (menu "Stocks"): option 2 "stocks" leads to this same view (${BASE}/ussd/stocks?customerId=7)`,
      `stocks → 1 (menu "Stocks"): option 1 "stocks" leads to this same view (${BASE}/ussd/stocks?customerId=7&page=3)`,
      `stocks → 1 (menu "Stocks"): option 2 "stocks" → ${BASE}/ussd/stocks?customerId=7 shows the same content as this page`,
    ]);
  });

  it('checks option numbers, requestUrl, requestType and customerId', () => {
    expect(numberProblems([{ option: 1 }, { option: '2' }, { option: 1.5 }, { option: 3 }, { option: 3 }, {}])).toEqual(
      [
        'ussdOptions[1].option is "2", not an integer',
        'ussdOptions[2].option is 1.5, not an integer',
        'ussdOptions[5].option is missing, not an integer',
        'option 3 is used by 2 options',
      ],
    );
    expect(requestUrlProblem(`${BASE}/ussd/requests?customerId=7`, SCOPE)).toBeUndefined();
    expect(requestUrlProblem('/v1/ussd/home', SCOPE)).toBe(
      'requestUrl "/v1/ussd/home" is not a full URL (no scheme and host)',
    );
    expect(requestUrlProblem('http://api.example/v1/ussd/home', SCOPE)).toBe(
      'requestUrl "http://api.example/v1/ussd/home" is on http://api.example, not on the target\'s origin https://api.example',
    );
    expect(requestUrlProblem('https://api.example/ussd/home', SCOPE)).toBe(
      'requestUrl "https://api.example/ussd/home" is outside the base path /v1',
    );
    expect(requestUrlProblem(`${BASE}/ussd/stock`, SCOPE)).toMatch(/addresses \/ussd\/stock, which is none of/);
    expect(requestUrlProblem(undefined, SCOPE)).toBe('requestUrl is missing, not a URL');
    expect(['GET', 'get', 'POST', 'DELETE'].map(isHttpMethod)).toEqual([true, true, true, true]);
    expect(['USSD', '', undefined, 1].map(isHttpMethod)).toEqual([false, false, false, false]);

    const found = customerProblems(
      [
        { option: 1, requestUrl: `${BASE}/ussd/stocks?customerId=7&symbol=A` },
        { option: 2, requestUrl: `${BASE}/ussd/stocks?page=1` },
        { option: 3, requestUrl: `${BASE}/ussd/assets?customerId=8` },
        { option: 4, requestUrl: `${BASE}/ussd/home` },
        { option: 5, requestUrl: `${BASE}/ussd/portfolio?customerId=8` },
      ],
      `${BASE}/ussd/stocks?customerId=7`,
      SCOPE,
      7,
    );
    // Only a customerId that is there is judged (REQ-USSDV-11); without it, a link to a view that requires it is dead,
    // which ussd.links.alive judges: noted here.
    expect(found.problems).toEqual([
      `option 3 (ussdOptions[2]) → ${BASE}/ussd/assets?customerId=8: customerId 8 instead of 7`,
      `option 5 (ussdOptions[4]) → ${BASE}/ussd/portfolio?customerId=8: customerId 8 instead of 7`,
    ]);
    expect(found.notes).toEqual([
      `option 2 → ${BASE}/ussd/stocks?page=1: no customerId (required on /ussd/stocks: ussd.links.alive judges the link)`,
      `option 4 → ${BASE}/ussd/home: no customerId (the contract of /ussd/home is not shown)`,
    ]);
    expect(
      customerProblems(
        [{ option: 1, requestUrl: `${BASE}/ussd/requests?customerId=7&customerId=7` }],
        `${BASE}/ussd/stocks?customerId=7`,
        SCOPE,
        7,
      ).problems,
    ).toEqual([
      `option 1 (ussdOptions[0]) → ${BASE}/ussd/requests?customerId=7&customerId=7: customerId given 2 times (7, 7), not once`,
    ]);
  });
});
