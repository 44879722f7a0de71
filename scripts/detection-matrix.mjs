// Writes docs/detection-matrix.md (and .json, for `conformance explain` and `coverage`) from a real run of the whole
// suite against every fault (npm run matrix). Uses the compiled engine.
import { readFileSync, writeFileSync } from 'node:fs';
import { detectionMatrix, renderMatrix, renderMatrixJson } from '../dist/src/matrix/detection.js';
import { suites } from '../dist/suites/index.js';

const reasons = JSON.parse(readFileSync(new URL('../docs/detection-reasons.json', import.meta.url), 'utf8'));
const matrix = await detectionMatrix(suites, { reasons });
writeFileSync(new URL('../docs/detection-matrix.md', import.meta.url), renderMatrix(matrix, suites));
writeFileSync(new URL('../docs/detection-matrix.json', import.meta.url), renderMatrixJson(matrix));
const missed = matrix.rows.filter((r) => r.caughtBy.length === 0).map((r) => r.fault.name);
const collateral = matrix.rows.flatMap((r) => r.collateral.map((c) => ({ fault: r.fault.name, ...c })));
const unexplained = collateral.filter((c) => !c.reason);
console.log(
  `docs/detection-matrix.md: ${matrix.rows.length} faults, ${missed.length} not caught${missed.length ? ` (${missed.join(', ')})` : ''}, ` +
    `${collateral.length} collateral failures (${unexplained.length} unexplained), ${matrix.uncaught.length} checks no fault catches, ${matrix.staleReasons.length} stale reasons`,
);
for (const c of unexplained) console.log(`  unexplained: ${c.fault} → ${c.id}`);
for (const s of matrix.staleReasons) console.log(`  stale: ${s}`);
