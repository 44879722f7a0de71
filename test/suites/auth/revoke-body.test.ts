// Whether POST /oauth/revoke reads a body naming another token of the client (choice revoke-body, REQ-TOKEP-09 "not
// shown"): where the run revokes without a body, auth.revoke.reply records whether such a body is read or ignored, and
// says so where two live tokens cannot show it; a server that needs the body gets nothing more tried.
import { describe, expect, it } from 'vitest';
import { pack } from '../../../suites/index.js';
import { runChecks } from '../../../src/engine/index.js';
import { startLocalTarget } from '../../../src/targets/local.js';
import type { Choices } from '../../../src/reference/choices/index.js';
import auth from '../../../suites/auth/index.js';

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
