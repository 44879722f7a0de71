// What a finished run reports: its info (RunInfo), totals, verdict and exit code, from what it gathered as it went.
import { SPEC_VERSION, suiteVersion } from '../version.js';
import { checkInfo } from './check.js';
import { suiteTimes } from './suite-times.js';
import { computeVerdict } from './verdict.js';
import { catalogSha256 } from '../catalog/requirements.js';
import type { CheckResult, Outcome, RunResult, Totals } from './types.js';
import type { Run } from './run-state.js';

/** How the run ended: what its clean-up could not put back, what the restore journal did, and when. */
export interface RunEnd {
  cleanup: string[];
  putBack: string[];
  notPutBack: Array<{ what: string; byHand: string }>;
  finished: number;
}

export function runResultOf(
  run: Run,
  results: CheckResult[],
  end: RunEnd,
  replay: RunResult['run']['replay'],
): RunResult {
  const { options, client, interruption, budget } = run;
  const { pack, target } = options;
  // The transport's notes always come: they record whether the server throttled and how it kept its connections.
  const transportNotes = pack.observesOnly ? [] : [...client.transport.notes(), concurrencyNote(run)];
  const notes = [...(options.notes ?? []), ...run.runNotes, ...run.session.notes(), ...transportNotes];
  const selection = options.selection ?? {};
  // Over the whole pack, not only the selected checks: what the run left out is what it did not test.
  const setupProblems = run.setupFindings.problemsOf(results);
  const verdict = computeVerdict({
    pack: run.suites.flatMap((s) => s.checks.map(checkInfo)),
    results,
    selection,
    setupProblems,
    ...(pack.observesOnly ? { outOfReach: false } : {}),
    ...(interruption.reason ? { interrupted: true } : {}),
  });
  const failOnIncomplete = options.failOnIncomplete ?? false;
  const { cleanup, finished } = end;
  return {
    run: {
      target: target.name,
      baseUrl: target.baseUrl,
      suiteVersion: suiteVersion(),
      specVersion: SPEC_VERSION,
      startedAt: new Date(run.started).toISOString(),
      finishedAt: new Date(finished).toISOString(),
      durationMs: finished - run.started,
      failOn: run.failOn,
      failOnIncomplete,
      concurrency: run.adaptive.cap,
      suites: suiteTimes(results),
      selection: {
        suites: [...new Set(run.checks.map((c) => c.suite))],
        ...(selection.grep ? { grep: selection.grep } : {}),
        ...(selection.ids ? { ids: [...selection.ids] } : {}),
      },
      ...(cleanup.length > 0 ? { cleanup } : {}),
      ...(interruption.reason
        ? {
            interrupted: {
              ...(interruption.reason.signal !== undefined ? { signal: interruption.reason.signal } : {}),
              putBack: end.putBack,
              notPutBack: end.notPutBack.map((o) => `${o.what}: restore it by hand: ${o.byHand}`),
            },
          }
        : {}),
      ...(setupProblems.length > 0 ? { setupProblems } : {}),
      ...(notes.length > 0 ? { notes } : {}),
      catalogSha256: catalogSha256(),
      options: {
        long: run.flags.long,
        allowMutations: run.flags.allowMutations,
        requestTimeoutMs: client.timeoutMs,
        maxBodyBytes: client.maxBodyBytes,
        budgetMs: budget.budgetMs,
        ...options.recordedOptions,
      },
      replay,
    },
    totals: totalsOf(results),
    checks: results,
    sessionExchanges: run.sessionExchanges,
    ...(run.deliveries.length > 0 ? { deliveries: run.deliveries } : {}),
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

/** How many checks ran at once: the limit followed the server's answers under the cap. */
function concurrencyNote(run: Run): string {
  const { low, high } = run.adaptive.range;
  const span = low === high ? `${low}` : `between ${low} and ${high}`;
  return `checks at once: ${span}, at most ${run.adaptive.cap} (--concurrency); more while answers came back fast and without 429, fewer when they slowed`;
}
