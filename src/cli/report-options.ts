// The options `run` and `client` share (main.ts addReportOptions), as commander hands them over.
import type { FailOnPolicy } from './fail-on.js';

export interface ReportCommandOptions {
  junit?: string;
  json?: string;
  html?: string;
  pdf?: string;
  chromium?: string;
  har?: string;
  evidence?: string;
  /** --fail-on, parsed (main.ts parseFailOn). */
  failOn: FailOnPolicy;
}

/** What the library entry points (`run`, `runClient`) take of them: the report paths and the fail-on policy. */
export function reportSettings(opts: ReportCommandOptions) {
  const { junit, json, html, pdf, chromium, har, evidence } = opts;
  return { junit, json, html, pdf, chromium, har, evidence, ...opts.failOn };
}
