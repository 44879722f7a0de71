// The `ussd` suite end to end against the reference server: clean in both variants (and with --allow-mutations), the
// caps reported as a warning with the frontier, and one crawl per run whose hundreds of exchanges stay off the reports.
// A dead link (the representative fault) named and shown; every reading of its open points and each other fault is
// the sweep beside it (reference-server.sweep.test.ts).
import { describe, expect, it } from 'vitest';
import { pack } from '../../../suites/index.js';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runChecks, type SuiteDefinition } from '../../../src/engine/index.js';
import type { Middleware } from '../../../src/reference/context.js';
import ussd from '../../../suites/ussd/index.js';
import { check, failing } from '../../helpers/suite-runs.js';
import { ussdRuns } from '../../helpers/ussd-runs.js';

const { runUssd, local, stopAfter } = ussdRuns();

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

describe('suite ussd against a representative fault', () => {
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
  stopAfter(
    () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  );
  return { baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1`, ussdGets: () => ussdGets };
}
