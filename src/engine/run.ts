// Runs the selected checks against one target, up to `concurrency` at a time (src/engine/schedule.ts: checks over the
// same shared state run one at a time, in declaration order). One check's failure, exception, timeout or hang never
// stops the others; results come back, and reporters hear of them, in declaration order whatever order they finished in.
import { SignedClient, type RequestSpec } from '../http/client.js';
import { DEFAULT_BUDGET_MS } from './budget.js';
import { Redactor } from '../http/redact.js';
import type { Exchange } from '../http/exchange.js';
import type { ResolvedTarget } from '../config/types.js';
import { checkInfo, type CheckDefinition } from './check.js';
import { checkPack } from './pack.js';
import { selectChecks } from './select.js';
import { applyExpectedFailure, checkKnownIds, utcDay } from './expected-failures.js';
import { runScheduled, type TaskSlot } from './schedule.js';
import { ownersOf, settleOneCause, type OwnerLookup } from './one-cause.js';
import { requireJudged } from './judged.js';
import type { CheckResult, RunFlags, RunResult } from './types.js';
import { Interruption } from './interrupt.js';
import { memoryJournal } from '../journal/journal.js';
import { Lifecycles, replayNotes, runSender } from './lifecycles.js';
import { runOne } from './run-one.js';
import { recordedExchange } from '../traffic/responses.js';
import { recordedDelivery } from '../traffic/delivery.js';
import { SetupFindings } from './setup-findings.js';
import { budgetSpentResult, notStartedResult, throttledOutResult } from './unrun.js';
import { runResultOf, type RunEnd } from './run-result.js';
import { AdaptiveConcurrency } from './adaptive-concurrency.js';
import type { Run, RunChecksOptions } from './run-state.js';

/**
 * The most checks at once by default: a browser's connections to one host (HTTP/1.1), so a staging server sees no more
 * than one busy browser tab. The run starts at 4 and moves within it as the server answers (adaptive-concurrency.ts).
 */
const DEFAULT_CONCURRENCY = 6;

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
  const run = prepare(options);
  let ended = false;
  try {
    await open(run);
    const replay = replayOf(run);
    options.reporter?.onRunStart?.({
      target: options.target.name,
      baseUrl: options.target.baseUrl,
      replay,
      checks: run.checks.map(checkInfo),
    });
    const results = await runAll(run);
    ended = true;
    const end = await close(run);
    const runResult = runResultOf(run, results, end, replay);
    await options.reporter?.onRunEnd?.(runResult);
    return runResult;
  } finally {
    // A run that ended early (a set-up that failed, a reporter's bug) still puts back what the suites changed and ends
    // its credentials; problems then are lost with the run, as the error that ended it is what the user must see.
    if (!ended) {
      await run.interruption.within(run.lives.teardownAll().catch(() => []));
      await run.interruption.within(run.session.close().catch(() => undefined));
    }
    run.interruption.dispose();
    await run.client.close();
  }
}

/** Everything known before anything is sent; a mistake of the caller's (an unknown id or setting) throws here. */
function prepare(options: RunChecksOptions): Run {
  const { target, pack } = options;
  checkPack(pack);
  const suites = options.suites ?? pack.suites;
  const checks = selectChecks(suites, options.selection);
  checkKnownIds(
    options.expectedFailures ?? [],
    suites.flatMap((s) => s.checks.map((c) => c.id)),
  );
  const started = Date.now();
  const client = clientFor(target, options);
  const sessionExchanges: Exchange[] = [];
  const deliveries: Exchange[] = [];
  recordObserved(options.observed, client, sessionExchanges, deliveries);
  const session = pack.openSession(client, target, (e) => sessionExchanges.push(e));
  const flags: RunFlags = { long: false, allowMutations: false, ...options.flags };
  const runNotes: string[] = [];
  const journal = options.journal ?? memoryJournal();
  const active = suites.filter((s) => checks.some((c) => c.suite === s.name));
  const parts = {
    target,
    flags,
    session,
    client,
    suiteOptions: options.suiteOptions,
    sessionExchanges,
    deliveries,
    runNotes,
    journal,
  };
  const budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
  const concurrency = options.concurrency ?? target.concurrency ?? DEFAULT_CONCURRENCY;
  return {
    options,
    suites,
    checks,
    expected: new Map((options.expectedFailures ?? []).map((e) => [e.id, e])),
    today: options.today ?? utcDay(),
    failOn: options.failOn ?? 'must',
    started,
    client,
    session,
    sessionExchanges,
    deliveries,
    flags,
    cleanupProblems: [],
    runNotes,
    setupFindings: new SetupFindings(),
    journal,
    interruption: new Interruption(options.signal, options.interruptGraceMs),
    lives: new Lifecycles(active, parts),
    budget: { budgetMs, deadline: started + budgetMs, spent: false },
    adaptive: new AdaptiveConcurrency(concurrency, () => client.transport.throttled),
  };
}

/** Traffic the run judges, recorded as the run's own exchanges and deliveries are: its reports hold all of it. */
function recordObserved(
  observed: RunChecksOptions['observed'],
  client: SignedClient,
  exchanges: Exchange[],
  deliveries: Exchange[],
): void {
  for (const t of observed?.exchanges ?? [])
    exchanges.push(recordedExchange(t, client.redactor, { whole: client.wholeBodies }));
  for (const t of observed?.deliveries ?? []) deliveries.push(recordedDelivery(t, client.redactor));
}

/** The run's credentials, then what killed runs left put back, then the suites set up: in that order. */
async function open(run: Run): Promise<void> {
  const { session, client, sessionExchanges, runNotes, journal, interruption } = run;
  const { pack, target } = run.options;
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
  // webhooks suite saves the client's configuration). A setup that throws ends the run; runChecks's finally tears
  // down the suites set up before it and ends the credentials, so no live token is left behind.
  await run.lives.setupAll();
  // A 429 is waited out within the run's budget, never past it.
  client.transport.deadline = run.budget.deadline;
}

/** What aims a command at the run's target again, and how its requests were signed (RunInfo.replay). */
function replayOf(run: Run): RunResult['run']['replay'] {
  const { target } = run.options;
  return {
    targetArgs: [...(run.options.targetArgs ?? ['--target', target.name])],
    clientId: target.clientId,
    keyId: target.keyId,
    // The profile the session learnt (or the config set): a replay line names only what a check signed otherwise.
    signing: { ...run.client.signing, components: [...run.client.signing.components] },
  };
}

/** Every selected check, scheduled over shared state; the results settled, in declaration order. */
async function runAll(run: Run): Promise<CheckResult[]> {
  const { checks, options } = run;
  const slots: Array<CheckResult | undefined> = new Array(checks.length);
  const settle = settler(run, slots);
  const turnStates = options.pack.turnStates ?? [];
  const suiteOrder = options.pack.suiteOrderStates ?? [];
  const tasks = checks.map((c) => ({
    uses: (c.uses ?? []).filter((u) => !turnStates.includes(u) && !suiteOrder.includes(u)),
    turns: (c.uses ?? []).filter((u) => turnStates.includes(u)),
    groupUses: (c.uses ?? []).filter((u) => suiteOrder.includes(u)),
    group: c.suite,
    alone: c.alone?.(run.flags) ?? false,
  }));
  await runScheduled(
    tasks,
    () => run.adaptive.limit,
    async (i, slot) => {
      const check = checks[i]!;
      options.reporter?.onCheckStart?.(checkInfo(check));
      slots[i] = await resultFor(run, check, slot);
      run.adaptive.answered(slots[i].exchanges.map((e) => e.durationMs));
      options.reporter?.onCheckFinished?.(checkInfo(check));
      settle();
    },
  );
  return settle();
}

/**
 * Reporters hear of results in declaration order, each settled once the owners of what it saw have finished: a
 * streamed report reads the same whatever finished first. Each call settles what it can and returns all settled so far.
 */
function settler(run: Run, slots: ReadonlyArray<CheckResult | undefined>): () => CheckResult[] {
  const { checks, suites, options } = run;
  const settled: CheckResult[] = [];
  const position = new Map(checks.map((c, i) => [c.id, i]));
  const known = new Set(suites.flatMap((s) => s.checks.map((c) => c.id)));
  const owner: OwnerLookup = (id) => {
    const i = position.get(id);
    return i === undefined ? undefined : (slots[i] ?? 'pending');
  };
  return () => {
    for (let i = settled.length; i < checks.length; i++) {
      const raw = slots[i];
      if (raw === undefined || ownersOf(raw).some((id) => owner(id) === 'pending')) break;
      const result = applyExpectedFailure(
        requireJudged(settleOneCause(withKnownOwners(raw, known), owner, run.failOn)),
        run.expected.get(raw.id),
        run.today,
      );
      settled.push(result);
      options.reporter?.onCheckEnd?.(result);
    }
    return settled;
  };
}

/** A check's result: run, or reported unrun when the run was interrupted, is out of budget or gave up on throttling. */
async function resultFor(run: Run, check: CheckDefinition, slot: TaskSlot): Promise<CheckResult> {
  const { interruption, budget, client, options } = run;
  if (interruption.reason) return notStartedResult(check, interruption.reason);
  if (Date.now() >= budget.deadline) return budgetSpentResult(check, budget);
  if (client.transport.exhausted !== undefined) return throttledOutResult(check, client.transport.exhausted);
  return runOne(check, {
    target: options.target,
    client,
    session: run.session,
    flags: run.flags,
    failOn: run.failOn,
    pack: options.pack,
    suiteRun: run.lives.runOf(check.suite),
    state: run.lives.stateOf(check.suite),
    budget,
    cleanupProblems: run.cleanupProblems,
    setupFindings: run.setupFindings,
    runStarted: run.started,
    timeoutMs: check.timeoutMs ?? options.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS,
    interruption,
    journal: run.journal,
    idle: (wait) => slot.idle(wait),
  });
}

/**
 * The suites torn down and the credentials ended. Interrupted, they get what is left of the grace period: past it, the
 * reports are written with what there is, and the restore journal keeps what was not put back.
 */
async function close(run: Run): Promise<RunEnd> {
  const { interruption, journal, runNotes } = run;
  const torn = await interruption.within(run.lives.teardownAll());
  const leftovers =
    torn === 'expired' ? [`${interruptedPast(interruption)}: the suites' clean-up did not finish`] : torn;
  const closing = await interruption.within(run.session.close());
  const revokeProblem =
    closing === 'expired' ? `${interruptedPast(interruption)}: the run's token was not revoked` : closing;
  const { putBack, open } = journal.summary();
  // A change the run could not put back stays in the journal: the next run, or `conformance restore`, tries again.
  if (open.length > 0 && journal.folder !== undefined)
    runNotes.push(
      `restore journal: ${open.map((o) => o.what).join('; ')} not put back; the journal (${journal.folder}) keeps ${open.length === 1 ? 'it' : 'them'} for the next run or \`conformance restore --target ${run.options.target.name}\``,
    );
  return {
    cleanup: [...(revokeProblem ? [revokeProblem] : []), ...leftovers, ...run.cleanupProblems],
    putBack,
    notPutBack: open,
    finished: Date.now(),
  };
}

/** "the run was interrupted (SIGINT), and the time given to put back what it changed ran out" */
function interruptedPast(interruption: Interruption): string {
  return `${interruption.reason?.message ?? 'the run was interrupted'}, and the time given to put back what it changed ran out`;
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
