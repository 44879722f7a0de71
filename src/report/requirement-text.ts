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
 * Whose duty a requirement's quoted words state, and which words (its catalog `obligation`): label `obliges`, text
 * `the server: «…»`. A server's SHOULD read from a client's words says so; for an OPEN point, label `open` and whose
 * choice it is. Undefined for a requirement without an obligation (a catalog of a fork).
 */
export function obligationParts(r: {
  level: string;
  party?: string;
  obligation?: { text: string; party: string };
}): { label: 'obliges' | 'open'; text: string } | undefined {
  const o = r.obligation;
  if (!o) return undefined;
  if (r.level === 'OPEN') return { label: 'open', text: `the ${o.party}'s choice: «${o.text}»` };
  const reading = o.party === 'client' && r.party !== 'client' ? ` (the server's ${r.level} is a reading of them)` : '';
  return { label: 'obliges', text: `the ${o.party}: «${o.text}»${reading}` };
}

/**
 * The requirements a failure is about: those the finding names, else all the check cites, at most SHOWN of them with
 * a count of the rest (`conformance explain` lists them all).
 */
export function specLines(
  check: Pick<CheckInfo, 'id' | 'requirements'>,
  finding?: Pick<Finding, 'requirements'>,
): string[] {
  const { shown, more } = specRequirements(check, finding);
  const lines = shown.map(requirementLine);
  if (more !== undefined) lines.push(more);
  return lines;
}

/** The requirements specLines quotes, and the line that sums up the rest when there are more (the HTML report renders them). */
export function specRequirements(
  check: Pick<CheckInfo, 'id' | 'requirements'>,
  finding?: Pick<Finding, 'requirements'>,
): { shown: RequirementRef[]; more?: string } {
  const named = finding?.requirements?.length
    ? check.requirements.filter((r) => finding.requirements!.includes(r.id))
    : [];
  const all = named.length > 0 ? named : check.requirements;
  return {
    shown: all.slice(0, SHOWN),
    ...(all.length > SHOWN
      ? { more: `… and ${all.length - SHOWN} more requirements (conformance explain ${check.id})` }
      : {}),
  };
}
