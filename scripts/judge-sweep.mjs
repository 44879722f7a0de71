// How `conformance judge` does on the traffic of real runs (issue 30), by hand (not in CI: ~174 runs, minutes):
// for every fault of the reference server, the suite that owns it is run with --har, and the HAR judged. Compared,
// over the checks that can judge traffic: which the run failed and the judge found too ("found"), which it did not
// ("missed": the traffic does not show them, e.g. bodies the HAR cut to an excerpt), and which the judge
// failed that the run passed ("elsewhere": a real defect of the faulted server, judged by the check that can judge the
// answer, where the run's owner needs requests of its own). A check failing on the clean server's HAR is a defect of
// the suite and ends the script with exit 1. Uses the compiled engine: `npm run build && node scripts/judge-sweep.mjs`.
// With --choices: the whole suite against each bundle of the choices matrix instead (every reading of every open point,
// as `npm run matrix` runs them), each HAR judged: the server is correct under every reading the spec leaves open, so
// any finding is a defect of the judge (exit 1). `--only TEXT`: the faults whose name contains TEXT (and the clean run).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../dist/src/api.js';
import { judge } from '../dist/src/judge-api.js';
import { FAULTS } from '../dist/src/reference/faults/catalog.js';
import { pack } from '../dist/suites/index.js';

const observing = new Set(pack.suites.flatMap((s) => s.checks.filter((c) => c.observe).map((c) => c.id)));
const failed = (r) =>
  r.checks
    .filter((c) => observing.has(c.id) && (c.outcome === 'fail' || c.outcome === 'warn'))
    .map((c) => c.id)
    .sort();
const dir = await mkdtemp(join(tmpdir(), 'conformance-judge-sweep-'));
const quiet = { onNote: () => undefined };

async function sweep(name, suites, faults) {
  const har = join(dir, `${name}.har`);
  const ran = failed(await run({ suites, har, local: { faults }, ...quiet }));
  const judged = failed(await judge({ file: har, ...quiet }));
  return { name, ran, judged };
}

if (process.argv.includes('--choices')) {
  const { choiceBundles } = await import('../dist/src/matrix/choices.js');
  const bundles = choiceBundles();
  const found = [];
  let at = 0;
  await Promise.all(
    [0, 1].map(async () => {
      while (at < bundles.length) {
        const b = bundles[at++];
        const har = join(dir, `${b.name.replace(/[^A-Za-z0-9=+-]/g, '_')}.har`);
        await run({ har, local: { choices: b.choices }, ...quiet });
        const judged = failed(await judge({ file: har, ...quiet }));
        if (judged.length > 0) found.push(`${b.name}: ${judged.join(', ')}`);
      }
    }),
  );
  await rm(dir, { recursive: true, force: true });
  console.log(`${bundles.length} bundles of readings judged: ${found.length === 0 ? 'no finding' : 'FINDINGS'}`);
  for (const f of found) console.log(`  ${f}`);
  process.exit(found.length === 0 ? 0 : 1);
}

const onlyAt = process.argv.indexOf('--only');
const faults = onlyAt > 0 ? FAULTS.filter((f) => f.name.includes(process.argv[onlyAt + 1] ?? '')) : FAULTS;
const clean = await sweep('clean', undefined, []);
const rows = [];
let next = 0;
await Promise.all(
  [0, 1].map(async () => {
    while (next < faults.length) {
      const f = faults[next++];
      rows.push(await sweep(f.name, [f.suite], [f.name]));
    }
  }),
);
await rm(dir, { recursive: true, force: true });

const shown = rows.filter((r) => r.ran.length > 0);
const all = shown.filter((r) => r.ran.every((id) => r.judged.includes(id)));
const some = shown.filter((r) => !all.includes(r) && r.ran.some((id) => r.judged.includes(id)));
const none = shown.filter((r) => r.ran.every((id) => !r.judged.includes(id)));
const elsewhere = rows.filter((r) => r.judged.some((id) => !r.ran.includes(id)));
console.log(
  `${rows.length} faults; the run failed a check that can judge traffic under ${shown.length}: the judge found all of it under ${all.length}, some under ${some.length}, none under ${none.length}`,
);
for (const r of [...some, ...none])
  console.log(`  missed under ${r.name}: ${r.ran.filter((id) => !r.judged.includes(id)).join(', ')}`);
console.log(`${elsewhere.length} faults found by the judge where the run's owner needs requests of its own:`);
for (const r of elsewhere) console.log(`  ${r.name}: ${r.judged.filter((id) => !r.ran.includes(id)).join(', ')}`);
console.log(
  `the clean server's HAR: ${clean.judged.length === 0 ? 'no finding' : `FINDINGS ${clean.judged.join(', ')}`}`,
);
process.exitCode = clean.judged.length === 0 ? 0 : 1;
