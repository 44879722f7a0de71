// The run survives its own tokens: against the reference server with each token choice (how far a revocation reaches,
// a new token ending the older ones, a restart that forgets every token, revoke's reply, maxTTL's unit, scopes
// enforced), the whole suite gives 0 failures and 0 warnings, and an observation records which reading the server took.
import { describe, expect, it } from 'vitest';
import { runChecks } from '../src/runner/run.js';
import type { RunResult } from '../src/runner/types.js';
import { startLocalTarget } from '../src/targets/local.js';
import { TOKENS_CHOICES } from '../src/reference/choices/tokens.js';
import type { Choices } from '../src/reference/choices/index.js';
import { suites } from '../suites/index.js';

/** Skips of a clean run: the --long check, and the order cancel that needs --allow-mutations. */
const CLEAN_SKIPS = ['auth.expiry.after-60-minutes', 'ussd.flow.order-cancel'];

async function runWith(choices: Partial<Choices>): Promise<RunResult> {
  const local = await startLocalTarget({ choices });
  try {
    return await runChecks({ target: local.target, suites, failOn: 'should', webhookDeadlineMs: 2000 });
  } finally {
    await local.stop();
  }
}

function expectClean(result: RunResult): void {
  const bad = result.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn' || c.outcome === 'error').map((c) => `${c.id}: ${c.outcome} ${c.finding?.message ?? ''}`);
  expect(bad).toEqual([]);
  expect(result.checks.filter((c) => c.outcome === 'skip').map((c) => c.id).sort()).toEqual(CLEAN_SKIPS);
  expect(result.run.cleanup).toBeUndefined();
}

const observed = (result: RunResult): string[] => [...result.checks.flatMap((c) => c.observations), ...(result.run.notes ?? [])];

const values = Object.entries(TOKENS_CHOICES).flatMap(([key, def]) => def.values.map((v, i) => ({ key, value: v.value, recorded: v.recorded, isDefault: i === 0 })));

// Concurrent: most of a run is waiting (deliveries, grace periods), and each run has a server of its own.
describe.concurrent('token choices', () => {
  it('at their defaults: the whole suite passes, and each default reading is recorded', async () => {
    const result = await runWith({});
    expectClean(result);
    for (const v of values.filter((x) => x.isDefault)) {
      expect(observed(result).some((o) => new RegExp(v.recorded, 'i').test(o)), `${v.key}=${v.value}: an observation matching /${v.recorded}/i`).toBe(true);
    }
  });

  it.each(values.filter((x) => !x.isDefault))('$key=$value: the whole suite passes, and the reading is recorded', async ({ key, value, recorded }) => {
    const result = await runWith({ [key]: value } as Partial<Choices>);
    expectClean(result);
    expect(observed(result).some((o) => new RegExp(recorded, 'i').test(o)), `an observation matching /${recorded}/i`).toBe(true);
  });

  it('revoke=all-tokens, new-token=ends-older and token-restart=after-150 at once: nothing fails, and the run says how often its token ended', async () => {
    const result = await runWith({ revoke: 'all-tokens', newToken: 'ends-older', tokenRestart: 'after-150' });
    expectClean(result);
    const note = (result.run.notes ?? []).find((n) => n.startsWith('tokens: '));
    expect(note).toMatch(/^tokens: the server ended the run's token before its 60 minutes \d+ time\(s\)/);
    // The signing checks whose control request carries the run's token recovered instead of skipping.
    for (const id of ['signing.reject.replay-other-query', 'signing.reject.altered-authorization', 'signing.reject.altered-client-id']) {
      expect(result.checks.find((c) => c.id === id)!.outcome, id).toBe('pass');
    }
  });
});
