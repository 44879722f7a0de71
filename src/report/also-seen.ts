// One cause, one failure, as every report shows it: under a check, the defects it saw that another check owns; under
// the owner, which checks saw its defect too. The lines are the same in the terminal, JUnit and HTML.
import type { AlsoSeen, CheckResult } from '../engine/index.js';

/** `also seen in this answer: REQ-ENV-03 (owned by resources.customers.get): the envelope of GET … has code 200…` */
export function alsoSeenLine(seen: AlsoSeen): string {
  const reqs = seen.requirements.length > 0 ? `${seen.requirements.join(', ')} ` : '';
  return `also seen in this answer: ${reqs}(owned by ${seen.ownedBy}): ${seen.message}`;
}

/** The checks that saw a defect `owner` owns while it failed or warned (none otherwise). */
export function checksThatSaw(owner: CheckResult, checks: readonly CheckResult[]): CheckResult[] {
  if (owner.outcome !== 'fail' && owner.outcome !== 'warn') return [];
  return checks.filter((c) => c.id !== owner.id && (c.alsoSeen ?? []).some((s) => s.ownedBy === owner.id));
}

/**
 * The checks that saw a defect `owner` owns while it failed, for the `seen by` line under the owner's finding; undefined
 * when none did.
 */
export function seenByLine(owner: CheckResult, checks: readonly CheckResult[]): string | undefined {
  const by = checksThatSaw(owner, checks);
  if (by.length === 0) return undefined;
  return `${by.length} other check${by.length === 1 ? '' : 's'}, which do not fail for it: ${by.map((c) => c.id).join(', ')}`;
}
