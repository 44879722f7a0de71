// What the two restores of a partner's live data share (the mutable customer, customer-restore.ts; the webhook
// configuration, webhook-restore.ts): one wording for a restore that failed, naming what to send by hand, and one way
// to run a check's work so that what it changed is put back whether it passed, failed, threw or ran out of time.
import type { HttpResponse, RequestSpec } from '../../src/http/client.js';
import type { Exchange } from '../../src/http/exchange.js';
import { CheckFailed, CheckSkipped, type CheckContext } from '../../src/engine/index.js';

/** What sends a request with the run's token: a check's context, or the run a suite's teardown gets (SuiteRun). */
export interface Sender {
  send(spec: RequestSpec): Promise<HttpResponse>;
}

/**
 * How putting something back went. A failure's `line` starts with CLEAN-UP FAILED and names what to send by hand;
 * `problem` is what went wrong, `byHand` that request (or step).
 */
export type PutBack =
  | { ok: true; restored: boolean; note: string }
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
 * Runs `work`, then `putBack` whatever happened: after it returned, failed or threw, and, once the check's time is up
 * (CheckContext.timeUp), at once, without waiting for the work, within the grace period the engine gives a timed-out
 * check. A restore that fails ends the check with CLEAN-UP FAILED (`cleanup`); one that succeeds after a failure or a
 * time-out is noted on the check. The work's own failure is passed on.
 */
export async function withPutBack<T>(
  ctx: CheckContext,
  work: () => Promise<T>,
  putBack: () => Promise<PutBack>,
  options: GuardOptions = {},
): Promise<T> {
  // Time already up (while the state was being saved): the work is not started, so there is nothing to put back.
  if (ctx.timeUp.aborted) throw new TimeUp('the time ran out before the work started');
  const ended = work().then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const timeUp = whenAborted(ctx.timeUp);
  const first = await Promise.race([ended, timeUp.promise]).finally(timeUp.dispose);
  if (first === 'time-up') {
    // The work may still be running (its requests are cut only after the grace period): it is not waited for.
    const put = await putBack();
    // The engine reports it after the time-out: "the check did not finish within … ms; after it: CLEAN-UP FAILED: …".
    if (!put.ok) failCleanUp(ctx, put);
    ctx.observe(`the check's time ran out: ${put.note}`);
    throw new TimeUp('restored after the time-out');
  }
  const passed = first.ok || first.error instanceof CheckSkipped;
  if (passed && options.onlyAfterFailure) return unwrap(first);
  // The work tried to put it back itself, and reported that it could not: once is enough.
  if (!first.ok && first.error instanceof CheckFailed && first.error.finding.cleanup) throw first.error;
  const put = await putBack();
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
