// One cause, one failure. A defect many checks meet (an envelope whose code is a number, a list answer without meta,
// a 401 without the error body) fails the check that owns its requirement; the others record it as also seen
// (CheckContext.alsoSee) or give up on a failure it caused (Finding.cause). Which of them the run counts can only be
// decided once the owner's result is known, so the engine settles each result here before reporting it. A defect its
// owner did not see (its own answers were right, or it did not run) still fails, in the check that saw it.
import type { AlsoSeen, CheckResult, Finding } from './types.js';
import { requirementsBroken } from './verdict.js';

/** The owner's result: the result, `undefined` for a check the run did not select, `'pending'` while it runs. */
export type OwnerLookup = (id: string) => CheckResult | undefined | 'pending';

/** The checks whose results `result` waits on: the owners it names. */
export function ownersOf(result: CheckResult): string[] {
  return [
    ...new Set([
      ...(result.alsoSeen ?? []).map((s) => s.ownedBy),
      ...(result.finding?.cause ? [result.finding.cause.ownedBy] : []),
    ]),
  ];
}

/**
 * The result as the run counts it. `failOn` decides, as for any failure, whether a failure this makes fails the run.
 * Call it once every owner `result` names has a result (or is not selected).
 */
export function settleOneCause(result: CheckResult, owner: OwnerLookup, failOn: 'must' | 'should'): CheckResult {
  const cause = result.finding?.cause;
  if (cause && caught(owner(cause.ownedBy), cause.requirements)) {
    const finding = result.finding!;
    const seen: AlsoSeen = {
      requirements: cause.requirements,
      ownedBy: cause.ownedBy,
      message: finding.message,
      ...(finding.exchangeSeq !== undefined ? { exchangeSeq: finding.exchangeSeq } : {}),
    };
    const { finding: _dropped, ...rest } = result;
    return {
      ...rest,
      outcome: 'skip',
      skipReason: `not judged here: ${finding.message}; its cause breaks ${cause.requirements.join(', ')}, owned by ${cause.ownedBy}, which fails for it`,
      alsoSeen: [...(result.alsoSeen ?? []), seen],
      failsRun: false,
    };
  }
  if (result.outcome !== 'pass' || result.level === 'INFO') return result;
  // A defect no owner judged fails here, where it was seen, if this check cites what it breaks.
  const cited = new Set(result.requirements.map((r) => r.id));
  const unjudged = (result.alsoSeen ?? []).find(
    (s) => !caught(owner(s.ownedBy), s.requirements) && s.requirements.some((r) => cited.has(r)),
  );
  if (unjudged === undefined) return result;
  const own = owner(unjudged.ownedBy);
  const finding: Finding = {
    message: unjudged.message,
    expected: `${unjudged.requirements.join(', ')} ${unjudged.requirements.length > 1 ? 'hold' : 'holds'} in every answer; ${unjudged.ownedBy} owns ${unjudged.requirements.length > 1 ? 'them' : 'it'} but ${own === undefined ? 'did not run' : own === 'pending' ? 'had not finished' : own.outcome === 'pass' ? 'saw it nowhere in its own answers' : `did not judge it (${own.outcome})`}, so this check does`,
    requirements: unjudged.requirements.filter((r) => cited.has(r)),
    ...(unjudged.exchangeSeq !== undefined ? { exchangeSeq: unjudged.exchangeSeq } : {}),
  };
  const outcome = result.level === 'MUST' ? 'fail' : 'warn';
  return {
    ...result,
    outcome,
    finding,
    alsoSeen: (result.alsoSeen ?? []).filter((s) => s !== unjudged),
    failsRun: outcome === 'fail' || failOn === 'should',
  };
}

/** Whether the owner failed (or warned) for one of `requirements`. */
function caught(owner: CheckResult | undefined | 'pending', requirements: readonly string[]): boolean {
  if (owner === undefined || owner === 'pending') return false;
  if (owner.outcome !== 'fail' && owner.outcome !== 'warn') return false;
  const broken = requirementsBroken(owner);
  return requirements.some((r) => broken.includes(r));
}
