// One size of the scale measurement, in a process of its own so its peak RSS is that of the walk or the crawl alone:
// the suite's side (walker or crawler, signed client, recorded exchanges), against the reference server that the
// parent (bench/scale.mjs) runs. Prints one JSON line.
import { performance } from 'node:perf_hooks';

const { SignedClient } = await import('../dist/src/http/client.js');
const { parsePrivateKeyPem } = await import('../dist/src/http/keys.js');
const { tokenRequest } = await import('../dist/suites/kit/session.js');
const { parseJson, idKey } = await import('../dist/src/http/json.js');
const { walkPages } = await import('../dist/suites/kit/pages.js');
const { crawl } = await import('../dist/suites/ussd/helpers/crawler.js');

const job = JSON.parse(process.env.BENCH_SCALE_JOB);
const client = new SignedClient({
  baseUrl: job.baseUrl,
  clientId: job.clientId,
  keyId: job.keyId,
  privateKey: parsePrivateKeyPem(job.privateKeyPem).seed,
});
const token = JSON.parse((await client.send(tokenRequest(job))).text).data.token;
// Kept as a check keeps them (CheckContext.exchanges), since that is memory a real walk or crawl holds too.
const exchanges = [];
const send = (spec) => client.send({ ...spec, token }, (e) => exchanges.push(e));

const started = performance.now();
const out = job.kind === 'walk' ? await walk() : await crawlViews();
const ms = performance.now() - started;
await client.close();
console.log(JSON.stringify({ ...out, ms, usPerUnit: (ms * 1000) / out.units }));

/** As walkList does (suites/kit/resource-helpers.ts), with the caps raised to the whole list. */
async function walk() {
  const result = await walkPages(
    async (page) => {
      const res = await send({
        method: 'GET',
        path: '/transactions',
        query: { customerId: job.customerId, limit: job.limit, page },
      });
      const parsed = parseJson(res.text);
      if (res.status !== 200 || !parsed.ok) throw new Error(`GET /transactions page=${page} answered ${res.status}`);
      return { response: res, items: parsed.value.data, meta: parsed.value.meta };
    },
    { maxPages: Number.MAX_SAFE_INTEGER, maxItems: job.size, idOf: (item) => idKey(item, 'transactionId') },
  );
  return {
    units: result.items.length,
    pages: result.pages.length,
    duplicates: result.duplicates.length,
    stop: result.stop.reason,
  };
}

/** As the ussd suite crawls (suites/ussd/helpers/shared-crawl.ts), from the same start menus, with the caps raised past the graph. */
async function crawlViews() {
  const starts = ['stocks', 'assets', 'requests', 'home', 'portfolio'].map((name) => ({
    name,
    url: `${job.baseUrl}/ussd/${name}?customerId=${job.customerId}`,
    ...(name === 'home' || name === 'portfolio' ? { optional: true } : {}),
  }));
  const result = await crawl({
    baseUrl: job.baseUrl,
    starts,
    maxViews: job.size * 10,
    maxDepth: Number.MAX_SAFE_INTEGER,
    budgetMs: 30 * 60_000,
    fetch: async (url) => {
      const res = await send({ method: 'GET', path: url });
      return { status: res.status, text: res.text, ref: res.exchange };
    },
  });
  const bad = [...result.views.values()].filter((v) => v.status !== 200).length;
  return {
    units: result.views.size,
    links: result.links.length,
    frontier: result.frontier.length,
    non200: bad,
    maxDepth: result.maxDepthReached,
  };
}
