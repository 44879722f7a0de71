// The gaps of issue 14 in the auth suite: each new fault is caught by its new check (that no other check fails is the
// detection matrix's to prove, for every fault: test/reference/detection-matrix.test.ts); the checks that met other
// faults' defects on their way now judge only their own; and a malformed bearer token may be refused with any 4xx.
import { describe, expect, it } from 'vitest';
import { pack } from '../../../suites/index.js';
import { runChecks } from '../../../src/engine/index.js';
import { startLocalTarget } from '../../../src/targets/local.js';
import auth from '../../../suites/auth/index.js';
import { check, expectCaughtAlone, runGrep } from '../../helpers/suite-runs.js';

describe('new faults of tokens and signing', () => {
  it.each([
    ['auth.token-id-per-client', 'auth.token.unique'],
    ['auth.idempotency-key-optional', 'auth.idempotency.required'],
    ['auth.revoke-unsigned-accepted', 'auth.revoke.unsigned'],
    ['auth.token-timestamps-milliseconds', 'auth.token.timestamps'],
    ['auth.token-digest-optional', 'auth.token.missing-digest'],
  ])('%s is caught by %s, alone in its suite', (fault, id) => expectCaughtAlone(auth, fault, id));
});

describe('checks that met another defect on their way', () => {
  it('auth.token.issued leaves the rows other checks own to them, and records what it saw', async () => {
    const result = await runGrep(auth, ['auth.trusted-ips-string'], 'auth.token.(issued|trusted-ips)');
    expect(check(result, 'auth.token.issued').outcome).toBe('pass');
    expect(check(result, 'auth.token.issued').alsoSeen).toEqual([
      expect.objectContaining({
        ownedBy: 'auth.token.trusted-ips',
        message: expect.stringMatching(/^Auth token record: data\.trustedIps must be an array, got a string ""$/),
      }),
    ]);
    expect(check(result, 'auth.token.trusted-ips').outcome).toBe('fail');
  });

  it('auth.revoke.token-rejected cannot judge revocation where any bearer token passes, and says which check reports it', async () => {
    const result = await runGrep(auth, ['auth.bearer-not-validated'], 'auth.revoke.token-rejected');
    const found = check(result, 'auth.revoke.token-rejected');
    expect(found.outcome).toBe('skip');
    expect(found.skipReason).toBe(
      'a never-issued token was accepted as well (200), so whether revocation ends a token cannot be told; auth.use.unknown-token reports it',
    );
  });

  it('auth.revoke.token-rejected is not answered from a cache of verified signatures', async () => {
    const result = await runGrep(auth, ['signing.verified-signature-cache'], 'auth.revoke.token-rejected');
    expect(check(result, 'auth.revoke.token-rejected').outcome).toBe('pass');
  });
});

describe('auth.use.malformed-bearer: refused, any 4xx (RFC 6750 §3.1 answers a malformed request 400)', () => {
  it.each([
    ['401', 401],
    ['400', 400],
  ] as const)('malformed-bearer=%s: passes, and records the status', async (value, status) => {
    const local = await startLocalTarget({ choices: { malformedBearer: value } });
    const result = await runChecks({
      pack,
      target: local.target,
      suites: [auth],
      selection: { grep: 'auth.use.malformed-bearer' },
      failOn: 'should',
    }).finally(() => local.stop());
    const c = check(result, 'auth.use.malformed-bearer');
    expect(c.outcome).toBe('pass');
    expect(c.observations).toContain(`Authorization "Bearer <not a token>" was refused with ${status}`);
  });
});
