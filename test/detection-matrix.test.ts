// The detection matrix end to end: every fault is caught by its own suite, the clean server (both variants) fails
// nothing, every check is caught failing by some fault (or has a reason), and docs/detection-matrix.md and .json are current.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { detectionMatrix, renderMatrix, renderMatrixJson, type DetectionMatrix } from '../src/matrix/detection.js';
import { FAULTS } from '../src/reference/faults/catalog.js';
import { suites } from '../suites/index.js';

const reasons = JSON.parse(readFileSync(new URL('../docs/detection-reasons.json', import.meta.url), 'utf8')) as Record<string, string>;
const written = new Set<string>(suites.map((s) => s.name));
let matrix: DetectionMatrix;

beforeAll(async () => {
  matrix = await detectionMatrix(suites, { reasons });
}, 120_000);

describe('detection matrix', () => {
  it('finds no failure and no broken check against the clean reference server, in both variants', () => {
    for (const [variant, result] of Object.entries(matrix.clean)) {
      const bad = result.checks.filter((c) => c.failsRun || c.outcome === 'error').map((c) => `${c.id}: ${c.outcome} ${c.finding?.message ?? ''}`);
      expect(bad, variant).toEqual([]);
    }
  });

  it('catches every fault with a check of the fault\'s own suite, and no check breaks', () => {
    const rows = matrix.rows.filter((r) => written.has(r.fault.suite));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.caughtBy, row.fault.name).not.toEqual([]);
      for (const id of row.caughtBy) expect(id.startsWith(`${row.fault.suite}.`), `${row.fault.name} caught by ${id}`).toBe(true);
      expect(row.errored, row.fault.name).toEqual([]);
    }
  });

  it('covers the whole catalog: only faults of suites not written yet go unchecked, and the matrix says so', () => {
    expect(matrix.rows.map((r) => r.fault.name)).toEqual(FAULTS.map((f) => f.name));
    const doc = renderMatrix(matrix, suites);
    for (const fault of FAULTS.filter((f) => !written.has(f.suite))) {
      expect(doc).toContain(`| \`${fault.name}\` | ${fault.suite} | _suite ${fault.suite} not written yet_ |`);
    }
  });

  it('has a fault for every MUST and SHOULD check, or a reason why not', () => {
    expect(matrix.uncaught.filter((u) => !u.reason)).toEqual([]);
  });

  it('is written, current, in docs/detection-matrix.md (regenerate with npm run matrix)', () => {
    expect(readFileSync(new URL('../docs/detection-matrix.md', import.meta.url), 'utf8')).toBe(renderMatrix(matrix, suites));
  });

  it('is written, current, in docs/detection-matrix.json too (what conformance explain reads)', () => {
    expect(readFileSync(new URL('../docs/detection-matrix.json', import.meta.url), 'utf8')).toBe(renderMatrixJson(matrix));
  });
});
