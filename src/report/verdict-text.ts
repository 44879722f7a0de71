// How the run's verdict (src/engine/verdict.ts) reads in every report, so the terminal, HTML, JUnit, the evidence
// manifest and verify-evidence say the same words.
import type { UnexercisedCheck, UnexercisedRequirement, Verdict } from '../engine/index.js';

/** Requirement ids shown in one line before the rest are counted: the JSON report lists them all. */
const IDS_SHOWN = 8;
/** Characters of a quote in a one-line list entry; the JSON and HTML reports give it whole. */
const QUOTE_SHOWN = 70;

/**
 * One line: the verdict and why. "CONFORMANT: all 180 MUST requirements the checks cite were exercised; none failed",
 * "NOT CONFORMANT: 1 MUST check failed, on 1 MUST requirement: REQ-TOKEN-06", "INCOMPLETE: 3 MUST requirements not
 * exercised (of 189), none failed: REQ-…", "INTERRUPTED: the run was stopped before its end, 40 of 189 MUST requirements
 * exercised, none failed before it; run it again to the end for a verdict".
 */
export function verdictSummary(v: Verdict): string {
  switch (v.status) {
    case 'CONFORMANT':
      return `CONFORMANT: all ${v.mustRequirements} MUST requirements the checks cite were exercised; none failed`;
    case 'NOT CONFORMANT': {
      const rest = v.notExercised.length > 0 ? `; ${v.notExercised.length} more not exercised` : '';
      return `NOT CONFORMANT: ${count(v.failedChecks.length, 'MUST check')} failed, on ${count(v.failed.length, 'MUST requirement')}: ${idList(v.failed)}${rest}`;
    }
    case 'INCOMPLETE':
      return `INCOMPLETE: ${count(v.notExercised.length, 'MUST requirement')} not exercised (of ${v.mustRequirements}), none failed: ${idList(v.notExercised.map((r) => r.id))}`;
    case 'INTERRUPTED': {
      const failed =
        v.failed.length > 0
          ? `${count(v.failedChecks.length, 'MUST check')} failed before it, on ${count(v.failed.length, 'MUST requirement')}: ${idList(v.failed)}`
          : 'none failed before it';
      return `INTERRUPTED: the run was stopped before its end, ${v.exercised} of ${v.mustRequirements} MUST requirements exercised, ${failed}; run it again to the end for a verdict`;
    }
  }
}

/** One line per requirement not exercised: id, the quote cut short, each check and why, then what to do. */
export function unexercisedLine(r: UnexercisedRequirement): string {
  const why = r.checks.map((c) => `${c.id} ${gapText(c)}`).join('; ');
  return `${r.id} "${shortQuote(r.quote)}" — ${why} → ${r.remedy}`;
}

/** Why one check did not run to a pass or fail: "skipped: …", "errored: …", "not selected: …". */
export function gapText(c: UnexercisedCheck): string {
  const reason = c.reason.replace(/\s*[\r\n]+\s*/g, ' ');
  return c.outcome === 'not-selected' ? reason : `${c.outcome === 'skip' ? 'skipped' : 'errored'}: ${reason}`;
}

/** What the verdict leaves out by design, and where to read it. */
export function outOfReachNote(v: Verdict): string {
  return `${count(v.outOfReach, 'MUST requirement')} of the spec ${v.outOfReach === 1 ? 'is' : 'are'} out of reach of a black-box test and not part of the verdict: 'conformance coverage' lists them with why`;
}

/** The run's fail-on policy as given on the command line: "must", "should,incomplete". */
export function failOnText(run: { failOn: 'must' | 'should'; failOnIncomplete?: boolean }): string {
  return [run.failOn, ...(run.failOnIncomplete ? ['incomplete'] : [])].join(',');
}

function shortQuote(quote: string): string {
  const flat = quote.replace(/\s+/g, ' ').trim();
  return flat.length <= QUOTE_SHOWN ? flat : `${flat.slice(0, QUOTE_SHOWN - 1).trimEnd()}…`;
}

function idList(ids: readonly string[]): string {
  return ids.length <= IDS_SHOWN
    ? ids.join(', ')
    : `${ids.slice(0, IDS_SHOWN).join(', ')} and ${ids.length - IDS_SHOWN} more`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
