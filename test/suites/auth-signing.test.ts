// The auth and signing suites against the reference server: clean (both variants) they fail nothing, and a few
// representative faults are caught by exactly the checks meant for them. Full fault coverage is the detection matrix's.
import { describe, expect, it } from 'vitest';
import { pack } from '../../suites/index.js';
import { parseDictionary } from 'structured-headers';
import { runChecks, type RunResult } from '../../src/engine/index.js';
import { startLocalTarget } from '../../src/targets/local.js';
import type { VariantName } from '../../src/reference/choices/index.js';
import auth from '../../suites/auth/index.js';
import signing from '../../suites/signing/index.js';
import { alterSignature, relabelSignature } from '../../suites/kit/negative.js';

/** Both suites against a fresh server; with a fault, only the fault's own suite, as the detection matrix runs it. */
async function run(options: { variant?: VariantName; faults?: string[] } = {}): Promise<RunResult> {
  const local = await startLocalTarget(options);
  const suite = options.faults?.[0]?.split('.')[0];
  try {
    return await runChecks({
      pack,
      target: local.target,
      suites: [auth, signing],
      ...(suite ? { selection: { suites: [suite] } } : {}),
      failOn: 'should',
    });
  } finally {
    await local.stop();
  }
}

const failing = (result: RunResult) =>
  result.checks.filter((c) => c.failsRun || c.outcome === 'error').map((c) => c.id);
const broken = (result: RunResult) =>
  result.checks.filter((c) => c.outcome === 'error').map((c) => `${c.id}: ${c.finding?.message}`);

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
    ['signing.expired-accepted', ['signing.reject.expired']],
    ['signing.keyid-ignored', ['signing.reject.unknown-keyid', 'signing.reject.missing-keyid']],
    ['signing.malformed-input-crash', ['signing.reject.malformed-signature-input']],
    ['signing.label-mismatch-accepted', ['signing.reject.label-mismatch']],
    ['signing.digest-optional', ['signing.reject.missing-digest']],
    ['signing.body-applied-before-verification', ['signing.reject.body-tampered', 'signing.reject.post-body-tampered']],
    [
      'signing.verified-signature-cache',
      [
        'signing.reject.altered-authorization',
        'signing.reject.altered-client-id',
        'signing.reject.replay-other-path',
        'signing.reject.replay-other-query',
      ],
    ],
    ['signing.fixed-component-order', ['signing.accept.get', 'signing.accept.put', 'signing.accept.post']],
  ])('fault %s is caught by %j, and by nothing else', async (fault, ids) => {
    const result = await run({ faults: [fault] });
    expect(broken(result)).toEqual([]);
    expect(failing(result).sort()).toEqual([...ids].sort());
  });

  it('signature failures are reported with the exchange that shows them, secrets redacted', async () => {
    const result = await run({ faults: ['signing.signature-not-verified'] });
    const expired = result.checks.find((c) => c.id === 'signing.reject.expired')!;
    // Rejecting an expired signature is verifier policy (RFC 9421 §3.2.1), a SHOULD: a warning.
    expect(expired.outcome).toBe('warn');
    expect(expired.finding?.message).toBe('200: the server accepted the request');
    const exchange = expired.exchanges.find((e) => e.seq === expired.finding?.exchangeSeq)!;
    const headers = Object.fromEntries(exchange.request.headers.map(([n, v]) => [n.toLowerCase(), v]));
    expect(headers.authorization).toBe('Bearer [redacted]');
    expect(headers.signature).toBe('sig1=:[redacted]:');
  });

  it('the body-tamper checks put back what a faulty server applied', async () => {
    const local = await startLocalTarget({ faults: ['signing.body-applied-before-verification'] });
    try {
      const customerId = local.target.fixtures.mutableCustomerId!;
      const before = local.server.store.getCustomer(customerId);
      const result = await runChecks({
        pack,
        target: local.target,
        suites: [signing],
        selection: { grep: 'body-tampered' },
        failOn: 'should',
      });
      const put = result.checks.find((c) => c.id === 'signing.reject.body-tampered')!;
      expect(put.finding?.message).toMatch(
        /^\d{3}, and the tampered body was applied: firstName "[^"]*" → "[^"]*-tampered"$/,
      );
      expect(put.observations).toContain(
        `customer ${customerId} was restored: PUT /customers answered 200, and GET /customers/${customerId} shows the saved values`,
      );
      expect(local.server.store.getCustomer(customerId)).toMatchObject({
        firstName: before?.firstName,
        lastName: before?.lastName,
      });
      // No webhook before, one after: the interface has no DELETE, so it is a clean-up problem, with what to do by hand.
      const post = result.checks.find((c) => c.id === 'signing.reject.post-body-tampered')!;
      expect(post.finding?.cleanup).toBe(true);
      expect(post.finding?.message).toMatch(
        /^CLEAN-UP FAILED: the webhook configuration was changed and could not be restored \(there was no webhook before, now url "https:\/\/conformance\.invalid\/tampered-[0-9a-f]+", subscriptions \["WEBHOOK\.CREATED"\], and the interface has no DELETE\); restore it by hand: remove that webhook .*\. The check had failed before the restore: \d{3}, and the tampered body was applied/,
      );
      expect(result.run.cleanup).toEqual([
        expect.stringMatching(/^signing\.reject\.post-body-tampered: CLEAN-UP FAILED: /),
      ]);
    } finally {
      await local.stop();
    }
  });
});

describe('negative-request helpers', () => {
  const valid = 'sig1=:dGhpcyBpcyBub3QgYSByZWFsIHNpZ25hdHVyZSwganVzdCA2NCBieXRlcyBsb25nIGZvciB0aGUgdGVzdHMhISE=:';

  it('alter one bit of the signature bytes and keep the field a valid dictionary', () => {
    const altered = alterSignature(valid);
    const before = new Uint8Array(parseDictionary(valid).get('sig1')![0] as ArrayBuffer);
    const after = new Uint8Array(parseDictionary(altered).get('sig1')![0] as ArrayBuffer);
    expect(after.length).toBe(before.length);
    expect(after.filter((b, i) => b !== before[i]).length).toBe(1);
  });

  it('move the signature to another label, bytes unchanged', () => {
    expect(relabelSignature(valid, 'sig2')).toBe(valid.replace(/^sig1=/, 'sig2='));
  });
});
