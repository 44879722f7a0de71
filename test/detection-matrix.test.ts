// The detection matrix end to end: the whole suite against every fault. Every fault is caught by a check citing a
// requirement it breaks; no other check fails against it unless the reason is recorded (collateral); the clean server
// (both variants) fails nothing; every check is caught failing by some fault (or has a reason); and
// docs/detection-matrix.md and .json are current.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { detectionMatrix, faultRow, renderMatrix, renderMatrixJson, type DetectionMatrix, type DetectionReasons } from '../src/matrix/detection.js';
import { FAULTS } from '../src/reference/faults/catalog.js';
import { suites } from '../suites/index.js';
import type { CheckResult } from '../src/runner/types.js';
import { requirementRefs } from '../src/spec/requirements.js';

const reasons = JSON.parse(readFileSync(new URL('../docs/detection-reasons.json', import.meta.url), 'utf8')) as DetectionReasons;
let matrix: DetectionMatrix;

beforeAll(async () => {
  matrix = await detectionMatrix(suites, { reasons });
}, 240_000);

describe('detection matrix', () => {
  it('finds no failure, warning or broken check against the clean reference server, in both variants', () => {
    for (const [variant, result] of Object.entries(matrix.clean)) {
      const bad = result.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn' || c.outcome === 'error').map((c) => `${c.id}: ${c.outcome} ${c.finding?.message ?? ''}`);
      expect(bad, variant).toEqual([]);
    }
  });

  it('catches every fault with a check that cites a requirement the fault breaks, and no check breaks', () => {
    expect(matrix.rows.map((r) => r.fault.name)).toEqual(FAULTS.map((f) => f.name));
    for (const row of matrix.rows) {
      expect(row.caughtBy, row.fault.name).not.toEqual([]);
      expect(row.errored, row.fault.name).toEqual([]);
    }
  });

  it('has a reason for every collateral failure (a check failing against a fault while citing nothing it breaks), and no stale reason', () => {
    const unexplained = matrix.rows.flatMap((r) => r.collateral.filter((c) => !c.reason).map((c) => `${r.fault.name} → ${c.id}`));
    expect(unexplained).toEqual([]);
    expect(matrix.staleReasons).toEqual([]);
  });

  it('has a fault for every MUST and SHOULD check, or a reason why not', () => {
    expect(matrix.uncaught.filter((u) => !u.reason)).toEqual([]);
  });

  it('is written, current, in docs/detection-matrix.md (regenerate with npm run matrix)', () => {
    expect(readFileSync(new URL('../docs/detection-matrix.md', import.meta.url), 'utf8')).toBe(renderMatrix(matrix, suites));
  });

  it('is written, current, in docs/detection-matrix.json too (what conformance explain and coverage read)', () => {
    expect(readFileSync(new URL('../docs/detection-matrix.json', import.meta.url), 'utf8')).toBe(renderMatrixJson(matrix));
  });
});

describe('a fault row', () => {
  const fault = { ...FAULTS[0]!, breaks: ['REQ-TOKEN-06'] };
  const result = (id: string, requirements: string[], failsRun: boolean): CheckResult => ({
    id,
    title: id,
    suite: 'auth',
    level: 'MUST',
    requirements: requirementRefs(requirements, id),
    outcome: failsRun ? 'fail' : 'pass',
    observations: [],
    exchanges: [],
    durationMs: 1,
    failsRun,
  });

  it('splits the failing checks into those owning a requirement the fault breaks and collateral ones, with their reasons', () => {
    const row = faultRow(fault, [result('auth.a', ['REQ-TOKEN-06'], true), result('auth.b', ['REQ-TOKEN-08'], true), result('auth.c', ['REQ-TOKEN-06'], false), result('auth.d', ['REQ-SVC-01'], true)], {
      collateral: { [fault.name]: { 'auth.b': 'reads the record whole' } },
    });
    expect(row.caughtBy).toEqual(['auth.a']);
    expect(row.collateral).toEqual([{ id: 'auth.b', reason: 'reads the record whole' }, { id: 'auth.d' }]);
  });
});
