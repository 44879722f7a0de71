// No vacuous pass, over every check (issue 26): in a clean run against the reference server each check that passes
// judged at least one subject (its result says how many, and the JSON report shows it); against a reference server
// with nothing to judge (src/reference/empty-data.ts: every list empty, every USSD view without options) no check
// passes on nothing, and the checks over collections skip saying why, never with the engine's fallback reason. The
// client pack likewise: a correct client's checks each judged something; a client that sent nothing passes none.
import { beforeAll, describe, expect, it } from 'vitest';
import { reportSchemaErrors } from '../helpers/report-schema.js';
import { runChecks, type CheckResult, type RunResult } from '../../src/engine/index.js';
import { pack, suites } from '../../suites/index.js';
import { clientPack, clientSuites } from '../../suites/client/index.js';
import { startLocalTarget } from '../../src/targets/local.js';
import { emptyCollections } from '../../src/reference/empty-data.js';
import { toJsonReport } from '../../src/report/json.js';
import { madeUpTarget } from '../helpers/made-up-pack.js';
import { clientRun } from '../helpers/client-records.js';
import { CLEAN_SKIPS } from '../helpers/suite-runs.js';

/** The engine's fallback reason (src/engine/judged.ts): a check should skip earlier with a reason of its own. */
const FALLBACK = /^judged nothing: /;
const line = (c: CheckResult) => `${c.id}: ${c.outcome} ${c.skipReason ?? c.finding?.message ?? ''}`;

/** Every pass judged a subject: a count of at least one, and names. */
function vacuousPasses(result: RunResult): string[] {
  return result.checks
    .filter((c) => c.outcome === 'pass' && !((c.judged?.count ?? 0) >= 1 && (c.judged?.names.length ?? 0) >= 1))
    .map((c) => `${c.id}: passed with ${JSON.stringify(c.judged)}`);
}

async function runLocal(
  options: Parameters<typeof startLocalTarget>[0],
  names: readonly string[] = suites.map((s) => s.name),
): Promise<RunResult> {
  const local = await startLocalTarget(options);
  try {
    return await runChecks({
      pack,
      target: local.target,
      suites: suites.filter((s) => names.includes(s.name)),
      failOn: 'should',
    });
  } finally {
    await local.stop();
  }
}

describe('every check, in a clean run against the reference server', () => {
  let clean: RunResult;
  beforeAll(async () => {
    clean = await runLocal({});
  }, 60_000);

  it('passes only having judged at least one subject', () => {
    expect(clean.checks).toHaveLength(suites.flatMap((s) => s.checks).length);
    expect(vacuousPasses(clean)).toEqual([]);
  });

  it('passes every check of the suites that record what they judge, but the clean skips', () => {
    const notPassed = clean.checks.filter((c) => c.outcome !== 'pass' && !CLEAN_SKIPS.includes(c.id));
    expect(notPassed.map(line)).toEqual([]);
    expect(clean.checks.filter((c) => FALLBACK.test(c.skipReason ?? '')).map(line)).toEqual([]);
    // The suites not yet recording: nothing worse than the fallback's skip, never a failure for it.
    expect(clean.checks.filter((c) => !['pass', 'skip'].includes(c.outcome)).map(line)).toEqual([]);
  });

  it('shows what each pass judged in the JSON report, valid against its schema', () => {
    const json = toJsonReport(clean);
    expect(reportSchemaErrors(json)).toBeUndefined();
    const passes = json.checks.filter((c) => c.outcome === 'pass');
    expect(passes.length).toBeGreaterThan(0);
    expect(passes.filter((c) => c.judged === undefined).map((c) => c.id)).toEqual([]);
    expect(json.checks.filter((c) => c.outcome !== 'pass' && c.judged !== undefined).map((c) => c.id)).toEqual([]);
    const list = json.checks.find((c) => c.id === 'resources.instruments.list')!;
    expect(list.judged).toEqual({ count: expect.any(Number), names: ['an item of GET /instruments'] });
    expect(list.judged!.count).toBeGreaterThan(1);
  });
});

describe('against a reference server with nothing to judge (every list empty, USSD views without options)', () => {
  let empty: RunResult;
  beforeAll(async () => {
    empty = await runLocal({ middleware: [emptyCollections()] }, ['pagination', 'resources', 'ussd']);
  }, 60_000);

  it('no check passes on nothing', () => {
    expect(vacuousPasses(empty)).toEqual([]);
  });

  it('the checks over collections skip, saying why; none is left to the fallback', () => {
    expect(empty.checks.filter((c) => FALLBACK.test(c.skipReason ?? '')).map(line)).toEqual([]);
    const reason = (id: string) => {
      const c = empty.checks.find((r) => r.id === id)!;
      return `${c.outcome}: ${c.skipReason ?? c.finding?.message ?? ''}`;
    };
    for (const [id, what] of [
      ['accounts', 'Account'],
      ['instruments', 'Instrument'],
      ['transactions', 'Transaction'],
    ])
      expect(reason(`resources.${id}.list`)).toMatch(
        new RegExp(`^skip: GET /${id}\\?\\S+ answered an empty list: no ${what} record to judge against its table$`),
      );
    expect(reason('resources.lists.isolated')).toMatch(/^skip: .* are empty lists: no item to tell apart$/);
    expect(reason('resources.info.instruments-available')).toBe(
      'skip: the instrument list is empty: no instrument to tell available or not',
    );
    for (const id of [
      'pagination.limit.respected',
      'pagination.limit.full-page',
      'pagination.walk.complete',
      'pagination.walk.total-stable',
      'pagination.walk.page-links',
      'pagination.sort.asc',
      'pagination.sort.desc',
      'pagination.sort.default-consistent',
    ])
      expect(reason(id)).toMatch(
        // Each list, with what it showed (0 items, one page only, totalCount 0…).
        /^skip: no list was long enough, or varied enough in createdAt, to judge this rule: GET \/transactions\?\S+: .+; GET \/accounts\?\S+: .+; GET \/instruments\?\S+: .+$/,
      );
    expect(reason('pagination.info.page-mode')).toMatch(/^skip: page is not inferable: one page only/);
    expect(reason('pagination.info.last-page')).toMatch(/^skip: no page with items was served .*: no last page/);
  });

  it('what an empty list does show is still judged: its meta, its refusals, the records read by id', () => {
    const passed = (id: string) => empty.checks.find((c) => c.id === id)!;
    for (const id of [
      'pagination.meta.present',
      'pagination.limit.echo',
      'pagination.limit.invalid-rejected',
      'resources.accounts.get',
      'resources.errors.not-found',
    ])
      expect(passed(id)).toMatchObject({ outcome: 'pass', judged: { count: expect.any(Number) } });
  });
});

describe('the client pack', () => {
  const client = clientSuites.filter((s) => s.name !== 'client.webhooks');
  const judge = (record: ReturnType<typeof clientRun>) =>
    runChecks({ pack: clientPack(async () => record), target: madeUpTarget, suites: client });

  it('a correct client passes each check having judged its requests', async () => {
    const result = await judge(clientRun());
    expect(result.checks.filter((c) => c.outcome !== 'pass').map(line)).toEqual([]);
    expect(vacuousPasses(result)).toEqual([]);
  });

  it('a client that sent nothing passes nothing, and no check is left to the fallback', async () => {
    const record = clientRun();
    for (const scenario of Object.values(record.scenarios)) {
      scenario!.requests = [];
      scenario!.acts = [];
    }
    const result = await judge(record);
    expect(result.checks.filter((c) => c.outcome === 'pass').map(line)).toEqual([]);
    expect(result.checks.filter((c) => FALLBACK.test(c.skipReason ?? '')).map(line)).toEqual([]);
  });
});
