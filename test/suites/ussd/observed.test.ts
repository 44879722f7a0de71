// The USSD checks that judge a view by itself judge the views of recorded traffic (issue 30): a run's own HAR against a
// faulted server, judged, fails the checks the run failed, citing the observed views; a clean run's HAR passes them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../../src/api.js';
import { judge } from '../../../src/judge-api.js';
import type { RunResult } from '../../../src/engine/index.js';

const VIEW_CHECKS = ['ussd.view.schema', 'ussd.view.message', 'ussd.options.numbers', 'ussd.options.in-message'];
const FAULTS = {
  'ussd.empty-message': 'ussd.view.message',
  'ussd.duplicate-option-numbers': 'ussd.options.numbers',
  'ussd.option-not-in-message': 'ussd.options.in-message',
};
const quiet = { onNote: () => undefined };

let dir: string;
let faulty: RunResult;
let judgedFaulty: RunResult;
let judgedClean: RunResult;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'conformance-ussd-observed-'));
  const faultyHar = join(dir, 'faulty.har');
  const cleanHar = join(dir, 'clean.har');
  faulty = await run({ suites: ['ussd'], har: faultyHar, local: { faults: Object.keys(FAULTS) }, ...quiet });
  await run({ suites: ['ussd'], har: cleanHar, ...quiet });
  judgedFaulty = await judge({ file: faultyHar, ...quiet });
  judgedClean = await judge({ file: cleanHar, ...quiet });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const outcomes = (r: RunResult) => VIEW_CHECKS.map((id) => [id, r.checks.find((c) => c.id === id)?.outcome]);

describe('the USSD views of recorded traffic', () => {
  it('pass the view checks on a clean server', () => {
    expect(outcomes(judgedClean)).toEqual(VIEW_CHECKS.map((id) => [id, 'pass']));
  });

  it('fail, on a faulted server, the checks the run failed, and no other, citing observed views', () => {
    const owners = Object.values(FAULTS);
    const expected = VIEW_CHECKS.map((id) => [id, owners.includes(id) ? 'fail' : 'pass']);
    expect(outcomes(faulty)).toEqual(expected);
    expect(outcomes(judgedFaulty)).toEqual(expected);
    expect(
      judgedFaulty.checks
        .filter((c) => c.outcome === 'fail' || c.outcome === 'warn')
        .map((c) => c.id)
        .sort(),
    ).toEqual([...owners].sort());
    for (const id of owners) {
      const check = judgedFaulty.checks.find((c) => c.id === id)!;
      expect(check.exchanges.length).toBeGreaterThan(0);
      expect(check.exchanges.every((e) => e.checkId === 'observed' && e.request.url.includes('/ussd/'))).toBe(true);
      // Named by the observed exchange the view came in, as the run names it by the path of options that led to it.
      expect(check.finding?.message).toMatch(/: #\d+ GET \/ussd\/\w+ \(menu "/);
    }
  });
});
