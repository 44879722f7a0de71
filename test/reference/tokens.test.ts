// The reference server's token switches that issue 25's second round of tokens added: revoke-body=optional-token (no
// body revokes the token presented; a body, form or JSON, names the token of the client to revoke instead) and
// malformed-bearer (401, or RFC 6750 §3.1's 400 for an Authorization that is no bearer token).
import { afterEach, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js';
import type { Choices } from '../../src/reference/choices/index.js';
import { registration, SignedCaller, testClient } from '../helpers/signed-fetch-webhooks.js';

const started: ReferenceServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

const alice = testClient('alice');
const bob = testClient('bob');

async function setup(choices: Partial<Choices>) {
  const server = await startReferenceServer({ clients: [registration(alice), registration(bob)], choices });
  started.push(server);
  const caller = new SignedCaller(server.baseUrl, alice);
  const works = async (token: string) =>
    (await caller.call('GET', '/instruments?investmentType=INTERNATIONAL_STOCKS', { token })).status === 200;
  return { server, caller, works };
}

describe('revoke-body=optional-token', () => {
  it('without a body revokes the token presented', async () => {
    const { caller, works } = await setup({ revokeBody: 'optional-token' });
    const { token } = await caller.token();
    expect((await caller.call('POST', '/oauth/revoke', { token })).status).toBe(200);
    expect(await works(token)).toBe(false);
  });

  it.each([
    ['a form body token= (RFC 7009)', 'application/x-www-form-urlencoded', (t: string) => `token=${t}`],
    ['a JSON body {"token"}', 'application/json', (t: string) => JSON.stringify({ token: t })],
  ])('with %s revokes the token it names, not the one presented', async (_, contentType, body) => {
    const { caller, works } = await setup({ revokeBody: 'optional-token' });
    const named = (await caller.token()).token;
    const presented = (await caller.token()).token;
    const res = await caller.call('POST', '/oauth/revoke', { token: presented, body: body(named), contentType });
    expect(res.status).toBe(200);
    expect([await works(named), await works(presented)]).toEqual([false, true]);
  });

  it("refuses (400) a body that names no token, or another client's, and revokes nothing", async () => {
    const { server, caller, works } = await setup({ revokeBody: 'optional-token' });
    const token = (await caller.token()).token;
    const other = (await new SignedCaller(server.baseUrl, bob).token()).token;
    const names = { code: '400', message: 'Bad Request: the body names no live token of this client' };
    const usage = {
      code: '400',
      message:
        'Bad Request: send no body (the token presented is revoked), or name the token to revoke in a form body token=<the token> (RFC 7009) or a JSON body {"token": "<the token>"}',
    };
    for (const [body, answer] of [
      ['{}', usage],
      [JSON.stringify({ token: other }), names],
      [JSON.stringify({ token: 'never-issued' }), names],
    ] as const) {
      const res = await caller.call('POST', '/oauth/revoke', { token, body });
      expect(res.status, body).toBe(400);
      expect(res.body, body).toEqual(answer);
    }
    expect(await works(token)).toBe(true);
  });

  it('with revoke-body=none (the default) ignores a body: the token presented is revoked', async () => {
    const { caller, works } = await setup({});
    const named = (await caller.token()).token;
    const presented = (await caller.token()).token;
    const res = await caller.call('POST', '/oauth/revoke', {
      token: presented,
      body: `token=${named}`,
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(200);
    expect([await works(named), await works(presented)]).toEqual([true, false]);
  });
});

describe('malformed-bearer', () => {
  const malformed = (caller: SignedCaller) =>
    caller.call('GET', '/instruments?investmentType=INTERNATIONAL_STOCKS', { token: '<not a token>' });

  it('401 (the default): an Authorization that is no bearer token is Unauthorized, error="invalid_request"', async () => {
    const { caller } = await setup({});
    const res = await malformed(caller);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'TOKEN_MALFORMED', message: 'Unauthorized' });
    expect(res.headers['www-authenticate']).toContain('error="invalid_request"');
  });

  it("400: RFC 6750 §3.1's answer to a malformed request, with the spec's error body; an unknown token stays a 401", async () => {
    const { caller } = await setup({ malformedBearer: '400' });
    const res = await malformed(caller);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'TOKEN_MALFORMED', message: 'Bad Request' });
    expect(res.headers['www-authenticate']).toContain('error="invalid_request"');
    const unknown = await caller.call('GET', '/instruments?investmentType=INTERNATIONAL_STOCKS', {
      token: 'never-issued-0123456789',
    });
    expect(unknown.status).toBe(401);
  });
});
