// `conformance action-summary --report FILE --exit-code N`: the GitHub Action's summary step (action.yml). Appends the
// run's job summary in Markdown to the file $GITHUB_STEP_SUMMARY names (GitHub shows it on the run's page), or writes
// it to stdout when that is not set. Hidden from --help: the action runs it, not a person at a terminal.
import { appendFile, readFile } from 'node:fs/promises';
import { ConfigError } from '../errors.js';
import { jobSummary } from '../report/job-summary.js';

export interface ActionSummaryOptions {
  report: string;
  exitCode?: string;
}

export async function actionSummaryCommand(
  opts: ActionSummaryOptions,
  env: Record<string, string | undefined> = process.env,
  out: { write(text: string): unknown } = process.stdout,
): Promise<number> {
  let text: string | undefined;
  try {
    text = await readFile(opts.report, 'utf8');
  } catch {
    // No report (the run ended before writing one) or none that can be read: the summary says so in one line.
    text = undefined;
  }
  const exitCode = opts.exitCode !== undefined && /^\d+$/.test(opts.exitCode) ? Number(opts.exitCode) : undefined;
  const summary = jobSummary(text, exitCode, opts.report);
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file) {
    out.write(summary);
    return 0;
  }
  try {
    await appendFile(file, summary, 'utf8');
  } catch (err) {
    throw new ConfigError(
      `action-summary: cannot append to $GITHUB_STEP_SUMMARY (${file}): ${(err as NodeJS.ErrnoException).code ?? 'unknown error'}; unset it to print the summary instead`,
      'CONFORMANCE_ERR_OUTPUT_PATH',
    );
  }
  return 0;
}
