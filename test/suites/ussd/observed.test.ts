// The USSD checks that judge a view by itself judge the views of recorded traffic (issue 30): a run's own HAR against a
// faulted server, judged, fails the checks the run failed, citing the observed views; a clean run's HAR passes them.
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src/engine/index.js';
import { judgedRuns } from '../../helpers/judged-runs.js';
import { pack } from '../../../suites/index.js';

/** The USSD checks that judge observed traffic. */
const OBSERVING = pack.suites
  .find((s) => s.name === 'ussd')!
  .checks.filter((c) => c.observe)
  .map((c) => c.id);
/** A fault for each of them: what the traffic of its run shows. */
const FAULTS = [
  'ussd.empty-message',
  'ussd.duplicate-option-numbers',
  'ussd.option-not-in-message',
  'ussd.request-type-not-method',
  'ussd.request-type-lowercase',
  'ussd.options-shifted',
  'ussd.relative-url',
  'ussd.links-internal-origin',
];
/** The ussd suite run with `faults` into `<name>.har`, and that HAR judged. */
const runAndJudge = judgedRuns('ussd-observed');

const found = (r: RunResult) =>
  r.checks
    .filter((c) => OBSERVING.includes(c.id) && (c.outcome === 'fail' || c.outcome === 'warn'))
    .map((c) => c.id)
    .sort();

describe('the USSD views of recorded traffic', () => {
  it('judge with eight checks, each one a fault below proves', () => {
    expect(OBSERVING.sort()).toEqual([
      'ussd.options.follow-up',
      'ussd.options.get',
      'ussd.options.in-message',
      'ussd.options.numbers',
      'ussd.options.request-type',
      'ussd.options.request-url',
      'ussd.view.message',
      'ussd.view.schema',
    ]);
  });

  it('pass every view check on a clean server that its traffic lets judge', async () => {
    const { judged } = await runAndJudge('ussd', [], 'clean');
    // A run's HAR keeps the views its checks cite: on a clean server, a few start menus, none of whose options shows
    // an instrument symbol in its label and carries it in its URL.
    const followUp = 'ussd.options.follow-up';
    expect(OBSERVING.map((id) => [id, judged.checks.find((c) => c.id === id)?.outcome])).toEqual(
      OBSERVING.map((id) => [id, id === followUp ? 'skip' : 'pass']),
    );
    expect(judged.checks.find((c) => c.id === followUp)?.skipReason).toMatch(
      /^no option of the \d+ menus seen shows an instrument symbol in its label and carries it in its URL/,
    );
  });

  it.each(FAULTS)(
    'fail under %s the view checks the run failed, and no other, citing observed views',
    async (fault) => {
      const { ran, judged } = await runAndJudge('ussd', [fault], fault);
      expect(found(ran).length).toBeGreaterThan(0);
      expect(found(judged)).toEqual(found(ran));
      expect(
        judged.checks
          .filter((c) => c.outcome === 'fail' || c.outcome === 'warn')
          .map((c) => c.id)
          .sort(),
      ).toEqual(found(ran));
      for (const id of found(judged)) {
        const check = judged.checks.find((c) => c.id === id)!;
        expect(check.exchanges.length).toBeGreaterThan(0);
        expect(check.exchanges.every((e) => e.checkId === 'observed' && e.request.url.includes('/ussd/'))).toBe(true);
        // Named by the observed exchange the view came in, as the run names it by the path of options that led to it.
        expect(check.finding?.message).toMatch(/: #\d+ GET \/ussd\/\w+ \(menu "/);
      }
    },
  );
});
