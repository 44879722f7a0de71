// No vacuous pass (issue 26). A check records each subject it judged (CheckContext.judged: an answer, a record, a
// page, a delivery, a link, a view…). One that ended without a finding yet judged nothing saw nothing to judge: an
// empty list, nothing followed, no delivery. That is not a pass, whatever its level (an INFO check's subject is what it
// read its observation from): the engine makes it a skip that says so. A check should skip itself earlier, with a
// reason of its own; this is the fallback that names the check. A failure or a warning always judged something and is
// left alone, as is an error or a skip.
import type { CheckResult } from './types.js';

/** The reason of a check skipped because it judged nothing. */
export function judgedNothingReason(id: string): string {
  return `judged nothing: ${id} ended without a finding but saw no subject to judge (it recorded none), so it did not pass`;
}

/**
 * The result as the rule makes it count: a pass that judged nothing becomes a skip; `judged` stays on passes only.
 * Applied once one cause, one failure has settled the result (a defect seen for an owner that did not judge it fails
 * the check that saw it, a judgement of its own) and before the expected failures (a check that judged nothing did not
 * show the deviation fixed).
 */
export function requireJudged(result: CheckResult): CheckResult {
  const { judged, ...rest } = result;
  if (result.outcome !== 'pass') return rest;
  if (judged !== undefined && judged.count > 0) return result;
  return { ...rest, outcome: 'skip', skipReason: judgedNothingReason(result.id), failsRun: false };
}
