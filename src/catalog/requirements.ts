// The requirement catalog (spec/requirements.json): every normative sentence and table row of the spec with a stable
// id, its verbatim quote and its level. Checks cite requirement ids; what a report shows as "the spec" comes from here,
// so a quote is always the spec's own words. Which checks cover a requirement is declared by the checks, never copied
// into the catalog, so the two cannot drift apart.
import { readFileSync } from 'node:fs';
import { fromPackageRoot } from '../paths.js';
import { sha256Hex } from '../hash.js';
import type { SpecSection } from './sections.js';

/** MUST and SHOULD as in the GUIDE; OPEN: a point the spec leaves open ("not shown", "unresolved"), never failed. */
export type RequirementLevel = 'MUST' | 'SHOULD' | 'OPEN';

export interface Requirement {
  /** Stable id, `REQ-<AREA>-NN`. */
  id: string;
  /** The `##` or `###` heading of the spec the quote stands under. */
  section: string;
  level: RequirementLevel;
  /** The spec's words, verbatim (a table row as its Markdown line). */
  quote: string;
  /**
   * The words of the quote that state the obligation, and whose duty they state (see {@link Obligation}). Every entry
   * of the shipped catalog has one (test/suites/requirements.test.ts); a catalog of a fork may not.
   */
  obligation?: Obligation;
  /** Our commentary: what exactly is required where the quote alone does not say (never part of the quote). */
  note?: string;
  /** Why no check covers it (a MUST or SHOULD with no check must have one). */
  exclusion?: string;
  /** For OPEN: the readings a reasonable server might take. */
  readings?: string[];
  /**
   * `client`: a rule only a client (or its webhook receiver) can keep or break, read from a sentence of the spec that
   * leaves it implied: the client pack (`conformance client`, suites/client/) checks it, the server pack never does.
   * Its obligation's party is the client. Absent: the rule binds the server, and the server pack checks it (a client
   * check may cite it too).
   */
  party?: 'client';
}

/**
 * What a requirement's quote obliges, and whom: the level rule made visible. `text` is the fragment of the quote that
 * states it (the cells of a table row that state it, the clause of a sentence; for an OPEN entry the words that leave
 * it open, such as "not shown"); `party` is whose duty those words state. MUST only where the words state what the
 * server does or gives; what they say a client sends is the client's (checked by the client pack), and for a server
 * at most a SHOULD reading (whose note says why) or an OPEN point. For an OPEN entry, party is whose choice it is.
 */
export interface Obligation {
  text: string;
  party: 'server' | 'client';
}

/** A sentence of the spec that states no requirement, with why (a definition, a pointer, background of an open point). */
export interface ContextSentence {
  section: string;
  quote: string;
  why: string;
}

export interface Catalog {
  specVersion: string;
  requirements: Requirement[];
  context: ContextSentence[];
}

/** What a check or a report carries of a requirement: enough to show it without the catalog. */
export interface RequirementRef {
  id: string;
  level: RequirementLevel;
  section: string;
  quote: string;
  note?: string;
}

export const CATALOG_PATH = ['spec', 'requirements.json'] as const;

let cached: { file: string; catalog: Catalog; byId: Map<string, Requirement> } | undefined;

/** The shipped catalog (read once). */
export function loadCatalog(file: string = fromPackageRoot(...CATALOG_PATH)): Catalog {
  return indexed(file).catalog;
}

function indexed(file: string): NonNullable<typeof cached> {
  if (cached?.file === file) return cached;
  const catalog = JSON.parse(readFileSync(file, 'utf8')) as Catalog;
  cached = { file, catalog, byId: new Map(catalog.requirements.map((r) => [r.id, r])) };
  return cached;
}

const digests = new Map<string, string>();

/** SHA-256 (hex) of the catalog file's bytes: what a report names as the catalog its verdict was judged by. */
export function catalogSha256(file: string = fromPackageRoot(...CATALOG_PATH)): string {
  let digest = digests.get(file);
  if (digest === undefined) {
    digest = sha256Hex(readFileSync(file));
    digests.set(file, digest);
  }
  return digest;
}

export function findRequirement(id: string, file?: string): Requirement | undefined {
  return indexed(file ?? fromPackageRoot(...CATALOG_PATH)).byId.get(id);
}

class UnknownRequirementError extends Error {}

/** The references of the given ids, in the order given; an id the catalog does not have is an error naming it. */
export function requirementRefs(ids: readonly string[], owner: string): RequirementRef[] {
  return ids.map((id) => {
    const r = findRequirement(id);
    if (!r) throw new UnknownRequirementError(`${owner} cites ${id}, which spec/requirements.json does not have`);
    return { id: r.id, level: r.level, section: r.section, quote: r.quote, ...(r.note ? { note: r.note } : {}) };
  });
}

/** The check level that enforcing requirements of this level gives: OPEN points are only ever recorded (INFO). */
export function checkLevelOf(level: RequirementLevel): 'MUST' | 'SHOULD' | 'INFO' {
  return level === 'OPEN' ? 'INFO' : level;
}

// ---- the spec, unit by unit ------------------------------------------------------------------------------------

/** One normative unit of the spec: a sentence of prose or list item, or a table row (its Markdown line). */
export interface SpecUnit {
  section: string;
  text: string;
  kind: 'sentence' | 'row';
}

/** Every sentence and table data row of each section, in document order. */
export function specUnits(sections: readonly SpecSection[]): SpecUnit[] {
  const units: SpecUnit[] = [];
  for (const s of sections) {
    const lines = s.body.split('\n');
    lines.forEach((raw, i) => {
      const line = raw.trim();
      if (line === '') return;
      if (isRow(line)) {
        const next = lines[i + 1]?.trim() ?? '';
        if (isSeparator(line) || isSeparator(next)) return;
        units.push({ section: s.heading, text: line, kind: 'row' });
        return;
      }
      for (const sentence of line.replace(/^(?:[-*]|\d+\.)\s+/, '').split(/(?<=\.)\s+(?=[A-Z`*])/)) {
        if (sentence.trim() !== '') units.push({ section: s.heading, text: sentence.trim(), kind: 'sentence' });
      }
    });
  }
  return units;
}

function isRow(line: string): boolean {
  return /^\|.*\|$/.test(line);
}

function isSeparator(line: string): boolean {
  return /^\|[\s:|-]+\|$/.test(line);
}

/** Whether a quote (of a requirement or a context sentence) covers the unit: one contains the other. */
function covers(quote: string, unit: string): boolean {
  const q = squash(quote);
  const u = squash(unit);
  return q.includes(u) || u.includes(q);
}

function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Units of the spec that no requirement and no context sentence quotes: sentences nobody has read into the catalog. */
export function uncoveredUnits(catalog: Catalog, sections: readonly SpecSection[]): SpecUnit[] {
  const quotes = [...catalog.requirements, ...catalog.context];
  return specUnits(sections).filter((u) => !quotes.some((q) => q.section === u.section && covers(q.quote, u.text)));
}
