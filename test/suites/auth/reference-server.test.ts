// The auth suite against the reference server: clean (both variants, with the signing suite as a run of both has it)
// it fails nothing and records the open choices of each variant, and a few representative faults are caught by exactly
// the checks meant for them. Full fault coverage is the detection matrix's.
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src/engine/index.js';
import type { VariantName } from '../../../src/reference/choices/index.js';
import auth from '../../../suites/auth/index.js';
import signing from '../../../suites/signing/index.js';
import { broken, failing, runSuites } from '../../helpers/suite-runs.js';

/** Both suites against a fresh server; with a fault, only the auth suite, as the detection matrix runs it. */
const run = (options: { variant?: VariantName; faults?: string[] } = {}): Promise<RunResult> =>
  runSuites([auth, signing], { ...options, ...(options.faults ? { only: 'auth' } : {}) });

describe('auth and signing suites', () => {
  it.each(['strict', 'alt'] as const)(
    'pass against the clean reference server (%s variant); only the --long check skips',
    async (variant) => {
      const result = await run({ variant });
      const bad = result.checks
        .filter((c) => c.outcome !== 'pass' && c.outcome !== 'skip')
        .map((c) => `${c.id}: ${c.outcome} ${c.finding?.message ?? ''}`);
      expect(bad).toEqual([]);
      expect(result.checks.filter((c) => c.outcome === 'skip').map((c) => [c.id, c.skipReason])).toEqual([
        ['auth.expiry.after-60-minutes', 'runs only with --long: it waits 61 minutes for a token to expire'],
      ]);
      // Every token a check obtained was revoked: no check recorded a token it could not revoke.
      expect(result.checks.flatMap((c) => c.observations).filter((o) => o.startsWith('clean-up'))).toEqual([]);
      expect(result.run.cleanup).toBeUndefined();
    },
  );

  it('record the open choices of each variant (INFO)', async () => {
    const strict = await run({ variant: 'strict' });
    const alt = await run({ variant: 'alt' });
    const seen = (r: RunResult, id: string) => r.checks.find((c) => c.id === id)!.observations.join(' | ');
    expect(seen(strict, 'auth.token.response-shape')).toBe(
      'status 200; token record inside the {data, code, message} envelope, with a message of its own | scope (its type is not shown): an array, ["read","write"]',
    );
    expect(seen(alt, 'auth.token.response-shape')).toBe(
      'status 201; token record without an envelope (the bare record) | scope (its type is not shown): a string, "read write"',
    );
    expect(seen(strict, 'auth.idempotency.token-repeat')).toMatch(/^the repeated key gave back the same token/);
    expect(seen(strict, 'auth.idempotency.id-spelling')).toMatch(
      /^PUT \/customers with X-Idempotency-Id and no X-Idempotency-Key was accepted \(200\)$/,
    );
  });

  it.each([
    ['auth.wrong-secret-accepted', ['auth.token.wrong-secret']],
    ['auth.unknown-client-issued', ['auth.token.unknown-client']],
    // The lifetime itself is auth.expiry.after-60-minutes' (--long); a short run sees the expiresIn it announces.
    ['auth.token-lives-a-day', ['auth.expiry.expires-in']],
    ['auth.expires-in-milliseconds', ['auth.expiry.expires-in']],
    ['auth.expires-in-string', ['auth.expiry.expires-in']],
    // A field left out is the presence check's (SHOULD) alone: the table has no Required column.
    ['auth.token-record-incomplete', ['auth.token.fields']],
    ['auth.token-message-missing', ['auth.token.fields']],
    ['auth.organization-not-object', ['auth.token.issued']],
    ['auth.bearer-not-validated', ['auth.use.malformed-bearer', 'auth.use.unknown-token']],
    ['auth.revoke-does-nothing', ['auth.revoke.token-rejected']],
    ['auth.client-id-not-required', ['auth.use.no-client-id']],
    ['auth.missing-authorization-403', ['auth.use.no-authorization']],
  ])('fault %s is caught by %j, and by nothing else', async (fault, ids) => {
    const result = await run({ faults: [fault] });
    expect(broken(result)).toEqual([]);
    expect(failing(result).sort()).toEqual([...ids].sort());
  });
});
