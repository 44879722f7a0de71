// The intercepting proxy of `conformance proxy` (issue 30) in front of the reference server over TLS: a client going
// through it (undici's ProxyAgent, the suite's SignedClient, curl with HTTPS_PROXY) reaches the server with its
// signature and digest intact (the server verifies both: its 2xx proves them), and each exchange is recorded whole;
// another origin passes through unrecorded (a raw tunnel: the client sees that server's own certificate); a server
// that is down or not trusted gives the client a 502 with one line, recorded as an exchange without answer.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ProxyAgent, request } from 'undici';
import { SignedClient } from '../../src/http/client.js';
import { makeCertificate } from '../../src/receiver/certificate.js';
import { startLocalTarget, type LocalTarget } from '../../src/targets/local.js';
import { startInterceptingProxy, type InterceptingProxy } from '../../src/proxy/proxy.js';
import type { TrafficExchange } from '../../src/traffic/exchange.js';
import { startEchoServer } from '../helpers/echo-server.js';
import { freePort } from '../helpers/free-port.js';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
const header = (headers: Array<[string, string]>, name: string) => headers.find(([n]) => n.toLowerCase() === name)?.[1];

let dir: string;
let local: LocalTarget;
let proxy: InterceptingProxy;
let agent: ProxyAgent;
const extra: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'conformance-proxy-'));
  local = await startLocalTarget({ tls: await makeCertificate(['127.0.0.1']) });
  proxy = await startInterceptingProxy({ target: local.target, caOut: join(dir, 'ca.pem') });
  agent = new ProxyAgent({ uri: proxy.url, requestTls: { ca: proxy.ca.cert } });
});
afterAll(async () => {
  await agent?.close();
  await proxy?.close();
  await local?.stop();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  for (const e of extra.splice(0)) await e.close();
});

/** The next exchange the proxy records (listened for before the request is sent). */
const nextExchange = (p: InterceptingProxy = proxy) => once(p, 'exchange').then(([e]) => e as TrafficExchange);

function signedClient(t = local.target, p: InterceptingProxy = proxy): SignedClient {
  return new SignedClient({
    baseUrl: t.baseUrl,
    clientId: t.clientId,
    keyId: t.keyId,
    privateKey: t.privateKey,
    ca: p.ca.cert,
    proxy: p.url,
  });
}

describe('the intercepting proxy in front of the reference server (https)', () => {
  it('returns the two lines a client needs, and made its CA on first use', () => {
    expect(proxy.lines).toEqual([`HTTPS_PROXY=${proxy.url}`, join(dir, 'ca.pem')]);
    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(proxy.ca.created).toBe(true);
  });

  it('forwards a signed POST with a body unchanged: the server verifies signature and digest (200), the exchange is whole', async () => {
    const client = signedClient();
    const got = nextExchange();
    const res = await client.send({
      method: 'POST',
      path: '/oauth/token',
      form: { clientId: local.target.clientId, clientSecret: local.target.clientSecret! },
      clientId: null,
      token: null,
    });
    await client.close();
    expect(res.status).toBe(200);
    const ex = await got;
    expect(ex.request.method).toBe('POST');
    expect(ex.request.url).toBe(`${local.target.baseUrl}/oauth/token`);
    expect(ex.request.bodyState).toBe('captured');
    expect(text(ex.request.body)).toBe(
      new URLSearchParams({ clientId: local.target.clientId, clientSecret: local.target.clientSecret! }).toString(),
    );
    expect(header(ex.request.headers, 'signature')).toMatch(/^\w+=:/);
    expect(header(ex.request.headers, 'content-digest')).toMatch(/^sha-(256|512)=:/);
    expect(ex.response?.status).toBe(200);
    expect(JSON.parse(text(ex.response!.body))).toBeTypeOf('object');
    expect(ex.error).toBeUndefined();
    // Header order as sent: the recorded list is the client's, in its order (Host first, as undici writes it).
    expect(ex.request.headers[0]![0].toLowerCase()).toBe('host');
  });

  it("records a 401 (undici's ProxyAgent, a token the server never issued) with the server's answer", async () => {
    const got = nextExchange();
    const res = await request(`${local.target.baseUrl}/instruments?investmentType=INTERNATIONAL_STOCKS&limit=1`, {
      dispatcher: agent,
      headers: { authorization: 'Bearer not-a-token', 'x-client-id': local.target.clientId },
    });
    const body = await res.body.text();
    expect(res.statusCode).toBe(401);
    const ex = await got;
    expect(ex.response?.status).toBe(401);
    expect(text(ex.response!.body)).toBe(body);
    expect(ex.request.bodyState).toBe('empty');
    expect(ex.index).toBeGreaterThan(0);
  });

  it('lets a body over the cap through whole, recorded as not-captured', async () => {
    const small = await startInterceptingProxy({
      target: local.target,
      caOut: join(dir, 'ca.pem'),
      maxBodyBytes: 64,
    });
    extra.push(small);
    const via = new ProxyAgent({ uri: small.url, requestTls: { ca: small.ca.cert } });
    extra.push(via);
    const got = nextExchange(small);
    const big = 'x'.repeat(100_000);
    const res = await request(`${local.target.baseUrl}/oauth/token`, {
      dispatcher: via,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: big,
    });
    const answer = await res.body.text();
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    const ex = await got;
    expect(ex.request.bodyState).toBe('not-captured');
    expect(ex.request.body).toHaveLength(0);
    expect(header(ex.request.headers, 'content-length')).toBe(String(big.length));
    expect(ex.response?.status).toBe(res.statusCode);
    expect(ex.response?.bodyState).toBe(answer.length > 64 ? 'not-captured' : 'captured');
  });

  it('passes a CONNECT to another origin through as a raw tunnel: not decrypted, not recorded, counted', async () => {
    const other = await startOtherHost();
    const recorded = proxy.counts.intercepted;
    const passed = once(proxy, 'passthrough');
    const via = new ProxyAgent({ uri: proxy.url, requestTls: { ca: other.cert } });
    extra.push(via);
    // Trusting only the other server's own certificate: the TLS session is that server's, end to end.
    const res = await request(`${other.url}/hello`, { dispatcher: via });
    expect(res.statusCode).toBe(200);
    expect(await res.body.text()).toBe('another host');
    expect(await passed).toEqual([`127.0.0.1:${other.port}`]);
    expect(proxy.counts.intercepted).toBe(recorded);
  });

  it('sends curl with HTTPS_PROXY and the CA file through, recorded', async () => {
    const got = nextExchange();
    const { stdout } = await promisify(execFile)(
      'curl',
      [
        '-s',
        '-o',
        '/dev/null',
        '-w',
        '%{http_code}',
        '--cacert',
        proxy.lines[1],
        `${local.target.baseUrl}/instruments`,
      ],
      { env: { PATH: process.env.PATH, HTTPS_PROXY: proxy.url } },
    );
    expect(stdout).toBe('401');
    const ex = await got;
    expect(ex.request.url).toBe(`${local.target.baseUrl}/instruments`);
    expect(header(ex.request.headers, 'user-agent')).toMatch(/^curl\//);
    expect(ex.response?.status).toBe(401);
  });
});

describe('plain HTTP through the proxy (curl -x, absolute-form requests)', () => {
  it("records a request for the target's origin with its header fields in the order, case and bytes the server received", async () => {
    const echo = await startEchoServer((_req, res) => res.writeHead(201, { 'X-Answer': 'yes' }).end('made'));
    extra.push(echo);
    const plain = await startInterceptingProxy({
      target: { baseUrl: `${echo.origin}/v1` },
      caOut: join(dir, 'ca.pem'),
    });
    extra.push(plain);
    const got = nextExchange(plain);
    const { stdout } = await promisify(execFile)(
      'curl',
      [
        '-s',
        '-x',
        plain.url,
        '-H',
        'X-Second: b',
        '-H',
        'x-LOWER: c',
        '--data-binary',
        '{"a": 1}',
        `${echo.origin}/v1/things?q=1`,
      ],
      { env: { PATH: process.env.PATH } },
    );
    expect(stdout).toBe('made');
    const ex = await got;
    const [received] = echo.received;
    expect(ex.request.url).toBe(`${echo.origin}/v1/things?q=1`);
    expect(received!.url).toBe('/v1/things?q=1');
    // What the server received is what was recorded: same names (case kept), same order, same values; curl's
    // Proxy-Connection (its word to the proxy) was not forwarded.
    expect(ex.request.headers).toEqual(received!.headers);
    expect(received!.headers.map(([n]) => n)).toContain('x-LOWER');
    expect(received!.headers.some(([n]) => n.toLowerCase() === 'proxy-connection')).toBe(false);
    expect(text(ex.request.body)).toBe('{"a": 1}');
    expect(received!.body.toString()).toBe('{"a": 1}');
    expect(ex.response?.status).toBe(201);
    expect(header(ex.response!.headers, 'x-answer')).toBe('yes');
    expect(text(ex.response!.body)).toBe('made');
  });

  it('forwards a plain-HTTP request for another origin unrecorded, counted', async () => {
    const echo = await startEchoServer((_req, res) => res.end('elsewhere'));
    extra.push(echo);
    const passed = once(proxy, 'passthrough');
    const recorded = proxy.counts.intercepted;
    const { stdout } = await promisify(execFile)('curl', ['-s', '-x', proxy.url, `${echo.origin}/x`], {
      env: { PATH: process.env.PATH },
    });
    expect(stdout).toBe('elsewhere');
    expect(await passed).toEqual([echo.origin.replace('http://', '')]);
    expect(proxy.counts.intercepted).toBe(recorded);
  });
});

describe('a server that drops a kept-alive connection once it has answered on it (connection=drop-idle)', () => {
  it("sends an idempotent request once more on a fresh connection: the client gets the server's answer, not a 502", async () => {
    const dropping = await startLocalTarget({
      tls: await makeCertificate(['127.0.0.1']),
      choices: { connection: 'drop-idle' },
    });
    extra.push({ close: () => dropping.stop() });
    const front = await startInterceptingProxy({ target: dropping.target, caOut: join(dir, 'ca.pem') });
    extra.push(front);
    const client = signedClient(dropping.target, front);
    extra.push(client);
    const recorded: TrafficExchange[] = [];
    front.on('exchange', (e: TrafficExchange) => recorded.push(e));
    // The proxy's second request to the server goes out on the connection the first was answered on: dropped.
    const read = () =>
      client.send({
        method: 'GET',
        path: '/instruments',
        query: { investmentType: 'INTERNATIONAL_STOCKS' },
        token: null,
      });
    const statuses = [(await read()).status, (await read()).status, (await read()).status];
    expect(statuses).toEqual([401, 401, 401]);
    expect(recorded.map((e) => [e.response?.status, e.error])).toEqual([
      [401, undefined],
      [401, undefined],
      [401, undefined],
    ]);
  });
});

describe('a server the proxy cannot reach', () => {
  it('answers 502 with one line when the server is down, recorded as an exchange with that error', async () => {
    const port = await freePort();
    const down = await startInterceptingProxy({
      target: { baseUrl: `https://127.0.0.1:${port}/v1` },
      caOut: join(dir, 'ca.pem'),
    });
    extra.push(down);
    const via = new ProxyAgent({ uri: down.url, requestTls: { ca: down.ca.cert } });
    extra.push(via);
    const got = nextExchange(down);
    const res = await request(`https://127.0.0.1:${port}/v1/instruments`, { dispatcher: via });
    const body = await res.body.text();
    expect(res.statusCode).toBe(502);
    expect(body).toBe(
      `conformance proxy: the server at 127.0.0.1:${port} refused the connection (ECONNREFUSED): is it running?\n`,
    );
    const ex = await got;
    expect(ex.response).toBeUndefined();
    expect(ex.error).toBe(body.trimEnd());
  });

  it("answers 502 when the server's certificate is not trusted (no CA given for a self-signed server)", async () => {
    const untrusting = await startInterceptingProxy({
      target: { baseUrl: local.target.baseUrl },
      caOut: join(dir, 'ca.pem'),
    });
    extra.push(untrusting);
    const via = new ProxyAgent({ uri: untrusting.url, requestTls: { ca: untrusting.ca.cert } });
    extra.push(via);
    const got = nextExchange(untrusting);
    const res = await request(`${local.target.baseUrl}/instruments`, { dispatcher: via });
    expect(res.statusCode).toBe(502);
    expect(await res.body.text()).toMatch(
      /^conformance proxy: the server at 127\.0\.0\.1:\d+ presented a TLS certificate the proxy does not trust \([A-Z_]+\): give the target's CA \(caFile\)\n$/,
    );
    expect((await got).error).toMatch(/does not trust/);
  });
});

/** A second loopback https server standing for "another host" (loopback origins differ by port). */
async function startOtherHost(): Promise<{ url: string; port: number; cert: string; close(): Promise<void> }> {
  const tls = await makeCertificate(['127.0.0.1']);
  const server: HttpsServer = createHttpsServer(tls, (_req, res) => res.end('another host'));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  const handle = {
    url: `https://127.0.0.1:${port}`,
    port,
    cert: tls.cert,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
  extra.push(handle);
  return handle;
}
