// The auth checks that record a server's reading from tokens of their own, against a server that restarts in the
// middle of one (choice tokenRestart: it forgets every token it issued) and so answers 401 to tokens it no longer
// knows: that is neither an answer to a revocation nor a sign that a new token ends the older ones, and no check may
// record it as either. Found by the choices matrix in CI (stop 46): with fewer requests in a run the restart after the
// 150th request fell inside auth.revoke.reply, and the reading "revoke answers 200 with no body" went unrecorded; a
// sweep placing the restart at every tenth request of a whole run found auth.token.older-tokens reading "a new token
// ends the older ones". Here each restart is placed on purpose; the check runs once more and records the real reading.
import { describe, expect, it } from 'vitest';
import { pack } from '../../../suites/index.js';
import { runChecks, type CheckResult } from '../../../src/engine/index.js';
import { startLocalTarget } from '../../../src/targets/local.js';
import type { Middleware } from '../../../src/reference/context.js';

/** Forgets every token once, before the request `when` picks is handled, as a server restarting just then would. */
function restartAt(
  when: (method: string, path: string, tokenRequests: number, revocations: number) => boolean,
): Middleware {
  let done = false;
  let tokenRequests = 0;
  let revocations = 0;
  return async (ctx, state, route, next) => {
    if (!done && when(ctx.method, route.path, tokenRequests, revocations)) {
      done = true;
      state.tokens.forgetAll();
    }
    if (ctx.method === 'POST' && route.path === '/oauth/token') tokenRequests++;
    if (ctx.method === 'POST' && route.path === '/oauth/revoke') revocations++;
    return next();
  };
}

async function runOne(id: string, middleware: Middleware): Promise<CheckResult> {
  const local = await startLocalTarget({ choices: { revokeReply: 'empty' }, middleware: [middleware] });
  try {
    const result = await runChecks({ pack, target: local.target, selection: { ids: [id] }, failOn: 'should' });
    return result.checks.find((c) => c.id === id)!;
  } finally {
    await local.stop();
  }
}

/** What auth.revoke.reply records of a reference server, whose revocation ignores a body naming another token. */
const BODY_IGNORED =
  'a form body naming another token of the client (token=, RFC 7009) is ignored: the token presented was revoked (200), and the one named kept working';

/**
 * The check passed with the server's real reading among what it recorded (`reading`, a line it holds; a pattern, its
 * last line) and none that `never` picks; `ranAgain` begins the reason its first attempt was skipped for, when it ran
 * once more.
 */
function expectReading(
  check: CheckResult,
  { reading, never, ranAgain }: { reading: string | RegExp; never: (o: string) => boolean; ranAgain?: string },
): void {
  expect(check.outcome).toBe('pass');
  if (typeof reading === 'string') expect(check.observations).toContain(reading);
  else expect(check.observations.at(-1)).toMatch(reading);
  expect(check.observations.filter(never)).toEqual([]);
  if (ranAgain !== undefined)
    expect(check.observations.some((o) => o.startsWith(`the first attempt skipped (${ranAgain}`))).toBe(true);
}

describe('auth.revoke.reply against a server that restarts in the middle of it', () => {
  it('between the issue of a token and its revocation: the 401 is no answer to a revocation', async () => {
    const check = await runOne(
      'auth.revoke.reply',
      restartAt((method, path) => method === 'POST' && path === '/oauth/revoke'),
    );
    // The 401 the first attempt met is said as what it was (the token had ended), never as the revocation's answer.
    expectReading(check, {
      reading: 'POST /oauth/revoke answered 200 with no body',
      never: (o) => o.startsWith('POST /oauth/revoke answered 401 with'),
      ranAgain: 'POST /oauth/revoke of a token',
    });
  });

  it('after the issue of two fresh tokens: the newer refused is no sign that a new token ends the older ones', async () => {
    // The run's token, the token revoked, then the two fresh tokens: the restart comes before the first read after them.
    const check = await runOne(
      'auth.revoke.reply',
      restartAt((method, _path, tokenRequests) => tokenRequests === 4 && method === 'GET'),
    );
    expectReading(check, {
      reading: BODY_IGNORED,
      never: (o) => o.includes('a new token ends the older ones?'),
      ranAgain: 'of two fresh tokens, the newer',
    });
  });

  it('between its two fresh tokens: no sign of new tokens ending old ones', async () => {
    // The run's token, the token revoked, then the first of the two fresh tokens: the restart comes before the second.
    const check = await runOne(
      'auth.revoke.reply',
      restartAt((method, path, tokenRequests) => tokenRequests === 3 && method === 'POST' && path === '/oauth/token'),
    );
    expectReading(check, { reading: BODY_IGNORED, never: (o) => o.includes('a new token ends the older ones') });
  });

  it('just after its revocation with a form body: both tokens ended are no revocation that reaches every token', async () => {
    // The check's own revocation, then the one presenting a token with a form body naming another: the restart comes
    // before the first read after it, and the same revocation is tried again.
    const check = await runOne(
      'auth.revoke.reply',
      restartAt((method, _path, _tokens, revocations) => revocations === 2 && method === 'GET'),
    );
    expectReading(check, { reading: BODY_IGNORED, never: (o) => o.includes('the revocation reaches every token') });
  });
});

describe('a restart read as "a new token ends the older ones"', () => {
  it('auth.token.older-tokens, between its two token requests: it runs once more and records that both work', async () => {
    // The run's token, the first fresh token (shown to work), then the restart before the second token request.
    const check = await runOne(
      'auth.token.older-tokens',
      restartAt((method, path, tokenRequests) => tokenRequests === 2 && method === 'POST' && path === '/oauth/token'),
    );
    expectReading(check, {
      reading: 'older tokens keep working: the first token was still accepted (200) once a second was issued',
      never: (o) => o.startsWith('a new token ends the older ones'),
      ranAgain: 'the first token was refused',
    });
  });

  it('auth.revoke.other-tokens: both fresh tokens forgotten before the first is read: it runs once more', async () => {
    // The run's token, then the two fresh tokens: the restart comes before the first read after them.
    const check = await runOne(
      'auth.revoke.other-tokens',
      restartAt((method, _path, tokenRequests) => tokenRequests === 3 && method === 'GET'),
    );
    expectReading(check, {
      reading: /^only the token presented is deleted/,
      never: (o) => o.includes('a new token ends the older ones'),
      ranAgain: 'the first token was refused',
    });
  });
});
