import type { CheckResult } from '../engine/index.js';

/** Checks grouped by suite, suites in the order they first appear (results are already in stable order). */
export function bySuite(checks: CheckResult[]): Map<string, CheckResult[]> {
  const groups = new Map<string, CheckResult[]>();
  for (const check of checks) {
    const group = groups.get(check.suite);
    if (group) group.push(check);
    else groups.set(check.suite, [check]);
  }
  return groups;
}
