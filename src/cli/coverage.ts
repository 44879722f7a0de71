// `conformance coverage`: every section and requirement table of the spec against the checks that cover it, and for
// what is not covered, why. Reads the spec that ships with the package, so the answer matches this version's checks.
import { existsSync } from 'node:fs';
import { suites } from '../../suites/index.js';
import { ConfigError } from '../errors.js';
import { fromPackageRoot } from '../paths.js';
import { computeCoverage, type Coverage, type SectionCoverage, type SectionStatus } from '../spec/coverage.js';
import { parseSpec, readSpec, SPEC_PATH } from '../spec/sections.js';
import { SPEC_VERSION } from '../version.js';

export interface CoverageOptions {
  json?: boolean;
  /** The spec file; the packaged one by default (tests and forks may point elsewhere). */
  specFile?: string;
}

export function coverageCommand(opts: CoverageOptions = {}, out: { write(text: string): unknown } = process.stdout): number {
  const coverage = specCoverage(opts.specFile);
  out.write(opts.json ? `${JSON.stringify({ specVersion: SPEC_VERSION, ...coverage }, null, 2)}\n` : renderCoverage(coverage));
  return 0;
}

export function specCoverage(specFile: string = fromPackageRoot(...SPEC_PATH)): Coverage {
  if (!existsSync(specFile)) throw new ConfigError(`coverage: the spec is not where this installation keeps it (${specFile}); reinstall conformance`);
  return computeCoverage(parseSpec(readSpec(specFile)), suites.flatMap((s) => s.checks));
}

const STATUS_TEXT: Record<SectionStatus, string> = {
  covered: 'covered',
  quoted: 'covered by checks of other sections',
  'through-subsections': 'covered through its subsections',
  elsewhere: 'covered where other sections restate it',
  open: 'not covered: left open by the spec',
  'not-testable': 'not covered: not black-box testable',
  'no-check': 'not covered: no check yet',
};

const WIDTH = 116;
// Continuation lines start under the text that follows a label ("cited by  ").
const INDENT = '            ';

export function renderCoverage(coverage: Coverage): string {
  const lines: string[] = [`Spec ${SPEC_VERSION} (spec/investment-api.md) against the checks: each section and requirement table, and what covers it.`, ''];
  for (const section of coverage.sections) lines.push(...renderSection(section), '');

  const uncovered = coverage.sections.filter((s) => s.status === 'open' || s.status === 'not-testable' || s.status === 'no-check');
  lines.push(`Not covered (${uncovered.length}):`);
  if (uncovered.length === 0) lines.push('  none');
  for (const s of uncovered) lines.push(...wrap(`${'#'.repeat(s.level)} ${s.heading}: ${s.why ?? STATUS_TEXT[s.status]}`, '  ', '    '));

  const open = coverage.sections.filter((s) => s.open.length > 0);
  lines.push('', `Points the spec leaves open ("not shown", "unresolved"), where checks accept every reasonable variant and INFO checks record the server's choice (${open.reduce((n, s) => n + s.open.length, 0)}):`);
  for (const s of open) for (const point of s.open) lines.push(...wrap(`${s.heading}: ${point}`, '  ', '    '));

  if (coverage.rfc.length > 0) {
    lines.push('', 'RFC sections cited beside the spec (practice the spec points to):');
    for (const r of coverage.rfc) lines.push(...wrap(`${r.citation}: ${r.checks.join(', ')}`, '  ', '    '));
  }
  if (coverage.unresolved.length > 0) {
    lines.push('', 'Citations that name no section of the spec (a check to correct):');
    for (const u of coverage.unresolved) lines.push(`  ${u.id}: "${u.citation}"`);
  }

  const tables = coverage.sections.flatMap((s) => s.tables);
  const count = (status: SectionStatus) => coverage.sections.filter((s) => s.status === status).length;
  lines.push(
    '',
    `${coverage.sections.length} sections: ${count('covered')} cited by checks, ${count('quoted')} covered by checks of other sections, ` +
      `${count('through-subsections')} through their subsections, ${count('elsewhere')} where other sections restate them, ${uncovered.length} not covered; ` +
      `${tables.length} tables: ${tables.filter((t) => t.through !== 'none').length} covered.`,
  );
  return `${lines.join('\n')}\n`;
}

function renderSection(s: SectionCoverage): string[] {
  const checks = s.cites.length + s.quotes.length;
  const head = `${'#'.repeat(s.level)} ${s.heading}   (line ${s.line}) — ${STATUS_TEXT[s.status]}${checks > 0 ? `: ${checks} check${checks === 1 ? '' : 's'}` : ''}`;
  const lines = [head];
  if (s.cites.length > 0) lines.push(...wrap(`cited by  ${s.cites.map(label).join(', ')}`, '  ', INDENT));
  if (s.quotes.length > 0) lines.push(...wrap(`quoted by ${s.quotes.map(label).join(', ')}`, '  ', INDENT));
  for (const t of s.tables) {
    const what = t.caption === s.heading ? 'table' : `table "${t.caption}"`;
    const by = t.through === 'none' ? 'no check' : t.through === 'elsewhere' ? 'checked where other sections restate it (see why)' : t.through === 'named' ? `${t.checks.length} check(s) naming it: ${t.checks.join(', ')}` : `the section's ${t.checks.length} check(s)`;
    lines.push(...wrap(`${what} (line ${t.line}; ${t.columns.join(' | ')}): ${t.rows.join(', ')} — ${by}`, '  ', INDENT));
  }
  if (s.why && s.status !== 'covered' && s.status !== 'quoted') lines.push(...wrap(`why       ${s.why}`, '  ', INDENT));
  return lines;
}

function label(c: { id: string; level: string }): string {
  return c.level === 'MUST' ? c.id : `${c.id} (${c.level})`;
}

/** Word-wrapped to the report width, the first line with `first` as indent and the rest with `rest`. */
function wrap(text: string, first: string, rest: string): string[] {
  const out: string[] = [];
  let line = first;
  for (const word of text.split(' ')) {
    const indent = out.length === 0 ? first : rest;
    if (line.length > indent.length && line.length + 1 + word.length > WIDTH) {
      out.push(line);
      line = rest + word;
    } else {
      line = line.length > indent.length ? `${line} ${word}` : line + word;
    }
  }
  out.push(line);
  return out;
}
