// The MUST requirements a run did not exercise, one line per cause instead of one per requirement: a check skipped
// without --long keeps five requirements from the verdict, a --suite run leaves a whole suite's out. The JSON and
// HTML reports list each requirement with its quote.
import type { UnexercisedRequirement } from '../engine/index.js';
import { gapText } from './verdict-text.js';

/** Requirement ids shown on a cause's line before the rest are counted. */
const IDS_SHOWN = 6;
/** Checks named on a cause's line before the rest are counted. */
const CHECKS_SHOWN = 3;

interface Cause {
  /** What kept them from the verdict, and what to do: "skipped: runs only with --long: … → run with --long". */
  text: string;
  /** The checks it stopped; none named for a check left out by --suite, whose reason names its suite. */
  checks: string[];
  ids: string[];
}

/**
 * Each cause with the checks it stopped and the requirements it kept from being exercised, in the order they first
 * appear: checks skipped for the same reason (a scenario not run) make one cause, and so do the checks of a suite that
 * --suite left out. A requirement that several causes keep out is counted under each.
 */
function causesOf(notExercised: readonly UnexercisedRequirement[]): Cause[] {
  const causes = new Map<string, Cause>();
  for (const r of notExercised) {
    for (const check of r.checks) {
      const text = `${gapText(check)} → ${check.remedy}`;
      const cause = causes.get(text) ?? { text, checks: [], ids: [] };
      if (check.outcome !== 'not-selected' && !cause.checks.includes(check.id)) cause.checks.push(check.id);
      if (!cause.ids.includes(r.id)) cause.ids.push(r.id);
      causes.set(text, cause);
    }
  }
  return [...causes.values()];
}

/** The first `shown` of a list, then how many more. */
function listed(items: readonly string[], shown: number): string {
  const rest = items.length > shown ? ` and ${items.length - shown} more` : '';
  return `${items.slice(0, shown).join(', ')}${rest}`;
}

/** `5 MUST requirements: auth.expiry.after-60-minutes skipped: … → run with --long (REQ-TOKEN-03, REQ-LIFE-04, …)`. */
export function unexercisedCauseLines(notExercised: readonly UnexercisedRequirement[]): string[] {
  return causesOf(notExercised).map(({ text, checks, ids }) => {
    const named = checks.length > 0 ? `${listed(checks, CHECKS_SHOWN)} ` : '';
    return `${ids.length} MUST requirement${ids.length === 1 ? '' : 's'}: ${named}${text} (${listed(ids, IDS_SHOWN)})`;
  });
}
