// The spec as a list of sections and tables, and the way checks cite them. Checks cite a section by its heading,
// loosely: "Paging meta" for "Paging meta (list responses)", "Authentication 4–5" for items 4 and 5 of
// "## Authentication", several citations joined by "; ", RFC sections beside the spec's. One normalisation serves
// `coverage` and `explain`, so the two always agree on what a citation points to.
import { readFileSync } from 'node:fs';
import { fromPackageRoot } from '../paths.js';

export const SPEC_PATH = ['spec', 'investment-api.md'] as const;

export interface SpecTable {
  /** 1-based line of the table's header row in the spec file. */
  line: number;
  /** What the table is about: the endpoint line just above it, else its section heading. */
  caption: string;
  columns: string[];
  /** First cell of each row, without Markdown code marks: the field, header, status or parameter it specifies. */
  rows: string[];
}

export interface SpecSection {
  level: 2 | 3;
  heading: string;
  /** Normalised heading (see sectionKey). */
  key: string;
  /** The `##` heading a `###` section sits under. */
  parent?: string;
  line: number;
  /** The section's own text, up to the next heading of any level. */
  body: string;
  tables: SpecTable[];
  /** Sentences that leave a point open: "not shown", "unresolved". */
  open: string[];
}

export function readSpec(file: string = fromPackageRoot(...SPEC_PATH)): string {
  return readFileSync(file, 'utf8');
}

/** Every `##` and `###` section of the spec in document order, with its tables. */
export function parseSpec(markdown: string): SpecSection[] {
  const lines = markdown.split(/\r?\n/);
  const sections: SpecSection[] = [];
  let current: { section: SpecSection; bodyLines: string[] } | undefined;
  let parent: string | undefined;
  const finish = () => {
    if (!current) return;
    current.section.body = current.bodyLines.join('\n').trim();
    current.section.tables = tablesIn(current.bodyLines, current.section.line + 1, current.section.heading);
    current.section.open = openPoints(current.section.body);
    sections.push(current.section);
  };
  lines.forEach((line, index) => {
    const heading = /^(#{2,3})\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) {
      finish();
      const level = heading[1]!.length as 2 | 3;
      const name = heading[2]!;
      if (level === 2) parent = name;
      current = {
        section: { level, heading: name, key: sectionKey(name), ...(level === 3 && parent ? { parent } : {}), line: index + 1, body: '', tables: [], open: [] },
        bodyLines: [],
      };
    } else if (/^#\s/.test(line)) {
      finish();
      current = undefined;
    } else {
      current?.bodyLines.push(line);
    }
  });
  finish();
  return sections;
}

function tablesIn(lines: string[], firstLine: number, heading: string): SpecTable[] {
  const tables: SpecTable[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!isRow(lines[i]!) || !isRow(lines[i + 1] ?? '') || !/^\s*\|[\s:|-]+\|\s*$/.test(lines[i + 1]!)) continue;
    const columns = cells(lines[i]!);
    const rows: string[] = [];
    let j = i + 2;
    for (; j < lines.length && isRow(lines[j]!); j++) rows.push(plain(cells(lines[j]!)[0] ?? ''));
    tables.push({ line: firstLine + i, caption: captionBefore(lines, i) ?? heading, columns, rows });
    i = j - 1;
  }
  return tables;
}

function isRow(line: string): boolean {
  return /^\s*\|.*\|\s*$/.test(line);
}

function cells(row: string): string[] {
  return row.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
}

/**
 * The endpoint line (`**GET /ussd/stocks** returns …`) just above a table, which tells apart several tables of one
 * section; other prose above a table ("All fields are required.") names nothing, so the heading serves instead.
 */
function captionBefore(lines: string[], index: number): string | undefined {
  for (let k = index - 1; k >= 0; k--) {
    const text = lines[k]!.trim();
    if (text === '') continue;
    return text.startsWith('**') ? plain(text) : undefined;
  }
  return undefined;
}

/** Markdown emphasis and code marks removed. */
export function plain(text: string): string {
  return text.replace(/\*\*(.+?)\*\*/g, '$1').replace(/`([^`]*)`/g, '$1').trim();
}

function openPoints(body: string): string[] {
  // A list item is a unit of its own; the lines of a paragraph are joined. Then each unit is cut into sentences.
  const units: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) units.push(paragraph.join(' '));
    paragraph = [];
  };
  for (const line of body.split('\n')) {
    if (isRow(line) || line.trim() === '') flush();
    else if (/^\s*(?:[-*]|\d+\.)\s+/.test(line)) {
      flush();
      paragraph.push(line.replace(/^\s*(?:[-*]|\d+\.)\s+/, ''));
    } else paragraph.push(line.trim());
  }
  flush();
  const sentences = units.flatMap((u) => u.split(/(?<=\.)\s+(?=[A-Z*`])/));
  return sentences.map(plain).filter((s) => /\bnot shown\b|\bunresolved\b/i.test(s));
}

/**
 * The form headings and citations are compared in: lower case, without a parenthesised remark and without trailing
 * item numbers ("Authentication 4–5", "Authentication 1, 6").
 */
export function sectionKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/\([^)]*\)/g, ' ')
    .replace(/\s+\d+(?:\s*[–-]\s*\d+)?(?:\s*,\s*\d+(?:\s*[–-]\s*\d+)?)*\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export type Citation = { kind: 'spec'; text: string; key: string; items?: string } | { kind: 'rfc'; text: string };

/** A check's `spec.section` split into what it cites: spec sections (with item numbers) and RFC sections. */
export function parseCitations(section: string): Citation[] {
  return section
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((text): Citation => {
      if (/^RFC\s*\d+/i.test(text)) return { kind: 'rfc', text };
      const items = /\s(\d+(?:\s*[–-]\s*\d+)?(?:\s*,\s*\d+(?:\s*[–-]\s*\d+)?)*)\s*$/.exec(text)?.[1];
      return { kind: 'spec', text, key: sectionKey(text), ...(items ? { items } : {}) };
    });
}

/** The spec section a citation names, if any. */
export function resolveCitation(citation: Citation, sections: SpecSection[]): SpecSection | undefined {
  return citation.kind === 'spec' ? sections.find((s) => s.key === citation.key) : undefined;
}
