// The `ussd` suite against servers deployed behind a reverse proxy (issue 26, problem 4): one cause, one failure. A
// server that builds its links from its internal address, or without the prefix the proxy adds, fails
// ussd.options.request-url alone, in one line naming the cause and its fix; every rule on where a link leads judges
// the path and query, and the crawl, following them below {base_url}, covers the menus as it does without a proxy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pack } from '../../../suites/index.js';
import { runChecks, type RunResult } from '../../../src/engine/index.js';
import { startLocalTarget, type LocalTarget } from '../../../src/targets/local.js';
import type { Middleware } from '../../../src/reference/context.js';
import ussd from '../../../suites/ussd/index.js';

const check = (r: RunResult, id: string) => r.checks.find((c) => c.id === id)!;
const notPassed = (r: RunResult) => r.checks.filter((c) => c.outcome !== 'pass').map((c) => [c.id, c.outcome]);
const viewsCrawled = (r: RunResult) =>
  Number(/^crawled (\d+) views/.exec(check(r, 'ussd.crawl.bounded').observations[0]!)![1]);

const stops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

async function local(options: Parameters<typeof startLocalTarget>[0] = {}): Promise<LocalTarget> {
  const l = await startLocalTarget(options);
  stops.push(() => l.stop());
  return l;
}

function run(target: LocalTarget['target']): Promise<RunResult> {
  return runChecks({ pack, target, suites: [ussd], failOn: 'should' });
}

/** The views a clean server's crawl covers, to compare with. */
let cleanViews = 0;
beforeAll(async () => {
  const clean = await run((await local()).target);
  expect(notPassed(clean)).toEqual([['ussd.flow.order-cancel', 'skip']]);
  cleanViews = viewsCrawled(clean);
});

describe('links built from the internal origin of a server behind a proxy', () => {
  it('fail ussd.options.request-url alone, in one line; the crawl follows them by path and covers every menu', async () => {
    const r = await run((await local({ faults: ['ussd.links-internal-origin'] })).target);
    expect(notPassed(r)).toEqual([
      ['ussd.options.request-url', 'fail'],
      ['ussd.flow.order-cancel', 'skip'],
    ]);
    const finding = check(r, 'ussd.options.request-url').finding!;
    expect(finding.message).toMatch(
      /^a follow-up URL a client cannot use as given: every requestUrl \(\d+ options in \d+ menus\) is on http:\/\/10\.0\.0\.12:8080, not on the target's origin http:\/\/127\.0\.0\.1:\d+: the server builds its links from an address the client did not reach \(behind a proxy, its own\); the crawl followed them by path and query below \{base_url\}, and the other rules judged where they lead$/,
    );
    expect(finding.expected).toMatch(/^links on the origin the client reached, http:\/\/127\.0\.0\.1:\d+: /);
    expect(viewsCrawled(r)).toBe(cleanViews);
    expect(check(r, 'ussd.crawl.bounded').observations[2]).toMatch(
      /^\d+ options written outside \{base_url\} followed by path and query below it \(\d+ on another origin than http:\/\/127\.0\.0\.1:\d+, e\.g\. "http:\/\/10\.0\.0\.12:8080\/v1\/ussd\//,
    );
    // No contradiction: the way back judged where it leads, home.
    expect(check(r, 'ussd.links.back').outcome).toBe('pass');
  });
});

/**
 * A reverse proxy that serves the server under /api: `/api/v1/…` is forwarded as `/v1/…` with the Host kept and
 * `X-Forwarded-Prefix: /api`.
 */
async function prefixProxy(upstream: string): Promise<string> {
  const target = new URL(upstream);
  const proxy: Server = createServer((req, res) => {
    if (!req.url?.startsWith('/api/')) {
      res.writeHead(404).end();
      return;
    }
    const up = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: req.url.slice('/api'.length),
        method: req.method,
        headers: { ...req.headers, 'x-forwarded-prefix': '/api' },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  stops.push(
    () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/v1`;
}

const prefixOf = (ctx: Parameters<Middleware>[0]) =>
  ctx.headers.find(([name]) => name.toLowerCase() === 'x-forwarded-prefix')?.[1];

/** A server that reads X-Forwarded-Prefix to verify signatures: the target URI the client signed, prefix and all. */
const signedWithPrefix: Middleware = async (ctx, _state, _route, next) => {
  const prefix = prefixOf(ctx);
  if (prefix)
    (ctx as { targetUri: string }).targetUri = `${ctx.url.origin}${prefix}${ctx.url.pathname}${ctx.url.search}`;
  return next();
};

/** …and builds its USSD links with the prefix too. */
const linksWithPrefix: Middleware = async (ctx, _state, route, next) => {
  const reply = await next();
  const prefix = prefixOf(ctx);
  const options = (reply.body as { data?: { ussdOptions?: Array<{ requestUrl: string }> } } | undefined)?.data
    ?.ussdOptions;
  if (prefix && reply.status === 200 && route.path.startsWith('/ussd/') && Array.isArray(options))
    for (const o of options) o.requestUrl = o.requestUrl.replace(`${ctx.url.origin}/`, `${ctx.url.origin}${prefix}/`);
  return reply;
};

describe('a server mounted below a prefix by its proxy ({base_url} …/api/v1)', () => {
  it('that builds its links with the prefix passes every check: links on the base path are judged as they are', async () => {
    const l = await local({ middleware: [signedWithPrefix, linksWithPrefix] });
    const r = await run({ ...l.target, baseUrl: await prefixProxy(l.server.url) });
    expect(notPassed(r)).toEqual([['ussd.flow.order-cancel', 'skip']]);
    expect(viewsCrawled(r)).toBe(cleanViews);
    expect(check(r, 'ussd.crawl.bounded').observations.join('\n')).not.toContain('written outside {base_url}');
  });

  it('that builds its links without the prefix fails ussd.options.request-url alone, naming the prefix left out', async () => {
    const l = await local({ middleware: [signedWithPrefix] });
    const r = await run({ ...l.target, baseUrl: await prefixProxy(l.server.url) });
    expect(notPassed(r)).toEqual([
      ['ussd.options.request-url', 'fail'],
      ['ussd.flow.order-cancel', 'skip'],
    ]);
    expect(check(r, 'ussd.options.request-url').finding!.message).toMatch(
      /^a follow-up URL a client cannot use as given: every requestUrl \(\d+ options in \d+ menus\) is under http:\/\/127\.0\.0\.1:\d+\/v1\/ussd\/, outside the base path \/api\/v1 of http:\/\/127\.0\.0\.1:\d+\/api\/v1: the server builds its links without the prefix the proxy in front of it adds; /,
    );
    expect(viewsCrawled(r)).toBe(cleanViews);
  });
});

/** Every requestUrl of every USSD view rewritten by `to`. */
function linksRewritten(to: (url: URL) => string): Middleware {
  return async (_ctx, _state, route, next) => {
    const reply = await next();
    const options = (reply.body as { data?: { ussdOptions?: Array<{ requestUrl: string }> } } | undefined)?.data
      ?.ussdOptions;
    if (reply.status === 200 && route.path.startsWith('/ussd/') && Array.isArray(options))
      for (const o of options) o.requestUrl = to(new URL(o.requestUrl));
    return reply;
  };
}

describe('a crawl that follows nothing judges no link: the rules on where links lead skip, saying why', () => {
  it('links to a gateway session on another origin, naming no USSD view: ussd.options.request-url fails, nothing else', async () => {
    const l = await local({
      middleware: [linksRewritten((u) => `https://gateway.example/session/next?${u.searchParams.toString()}`)],
    });
    const r = await run(l.target);
    expect(notPassed(r)).toEqual([
      ['ussd.crawl.bounded', 'skip'],
      ['ussd.options.follow-up', 'skip'],
      ['ussd.options.request-url', 'fail'],
      ['ussd.options.customer-id', 'skip'],
      ['ussd.links.alive', 'skip'],
      ['ussd.links.back', 'skip'],
      ['ussd.links.paging', 'skip'],
      ['ussd.requests.status-disjoint', 'skip'],
      ['ussd.requests.status-covered', 'skip'],
      ['ussd.flow.order-cancel', 'skip'],
    ]);
    expect(check(r, 'ussd.requests.status-covered').skipReason).toBe(
      'the unfiltered requests menu lists no request that could be read: 9 of its options lead outside {base_url} to no USSD view (judged by ussd.options.request-url), so the requests to look for are not known',
    );
    expect(check(r, 'ussd.links.alive').skipReason).toMatch(
      /^\d+ options seen, 0 followed \(\d+ foreign-origin: on another origin, and its path names no USSD view: the run's credentials are never sent there\): no option's follow-up was requested, so none could be found dead or alive$/,
    );
    expect(check(r, 'ussd.crawl.bounded').skipReason).toMatch(
      /^\d+ options seen, 0 followed \(.*\): whether the menus end is not known beyond the start menus$/,
    );
    expect(check(r, 'ussd.links.back').skipReason).toMatch(
      /^none of the 5 views seen is a menu with a way back to judge \(.*4 menus whose last option leads outside \{base_url\} to no USSD view\)$/,
    );
    expect(check(r, 'ussd.options.customer-id').skipReason).toBe(
      'no option of the 5 menus seen leads to a USSD view with customerId in its URL: there is no customerId to judge',
    );
    // What was seen is still judged: each view's text, numbers and types.
    for (const id of ['ussd.view.schema', 'ussd.view.message', 'ussd.options.numbers', 'ussd.options.get'])
      expect(check(r, id).outcome, id).toBe('pass');
  });

  it('only links that place or cancel orders: the skips name --allow-mutations as the remedy', async () => {
    const l = await local({
      middleware: [
        linksRewritten((u) => {
          u.searchParams.set('amount', '10');
          return u.href;
        }),
      ],
    });
    const r = await run(l.target);
    const alive = check(r, 'ussd.links.alive');
    expect(alive.outcome).toBe('skip');
    expect(alive.skipReason).toMatch(
      /^\d+ options seen, 0 followed \(\d+ order: places an order \(carries amount\); followed only with --allow-mutations\): /,
    );
    expect(alive.skipRemedy).toEqual({ kind: 'allow-mutations' });
    expect(check(r, 'ussd.links.paging').skipRemedy).toEqual({ kind: 'allow-mutations' });
  });
});
