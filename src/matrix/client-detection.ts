// The client detection matrix: every client check against the good example client (nothing may fail) and against
// one broken client per rule (its own check must fail, and no other). A flaw that no check catches, or that fails a
// check it does not claim, shows a check that cannot fail or one that depends on a rule it does not own. A correct
// client that does not do what some check judges (its own USSD route) must leave exactly those checks unexercised:
// the verdict INCOMPLETE naming them, never a pass of a check that judged nothing.
import { createHash } from 'node:crypto';
import type { CheckResult, RunResult, SuiteDefinition } from '../engine/index.js';
import { pool } from '../pool.js';

/** One example client of the matrix: how to start it, and the checks its flaw must fail (none for the good one). */
export interface ExampleClient {
  name: string;
  command: string[];
  /** The check ids it must fail (fail or warn); empty for a correct client. */
  fails: string[];
  /** One line: what it does wrong. */
  description: string;
  /** The scenarios it takes part in, when not all (a client that does only some tasks). */
  scenarios?: string[];
  /**
   * The checks it must leave unexercised, when any: a correct client that does not do what they judge. They must be
   * skipped, and be exactly the checks the verdict names as not exercised (INCOMPLETE).
   */
  unexercised?: string[];
}

export interface ClientRow {
  name: string;
  description: string;
  fails: string[];
  /** Its own checks that failed or warned, as they must. */
  caughtBy: string[];
  /** Its own checks that did not fail. */
  missed: string[];
  /** Other checks that failed or warned: a check depending on a rule it does not own. */
  collateral: string[];
  /** Checks that broke (outcome error). */
  errored: string[];
  verdict: string;
  /** The verdict it must get, where its expectations decide one (none for a flaw of SHOULD checks only). */
  due?: string;
  /** The scenarios it ran, when not all. */
  scenarios?: string[];
  /** The checks it must leave unexercised (ExampleClient.unexercised), when any. */
  unexercised?: string[];
  /** With `unexercised`: the checks the verdict names as not exercised, as it named them. */
  notExercised?: string[];
}

export interface ClientMatrixJson {
  /** Changes when a client check or an example client changes: the committed matrix is then stale. */
  fingerprint: string;
  rows: ClientRow[];
  /** Checks (MUST or SHOULD) no example client makes fail. */
  uncaught: string[];
}

const failed = (c: CheckResult) => c.outcome === 'fail' || c.outcome === 'warn';

export function clientRow(client: ExampleClient, result: RunResult): ClientRow {
  const bad = result.checks.filter(failed).map((c) => c.id);
  const due = dueVerdict(client, result.checks);
  return {
    name: client.name,
    description: client.description,
    fails: [...client.fails],
    caughtBy: bad.filter((id) => client.fails.includes(id)),
    missed: client.fails.filter((id) => !bad.includes(id)),
    collateral: bad.filter((id) => !client.fails.includes(id)),
    errored: result.checks.filter((c) => c.outcome === 'error').map((c) => c.id),
    verdict: result.verdict.status,
    ...(due ? { due } : {}),
    ...(client.scenarios ? { scenarios: [...client.scenarios] } : {}),
    ...(client.unexercised
      ? {
          unexercised: [...client.unexercised],
          notExercised: [...new Set(result.verdict.notExercised.flatMap((r) => r.checks.map((c) => c.id)))],
        }
      : {}),
  };
}

/**
 * The verdict a client's expectations decide: NOT CONFORMANT when one of the checks it must fail is a MUST check;
 * for a correct client, INCOMPLETE when it leaves checks unexercised or does only some scenarios, else CONFORMANT.
 * A flaw of SHOULD checks only decides none (the sandbox may cut a flow short, leaving a MUST check unexercised).
 */
function dueVerdict(client: ExampleClient, checks: readonly CheckResult[]): string | undefined {
  if (checks.some((c) => client.fails.includes(c.id) && c.level === 'MUST')) return 'NOT CONFORMANT';
  if (client.fails.length > 0) return undefined;
  return client.unexercised || client.scenarios ? 'INCOMPLETE' : 'CONFORMANT';
}

export function clientFingerprint(suites: readonly SuiteDefinition[], clients: readonly ExampleClient[]): string {
  const checks = suites.flatMap((s) => s.checks.map((c) => [c.id, c.level, c.requirements.map((r) => r.id)]));
  const examples = clients.map((c) => [c.name, c.command, c.fails, c.scenarios ?? 'all', c.unexercised ?? []]);
  return createHash('sha256').update(JSON.stringify({ checks, examples })).digest('hex').slice(0, 16);
}

/** Runs every client, `concurrency` at a time, and draws the matrix. */
export async function clientMatrix(
  suites: readonly SuiteDefinition[],
  clients: readonly ExampleClient[],
  run: (client: ExampleClient) => Promise<RunResult>,
  concurrency: number,
): Promise<ClientMatrixJson> {
  const rows = await pool(clients, concurrency, async (c) => clientRow(c, await run(c)));
  return matrixOf(suites, clients, rows);
}

function matrixOf(
  suites: readonly SuiteDefinition[],
  clients: readonly ExampleClient[],
  rows: ClientRow[],
): ClientMatrixJson {
  const caught = new Set(rows.flatMap((r) => r.caughtBy));
  return {
    fingerprint: clientFingerprint(suites, clients),
    rows,
    uncaught: suites
      .flatMap((s) => s.checks)
      .filter((c) => c.level !== 'INFO' && !caught.has(c.id))
      .map((c) => c.id),
  };
}

/** What makes the matrix unacceptable, one line each. */
export function clientMatrixProblems(matrix: ClientMatrixJson): string[] {
  const problems: string[] = [];
  for (const r of matrix.rows) {
    if (r.due !== undefined && r.verdict !== r.due)
      problems.push(
        `${r.name}: judged ${r.verdict}, due ${r.due}${r.collateral.length > 0 ? ` (${r.collateral.join(', ')})` : ''}`,
      );
    if (r.unexercised !== undefined) {
      const left = [...(r.notExercised ?? [])].sort().join(', ');
      if (left !== [...r.unexercised].sort().join(', '))
        problems.push(
          `${r.name}: must leave exactly ${r.unexercised.join(', ')} unexercised; the verdict names ${left || 'none'}`,
        );
    }
    if (r.missed.length > 0) problems.push(`${r.name}: not caught by ${r.missed.join(', ')}`);
    if (r.collateral.length > 0) problems.push(`${r.name}: also failed ${r.collateral.join(', ')}`);
    if (r.errored.length > 0) problems.push(`${r.name}: checks broke: ${r.errored.join(', ')}`);
  }
  for (const id of matrix.uncaught) problems.push(`${id}: no example client makes it fail`);
  return problems;
}

export function renderClientMatrixJson(matrix: ClientMatrixJson): string {
  return `${JSON.stringify(matrix, null, 2)}\n`;
}

export function renderClientMatrix(matrix: ClientMatrixJson): string {
  const lines = [
    '# Client detection matrix',
    '',
    'Generated by `npm run matrix` (scripts/client-matrix.mjs): `conformance client` run against the good example',
    'client, against correct clients that do less than every task, and against one broken client per client rule',
    '(examples/clients/). Each broken client must fail its own check and no other, and is NOT CONFORMANT when that',
    'check is MUST; the good one must be CONFORMANT; a correct client that leaves checks unexercised (a scenario it',
    'does not do, a USSD route of its own) must fail nothing and be INCOMPLETE, with exactly those checks named.',
    '',
    '| client | what it does | scenarios | must fail | failed | must leave unexercised | verdict |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of matrix.rows) {
    const got = [...r.caughtBy, ...r.collateral.map((id) => `${id} (collateral)`)];
    const left = r.unexercised ? `${r.unexercised.join(', ')} (left: ${r.notExercised?.join(', ') || 'none'})` : '—';
    const verdict = r.due !== undefined && r.due !== r.verdict ? `${r.verdict} (due ${r.due})` : r.verdict;
    lines.push(
      `| ${r.name} | ${r.description} | ${r.scenarios?.join(', ') ?? 'all'} | ${r.fails.join(', ') || '—'} | ${got.join(', ') || '—'}${r.missed.length ? ` (missed: ${r.missed.join(', ')})` : ''} | ${left} | ${verdict} |`,
    );
  }
  lines.push(
    '',
    `Checks no example client makes fail: ${matrix.uncaught.length ? matrix.uncaught.join(', ') : 'none'}.`,
    '',
  );
  return lines.join('\n');
}
