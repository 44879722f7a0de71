// The pagination suite against the reference server: representative faults, each caught by the checks meant for it
// (the suite clean on every list is test/suites/pagination/every-list.sweep.test.ts's, and with the resources suite
// test/suites/resources/reference-server.test.ts's).
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src/engine/index.js';
import pagination from '../../../suites/pagination/index.js';
import { expectCaught, runSuites } from '../../helpers/suite-runs.js';

/** The pagination suite against a fresh server with `faults`, as the detection matrix runs a fault of it. */
const run = (options: { faults: string[]; suite: 'resources' | 'pagination' }): Promise<RunResult> =>
  runSuites([pagination], { faults: options.faults, only: options.suite });

describe('catches representative faults with the checks meant for them', () => {
  const cases: Array<[string, 'resources' | 'pagination', string[]]> = [
    ['pagination.next-page-stuck', 'pagination', ['pagination.walk.complete']],
    ['pagination.page-overlap', 'pagination', ['pagination.walk.complete']],
    ['pagination.default-limit-50', 'pagination', ['pagination.limit.default']],
    ['pagination.limit-over-max-accepted', 'pagination', ['pagination.limit.invalid-rejected']],
    ['pagination.sort-by-id', 'pagination', ['pagination.sort.asc', 'pagination.sort.desc']],
    ['pagination.meta-missing', 'pagination', ['pagination.meta.present']],
  ];
  it.each(cases)('%s', async (fault, suite, ids) => expectCaught(await run({ faults: [fault], suite }), fault, ids));

  it('names the repeated item and the pages in a walk that repeats one', async () => {
    const result = await run({ faults: ['pagination.page-overlap'], suite: 'pagination' });
    const finding = result.checks.find((c) => c.id === 'pagination.walk.complete')!.finding!;
    expect(finding.message).toMatch(/transactionId \d+ comes on page 1 and again on page 2/);
  });
});
