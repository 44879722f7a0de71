// Runs one check: its context, its time limit (and the run's budget and interruption), and what ended it read as an
// outcome. A check's failure, exception, timeout or hang ends in a result, never in a throw.
import { CredentialsRefused, ThrottledOut, TransportError, type SignedClient } from '../http/client.js';
import { BudgetSpent } from './budget.js';
import { CheckTimeout, errorCode, RunInterrupted } from '../errors.js';
import type { ResolvedTarget } from '../config/types.js';
import { checkInfo, type CheckDefinition } from './check.js';
import { CheckContext } from './context.js';
import type { Pack } from './pack.js';
import type { RunSession, SuiteRun } from './session.js';
import { CheckFailed, CheckSkipped } from './outcomes.js';
import type { CheckResult, Finding, Outcome, RunFlags, SkipRemedy } from './types.js';
import type { Interruption } from './interrupt.js';
import type { RestoreJournal } from '../journal/journal.js';
import type { SetupFindings } from './setup-findings.js';

/** Which check failures fail the run: MUST failures only, or SHOULD warnings too. */
export type FailOn = 'must' | 'should';

export interface RunOneDeps {
  target: ResolvedTarget;
  client: SignedClient;
  session: RunSession;
  flags: RunFlags;
  failOn: FailOn;
  pack: Pack;
  suiteRun: SuiteRun;
  /** The state the check's suite set up for the run. */
  state: unknown;
  timeoutMs: number;
  /** When the run's budget ends (ms since the epoch): a check still running then is stopped, and `spent` set. */
  budget: { budgetMs: number; deadline: number; spent: boolean };
  /** Changes checks could not undo (findings marked `cleanup`): reported with the run's clean-up problems. */
  cleanupProblems: string[];
  /** The set-up problems the checks stated, and which one stopped each check. */
  setupFindings: SetupFindings;
  /** When the run started (ms since the epoch): results say when, after it, their check started. */
  runStarted: number;
  /** The run's interruption: once it comes, the check is stopped as at its time limit, its requests cut at once. */
  interruption: Interruption;
  journal: RestoreJournal;
  /** Gives the check's slot to another while it waits on something that is not a request (CheckContext.idle). */
  idle: <T>(wait: Promise<T>) => Promise<T>;
}

/**
 * After its time limit a check gets this long (at most its own limit again), network still open, to finish what it
 * started (a PUT it must undo: CheckContext.timeUp tells it the time is up); only then are its requests cut. What it
 * reports in that time is kept, so a failed restore is never lost.
 */
const CHECK_CLEANUP_GRACE_MS = 15_000;

/** How a check ended, before redaction: its outcome and what it found or why it was skipped. */
interface Ending {
  outcome: Outcome;
  finding?: Finding;
  skipReason?: string;
  skipRemedy?: SkipRemedy;
  budgetSpent?: boolean;
}

export async function runOne(check: CheckDefinition, deps: RunOneDeps): Promise<CheckResult> {
  const started = Date.now();
  const abort = new AbortController();
  const timeUp = new AbortController();
  const ctx = contextOf(check, deps, abort.signal, timeUp.signal);
  const limit = timeLimit(deps, started, timeUp, abort);
  // Each attempt counts its own subjects judged (a pack may run the body once more).
  const attempt = () => (ctx.startAttempt(), check.run(ctx));
  const body = deps.session.runCheck(check, attempt, {
    observe: (text) => ctx.observe(text),
    signal: abort.signal,
  });
  let ending: Ending = { outcome: 'pass' };
  try {
    await Promise.race([body, limit.reached]);
  } catch (err) {
    ending = await endingOf(err, check, deps, body);
  } finally {
    limit.clear();
    abort.abort();
  }
  return resultOf(check, ctx, redacted(ending, deps.client), deps, started);
}

/** The check's context: the run's client, session and state, and where its set-up problems are recorded. */
function contextOf(check: CheckDefinition, deps: RunOneDeps, signal: AbortSignal, timeUp: AbortSignal): CheckContext {
  return new CheckContext({
    check: checkInfo(check),
    target: deps.suiteRun.target,
    credentials: { clientId: deps.target.clientId, clientSecret: deps.target.clientSecret },
    fixtures: deps.target.fixtures,
    flags: deps.flags,
    session: deps.session,
    signal,
    timeUp,
    client: deps.client,
    uses: check.uses ?? [],
    stateChangedBy: (method, path) => deps.pack.stateChangedBy(method, path),
    state: deps.state,
    options: deps.suiteRun.options,
    setupProblem: (found) => {
      const redact = (t: string) => deps.client.redactor.text(t);
      deps.setupFindings.record(check.suite, check.id, { problem: redact(found.problem), fix: redact(found.fix) });
    },
    journal: deps.journal,
    idle: deps.idle,
  });
}

/**
 * What ends the check early: its own time limit, or the run's budget when that comes first, or the run's interruption
 * (which also cuts its requests at once). `reached` rejects with the reason; `clear` forgets all three.
 */
function timeLimit(
  deps: RunOneDeps,
  started: number,
  timeUp: AbortController,
  abort: AbortController,
): { reached: Promise<never>; clear(): void } {
  let timer: NodeJS.Timeout | undefined;
  let forgetStop = () => {};
  const left = deps.budget.deadline - started;
  const reached = new Promise<never>((_, reject) => {
    const end = (err: Error) => {
      timeUp.abort(err);
      reject(err);
    };
    if (left < deps.timeoutMs) timer = setTimeout(() => end(new BudgetSpent(deps.budget.budgetMs)), Math.max(0, left));
    else timer = setTimeout(() => end(new CheckTimeout(deps.timeoutMs)), deps.timeoutMs);
    // Interrupted: the time is up at once, and the check's requests are cut (its restores send on their own).
    forgetStop = deps.interruption.onStop((why) => {
      end(why);
      abort.abort(why);
    });
  });
  return {
    reached,
    clear: () => {
      clearTimeout(timer);
      forgetStop();
    },
  };
}

/** What ended the check, read as its outcome; a throw that is no outcome of a check's is the check's own bug. */
async function endingOf(err: unknown, check: CheckDefinition, deps: RunOneDeps, body: Promise<void>): Promise<Ending> {
  const failing = (finding: Finding): Ending => ({ outcome: check.level === 'MUST' ? 'fail' : 'warn', finding });
  if (err instanceof CheckSkipped)
    return { outcome: 'skip', skipReason: err.reason, ...(err.remedy ? { skipRemedy: err.remedy } : {}) };
  if (err instanceof CheckFailed) return failing(err.finding);
  let ending: Ending;
  if (err instanceof ThrottledOut)
    // Not this check's finding but the run's (its note): the check was not judged.
    ending = { outcome: 'error', finding: { message: err.message } };
  else if (err instanceof CredentialsRefused)
    // Not the server's silence but its link elsewhere: the finding names the origin it pointed at.
    ending = failing({ message: err.message, observed: err.message, exchangeSeq: err.exchange.seq });
  else if (err instanceof TransportError)
    // The server gave no usable answer (refused, reset, timed out, oversized): a finding against the server.
    ending = failing({
      message: `no usable response: ${err.message}`,
      observed: err.message,
      exchangeSeq: err.exchange.seq,
    });
  else if (err instanceof RunInterrupted) ending = await interruptedEnding(err, deps, body);
  else if (err instanceof CheckTimeout || err instanceof BudgetSpent) ending = await timedOutEnding(err, deps, body);
  else
    ending = {
      outcome: 'error',
      finding: { message: `the check itself broke: ${(err as Error)?.message ?? String(err)}` },
    };
  return { ...ending, finding: { ...ending.finding!, code: errorCode(err) ?? 'CONFORMANCE_ERR_INTERNAL' } };
}

/** Interrupted: an error, with what the check's body still reported in the time the interruption leaves. */
async function interruptedEnding(err: RunInterrupted, deps: RunOneDeps, body: Promise<void>): Promise<Ending> {
  const late = await lateReport(body, Math.min(CHECK_CLEANUP_GRACE_MS, deps.interruption.left()));
  return {
    outcome: 'error',
    finding: {
      message: `${err.message} while the check ran${late ? `; after it: ${late.message}` : ''}`,
      ...(late?.cleanup ? { cleanup: true } : {}),
    },
  };
}

/** Out of time (its own limit, or the run's budget): an error, with what the body reported in its grace period. */
async function timedOutEnding(err: CheckTimeout | BudgetSpent, deps: RunOneDeps, body: Promise<void>): Promise<Ending> {
  const spent = err instanceof BudgetSpent;
  if (spent) deps.budget.spent = true;
  const late = await lateReport(body, Math.min(CHECK_CLEANUP_GRACE_MS, deps.timeoutMs, spent ? 2_000 : Infinity));
  return {
    outcome: 'error',
    finding: late
      ? { message: `${err.message}; after it: ${late.message}`, ...(late.cleanup ? { cleanup: true } : {}) }
      : { message: err.message },
    ...(spent ? { budgetSpent: true } : {}),
  };
}

/** Findings and skip reasons quote server data: any credential in them is masked, as in the exchanges. */
function redacted(ending: Ending, client: SignedClient): Ending {
  const redact = (t: string) => client.redactor.text(t);
  const { finding, skipReason } = ending;
  return {
    ...ending,
    ...(finding
      ? {
          finding: {
            ...finding,
            message: redact(finding.message),
            ...(finding.expected !== undefined ? { expected: redact(finding.expected) } : {}),
            ...(finding.observed !== undefined ? { observed: redact(finding.observed) } : {}),
          },
        }
      : {}),
    ...(skipReason ? { skipReason: redact(skipReason) } : {}),
  };
}

function resultOf(
  check: CheckDefinition,
  ctx: CheckContext,
  ending: Ending,
  deps: RunOneDeps,
  started: number,
): CheckResult {
  const { outcome, finding, skipReason, skipRemedy, budgetSpent } = ending;
  const redact = (t: string) => deps.client.redactor.text(t);
  // A change the check could not undo is a problem of the run, not only of the check: it is listed with the clean-up.
  if (finding?.cleanup) deps.cleanupProblems.push(`${check.id}: ${finding.message}`);
  const failsRun = outcome === 'fail' || (outcome === 'warn' && check.level === 'SHOULD' && deps.failOn === 'should');
  return {
    ...checkInfo(check),
    outcome,
    ...(finding ? { finding } : {}),
    ...(skipReason ? { skipReason } : {}),
    ...(skipRemedy ? { skipRemedy } : {}),
    ...(budgetSpent ? { budgetSpent } : {}),
    // Settled by requireJudged: a pass that judged nothing is a skip.
    judged: { count: ctx.subjectsJudged.count, names: ctx.subjectsJudged.names.map(redact) },
    observations: ctx.observations.map(redact),
    ...(ctx.alsoSeen.length > 0 ? { alsoSeen: ctx.alsoSeen.map((a) => ({ ...a, message: redact(a.message) })) } : {}),
    ...(ctx.sharedExchanges.length > 0 ? { sharedExchanges: ctx.sharedExchanges } : {}),
    exchanges: ctx.exchanges,
    startMs: started - deps.runStarted,
    durationMs: Date.now() - started,
    failsRun,
  };
}

/** What a timed-out check's body reported within the grace period (its failure), if anything. */
async function lateReport(body: Promise<void>, graceMs: number): Promise<Finding | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<'grace'>((resolve) => {
    timer = setTimeout(() => resolve('grace'), graceMs);
  });
  try {
    await Promise.race([body, grace]);
    return undefined;
  } catch (err) {
    return err instanceof CheckFailed ? err.finding : undefined;
  } finally {
    clearTimeout(timer);
  }
}
