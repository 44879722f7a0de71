// No vacuous pass in the `ussd` suite (issue 26, problem 6): every check that passes has recorded, with ctx.judged, at
// least one subject it judged (a view, an option, a link, a probe, a request). Each check is wrapped so that a pass
// with nothing judged becomes an error naming it, and the suite is run against servers that take different readings.
import { afterAll, describe, expect, it } from 'vitest';
import { pack } from '../../../suites/index.js';
import { runChecks, type CheckDefinition, type RunFlags, type SuiteDefinition } from '../../../src/engine/index.js';
import { startLocalTarget } from '../../../src/targets/local.js';
import type { Choices } from '../../../src/reference/choices/index.js';
import ussd from '../../../suites/ussd/index.js';

const stops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

/** The suite with each check's run followed by the rule the engine holds: a pass judged something. */
const strict: SuiteDefinition = {
  ...ussd,
  checks: ussd.checks.map((c): CheckDefinition => ({
    ...c,
    async run(ctx) {
      await c.run(ctx);
      if (ctx.subjectsJudged.count === 0) throw new Error(`${c.id} passed having judged nothing`);
    },
  })),
};

describe('every passing ussd check judged at least one subject', () => {
  it.each([
    ['the clean server', {}, {}, []],
    ['--allow-mutations', {}, { allowMutations: true }, []],
    [
      'a menu of status filters, END screens, home and portfolio not served',
      { ussdRequestsMenu: 'filters', ussdTerminal: 'detail-views', ussdHomePortfolio: 'not-served' },
      {},
      [],
    ],
    ['links from an internal origin', {}, {}, ['ussd.links-internal-origin']],
  ] as Array<[string, Partial<Choices>, Partial<RunFlags>, string[]]>)('%s', async (_name, choices, flags, faults) => {
    const l = await startLocalTarget({ choices, faults });
    stops.push(() => l.stop());
    const r = await runChecks({ pack, target: l.target, suites: [strict], failOn: 'should', flags });
    expect(r.checks.filter((c) => c.outcome === 'error').map((c) => c.finding?.message ?? c.id)).toEqual([]);
    expect(r.checks.filter((c) => c.outcome === 'pass').length).toBeGreaterThan(15);
  });
});
