// The `ussd` suite end to end against the reference server: clean in both variants (and with --allow-mutations),
// each representative fault caught by the checks that name it, the caps reported as a warning with the frontier, and
// one crawl per run whose hundreds of exchanges stay off the reports.
import { afterEach, describe, expect, it } from 'vitest';
import { pack } from '../../../suites/index.js';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runChecks, type RunFlags, type RunResult, type SuiteDefinition } from '../../../src/engine/index.js';
import { startLocalTarget, type LocalTarget } from '../../../src/targets/local.js';
import {
  CHOICE_DEFS,
  choiceName,
  resolveChoices,
  type ChoiceDef,
  type Choices,
  type VariantName,
} from '../../../src/reference/choices/index.js';
import type { Middleware } from '../../../src/reference/context.js';
import ussd from '../../../suites/ussd/index.js';

let stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.reverse()) await stop();
  stops = [];
});

async function local(
  options: { variant?: VariantName; faults?: string[]; choices?: Partial<Choices>; middleware?: Middleware[] } = {},
): Promise<LocalTarget> {
  const l = await startLocalTarget(options);
  stops.push(() => l.stop());
  return l;
}

type UssdRun = {
  variant?: VariantName;
  faults?: string[];
  choices?: Partial<Choices>;
  middleware?: Middleware[];
  flags?: Partial<RunFlags>;
  caps?: { maxViews?: number; maxDepth?: number };
  grep?: string;
};

/**
 * The run of one server set-up, made once per file: several tests read the same run (a fault's catch in the fault table
 * and its finding's wording in another test; a reading alone and the clean server, when the reading is the variant's
 * own), and assertions only read a result. A set-up is its variant, resolved choices, faults, flags, caps and
 * selection; a run with middleware is the test's own. A test run alone (`-t`) makes the run itself.
 */
const runs = new Map<string, Promise<RunResult>>();
function runUssd(options: UssdRun = {}): Promise<RunResult> {
  if (options.middleware) return runUssdOnce(options);
  const { variant, faults = [], choices, flags = {}, caps = {}, grep = null } = options;
  const key = JSON.stringify([variant ?? 'strict', resolveChoices(variant, choices), faults, flags, caps, grep]);
  let result = runs.get(key);
  if (!result) runs.set(key, (result = runUssdOnce(options)));
  return result;
}

async function runUssdOnce(options: UssdRun): Promise<RunResult> {
  const l = await local(options);
  return runChecks({
    pack,
    target: l.target,
    suites: [ussd],
    failOn: 'should',
    flags: options.flags,
    suiteOptions: { ussd: options.caps ?? {} },
    selection: options.grep ? { grep: options.grep } : {},
  });
}

const failing = (r: RunResult) =>
  r.checks
    .filter((c) => c.failsRun || c.outcome === 'error')
    .map((c) => c.id)
    .sort();
const check = (r: RunResult, id: string) => r.checks.find((c) => c.id === id)!;

describe('suite ussd against the clean reference server', () => {
  it.each(['strict', 'alt'] as const)(
    '%s variant: nothing fails, warns or breaks; the order flow waits for --allow-mutations',
    async (variant) => {
      const r = await runUssd({ variant });
      expect(r.checks.filter((c) => c.outcome !== 'pass').map((c) => [c.id, c.outcome])).toEqual([
        ['ussd.flow.order-cancel', 'skip'],
      ]);
      const crawl = check(r, 'ussd.crawl.bounded');
      expect(crawl.observations[0]).toMatch(
        /^crawled \d{2} views \(\d{2} menus\) from stocks, assets, requests, home, portfolio in \d+ ms, 4 at a time; depth reached \d \(cap 12\), view cap 500$/,
      );
      expect(crawl.observations.join('\n')).toMatch(
        /not followed \(places an order \(carries amount\); followed only with --allow-mutations\): stocks → \d → \d → \d: /,
      );
      expect(crawl.observations.join('\n')).toMatch(
        /not followed \(cancels an order \(cancelMode=true\); followed only with --allow-mutations\): requests → /,
      );
      // The crawl's exchanges are kept off the check that happened to run it; passing checks record none of them.
      for (const id of ['ussd.crawl.bounded', 'ussd.view.schema', 'ussd.links.alive', 'ussd.links.back'])
        expect(check(r, id).exchanges, id).toEqual([]);
    },
  );

  it.each(['strict', 'alt'] as const)(
    '%s variant with --allow-mutations: the crawl follows order and cancel links, and the flow places then cancels an order',
    async (variant) => {
      const r = await runUssd({ variant, flags: { allowMutations: true } });
      expect(r.checks.filter((c) => c.outcome !== 'pass').map((c) => c.id)).toEqual([]);
      expect(check(r, 'ussd.crawl.bounded').observations[0]).toContain(
        '--allow-mutations: order and cancel links followed',
      );
      const flow = check(r, 'ussd.flow.order-cancel').observations;
      expect(flow[0]).toMatch(
        /^placed an order: (stocks|assets) → [\d →]+ → GET \S+amount=10\S* → 200 "Order received"$/,
      );
      expect(flow[1]).toMatch(/^request \d+ is listed under: PENDING \(PENDING expected\)$/);
      expect(flow[2]).toMatch(/^canceled it: GET \S+cancelMode=true\S* → 200 /);
      expect(flow[3]).toMatch(/^request \d+ is then listed under: CANCELED \(CANCELED expected\)$/);
    },
  );
});

/**
 * A server whose order confirmation opens the new request inside the Pending list (status=PENDING) and whose request
 * detail, opened from that list, leads back to the page of it that holds the request: with the orders the crawl places under
 * --allow-mutations (one per amount prompt), newer requests push a request to page 2. `backs` records each Back that
 * leads past the first page.
 */
function backToItsPage(backs: string[]): Middleware {
  return async (ctx, state, route, next) => {
    const reply = await next();
    const options = (reply.body as { data?: { ussdOptions?: Array<{ requestUrl: string }> } } | undefined)?.data
      ?.ussdOptions;
    if (reply.status !== 200 || !Array.isArray(options)) return reply;
    const q = ctx.url.searchParams;
    if (route.path === '/ussd/stocks' && q.has('amount')) {
      for (const o of options) if (/[?&]requestId=/.test(o.requestUrl)) o.requestUrl += '&status=PENDING';
    } else if (
      route.path === '/ussd/requests' &&
      q.get('status') === 'PENDING' &&
      q.has('requestId') &&
      !q.has('cancelMode')
    ) {
      // The Pending list, newest first, three to a page (the reference's USSD page size, pages counted from 0).
      const pending = state.store.orderRequestList(Number(q.get('customerId')), 'PENDING');
      const at = pending.findIndex((r) => r.requestId === Number(q.get('requestId')));
      if (at < 0) return reply;
      const page = Math.floor((pending.length - 1 - at) / 3);
      const back = new URL(options.at(-1)!.requestUrl);
      back.search = new URLSearchParams({
        customerId: q.get('customerId')!,
        status: 'PENDING',
        ...(page > 0 ? { page: String(page) } : {}),
      }).toString();
      options.at(-1)!.requestUrl = back.href;
      if (page > 0) backs.push(`${ctx.url.pathname}${ctx.url.search} → ${back.search}`);
    }
    return reply;
  };
}

describe('suite ussd: a paged list is the parent on any of its pages', () => {
  it('with --allow-mutations, a new order on page 2 of "Pending requests" leads back there, and links.back accepts it', async () => {
    const backs: string[] = [];
    const r = await runUssd({ middleware: [backToItsPage(backs)], flags: { allowMutations: true } });
    expect(r.checks.filter((c) => c.outcome !== 'pass').map((c) => [c.id, c.outcome])).toEqual([]);
    // A request opened from its order's confirmation, whose Back leads to a later page of the Pending list than the
    // first: not on the crawl's path, and not offered by the pages the crawl read before the order existed.
    expect(
      backs.some((b) => /[?&]requestId=\d+&status=PENDING → \?customerId=1042&status=PENDING&page=[1-9]/.test(b)),
    ).toBe(true);
  });
});

// Each reading of an open point of the USSD views (and of the core choices the menus render): the suite passes,
// and ussd.info.readings records the reading, in the words the choice's `recorded` expects.
const USSD_CHOICE_VALUES = (
  [
    'ussdNumbering',
    'ussdBack',
    'ussdAssetId',
    'ussdHomePortfolio',
    'ussdUnknownCustomer',
    'ussdTerminal',
    'ussdRequestsMenu',
  ] as const
).flatMap((key) =>
  (CHOICE_DEFS[key] as ChoiceDef).values.map(
    (v) => [`${choiceName(key)}=${v.value}`, key, v.value, v.recorded] as const,
  ),
);

describe('suite ussd under every reading of its open points', () => {
  it.each(USSD_CHOICE_VALUES)(
    '%s: nothing fails or warns, and the reading is recorded',
    async (_name, key, value, recorded) => {
      const r = await runUssd({ choices: { [key]: value } as Partial<Choices> });
      expect(r.checks.filter((c) => c.outcome !== 'pass').map((c) => [c.id, c.outcome])).toEqual([
        ['ussd.flow.order-cancel', 'skip'],
      ]);
      const readings = check(r, 'ussd.info.readings').observations;
      expect(
        readings.filter((o) => new RegExp(recorded, 'i').test(o)),
        readings.join('\n'),
      ).toHaveLength(1);
    },
  );

  it('records every reading in its own words', async () => {
    const readings = check(
      await runUssd({
        choices: {
          ussdNumbering: 'dash',
          ussdBack: 'zero',
          ussdAssetId: 'ignored',
          ussdHomePortfolio: 'not-served',
          ussdUnknownCustomer: 'view',
          ussdTerminal: 'detail-views',
        },
      }),
      'ussd.info.readings',
    ).observations;
    expect(readings).toEqual([
      expect.stringMatching(/^numbering of the choices \(not given\): "N - label" ×\d+$/),
      expect.stringMatching(/^number of the way back \(the last option; not given\): 0 in \d+ menus$/),
      // assetId ignored: a holding opens the stocks list, so the details page is the one END screen left.
      'views without options (END screens; no menus, so no way back is judged): 1, e.g. assets → 3 (menu "My assets - details (1-2 of 2)")',
      'USSD page values (their unit is not given; the crawl follows them, never computes one): stocks → page=1, requests → page=1',
      expect.stringMatching(
        /^assetId: ignored \(\d+ views of \/ussd\/stocks with assetId show the stocks menu without it\)$/,
      ),
      '/ussd/home and /ussd/portfolio: not served (404, 404); menus link to them only',
      'requests menu (what it shows unfiltered is not given): lists the requests, 3 on its first page, and offers 4 status filters (PENDING, COMPLETED, CANCELED, ERROR)',
      'unknown customer: a view saying so (200, 200, 200); ussd.customer.unknown judges that it serves no menu of a customer',
    ]);
  });

  it('records the readings of real USSD libraries in their own words: "1.Buy", "0 Back" then "99 Home", an END screen', async () => {
    const r = await runUssd({
      choices: { ussdNumbering: 'compact', ussdBack: 'zero-and-home', ussdUnknownCustomer: 'end-screen' },
    });
    expect(r.checks.filter((c) => c.outcome !== 'pass').map((c) => c.id)).toEqual(['ussd.flow.order-cancel']);
    const readings = check(r, 'ussd.info.readings').observations;
    expect(readings[0]).toMatch(/^numbering of the choices \(not given\): "N\.label" ×\d+$/);
    // The start menus' Back leads home: they end with "0.Back" alone; the others with "0.Back" then "99.Home".
    expect(readings[1]).toMatch(
      /^number of the way back \(the last option; not given\): 0 in \d+ menus, 99 after an option 0 in \d+ menus$/,
    );
    expect(readings.at(-1)).toBe(
      'unknown customer: an END screen saying so, no options (200, 200, 200); ussd.customer.unknown judges that it shows text',
    );
  });

  it('records unserved home and portfolio links on ussd.links.alive, not as dead links', async () => {
    const alive = check(await runUssd({ choices: { ussdHomePortfolio: 'not-served' } }), 'ussd.links.alive');
    expect(alive.outcome).toBe('pass');
    expect(alive.observations.join('\n')).toMatch(
      /\/ussd\/home \(GET \S+\/v1\/ussd\/home\?customerId=1042\) answered 404: not served, only linked \(its contract is not shown\); \d+ options lead there/,
    );
  });

  it('still fails the guest menus of an unknown customer when the server answers unknown customers with a view', async () => {
    const r = await runUssd({ choices: { ussdUnknownCustomer: 'view' }, faults: ['ussd.unknown-customer-served'] });
    expect(failing(r)).toEqual(['ussd.customer.unknown']);
    expect(check(r, 'ussd.customer.unknown').finding!.message).toMatch(
      /^GET \/ussd\/stocks\?customerId=\d+ \(a customer that does not exist\) was served as if the customer existed: option 1 \(ussdOptions\[0\]\) leads to "\S+\/ussd\/stocks\?customerId=\d+&symbol=AAPL": a menu of a customer$/,
    );
  });
});

describe('suite ussd against faults', () => {
  it.each([
    ['ussd.dead-link', ['ussd.links.alive', 'ussd.options.request-url']],
    ['ussd.no-back-option', ['ussd.links.back']],
    // Without customerId the Next link is dead; ussd.options.customer-id judges only a customerId that is there.
    ['ussd.customer-dropped', ['ussd.links.alive']],
    ['ussd.paging-loop', ['ussd.links.paging']],
    ['ussd.status-filter-broken', ['ussd.links.alive', 'ussd.requests.status-filters']],
    ['ussd.option-not-in-message', ['ussd.options.in-message']],
    ['ussd.request-type-not-method', ['ussd.options.get', 'ussd.options.request-type']],
    ['ussd.unknown-customer-served', ['ussd.customer.unknown']],
    ['ussd.options-self-loop', ['ussd.links.back', 'ussd.links.paging']],
    ['ussd.back-cycle', ['ussd.links.back']],
  ])('%s is caught by %j', async (fault, ids) => {
    expect(failing(await runUssd({ faults: [fault] }))).toEqual(ids);
  });

  it('names a dead link by the path of options, its menu and option, and shows the exchange of the dead view', async () => {
    const r = await runUssd({ faults: ['ussd.dead-link'] });
    const alive = check(r, 'ussd.links.alive');
    expect(alive.finding!.message).toMatch(
      /^a dead link: stocks → 1: option 1 "AAPL Apple Inc\." of menu "Stocks \(1-3 of 5\)" → GET http:\/\/127\.0\.0\.1:\d+\/v1\/ussd\/stock\?customerId=1042&symbol=AAPL answered 404$/,
    );
    expect(alive.finding!.observed).toMatch(/^1 more:\n- stocks → 4 → 1: option 1 "AMZN/);
    const shown = alive.exchanges.find((e) => e.seq === alive.finding!.exchangeSeq)!;
    expect(shown.request.url).toMatch(/\/v1\/ussd\/stock\?customerId=1042&symbol=AAPL$/);
    expect(shown.response!.status).toBe(404);
    expect(shown.checkId).toBe('ussd.links.alive');
    // the dead view's exchange and the menu that links to it, nothing else of the crawl
    expect(alive.exchanges).toHaveLength(2);
  });

  it('names a menu whose every option leads to itself, and the menus whose ways back go round, never reaching home', async () => {
    const self = check(await runUssd({ faults: ['ussd.options-self-loop'] }), 'ussd.links.back');
    expect(self.finding!.message).toMatch(
      /^a menu without a way back: stocks \(menu "Stocks \(1-3 of 5\)"\): the last option, option 6 "Back", leads to "\S+\/v1\/ussd\/stocks\?customerId=1042", this same view: a menu is not its own parent, and the user is left where they are$/,
    );
    // Every start menu but home, the top menu, which links.back does not judge (and says so).
    expect(self.finding!.observed!.split('\n').map((l) => /^- (\w+) /.exec(l)?.[1] ?? l)).toEqual([
      '3 more:',
      'assets',
      'requests',
      'portfolio',
    ]);
    expect(self.observations[0]).toMatch(
      /^home \(menu "Welcome, Amara"\) is the top menu: its last option, option 5 "Main menu" → /,
    );

    const cycle = check(await runUssd({ faults: ['ussd.back-cycle'] }), 'ussd.links.back');
    expect(cycle.finding!.message).toBe(
      'a menu without a way back: assets (menu "My assets (1-2 of 2)"): the last option leads back to "My assets - details (1-2 of 2)", and the ways back go round 2 menus ("My assets (1-2 of 2)" → "My assets - details (1-2 of 2)" → "My assets (1-2 of 2)") and never reach home, portfolio or a menu above them',
    );
    // Both menus of the cycle are shown, nothing else of the crawl.
    expect(cycle.exchanges.map((e) => new URL(e.request.url).search).sort()).toEqual([
      '?customerId=1042',
      '?customerId=1042&detail=true',
    ]);
  });

  it('reports a menu graph without end as a warning with its frontier', async () => {
    const r = await runUssd({ faults: ['ussd.endless-list'], grep: '^ussd\\.crawl\\.' });
    const bounded = check(r, 'ussd.crawl.bounded');
    expect(bounded.outcome).toBe('warn');
    expect(bounded.finding!.message).toMatch(
      /^the crawl stopped before the menus ended \(depth-cap\): \d+ views not visited; the graph may be without end$/,
    );
    expect(bounded.finding!.observed).toMatch(
      /^frontier \(first 10 of \d+\):\n- stocks → 4 → 3( → 1){11}: GET \S+\/ussd\/stocks\?customerId=1042&page=13 \(the depth cap was reached\)\n/,
    );
  });
});

describe('suite ussd: caps and the shared crawl', () => {
  it("takes its caps from the suite's settings", async () => {
    const r = await runUssd({ caps: { maxViews: 4 } });
    const bounded = check(r, 'ussd.crawl.bounded');
    expect(bounded.outcome).toBe('warn');
    expect(bounded.finding!.message).toContain('(view-cap)');
    expect(bounded.finding!.expected).toContain('within 4 views and 12 options');
    // What was visited still passes its checks.
    expect(r.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'error')).toEqual([]);
    const shallow = check(await runUssd({ caps: { maxDepth: 1 }, grep: 'crawl' }), 'ussd.crawl.bounded');
    expect(shallow.finding!.message).toContain('(depth-cap)');
  });

  it('crawls once per run, whichever check starts it', async () => {
    const l = await local();
    const proxy = await countingProxy(l.target.baseUrl);
    const r = await runChecks({ pack, target: { ...l.target, baseUrl: proxy.baseUrl }, suites: [ussd] });
    expect(failing(r)).toEqual([]);
    const views = Number(/^crawled (\d+) views/.exec(check(r, 'ussd.crawl.bounded').observations[0]!)![1]);
    const ownRequests = r.checks.reduce((n, c) => n + c.exchanges.length, 0);
    // status-filters 4; status-disjoint 4 filters of one page; status-covered the unfiltered list (2 pages) and 4 filters;
    // customer.required 3 views × (none, abc, 1.5); customer.unknown and info.readings 3 each; params.domain-refused 11
    // (page -1, x, 1.5 on three views, requestId, status); both boolean checks 3 each.
    expect(ownRequests).toBe(4 + 4 + (2 + 4) + 3 * 3 + 3 + 3 + 11 + 3 + 3);
    expect(proxy.ussdGets()).toBe(views + ownRequests);
  });

  it('crawls again when the check that started the crawl was stopped by its time limit', async () => {
    const l = await local();
    const proxy = await countingProxy(l.target.baseUrl, 15);
    const first = ussd.checks.find((c) => c.id === 'ussd.crawl.bounded')!;
    // A crawl cut short shows its in-flight views as dead links: this check passes only on a fresh, whole crawl.
    const second = ussd.checks.find((c) => c.id === 'ussd.links.alive')!;
    const suite: SuiteDefinition = { ...ussd, checks: [{ ...first, timeoutMs: 60 }, second] };
    const r = await runChecks({ pack, target: { ...l.target, baseUrl: proxy.baseUrl }, suites: [suite] });
    expect(r.checks.map((c) => [c.id, c.outcome])).toEqual([
      [first.id, 'error'],
      [second.id, 'pass'],
    ]);
    expect(proxy.ussdGets()).toBeGreaterThan(40);
  });
});

/** A pass-through that counts USSD requests and keeps the Host header, so the server's own URLs lead back through it. */
async function countingProxy(baseUrl: string, delayMs = 0) {
  let ussdGets = 0;
  const target = new URL(baseUrl);
  const proxy = createServer((req, res) => {
    if (req.url?.startsWith('/v1/ussd/')) ussdGets++;
    setTimeout(
      () => {
        const upstream = httpRequest(
          { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
          (up) => {
            res.writeHead(up.statusCode ?? 502, up.headers);
            up.pipe(res);
          },
        );
        upstream.on('error', () => res.destroy());
        req.pipe(upstream);
      },
      req.url?.startsWith('/v1/ussd/') ? delayMs : 0,
    );
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  stops.push(
    () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  );
  return { baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1`, ussdGets: () => ussdGets };
}
