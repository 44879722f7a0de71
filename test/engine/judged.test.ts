// No vacuous pass, as the engine holds it: a check that ends without a finding passes only when it recorded a subject
// judged (CheckContext.judged); one that judged nothing is skipped, saying so and naming the check. A failure, a
// warning, an error and a skip of the check's own are left as they are. A made-up pack; no server.
import { describe, expect, it } from 'vitest';
import {
  defineCheck,
  defineSuite,
  runChecks,
  type CheckContext,
  type CheckResult,
  type Level,
  type Pack,
  type RunSession,
} from '../../src/engine/index.js';
import { CheckFailed } from '../../src/engine/outcomes.js';
import { judgedNothingReason } from '../../src/engine/judged.js';
import { toJsonReport } from '../../src/report/json.js';
import { CITES } from '../helpers/requirements.js';
import { madeUpTarget as target, quietSession } from '../helpers/made-up-pack.js';

type Body = (ctx: CheckContext) => Promise<void> | void;

function check(id: string, body: Body, level: Level = 'MUST') {
  return defineCheck({ id, title: id, level, requirements: CITES[level], run: async (ctx) => body(ctx) });
}

async function run(checks: ReturnType<typeof check>[], options: { session?: RunSession; expected?: string[] } = {}) {
  const heard: CheckResult[] = [];
  const pack: Pack = {
    suites: [defineSuite({ name: 'x', title: 'x', checks })],
    sharedStates: [],
    stateChangedBy: () => undefined,
    openSession: () => options.session ?? quietSession(),
  };
  const result = await runChecks({
    pack,
    target,
    concurrency: 1,
    failOn: 'should',
    reporter: { onCheckEnd: (r) => heard.push(r) },
    expectedFailures: (options.expected ?? []).map((id) => ({ id, reason: 'listed' })),
  });
  const byId = (id: string) => result.checks.find((c) => c.id === id)!;
  return { result, heard, byId };
}

describe('no vacuous pass', () => {
  it('a check that returns without judging anything is skipped, with the reason naming it; one that judged passes, with what it judged', async () => {
    const { byId, heard, result } = await run([
      check('x.empty.list', () => undefined),
      check('x.read.records', (ctx) => {
        ctx.judged('account 1');
        ctx.judged('account 2');
        ctx.judged('the page', 3);
      }),
    ]);
    expect(byId('x.empty.list')).toMatchObject({
      outcome: 'skip',
      failsRun: false,
      skipReason:
        'judged nothing: x.empty.list ended without a finding but saw no subject to judge (it recorded none), so it did not pass',
    });
    expect(byId('x.empty.list').skipReason).toBe(judgedNothingReason('x.empty.list'));
    expect(byId('x.empty.list').judged).toBeUndefined();
    expect(byId('x.read.records')).toMatchObject({
      outcome: 'pass',
      judged: { count: 5, names: ['account 1', 'account 2', 'the page'] },
    });
    // Reporters hear the settled result; the totals and the verdict count the skip as a skip.
    expect(heard.map((r) => [r.id, r.outcome])).toEqual([
      ['x.empty.list', 'skip'],
      ['x.read.records', 'pass'],
    ]);
    expect(result.totals).toMatchObject({ passed: 1, skipped: 1 });
    expect(result.verdict.status).toBe('INCOMPLETE');
    expect(result.verdict.notExercised[0]!.checks).toEqual([
      {
        id: 'x.empty.list',
        outcome: 'skip',
        reason: judgedNothingReason('x.empty.list'),
        remedy: 'see the skip reason',
      },
    ]);
    // The JSON report shows what a pass judged, and nothing of the kind for the skip.
    const json = toJsonReport(result);
    expect(json.checks.map((c) => [c.id, c.judged])).toEqual([
      ['x.empty.list', undefined],
      ['x.read.records', { count: 5, names: ['account 1', 'account 2', 'the page'] }],
    ]);
  });

  it('keeps the first five names, each once, and counts them all', async () => {
    const { byId } = await run([
      check('x.many.pages', (ctx) => {
        for (let page = 1; page <= 8; page++) ctx.judged(`page ${page}`);
        ctx.judged('page 1');
      }),
    ]);
    expect(byId('x.many.pages').judged).toEqual({
      count: 9,
      names: ['page 1', 'page 2', 'page 3', 'page 4', 'page 5'],
    });
  });

  it('a failure, a warning, an error or a skip of its own is unchanged, judged or not', async () => {
    const { byId } = await run([
      check('x.must.fails', (ctx) => ctx.fail('no')),
      check('x.should.warns', (ctx) => ctx.fail('meh'), 'SHOULD'),
      check('x.info.warns', (ctx) => ctx.fail('unusable'), 'INFO'),
      check('x.own.skip', (ctx) => ctx.skip('the list was empty: no record to judge')),
      check('x.judged.then.skip', (ctx) => {
        ctx.judged('page 1');
        ctx.skip('page 2 could not be read');
      }),
      check('x.breaks', () => {
        throw new TypeError('a bug');
      }),
    ]);
    expect(
      ['x.must.fails', 'x.should.warns', 'x.info.warns', 'x.own.skip', 'x.judged.then.skip', 'x.breaks'].map((id) => [
        id,
        byId(id).outcome,
        byId(id).skipReason ?? byId(id).finding?.message,
        byId(id).judged,
      ]),
    ).toEqual([
      ['x.must.fails', 'fail', 'no', undefined],
      ['x.should.warns', 'warn', 'meh', undefined],
      ['x.info.warns', 'warn', 'unusable', undefined],
      ['x.own.skip', 'skip', 'the list was empty: no record to judge', undefined],
      ['x.judged.then.skip', 'skip', 'page 2 could not be read', undefined],
      ['x.breaks', 'error', 'the check itself broke: a bug', undefined],
    ]);
  });

  it('holds for INFO checks too: an observation alone is no subject judged', async () => {
    const { byId } = await run([
      check('x.info.nothing', (ctx) => ctx.observe('no page with items was served'), 'INFO'),
      check(
        'x.info.reads',
        (ctx) => {
          ctx.judged('GET /instruments');
          ctx.observe('meta.sort absent');
        },
        'INFO',
      ),
    ]);
    expect(byId('x.info.nothing')).toMatchObject({
      outcome: 'skip',
      skipReason: judgedNothingReason('x.info.nothing'),
      observations: ['no page with items was served'],
    });
    expect(byId('x.info.reads')).toMatchObject({ outcome: 'pass', judged: { count: 1 } });
  });

  it('an expected failure that judged nothing stays a skip: it did not show the server fixed, so it is no stale entry', async () => {
    const { byId, result } = await run(
      [check('x.listed.empty', () => undefined), check('x.listed.passes', (ctx) => ctx.judged('answer'))],
      { expected: ['x.listed.empty', 'x.listed.passes'] },
    );
    expect(byId('x.listed.empty')).toMatchObject({ outcome: 'skip', failsRun: false });
    expect(byId('x.listed.empty').expected).toBeUndefined();
    expect(byId('x.listed.passes')).toMatchObject({ outcome: 'fail', expected: { status: 'stale' } });
    expect(result.exitCode).toBe(1);
  });

  it('one cause, one failure: a defect an owner missed fails the check that saw it though it judged nothing else; one the owner caught leaves a skip', async () => {
    const REQ = CITES.MUST[0];
    const sees: Body = (ctx) =>
      ctx.alsoSee({ requirements: [REQ], ownedBy: 'x.owner.judges', message: 'the envelope of GET /a has code 200' });
    const missed = await run([check('x.seer.reads', sees), check('x.owner.judges', (ctx) => ctx.judged('GET /b'))]);
    expect(missed.byId('x.seer.reads')).toMatchObject({
      outcome: 'fail',
      finding: { message: 'the envelope of GET /a has code 200' },
    });
    const caught = await run([check('x.seer.reads', sees), check('x.owner.judges', (ctx) => ctx.fail('code 200'))]);
    expect(caught.byId('x.seer.reads')).toMatchObject({
      outcome: 'skip',
      skipReason: judgedNothingReason('x.seer.reads'),
      alsoSeen: [{ ownedBy: 'x.owner.judges' }],
    });
  });

  it('a check run once more by its pack counts the subjects of the attempt it reports', async () => {
    // A session that, like the Investment pack's for token checks, runs a check's body again after a failure.
    const again: RunSession = {
      ...quietSession(),
      runCheck: async (_check, body) => {
        try {
          await body();
        } catch (err) {
          if (!(err instanceof CheckFailed)) throw err;
          await body();
        }
      },
    };
    const attempts = new Map<string, number>();
    const retried = (id: string, second: Body) =>
      check(id, (ctx) => {
        const n = (attempts.get(id) ?? 0) + 1;
        attempts.set(id, n);
        if (n > 1) return second(ctx);
        ctx.judged('token 1');
        ctx.judged('token 2');
        ctx.fail('the run token had ended');
      });
    const { byId } = await run(
      [
        retried('x.retried.judges', (ctx) => ctx.judged('token 3')),
        // The second attempt judges nothing: the first attempt's subjects must not make it a pass.
        retried('x.retried.empty', () => undefined),
      ],
      { session: again },
    );
    expect([...attempts.values()]).toEqual([2, 2]);
    expect(byId('x.retried.judges')).toMatchObject({ outcome: 'pass', judged: { count: 1, names: ['token 3'] } });
    expect(byId('x.retried.empty')).toMatchObject({
      outcome: 'skip',
      skipReason: judgedNothingReason('x.retried.empty'),
    });
  });
});

describe('exchanges judged from another check', () => {
  it('records each exchange another check sent once, in the order of the run, and never the check’s own', async () => {
    const exchange = (seq: number, checkId: string) => ({ seq, checkId }) as CheckContext['exchanges'][number];
    const { byId } = await run([
      check('x.shares.reads', (ctx) => {
        const own = exchange(3, 'x.shares.reads');
        ctx.exchanges.push(own);
        for (const e of [exchange(9, 'x.sender.two'), exchange(2, 'x.sender.one'), exchange(9, 'x.sender.two'), own])
          ctx.judgedShared(e);
        ctx.judged('three answers');
      }),
      check('x.alone', (ctx) => ctx.judged('an answer')),
    ]);
    expect(byId('x.shares.reads').sharedExchanges).toEqual([
      { seq: 2, sentBy: 'x.sender.one' },
      { seq: 9, sentBy: 'x.sender.two' },
    ]);
    expect(byId('x.alone')).not.toHaveProperty('sharedExchanges');
  });

  it('leaves out an exchange it judged from another once a failure cited it among its own', async () => {
    const exchange = (seq: number, checkId: string) => ({ seq, checkId }) as CheckContext['exchanges'][number];
    const { byId } = await run([
      check('x.cites.one', (ctx) => {
        const cited = exchange(2, 'x.sender.one');
        ctx.judgedShared(cited);
        ctx.judgedShared(exchange(9, 'x.sender.two'));
        ctx.exchanges.push(cited);
        ctx.fail('the answer of #2 is wrong', { exchange: cited });
      }),
    ]);
    expect(byId('x.cites.one').outcome).toBe('fail');
    expect(byId('x.cites.one').sharedExchanges).toEqual([{ seq: 9, sentBy: 'x.sender.two' }]);
  });
});
