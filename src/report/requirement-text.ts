// How a check's requirements read in reports: the sections they stand under, and each requirement with its quote.
// Quotes come from the catalog through the check result, so every report shows the spec's own words.
import type { CheckInfo, Finding, RequirementRef } from '../engine/index.js';

/** Quotes shown in a failure before the rest are summed up: a schema check may cite a whole table. */
const SHOWN = 3;

/** The spec sections a check's requirements stand under, in order, each once: "Customer; Customers". */
export function sectionsOf(check: Pick<CheckInfo, 'requirements'>): string {
  return [...new Set(check.requirements.map((r) => r.section))].join('; ');
}

/** `REQ-ENV-03 (Response envelope): "| code | string | yes | … |"`. */
export function requirementLine(r: RequirementRef): string {
  return `${r.id} (${r.section}): "${r.quote}"`;
}

/**
 * The requirements a failure is about: those the finding names, else all the check cites, at most SHOWN of them with
 * a count of the rest (`conformance explain` lists them all).
 */
export function specLines(
  check: Pick<CheckInfo, 'id' | 'requirements'>,
  finding?: Pick<Finding, 'requirements'>,
): string[] {
  const named = finding?.requirements?.length
    ? check.requirements.filter((r) => finding.requirements!.includes(r.id))
    : [];
  const shown = named.length > 0 ? named : check.requirements;
  const lines = shown.slice(0, SHOWN).map(requirementLine);
  if (shown.length > SHOWN)
    lines.push(`… and ${shown.length - SHOWN} more requirements (conformance explain ${check.id})`);
  return lines;
}
