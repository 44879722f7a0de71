// The detection matrix from a real run of the whole suite against every fault (npm run matrix): writes
// docs/detection-matrix.md and .json (read by `conformance explain` and `coverage`). With --check (npm run
// matrix:check, run by CI) it writes nothing and fails when either file is not what the run gives. Either way it fails
// on what makes a matrix unacceptable: an uncaught fault, a collateral failure, a stale reason, a check no
// fault proves without a reason, a failure or warning against the clean server. Uses the compiled engine.
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import {
  detectionMatrix,
  matrixDocument,
  matrixProblems,
  renderMatrix,
  renderMatrixJson,
} from '../dist/src/matrix/detection.js';
import { suites } from '../dist/suites/index.js';

const check = process.argv.includes('--check');
const files = {
  md: new URL('../docs/detection-matrix.md', import.meta.url),
  json: new URL('../docs/detection-matrix.json', import.meta.url),
};
const reasons = JSON.parse(readFileSync(new URL('../docs/detection-reasons.json', import.meta.url), 'utf8'));
// One worker thread per core: each runs the whole suite against its share of the faults.
const matrix = await detectionMatrix(suites, { reasons, threads: availableParallelism() });
const doc = matrixDocument(matrix);
const generated = { md: renderMatrix(doc, suites), json: renderMatrixJson(doc) };
const problems = matrixProblems(matrix);
if (check) {
  for (const [kind, url] of Object.entries(files)) {
    if (readFileSync(url, 'utf8') !== generated[kind])
      problems.push(`docs/detection-matrix.${kind} is not current: run npm run matrix and commit it`);
  }
} else {
  writeFileSync(files.md, generated.md);
  writeFileSync(files.json, generated.json);
}
const collateral = doc.faults.reduce((n, f) => n + f.collateral.length, 0);
console.log(
  `detection matrix: ${doc.faults.length} faults against ${suites.flatMap((s) => s.checks).length} checks, ${doc.faults.filter((f) => f.caughtBy.length === 0).length} not caught, ` +
    `${collateral} collateral failures, ${doc.uncaught.length} checks no fault catches${check ? '' : '; docs/detection-matrix.md and .json written'}`,
);
for (const p of problems) console.log(`  ${p}`);
process.exitCode = problems.length > 0 ? 1 : 0;
