// An interrupted run (RunSettings.signal, which the CLI aborts on SIGINT and SIGTERM): no check starts after it, the
// running ones are told their time is up and their requests cut, the suites' teardowns run, all within the grace
// period; the verdict is INTERRUPTED (never CONFORMANT) and the exit code the signal's.
import { describe, expect, it } from 'vitest';
import { defineCheck, defineSuite, runChecks, type Pack, type SuiteDefinition } from '../../src/engine/index.js';
import { RunInterrupted } from '../../src/errors.js';
import { memoryJournal } from '../../src/journal/journal.js';
import { CITES } from '../helpers/requirements.js';
import { madeUpTarget as target, quietSession } from '../helpers/made-up-pack.js';

function pack(suites: SuiteDefinition[], log: string[]): Pack {
  const session = quietSession(log);
  return { suites, sharedStates: [], stateChangedBy: () => undefined, openSession: () => session };
}

/** Resolves when `signal` aborts. */
const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve())));

describe('an interrupted run', () => {
  it('starts no check after the signal, lets the running one put back what it changed, tears the suites down, and says INTERRUPTED with the exit code of SIGTERM', async () => {
    const log: string[] = [];
    const stop = new AbortController();
    const journal = memoryJournal();
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const suite = defineSuite({
      name: 'alpha',
      title: 'alpha',
      setup: () => undefined,
      teardown: async (_state, run) => {
        log.push('alpha teardown');
        run.note('alpha: what the suite left');
        return [];
      },
      checks: [
        defineCheck({
          id: 'alpha.x.changes',
          title: 'changes something and puts it back when its time is up',
          level: 'MUST',
          requirements: CITES.MUST,
          async run(ctx) {
            const entry = await ctx.journal.record({
              subject: 'thing',
              kind: 'thing',
              what: 'the thing',
              byHand: 'PUT /thing back',
              data: {},
            });
            started();
            await aborted(ctx.timeUp);
            // Told at once, with its requests cut (ctx.signal) too: its restore sends on requests of its own.
            log.push(`time up; requests cut: ${ctx.signal.aborted}`);
            await ctx.journal.done(entry, 'the thing (put back)');
          },
        }),
        ...['alpha.x.later', 'alpha.x.last'].map((id) =>
          defineCheck({
            id,
            title: id,
            level: 'MUST',
            requirements: CITES.MUST,
            async run() {
              log.push(`${id} ran`);
            },
          }),
        ),
      ],
    });
    const result = runChecks({ pack: pack([suite], log), target, concurrency: 1, signal: stop.signal, journal });
    await running;
    stop.abort(new RunInterrupted('SIGTERM'));
    const r = await result;
    expect(r.checks.map((c) => [c.id, c.outcome, c.finding?.message ?? c.skipReason])).toEqual([
      ['alpha.x.changes', 'error', 'the run was interrupted (SIGTERM) while the check ran'],
      ['alpha.x.later', 'skip', 'not run: the run was interrupted (SIGTERM) before the check started'],
      ['alpha.x.last', 'skip', 'not run: the run was interrupted (SIGTERM) before the check started'],
    ]);
    expect(r.checks[0]!.finding?.code).toBe('CONFORMANCE_ERR_INTERRUPTED');
    expect(log).toEqual(['session open', 'time up; requests cut: true', 'alpha teardown', 'session close']);
    expect(r.verdict.status).toBe('INTERRUPTED');
    expect(r.exitCode).toBe(143);
    expect(r.run.interrupted).toEqual({ signal: 'SIGTERM', putBack: ['the thing (put back)'], notPutBack: [] });
    expect(r.run.notes).toContain('alpha: what the suite left');
  });

  it('is INTERRUPTED, never CONFORMANT, even when every check had passed; exit 130 for an AbortSignal without a RunInterrupted', async () => {
    const stop = new AbortController();
    const suite = defineSuite({
      name: 'beta',
      title: 'beta',
      checks: [
        defineCheck({
          id: 'beta.x.one',
          title: 'passes, then the run is stopped in its teardown',
          level: 'MUST',
          requirements: CITES.MUST,
          async run(ctx) {
            ctx.judged('a subject');
            stop.abort();
          },
        }),
      ],
    });
    const r = await runChecks({ pack: pack([suite], []), target, signal: stop.signal });
    expect(r.checks.map((c) => c.outcome)).toEqual(['pass']);
    expect(r.verdict.status).toBe('INTERRUPTED');
    expect(r.exitCode).toBe(130);
    expect(r.run.interrupted).toEqual({ putBack: [], notPutBack: [] });
  });

  it('ends within its grace period when a teardown does not, saying what did not finish and what was not put back', async () => {
    const stop = new AbortController();
    const journal = memoryJournal();
    const suite = defineSuite({
      name: 'gamma',
      title: 'gamma',
      setup: () => undefined,
      // A teardown that never ends (a server that never answers its restore).
      teardown: () => new Promise<string[]>(() => undefined),
      checks: [
        defineCheck({
          id: 'gamma.x.one',
          title: 'changes something its suite puts back',
          level: 'MUST',
          requirements: CITES.MUST,
          async run(ctx) {
            await ctx.journal.record({
              subject: 'thing',
              kind: 'thing',
              what: 'the thing',
              byHand: 'PUT /thing {"as":"before"}',
              data: {},
            });
            stop.abort(new RunInterrupted('SIGINT'));
          },
        }),
      ],
    });
    const r = await runChecks({
      pack: pack([suite], []),
      target,
      signal: stop.signal,
      interruptGraceMs: 150,
      journal,
    });
    expect(r.exitCode).toBe(130);
    expect(r.run.cleanup).toEqual([
      "the run was interrupted (SIGINT), and the time given to put back what it changed ran out: the suites' clean-up did not finish",
    ]);
    expect(r.run.interrupted).toEqual({
      signal: 'SIGINT',
      putBack: [],
      notPutBack: ['the thing: restore it by hand: PUT /thing {"as":"before"}'],
    });
  });
});
