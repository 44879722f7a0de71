// What the intercepting proxy (src/proxy/, issue 30) adds per exchange on loopback, and what it holds: the reference
// server over TLS in this process, one client (undici), requests one at a time, alternating direct and through the
// proxy (pairs, so that the machine's load falls on both alike); the median of each and their difference. Then RSS
// (after a GC when --expose-gc) after 1,000 exchanges through the proxy, and after 1,000 more: growth between the two
// is what the proxy keeps per exchange (the goal: nothing; it emits each exchange and forgets it).
// Usage: npm run build && node --expose-gc bench/proxy.mjs [--requests 500]   → one JSON line
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent, ProxyAgent, request } from 'undici';
import { median, round } from './lib.mjs';

const { startLocalTarget } = await import('../dist/src/targets/local.js');
const { makeCertificate } = await import('../dist/src/receiver/certificate.js');
const { startInterceptingProxy } = await import('../dist/src/proxy/proxy.js');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const requests = arg('requests', 500);
const dir = mkdtempSync(join(tmpdir(), 'conformance-proxy-bench-'));
const local = await startLocalTarget({ tls: await makeCertificate(['127.0.0.1']) });
const proxy = await startInterceptingProxy({ target: local.target, caOut: join(dir, 'ca.pem') });
let recorded = 0;
proxy.on('exchange', () => recorded++);
const direct = new Agent({ connect: { ca: local.target.ca } });
const through = new ProxyAgent({ uri: proxy.url, requestTls: { ca: proxy.ca.cert } });
// A request the server answers from its authentication alone (401, a small JSON body): the proxy's share shows.
const url = `${local.target.baseUrl}/instruments?investmentType=INTERNATIONAL_STOCKS&limit=1`;
const headers = { authorization: 'Bearer not-a-token', 'x-client-id': local.target.clientId };

async function once(dispatcher) {
  const t0 = performance.now();
  const res = await request(url, { dispatcher, headers });
  await res.body.arrayBuffer();
  return performance.now() - t0;
}
const rssMiB = () => {
  globalThis.gc?.();
  return Math.round((process.memoryUsage().rss / 2 ** 20) * 10) / 10;
};

// Warm both paths (connections, TLS sessions, the leaf certificate, JIT).
for (let i = 0; i < 50; i++) {
  await once(direct);
  await once(through);
}
const d = [];
const p = [];
for (let i = 0; i < requests; i++) {
  // Which goes first alternates: the second of a pair meets warmer caches.
  const first = i % 2 === 0 ? direct : through;
  const took = [await once(first), await once(first === direct ? through : direct)];
  d.push(first === direct ? took[0] : took[1]);
  p.push(first === direct ? took[1] : took[0]);
}
// Up to 1,000 exchanges through the proxy, then 1,000 more: RSS at each.
const upTo1000 = 1000 - recorded;
for (let i = 0; i < upTo1000; i++) await once(through);
const rssAt1000 = rssMiB();
const exchangesAt1000 = recorded;
for (let i = 0; i < 1000; i++) await once(through);
const rssAt2000 = rssMiB();
console.log(
  JSON.stringify({
    bench: 'proxy',
    requests,
    medianDirectMs: round(median(d)),
    medianThroughMs: round(median(p)),
    medianAddedMs: round(median(p) - median(d)),
    medianPairAddedMs: round(median(p.map((x, i) => x - d[i]))),
    exchangesRecorded: recorded,
    rssMiB: { [`after${exchangesAt1000}`]: rssAt1000, [`after${recorded}`]: rssAt2000 },
    gc: typeof globalThis.gc === 'function',
    node: process.version,
  }),
);
await direct.close();
await through.close();
await proxy.close();
await local.stop();
rmSync(dir, { recursive: true, force: true });
