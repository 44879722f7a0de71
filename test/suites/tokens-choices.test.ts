// The run survives its own tokens: against a server that ends every token of a client on a revocation, ends the older
// tokens on a new one and forgets every token on a restart, all at once, the whole suite gives 0 failures and 0
// warnings, the checks that prepare requests with the run's token recover, and the run says how often its token ended.
import { describe, expect, it } from 'vitest';
import { pack } from '../../suites/index.js';
import { runChecks, type RunResult } from '../../src/engine/index.js';
import { startLocalTarget } from '../../src/targets/local.js';
import type { Choices } from '../../src/reference/choices/index.js';
import { suites } from '../../suites/index.js';
import { DELIVERY_DEADLINE_MS } from '../helpers/waits.js';
import auth from '../../suites/auth/index.js';

/** Skips of a clean run: the --long check, and the order cancel that needs --allow-mutations. */
const CLEAN_SKIPS = ['auth.expiry.after-60-minutes', 'ussd.flow.order-cancel'];

async function runWith(choices: Partial<Choices>): Promise<RunResult> {
  const local = await startLocalTarget({ choices });
  try {
    return await runChecks({
      pack,
      target: local.target,
      suites,
      failOn: 'should',
      suiteOptions: { webhooks: { deadlineMs: DELIVERY_DEADLINE_MS } },
    });
  } finally {
    await local.stop();
  }
}

function expectClean(result: RunResult, skips: readonly string[] = []): void {
  const bad = result.checks
    .filter((c) => c.outcome === 'fail' || c.outcome === 'warn' || c.outcome === 'error')
    .map((c) => `${c.id}: ${c.outcome} ${c.finding?.message ?? ''}`);
  expect(bad).toEqual([]);
  expect(
    result.checks
      .filter((c) => c.outcome === 'skip')
      .map((c) => c.id)
      .sort(),
  ).toEqual([...CLEAN_SKIPS, ...skips].sort());
  expect(result.run.cleanup).toBeUndefined();
}

// Each token choice alone, and every reading's record, is the choices matrix's (docs/choices-matrix.md, run again by
// npm run matrix:check); here the three that end tokens act at once, which no single bundle of the matrix pins down.
describe('token choices', () => {
  it('revoke=all-tokens, new-token=ends-older and token-restart=after-150 at once: nothing fails, and the run says how often its token ended', async () => {
    const result = await runWith({ revoke: 'all-tokens', newToken: 'ends-older', tokenRestart: 'after-150' });
    // With one live token per client no second token is there to watch: how far a revocation reaches is not seen, and
    // its INFO check skips saying so (it records what hid it), never passing on nothing.
    expectClean(result, ['auth.revoke.other-tokens']);
    expect(result.checks.find((c) => c.id === 'auth.revoke.other-tokens')!.observations).toContainEqual(
      expect.stringMatching(/how far a revocation reaches cannot be seen$/),
    );
    const note = (result.run.notes ?? []).find((n) => n.startsWith('tokens: '));
    expect(note).toMatch(/^tokens: the server ended the run's token before its 60 minutes \d+ time\(s\)/);
    // The signing checks whose control request carries the run's token recovered instead of skipping.
    for (const id of [
      'signing.reject.replay-other-query',
      'signing.reject.altered-authorization',
      'signing.reject.altered-client-id',
    ]) {
      expect(result.checks.find((c) => c.id === id)!.outcome, id).toBe('pass');
    }
  });
});

// Where the run revokes without a body, auth.revoke.reply also records whether a body naming another token is read
// (revoke-body=optional-token) or ignored (none), and says so where two live tokens cannot show it.
describe('revoke-body: whether a body naming another token is read', () => {
  async function reply(choices: Partial<Choices>): Promise<string[]> {
    const local = await startLocalTarget({ choices });
    try {
      const result = await runChecks({
        pack,
        target: local.target,
        suites: [auth],
        selection: { grep: 'auth.revoke.reply' },
        failOn: 'should',
      });
      const c = result.checks.find((x) => x.id === 'auth.revoke.reply')!;
      expect([c.outcome, result.run.cleanup]).toEqual(['pass', undefined]);
      return c.observations;
    } finally {
      await local.stop();
    }
  }

  it.each([
    [
      'optional-token',
      {},
      /^a form body naming another token of the client \(token=, RFC 7009\) is read: the token it named was revoked \(200\), and the one presented kept working/,
    ],
    [
      'none',
      {},
      /^a form body naming another token of the client \(token=, RFC 7009\) is ignored: the token presented was revoked \(200\)/,
    ],
    [
      'optional-token',
      { revoke: 'all-tokens' },
      /^whether a body naming another token is read cannot be seen: the token presented and the one the form body named both ended/,
    ],
    [
      'optional-token',
      { newToken: 'ends-older' },
      /^whether a body naming another token is read cannot be seen: of two fresh tokens, the first was refused \(401\) before the revocation/,
    ],
  ] as const)('revoke-body=%s with %j: recorded', async (revokeBody, others, record) => {
    const observations = await reply({ revokeBody, ...others });
    expect(observations).toContainEqual(expect.stringMatching(/^revoke request: a request without a body/));
    expect(observations).toContainEqual(expect.stringMatching(record));
  });

  it('revoke-body=form: the body is needed, so nothing more is tried', async () => {
    const observations = await reply({ revokeBody: 'form' });
    expect(observations.filter((o) => /naming another token/.test(o))).toEqual([]);
  });
});
