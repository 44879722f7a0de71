// The detection matrix: the whole suite against the clean reference server (both variants) and against each fault,
// one at a time. Each fault names the requirements it breaks; the checks citing them that fail prove they can catch it.
// Any other check that fails is collateral: its verdict depends on a rule it does not own. A collateral failure is
// either removed (the check stops depending on the rule) or explained, in docs/detection-reasons.json.
import { runChecks } from '../runner/run.js';
import type { CheckResult, RunResult } from '../runner/types.js';
import type { CheckDefinition, SuiteDefinition } from '../runner/check.js';
import { startLocalTarget } from '../targets/local.js';
import { FAULTS, type FaultDefinition } from '../reference/faults/catalog.js';
import type { VariantName } from '../reference/variant.js';
import { pool } from '../pool.js';
import type { DetectionJson } from './proof.js';

/** How long a webhook check waits for a delivery during the matrix. */
const MATRIX_WEBHOOK_DEADLINE_MS = 2_000;

/** docs/detection-reasons.json: why a check no fault makes fail has none, and why a collateral failure stays. */
export interface DetectionReasons {
  /** check id → why no fault of the reference server makes it fail. */
  uncaught?: Record<string, string>;
  /** fault name → check id → why that check fails against the fault although it cites nothing the fault breaks. */
  collateral?: Record<string, Record<string, string>>;
}

export interface FaultRow {
  fault: FaultDefinition;
  /** Checks that cite a requirement the fault breaks and failed the run (--fail-on should) against it. */
  caughtBy: string[];
  /** Checks that failed the run against it while citing nothing it breaks, with the recorded reason when there is one. */
  collateral: Array<{ id: string; reason?: string }>;
  /** Checks that broke (outcome error): a matrix with these is not trustworthy. */
  errored: string[];
}

export interface DetectionMatrix {
  clean: Record<VariantName, RunResult>;
  rows: FaultRow[];
  /** Checks (MUST or SHOULD) that no fault breaking their requirements makes fail, with the reason given, if any. */
  uncaught: Array<{ id: string; level: string; reason?: string }>;
  /** Reasons in docs/detection-reasons.json that no longer match anything: a collateral failure that went away. */
  staleReasons: string[];
}

/** Runs the whole suite against a fresh reference server. */
async function runAgainst(suites: SuiteDefinition[], options: { variant?: VariantName; faults?: string[] }): Promise<RunResult> {
  const local = await startLocalTarget({ variant: options.variant, faults: options.faults });
  try {
    // On loopback a delivery arrives within milliseconds; a short deadline keeps the faults that withhold one from
    // costing the default 10 s each.
    return await runChecks({ target: local.target, suites, failOn: 'should', webhookDeadlineMs: MATRIX_WEBHOOK_DEADLINE_MS });
  } finally {
    await local.stop();
  }
}

/** Whether a check owns a failure against the fault: it cites one of the requirements the fault breaks. */
export function owns(check: Pick<CheckDefinition, 'requirements'>, fault: Pick<FaultDefinition, 'breaks'>): boolean {
  return check.requirements.some((r) => fault.breaks.includes(r.id));
}

/** A fault's row, from the whole suite's results against it. */
export function faultRow(fault: FaultDefinition, results: readonly CheckResult[], reasons: DetectionReasons = {}): FaultRow {
  const failing = results.filter((c) => c.failsRun);
  const explained = reasons.collateral?.[fault.name] ?? {};
  return {
    fault,
    caughtBy: failing.filter((c) => owns(c, fault)).map((c) => c.id),
    collateral: failing.filter((c) => !owns(c, fault)).map((c) => ({ id: c.id, ...(explained[c.id] ? { reason: explained[c.id] } : {}) })),
    errored: results.filter((c) => c.outcome === 'error').map((c) => c.id),
  };
}

export async function detectionMatrix(
  suites: SuiteDefinition[],
  options: { faults?: readonly FaultDefinition[]; reasons?: DetectionReasons; concurrency?: number } = {},
): Promise<DetectionMatrix> {
  const faults = options.faults ?? FAULTS;
  const reasons = options.reasons ?? {};
  const [strict, alt] = await Promise.all([runAgainst(suites, { variant: 'strict' }), runAgainst(suites, { variant: 'alt' })]);
  const rows = await pool(faults, options.concurrency ?? 4, async (fault) => faultRow(fault, (await runAgainst(suites, { faults: [fault.name] })).checks, reasons));
  const caught = new Set(rows.flatMap((r) => r.caughtBy));
  const uncaught = suites
    .flatMap((s) => s.checks)
    .filter((c) => c.level !== 'INFO' && !caught.has(c.id))
    .map((c) => ({ id: c.id, level: c.level, ...(reasons.uncaught?.[c.id] ? { reason: reasons.uncaught[c.id] } : {}) }));
  return { clean: { strict, alt }, rows, uncaught, staleReasons: staleReasons(rows, uncaught, reasons) };
}

function staleReasons(rows: FaultRow[], uncaught: DetectionMatrix['uncaught'], reasons: DetectionReasons): string[] {
  const stale: string[] = [];
  for (const id of Object.keys(reasons.uncaught ?? {})) if (!uncaught.some((u) => u.id === id)) stale.push(`uncaught ${id}: a fault now makes it fail`);
  for (const [fault, checks] of Object.entries(reasons.collateral ?? {})) {
    const row = rows.find((r) => r.fault.name === fault);
    for (const id of Object.keys(checks)) {
      if (!row?.collateral.some((c) => c.id === id)) stale.push(`collateral ${fault} → ${id}: it no longer fails there`);
    }
  }
  return stale;
}

/** The matrix as Markdown: generated, never written by hand. Deterministic (no times), so a test can compare it. */
export function renderMatrix(matrix: DetectionMatrix, suites: SuiteDefinition[]): string {
  const collateral = matrix.rows.reduce((n, r) => n + r.collateral.length, 0);
  const lines = [
    '# Detection matrix',
    '',
    '<!-- Generated by `npm run matrix` (scripts/detection-matrix.mjs). Do not edit by hand; test/detection-matrix.test.ts checks it is current. -->',
    '',
    'Each fault of the reference server (`conformance serve --fault NAME`) against the whole suite (run with',
    '`--fail-on should`). A fault breaks the requirements it names (spec/requirements.json); the checks citing them that',
    'fail are the ones that catch it. A check that fails without citing any of them is collateral: its verdict depends',
    'on a rule it does not own, and the reason it stays is given below. The clean server, in both variants, must fail no check.',
    '',
    `Clean server: strict variant ${summary(matrix.clean.strict)}; alt variant ${summary(matrix.clean.alt)}.`,
    '',
    `${matrix.rows.length} faults; ${matrix.rows.filter((r) => r.caughtBy.length === 0).length} not caught; ${collateral} collateral failures, ${matrix.rows.reduce((n, r) => n + r.collateral.filter((c) => !c.reason).length, 0)} unexplained.`,
    '',
    '| fault | breaks | caught by | collateral |',
    '|---|---|---|---|',
    ...matrix.rows.map((r) => `| \`${r.fault.name}\` | ${r.fault.breaks.join(', ')} | ${r.caughtBy.length ? r.caughtBy.map(code).join(', ') : '**not caught**'} | ${r.collateral.map((c) => `${code(c.id)}${c.reason ? '' : ' **unexplained**'}`).join(', ')} |`),
    '',
    '## Collateral failures and why they stay',
    '',
  ];
  const explained = matrix.rows.flatMap((r) => r.collateral.map((c) => ({ fault: r.fault.name, ...c })));
  if (explained.length === 0) lines.push('None: every check that fails against a fault cites a requirement the fault breaks.');
  for (const c of explained) lines.push(`- \`${c.fault}\` → \`${c.id}\`: ${c.reason ?? '**no reason given**'}`);
  lines.push('', '## Checks no fault makes fail', '');
  if (matrix.uncaught.length === 0) lines.push('None: every MUST and SHOULD check is caught failing by a fault that breaks one of its requirements.');
  else {
    lines.push('| check | level | why |', '|---|---|---|');
    for (const u of matrix.uncaught) lines.push(`| \`${u.id}\` | ${u.level} | ${u.reason ?? '**no fault and no reason yet**'} |`);
  }
  const info = suites.flatMap((s) => s.checks).filter((c) => c.level === 'INFO');
  if (info.length > 0) {
    lines.push('', '## INFO checks', '', 'They record what a server chose where the spec is open and never fail, so no fault applies:', '');
    for (const c of info) lines.push(`- \`${c.id}\`: ${c.title}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The matrix as JSON (docs/detection-matrix.json), for `conformance explain` and `coverage`. Deterministic like the
 * Markdown; fault descriptions are copied in so a reader needs nothing but this file.
 */
export function renderMatrixJson(matrix: DetectionMatrix): string {
  const doc: DetectionJson = {
    $comment: 'Generated by `npm run matrix` (scripts/detection-matrix.mjs) with docs/detection-matrix.md. Do not edit by hand; test/detection-matrix.test.ts checks it is current.',
    faults: matrix.rows.map((r) => ({
      name: r.fault.name,
      suite: r.fault.suite,
      description: r.fault.description,
      breaks: [...r.fault.breaks],
      caughtBy: [...r.caughtBy],
      collateral: r.collateral.map((c) => ({ ...c })),
    })),
    uncaught: matrix.uncaught.map((u) => ({ id: u.id, level: u.level, ...(u.reason ? { reason: u.reason } : {}) })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

function code(id: string): string {
  return `\`${id}\``;
}

function summary(result: RunResult): string {
  const t = result.totals;
  return `${t.passed} passed, ${t.failed} failed, ${t.warned} warned, ${t.skipped} skipped${t.errored ? `, ${t.errored} errored` : ''}`;
}
