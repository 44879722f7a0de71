// The detection matrix: the whole suite against the clean reference server (both variants) and against each fault,
// one at a time. Each fault names the requirements it breaks; the checks citing them that fail prove they can catch it.
// Any other check that fails is collateral: its verdict depends on a rule it does not own. A collateral failure is a
// problem of the matrix: the check is changed to stop depending on the rule.
import { runAgainstLocal } from './local-run.js';
import type { CheckDefinition, CheckResult, RunResult, SuiteDefinition } from '../engine/index.js';
import { FAULTS, type FaultDefinition } from '../reference/faults/catalog.js';
import type { VariantName } from '../reference/choices/index.js';
import { rowsInThreads } from './threads.js';
import { pool } from '../pool.js';
import type { DetectionJson } from './proof.js';

/** docs/detection-reasons.json: why a check no fault makes fail has none. */
export interface DetectionReasons {
  /** check id → why no fault of the reference server makes it fail. */
  uncaught?: Record<string, string>;
}

export interface FaultRow {
  fault: FaultDefinition;
  /** Checks that cite a requirement the fault breaks and failed the run (--fail-on should) against it. */
  caughtBy: string[];
  /** Checks that failed the run against it while citing nothing it breaks. */
  collateral: Array<{ id: string }>;
  /** Checks that broke (outcome error): a matrix with these is not trustworthy. */
  errored: string[];
}

/** A fault row as a worker thread sends it back: the fault by name. */
export type FaultRowData = Omit<FaultRow, 'fault'> & { name: string };

export interface DetectionMatrix {
  clean: Record<VariantName, RunResult>;
  rows: FaultRow[];
  /** Checks (MUST or SHOULD) that no fault breaking their requirements makes fail, with the reason given, if any. */
  uncaught: Array<{ id: string; level: string; reason?: string }>;
  /** Reasons in docs/detection-reasons.json that no longer match anything: a check a fault now makes fail. */
  staleReasons: string[];
}

/** Runs the whole suite against a fresh reference server. */
function runAgainst(
  suites: SuiteDefinition[],
  options: { variant?: VariantName; faults?: string[]; webhookDeadlineMs?: number | undefined },
): Promise<RunResult> {
  return runAgainstLocal(
    suites,
    {
      ...(options.variant ? { variant: options.variant } : {}),
      ...(options.faults ? { faults: options.faults } : {}),
    },
    options.webhookDeadlineMs,
  );
}

/** Whether a check owns a failure against the fault: it cites one of the requirements the fault breaks. */
function owns(check: Pick<CheckDefinition, 'requirements'>, fault: Pick<FaultDefinition, 'breaks'>): boolean {
  return check.requirements.some((r) => fault.breaks.includes(r.id));
}

/** A fault's row, from the whole suite's results against it. */
export function faultRow(fault: FaultDefinition, results: readonly CheckResult[]): FaultRow {
  const failing = results.filter((c) => c.failsRun);
  return {
    fault,
    caughtBy: failing.filter((c) => owns(c, fault)).map((c) => c.id),
    collateral: failing.filter((c) => !owns(c, fault)).map((c) => ({ id: c.id })),
    errored: results.filter((c) => c.outcome === 'error').map((c) => c.id),
  };
}

/** The rows of these faults, each the whole suite against a fresh server with that fault, `concurrency` at a time. */
export function faultRows(
  suites: SuiteDefinition[],
  faults: readonly FaultDefinition[],
  concurrency: number,
  webhookDeadlineMs?: number,
): Promise<FaultRow[]> {
  return pool(faults, concurrency, async (fault) =>
    faultRow(fault, (await runAgainst(suites, { faults: [fault.name], webhookDeadlineMs })).checks),
  );
}

/**
 * The same rows from `threads` worker threads (src/matrix/worker.ts), faults dealt round-robin. Each thread loads the
 * shipped suites and runs its share `concurrency` at a time; one process's JavaScript runs on one core, so this is what
 * uses the others. Only from the compiled package: a thread loads dist/src/matrix/worker.js.
 */
async function faultRowsInThreads(
  faults: readonly FaultDefinition[],
  threads: number,
  concurrency: number,
  webhookDeadlineMs: number | undefined,
): Promise<FaultRow[]> {
  const data = await rowsInThreads<FaultDefinition, FaultRowData>(
    new URL('./worker.js', import.meta.url),
    faults,
    threads,
    (share) => ({ faults: share.map((f) => f.name), concurrency, webhookDeadlineMs }),
  );
  return faults.map((fault) => {
    const row = data.find((d) => d.name === fault.name);
    if (!row) throw new Error(`no detection-matrix row for ${fault.name}`);
    const { name: _name, ...rest } = row;
    return { fault, ...rest };
  });
}

export async function detectionMatrix(
  suites: SuiteDefinition[],
  options: {
    faults?: readonly FaultDefinition[];
    reasons?: DetectionReasons;
    concurrency?: number;
    threads?: number;
    /** How long a webhook check waits for a delivery; the matrix's own (src/matrix/local-run.ts) unless given. */
    webhookDeadlineMs?: number;
  } = {},
): Promise<DetectionMatrix> {
  const faults = options.faults ?? FAULTS;
  const reasons = options.reasons ?? {};
  const concurrency = options.concurrency ?? 4;
  const rowsPromise =
    (options.threads ?? 1) > 1
      ? faultRowsInThreads(faults, options.threads!, concurrency, options.webhookDeadlineMs)
      : faultRows(suites, faults, concurrency, options.webhookDeadlineMs);
  const [strict, alt, rows] = await Promise.all([
    runAgainst(suites, { variant: 'strict', webhookDeadlineMs: options.webhookDeadlineMs }),
    runAgainst(suites, { variant: 'alt', webhookDeadlineMs: options.webhookDeadlineMs }),
    rowsPromise,
  ]);
  const caught = new Set(rows.flatMap((r) => r.caughtBy));
  const uncaught = suites
    .flatMap((s) => s.checks)
    .filter((c) => c.level !== 'INFO' && !caught.has(c.id))
    .map((c) => ({
      id: c.id,
      level: c.level,
      ...(reasons.uncaught?.[c.id] ? { reason: reasons.uncaught[c.id] } : {}),
    }));
  return { clean: { strict, alt }, rows, uncaught, staleReasons: staleReasons(uncaught, reasons) };
}

function staleReasons(uncaught: DetectionMatrix['uncaught'], reasons: DetectionReasons): string[] {
  const stale: string[] = [];
  for (const id of Object.keys(reasons.uncaught ?? {}))
    if (!uncaught.some((u) => u.id === id)) stale.push(`uncaught ${id}: a fault now makes it fail`);
  return stale;
}

/** The matrix as a document: what docs/detection-matrix.json holds and the Markdown is drawn from. */
export function matrixDocument(matrix: DetectionMatrix): DetectionJson {
  const totals = (r: RunResult) => ({
    passed: r.totals.passed,
    failed: r.totals.failed,
    warned: r.totals.warned,
    skipped: r.totals.skipped,
    errored: r.totals.errored,
  });
  return {
    $comment:
      'Generated by `npm run matrix` (scripts/detection-matrix.mjs) with docs/detection-matrix.md. Do not edit by hand; `npm run matrix:check` (CI) fails when it is not current.',
    clean: Object.fromEntries(Object.entries(matrix.clean).map(([variant, r]) => [variant, totals(r)])),
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
}

/** docs/detection-matrix.json: deterministic (no times), fault descriptions copied in so it needs nothing else. */
export function renderMatrixJson(doc: DetectionJson): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/**
 * What makes a matrix unacceptable: a failure or warning against the clean server, a fault no owning check catches, a
 * check that broke, a collateral failure, a reason that no longer applies, a MUST or SHOULD check no fault makes fail
 * without a reason. Empty when all is well.
 */
export function matrixProblems(matrix: DetectionMatrix): string[] {
  const problems: string[] = [];
  for (const [variant, r] of Object.entries(matrix.clean)) {
    for (const c of r.checks.filter((x) => x.outcome === 'fail' || x.outcome === 'warn' || x.outcome === 'error'))
      problems.push(`clean ${variant}: ${c.id} ${c.outcome}: ${c.finding?.message ?? ''}`);
  }
  for (const r of matrix.rows) {
    if (r.caughtBy.length === 0)
      problems.push(`${r.fault.name}: caught by no check citing what it breaks (${r.fault.breaks.join(', ')})`);
    for (const id of r.errored) problems.push(`${r.fault.name}: ${id} broke (outcome error)`);
    for (const c of r.collateral)
      problems.push(
        `${r.fault.name} → ${c.id}: collateral failure (the check fails without citing a requirement the fault breaks)`,
      );
  }
  for (const u of matrix.uncaught.filter((x) => !x.reason))
    problems.push(`${u.id} (${u.level}): no fault makes it fail, and no reason says why`);
  return [...problems, ...matrix.staleReasons.map((s) => `stale reason: ${s}`)];
}

/** The matrix as Markdown, drawn from its document: generated, never written by hand. */
export function renderMatrix(doc: DetectionJson, suites: SuiteDefinition[]): string {
  const collateral = doc.faults.reduce((n, f) => n + f.collateral.length, 0);
  const lines = [
    '# Detection matrix',
    '',
    '<!-- Generated by `npm run matrix` (scripts/detection-matrix.mjs). Do not edit by hand; `npm run matrix:check` (CI) fails when it is not current. -->',
    '',
    'Each fault of the reference server (`conformance serve --fault NAME`) against the whole suite (run with',
    '`--fail-on should`). A fault breaks the requirements it names (spec/requirements.json); the checks citing them that',
    'fail are the ones that catch it. A check that fails without citing any of them is collateral: its verdict depends',
    'on a rule it does not own, and the reason it stays is given below. The clean server, in both variants, must fail no check.',
    '',
    `Clean server: ${Object.entries(doc.clean)
      .map(([variant, t]) => `${variant} variant ${summary(t)}`)
      .join('; ')}.`,
    '',
    `${doc.faults.length} faults; ${doc.faults.filter((f) => f.caughtBy.length === 0).length} not caught; ${collateral} collateral failures, ${doc.faults.reduce((n, f) => n + f.collateral.filter((c) => !c.reason).length, 0)} unexplained.`,
    '',
    '| fault | breaks | caught by | collateral |',
    '|---|---|---|---|',
    ...doc.faults.map(
      (f) =>
        `| \`${f.name}\` | ${f.breaks.join(', ')} | ${f.caughtBy.length ? f.caughtBy.map(code).join(', ') : '**not caught**'} | ${f.collateral.map((c) => `${code(c.id)}${c.reason ? '' : ' **unexplained**'}`).join(', ')} |`,
    ),
    '',
    '## Collateral failures and why they stay',
    '',
  ];
  const explained = doc.faults.flatMap((f) => f.collateral.map((c) => ({ fault: f.name, ...c })));
  if (explained.length === 0)
    lines.push('None: every check that fails against a fault cites a requirement the fault breaks.');
  for (const c of explained) lines.push(`- \`${c.fault}\` → \`${c.id}\`: ${c.reason ?? '**no reason given**'}`);
  lines.push('', '## Checks no fault makes fail', '');
  if (doc.uncaught.length === 0)
    lines.push('None: every MUST and SHOULD check is caught failing by a fault that breaks one of its requirements.');
  else {
    lines.push('| check | level | why |', '|---|---|---|');
    for (const u of doc.uncaught)
      lines.push(`| \`${u.id}\` | ${u.level} | ${u.reason ?? '**no fault and no reason yet**'} |`);
  }
  const info = suites.flatMap((s) => s.checks).filter((c) => c.level === 'INFO');
  if (info.length > 0) {
    lines.push(
      '',
      '## INFO checks',
      '',
      'They record what a server chose where the spec is open and never fail, so no fault applies:',
      '',
    );
    for (const c of info) lines.push(`- \`${c.id}\`: ${c.title}`);
  }
  return `${lines.join('\n')}\n`;
}

function code(id: string): string {
  return `\`${id}\``;
}

function summary(t: DetectionJson['clean'][string]): string {
  return `${t.passed} passed, ${t.failed} failed, ${t.warned} warned, ${t.skipped} skipped${t.errored ? `, ${t.errored} errored` : ''}`;
}
