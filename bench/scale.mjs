// 4. scale: a page walk (10,000 and 100,000 transactions) and a USSD crawl (about 1,000 and 10,000 views) against the
// reference server with generated fixtures (bench/generate-seed.mjs). The server runs here; each size's walk or crawl
// runs in a child process (bench/scale-child.mjs), whose peak RSS is the suite side's alone.
import { generateSeed, CUSTOMER_ID } from './generate-seed.mjs';
import { kibToMb, median, round, spawnChecked } from './lib.mjs';

const { startReferenceServer } = await import('../dist/src/reference/server.js');
const { generateEd25519 } = await import('../dist/src/http/keys.js');

export const name = 'scale';
export const goal = 'time per item or view grows <= 1.5x when the size grows 10x; peak RSS < 200 MB';

const GROWTH_GOAL = 1.5;
const RSS_GOAL_MB = 200;
/** The spec's largest page: a client walking a long list asks for it. */
const WALK_LIMIT = 1000;

const JOBS = [
  { kind: 'walk', sizes: [10_000, 100_000], seed: (n) => ({ transactions: n }) },
  { kind: 'crawl', sizes: [1_000, 10_000], seed: (n) => ({ views: n }) },
];

export async function measure({ quick = false } = {}) {
  const reps = quick ? 1 : 3;
  const figures = {};
  let met = true;
  for (const job of JOBS) {
    const at = [];
    for (const size of job.sizes) {
      const runs = [];
      for (let i = 0; i < reps; i++) runs.push(await measureOne(job.kind, size, job.seed(size)));
      const us = median(runs.map((r) => r.usPerUnit));
      const rss = Math.max(...runs.map((r) => r.peakRssMb));
      at.push({ size, units: runs[0].units, us, rss });
      figures[`${job.kind}${size}`] = {
        units: runs[0].units,
        ms: round(median(runs.map((r) => r.ms))),
        usPerUnit: round(us),
        peakRssMb: rss,
        ...runs[0].extra,
      };
    }
    const growth = round(at[1].us / at[0].us);
    const peak = Math.max(...at.map((a) => a.rss));
    figures[`${job.kind}UsPerUnit`] = at.map((a) => round(a.us)).join(' / ');
    figures[`${job.kind}Growth`] = growth;
    figures[`${job.kind}PeakRssMb`] = peak;
    met &&= growth <= GROWTH_GOAL && peak < RSS_GOAL_MB;
  }
  return {
    figures,
    met,
    notes: [
      `walk: GET /transactions at limit ${WALK_LIMIT}, the project's walkPages; crawl: the project's crawler from the ussd suite's five start menus; peak RSS is the walking or crawling child's, the server runs in the parent`,
    ],
  };
}

async function measureOne(kind, size, seedSize) {
  const key = generateEd25519();
  const client = { clientId: 'bench', clientSecret: 'bench-secret-0123456789', keyId: 'bench-key' };
  const server = await startReferenceServer({
    clients: [{ ...client, publicKey: key.publicKey }],
    seed: generateSeed(seedSize),
  });
  try {
    const job = {
      kind,
      size,
      limit: WALK_LIMIT,
      baseUrl: server.baseUrl,
      customerId: CUSTOMER_ID,
      privateKeyPem: key.privateKeyPem,
      ...client,
    };
    const r = await spawnChecked(['bench/scale-child.mjs'], { env: { BENCH_SCALE_JOB: JSON.stringify(job) } });
    const { ms, usPerUnit, units, ...extra } = JSON.parse(r.stdout.trim().split('\n').pop());
    // A crawl that met errors measured something other than menus.
    if (extra.non200) throw new Error(`the ${size}-view crawl got ${extra.non200} views that did not answer 200`);
    return { ms, usPerUnit, units, extra, peakRssMb: kibToMb(r.peakRssKiB) };
  } finally {
    await server.close();
  }
}
