// A sample of the detection matrix run afresh (a sweep: `npm run test:sweeps`): one fault of each suite, the whole
// suite against each, must still give the row docs/detection-matrix.json holds. The committed matrix against the
// catalog is detection-matrix.test.ts's (npm test); every fault is `npm run matrix:check`'s (CI).
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  detectionMatrix,
  matrixDocument,
  matrixProblems,
  type DetectionMatrix,
  type DetectionReasons,
} from '../../src/matrix/detection.js';
import { readDetectionJson, type DetectionJson } from '../../src/matrix/proof.js';
import { findFault } from '../../src/reference/faults/catalog.js';
import { suites } from '../../suites/index.js';
import { DELIVERY_DEADLINE_MS } from '../helpers/waits.js';

const reasons = JSON.parse(
  readFileSync(new URL('../../docs/detection-reasons.json', import.meta.url), 'utf8'),
) as DetectionReasons;
const committed = readDetectionJson() as DetectionJson;

describe('a sample of faults run afresh, whole suite each', () => {
  // One fault of each suite: the committed rows must still be what the suite does.
  const SAMPLE = [
    'auth.token-type-lowercase',
    'signing.keyid-ignored',
    'pagination.meta-missing',
    'resources.list-filter-leak',
    'ussd.back-listed-first',
    'webhooks.url-not-stored',
  ];
  let matrix: DetectionMatrix;

  beforeAll(async () => {
    // Eight whole runs at once in this process, beside other tests: a delivery can take seconds, and no sampled run
    // waits one out, so the matrix's short deadline would only make a slow delivery a failure the committed row lacks.
    matrix = await detectionMatrix(suites, {
      reasons,
      faults: SAMPLE.map((name) => findFault(name)!),
      webhookDeadlineMs: DELIVERY_DEADLINE_MS,
    });
  });

  it('gives, for each, the row the committed matrix holds', () => {
    const rows = matrixDocument(matrix).faults;
    for (const row of rows) expect(row, row.name).toEqual(committed.faults.find((f) => f.name === row.name));
  });

  it('finds nothing unacceptable: no failure against the clean server, every sampled fault caught, no unexplained collateral', () => {
    // The matrix's own staleness check needs every fault; a sample only judges its rows.
    expect(matrixProblems({ ...matrix, staleReasons: [], uncaught: [] })).toEqual([]);
  });
});
