// Runs the selected checks against one target, up to `concurrency` at a time (src/engine/schedule.ts: checks over the
// same shared state run one at a time, in declaration order). One check's failure, exception, timeout or hang never
// stops the others; results come back, and reporters hear of them, in declaration order whatever order they finished in.
import { CredentialsRefused, SignedClient, ThrottledOut, TransportError, type RequestSpec } from '../http/client.js';
import { BudgetSpent, DEFAULT_BUDGET_MS } from './budget.js';
import { CheckTimeout, errorCode, RunInterrupted } from '../errors.js';
import { Redactor } from '../http/redact.js';
import type { Exchange } from '../http/exchange.js';
import type { ResolvedTarget } from '../config/types.js';
import type { Reporter } from './reporter.js';
import { SPEC_VERSION, suiteVersion } from '../version.js';
import type { CheckDefinition, SuiteDefinition } from './check.js';
import { CheckContext, type SetupFinding } from './context.js';
import { checkPack, type Pack } from './pack.js';
import type { RunSession, SuiteRun } from './session.js';
import { CheckFailed, CheckSkipped } from './outcomes.js';
import { selectChecks, type Selection } from './select.js';
import { applyExpectedFailure, checkKnownIds, utcDay, type ExpectedFailure } from './expected-failures.js';
import { runScheduled } from './schedule.js';
import { suiteTimes } from './suite-times.js';
import { computeVerdict } from './verdict.js';
import { ownersOf, settleOneCause, type OwnerLookup } from './one-cause.js';
import { requireJudged } from './judged.js';
import type {
  CheckResult,
  Finding,
  Outcome,
  RunFlags,
  RunOptionsInfo,
  RunResult,
  SetupProblem,
  SkipRemedy,
  Totals,
} from './types.js';
import { catalogSha256 } from '../catalog/requirements.js';
import { Interruption } from './interrupt.js';
import { memoryJournal, type RestoreJournal, type RunJournal } from '../journal/journal.js';

/** Which check failures fail the run: MUST failures only, or SHOULD warnings too. */
type FailOn = 'must' | 'should';

/** How a run goes, whoever asks for it: the CLI, the library (src/api.ts) and the matrices pass these through as they are. */
export interface RunSettings {
  selection?: Selection;
  failOn?: FailOn;
  /** An INCOMPLETE verdict (MUST requirements not exercised) fails the run too (`--fail-on incomplete`). */
  failOnIncomplete?: boolean;
  flags?: Partial<RunFlags>;
  /** Settings of suites that declare some (SuiteDefinition.options), by suite name: `{ ussd: { maxViews: 100 } }`. */
  suiteOptions?: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Time limit of one check, in ms (default 60 s). */
  checkTimeoutMs?: number;
  /** Time limit of one request, in ms. */
  requestTimeoutMs?: number;
  /** Cap on one response body, in bytes. */
  maxBodyBytes?: number;
  /** Time for the whole run, in ms (default 30 minutes): past it, the checks left are errors and the run ends. */
  budgetMs?: number;
  /** Known deviations (--expected-failures): listed failures do not fail the run, listed passes do. */
  expectedFailures?: readonly ExpectedFailure[];
  /** The day expiry dates are compared with (YYYY-MM-DD, UTC); today by default. */
  today?: string;
  /** Checks running at once (default: the target's `concurrency`, else DEFAULT_CONCURRENCY); 1 runs them one after the other. */
  concurrency?: number;
  /** What the run met that is not a check's to judge (the embedded server's choices…): every report shows them. */
  notes?: readonly string[];
  /**
   * The command-line arguments that aim a command at this target again (`--target local --fault …`): every report's
   * replay lines carry them (RunInfo.replay). By default `--target <name>`.
   */
  targetArgs?: readonly string[];
  /**
   * What the caller knows of the options that changed what was tested and the engine does not (the files given, the
   * suites asked for, the built-in server's faults): RunInfo.options, beside the limits and flags the engine fills in.
   */
  recordedOptions?: Omit<RunOptionsInfo, 'long' | 'allowMutations' | 'requestTimeoutMs' | 'maxBodyBytes' | 'budgetMs'>;
  /**
   * Aborted, the run stops (the CLI aborts it on SIGINT and SIGTERM, with a RunInterrupted naming the signal): no check
   * starts, the running ones put back what they changed, the suites' teardowns run, all within `interruptGraceMs`; the
   * result's verdict is INTERRUPTED and its exit code 130 (143 for SIGTERM).
   */
  signal?: AbortSignal;
  /** How long an interrupted run may take to put back what it changed and end, in ms (default 20 s). */
  interruptGraceMs?: number;
}

export interface RunChecksOptions extends RunSettings {
  target: ResolvedTarget;
  pack: Pack;
  /** The pack's suites to run, when not all of them (tests run one); the verdict still speaks for these only. */
  suites?: SuiteDefinition[];
  reporter?: Reporter;
  /**
   * Where the run writes each change it will put back before making it (src/journal/journal.ts), and where what killed
   * runs left is read and put back first (through `pack.putBack`). Kept in memory when absent.
   */
  journal?: RunJournal;
}

/**
 * Checks at once by default: enough to overlap a run's waits (deliveries, slow answers) on a server far away, few
 * enough that a staging server sees less than a single busy browser tab's worth of connections.
 */
const DEFAULT_CONCURRENCY = 4;

export const DEFAULT_CHECK_TIMEOUT_MS = 60_000;

/**
 * The signed client of a target: its key, its CA, its route (a proxy, a client certificate), the limits of one request,
 * and a redactor that knows the target's secrets. A run sends through one; so does a single request of `conformance curl` or `replay`.
 */
export function clientFor(
  target: ResolvedTarget,
  limits: { requestTimeoutMs?: number; maxBodyBytes?: number } = {},
): SignedClient {
  const redactor = new Redactor([
    target.clientSecret,
    target.privateKeyPem,
    Buffer.from(target.privateKey).toString('base64'),
    Buffer.from(target.privateKey).toString('base64url'),
  ]);
  return new SignedClient({
    baseUrl: target.baseUrl,
    clientId: target.clientId,
    keyId: target.keyId,
    privateKey: target.privateKey,
    redactor,
    ...(target.ca ? { ca: target.ca } : {}),
    ...(target.proxy ? { proxy: target.proxy } : {}),
    ...(target.clientCertificate ? { clientCertificate: target.clientCertificate } : {}),
    ...(target.signing ? { signing: target.signing } : {}),
    ...(limits.requestTimeoutMs ? { timeoutMs: limits.requestTimeoutMs } : {}),
    ...(limits.maxBodyBytes ? { maxBodyBytes: limits.maxBodyBytes } : {}),
  });
}

export async function runChecks(options: RunChecksOptions): Promise<RunResult> {
  const { target, pack } = options;
  checkPack(pack);
  const suites = options.suites ?? pack.suites;
  const checks = selectChecks(suites, options.selection);
  const expected = new Map((options.expectedFailures ?? []).map((e) => [e.id, e]));
  checkKnownIds(
    options.expectedFailures ?? [],
    suites.flatMap((s) => s.checks.map((c) => c.id)),
  );
  const today = options.today ?? utcDay();
  const failOn = options.failOn ?? 'must';
  const started = Date.now();
  const client = clientFor(target, options);
  const sessionExchanges: Exchange[] = [];
  const session = pack.openSession(client, target, (e) => sessionExchanges.push(e));
  const flags: RunFlags = { long: false, allowMutations: false, ...options.flags };
  const cleanupProblems: string[] = [];
  const runNotes: string[] = [];
  const setupFindings: SetupFindings = { problems: new Map(), byCheck: new Map() };
  const active = suites.filter((s) => checks.some((c) => c.suite === s.name));
  const journal = options.journal ?? memoryJournal();
  const interruption = new Interruption(options.signal, options.interruptGraceMs);
  const suiteRuns = new Map(
    active.map((s) => [
      s.name,
      suiteRunOf(s, {
        target,
        flags,
        session,
        client,
        suiteOptions: options.suiteOptions,
        sessionExchanges,
        runNotes,
        journal,
      }),
    ]),
  );
  const lives = new Lifecycles();
  let closed = false;

  try {
    // Without a token no check can run: fail fast with exit 3 (one line, no report) rather than report every check as broken.
    await session.open();
    // What killed runs left on the target is put back before this run reads or changes it.
    if (pack.putBack && !interruption.interrupted) {
      const putBack = pack.putBack.bind(pack);
      const send = runSender(session, client, sessionExchanges, runNotes);
      const sendBare = (spec: RequestSpec) => client.send(spec, (e) => sessionExchanges.push(e));
      const replayed = await journal.replay((entry) => putBack(entry, { send, journal, config: target, sendBare }));
      runNotes.push(...replayNotes(replayed));
    }
    // Suites set up once the credentials are open and the target is as it was: a setup may read the target (the
    // webhooks suite saves the client's configuration). A setup that throws ends the run; the finally below tears
    // down the suites set up before it and ends the credentials, so no live token is left behind.
    for (const s of active) await lives.setup(s, suiteRuns.get(s.name)!);
    const replay = {
      targetArgs: [...(options.targetArgs ?? ['--target', target.name])],
      clientId: target.clientId,
      keyId: target.keyId,
      // The profile the session learnt (or the config set): a replay line names only what a check signed otherwise.
      signing: { ...client.signing, components: [...client.signing.components] },
    };
    options.reporter?.onRunStart?.({
      target: target.name,
      baseUrl: target.baseUrl,
      replay,
      checks: checks.map(infoOf),
    });
    const budget = {
      budgetMs: options.budgetMs ?? DEFAULT_BUDGET_MS,
      deadline: started + (options.budgetMs ?? DEFAULT_BUDGET_MS),
      spent: false,
    };
    // A 429 is waited out within the run's budget, never past it.
    client.transport.deadline = budget.deadline;
    const concurrency = options.concurrency ?? target.concurrency ?? DEFAULT_CONCURRENCY;
    const slots: Array<CheckResult | undefined> = new Array(checks.length);
    const settled: CheckResult[] = [];
    const position = new Map(checks.map((c, i) => [c.id, i]));
    const known = new Set(suites.flatMap((s) => s.checks.map((c) => c.id)));
    const owner: OwnerLookup = (id) => {
      const i = position.get(id);
      return i === undefined ? undefined : (slots[i] ?? 'pending');
    };
    // Reporters hear of results in declaration order, each settled once the owners of what it saw have finished: a
    // streamed report reads the same whatever finished first.
    const report = () => {
      for (let i = settled.length; i < checks.length; i++) {
        const raw = slots[i];
        if (raw === undefined || ownersOf(raw).some((id) => owner(id) === 'pending')) return;
        const result = applyExpectedFailure(
          requireJudged(settleOneCause(withKnownOwners(raw, known), owner, failOn)),
          expected.get(raw.id),
          today,
        );
        settled.push(result);
        options.reporter?.onCheckEnd?.(result);
      }
    };
    const tasks = checks.map((c) => ({ ...(c.uses ? { uses: c.uses } : {}), alone: c.alone?.(flags) ?? false }));
    await runScheduled(tasks, concurrency, async (i) => {
      const check = checks[i]!;
      options.reporter?.onCheckStart?.(infoOf(check));
      const result = interruption.reason
        ? notStartedResult(check, interruption.reason)
        : Date.now() >= budget.deadline
          ? budgetSpentResult(check, budget)
          : client.transport.exhausted !== undefined
            ? throttledOutResult(check, client.transport.exhausted)
            : await runOne(check, {
                target,
                client,
                session,
                flags,
                failOn,
                pack,
                suiteRun: suiteRuns.get(check.suite)!,
                state: lives.stateOf(check.suite),
                budget,
                cleanupProblems,
                setupFindings,
                runStarted: started,
                timeoutMs: check.timeoutMs ?? options.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS,
                interruption,
                journal,
              });
      slots[i] = result;
      options.reporter?.onCheckFinished?.(infoOf(check));
      report();
    });
    report();
    const results = settled;
    // Interrupted, the teardowns and the revocation get what is left of the grace period: past it, the reports are
    // written with what there is, and the restore journal keeps what was not put back.
    const torn = await interruption.within(lives.teardownAll(suiteRuns));
    const leftovers =
      torn === 'expired' ? [`${interruptedPast(interruption)}: the suites' clean-up did not finish`] : torn;
    closed = true;
    const closing = await interruption.within(session.close());
    const revokeProblem =
      closing === 'expired' ? `${interruptedPast(interruption)}: the run's token was not revoked` : closing;
    const cleanup = [...(revokeProblem ? [revokeProblem] : []), ...leftovers, ...cleanupProblems];
    const { putBack, open } = journal.summary();
    // A change the run could not put back stays in the journal: the next run, or `conformance restore`, tries again.
    if (open.length > 0 && journal.folder !== undefined)
      runNotes.push(
        `restore journal: ${open.map((o) => o.what).join('; ')} not put back; the journal (${journal.folder}) keeps ${open.length === 1 ? 'it' : 'them'} for the next run or \`conformance restore --target ${target.name}\``,
      );
    // The transport's notes always come: they record whether the server throttled and how it kept its connections.
    const transportNotes = pack.observesOnly ? [] : client.transport.notes();
    const notes = [...(options.notes ?? []), ...runNotes, ...session.notes(), ...transportNotes];
    const finished = Date.now();
    const selection = options.selection ?? {};
    // Over the whole pack, not only the selected checks: what the run left out is what it did not test.
    const setupProblems = setupProblemsOf(setupFindings, results);
    const verdict = computeVerdict({
      pack: suites.flatMap((s) => s.checks.map(infoOf)),
      results,
      selection,
      setupProblems,
      ...(pack.observesOnly ? { outOfReach: false } : {}),
      ...(interruption.reason ? { interrupted: true } : {}),
    });
    const failOnIncomplete = options.failOnIncomplete ?? false;
    const runResult: RunResult = {
      run: {
        target: target.name,
        baseUrl: target.baseUrl,
        suiteVersion: suiteVersion(),
        specVersion: SPEC_VERSION,
        startedAt: new Date(started).toISOString(),
        finishedAt: new Date(finished).toISOString(),
        durationMs: finished - started,
        failOn,
        failOnIncomplete,
        concurrency,
        suites: suiteTimes(results),
        selection: {
          suites: [...new Set(checks.map((c) => c.suite))],
          ...(selection.grep ? { grep: selection.grep } : {}),
          ...(selection.ids ? { ids: [...selection.ids] } : {}),
        },
        ...(cleanup.length > 0 ? { cleanup } : {}),
        ...(interruption.reason
          ? {
              interrupted: {
                ...(interruption.reason.signal !== undefined ? { signal: interruption.reason.signal } : {}),
                putBack,
                notPutBack: open.map((o) => `${o.what}: restore it by hand: ${o.byHand}`),
              },
            }
          : {}),
        ...(setupProblems.length > 0 ? { setupProblems } : {}),
        ...(notes.length > 0 ? { notes } : {}),
        catalogSha256: catalogSha256(),
        options: {
          long: flags.long,
          allowMutations: flags.allowMutations,
          requestTimeoutMs: client.timeoutMs,
          maxBodyBytes: client.maxBodyBytes,
          budgetMs: budget.budgetMs,
          ...options.recordedOptions,
        },
        replay,
      },
      totals: totalsOf(results),
      checks: results,
      sessionExchanges,
      verdict,
      // A run cut short by its budget did not check everything: it cannot pass.
      // So is a run the server throttled past what it may wait (one finding: the run's note, the checks left errored).
      exitCode: interruption.reason
        ? interruption.reason.exitCode
        : results.some((r) => r.failsRun) ||
            budget.spent ||
            client.transport.exhausted !== undefined ||
            (failOnIncomplete && verdict.status === 'INCOMPLETE')
          ? 1
          : 0,
    };
    await options.reporter?.onRunEnd?.(runResult);
    return runResult;
  } finally {
    // A run that ended early (a set-up that failed, a reporter's bug) still puts back what the suites changed and ends
    // its credentials; problems then are lost with the run, as the error that ended it is what the user must see.
    if (!closed) {
      await interruption.within(lives.teardownAll(suiteRuns).catch(() => []));
      await interruption.within(session.close().catch(() => undefined));
    }
    interruption.dispose();
    await client.close();
  }
}

/** The suites' states in one run: set up in order, torn down in reverse, each at most once. */
class Lifecycles {
  private readonly states = new Map<string, unknown>();
  private readonly setUp: SuiteDefinition[] = [];

  async setup(suite: SuiteDefinition, run: SuiteRun): Promise<void> {
    const state = suite.setup ? await suite.setup(run) : undefined;
    this.states.set(suite.name, state);
    this.setUp.push(suite);
  }

  stateOf(suite: string): unknown {
    return this.states.get(suite);
  }

  /** Every suite's teardown, last set up first; what they could not put back, as clean-up lines. Never throws. */
  async teardownAll(runs: Map<string, SuiteRun>): Promise<string[]> {
    const lines: string[] = [];
    for (const suite of this.setUp.splice(0).reverse()) {
      if (!suite.teardown) continue;
      try {
        lines.push(...(await suite.teardown(this.states.get(suite.name), runs.get(suite.name)!)));
      } catch (e) {
        lines.push(
          `${suite.name}: the suite's clean-up broke (${(e as Error)?.message ?? String(e)}); check by hand what its checks changed`,
        );
      }
    }
    return lines;
  }
}

/** What a suite's setup and teardown see of the run. */
function suiteRunOf(
  suite: SuiteDefinition,
  run: {
    target: ResolvedTarget;
    flags: RunFlags;
    session: RunSession;
    client: SignedClient;
    suiteOptions: RunSettings['suiteOptions'];
    sessionExchanges: Exchange[];
    runNotes: string[];
    journal: RestoreJournal;
  },
): SuiteRun {
  const { target, client, session } = run;
  return {
    target: { name: target.name, baseUrl: target.baseUrl, clientId: target.clientId, keyId: target.keyId },
    config: target,
    fixtures: target.fixtures,
    flags: run.flags,
    options: optionsOf(suite, run.suiteOptions),
    session,
    send: runSender(session, client, run.sessionExchanges, run.runNotes),
    note: (text) => run.runNotes.push(client.redactor.text(text)),
    journal: run.journal,
  };
}

/** Sends with the run's token, recording the exchange with the run's own (a suite's setup and teardown, the journal's replay). */
function runSender(
  session: RunSession,
  client: SignedClient,
  sessionExchanges: Exchange[],
  runNotes: string[],
): SuiteRun['send'] {
  return (spec) =>
    session.withToken(
      (token) => client.send({ ...spec, token }, (e) => sessionExchanges.push(e)),
      (note) => runNotes.push(note),
    );
}

/** The run's notes of a replay of the restore journal: what was put back, what could not be, what was left alone. */
function replayNotes(r: Awaited<ReturnType<RunJournal['replay']>>): string[] {
  return [
    ...(r.putBack.length > 0
      ? [`restore journal: put back what an earlier run left (it was killed): ${r.putBack.join('; ')}`]
      : []),
    ...r.failed.map(
      (f) =>
        `restore journal: ${f.what}, which an earlier run left, could not be put back (${f.problem}); restore it by hand: ${f.byHand}`,
    ),
    ...r.busy.map((b) => `restore journal: ${b} belongs to a run still going on this machine: left alone`),
  ];
}

/** "the run was interrupted (SIGINT), and the time given to put back what it changed ran out" */
function interruptedPast(interruption: Interruption): string {
  return `${interruption.reason?.message ?? 'the run was interrupted'}, and the time given to put back what it changed ran out`;
}

/** A suite's settings: its defaults, with what the run set (a setting it does not declare is a mistake of the caller's). */
function optionsOf(suite: SuiteDefinition, given: RunSettings['suiteOptions']): Record<string, number> {
  const declared = suite.options ?? {};
  const set = given?.[suite.name] ?? {};
  for (const name of Object.keys(set))
    if (!(name in declared)) throw new Error(`suite ${suite.name} has no setting "${name}"`);
  return Object.fromEntries(Object.entries(declared).map(([name, o]) => [name, set[name] ?? o.default]));
}

interface RunOneDeps {
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
}

/**
 * After its time limit a check gets this long (at most its own limit again), network still open, to finish what it
 * started (a PUT it must undo: CheckContext.timeUp tells it the time is up); only then are its requests cut. What it reports in that time is kept, so a failed restore is never lost.
 */
const CHECK_CLEANUP_GRACE_MS = 15_000;

async function runOne(check: CheckDefinition, deps: RunOneDeps): Promise<CheckResult> {
  const started = Date.now();
  const abort = new AbortController();
  const timeUp = new AbortController();
  const ctx = new CheckContext({
    check: infoOf(check),
    target: deps.suiteRun.target,
    credentials: { clientId: deps.target.clientId, clientSecret: deps.target.clientSecret },
    fixtures: deps.target.fixtures,
    flags: deps.flags,
    session: deps.session,
    signal: abort.signal,
    timeUp: timeUp.signal,
    client: deps.client,
    uses: check.uses ?? [],
    stateChangedBy: (method, path) => deps.pack.stateChangedBy(method, path),
    state: deps.state,
    options: deps.suiteRun.options,
    setupProblem: (found) => {
      const redact = (t: string) => deps.client.redactor.text(t);
      const fix = redact(found.fix);
      // One problem per suite and fix: the same fix stated again (in other words) is the same problem, a different
      // one is another problem of the suite, kept too, never hidden behind the first.
      const key = JSON.stringify([check.suite, fix]);
      if (!deps.setupFindings.problems.has(key))
        deps.setupFindings.problems.set(key, { suite: check.suite, problem: redact(found.problem), fix });
      deps.setupFindings.byCheck.set(check.id, key);
    },
    journal: deps.journal,
  });
  let outcome: Outcome = 'pass';
  let finding: Finding | undefined;
  let skipReason: string | undefined;
  let skipRemedy: SkipRemedy | undefined;
  let budgetSpent = false;
  let timer: NodeJS.Timeout | undefined;
  let forgetStop = () => {};
  const left = deps.budget.deadline - started;
  const timeout = new Promise<never>((_, reject) => {
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
  // Each attempt counts its own subjects judged (a pack may run the body once more).
  const attempt = () => (ctx.startAttempt(), check.run(ctx));
  const body = deps.session.runCheck(check, attempt, {
    observe: (text) => ctx.observe(text),
    signal: abort.signal,
  });
  try {
    await Promise.race([body, timeout]);
  } catch (err) {
    if (err instanceof CheckSkipped) {
      outcome = 'skip';
      skipReason = err.reason;
      skipRemedy = err.remedy;
    } else if (err instanceof CheckFailed) {
      outcome = check.level === 'MUST' ? 'fail' : 'warn';
      finding = err.finding;
    } else if (err instanceof ThrottledOut) {
      // Not this check's finding but the run's (its note): the check was not judged.
      outcome = 'error';
      finding = { message: err.message };
    } else if (err instanceof CredentialsRefused) {
      // Not the server's silence but its link elsewhere: the finding names the origin it pointed at.
      outcome = check.level === 'MUST' ? 'fail' : 'warn';
      finding = { message: err.message, observed: err.message, exchangeSeq: err.exchange.seq };
    } else if (err instanceof TransportError) {
      // The server gave no usable answer (refused, reset, timed out, oversized): a finding against the server.
      outcome = check.level === 'MUST' ? 'fail' : 'warn';
      finding = { message: `no usable response: ${err.message}`, observed: err.message, exchangeSeq: err.exchange.seq };
    } else if (err instanceof RunInterrupted) {
      outcome = 'error';
      const late = await lateReport(body, Math.min(CHECK_CLEANUP_GRACE_MS, deps.interruption.left()));
      finding = {
        message: `${err.message} while the check ran${late ? `; after it: ${late.message}` : ''}`,
        ...(late?.cleanup ? { cleanup: true } : {}),
      };
    } else if (err instanceof CheckTimeout || err instanceof BudgetSpent) {
      if (err instanceof BudgetSpent) {
        deps.budget.spent = true;
        budgetSpent = true;
      }
      outcome = 'error';
      const late = await lateReport(
        body,
        Math.min(CHECK_CLEANUP_GRACE_MS, deps.timeoutMs, err instanceof BudgetSpent ? 2_000 : Infinity),
      );
      finding = late
        ? { message: `${err.message}; after it: ${late.message}`, ...(late.cleanup ? { cleanup: true } : {}) }
        : { message: err.message };
    } else {
      outcome = 'error';
      finding = { message: `the check itself broke: ${(err as Error)?.message ?? String(err)}` };
    }
    if (finding && !(err instanceof CheckFailed))
      finding = { ...finding, code: errorCode(err) ?? 'CONFORMANCE_ERR_INTERNAL' };
  } finally {
    clearTimeout(timer);
    forgetStop();
    abort.abort();
  }
  // Findings and observations quote server data: mask any credential in them, as in the exchanges.
  const redact = (t: string) => deps.client.redactor.text(t);
  if (finding) {
    finding = {
      ...finding,
      message: redact(finding.message),
      ...(finding.expected !== undefined ? { expected: redact(finding.expected) } : {}),
      ...(finding.observed !== undefined ? { observed: redact(finding.observed) } : {}),
    };
  }
  // A change the check could not undo is a problem of the run, not only of the check: it is listed with the clean-up.
  if (finding?.cleanup) deps.cleanupProblems.push(`${check.id}: ${finding.message}`);
  const failsRun = outcome === 'fail' || (outcome === 'warn' && check.level === 'SHOULD' && deps.failOn === 'should');
  return {
    ...infoOf(check),
    outcome,
    ...(finding ? { finding } : {}),
    ...(skipReason ? { skipReason: redact(skipReason) } : {}),
    ...(skipRemedy ? { skipRemedy } : {}),
    ...(budgetSpent ? { budgetSpent } : {}),
    // Settled by requireJudged: a pass that judged nothing is a skip.
    judged: { count: ctx.subjectsJudged.count, names: ctx.subjectsJudged.names.map(redact) },
    observations: ctx.observations.map(redact),
    ...(ctx.alsoSeen.length > 0 ? { alsoSeen: ctx.alsoSeen.map((a) => ({ ...a, message: redact(a.message) })) } : {}),
    exchanges: ctx.exchanges,
    startMs: started - deps.runStarted,
    durationMs: Date.now() - started,
    failsRun,
  };
}

/** A result that names an owner no check of the pack has is a bug of its check's: an error, never a silent promotion. */
function withKnownOwners(result: CheckResult, known: ReadonlySet<string>): CheckResult {
  const unknown = ownersOf(result).filter((id) => !known.has(id));
  if (unknown.length === 0) return result;
  const { alsoSeen: _seen, ...rest } = result;
  return {
    ...rest,
    outcome: 'error',
    finding: {
      message: `the check itself broke: it names ${unknown.join(', ')} as the owner of what it saw, and no check has that id`,
      code: 'CONFORMANCE_ERR_INTERNAL',
    },
    failsRun: false,
  };
}

/**
 * The set-up problems the checks stated: one per suite and fix (the first words stating it are kept), in the order they
 * were first met.
 */
interface SetupFindings {
  /** By suite and fix (a JSON key of both). */
  problems: Map<string, SetupFinding & { suite: string }>;
  /** Which problem stopped each check (its last attempt's): the check's id → the problem's key. */
  byCheck: Map<string, string>;
}

/**
 * Each set-up problem, stated once, in the order first met, with the checks it stopped: those skipped with remedy
 * `setup` whose last set-up problem it was, in report order.
 */
function setupProblemsOf(found: SetupFindings, results: readonly CheckResult[]): SetupProblem[] {
  return [...found.problems].map(([key, { suite, problem, fix }]) => ({
    suite,
    problem,
    fix,
    checks: results
      .filter((r) => r.skipRemedy?.kind === 'setup' && r.skipRemedy.suite === suite && found.byCheck.get(r.id) === key)
      .map((r) => r.id),
  }));
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

/** A check the run's interruption came before: skipped, not run. */
function notStartedResult(check: CheckDefinition, reason: RunInterrupted): CheckResult {
  return {
    ...infoOf(check),
    outcome: 'skip',
    skipReason: `not run: ${reason.message} before the check started`,
    observations: [],
    exchanges: [],
    durationMs: 0,
    failsRun: false,
  };
}

/** A check the budget left no time for: reported, not run. */
function budgetSpentResult(check: CheckDefinition, budget: { budgetMs: number; spent: boolean }): CheckResult {
  budget.spent = true;
  return {
    ...infoOf(check),
    outcome: 'error',
    finding: { message: new BudgetSpent(budget.budgetMs).message, code: 'CONFORMANCE_ERR_BUDGET_SPENT' },
    budgetSpent: true,
    observations: [],
    exchanges: [],
    durationMs: 0,
    failsRun: false,
  };
}

/** A check left when the run gave up on a throttling server: reported, not run. */
function throttledOutResult(check: CheckDefinition, reason: string): CheckResult {
  return {
    ...infoOf(check),
    outcome: 'error',
    finding: { message: reason, code: 'CONFORMANCE_ERR_THROTTLED_OUT' },
    observations: [],
    exchanges: [],
    durationMs: 0,
    failsRun: false,
  };
}

function infoOf(c: CheckDefinition) {
  return {
    id: c.id,
    title: c.title,
    suite: c.suite,
    level: c.level,
    requirements: c.requirements,
    ...(c.note ? { note: c.note } : {}),
  };
}

function totalsOf(results: CheckResult[]): Totals {
  const count = (o: Outcome) => results.filter((r) => r.outcome === o).length;
  return {
    passed: count('pass'),
    failed: count('fail'),
    warned: count('warn'),
    skipped: count('skip'),
    errored: count('error'),
    total: results.length,
  };
}
