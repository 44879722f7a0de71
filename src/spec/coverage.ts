// Which checks cover which part of the spec. A check covers the sections its `spec.section` cites; a section no check
// cites may still be checked by checks of other sections that quote it ("data = Asset" checks the Asset table through
// its JSON Schema). What stays uncovered says why: the spec leaves it open, it cannot be seen from outside, or no check
// has been written yet.
import type { CheckInfo, Level } from '../runner/types.js';
import { parseCitations, resolveCitation, type SpecSection, type SpecTable } from './sections.js';

export interface CheckRef {
  id: string;
  level: Level;
  title: string;
}

export type SectionStatus = 'covered' | 'quoted' | 'through-subsections' | 'elsewhere' | 'open' | 'not-testable' | 'no-check';

export interface TableCoverage {
  line: number;
  caption: string;
  columns: string[];
  rows: string[];
  /** The checks of the table's section that cover this table. */
  checks: string[];
  /**
   * named: the checks name the table's endpoint; section: they cover the section it is in; elsewhere: its rows are
   * checked where other sections restate them; none: no check.
   */
  through: 'named' | 'section' | 'elsewhere' | 'none';
}

export interface SectionCoverage {
  level: 2 | 3;
  heading: string;
  parent?: string;
  line: number;
  status: SectionStatus;
  /** Checks whose spec.section cites this section. */
  cites: CheckRef[];
  /** Checks citing other sections whose sentence or title names this one (e.g. "data = Asset"). */
  quotes: CheckRef[];
  tables: TableCoverage[];
  /** Points the section leaves open ("not shown", "unresolved"). */
  open: string[];
  /** Why nothing covers it, for the statuses other than covered. */
  why?: string;
}

export interface Coverage {
  sections: SectionCoverage[];
  /** RFC sections checks cite beside the spec's (RFC 9421 practice the spec points to). */
  rfc: Array<{ citation: string; checks: string[] }>;
  /** Citations that name no section of the spec: a check to correct. */
  unresolved: Array<{ id: string; citation: string }>;
}

/**
 * Sections no check can observe from outside, with the reason. Keyed by normalised heading; a section that gains a
 * check simply stops being listed as uncovered, so a stale entry here is harmless.
 */
const NOT_BLACK_BOX: Record<string, string> = {
  versioning:
    'not black-box testable: the /v1 prefix is part of the base URL the config gives (every request of the run uses it), the number 0.0.1 is a property of the document, and the deprecation policy is not shown',
};

/** Sections whose requirements are checked where the spec states them again, with where. */
const CHECKED_ELSEWHERE: Record<string, string> = {
  'states named by the interface':
    'each state list is an enum checked with the resource that carries it (### Customer, ### Account (investment account), ### Webhook, and the requests menu status filter under ### USSD views); the transitions between states are not shown',
};

export function computeCoverage(sections: SpecSection[], checks: CheckInfo[]): Coverage {
  const cites = new Map<SpecSection, CheckInfo[]>();
  const rfc = new Map<string, string[]>();
  const unresolved: Coverage['unresolved'] = [];
  for (const check of checks) {
    for (const citation of parseCitations(check.spec.section)) {
      if (citation.kind === 'rfc') {
        rfc.set(citation.text, [...(rfc.get(citation.text) ?? []), check.id]);
        continue;
      }
      const section = resolveCitation(citation, sections);
      if (!section) unresolved.push({ id: check.id, citation: citation.text });
      else if (!cites.get(section)?.includes(check)) cites.set(section, [...(cites.get(section) ?? []), check]);
    }
  }

  const coverage = sections.map((section): SectionCoverage => {
    const citing = cites.get(section) ?? [];
    const name = quotedName(section.heading);
    const quoting = checks.filter((c) => !citing.includes(c) && name.test(`${c.title}\n${c.spec.sentence}`));
    const covering = [...citing, ...quoting];
    return {
      level: section.level,
      heading: section.heading,
      ...(section.parent ? { parent: section.parent } : {}),
      line: section.line,
      status: citing.length > 0 ? 'covered' : quoting.length > 0 ? 'quoted' : 'no-check',
      cites: citing.map(ref),
      quotes: quoting.map(ref),
      tables: section.tables.map((t) => tableCoverage(t, covering, section.tables.length > 1)),
      open: [...section.open],
    };
  });

  for (const entry of coverage) {
    if (entry.status !== 'no-check') continue;
    const children = coverage.filter((c) => c.parent === entry.heading && c.level === 3);
    const key = sections.find((s) => s.heading === entry.heading)!.key;
    if (children.some((c) => c.status === 'covered' || c.status === 'quoted')) {
      entry.status = 'through-subsections';
      entry.why = 'its subsections are covered; it has no requirement of its own beyond them';
    } else if (CHECKED_ELSEWHERE[key]) {
      entry.status = 'elsewhere';
      entry.why = CHECKED_ELSEWHERE[key];
      for (const table of entry.tables) table.through = 'elsewhere';
    } else if (NOT_BLACK_BOX[key]) {
      entry.status = 'not-testable';
      entry.why = NOT_BLACK_BOX[key];
    } else if (entry.open.length > 0) {
      entry.status = 'open';
      entry.why = `the spec leaves it open: ${entry.open.join(' ')}`;
    } else {
      entry.why = 'no check yet';
    }
  }

  return {
    sections: coverage,
    rfc: [...rfc].map(([citation, ids]) => ({ citation, checks: ids })).sort((a, b) => a.citation.localeCompare(b.citation, 'en', { numeric: true })),
    unresolved,
  };
}

function ref(c: CheckInfo): CheckRef {
  return { id: c.id, level: c.level, title: c.title };
}

/**
 * How a check's text names a section: a one-word heading is a resource or area name ("Asset", "Webhook"), matched as
 * a capitalised whole word so "asset" in running prose does not count; a longer heading is matched as a phrase.
 */
function quotedName(heading: string): RegExp {
  const name = heading.replace(/\([^)]*\)/g, '').trim();
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
  return name.includes(' ') ? new RegExp(`\\b${escaped}\\b`, 'i') : new RegExp(`\\b${escaped}\\b`);
}

function tableCoverage(table: SpecTable, covering: CheckInfo[], several: boolean): TableCoverage {
  const base = { line: table.line, caption: table.caption, columns: [...table.columns], rows: [...table.rows] };
  // Several tables in one section (the three USSD query tables) are told apart by the endpoint in their caption.
  const path = several ? /\/[A-Za-z][\w/{}-]*/.exec(table.caption)?.[0] : undefined;
  if (path) {
    const named = covering.filter((c) => c.title.includes(path) || c.spec.sentence.includes(path));
    if (named.length > 0) return { ...base, checks: named.map((c) => c.id), through: 'named' };
  }
  return { ...base, checks: covering.map((c) => c.id), through: covering.length > 0 ? 'section' : 'none' };
}
