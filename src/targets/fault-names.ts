// The --fault names of the built-in target, checked where the command line is read (src/cli/early-checks.ts, before
// the reference server loads) and where the target starts (./local.ts, for library callers): one message for both.
import { ConfigError } from '../errors.js';
import { findFault } from '../reference/faults/catalog.js';

/** A usage error for the first name that is no fault of the reference server's catalog. */
export function checkFaultNames(names: readonly string[]): void {
  for (const name of names)
    if (!findFault(name))
      throw new ConfigError(
        `--fault: unknown fault "${name}"; 'conformance serve --list-faults' lists them`,
        'CONFORMANCE_ERR_USAGE',
      );
}
