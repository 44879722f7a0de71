// The one line a run ends with when it wrote reports: where each is, so nobody hunts for them.
import type { ReportCommandOptions } from './report-options.js';

interface WrittenReport {
  label: string;
  path: string;
}

/** The reports the options ask for, in the order they are named; an option of a new report adds its entry here. */
function reportsAskedFor(opts: ReportCommandOptions): WrittenReport[] {
  const entries: Array<[string, string | undefined]> = [
    ['JSON', opts.json],
    ['JUnit', opts.junit],
    ['HTML', opts.html],
    ['PDF', opts.pdf],
    ['HAR', opts.har],
    // A directory reads as one with its slash.
    ['evidence', opts.evidence === undefined || opts.evidence.endsWith('/') ? opts.evidence : `${opts.evidence}/`],
  ];
  return entries.flatMap(([label, path]) => (path === undefined ? [] : [{ label, path }]));
}

/** `reports: JSON r.json · JUnit r.xml · evidence dir/`, or nothing when the run wrote none. */
export function reportsLine(reports: readonly WrittenReport[]): string | undefined {
  return reports.length === 0 ? undefined : `reports: ${reports.map((r) => `${r.label} ${r.path}`).join(' · ')}`;
}

/** The line on stdout, after the terminal report's last. */
export function writeReportsLine(opts: ReportCommandOptions): void {
  const text = reportsLine(reportsAskedFor(opts));
  if (text !== undefined) process.stdout.write(`${text}\n`);
}
