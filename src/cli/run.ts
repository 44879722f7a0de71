import { run } from '../api.js';
import { localOptionsOf } from './local-options.js';
import { humanReporterForStdout } from '../report/human.js';
import { NothingToRerun } from '../report/rerun.js';
import { reportSettings, type ReportCommandOptions } from './report-options.js';
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

/** `conformance run`: returns the exit code (0 pass, 1 a check that fails the run failed, or an INCOMPLETE verdict under --fail-on incomplete). */
export async function runCommand(opts: RunCommandOptions): Promise<number> {
  let result;
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
      reporters: [humanReporterForStdout()],
      local: localOptionsOf(opts),
    });
  } catch (e) {
    // An earlier run that failed nothing leaves nothing to rerun: a success to report, not an error.
    if (e instanceof NothingToRerun) {
      process.stdout.write(`conformance: ${e.message}\n`);
      return 0;
    }
    throw e;
  }
  return result.exitCode;
}
