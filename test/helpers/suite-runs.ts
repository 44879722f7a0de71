// Runs of the server suites for the tests of more than one folder of test/suites/: against the reference server on
// loopback (a fresh one each, stopped after the run), or against a small loopback server of the test's own; and what
// those tests read of a result.
import { expect } from 'vitest';
import { pack, suites } from '../../suites/index.js';
import { runChecks, type CheckResult, type RunResult, type SuiteDefinition } from '../../src/engine/index.js';
import type { ResolvedTarget } from '../../src/config/types.js';
import type { Ed25519KeyPair } from '../../src/http/keys.js';
import type { VariantName } from '../../src/reference/choices/index.js';
import { findFault } from '../../src/reference/faults/catalog.js';
import { startLocalTarget, type LocalTarget, type LocalTargetOptions } from '../../src/targets/local.js';
import { DELIVERY_DEADLINE_MS } from './waits.js';

/** `body` against a reference server with `faults`, stopped after it. */
export async function withServer<T>(faults: string[], body: (local: LocalTarget) => Promise<T>): Promise<T> {
  const local = await startLocalTarget({ faults });
  try {
    return await body(local);
  } finally {
    await local.stop();
  }
}

/** The checks of `suite` whose ids match `grep`, against a server with `faults`. */
export function runGrep(suite: SuiteDefinition, faults: string[], grep: string): Promise<RunResult> {
  return withServer(faults, (local) =>
    runChecks({ pack, target: local.target, suites: [suite], selection: { grep }, failOn: 'should' }),
  );
}

/**
 * Every suite (or those of `list`) against a server started with `options` (its faults, choices); a short delivery
 * deadline, since no fault or choice of these tests concerns deliveries.
 */
export async function runAll(options: LocalTargetOptions, list: SuiteDefinition[] = suites): Promise<RunResult> {
  const local = await startLocalTarget(options);
  try {
    return await runChecks({
      pack,
      target: local.target,
      suites: list,
      failOn: 'should',
      suiteOptions: { webhooks: { deadlineMs: DELIVERY_DEADLINE_MS } },
    });
  } finally {
    await local.stop();
  }
}

/**
 * `list` against a fresh server of `variant` with `faults`; with `only`, that suite of the list alone runs, as the
 * detection matrix runs a fault (in its own suite).
 */
export async function runSuites(
  list: SuiteDefinition[],
  options: { variant?: VariantName; faults?: string[]; only?: string; concurrency?: number } = {},
): Promise<RunResult> {
  const local = await startLocalTarget({
    ...(options.variant ? { variant: options.variant } : {}),
    ...(options.faults ? { faults: options.faults } : {}),
  });
  try {
    return await runChecks({
      pack,
      target: local.target,
      suites: list,
      ...(options.only ? { selection: { suites: [options.only] } } : {}),
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
      failOn: 'should',
    });
  } finally {
    await local.stop();
  }
}

/** The skips of a clean run of every suite: the token's hour (--long) and the order flow (--allow-mutations). */
export const CLEAN_SKIPS: readonly string[] = ['auth.expiry.after-60-minutes', 'ussd.flow.order-cancel'];

/** Each check that did not pass, but for a clean run's skips, with what it said. */
export const notClean = (result: RunResult) =>
  result.checks
    .filter((c) => c.outcome !== 'pass' && !(c.outcome === 'skip' && CLEAN_SKIPS.includes(c.id)))
    .map((c) => `${c.id}: ${c.outcome} ${c.finding?.message ?? c.skipReason ?? ''}`);

/** Every observation of the run's checks, then the run's notes. */
export const observationsOf = (result: RunResult) => [
  ...result.checks.flatMap((c) => c.observations),
  ...(result.run.notes ?? []),
];

/** The ids of the checks that fail the run or broke, sorted. */
export const failing = (result: RunResult) =>
  result.checks
    .filter((c) => c.failsRun || c.outcome === 'error')
    .map((c) => c.id)
    .sort();

/** The checks that broke (outcome error), with their messages. */
export const broken = (result: RunResult) =>
  result.checks.filter((c) => c.outcome === 'error').map((c) => `${c.id}: ${c.finding?.message}`);

/** The result of check `id`. */
export const check = (result: RunResult, id: string): CheckResult => result.checks.find((c) => c.id === id)!;

/** `suite` alone against a server with `fault`: check `id` fails alone, citing a requirement the fault breaks. */
export async function expectCaughtAlone(suite: SuiteDefinition, fault: string, id: string): Promise<void> {
  const result = await withServer([fault], (local) =>
    runChecks({ pack, target: local.target, suites: [suite], failOn: 'should' }),
  );
  expect(failing(result)).toEqual([id]);
  const breaks = findFault(fault)!.breaks;
  expect(check(result, id).requirements.some((r) => breaks.includes(r.id))).toBe(true);
}

/** A run against a server with `fault`: each check of `ids` fails (the run may fail others), and none broke. */
export function expectCaught(result: RunResult, fault: string, ids: readonly string[]): void {
  const caught = failing(result);
  for (const id of ids) expect(caught, fault).toContain(id);
  expect(broken(result)).toEqual([]);
}

/** The target of a small loopback server of the test's own at `origin` (test/helpers/echo-server.ts), signing with `key`. */
export function echoTarget(origin: string, key: Ed25519KeyPair & { privateKeyPem: string }): ResolvedTarget {
  return {
    name: 't',
    baseUrl: `${origin}/v1`,
    clientId: 'c',
    clientSecret: 'secret-value',
    keyId: 'k',
    privateKeyPem: key.privateKeyPem,
    privateKey: key.seed,
    fixtures: {},
    webhook: { listen: '127.0.0.1:0', tls: 'none' },
  };
}
