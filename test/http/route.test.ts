// The route to the target (src/http/route.ts): which proxy HTTPS_PROXY, HTTP_PROXY and NO_PROXY name for it, read as
// undici's EnvHttpProxyAgent reads them (checked against undici itself), the loopback exception, the config's
// override, and the proxy URLs taken or refused.
import { describe, expect, it } from 'vitest';
import { EnvHttpProxyAgent, type Dispatcher } from 'undici';
import { ConfigError } from '../../src/errors.js';
import { describeRouteFailure, parseProxyUrl, routeNotes, routeTo, showProxy } from '../../src/http/route.js';

const PROXY = 'http://proxy.corp.example:3128';
const OTHER = 'http://other-proxy.corp.example:8080';

/** The proxy routeTo picks for `url` (its URL), or 'direct'. */
function picked(url: string, env: NodeJS.ProcessEnv, proxy?: string): string {
  const route = routeTo(url, { env, ...(proxy !== undefined ? { proxy } : {}) });
  return route.proxy ? route.proxy.url.href : 'direct';
}

describe('the proxy of a target, from the environment', () => {
  it('takes HTTPS_PROXY for an https target, HTTP_PROXY for an http one, HTTP_PROXY for https when HTTPS_PROXY is unset', () => {
    expect(picked('https://api.example.com/v1', { HTTPS_PROXY: PROXY, HTTP_PROXY: OTHER })).toBe(`${PROXY}/`);
    expect(picked('http://api.example.com/v1', { HTTPS_PROXY: PROXY, HTTP_PROXY: OTHER })).toBe(`${OTHER}/`);
    expect(picked('https://api.example.com/v1', { HTTP_PROXY: OTHER })).toBe(`${OTHER}/`);
    expect(picked('http://api.example.com/v1', { HTTPS_PROXY: PROXY })).toBe('direct');
    expect(picked('https://api.example.com/v1', {})).toBe('direct');
  });

  it('reads the lower-case names first, as undici does', () => {
    expect(picked('https://api.example.com/v1', { https_proxy: OTHER, HTTPS_PROXY: PROXY })).toBe(`${OTHER}/`);
    expect(picked('https://api.example.com/v1', { HTTPS_PROXY: PROXY, no_proxy: '', NO_PROXY: 'example.com' })).toBe(
      `${PROXY}/`,
    );
  });

  it('leaves out the hosts NO_PROXY names: the host, its subdomains, a port, a leading dot or *., "*"', () => {
    const env = (NO_PROXY: string) => ({ HTTPS_PROXY: PROXY, NO_PROXY });
    expect(picked('https://api.example.com/v1', env('api.example.com'))).toBe('direct');
    expect(picked('https://api.example.com/v1', env('example.com'))).toBe('direct');
    expect(picked('https://api.example.com/v1', env('.example.com'))).toBe('direct');
    expect(picked('https://api.example.com/v1', env('*.example.com'))).toBe('direct');
    expect(picked('https://api.example.com/v1', env('other.com, example.com'))).toBe('direct');
    expect(picked('https://api.example.com/v1', env('api.example.com:443'))).toBe('direct');
    expect(picked('https://api.example.com/v1', env('api.example.com:8443'))).toBe(`${PROXY}/`);
    expect(picked('https://api.example.com:8443/v1', env('api.example.com:8443'))).toBe('direct');
    expect(picked('https://api.example.com/v1', env('*'))).toBe('direct');
    expect(picked('https://api.example.com/v1', env('ample.com'))).toBe(`${PROXY}/`);
    // No CIDR ranges in undici's reading.
    expect(picked('https://10.1.2.3/v1', env('10.0.0.0/8'))).toBe(`${PROXY}/`);
  });

  it('never sends a loopback target to a proxy from the environment, and says why in the notes', () => {
    for (const url of [
      'http://127.0.0.1:8080/v1',
      'https://localhost/v1',
      'http://[::1]:9/v1',
      'http://a.localhost/v1',
    ])
      expect(picked(url, { HTTP_PROXY: PROXY, HTTPS_PROXY: PROXY })).toBe('direct');
    expect(routeNotes(routeTo('http://127.0.0.1:8080/v1', { env: { HTTP_PROXY: PROXY } }))).toEqual([
      `network: the target was reached directly, not through a proxy: 127.0.0.1 is this machine's loopback, which a proxy cannot reach for it (HTTP_PROXY is set; give the target's "proxy" to go through it anyway)`,
    ]);
  });

  it('says nothing of the route when nothing is set', () => {
    expect(routeNotes(routeTo('https://api.example.com/v1', { env: {} }))).toEqual([]);
  });

  it('refuses a proxy variable it cannot use, naming the variable and never its value', () => {
    const err = (() => {
      try {
        routeTo('https://api.example.com/v1', { env: { HTTPS_PROXY: 'socks5://user:secret@proxy:1080' } });
      } catch (e) {
        return e;
      }
    })() as ConfigError;
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.code).toBe('CONFORMANCE_ERR_CONFIG_ENV');
    expect(err.message).toBe(
      "proxy: the environment's HTTPS_PROXY is a socks5 proxy: only http:// and https:// proxies are supported, e.g. http://proxy.example.com:3128",
    );
  });
});

describe("the target's config proxy", () => {
  it('wins over the environment: a URL, or "none" for no proxy (noted)', () => {
    const env = { HTTPS_PROXY: PROXY };
    expect(picked('https://api.example.com/v1', env, OTHER)).toBe(`${OTHER}/`);
    expect(picked('https://api.example.com/v1', env, 'none')).toBe('direct');
    expect(picked('http://127.0.0.1:9/v1', {}, OTHER)).toBe(`${OTHER}/`);
    expect(routeNotes(routeTo('https://api.example.com/v1', { env, proxy: 'none' }))).toEqual([
      `network: the target was reached directly, not through a proxy: the target's "proxy" is "none" (HTTPS_PROXY is set)`,
    ]);
  });

  it('names the proxy in the notes without its user name and password, and keeps those for the redactor', () => {
    const route = routeTo('https://api.example.com/v1', { env: {}, proxy: 'http://alice:s%3Dcret@proxy:3128' });
    expect(routeNotes(route)).toEqual([
      `network: the target was reached through the proxy http://[redacted]@proxy:3128 (the target's "proxy"), in a tunnel (CONNECT api.example.com:443): the proxy passed the bytes on and saw none of them`,
    ]);
    expect(route.proxy?.secrets).toEqual(['s=cret', 's%3Dcret', Buffer.from('alice:s=cret').toString('base64')]);
  });
});

describe('proxy URLs', () => {
  it('takes http and https URLs, and host:port alone as http', () => {
    const href = (text: string) => {
      const parsed = parseProxyUrl(text);
      return 'url' in parsed ? parsed.url.href : parsed.problem;
    };
    expect(href('http://proxy:3128')).toBe('http://proxy:3128/');
    expect(href('https://proxy')).toBe('https://proxy/');
    expect(href('proxy.corp:3128')).toBe('http://proxy.corp:3128/');
    expect(showProxy(new URL('http://u:p@proxy:3128'))).toBe('http://[redacted]@proxy:3128');
  });

  it('refuses other schemes, paths and queries', () => {
    expect(parseProxyUrl('socks5://proxy:1080')).toEqual({
      problem: 'is a socks5 proxy: only http:// and https:// proxies are supported, e.g. http://proxy.example.com:3128',
    });
    expect(parseProxyUrl('http://proxy:3128/path')).toEqual({
      problem: "has a path or a query: give the proxy's address alone, e.g. http://proxy.example.com:3128",
    });
    expect(parseProxyUrl('http://')).toEqual({
      problem: 'is not a URL: give the proxy as http://proxy.example.com:3128',
    });
  });
});

describe('the reading of HTTP(S)_PROXY and NO_PROXY is undici’s own', () => {
  // undici's EnvHttpProxyAgent, given the same values, picks one of its three dispatchers per origin; its choice and
  // routeTo's must agree for every case (loopback aside, the one documented exception).
  const cases: Array<{ url: string; http?: string; https?: string; noProxy: string }> = [];
  const urls = ['https://api.example.com/v1', 'http://api.example.com/v1', 'https://api.example.com:8443/v1'];
  const noProxies = [
    '',
    'api.example.com',
    '.example.com',
    '*.example.com',
    'example.com:443',
    'ample.com',
    '*',
    'x.org api.example.com:8443',
  ];
  for (const url of urls)
    for (const noProxy of noProxies)
      for (const [http, https] of [
        [OTHER, PROXY],
        [OTHER, undefined],
        [undefined, PROXY],
      ] as const)
        cases.push({ url, noProxy, ...(http ? { http } : {}), ...(https ? { https } : {}) });

  it(`agrees with EnvHttpProxyAgent in ${cases.length} cases`, () => {
    for (const c of cases) {
      const agent = new EnvHttpProxyAgent({ httpProxy: c.http ?? '', httpsProxy: c.https ?? '', noProxy: c.noProxy });
      const inner = Object.getOwnPropertySymbols(agent);
      const byName = (name: string) =>
        (agent as unknown as Record<symbol, Dispatcher>)[inner.find((s) => s.description === name)!]!;
      let chose = '';
      const spy = (label: string) => (d: Dispatcher) => {
        d.dispatch = () => {
          chose ||= label;
          return true;
        };
      };
      const direct = byName('no proxy agent');
      const httpAgent = byName('http proxy agent');
      const httpsAgent = byName('https proxy agent');
      // Patched in this order, an agent shared by two roles (no HTTPS_PROXY: the http one) is named by its proxy.
      spy('direct')(direct);
      if (httpAgent !== direct) spy(c.http!)(httpAgent);
      if (httpsAgent !== httpAgent && httpsAgent !== direct) spy(c.https!)(httpsAgent);
      agent.dispatch({ origin: new URL(c.url).origin, path: '/', method: 'GET' }, {} as Dispatcher.DispatchHandler);
      const env = {
        ...(c.http ? { HTTP_PROXY: c.http } : {}),
        ...(c.https ? { HTTPS_PROXY: c.https } : {}),
        NO_PROXY: c.noProxy,
      };
      const ours = routeTo(c.url, { env }).proxy?.url.href.replace(/\/$/, '') ?? 'direct';
      expect({ ...c, route: ours }).toEqual({ ...c, route: chose });
    }
  });
});

describe('failures of the route', () => {
  it('are not claimed for a route without a proxy or certificate', () => {
    const route = routeTo('https://api.example.com/v1', { env: {} });
    expect(
      describeRouteFailure(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), route),
    ).toBe(undefined);
  });

  it('name the proxy, not the target, when the connection to it fails or it refuses the tunnel', () => {
    const route = routeTo('https://api.example.com/v1', { env: { HTTPS_PROXY: PROXY } });
    expect(describeRouteFailure(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), route)).toEqual({
      text: 'the proxy http://proxy.corp.example:3128 (HTTPS_PROXY) cannot be reached: nothing listens there (ECONNREFUSED); the target was not tried',
      kind: 'no-answer',
      advice:
        'check HTTPS_PROXY, or, if the target is reachable without a proxy, add its host to NO_PROXY or set the target\'s "proxy" to "none"',
    });
    const tunnel = (status: number) => new Error(`Proxy response (${status}) !== 200 when HTTP Tunneling`);
    expect(describeRouteFailure(tunnel(403), route)?.text).toBe(
      'the proxy http://proxy.corp.example:3128 (HTTPS_PROXY) refused to open a tunnel to api.example.com:443 (answered 403 Forbidden); the target was not tried',
    );
    expect(describeRouteFailure(tunnel(502), route)?.text).toBe(
      'the proxy http://proxy.corp.example:3128 (HTTPS_PROXY) could not reach api.example.com:443 (answered 502 Bad Gateway to CONNECT api.example.com:443)',
    );
    const withAuth = routeTo('https://api.example.com/v1', { env: {}, proxy: 'http://u:p4ss@proxy:3128' });
    expect(describeRouteFailure(tunnel(407), withAuth)).toEqual({
      text: `the proxy http://[redacted]@proxy:3128 (the target's "proxy") refused the user name and password of its URL (answered 407 Proxy Authentication Required); the target was not tried`,
      kind: 'no-answer',
      advice: `check them in the target's "proxy" (http://USER:PASSWORD@HOST:PORT, special characters percent-encoded)`,
    });
  });
});
