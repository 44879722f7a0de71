// The engine runs any pack: a made-up one here, with a session that holds nothing and suites with a lifecycle. Setup
// runs once, after the session opens, before a suite's first check and its state reaches every check of the suite; teardown runs after the last
// check whatever happened, and what it could not put back is listed with the run's clean-up problems.
import { describe, expect, it } from 'vitest';
import { defineCheck, defineSuite, runChecks, type Pack, type SuiteDefinition } from '../../src/engine/index.js';
import { CITES } from '../helpers/requirements.js';
import { madeUpTarget as target, quietSession } from '../helpers/made-up-pack.js';

/** What happened, in order: the session's and the suites' steps. */
function fakePack(suites: SuiteDefinition[], log: string[], openFails = false): Pack {
  const session = quietSession(log, openFails);
  return { suites, sharedStates: [], stateChangedBy: () => undefined, openSession: () => session };
}

interface Counter {
  name: string;
  seen: string[];
}

function countingSuite(
  name: string,
  log: string[],
  checks: Parameters<typeof defineSuite<Counter>>[0]['checks'],
  teardownLines: string[] = [],
): SuiteDefinition {
  return defineSuite<Counter>({
    name,
    title: name,
    options: { limit: { default: 3, description: 'a setting of the suite' } },
    setup: (run) => {
      log.push(`${name} setup (limit ${run.options.limit})`);
      return { name, seen: [] };
    },
    teardown: (state) => {
      log.push(`${name} teardown after ${state.seen.join(', ')}`);
      return teardownLines;
    },
    checks,
  });
}

const seeing = (
  id: string,
  then: (ctx: Parameters<Parameters<typeof defineCheck>[0]['run']>[0]) => Promise<void> = async () => undefined,
) =>
  defineCheck({
    id,
    title: id,
    level: 'MUST',
    requirements: CITES.MUST,
    timeoutMs: 300,
    async run(ctx) {
      (ctx.state as Counter).seen.push(id);
      await then(ctx);
      ctx.judged('the state');
    },
  });

describe('suite lifecycle', () => {
  it('sets a suite up once, after the session opens, hands its state to each check, and tears it down after the last', async () => {
    const log: string[] = [];
    const a = countingSuite(
      'alpha',
      log,
      [seeing('alpha.x.one'), seeing('alpha.x.two')],
      ['alpha: put X back by hand'],
    );
    const b = countingSuite('beta', log, [seeing('beta.x.one')]);
    const result = await runChecks({
      pack: fakePack([a, b], log),
      target,
      concurrency: 1,
      suiteOptions: { alpha: { limit: 7 } },
    });
    expect(result.checks.map((c) => [c.id, c.outcome])).toEqual([
      ['alpha.x.one', 'pass'],
      ['alpha.x.two', 'pass'],
      ['beta.x.one', 'pass'],
    ]);
    // The session opened before the set-ups (a setup may read the target with the run's token), suites set up in pack
    // order, torn down last first, the session closed after the teardowns.
    expect(log).toEqual([
      'session open',
      'alpha setup (limit 7)',
      'beta setup (limit 3)',
      'beta teardown after beta.x.one',
      'alpha teardown after alpha.x.one, alpha.x.two',
      'session close',
    ]);
    expect(result.run.cleanup).toEqual(['alpha: put X back by hand']);
  });

  it('sets up only suites with a selected check', async () => {
    const log: string[] = [];
    const a = countingSuite('alpha', log, [seeing('alpha.x.one')]);
    const b = countingSuite('beta', log, [seeing('beta.x.one')]);
    await runChecks({ pack: fakePack([a, b], log), target, selection: { suites: ['beta'] } });
    expect(log.filter((l) => l.startsWith('alpha'))).toEqual([]);
    expect(log).toContain('beta teardown after beta.x.one');
  });

  it('tears down after checks that failed, broke or ran out of time, and a teardown that breaks is a clean-up line', async () => {
    const log: string[] = [];
    const never = () => new Promise<void>(() => undefined);
    const a = countingSuite('alpha', log, [
      seeing('alpha.x.fails', async (ctx) => ctx.fail('no')),
      seeing('alpha.x.breaks', async () => {
        throw new TypeError('a bug');
      }),
      seeing('alpha.x.hangs', never),
    ]);
    const broken = defineSuite<undefined>({
      name: 'beta',
      title: 'beta',
      teardown: () => {
        throw new Error('cannot reach the target');
      },
      checks: [seeing('beta.x.one', async () => undefined)].map((c) => ({
        ...c,
        run: async (ctx) => ctx.judged('nothing to set up'),
      })),
    });
    const result = await runChecks({ pack: fakePack([a, broken], log), target, concurrency: 1 });
    expect(result.checks.map((c) => c.outcome)).toEqual(['fail', 'error', 'error', 'pass']);
    expect(log).toContain('alpha teardown after alpha.x.fails, alpha.x.breaks, alpha.x.hangs');
    expect(result.run.cleanup).toEqual([
      "beta: the suite's clean-up broke (cannot reach the target); check by hand what its checks changed",
    ]);
  });

  it('ends the run on a setup that throws, tearing down the suites set up before it and closing the session', async () => {
    const log: string[] = [];
    const a = countingSuite('alpha', log, [seeing('alpha.x.one')]);
    const b = defineSuite({
      name: 'beta',
      title: 'beta',
      setup: () => {
        throw new Error('the receiver cannot listen');
      },
      checks: [seeing('beta.x.one')],
    });
    await expect(runChecks({ pack: fakePack([a, b], log), target })).rejects.toThrow('the receiver cannot listen');
    expect(log).toEqual(['session open', 'alpha setup (limit 3)', 'alpha teardown after ', 'session close']);
  });

  it('sets up no suite when the session cannot open', async () => {
    const log: string[] = [];
    const a = countingSuite('alpha', log, [seeing('alpha.x.one')]);
    await expect(runChecks({ pack: fakePack([a], log, true), target })).rejects.toThrow('no credentials');
    expect(log).toEqual(['session open', 'session close']);
  });

  it('refuses a setting a suite does not declare, and shared state the pack does not know', async () => {
    const log: string[] = [];
    const a = countingSuite('alpha', log, [seeing('alpha.x.one')]);
    await expect(runChecks({ pack: fakePack([a], log), target, suiteOptions: { alpha: { limt: 1 } } })).rejects.toThrow(
      'suite alpha has no setting "limt"',
    );
    const uses = defineSuite({ name: 'gamma', title: 'gamma', uses: ['the-moon'], checks: [seeing('gamma.x.one')] });
    await expect(runChecks({ pack: fakePack([uses], log), target })).rejects.toThrow(
      'check gamma.x.one uses "the-moon", which is no shared state of the pack ()',
    );
  });

  it("records each set-up problem of a suite once, with the checks it stopped, and names its fix as each check's remedy", async () => {
    const log: string[] = [];
    const refused = { problem: 'the server did not trust the receiver', fix: 'hand cert.pem to the provider' };
    const unmapped = { problem: 'deliveries arrived at /, not /hook', fix: 'map /hook to the receiver' };
    const a = defineSuite({
      name: 'alpha',
      title: 'alpha',
      setup: (run): Counter => {
        run.note('alpha: said once by the suite');
        return { name: 'alpha', seen: [] };
      },
      checks: [
        seeing('alpha.x.first', async (ctx) => ctx.setupProblem(refused)),
        seeing('alpha.x.passes'),
        // Another problem of the same suite, met later: listed too, not hidden behind the first.
        seeing('alpha.x.other', async (ctx) => ctx.setupProblem(unmapped)),
        // The same fix again, in other words: the same problem, its first words kept, its checks grown.
        seeing('alpha.x.again', async (ctx) => ctx.setupProblem({ problem: 'again', fix: refused.fix })),
      ],
    });
    const b = countingSuite('beta', log, [seeing('beta.x.other', async (ctx) => ctx.setupProblem(refused))]);
    const result = await runChecks({ pack: fakePack([a, b], log), target, concurrency: 1 });
    expect(result.checks.map((c) => [c.id, c.outcome, c.skipRemedy])).toEqual([
      ['alpha.x.first', 'skip', { kind: 'setup', suite: 'alpha' }],
      ['alpha.x.passes', 'pass', undefined],
      ['alpha.x.other', 'skip', { kind: 'setup', suite: 'alpha' }],
      ['alpha.x.again', 'skip', { kind: 'setup', suite: 'alpha' }],
      ['beta.x.other', 'skip', { kind: 'setup', suite: 'beta' }],
    ]);
    expect(result.checks[0]!.skipReason).toBe('set-up problem: the server did not trust the receiver');
    expect(result.checks[3]!.skipReason).toBe('set-up problem: again');
    expect(result.run.setupProblems).toEqual([
      { suite: 'alpha', ...refused, checks: ['alpha.x.first', 'alpha.x.again'] },
      { suite: 'alpha', ...unmapped, checks: ['alpha.x.other'] },
      { suite: 'beta', ...refused, checks: ['beta.x.other'] },
    ]);
    // Not exercised, never failed; what to do is the fix the run states.
    expect(result.verdict.status).toBe('INCOMPLETE');
    // The problem is said once by the run, not again for each requirement: the gap names it, the remedy is its fix.
    expect(result.verdict.notExercised[0]!.checks.map((c) => [c.id, c.reason, c.remedy])).toEqual([
      ['alpha.x.first', "the run's set-up problem (alpha)", 'fix the alpha set-up: hand cert.pem to the provider'],
      ['alpha.x.other', "the run's set-up problem (alpha)", 'fix the alpha set-up: map /hook to the receiver'],
      ['alpha.x.again', "the run's set-up problem (alpha)", 'fix the alpha set-up: hand cert.pem to the provider'],
      ['beta.x.other', "the run's set-up problem (beta)", 'fix the beta set-up: hand cert.pem to the provider'],
    ]);
    expect(result.exitCode).toBe(0);
    expect(result.run.notes?.[0]).toBe('alpha: said once by the suite');
  });

  it('states no set-up problem when none was met', async () => {
    const log: string[] = [];
    const result = await runChecks({
      pack: fakePack([countingSuite('alpha', log, [seeing('alpha.x.one')])], log),
      target,
    });
    expect(result.run).not.toHaveProperty('setupProblems');
  });
});
