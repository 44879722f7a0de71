// `--rerun-failed REPORT.json`: the checks an earlier run did not pass, read from its JSON report.
import { ConfigError } from '../errors.js';
import { readOptionFile } from '../option-file.js';
import { JSON_REPORT_FORMAT, readJsonReport } from './json.js';

/** Outcomes worth running again: the server fell short (fail, warn) or the check could not finish (error). */
const RERUN_OUTCOMES = new Set(['fail', 'warn', 'error']);

/** The ids of the checks that failed, warned or errored in REPORT, in its order. Not a conformance report: exit 2. */
export async function failedIdsFromReport(file: string, cwd: string = process.cwd()): Promise<string[]> {
  const { resolved, text } = await readOptionFile(
    '--rerun-failed',
    file,
    cwd,
    'give the JSON report of an earlier run (conformance run --json FILE)',
  );
  const report = readJsonReport(text);
  if (!report) {
    throw new ConfigError(
      `--rerun-failed: ${resolved} is not a conformance JSON report (format "${JSON_REPORT_FORMAT}"): give the file an earlier run wrote with --json FILE`,
      'CONFORMANCE_ERR_RERUN_REPORT',
    );
  }
  return report.checks.filter((c) => RERUN_OUTCOMES.has(c.outcome)).map((c) => c.id);
}

// An earlier report with nothing to run again (the CLI exits 0 and says so): an error with a code, so it lives with the others.
export { NothingToRerun } from '../errors.js';

/**
 * The checks to run again from REPORT: those it lists as failed, warned or errored that this version still has (and
 * that `within` keeps, when given), with those it no longer has.
 */
export async function rerunSelection(
  report: string,
  knownIds: readonly string[],
  options: { cwd?: string; within?: readonly string[] } = {},
): Promise<{ ids: string[]; gone: string[] }> {
  const failed = await failedIdsFromReport(report, options.cwd);
  const gone = failed.filter((id) => !knownIds.includes(id));
  const ids = failed.filter((id) => knownIds.includes(id) && (!options.within || options.within.includes(id)));
  return { ids, gone };
}
