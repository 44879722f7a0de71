import { setFlagsFromString } from 'node:v8';
import { run } from '../api.js';
import { RunInterrupted } from '../errors.js';
import { DEFAULT_INTERRUPT_GRACE_MS } from '../engine/interrupt.js';
import type { RunJournal } from '../journal/journal.js';
import type { RunResult } from '../engine/index.js';
import { localOptionsOf } from './local-options.js';
import { humanReporterForStdout } from '../report/human.js';
import { NothingToRerun } from '../report/rerun.js';
import { humanStyleOf, reportSettings, type ReportCommandOptions } from './report-options.js';
import { writeReportsLine } from './reports-written.js';
import type { Choices, VariantName } from '../reference/choices/index.js';

export interface RunCommandOptions extends ReportCommandOptions {
  target: string;
  config?: string;
  suite?: string;
  grep?: string;
  long: boolean;
  allowMutations: boolean;
  ussdMaxViews?: number;
  ussdMaxDepth?: number;
  timeout: number;
  maxBody: number;
  /** Milliseconds, parsed from "90s", "10m", "1h". */
  budget: number;
  concurrency?: number;
  variant?: VariantName;
  choice?: Partial<Choices>;
  fault?: string;
  expectedFailures?: string;
  rerunFailed?: string;
}

/**
 * `conformance run`: returns the exit code (0 pass, 1 a check that fails the run failed, or an INCOMPLETE verdict under
 * --fail-on incomplete; 130 or 143 when SIGINT or SIGTERM interrupted it).
 *
 * SIGINT and SIGTERM stop the run (src/engine/interrupt.ts): no check starts, what the run changed is put back within
 * DEFAULT_INTERRUPT_GRACE_MS, the reports are written with the verdict INTERRUPTED, and one line on stderr says what
 * was put back and what was not. A second signal stops the process at once, saying what is left to put back.
 */
export async function runCommand(opts: RunCommandOptions): Promise<number> {
  // undici parses HTTP with llhttp compiled to WebAssembly; V8 recompiles its hot functions with TurboFan on background
  // threads early in a run, a passing ~6 MB of compiler memory at the run's peak for code that parses a few hundred
  // small answers. Its baseline code (Liftoff) parses them well enough. Set before the first request compiles llhttp.
  setFlagsFromString('--liftoff-only');
  const stopping = new AbortController();
  let journal: RunJournal | undefined;
  let first: RunInterrupted | undefined;
  let hardStop: NodeJS.Timeout | undefined;
  const restoreHint = opts.target === 'local' ? '' : restoreCommand(opts);
  const stopAtOnce = (signal: NodeJS.Signals, why: string): never => {
    const left = journal?.summary().open ?? [];
    process.stderr.write(
      `conformance: stopped at once (${why}): ${
        left.length === 0
          ? 'nothing it changed was left to put back'
          : `not put back: ${left.map((o) => `${o.what}: restore it by hand: ${o.byHand}`).join('; ')}${restoreHint && `; the next run or \`${restoreHint}\` puts ${left.length === 1 ? 'it' : 'them'} back`}`
      }\n`,
    );
    process.exit(new RunInterrupted(signal).exitCode);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (first !== undefined) stopAtOnce(signal, `${signal} again`);
    first = new RunInterrupted(signal);
    process.stderr.write(
      `conformance: ${signal}: stopping; no new check starts, and what the run changed is put back (at most ${DEFAULT_INTERRUPT_GRACE_MS / 1000} s; ${signal} again stops at once)\n`,
    );
    stopping.abort(first);
    // The engine bounds the restores; the reports then take moments. Past both, the process ends all the same.
    hardStop = setTimeout(
      () => stopAtOnce(signal, 'the time to put back what the run changed ran out'),
      DEFAULT_INTERRUPT_GRACE_MS + 10_000,
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let result: RunResult;
  try {
    result = await run({
      target: opts.target,
      config: opts.config,
      suites: opts.suite?.split(','),
      grep: opts.grep,
      ...reportSettings(opts),
      long: opts.long,
      allowMutations: opts.allowMutations,
      ussdMaxViews: opts.ussdMaxViews,
      ussdMaxDepth: opts.ussdMaxDepth,
      requestTimeoutMs: opts.timeout,
      maxBodyBytes: opts.maxBody,
      budgetMs: opts.budget,
      ...(opts.concurrency !== undefined ? { concurrency: opts.concurrency } : {}),
      ...(opts.expectedFailures !== undefined ? { expectedFailures: opts.expectedFailures } : {}),
      ...(opts.rerunFailed !== undefined ? { rerunFailed: opts.rerunFailed } : {}),
      reporters: [humanReporterForStdout({ style: humanStyleOf(opts) })],
      local: localOptionsOf(opts),
      signal: stopping.signal,
      onJournal: (j) => (journal = j),
    });
  } catch (e) {
    // An earlier run that failed nothing leaves nothing to rerun: a success to report, not an error.
    if (e instanceof NothingToRerun) {
      process.stdout.write(`conformance: ${e.message}\n`);
      return 0;
    }
    throw e;
  } finally {
    clearTimeout(hardStop);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  writeReportsLine(opts);
  if (result.run.interrupted) {
    process.stderr.write(`conformance: ${interruptedLine(result, restoreHint)}\n`);
    // What an expired grace left running (a restore's request) must not keep the process: it ends soon all the same.
    setTimeout(() => process.exit(result.exitCode), 2_000).unref();
  }
  return result.exitCode;
}

/** The one line an interrupted run ends with: by what, what was put back, what was not (with the request by hand). */
function interruptedLine(result: RunResult, restoreHint: string): string {
  const stopped = result.run.interrupted!;
  const put =
    stopped.putBack.length > 0 ? `put back ${stopped.putBack.join('; ')}` : 'nothing it changed was left to put back';
  const notPut =
    stopped.notPutBack.length > 0
      ? `; NOT put back: ${stopped.notPutBack.join('; ')}${restoreHint && `; the next run or \`${restoreHint}\` tries again`}`
      : '';
  return `interrupted${stopped.signal !== undefined ? ` by ${stopped.signal}` : ''}: no check started after it; ${put}${notPut}; verdict INTERRUPTED, exit ${result.exitCode}`;
}

function restoreCommand(opts: Pick<RunCommandOptions, 'target' | 'config'>): string {
  return `conformance restore --target ${opts.target}${opts.config !== undefined ? ` --config ${opts.config}` : ''}`;
}
