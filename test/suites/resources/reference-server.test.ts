// The resources suite against the reference server: clean in both variants (whose open choices differ: page index vs
// item offset, ASC vs DESC default, extra fields; the pagination suite runs along, as a run of both has it), leaving
// the mutable customer as it found it, and against representative faults, each caught by the checks meant for it.
import { describe, expect, it } from 'vitest';
import { pack } from '../../../suites/index.js';
import { runChecks, type RunResult } from '../../../src/engine/index.js';
import { startLocalTarget } from '../../../src/targets/local.js';
import type { VariantName } from '../../../src/reference/choices/index.js';
import resources from '../../../suites/resources/index.js';
import pagination from '../../../suites/pagination/index.js';
import { expectCaught, runSuites } from '../../helpers/suite-runs.js';

const SUITES = [resources, pagination];

/** Both suites against a fresh server; with `suite`, that suite alone runs. */
const run = (
  options: { variant?: VariantName; faults?: string[]; suite?: 'resources' | 'pagination' } = {},
): Promise<RunResult> => runSuites(SUITES, { ...options, ...(options.suite ? { only: options.suite } : {}) });

const observation = (r: RunResult, id: string) => r.checks.find((c) => c.id === id)!.observations.join(' | ');

describe.each(['strict', 'alt'] as const)('against the clean reference server (%s variant)', (variant) => {
  it('passes every check, skips none, and records what the server chose', async () => {
    const result = await run({ variant });
    const bad = result.checks
      .filter((c) => c.outcome !== 'pass')
      .map((c) => `${c.id}: ${c.outcome} ${c.finding?.message ?? c.skipReason ?? ''}`);
    expect(bad).toEqual([]);
    expect(result.checks.filter((c) => c.suite === 'resources').length).toBeGreaterThanOrEqual(20);
    expect(result.checks.filter((c) => c.suite === 'pagination').length).toBeGreaterThanOrEqual(15);
    expect(observation(result, 'pagination.info.page-mode')).toContain(
      variant === 'strict' ? 'a page index' : 'an item offset',
    );
    expect(observation(result, 'pagination.info.default-sort')).toContain(
      variant === 'strict' ? 'meta.sort "ASC", items ascending' : 'meta.sort "DESC", items descending',
    );
    expect(observation(result, 'resources.info.extra-fields')).toContain(
      variant === 'strict' ? 'no fields beyond the spec tables' : 'referenceExtension',
    );
    expect(observation(result, 'pagination.walk.complete')).toContain('250 items');
  });
});

describe('leaves the mutable customer as it found it', () => {
  it('restores the customer after the PUT checks, also when a fault makes them fail', async () => {
    for (const faults of [[], ['resources.customer-invalid-status-stored']]) {
      const local = await startLocalTarget({ faults });
      try {
        const id = local.target.fixtures.mutableCustomerId!;
        const before = local.server.store.getCustomer(id);
        const result = await runChecks({
          pack,
          target: local.target,
          suites: SUITES,
          selection: { suites: ['resources'], grep: 'customers.update' },
          failOn: 'should',
        });
        // update, update-minimal, update-invalid, update-unknown
        expect(result.checks.length).toBe(4);
        const after = local.server.store.getCustomer(id)!;
        expect({ ...after, updatedAt: 0 }).toEqual({ ...before, updatedAt: 0 });
        expect(result.checks.every((c) => !c.finding?.message.includes('CLEAN-UP FAILED'))).toBe(true);
      } finally {
        await local.stop();
      }
    }
  });
});

describe('catches representative faults with the checks meant for them', () => {
  const cases: Array<[string, 'resources' | 'pagination', string[]]> = [
    ['resources.account-field-missing', 'resources', ['resources.accounts.get', 'resources.accounts.list']],
    [
      'resources.list-filter-leak',
      'resources',
      ['resources.lists.isolated', 'resources.accounts.consistent', 'resources.transactions.consistent'],
    ],
    ['resources.not-found-as-empty', 'resources', ['resources.errors.not-found']],
    [
      'resources.missing-param-crash',
      'resources',
      [
        'resources.accounts.query-validated',
        'resources.transactions.query-validated',
        'resources.instruments.type-validated',
      ],
    ],
    ['resources.announced-type-accepted', 'resources', ['resources.instruments.announced-types-rejected']],
    ['resources.integer-beyond-2-53', 'resources', ['resources.numbers.safe-integers']],
    ['resources.customer-update-not-saved', 'resources', ['resources.customers.update']],
  ];
  it.each(cases)('%s', async (fault, suite, ids) => expectCaught(await run({ faults: [fault], suite }), fault, ids));

  it('reports the exact literal of an id beyond 2^53 in the finding', async () => {
    const result = await run({ faults: ['resources.integer-beyond-2-53'], suite: 'resources' });
    const finding = result.checks.find((c) => c.id === 'resources.numbers.safe-integers')!.finding!;
    expect(finding.message).toMatch(/data(\[\d+\])?\.assetId = 90071992547\d{5}\b/);
    expect(finding.expected).toContain('9007199254740991');
  });
});
