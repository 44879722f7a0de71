// The choices matrix from real runs of the whole suite against the reference server reading every open point each way
// (npm run matrix): writes docs/choices-matrix.md and .json, and docs/open-points.md. With --check (npm run
// matrix:check, run by CI) it writes nothing and fails when a file is not what the runs give. Either way it fails when
// a run failed or warned on anything, or left a reading unrecorded. `--only NAME` runs the bundles whose name contains
// NAME and writes nothing (for working on one choice). Uses the compiled engine.
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import {
  bundleRowsInThreads,
  choiceBundles,
  choicesDocument,
  choicesProblems,
  renderChoicesJson,
  renderChoicesMatrix,
} from '../dist/src/matrix/choices.js';
import { renderOpenPoints } from '../dist/src/matrix/open-points.js';
import { suites } from '../dist/suites/index.js';

const check = process.argv.includes('--check');
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt > 0 ? process.argv[onlyAt + 1] : undefined;
const files = {
  md: new URL('../docs/choices-matrix.md', import.meta.url),
  json: new URL('../docs/choices-matrix.json', import.meta.url),
  openPoints: new URL('../docs/open-points.md', import.meta.url),
};
const bundles = choiceBundles().filter((b) => only === undefined || b.name.includes(only));
// One worker thread per core, one run at a time in each. Two at once overlapped their waits, but on a loaded 2-core
// machine a reading the reference server realizes in time (deliveryOrder=any-order holds AUTH.CREATED for 1 s,
// waiting for the revoke that the suite sends in a turn of its session) then came out otherwise, and the matrix with
// it (CI, stop 37: all-second left delivery-order=any-order unrecorded). The hold now also waits out a 429 the client
// got meanwhile (stop 41: the revoke had met the all-second bundle's rate limit and waited for Retry-After).
const rows = await bundleRowsInThreads(bundles, Math.min(availableParallelism(), bundles.length), 1);
const doc = choicesDocument(rows, suites);
const problems = choicesProblems(doc);
if (only === undefined) {
  const generated = { md: renderChoicesMatrix(doc), json: renderChoicesJson(doc), openPoints: renderOpenPoints() };
  if (check) {
    for (const [kind, url] of Object.entries(files)) {
      const name = url.pathname.split('/').pop();
      const committed = readFileSync(url, 'utf8');
      if (committed !== generated[kind])
        problems.push(
          `docs/${name} is not current: run npm run matrix and commit it${changedLines(committed, generated[kind])}`,
        );
    }
  } else {
    for (const [kind, url] of Object.entries(files)) writeFileSync(url, generated[kind]);
  }
} else {
  for (const r of rows)
    console.log(
      `  ${r.name}: ${r.totals.passed} passed, ${r.totals.failed} failed, ${r.totals.warned} warned, ${r.totals.skipped} skipped${r.unrecorded.length ? `; unrecorded ${r.unrecorded.join(', ')}` : ''}`,
    );
}
console.log(
  `choices matrix: ${rows.length} runs, ${problems.length} problems${check || only ? '' : '; docs/choices-matrix.md and .json, docs/open-points.md written'}`,
);
for (const p of problems) console.log(`  ${p}`);
process.exitCode = problems.length > 0 ? 1 : 0;

// A stale file in CI is often a run that came out differently there: the lines that differ say which run, so the
// cause can be chased without re-running the matrix on that machine.
function changedLines(before, after) {
  const was = new Set(before.split('\n'));
  const now = new Set(after.split('\n'));
  const gone = [...was].filter((l) => !now.has(l)).slice(0, 8);
  const added = [...now].filter((l) => !was.has(l)).slice(0, 8);
  return [...gone.map((l) => `\n    - ${l}`), ...added.map((l) => `\n    + ${l}`)].join('');
}
