// The detection matrix in npm test: the committed docs/detection-matrix.json against the catalog of faults and checks
// (every fault listed with what it breaks and caught by a check owning it, no collateral failure, every
// MUST and SHOULD check proven or excused, the Markdown drawn from the JSON). A sample of faults run afresh, row for
// row as committed, is detection-sample.sweep.test.ts (`npm run test:sweeps`); the whole suite against every fault is
// `npm run matrix:check`. CI runs both: they take more CPU than the npm test budget allows.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { faultRow, renderMatrix, type DetectionReasons } from '../../src/matrix/detection.js';
import { readDetectionJson, type DetectionJson } from '../../src/matrix/proof.js';
import { FAULTS } from '../../src/reference/faults/catalog.js';
import { pack, suites } from '../../suites/index.js';
import type { CheckResult } from '../../src/engine/index.js';
import { requirementRefs } from '../../src/catalog/requirements.js';

const reasons = JSON.parse(
  readFileSync(new URL('../../docs/detection-reasons.json', import.meta.url), 'utf8'),
) as DetectionReasons;
const committed = readDetectionJson() as DetectionJson;
const checks = suites.flatMap((s) => s.checks);

describe('the committed detection matrix (docs/detection-matrix.json)', () => {
  it('lists every fault of the catalog, in order, with what it breaks and its description as they are now', () => {
    expect(committed, 'docs/detection-matrix.json (npm run matrix)').toBeDefined();
    expect(committed.faults.map((f) => [f.name, f.suite, f.description, f.breaks])).toEqual(
      FAULTS.map((f) => [f.name, f.suite, f.description, [...f.breaks]]),
    );
    // The pack names the suites; a fault names one of them (the reference server does not list them).
    expect(FAULTS.filter((f) => !pack.suites.some((s) => s.name === f.suite)).map((f) => f.name)).toEqual([]);
  });

  it('names only checks that exist, and each fault is caught by a check citing a requirement it breaks', () => {
    const ids = new Set(checks.map((c) => c.id));
    for (const f of committed.faults) {
      expect(f.caughtBy, `${f.name} caught by no check`).not.toEqual([]);
      for (const id of [...f.caughtBy, ...f.collateral.map((c) => c.id)])
        expect(ids.has(id), `${f.name} names ${id}`).toBe(true);
      for (const id of f.caughtBy)
        expect(
          checks.find((c) => c.id === id)!.requirements.some((r) => f.breaks.includes(r.id)),
          `${f.name} → ${id}`,
        ).toBe(true);
    }
  });

  it('has no collateral failure: every check that fails against a fault cites a requirement the fault breaks', () => {
    expect(
      committed.faults.filter((f) => f.collateral.length > 0).map((f) => [f.name, f.collateral.map((c) => c.id)]),
    ).toEqual([]);
  });

  it('proves every MUST and SHOULD check with a fault, or gives the reason why none (and each reason still applies)', () => {
    const caught = new Set(committed.faults.flatMap((f) => f.caughtBy));
    for (const c of checks.filter((x) => x.level !== 'INFO' && !caught.has(x.id))) {
      expect(committed.uncaught.find((u) => u.id === c.id)?.reason, `${c.id}: no fault and no reason`).toBeDefined();
    }
    for (const u of committed.uncaught)
      expect(caught.has(u.id), `${u.id} is listed uncaught but a fault catches it`).toBe(false);
    for (const id of Object.keys(reasons.uncaught ?? {}))
      expect(
        committed.uncaught.some((u) => u.id === id),
        `stale reason for ${id}`,
      ).toBe(true);
  });

  it('fails nothing against the clean server, in either variant', () => {
    for (const [variant, t] of Object.entries(committed.clean))
      expect({ variant, failed: t.failed, warned: t.warned, errored: t.errored }).toEqual({
        variant,
        failed: 0,
        warned: 0,
        errored: 0,
      });
  });

  it('is drawn into docs/detection-matrix.md', () => {
    expect(readFileSync(new URL('../../docs/detection-matrix.md', import.meta.url), 'utf8')).toBe(
      renderMatrix(committed, suites),
    );
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

  it('splits the failing checks into those owning a requirement the fault breaks and collateral ones', () => {
    const row = faultRow(fault, [
      result('auth.a', ['REQ-TOKEN-06'], true),
      result('auth.b', ['REQ-TOKEN-08'], true),
      result('auth.c', ['REQ-TOKEN-06'], false),
      result('auth.d', ['REQ-SVC-01'], true),
    ]);
    expect(row.caughtBy).toEqual(['auth.a']);
    expect(row.collateral).toEqual([{ id: 'auth.b' }, { id: 'auth.d' }]);
  });
});
