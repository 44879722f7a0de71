// `conformance judge FILE.har`: grades the server's side, the client's or both of recorded traffic (issue 30) and
// reports like `run`.
import { NOT_EXERCISED_FOLDS, judge, judgeSideOf } from '../judge-api.js';
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
  const result = await judge({
    file,
    side: judgeSideOf(opts.side),
    ...(opts.target !== undefined ? { target: opts.target } : {}),
    ...(opts.config !== undefined ? { config: opts.config } : {}),
    ...(opts.baseUrl !== undefined ? { baseUrl: opts.baseUrl } : {}),
    ...reportSettings(opts),
    reporters: [humanReporterForStdout({ style: humanStyleOf(opts), foldedSkips: NOT_EXERCISED_FOLDS })],
  });
  writeReportsLine(opts);
  return result.exitCode;
}
