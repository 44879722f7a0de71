// Writes docs/detection-matrix.md (and .json, for `conformance explain`) from a real run of every fault (npm run matrix). Uses the compiled engine.
import { readFileSync, writeFileSync } from 'node:fs';
import { detectionMatrix, renderMatrix, renderMatrixJson } from '../dist/src/matrix/detection.js';
import { suites } from '../dist/suites/index.js';

const reasons = JSON.parse(readFileSync(new URL('../docs/detection-reasons.json', import.meta.url), 'utf8'));
const matrix = await detectionMatrix(suites, { reasons });
writeFileSync(new URL('../docs/detection-matrix.md', import.meta.url), renderMatrix(matrix, suites));
writeFileSync(new URL('../docs/detection-matrix.json', import.meta.url), renderMatrixJson(matrix));
const written = new Set(suites.map((s) => s.name));
const pending = matrix.rows.filter((r) => !written.has(r.fault.suite)).length;
const missed = matrix.rows.filter((r) => written.has(r.fault.suite) && r.caughtBy.length === 0).map((r) => r.fault.name);
console.log(
  `docs/detection-matrix.md: ${matrix.rows.length} faults, ${missed.length} not caught${missed.length ? ` (${missed.join(', ')})` : ''}, ` +
    `${pending} waiting for their suite, ${matrix.uncaught.length} checks no fault catches`,
);
