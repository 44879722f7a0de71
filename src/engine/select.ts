import { ConfigError } from '../errors.js';
import type { CheckDefinition, SuiteDefinition } from './check.js';

export interface Selection {
  suites?: string[];
  grep?: string;
  /** Only these check ids (`--rerun-failed`); combined with suites and grep, a check must match all three. */
  ids?: string[];
}

/** The checks a run executes, in declaration order: suites in registry order, checks in file order. */
export function selectChecks(suites: SuiteDefinition[], selection: Selection = {}): CheckDefinition[] {
  const known = suites.map((s) => s.name as string);
  const wanted = selection.suites?.map((s) => s.trim()).filter(Boolean);
  for (const name of wanted ?? []) {
    if (!known.includes(name))
      throw new ConfigError(
        `--suite: unknown suite "${name}"; choose from ${known.join(', ')}`,
        'CONFORMANCE_ERR_USAGE',
      );
  }
  let pattern: RegExp | undefined;
  if (selection.grep !== undefined) {
    try {
      pattern = new RegExp(selection.grep, 'i');
    } catch {
      throw new ConfigError(`--grep: "${selection.grep}" is not a valid regular expression`, 'CONFORMANCE_ERR_USAGE');
    }
  }
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
