// The options `run` and `client` share (main.ts addReportOptions), as commander hands them over.
import type { FailOnPolicy } from './fail-on.js';
import type { HumanStyle } from '../report/human-style.js';
import type { JunitExchanges } from '../report/junit.js';

export interface ReportCommandOptions {
  junit?: string;
  junitExchanges?: JunitExchanges;
  json?: string;
  html?: string;
  pdf?: string;
  chromium?: string;
  har?: string;
  evidence?: string;
  /** --fail-on, parsed (main.ts parseFailOn). */
  failOn: FailOnPolicy;
  /** --reporter: what the terminal report shows. */
  reporter?: HumanStyle;
  /** -v, --verbose: --reporter verbose. */
  verbose?: boolean;
}

/** The terminal report's style the options ask for. */
export function humanStyleOf(opts: Pick<ReportCommandOptions, 'reporter' | 'verbose'>): HumanStyle {
  return opts.verbose ? 'verbose' : (opts.reporter ?? 'default');
}

/** What the library entry points (`run`, `runClient`) take of them: the report paths and the fail-on policy. */
export function reportSettings(opts: ReportCommandOptions) {
  const { junit, junitExchanges, json, html, pdf, chromium, har, evidence } = opts;
  return { junit, junitExchanges, json, html, pdf, chromium, har, evidence, ...opts.failOn };
}
