// The library entry point behind `conformance run`: resolve the target, run the selected suites, write the reports.
import { loadConfig, selectTarget, BUILTIN_TARGET } from './config/load.js';
import type { LoadedConfig, ResolvedTarget } from './config/types.js';
import { runChecks, type FailOn } from './runner/run.js';
import type { RunResult } from './runner/types.js';
import { ReporterMux, type Reporter } from './report/reporter.js';
import { JunitReporter } from './report/junit.js';
import { JsonReporter } from './report/json.js';
import { startLocalTarget } from './targets/local.js';
import type { VariantName } from './reference/variant.js';
import { ConfigError } from './errors.js';
import { suites } from '../suites/index.js';

export interface RunOptions {
  /** A loaded config, or the path of a config file; by default conformance.config.json in `cwd` when present. */
  config?: LoadedConfig | string;
  cwd?: string;
  /** Target name; `local` (the embedded reference server) when absent. */
  target?: string;
  suites?: string[];
  grep?: string;
  failOn?: FailOn;
  /** Write a JUnit XML report to this path. */
  junit?: string;
  /** Write the JSON report to this path. */
  json?: string;
  /** More reporters (e.g. the terminal one). */
  reporters?: Reporter[];
  long?: boolean;
  /** Let the USSD crawler follow order (amount) and cancel (cancelMode=true) links. */
  allowMutations?: boolean;
  /** Caps of the USSD crawl (defaults in runner/run.ts). */
  ussdMaxViews?: number;
  ussdMaxDepth?: number;
  /** For the built-in target only: how the embedded reference server makes the spec's open choices, and which faults it has. */
  local?: { variant?: VariantName; faults?: readonly string[] };
  requestTimeoutMs?: number;
  checkTimeoutMs?: number;
  maxBodyBytes?: number;
}

export async function run(options: RunOptions = {}): Promise<RunResult> {
  const name = options.target ?? BUILTIN_TARGET;
  const reporters: Reporter[] = [...(options.reporters ?? [])];
  if (options.junit) reporters.push(new JunitReporter(options.junit));
  if (options.json) reporters.push(new JsonReporter(options.json));

  let target: ResolvedTarget;
  let stop: (() => Promise<void>) | undefined;
  if (name === BUILTIN_TARGET) {
    const local = await startLocalTarget(options.local);
    target = local.target;
    stop = local.stop;
  } else {
    if (options.local?.faults?.length || options.local?.variant) throw new ConfigError('--fault and --variant apply to the built-in target "local" only');
    const config = typeof options.config === 'object' ? options.config : await loadConfig({ configPath: options.config, cwd: options.cwd, target: name });
    target = selectTarget(config, name);
  }
  try {
    return await runChecks({
      target,
      suites,
      selection: { suites: options.suites, grep: options.grep },
      failOn: options.failOn,
      reporter: new ReporterMux(reporters),
      flags: {
        long: options.long ?? false,
        allowMutations: options.allowMutations ?? false,
        ...(options.ussdMaxViews !== undefined ? { ussdMaxViews: options.ussdMaxViews } : {}),
        ...(options.ussdMaxDepth !== undefined ? { ussdMaxDepth: options.ussdMaxDepth } : {}),
      },
      requestTimeoutMs: options.requestTimeoutMs,
      checkTimeoutMs: options.checkTimeoutMs,
      maxBodyBytes: options.maxBodyBytes,
    });
  } finally {
    await stop?.();
  }
}
