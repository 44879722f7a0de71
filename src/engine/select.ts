import { ConfigError } from '../errors.js';
import type { CheckDefinition, SuiteDefinition } from './check.js';

export interface Selection {
  suites?: string[];
  grep?: string;
  /** Only these check ids (`--rerun-failed`); combined with suites and grep, a check must match all three. */
  ids?: string[];
}

/**
 * The suite names asked for, trimmed; a usage error for one that `known` does not hold. Exported for the command line,
 * which checks a --suite before it loads the pack (src/cli/early-checks.ts).
 */
export function wantedSuites(known: readonly string[], asked: readonly string[] | undefined): string[] | undefined {
  const wanted = asked?.map((s) => s.trim()).filter(Boolean);
  for (const name of wanted ?? []) {
    if (!known.includes(name))
      throw new ConfigError(
        `--suite: unknown suite "${name}"; choose from ${known.join(', ')}`,
        'CONFORMANCE_ERR_USAGE',
      );
  }
  return wanted;
}

/** A --grep as the pattern checks are matched with (case-insensitive); a usage error for one that is no pattern. */
export function grepPattern(grep: string | undefined): RegExp | undefined {
  if (grep === undefined) return undefined;
  try {
    return new RegExp(grep, 'i');
  } catch {
    throw new ConfigError(`--grep: "${grep}" is not a valid regular expression`, 'CONFORMANCE_ERR_USAGE');
  }
}

/** The checks a run executes, in declaration order: suites in registry order, checks in file order. */
export function selectChecks(suites: SuiteDefinition[], selection: Selection = {}): CheckDefinition[] {
  const wanted = wantedSuites(
    suites.map((s) => s.name as string),
    selection.suites,
  );
  const pattern = grepPattern(selection.grep);
  const checks = suites
    .filter((s) => !wanted || wanted.includes(s.name))
    .flatMap((s) => s.checks)
    .filter((c) => !pattern || pattern.test(c.id) || pattern.test(c.title))
    .filter((c) => !selection.ids || selection.ids.includes(c.id));
  if (checks.length === 0)
    throw new ConfigError(
      `no check matches the selection${selection.grep ? ` --grep ${selection.grep}` : ''}${selection.ids ? ' and the checks to rerun' : ''}; see 'conformance list'`,
      'CONFORMANCE_ERR_NO_CHECK_SELECTED',
    );
  return checks;
}
