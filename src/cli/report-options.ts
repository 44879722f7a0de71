// The options `run` and `client` share (main.ts addReportOptions), as commander hands them over.
import type { FailOnPolicy } from './fail-on.js';
import type { JunitExchanges } from '../report/junit.js';

export interface ReportCommandOptions {
  junit?: string;
  junitExchanges?: JunitExchanges;
  json?: string;
  html?: string;
  har?: string;
  evidence?: string;
  /** --fail-on, parsed (main.ts parseFailOn). */
  failOn: FailOnPolicy;
}

/** What the library entry points (`run`, `runClient`) take of them: the report paths and the fail-on policy. */
export function reportSettings(opts: ReportCommandOptions) {
  const { junit, junitExchanges, json, html, har, evidence } = opts;
  return { junit, junitExchanges, json, html, har, evidence, ...opts.failOn };
}
