// `conformance judge FILE.har`: grades the server's side of recorded traffic (issue 30) and reports like `run`.
import { NOT_EXERCISED_FOLD, judge } from '../judge-api.js';
import { UserError } from '../errors.js';
import { humanReporterForStdout } from '../report/human.js';
import { humanStyleOf, reportSettings, type ReportCommandOptions } from './report-options.js';
import { writeReportsLine } from './reports-written.js';

export interface JudgeCommandOptions extends ReportCommandOptions {
  target?: string;
  config?: string;
  baseUrl?: string;
  side: string;
}

/** Returns the exit code: 0 pass, 1 a check that fails the run failed (or INCOMPLETE under --fail-on incomplete). */
export async function judgeCommand(file: string, opts: JudgeCommandOptions): Promise<number> {
  if (opts.side !== 'server') {
    throw new UserError(
      opts.side === 'client' || opts.side === 'both'
        ? `--side ${opts.side}: not yet; judge supports --side server only for now`
        : `--side: "${opts.side}" is not a side; give server (client and both: not yet)`,
      2,
    );
  }
  const result = await judge({
    file,
    ...(opts.target !== undefined ? { target: opts.target } : {}),
    ...(opts.config !== undefined ? { config: opts.config } : {}),
    ...(opts.baseUrl !== undefined ? { baseUrl: opts.baseUrl } : {}),
    ...reportSettings(opts),
    reporters: [humanReporterForStdout({ style: humanStyleOf(opts), foldedSkips: NOT_EXERCISED_FOLD })],
  });
  writeReportsLine(opts);
  return result.exitCode;
}
