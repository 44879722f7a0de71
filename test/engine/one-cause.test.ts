// One cause, one failure, as the engine settles it: a defect a check saw but another owns never fails the seer while
// the owner fails for it, and is never lost when the owner does not. A made-up pack; no server.
import { describe, expect, it } from 'vitest';
import {
  defineCheck,
  defineSuite,
  runChecks,
  type CheckContext,
  type CheckResult,
  type Pack,
} from '../../src/engine/index.js';
import { CITES } from '../helpers/requirements.js';
import { madeUpTarget as target, quietSession } from '../helpers/made-up-pack.js';

const REQ = CITES.MUST[0];
// Another MUST requirement of the catalog: a check cites requirements of its own level only.
const OTHER = 'REQ-SVC-02';

const session = quietSession();

type Body = (ctx: CheckContext) => Promise<void> | void;

function check(id: string, body: Body, requirements: readonly string[] = CITES.MUST) {
  return defineCheck({ id, title: id, level: 'MUST', requirements, run: async (ctx) => body(ctx) });
}

const sees: Body = (ctx) => {
  ctx.alsoSee({ requirements: [REQ], ownedBy: 'x.owner.judges', message: 'the envelope of GET /a has code 200' });
  ctx.alsoSee({ requirements: [REQ], ownedBy: 'x.owner.judges', message: 'the envelope of GET /b has code 200' });
  ctx.judged('GET /a');
  ctx.judged('GET /b');
};
const ownerFails: Body = (ctx) => ctx.fail('envelope code is 200, not "200"');
const ownerPasses: Body = (ctx) => ctx.judged('GET /c');

/** Runs the checks in one suite, the seers declared before the owner, one at a time: the seer must wait for it. */
async function run(checks: ReturnType<typeof check>[], ids?: string[]) {
  const heard: CheckResult[] = [];
  const pack: Pack = {
    suites: [defineSuite({ name: 'x', title: 'x', checks })],
    sharedStates: [],
    stateChangedBy: () => undefined,
    openSession: () => session,
  };
  const result = await runChecks({
    pack,
    target,
    concurrency: 1,
    ...(ids ? { selection: { ids } } : {}),
    reporter: { onCheckEnd: (r) => heard.push(r) },
  });
  const byId = (id: string) => result.checks.find((c) => c.id === id)!;
  return { result, heard, byId };
}

describe('one cause, one failure', () => {
  it('a defect its owner fails for is recorded by the seer, once with a count, and does not fail it', async () => {
    const { byId, heard } = await run([check('x.seer.reads', sees), check('x.owner.judges', ownerFails)]);
    expect(byId('x.owner.judges').outcome).toBe('fail');
    expect(byId('x.seer.reads')).toMatchObject({
      outcome: 'pass',
      failsRun: false,
      alsoSeen: [
        {
          requirements: [REQ],
          ownedBy: 'x.owner.judges',
          message: 'the envelope of GET /a has code 200 (and in 1 more answer)',
        },
      ],
    });
    // Reporters hear the settled result, in declaration order, though the owner finished after the seer.
    expect(heard.map((r) => [r.id, r.outcome])).toEqual([
      ['x.seer.reads', 'pass'],
      ['x.owner.judges', 'fail'],
    ]);
  });

  it('a defect its owner saw nowhere fails the seer that cites its requirement, saying why', async () => {
    const { byId, result } = await run([check('x.seer.reads', sees), check('x.owner.judges', ownerPasses)]);
    const seer = byId('x.seer.reads');
    expect(seer.outcome).toBe('fail');
    expect(seer.failsRun).toBe(true);
    expect(seer.finding).toMatchObject({
      message: 'the envelope of GET /a has code 200 (and in 1 more answer)',
      requirements: [REQ],
      expected: `${REQ} holds in every answer; x.owner.judges owns it but saw it nowhere in its own answers, so this check does`,
    });
    expect(seer.alsoSeen).toEqual([]);
    expect(result.verdict.failed).toEqual([REQ]);
    expect(result.exitCode).toBe(1);
  });

  it('an owner left out of the run leaves the defect to the seer', async () => {
    const { byId } = await run([check('x.seer.reads', sees), check('x.owner.judges', ownerFails)], ['x.seer.reads']);
    expect(byId('x.seer.reads').outcome).toBe('fail');
    expect(byId('x.seer.reads').finding?.expected).toContain('x.owner.judges owns it but did not run');
  });

  it('a seer that does not cite the requirement only records it', async () => {
    const { byId } = await run([check('x.seer.reads', sees, [OTHER]), check('x.owner.judges', ownerPasses)]);
    expect(byId('x.seer.reads').outcome).toBe('pass');
    expect(byId('x.seer.reads').alsoSeen).toHaveLength(1);
  });

  it('a failure caused by what the owner fails for ends skipped, naming the owner; otherwise it stands', async () => {
    const caused: Body = (ctx) =>
      ctx.fail('meta.sort is absent', { cause: { ownedBy: 'x.owner.judges', requirements: [REQ] } });
    const given = await run([check('x.seer.sorts', caused, [OTHER, REQ]), check('x.owner.judges', ownerFails)]);
    expect(given.byId('x.seer.sorts')).toMatchObject({
      outcome: 'skip',
      failsRun: false,
      skipReason: `not judged here: meta.sort is absent; its cause breaks ${REQ}, owned by x.owner.judges, which fails for it`,
      alsoSeen: [{ ownedBy: 'x.owner.judges', requirements: [REQ], message: 'meta.sort is absent' }],
    });
    expect(given.byId('x.seer.sorts').finding).toBeUndefined();
    const alone = await run([check('x.seer.sorts', caused, [OTHER, REQ]), check('x.owner.judges', ownerPasses)]);
    expect(alone.byId('x.seer.sorts').outcome).toBe('fail');
    expect(alone.byId('x.seer.sorts').finding?.message).toBe('meta.sort is absent');
  });

  it('an owner no check has is a bug of the check that names it', async () => {
    const typo: Body = (ctx) => ctx.alsoSee({ requirements: [REQ], ownedBy: 'x.owner.judgess', message: 'm' });
    const { byId } = await run([check('x.seer.reads', typo), check('x.owner.judges', ownerFails)]);
    expect(byId('x.seer.reads').outcome).toBe('error');
    expect(byId('x.seer.reads').finding?.message).toBe(
      'the check itself broke: it names x.owner.judgess as the owner of what it saw, and no check has that id',
    );
  });
});
