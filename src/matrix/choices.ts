// The choices matrix: the whole suite against the reference server with each open point of the spec read each way
// (every choice flipped alone), with every choice at a non-default reading at once, and with seeded random bundles.
// A correct server may take any of these readings, so every run must give 0 failures and 0 warnings, and an INFO
// observation must record each reading taken. A failure here is a defect of the suite, never of the server.
import { createHash } from 'node:crypto';
import { rowsInThreads } from './threads.js';
import { runAgainstLocal } from './local-run.js';
import { judgedTrafficProblems } from './judged-traffic.js';
import type { RunResult, SuiteDefinition } from '../engine/index.js';
import {
  allChoices,
  DEFAULT_CHOICES,
  nonDefault,
  resolveChoices,
  type ChoiceKey,
  type Choices,
} from '../reference/choices/index.js';
import { pool } from '../pool.js';

/** Random bundles in the matrix, and the seed that makes them the same on every machine. */
const RANDOM_BUNDLES = 4;
const RANDOM_SEED = 15;

export interface Bundle {
  /** `default`, `name=value` (one choice flipped), `all-second`, `all-last`, `random-N`. */
  name: string;
  choices: Partial<Choices>;
}

export interface BundleRow {
  name: string;
  /** The choices of the run that differ from the defaults, `name=value`. */
  choices: string[];
  totals: { passed: number; failed: number; warned: number; skipped: number; errored: number };
  /** The checks the run skipped: a row that changes from one machine to another then names the check that did. */
  skippedChecks: string[];
  /** Checks that failed, warned or errored, one line each: each one is a defect of the suite. */
  problems: string[];
  /** Readings the run took that no observation recorded (`name=value`): the report would not tell which was taken. */
  unrecorded: string[];
}

/** Every bundle of the matrix, in a fixed order. */
export function choiceBundles(randomCount = RANDOM_BUNDLES, seed = RANDOM_SEED): Bundle[] {
  const choices = allChoices();
  const bundles: Bundle[] = [{ name: 'default', choices: {} }];
  for (const c of choices) {
    for (const v of c.def.values.slice(1))
      bundles.push({ name: `${c.name}=${v.value}`, choices: { [c.key]: v.value } as Partial<Choices> });
  }
  const at = (pick: (n: number) => number) =>
    Object.fromEntries(
      choices
        .filter((c) => c.def.values.length > 1)
        .map((c) => [c.key, c.def.values[pick(c.def.values.length)]!.value]),
    ) as Partial<Choices>;
  for (const meeting of MEETINGS) bundles.push(meeting);
  bundles.push({ name: 'all-second', choices: at(() => 1) });
  bundles.push({ name: 'all-last', choices: at((n) => n - 1) });
  const random = mulberry32(seed);
  for (let i = 1; i <= randomCount; i++)
    bundles.push({ name: `random-${i}`, choices: at((n) => Math.floor(random() * n)) });
  return bundles;
}

/**
 * Readings that act on one another, run together: a batch whose events arrive in any order, a revoke body on a server
 * that ends every token, the short signing window behind a proxy, milliseconds in batched event payloads.
 */
const MEETINGS: Bundle[] = [
  { name: 'batch+any-order', choices: { eventPayload: 'batch', deliveryOrder: 'any-order' } },
  { name: 'revoke-form+all-tokens', choices: { revokeBody: 'form', revoke: 'all-tokens', newToken: 'ends-older' } },
  { name: 'short-window+proxy', choices: { signatureWindow: '60-no-skew', signatureTarget: 'path-query' } },
  { name: 'milliseconds+batch', choices: { timestampUnit: 'milliseconds', eventPayload: 'cloudevents-batch' } },
];

/** A small seeded generator: the same bundles on every machine and in every run of the matrix. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The whole suite against a fresh reference server making these choices. */
export function runBundle(suites: SuiteDefinition[], bundle: Bundle, webhookDeadlineMs?: number): Promise<RunResult> {
  return runAgainstLocal(suites, { choices: bundle.choices }, webhookDeadlineMs);
}

/** A bundle's row from its run: what went wrong, and which readings went unrecorded. */
export function bundleRow(bundle: Bundle, result: RunResult): BundleRow {
  const choices = resolveChoices('strict', bundle.choices);
  const observed = [...result.checks.flatMap((c) => c.observations), ...(result.run.notes ?? [])];
  // The default run answers for every default reading; any other run for the readings it changed.
  const judged = allChoices().filter((c) =>
    bundle.name === 'default' ? true : choices[c.key] !== DEFAULT_CHOICES[c.key],
  );
  const unrecorded = judged
    .filter((c) => {
      const value = c.def.values.find((v) => v.value === choices[c.key as ChoiceKey])!;
      // Where another reading of the bundle hides this one, the observation saying so is the record.
      const hidden = (c.def.hiddenBy ?? [])
        .filter((h) => (choices as Record<string, string>)[h.choice] === h.value)
        .map((h) => h.recorded);
      const patterns = [value.recorded, ...hidden].map((p) => new RegExp(p, 'i'));
      return !observed.some((o) => patterns.some((p) => p.test(o)));
    })
    .map((c) => `${c.name}=${choices[c.key]}`);
  const t = result.totals;
  return {
    name: bundle.name,
    choices: nonDefault(choices),
    totals: { passed: t.passed, failed: t.failed, warned: t.warned, skipped: t.skipped, errored: t.errored },
    skippedChecks: result.checks.filter((c) => c.outcome === 'skip').map((c) => c.id),
    problems: result.checks
      .filter((c) => c.outcome === 'fail' || c.outcome === 'warn' || c.outcome === 'error')
      .map((c) => `${c.id} ${c.outcome}: ${c.finding?.message ?? ''}`),
    unrecorded,
  };
}

export function bundleRows(
  suites: SuiteDefinition[],
  bundles: readonly Bundle[],
  concurrency: number,
): Promise<BundleRow[]> {
  return pool(bundles, concurrency, async (b) => {
    const result = await runBundle(suites, b);
    const row = bundleRow(b, result);
    // The run's traffic judged too: observed traffic of a correct server, read this way, must show no finding either.
    return { ...row, problems: [...row.problems, ...(await judgedTrafficProblems(result))] };
  });
}

/** The rows from `threads` worker threads (src/matrix/choices-worker.ts), bundles dealt round-robin. */
export async function bundleRowsInThreads(
  bundles: readonly Bundle[],
  threads: number,
  concurrency: number,
): Promise<BundleRow[]> {
  const rows = await rowsInThreads<Bundle, BundleRow>(
    new URL('./choices-worker.js', import.meta.url),
    bundles,
    threads,
    (share) => ({ bundles: share, concurrency }),
  );
  return bundles.map((b) => rows.find((r) => r.name === b.name)!);
}

export interface ChoicesJson {
  $comment: string;
  /** Of the choices, their readings and records, and the checks: a matrix made with other ones is stale. */
  fingerprint: string;
  bundles: BundleRow[];
}

/** What the matrix depends on: change a choice, a reading's record or the set of checks, and it must be made again. */
export function choicesFingerprint(suites: SuiteDefinition[]): string {
  const material = {
    choices: allChoices().map((c) => ({
      name: c.name,
      requirements: c.def.requirements,
      values: c.def.values.map((v) => [v.value, v.recorded]),
      hiddenBy: c.def.hiddenBy ?? [],
    })),
    checks: suites.flatMap((s) => s.checks.map((c) => `${c.id}:${c.level}`)),
    random: [RANDOM_BUNDLES, RANDOM_SEED],
  };
  return createHash('sha256').update(JSON.stringify(material)).digest('hex').slice(0, 16);
}

export function choicesDocument(rows: BundleRow[], suites: SuiteDefinition[]): ChoicesJson {
  return {
    $comment:
      'Generated by `npm run matrix` (scripts/choices-matrix.mjs) with docs/choices-matrix.md. Do not edit by hand; npm test and `npm run matrix:check` fail when it is stale or shows a problem.',
    fingerprint: choicesFingerprint(suites),
    bundles: rows,
  };
}

/** What makes the matrix unacceptable: any failure, warning or error, any reading left unrecorded. */
export function choicesProblems(doc: Pick<ChoicesJson, 'bundles'>): string[] {
  return doc.bundles.flatMap((b) => [
    ...b.problems.map((p) => `${b.name}: ${p}`),
    ...b.unrecorded.map((u) => `${b.name}: no observation records ${u}`),
  ]);
}

export function renderChoicesJson(doc: ChoicesJson): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export function renderChoicesMatrix(doc: ChoicesJson): string {
  const problems = choicesProblems(doc);
  const lines = [
    '# Choices matrix',
    '',
    '<!-- Generated by `npm run matrix` (scripts/choices-matrix.mjs). Do not edit by hand; npm test and `npm run matrix:check` (CI) fail when it is stale or shows a problem. -->',
    '',
    'The whole suite (`--fail-on should`) against the reference server reading the open points of the spec each way',
    '(`conformance serve --list-choices`; docs/open-points.md): every choice flipped alone, every choice at its second',
    'reading at once (`all-second`), every choice at its last reading (`all-last`), and seeded random bundles. A server',
    'may take any of these readings, so each run must fail and warn on nothing, and an observation must record each',
    'reading the server took ("recorded"). A problem here is a defect of the suite, never of a server.',
    '',
    `${doc.bundles.length} runs; ${problems.length === 0 ? 'no problem: 0 failures, 0 warnings, every reading recorded' : `**${problems.length} problems**`}.`,
    '',
    '| run | choices | passed | failed | warned | skipped | recorded |',
    '|---|---|---|---|---|---|---|',
    ...doc.bundles.map(
      (b) =>
        `| ${b.name} | ${b.choices.length === 0 ? 'defaults' : b.name.includes('=') ? '' : b.choices.map((c) => `\`${c}\``).join(' ')} | ${b.totals.passed} | ${b.totals.failed}${b.totals.errored ? ` (+${b.totals.errored} errored)` : ''} | ${b.totals.warned} | ${b.totals.skipped} | ${b.unrecorded.length === 0 ? 'yes' : `**no: ${b.unrecorded.join(', ')}**`} |`,
    ),
  ];
  if (problems.length > 0) lines.push('', '## Problems', '', ...problems.map((p) => `- ${p}`));
  return `${lines.join('\n')}\n`;
}
