// The MUST requirements a run did not exercise, one line per cause instead of one per requirement: a check skipped
// without --long keeps five requirements from the verdict, a --suite run leaves a whole suite's out. The JSON and
// HTML reports list each requirement with its quote.
import type { UnexercisedRequirement } from '../engine/index.js';
import { gapText } from './verdict-text.js';

/** Requirement ids shown on a cause's line before the rest are counted. */
const IDS_SHOWN = 6;

interface Cause {
  /** What kept them from the verdict, and what to do: "auth.expiry.after-60-minutes skipped: … → run with --long". */
  text: string;
  ids: string[];
}

/**
 * Each cause with the requirements it kept from being exercised, in the order they first appear. A check left out by
 * --suite is named by its suite alone (the reason says which), so a suite's checks make one cause; a requirement that
 * several causes keep out is counted under each.
 */
function causesOf(notExercised: readonly UnexercisedRequirement[]): Cause[] {
  const causes = new Map<string, Cause>();
  for (const r of notExercised) {
    for (const check of r.checks) {
      const why = check.outcome === 'not-selected' ? gapText(check) : `${check.id} ${gapText(check)}`;
      const text = `${why} → ${check.remedy}`;
      const cause = causes.get(text) ?? { text, ids: [] };
      if (!cause.ids.includes(r.id)) cause.ids.push(r.id);
      causes.set(text, cause);
    }
  }
  return [...causes.values()];
}

/** `5 MUST requirements: auth.expiry.after-60-minutes skipped: … → run with --long (REQ-TOKEN-03, REQ-LIFE-04, …)`. */
export function unexercisedCauseLines(notExercised: readonly UnexercisedRequirement[]): string[] {
  return causesOf(notExercised).map(({ text, ids }) => {
    const shown = ids.slice(0, IDS_SHOWN).join(', ');
    const rest = ids.length > IDS_SHOWN ? ` and ${ids.length - IDS_SHOWN} more` : '';
    return `${ids.length} MUST requirement${ids.length === 1 ? '' : 's'}: ${text} (${shown}${rest})`;
  });
}
