// The library entry point behind `conformance run`: resolve the target, run the selected suites, write the reports.
import { loadConfig, selectTarget, BUILTIN_TARGET } from './config/load.js';
import type { LoadedConfig, ResolvedTarget } from './config/types.js';
import { runChecks, type FailOn } from './engine/run.js';
import type { RunResult } from './engine/types.js';
import { ReporterMux, type Reporter, type ReporterFailure } from './report/reporter.js';
import { checkOutputPaths } from './report/output-paths.js';
import type { Choices, VariantName } from './reference/choices/index.js';
import { ConfigError, withCode } from './errors.js';
import { loadExpectedFailures, type ExpectedFailure } from './engine/expected-failures.js';
import { NothingToRerun, rerunSelection } from './engine/rerun.js';
import { suites } from '../suites/index.js';

export interface RunOptions {
  /** A loaded config, or the path of a config file; by default conformance.config.json in `cwd` when present. */
  config?: LoadedConfig | string;
  cwd?: string;
  /** Target name; `local` (the embedded reference server) when absent. */
  target?: string;
  suites?: string[];
  grep?: string;
  /** Which check failures fail the run: `must` (default) or `should` (SHOULD warnings too). */
  failOn?: FailOn;
  /** An INCOMPLETE verdict (MUST requirements not exercised) fails the run too, exit code 1 (`--fail-on incomplete`). */
  failOnIncomplete?: boolean;
  /** Write a JUnit XML report to this path. */
  junit?: string;
  /** Write the JSON report to this path. */
  json?: string;
  /** Write the self-contained HTML report to this path. */
  html?: string;
  /** Write every exchange as HAR 1.2 to this path. */
  har?: string;
  /** Write a signed evidence package (reports, manifest, signature with the target's key) into this directory. */
  evidence?: string;
  /** More reporters (e.g. the terminal one). */
  reporters?: Reporter[];
  long?: boolean;
  /** Let the USSD crawler follow order (amount) and cancel (cancelMode=true) links. */
  allowMutations?: boolean;
  /** Caps of the USSD crawl (defaults in runner/run.ts). */
  ussdMaxViews?: number;
  ussdMaxDepth?: number;
  /** For the built-in target only: how the embedded reference server makes the spec's open choices, and which faults it has. */
  local?: { variant?: VariantName; choices?: Partial<Choices>; faults?: readonly string[] };
  requestTimeoutMs?: number;
  checkTimeoutMs?: number;
  maxBodyBytes?: number;
  /** Time for the whole run in ms (default 30 minutes); past it the checks left are reported as errors. */
  budgetMs?: number;
  /** Checks running at once (default: the target's `concurrency`, else 4); 1 runs them one after the other. */
  concurrency?: number;
  /** Known deviations: the path of a JSON file (schemas/expected-failures.schema.json, relative to cwd), or the entries. */
  expectedFailures?: string | readonly ExpectedFailure[];
  /** Run only the checks that failed, warned or errored in this JSON report of an earlier run (relative to cwd). */
  rerunFailed?: string;
  /** Run only these check ids (with suites and grep, a check must match all). */
  checkIds?: string[];
  /** Told of what the user should know but that does not stop the run (checks of a rerun report that no longer exist). */
  onWarning?: (line: string) => void;
  /** Told when a reporter throws (the others still write; the result is unchanged); by default one line on stderr. */
  onReporterFailure?: (failure: ReporterFailure) => void;
}

export async function run(options: RunOptions = {}): Promise<RunResult> {
  const name = options.target ?? BUILTIN_TARGET;
  // Report writers, the evidence packager and the embedded server are loaded only when asked for: a run pays in start-up
  // time and memory for what it uses (the JUnit writer alone is 20 MB).
  checkOutputPaths([
    { option: '--junit', path: options.junit },
    { option: '--json', path: options.json },
    { option: '--html', path: options.html },
    { option: '--har', path: options.har },
  ]);
  const reporters: Reporter[] = [...(options.reporters ?? [])];
  if (options.junit) reporters.push(new (await import('./report/junit.js')).JunitReporter(options.junit));
  if (options.json) reporters.push(new (await import('./report/json.js')).JsonReporter(options.json));
  if (options.html) reporters.push(new (await import('./report/html.js')).HtmlReporter(options.html));
  if (options.har) reporters.push(new (await import('./report/har.js')).HarReporter(options.har));
  const evidence = options.evidence ? await import('./evidence/package.js') : undefined;
  // Checked before a server is started or a request sent: a bad directory should cost nothing.
  if (options.evidence) await evidence!.checkEvidenceDir(options.evidence);
  // Files the selection depends on are read first too: a typo in them is a usage error before any request.
  const knownIds = suites.flatMap((s) => s.checks.map((c) => c.id));
  const expectedFailures = typeof options.expectedFailures === 'string' ? await loadExpectedFailures(options.expectedFailures, knownIds, options.cwd) : options.expectedFailures;
  let ids = options.checkIds;
  if (options.rerunFailed !== undefined) {
    const selection = await rerunSelection(options.rerunFailed, knownIds, { ...(options.cwd ? { cwd: options.cwd } : {}), ...(ids ? { within: ids } : {}) });
    if (selection.gone.length > 0) (options.onWarning ?? warnOnStderr)(`--rerun-failed: ${selection.gone.length} check(s) of the report no longer exist in this version and are left out: ${selection.gone.join(', ')}`);
    if (selection.ids.length === 0) throw new NothingToRerun(options.rerunFailed);
    ids = selection.ids;
  }

  let target: ResolvedTarget;
  let stop: (() => Promise<void>) | undefined;
  const notes: string[] = [];
  if (name === BUILTIN_TARGET) {
    const { startLocalTarget } = await import('./targets/local.js');
    const local = await startLocalTarget(options.local);
    target = local.target;
    stop = local.stop;
    notes.push(`target: ${local.describe}`);
  } else {
    if (options.local?.faults?.length || options.local?.variant || Object.keys(options.local?.choices ?? {}).length > 0) {
      throw new ConfigError('--fault, --variant and --choice apply to the built-in target "local" only', 'CONFORMANCE_ERR_USAGE');
    }
    const config = typeof options.config === 'object' ? options.config : await loadConfig({ configPath: options.config, cwd: options.cwd, target: name });
    target = selectTarget(config, name);
  }
  try {
    // The package is signed with the target's own request-signing key, which only exists once the target is resolved.
    if (options.evidence) reporters.push(new evidence!.EvidenceReporter(options.evidence, { keyId: target.keyId, privateKey: target.privateKey }));
    return await runChecks({
      target,
      suites,
      selection: { suites: options.suites, grep: options.grep, ...(ids ? { ids } : {}) },
      failOn: options.failOn,
      failOnIncomplete: options.failOnIncomplete ?? false,
      reporter: new ReporterMux(reporters, options.onReporterFailure ?? reportFailureOnStderr),
      flags: {
        long: options.long ?? false,
        allowMutations: options.allowMutations ?? false,
        ...(options.ussdMaxViews !== undefined ? { ussdMaxViews: options.ussdMaxViews } : {}),
        ...(options.ussdMaxDepth !== undefined ? { ussdMaxDepth: options.ussdMaxDepth } : {}),
      },
      requestTimeoutMs: options.requestTimeoutMs,
      checkTimeoutMs: options.checkTimeoutMs,
      maxBodyBytes: options.maxBodyBytes,
      budgetMs: options.budgetMs,
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
      ...(expectedFailures ? { expectedFailures } : {}),
      notes,
    });
  } finally {
    await stop?.();
  }
}

/** A reporter that failed, in one line: which, and why (its message, never a stack). */
function reportFailureOnStderr(failure: ReporterFailure): void {
  const why = failure.error instanceof Error ? failure.error.message : String(failure.error);
  process.stderr.write(`conformance: ${withCode(`the ${failure.reporter} failed (${failure.hook}): ${why.split('\n')[0]}; the other reports were written`, 'CONFORMANCE_ERR_REPORTER')}\n`);
}

function warnOnStderr(line: string): void {
  process.stderr.write(`conformance: ${line}\n`);
}
