// `conformance coverage`: every requirement of the catalog (spec/requirements.json) with its quote and level, whose
// duty its words state (its obligation), the checks that enforce it, the reference-server faults that prove those
// checks can fail, and for what no check covers, why. `--json` is the whole catalog so joined, for a reviewer or a
// partner to read.
import { suites } from '../../suites/index.js';
import { clientSuites } from '../../suites/client/index.js';
import { ConfigError } from '../errors.js';
import { readDetectionJson } from '../matrix/proof.js';
import { fromPackageRoot } from '../paths.js';
import {
  computeCoverage,
  STATUSES,
  type Coverage,
  type RequirementCoverage,
  type RequirementStatus,
} from '../matrix/coverage.js';
import { CATALOG_PATH, loadCatalog } from '../catalog/requirements.js';
import { obligationParts } from '../report/requirement-text.js';
import { SPEC_VERSION } from '../version.js';

export interface CoverageOptions {
  json?: boolean;
  /** The catalog file; the packaged one by default (tests and forks may point elsewhere). */
  catalogFile?: string;
}

export function coverageCommand(
  opts: CoverageOptions = {},
  out: { write(text: string): unknown } = process.stdout,
): number {
  const coverage = specCoverage(opts.catalogFile);
  out.write(opts.json ? `${JSON.stringify(coverage, null, 2)}\n` : renderCoverage(coverage));
  return 0;
}

export function specCoverage(catalogFile: string = fromPackageRoot(...CATALOG_PATH)): Coverage {
  let catalog;
  try {
    catalog = loadCatalog(catalogFile);
  } catch (e) {
    throw new ConfigError(
      `coverage: the requirement catalog could not be read (${catalogFile}: ${(e as Error).message}); reinstall conformance`,
      'CONFORMANCE_ERR_INSTALL',
    );
  }
  return computeCoverage(
    catalog,
    suites.flatMap((s) => s.checks),
    readDetectionJson(),
    clientSuites.flatMap((s) => s.checks),
  );
}

const STATUS_TEXT: Record<RequirementStatus, string> = {
  proven: 'checked, and a fault that breaks it is caught',
  checked: 'checked; faults make its checks fail, none names it',
  unproven: 'checked, but no fault shows a check can fail',
  excluded: 'not checked, for the reason given',
  open: 'open: every reasonable reading passes',
  client: "a client's rule: conformance client checks it, the server checks do not",
  unchecked: 'NOT CHECKED and no reason given',
};

const WIDTH = 116;
const INDENT = '             ';

export function renderCoverage(coverage: Coverage): string {
  const t = coverage.totals;
  const lines: string[] = [
    `Spec ${SPEC_VERSION}: ${t.requirements} requirements (${t.must} MUST, ${t.should} SHOULD, ${t.open} OPEN) in spec/requirements.json, against the checks that enforce them.`,
    '',
  ];
  let section = '';
  for (const r of coverage.requirements) {
    if (r.section !== section) {
      section = r.section;
      lines.push(`## ${section}`);
    }
    lines.push(...renderRequirement(r));
  }
  lines.push('', 'Summary:');
  for (const s of STATUSES) lines.push(`  ${String(t[s]).padStart(4)}  ${STATUS_TEXT[s]}`);
  lines.push(
    '',
    'Whose duty the quoted words state (MUST only where they state what the server does or gives):',
    `  ${String(t.obliges.server).padStart(4)}  the server's: MUST, or SHOULD where a reading goes beyond the words`,
    `  ${String(t.obliges.client).padStart(4)}  a client's: a client rule, or for the server at most a SHOULD reading of them`,
    `  ${String(t.open).padStart(4)}  left open: every reasonable reading passes`,
  );
  if (!coverage.matrix)
    lines.push(
      '  (the detection matrix docs/detection-matrix.json is not in this installation: no check could be shown to fail)',
    );
  const gaps = [
    ...coverage.gaps.unchecked.map((id) => `${id}: no check and no reason`),
    ...coverage.gaps.unproven.map((id) => `${id}: no fault makes any of its checks fail${whyOf(coverage, id)}`),
  ];
  for (const u of coverage.gaps.unknownInFaults)
    gaps.push(`fault ${u.fault} names ${u.id}, which the catalog does not have`);
  lines.push('', gaps.length === 0 ? 'Gaps: none.' : `Gaps (${gaps.length}):`, ...gaps.map((g) => `  ${g}`));
  return `${lines.join('\n')}\n`;
}

function whyOf(coverage: Coverage, id: string): string {
  const why = coverage.requirements.find((r) => r.id === id)?.unprovenWhy;
  return why ? ` (${why})` : '';
}

function renderRequirement(r: RequirementCoverage): string[] {
  const out = wrap(`${r.id}  ${r.level.padEnd(6)} "${r.quote}"`, '  ', INDENT);
  const duty = obligationParts(r);
  if (duty) out.push(...wrap(`${duty.label.padEnd(10)} ${duty.text}`, '    ', INDENT));
  if (r.note) out.push(...wrap(`note       ${r.note}`, '    ', INDENT));
  if (r.readings) out.push(...wrap(`readings   ${r.readings.join(' | ')}`, '    ', INDENT));
  if (r.checks.length > 0) out.push(...wrap(`checks     ${r.checks.map((c) => c.id).join(', ')}`, '    ', INDENT));
  if (r.clientChecks.length > 0)
    out.push(...wrap(`client     ${r.clientChecks.map((c) => c.id).join(', ')}`, '    ', INDENT));
  const files = [...new Set([...r.checks, ...r.clientChecks].map((c) => c.file))];
  if (files.length > 0) out.push(...wrap(`files      ${files.join(', ')}`, '    ', INDENT));
  if (r.provenBy.length > 0) out.push(...wrap(`proven by  ${r.provenBy.join(', ')}`, '    ', INDENT));
  if (r.exclusion) out.push(...wrap(`excluded   ${r.exclusion}`, '    ', INDENT));
  if (r.status === 'unchecked' || r.status === 'unproven') out.push(`    !          ${STATUS_TEXT[r.status]}`);
  if (r.unprovenWhy) out.push(...wrap(`why        ${r.unprovenWhy}`, '    ', INDENT));
  return out;
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
