// The reports a run writes (--junit, --json, --html, --har, --evidence) and the multiplexer that isolates them: one
// wiring for `run` (api.ts) and `client` (client-api.ts), so both commands write the same reports the same way.
import type { Reporter } from './engine/index.js';
import type { JunitExchanges } from './report/junit.js';
import { withCode } from './errors.js';
import { checkReportFiles } from './report/output-paths.js';
import { ReporterMux, type ReporterFailure } from './report/reporter.js';

export interface ReportOptions {
  /** Write a JUnit XML report to this path. */
  junit?: string;
  /** Whose exchanges the JUnit report (and the evidence package's) lists: failing (the default) or all testcases'. */
  junitExchanges?: JunitExchanges;
  /** Write the JSON report to this path. */
  json?: string;
  /** Write the self-contained HTML report to this path. */
  html?: string;
  /** Write the HTML report as a PDF to this path, printed by headless Chromium (report/pdf.ts). */
  pdf?: string;
  /** The browser that prints `pdf`; found as report/pdf.ts findChromium says when absent. */
  chromium?: string;
  /** Write every exchange as HAR 1.2 to this path. */
  har?: string;
  /** Write a signed evidence package (reports, manifest, signature with the target's key) into this directory. */
  evidence?: string;
  /** More reporters (e.g. the terminal one). */
  reporters?: Reporter[];
  /** Told when a reporter throws (the others still write; the result is unchanged); by default one line on stderr. */
  onReporterFailure?: (failure: ReporterFailure) => void;
}

export interface PreparedReports {
  /** Every reporter behind one multiplexer; the evidence package is signed with this key. */
  reporter(signer: { keyId: string; privateKey: Uint8Array }): Reporter;
}

/**
 * Checks every output path and loads the writers asked for, before a server is started or a request sent: a bad path
 * should cost nothing. Writers are loaded only when asked for: a run pays in start-up time and memory for what it uses
 * (the JUnit writer alone is 20 MB).
 */
export async function prepareReports(options: ReportOptions): Promise<PreparedReports> {
  checkReportFiles(options);
  const reporters: Reporter[] = [...(options.reporters ?? [])];
  const junitOptions = { exchanges: options.junitExchanges ?? 'failing' } as const;
  if (options.junit) reporters.push(new (await import('./report/junit.js')).JunitReporter(options.junit, junitOptions));
  if (options.json) reporters.push(new (await import('./report/json.js')).JsonReporter(options.json));
  if (options.html) reporters.push(new (await import('./report/html.js')).HtmlReporter(options.html));
  if (options.pdf) {
    const { findChromium, PdfReporter } = await import('./report/pdf.js');
    reporters.push(new PdfReporter(options.pdf, findChromium(options.chromium)));
  }
  if (options.har) reporters.push(new (await import('./report/har.js')).HarReporter(options.har));
  const evidence = options.evidence ? await import('./evidence/package.js') : undefined;
  if (options.evidence) await evidence!.checkEvidenceDir(options.evidence);
  return {
    reporter: (signer) => {
      // The package is signed with the target's own request-signing key, which only exists once the target is resolved.
      const all = evidence
        ? [...reporters, new evidence.EvidenceReporter(options.evidence!, signer, junitOptions)]
        : reporters;
      return new ReporterMux(all, options.onReporterFailure ?? reportFailureOnStderr);
    },
  };
}

/** A reporter that failed, in one line: which, and why (its message, never a stack). */
function reportFailureOnStderr(failure: ReporterFailure): void {
  const why = failure.error instanceof Error ? failure.error.message : String(failure.error);
  process.stderr.write(
    `conformance: ${withCode(`the ${failure.reporter} failed (${failure.hook}): ${why.split('\n')[0]}; the other reports were written`, 'CONFORMANCE_ERR_REPORTER')}\n`,
  );
}
