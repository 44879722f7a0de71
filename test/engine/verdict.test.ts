// The run's verdict (src/engine/verdict.ts): CONFORMANT only when every MUST requirement the suites cite was exercised
// and none failed; a skip, an error or a check left out never reads as a pass.
import { afterEach, describe, expect, it } from 'vitest';
import { pack as investmentPack } from '../../suites/index.js';
import {
  computeVerdict,
  defineCheck,
  defineSuite,
  runChecks,
  type CheckInfo,
  type CheckResult,
  type Level,
  type Outcome,
} from '../../src/engine/index.js';
import { requirementRefs, type Requirement } from '../../src/catalog/requirements.js';
import { generateEd25519 } from '../../src/http/keys.js';
import type { ResolvedTarget } from '../../src/config/types.js';
import { startEchoServer } from '../helpers/echo-server.js';

function info(id: string, level: Level, requirements: string[]): CheckInfo {
  return {
    id,
    title: `title of ${id}`,
    suite: id.split('.')[0] as CheckInfo['suite'],
    level,
    requirements: requirementRefs(requirements, id),
  };
}

function result(check: CheckInfo, outcome: Outcome, extra: Partial<CheckResult> = {}): CheckResult {
  return { ...check, outcome, observations: [], exchanges: [], durationMs: 1, failsRun: outcome === 'fail', ...extra };
}

// Two MUST checks sharing REQ-ENV-01, one with REQ-SVC-01 of its own; a SHOULD and an INFO check beside them.
const tokenCheck = info('auth.token.issued', 'MUST', ['REQ-SVC-01', 'REQ-ENV-01']);
const assetCheck = info('resources.asset.read', 'MUST', ['REQ-ENV-01', 'REQ-ENV-02']);
const shouldCheck = info('signing.reject.stale', 'SHOULD', ['REQ-SVC-04']);
const infoCheck = info('ussd.flow.order-cancel', 'INFO', ['REQ-HDR-19']);
const pack = [tokenCheck, assetCheck, shouldCheck, infoCheck];
const allPass = () => pack.map((c) => result(c, 'pass'));

describe('computeVerdict', () => {
  it('is CONFORMANT when every MUST check of the pack ran and passed, and counts what no check can reach', () => {
    const verdict = computeVerdict({ pack, results: allPass() });
    expect(verdict).toEqual({
      status: 'CONFORMANT',
      mustRequirements: 3,
      exercised: 3,
      failed: [],
      failedChecks: [],
      notExercised: [],
      outOfReach: 5,
      outOfReachRequirements: expect.arrayContaining([
        expect.objectContaining({ id: 'REQ-SVC-10', why: expect.stringContaining('one environment') }),
      ]),
    });
    expect(verdict.outOfReachRequirements).toHaveLength(5);
    // The catalog's excluded MUST requirements with no check are out of reach, not part of the verdict.
    const catalog: Requirement[] = [
      { id: 'REQ-X-01', section: 's', level: 'MUST', quote: 'q', exclusion: 'not black-box testable' },
      { id: 'REQ-X-02', section: 's', level: 'SHOULD', quote: 'q', exclusion: 'not black-box testable' },
    ];
    const narrow = computeVerdict({ pack, results: allPass(), catalog });
    expect(narrow.outOfReach).toBe(1);
    // Named with why, so a report can list them rather than point at `conformance coverage`.
    expect(narrow.outOfReachRequirements).toEqual([
      { id: 'REQ-X-01', section: 's', quote: 'q', why: 'not black-box testable' },
    ]);
  });

  it('is NOT CONFORMANT when a MUST check failed, listed as an expected failure or not', () => {
    const failing = allPass().map((r) =>
      r.id === assetCheck.id ? result(assetCheck, 'fail', { finding: { message: 'bad' } }) : r,
    );
    const verdict = computeVerdict({ pack, results: failing });
    expect(verdict).toMatchObject({
      status: 'NOT CONFORMANT',
      failed: ['REQ-ENV-01', 'REQ-ENV-02'],
      failedChecks: ['resources.asset.read'],
      exercised: 3,
    });
    const listed = failing.map((r) =>
      r.id === assetCheck.id
        ? { ...r, failsRun: false, expected: { reason: 'known', status: 'expected' as const } }
        : r,
    );
    expect(computeVerdict({ pack, results: listed })).toMatchObject({
      status: 'NOT CONFORMANT',
      failed: ['REQ-ENV-01', 'REQ-ENV-02'],
    });
    // A stale entry: the check passed, the list is what is wrong.
    const stale = allPass().map((r) =>
      r.id === assetCheck.id ? result(assetCheck, 'fail', { expected: { reason: 'known', status: 'stale' } }) : r,
    );
    expect(computeVerdict({ pack, results: stale }).status).toBe('CONFORMANT');
  });

  it('names only the requirements the finding names, when it names some', () => {
    const results = allPass().map((r) =>
      r.id === assetCheck.id
        ? result(assetCheck, 'fail', { finding: { message: 'bad', requirements: ['REQ-ENV-02'] } })
        : r,
    );
    expect(computeVerdict({ pack, results }).failed).toEqual(['REQ-ENV-02']);
  });

  it('is INCOMPLETE when a MUST check was skipped, naming its requirements, why and what to do', () => {
    const results = allPass().map((r) =>
      r.id === assetCheck.id
        ? result(assetCheck, 'skip', {
            skipReason: 'fixture "assetId" is not configured',
            skipRemedy: { kind: 'fixture', fixture: 'assetId' },
          })
        : r,
    );
    const verdict = computeVerdict({ pack, results });
    expect(verdict.status).toBe('INCOMPLETE');
    expect(verdict.exercised).toBe(1);
    // REQ-ENV-01 is cited by a check that passed too: one citing check skipped is enough to leave it not exercised.
    expect(verdict.notExercised.map((r) => r.id)).toEqual(['REQ-ENV-01', 'REQ-ENV-02']);
    expect(verdict.notExercised[0]).toEqual({
      id: 'REQ-ENV-01',
      section: requirementRefs(['REQ-ENV-01'], 't')[0]!.section,
      quote: requirementRefs(['REQ-ENV-01'], 't')[0]!.quote,
      checks: [
        {
          id: 'resources.asset.read',
          outcome: 'skip',
          reason: 'fixture "assetId" is not configured',
          remedy: "set fixtures.assetId in the target's config",
        },
      ],
      remedy: "set fixtures.assetId in the target's config",
    });
  });

  it('says run with --long or --allow-mutations for those skips, and to read the reason for any other', () => {
    const remedyOf = (extra: Partial<CheckResult>) =>
      computeVerdict({
        pack,
        results: allPass().map((r) =>
          r.id === tokenCheck.id ? result(tokenCheck, 'skip', { skipReason: 'why', ...extra }) : r,
        ),
      }).notExercised[0]!.remedy;
    expect(remedyOf({ skipRemedy: { kind: 'long' } })).toBe('run with --long');
    expect(remedyOf({ skipRemedy: { kind: 'allow-mutations' } })).toBe('run with --allow-mutations');
    expect(remedyOf({})).toBe('see the skip reason');
  });

  it('is INCOMPLETE when a MUST check was not selected, saying which option left it out', () => {
    const withoutAsset = allPass().filter((r) => r.id !== assetCheck.id);
    const bySuite = computeVerdict({ pack, results: withoutAsset, selection: { suites: ['auth', 'signing', 'ussd'] } });
    expect(bySuite.status).toBe('INCOMPLETE');
    expect(bySuite.notExercised[1]).toMatchObject({
      id: 'REQ-ENV-02',
      checks: [
        {
          id: 'resources.asset.read',
          outcome: 'not-selected',
          reason: 'not selected: --suite left out its suite, resources',
          remedy: 'run without --suite (or with its suite named)',
        },
      ],
    });
    const byGrep = computeVerdict({ pack, results: withoutAsset, selection: { grep: 'token' } });
    expect(byGrep.notExercised[1]!.checks[0]).toMatchObject({
      reason: 'not selected: --grep token did not match it',
      remedy: 'run without --grep',
    });
    const byRerun = computeVerdict({ pack, results: withoutAsset, selection: { ids: [tokenCheck.id] } });
    expect(byRerun.notExercised[1]!.remedy).toBe('run without --rerun-failed');
  });

  it('is INCOMPLETE when a MUST check errored, pointing at its error, or at --budget when the budget stopped it', () => {
    const errored = (extra: Partial<CheckResult>) =>
      computeVerdict({
        pack,
        results: allPass().map((r) => (r.id === tokenCheck.id ? result(tokenCheck, 'error', extra) : r)),
      });
    const broke = errored({ finding: { message: 'the check did not finish within 60000 ms' } });
    expect(broke.status).toBe('INCOMPLETE');
    expect(broke.notExercised.map((r) => r.id)).toEqual(['REQ-SVC-01', 'REQ-ENV-01']);
    expect(broke.notExercised[0]!.checks).toEqual([
      {
        id: 'auth.token.issued',
        outcome: 'error',
        reason: 'the check did not finish within 60000 ms',
        remedy: "see the check's error",
      },
    ]);
    const budget = errored({ finding: { message: 'run budget of 10m spent' }, budgetSpent: true });
    expect(budget.notExercised[0]!.checks[0]).toMatchObject({
      reason: 'run budget of 10m spent',
      remedy: 'raise --budget',
    });
  });

  it('is not moved by SHOULD or INFO checks that did not run', () => {
    const results = allPass().map((r) => (r.level === 'MUST' ? r : result(r, r.level === 'SHOULD' ? 'error' : 'skip')));
    expect(computeVerdict({ pack, results }).status).toBe('CONFORMANT');
    expect(computeVerdict({ pack, results: results.filter((r) => r.level === 'MUST') }).status).toBe('CONFORMANT');
  });

  it('lists what was not exercised even when something failed, without listing a failed requirement twice', () => {
    const results = [
      result(tokenCheck, 'fail', { finding: { message: 'bad', requirements: ['REQ-SVC-01'] } }),
      result(assetCheck, 'skip', { skipReason: 'why' }),
    ];
    const verdict = computeVerdict({ pack, results });
    expect(verdict.status).toBe('NOT CONFORMANT');
    expect(verdict.failed).toEqual(['REQ-SVC-01']);
    expect(verdict.notExercised.map((r) => r.id)).toEqual(['REQ-ENV-01', 'REQ-ENV-02']);
  });
});

describe('the runner', () => {
  const key = generateEd25519();
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  async function target(): Promise<ResolvedTarget> {
    const server = await startEchoServer((req, res) => {
      res.end(
        req.url === '/v1/oauth/token'
          ? JSON.stringify({ data: { token: 'shared-token-0123456789' }, code: '200', message: 'Success' })
          : '{}',
      );
    });
    close = () => server.close();
    return {
      name: 't',
      baseUrl: `${server.origin}/v1`,
      clientId: 'c',
      clientSecret: 'secret-value',
      keyId: 'k',
      privateKeyPem: key.privateKeyPem,
      privateKey: key.seed,
      fixtures: {},
      webhook: { listen: '127.0.0.1:0', tls: 'none' },
    };
  }

  const suite = defineSuite({
    name: 'auth',
    title: 'test',
    checks: [
      defineCheck({
        id: 'auth.a.pass',
        title: 'passes',
        level: 'MUST',
        requirements: ['REQ-SVC-01'],
        async run(ctx) {
          ctx.judged('a subject');
        },
      }),
      defineCheck({
        id: 'auth.b.fixture',
        title: 'needs a fixture',
        level: 'MUST',
        requirements: ['REQ-ENV-01'],
        async run(ctx) {
          ctx.fixture('assetId');
          ctx.judged('the asset');
        },
      }),
      defineCheck({
        id: 'auth.c.long',
        title: 'runs with --long',
        level: 'MUST',
        requirements: ['REQ-ENV-02'],
        async run(ctx) {
          if (!ctx.flags.long) ctx.skip('runs only with --long', { kind: 'long' });
          ctx.judged('the token after an hour');
        },
      }),
    ],
  });

  it('records why a check was skipped, computes the verdict over the whole pack, and fails the run on INCOMPLETE only when asked', async () => {
    const t = await target();
    const result = await runChecks({
      pack: investmentPack,
      target: t,
      suites: [suite],
      selection: { grep: 'pass|fixture|long' },
    });
    expect(result.checks.find((c) => c.id === 'auth.b.fixture')!.skipRemedy).toEqual({
      kind: 'fixture',
      fixture: 'assetId',
    });
    expect(result.checks.find((c) => c.id === 'auth.c.long')!.skipRemedy).toEqual({ kind: 'long' });
    expect(result.verdict.status).toBe('INCOMPLETE');
    expect(result.verdict.notExercised.map((r) => [r.id, r.remedy])).toEqual([
      ['REQ-ENV-01', "set fixtures.assetId in the target's config"],
      ['REQ-ENV-02', 'run with --long'],
    ]);
    expect(result.run).toMatchObject({ failOn: 'must', failOnIncomplete: false });
    expect(result.exitCode).toBe(0);
    const strict = await runChecks({ pack: investmentPack, target: t, suites: [suite], failOnIncomplete: true });
    expect(strict.run.failOnIncomplete).toBe(true);
    expect(strict.exitCode).toBe(1);
    const complete = await runChecks({
      pack: investmentPack,
      target: { ...t, fixtures: { assetId: 1 } },
      suites: [suite],
      flags: { long: true },
      failOnIncomplete: true,
    });
    expect(complete.verdict.status).toBe('CONFORMANT');
    expect(complete.exitCode).toBe(0);
    // A check the selection leaves out still counts: the verdict is over every suite given to the runner.
    const narrowed = await runChecks({
      pack: investmentPack,
      target: { ...t, fixtures: { assetId: 1 } },
      suites: [suite],
      flags: { long: true },
      selection: { grep: 'pass' },
    });
    expect(narrowed.verdict.notExercised.map((r) => r.checks[0]!.outcome)).toEqual(['not-selected', 'not-selected']);
  });

  it('marks the checks its budget stopped, and the verdict says raise --budget', async () => {
    const t = await target();
    const slow = defineSuite({
      name: 'auth',
      title: 'test',
      checks: [
        defineCheck({
          id: 'auth.a.slow',
          title: 'outlasts the budget',
          level: 'MUST',
          requirements: ['REQ-SVC-01'],
          run: (ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve())),
        }),
        defineCheck({
          id: 'auth.b.after',
          title: 'after it',
          level: 'MUST',
          requirements: ['REQ-ENV-01'],
          async run() {},
        }),
      ],
    });
    const result = await runChecks({ pack: investmentPack, target: t, suites: [slow], budgetMs: 300, concurrency: 1 });
    expect(result.checks.map((c) => [c.id, c.outcome, c.budgetSpent])).toEqual([
      ['auth.a.slow', 'error', true],
      ['auth.b.after', 'error', true],
    ]);
    expect(result.verdict.status).toBe('INCOMPLETE');
    expect(result.verdict.notExercised.map((r) => r.remedy)).toEqual(['raise --budget', 'raise --budget']);
    expect(result.exitCode).toBe(1);
  });
});
