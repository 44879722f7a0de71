// Session renewal against the reference server taking the three choices that end tokens at once (a sweep: `npm run
// test:sweeps`): the whole pack gives 0 failures and 0 warnings and the run says how often its token ended. The
// renewal itself is session-renewal.test.ts's.
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src/engine/index.js';
import { CLEAN_SKIPS, runAll } from '../../helpers/suite-runs.js';

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
    const result = await runAll({
      choices: { revoke: 'all-tokens', newToken: 'ends-older', tokenRestart: 'after-150' },
    });
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
