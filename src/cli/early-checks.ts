// A command line checked before the command loads the engine, the suites and the reference server (`run`, and `curl`
// for its target): a report path that cannot be written, a typo in --fault, --target, --suite or --grep, or a config file that cannot be
// used, is a usage error that ends about as fast as `--help`, not after a run's start-up. The run checks them all again
// (src/reports.ts, src/api.ts, src/targets/local.ts, src/engine/select.ts) for library callers, with the same messages
// and in the same order; these come before the run's checks of the --evidence folder, --expected-failures and
// --rerun-failed, so of several mistakes on one command line the first one named is among these.
import { ConfigError } from '../errors.js';
import { BUILTIN_TARGET } from '../config/names.js';
import { grepPattern, wantedSuites } from '../engine/select.js';
export { checkReportFiles } from '../report/output-paths.js';
import { localOptionsOf, type LocalFlags } from './local-options.js';

/**
 * The pack's suites, in its order (suites/index.ts), by name alone: importing the pack loads every check. A test holds
 * the two lists equal (test/cli/early-checks.test.ts).
 */
export const SUITE_NAMES: readonly string[] = ['auth', 'signing', 'pagination', 'resources', 'ussd', 'webhooks'];

/** Those of them that start the webhook receiver (SuiteDeclaration.receiver), held equal to the pack's the same way. */
export const RECEIVER_SUITES: readonly string[] = ['webhooks'];

/** Throws the engine's usage error for an unknown suite in `suite` (comma-separated) or a `grep` that is no pattern. */
export function checkSelectionWords(suite: string | undefined, grep: string | undefined): void {
  wantedSuites(SUITE_NAMES, suite?.split(','));
  grepPattern(grep);
}

/**
 * Throws the error of a target the command could not open (src/api.ts resolveTarget): an unknown --fault of the
 * built-in target, the built-in target's flags with another target, a config file that cannot be read or used (found
 * from `cwd`), a target it does not define.
 */
export async function checkTarget(opts: LocalFlags & { target: string; config?: string }, cwd?: string): Promise<void> {
  const local = localOptionsOf(opts);
  if (opts.target === BUILTIN_TARGET) {
    if (local.faults === undefined) return;
    const { checkFaultNames } = await import('../targets/fault-names.js');
    checkFaultNames(local.faults);
    return;
  }
  if (local.faults?.length || local.variant || Object.keys(local.choices ?? {}).length > 0)
    throw new ConfigError(
      '--fault, --variant and --choice apply to the built-in target "local" only',
      'CONFORMANCE_ERR_USAGE',
    );
  const { loadConfig, selectTarget } = await import('../config/load.js');
  // Its warnings (a key file others can read) are the run's to print, once, when it loads the config itself.
  selectTarget(
    await loadConfig({
      configPath: opts.config,
      ...(cwd !== undefined ? { cwd } : {}),
      target: opts.target,
      warn: () => undefined,
    }),
    opts.target,
  );
}
