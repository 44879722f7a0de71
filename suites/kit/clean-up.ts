// What the two restores of a partner's live data share (the mutable customer, customer-restore.ts; the webhook
// configuration, webhook-restore.ts): one wording for a restore that failed, naming what to send by hand, and one way
// to run a check's work so that what it changed is put back whether it passed, failed, threw, ran out of time or the
// run was interrupted; the change written to the run's restore journal first (src/journal/journal.ts), so that a run
// killed outright leaves what the next run (or `conformance restore`) needs to put it back.
import type { HttpResponse, RequestSpec } from '../../src/http/client.js';
import type { Exchange } from '../../src/http/exchange.js';
import type { EntryInput, RestoreJournal } from '../../src/journal/journal.js';
import { CheckFailed, CheckSkipped, type CheckContext } from '../../src/engine/index.js';

/**
 * What sends a request with the run's token: a check's context, or the run a suite's teardown gets (SuiteRun); with
 * the run's restore journal, where there is one (a restore settles the entry of what it put back).
 */
export interface Sender {
  send(spec: RequestSpec): Promise<HttpResponse>;
  journal?: RestoreJournal;
}

/**
 * How putting something back went. A failure's `line` starts with CLEAN-UP FAILED and names what to send by hand;
 * `problem` is what went wrong, `byHand` that request (or step).
 */
export type PutBack =
  /** `said`: what the run says it put back (RunInfo.interrupted), e.g. "customer 1042 (put back: status ACTIVE)". */
  | { ok: true; restored: boolean; note: string; said?: string }
  | {
      ok: false;
      line: string;
      problem: string;
      byHand: string;
      expected: string;
      observed: string;
      exchange?: Exchange;
    };

/** The one wording of a restore that failed: what, why, and the request (or step) that puts it back by hand. */
export function cleanUpFailed(what: string, problem: string, byHand: string): string {
  return `CLEAN-UP FAILED: ${what} was changed and could not be restored (${problem}); restore it by hand: ${byHand}`;
}

/**
 * Ends the check with a failed restore: listed with the run's clean-up problems (`cleanup`), whatever came before it;
 * `context` (a sentence) says what that was.
 */
export function failCleanUp(ctx: CheckContext, failed: Extract<PutBack, { ok: false }>, context?: string): never {
  return ctx.fail(`${failed.line}${context ? `. ${context}` : ''}`, {
    cleanup: true,
    expected: failed.expected,
    observed: failed.observed,
    ...(failed.exchange ? { exchange: failed.exchange } : {}),
  });
}

/** Ends a body whose time ran out, once its restore is done: the engine reports the time-out, nothing more of it runs. */
class TimeUp extends Error {}

export interface GuardOptions {
  /**
   * Put back only when the work did not end well (it failed, threw or ran out of time): for work that reads the state
   * back itself and fails when it changed, so that a pass (or a skip) costs no request more.
   */
  onlyAfterFailure?: boolean;
}

/**
 * How long a body whose requests were cut (the run was interrupted) is given to end before its restore reads the
 * state: a request the server took before the cut is then answered or dropped, not still on its way.
 */
const CUT_WORK_ENDS_MS = 2_000;

/**
 * The sender of a restore: its requests are the restore's own, not cut with the check's (an interrupted run cuts
 * those at once, a timed-out check's at the end of its grace period), and still bounded by the client's time limit of
 * one request.
 */
function restoreSender(ctx: CheckContext): Sender {
  const own = new AbortController().signal;
  return { send: (spec) => ctx.send({ ...spec, signal: spec.signal ?? own }), journal: ctx.journal };
}

/**
 * Runs `work`, then `putBack` whatever happened: after it returned, failed or threw, and, once the check's time is up
 * (CheckContext.timeUp: its limit, the run's budget, the run's interruption), at once, without waiting for the work
 * (but for a work whose requests were cut, given CUT_WORK_ENDS_MS to end), within the grace period the engine gives. A
 * restore that fails ends the check with CLEAN-UP FAILED (`cleanup`); one that succeeds after a failure or a time-out is
 * noted on the check. The work's own failure is passed on. `journal`: the change, written to the run's restore journal
 * before the work starts and settled once it is put back (or the work, which reads it back itself, passed); a restore
 * that fails leaves it there for the next run.
 */
export async function withPutBack<T>(
  ctx: CheckContext,
  work: () => Promise<T>,
  putBack: (sender: Sender) => Promise<PutBack>,
  options: GuardOptions & { journal?: EntryInput } = {},
): Promise<T> {
  // Time already up (while the state was being saved): the work is not started, so there is nothing to put back.
  if (ctx.timeUp.aborted) throw new TimeUp('the time ran out before the work started');
  const entry = options.journal ? await ctx.journal.record(options.journal) : undefined;
  const settle = async (put?: PutBack) => {
    if (entry !== undefined && (put === undefined || put.ok))
      await ctx.journal.done(entry, put?.ok ? put.said : undefined);
  };
  if (ctx.timeUp.aborted) {
    await settle();
    throw new TimeUp('the time ran out before the work started');
  }
  const ended = work().then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const timeUp = whenAborted(ctx.timeUp);
  const first = await Promise.race([ended, timeUp.promise]).finally(timeUp.dispose);
  if (first === 'time-up') {
    // The work may still be running (its requests are cut only after the grace period): it is not waited for, unless
    // its requests were cut already (an interrupted run), when it ends at once.
    if (ctx.signal.aborted) await endsWithin(ended, CUT_WORK_ENDS_MS);
    const put = await putBack(restoreSender(ctx));
    await settle(put);
    // The engine reports it after the time-out: "the check did not finish within … ms; after it: CLEAN-UP FAILED: …".
    if (!put.ok) failCleanUp(ctx, put);
    ctx.observe(`the check's time ran out: ${put.note}`);
    throw new TimeUp('restored after the time-out');
  }
  const passed = first.ok || first.error instanceof CheckSkipped;
  if (passed && options.onlyAfterFailure) {
    await settle();
    return unwrap(first);
  }
  // The work tried to put it back itself, and reported that it could not: once is enough.
  if (!first.ok && first.error instanceof CheckFailed && first.error.finding.cleanup) throw first.error;
  // On requests of its own: an interruption that comes now cuts the check's requests, not its restore's.
  const put = await putBack(restoreSender(ctx));
  await settle(put);
  if (!put.ok)
    failCleanUp(
      ctx,
      put,
      first.ok
        ? undefined
        : `The check had failed before the restore: ${first.error instanceof CheckFailed ? first.error.finding.message : String((first.error as Error)?.message ?? first.error)}`,
    );
  if (!passed && put.restored) ctx.observe(put.note);
  return unwrap(first);
}

/** Waits for `work` to end, at most `ms`. */
async function endsWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

function unwrap<T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (r.ok) return r.value;
  throw r.error;
}

function whenAborted(signal: AbortSignal): { promise: Promise<'time-up'>; dispose: () => void } {
  let dispose = () => {};
  const promise = new Promise<'time-up'>((resolve) => {
    if (signal.aborted) return resolve('time-up');
    const on = () => resolve('time-up');
    signal.addEventListener('abort', on, { once: true });
    dispose = () => signal.removeEventListener('abort', on);
  });
  return { promise, dispose: () => dispose() };
}
