import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Agent, request as httpRequest } from 'node:http';
import { generateEd25519 } from '../../src/http/keys.js';
import type { SignOptions } from '../../src/http/signature.js';
import { contentDigest } from '../../src/http/digest.js';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js';
import { defaultFixtures, loadSeed } from '../../src/reference/store.js';
import type { DomainEvent } from '../../src/reference/events.js';
import { sendSigned, type SignedCall } from '../helpers/reference-call.js';
import { FAULTS } from '../../src/reference/faults/catalog.js';
import { USSD_FAULT, WEBHOOK_FAULT } from '../../src/reference/faults/flags.js';

/** The reference server's keep-alive timeout (server.keepAliveTimeout in src/reference/server.ts). */
const SERVER_KEEP_ALIVE_MS = 5_000;

// ---- the clients and the signing client (test/helpers/reference-call.ts) ------------------------------------------

const alice = { clientId: 'acme', clientSecret: 'acme-secret-0123456789', keyId: 'acme-2026', keys: generateEd25519() };
const bob = {
  clientId: 'globex',
  clientSecret: 'globex-secret-9876543210',
  keyId: 'globex-2026',
  keys: generateEd25519(),
};
/** Allowed only from an address the tests never use. */
const carol = {
  clientId: 'initech',
  clientSecret: 'initech-secret-555',
  keyId: 'initech-2026',
  keys: generateEd25519(),
};

let now = Date.UTC(2026, 0, 15, 12, 0, 0);
const nowS = () => Math.floor(now / 1000);

type Call = SignedCall;

interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

let server: ReferenceServer;
const events: DomainEvent[] = [];
let keySeq = 0;

async function send(call: Call): Promise<Response> {
  const answer = await sendSigned(server.baseUrl, call, { signer: alice, created: nowS() });
  return {
    status: answer.status,
    headers: answer.headers,
    body: answer.text === '' ? undefined : JSON.parse(answer.text),
  };
}

function tokenRequest(form: Record<string, string>, overrides: Partial<Call> = {}): Promise<Response> {
  return send({
    method: 'POST',
    path: '/oauth/token',
    body: new URLSearchParams(form).toString(),
    contentType: 'application/x-www-form-urlencoded',
    idempotencyKey: `tok-${++keySeq}`,
    ...overrides,
  });
}

async function issueToken(client = alice): Promise<string> {
  const res = await tokenRequest({ clientId: client.clientId, clientSecret: client.clientSecret }, { signer: client });
  expect(res.status).toBe(200);
  return res.body.data.token as string;
}

/** An authenticated call as alice with a fresh token unless one is given. */
async function authed(call: Call & { token?: string }): Promise<Response> {
  const token = call.token ?? (await issueToken());
  const mutating = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(call.method ?? 'GET');
  return send({ clientId: alice.clientId, ...(mutating ? { idempotencyKey: `k-${++keySeq}` } : {}), ...call, token });
}

/** The 401 body: the spec's message, and the code of the rule that was broken (src/reference/rejection.ts). */
const unauthorized = (code: string) => ({ code, message: 'Unauthorized' });
const NOT_FOUND = { code: '404', message: 'Not Found' };

beforeAll(async () => {
  server = await startReferenceServer({
    clients: [
      {
        clientId: alice.clientId,
        clientSecret: alice.clientSecret,
        keyId: alice.keyId,
        publicKey: alice.keys.publicKey,
        name: 'Acme Investments',
      },
      {
        clientId: bob.clientId,
        clientSecret: bob.clientSecret,
        keyId: bob.keyId,
        publicKey: bob.keys.publicKeyPem,
        trustedIps: ['127.0.0.1'],
      },
      {
        clientId: carol.clientId,
        clientSecret: carol.clientSecret,
        keyId: carol.keyId,
        publicKey: carol.keys.publicKey,
        trustedIps: ['203.0.113.9'],
      },
    ],
    clock: () => now,
  });
  server.events.on((e) => events.push(e));
});

afterAll(async () => {
  await server?.close();
});

beforeEach(() => {
  now = Date.UTC(2026, 0, 15, 12, 0, 0);
  server.store.reset();
});

// ---- token endpoint -------------------------------------------------------------------------------------------

describe('POST /oauth/token', () => {
  it('issues a token record with every field of the spec, in the envelope', async () => {
    const res = await tokenRequest({ clientId: alice.clientId, clientSecret: alice.clientSecret });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.code).toBe('200');
    expect(res.body.message).toBe('Success');
    const record = res.body.data;
    expect(Object.keys(record).sort()).toEqual(
      [
        'message',
        'tokenId',
        'token',
        'expiresIn',
        'maxTTL',
        'tokenType',
        'scope',
        'trustedIps',
        'organization',
        'createdAt',
        'updatedAt',
      ].sort(),
    );
    expect(record).toMatchObject({
      expiresIn: 3600,
      maxTTL: 3600,
      tokenType: 'Bearer',
      scope: ['read', 'write'],
      trustedIps: [],
      organization: { id: 7001, name: 'Acme Investments', clientId: 'acme' },
      createdAt: nowS(),
      updatedAt: nowS(),
    });
    expect(typeof record.message).toBe('string');
    expect(typeof record.tokenId).toBe('string');
    expect(record.token).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(Buffer.from(record.token, 'base64url').length).toBeGreaterThanOrEqual(32);
  });

  it('lists the client trustedIps and issues distinct tokens', async () => {
    const a = await tokenRequest({ clientId: bob.clientId, clientSecret: bob.clientSecret }, { signer: bob });
    const b = await tokenRequest({ clientId: bob.clientId, clientSecret: bob.clientSecret }, { signer: bob });
    expect(a.body.data.trustedIps).toEqual(['127.0.0.1']);
    expect(a.body.data.organization).toEqual({ id: 7002, name: 'globex', clientId: 'globex' });
    expect(a.body.data.token).not.toBe(b.body.data.token);
    expect(a.body.data.tokenId).not.toBe(b.body.data.tokenId);
  });

  it('rejects a wrong secret, a missing secret and an unknown client with 401 and the error body', async () => {
    const forms: Array<[Record<string, string>, string]> = [
      [{ clientId: alice.clientId, clientSecret: 'wrong' }, 'CLIENT_SECRET_WRONG'],
      [{ clientId: alice.clientId }, 'CLIENT_SECRET_MISSING'],
      [{ clientId: 'nobody', clientSecret: alice.clientSecret }, 'CLIENT_UNKNOWN'],
    ];
    for (const [form, code] of forms) {
      const res = await tokenRequest(form);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(unauthorized(code));
      expect(res.headers['www-authenticate']).toMatch(/^Bearer realm=/);
    }
  });

  it('rejects an unsigned token request', async () => {
    const res = await tokenRequest({ clientId: alice.clientId, clientSecret: alice.clientSecret }, { sign: false });
    expect(res.status).toBe(401);
    // The code is the verifier's (SIGNATURE_MISSING once it names its failures): test/reference/rejections.test.ts.
    expect(res.body).toEqual(unauthorized(res.body.code));
    expect(res.body.code).toMatch(/^SIGNATURE_/);
  });

  it("rejects a token request signed with another client's key", async () => {
    const res = await tokenRequest({ clientId: alice.clientId, clientSecret: alice.clientSecret }, { signer: bob });
    expect(res.status).toBe(401);
  });

  it('rejects a token request without or with a wrong Content-Digest', async () => {
    const form = { clientId: alice.clientId, clientSecret: alice.clientSecret };
    expect((await tokenRequest(form, { digest: null })).status).toBe(401);
    expect((await tokenRequest(form, { digest: contentDigest('clientId=acme') })).status).toBe(401);
  });

  it('rejects a JSON body with 415', async () => {
    const res = await send({
      method: 'POST',
      path: '/oauth/token',
      body: JSON.stringify({ clientId: alice.clientId, clientSecret: alice.clientSecret }),
      contentType: 'application/json',
      idempotencyKey: 'json-token',
    });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('415');
  });

  it('emits AUTH.CREATED', async () => {
    events.length = 0;
    const res = await tokenRequest({ clientId: alice.clientId, clientSecret: alice.clientSecret });
    expect(events).toEqual([
      expect.objectContaining({
        name: 'AUTH.CREATED',
        clientId: 'acme',
        data: expect.objectContaining({ tokenId: res.body.data.tokenId }),
      }),
    ]);
  });
});

// ---- authentication of every other endpoint -------------------------------------------------------------------

describe('request authentication', () => {
  it('serves GET /customers/{id} with the envelope', async () => {
    const res = await authed({ path: '/customers/1042' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body).toEqual({
      data: {
        customerId: 1042,
        firstName: 'Amara',
        lastName: 'Banda',
        status: 'ACTIVE',
        referenceId: 88001042,
        createdAt: 1735722000,
        updatedAt: 1738400400,
      },
      code: '200',
      message: 'Success',
    });
  });

  it('accepts @path and @query instead of @target-uri', async () => {
    const token = await issueToken();
    const res = await authed({
      token,
      path: '/accounts?customerId=1042',
      sign: { components: ['@method', '@path', '@query', 'authorization', 'x-client-id'] },
    });
    expect(res.status).toBe(200);
  });

  it('rejects a request without Authorization', async () => {
    const res = await send({ path: '/customers/1042', clientId: alice.clientId });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(unauthorized('TOKEN_MISSING'));
  });

  it('rejects an unknown token', async () => {
    const res = await send({ path: '/customers/1042', clientId: alice.clientId, token: 'x'.repeat(43) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(unauthorized('TOKEN_UNKNOWN'));
  });

  it('rejects a wrong or missing X-Client-Id', async () => {
    const token = await issueToken();
    expect((await send({ path: '/customers/1042', token, clientId: bob.clientId })).status).toBe(401);
    expect((await send({ path: '/customers/1042', token })).status).toBe(401);
  });

  it("rejects a token used with another client's X-Client-Id and key", async () => {
    const token = await issueToken();
    const res = await send({ path: '/customers/1042', token, clientId: bob.clientId, signer: bob });
    expect(res.status).toBe(401);
  });

  it('rejects a tampered signature and a request sent to another path than signed', async () => {
    const token = await issueToken();
    const flipped = await authed({
      token,
      path: '/customers/1042',
      after: (h) => {
        const sig = Buffer.from(h['signature']!.slice(6, -1), 'base64');
        sig[0] = sig[0]! ^ 0xff;
        h['signature'] = `sig1=:${sig.toString('base64')}:`;
      },
    });
    expect(flipped.status).toBe(401);
    expect(flipped.body).toEqual(unauthorized('SIGNATURE_INVALID'));
    const moved = await authed({ token, path: '/customers/1043', signedPath: '/customers/1042' });
    expect(moved.status).toBe(401);
  });

  it('rejects an expired signature, one created in the future, a too-long window and a missing expires', async () => {
    const token = await issueToken();
    const cases: Array<Partial<SignOptions>> = [
      { created: nowS() - 300, expires: nowS() - 120 },
      { created: nowS() + 120, expires: nowS() + 300 },
      { created: nowS(), expires: nowS() + 3600 },
      {
        params: [
          ['keyid', alice.keyId],
          ['created', nowS()],
        ],
      },
      {
        params: [
          ['keyid', alice.keyId],
          ['expires', nowS() + 60],
        ],
      },
    ];
    for (const sign of cases) {
      const res = await authed({ token, path: '/customers/1042', sign });
      expect(res.status, JSON.stringify(sign)).toBe(401);
    }
    // Within the 30 s skew allowance both ways.
    expect(
      (await authed({ token, path: '/customers/1042', sign: { created: nowS() + 20, expires: nowS() + 200 } })).status,
    ).toBe(200);
    expect(
      (await authed({ token, path: '/customers/1042', sign: { created: nowS() - 200, expires: nowS() - 20 } })).status,
    ).toBe(200);
  });

  it('rejects an unknown keyid', async () => {
    const res = await authed({ path: '/customers/1042', sign: { keyId: 'not-a-key' } });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toContain('unknown keyid');
  });

  it('rejects a signature that leaves out a carried header or the target', async () => {
    const token = await issueToken();
    const noClientId = await authed({
      token,
      path: '/customers/1042',
      sign: { components: ['@method', '@target-uri', 'authorization'] },
    });
    expect(noClientId.status).toBe(401);
    const noTarget = await authed({
      token,
      path: '/customers/1042',
      sign: { components: ['@method', 'authorization', 'x-client-id'] },
    });
    expect(noTarget.status).toBe(401);
    const noQuery = await authed({
      token,
      path: '/accounts?customerId=1042',
      sign: { components: ['@method', '@path', 'authorization', 'x-client-id'] },
    });
    expect(noQuery.status).toBe(401);
  });

  it('rejects a PUT without Content-Digest, with a wrong one, or without an idempotency key — and changes nothing', async () => {
    const token = await issueToken();
    const body = JSON.stringify({ customerId: 2077, firstName: 'Changed' });
    expect((await authed({ token, method: 'PUT', path: '/customers', body, digest: null })).status).toBe(401);
    expect((await authed({ token, method: 'PUT', path: '/customers', body, digest: contentDigest('{}') })).status).toBe(
      401,
    );
    const tampered = await authed({
      token,
      method: 'PUT',
      path: '/customers',
      body,
      after: (h) => (h['content-digest'] = contentDigest('x')),
    });
    expect(tampered.status).toBe(401);
    const noKey = await send({ method: 'PUT', path: '/customers', body, token, clientId: alice.clientId });
    expect(noKey.status).toBe(401);
    expect(server.store.getCustomer(2077)!.firstName).toBe('Thandiwe');
  });

  it('accepts X-Idempotency-Id as the key', async () => {
    const res = await authed({
      method: 'PUT',
      path: '/customers',
      body: JSON.stringify({ customerId: 2077, lastName: 'Mumba' }),
      idempotencyKey: undefined,
      extraHeaders: { 'x-idempotency-id': 'id-spelling-1' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.lastName).toBe('Mumba');
  });

  it('enforces trustedIps', async () => {
    const token = await issueToken(bob);
    expect((await send({ path: '/customers/1042', token, clientId: bob.clientId, signer: bob })).status).toBe(200);
    const refused = await tokenRequest(
      { clientId: carol.clientId, clientSecret: carol.clientSecret },
      { signer: carol },
    );
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toContain('trustedIps');
  });

  it('rejects a revoked token afterwards and emits AUTH.DELETED', async () => {
    const token = await issueToken();
    events.length = 0;
    const revoke = await authed({ token, method: 'POST', path: '/oauth/revoke' });
    expect(revoke.status, String(revoke.headers['www-authenticate'])).toBe(200);
    expect(revoke.body).toMatchObject({ code: '200', message: 'Success', data: { revoked: true } });
    expect(events.map((e) => e.name)).toEqual(['AUTH.DELETED']);
    const after = await authed({ token, path: '/customers/1042' });
    expect(after.status).toBe(401);
    expect(after.body).toEqual(unauthorized('TOKEN_REVOKED'));
  });

  it('expires a token after 60 minutes of the injected clock', async () => {
    const token = await issueToken();
    now += 59 * 60 * 1000;
    expect((await authed({ token, path: '/customers/1042' })).status).toBe(200);
    now += 2 * 60 * 1000;
    const res = await authed({ token, path: '/customers/1042' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(unauthorized('TOKEN_EXPIRED'));
  });
});

// ---- idempotency ------------------------------------------------------------------------------------------------

describe('idempotency', () => {
  it('replays the first response of a repeated PUT without executing it again', async () => {
    const token = await issueToken();
    const body = JSON.stringify({ customerId: 2077, firstName: 'Naledi' });
    const first = await authed({ token, method: 'PUT', path: '/customers', body, idempotencyKey: 'same-key' });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ customerId: 2077, firstName: 'Naledi', updatedAt: nowS() });

    server.store.updateCustomer(2077, { firstName: 'Someone Else' }, nowS());
    now += 10_000;
    const second = await authed({ token, method: 'PUT', path: '/customers', body, idempotencyKey: 'same-key' });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(server.store.getCustomer(2077)!.firstName).toBe('Someone Else');

    const other = await authed({
      token,
      method: 'PUT',
      path: '/customers',
      body: JSON.stringify({ customerId: 2077 }),
      idempotencyKey: 'same-key',
    });
    expect(other.status).toBe(422);
  });

  it('keeps keys per client', async () => {
    const body = JSON.stringify({ customerId: 2077, firstName: 'Per Client' });
    const a = await authed({ method: 'PUT', path: '/customers', body, idempotencyKey: 'shared' });
    const bobToken = await issueToken(bob);
    const b = await send({
      method: 'PUT',
      path: '/customers',
      body,
      idempotencyKey: 'shared',
      token: bobToken,
      clientId: bob.clientId,
      signer: bob,
    });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
  });
});

// ---- customers --------------------------------------------------------------------------------------------------

describe('PUT /customers', () => {
  it('updates the given fields and updatedAt', async () => {
    now += 1000 * 1000;
    const res = await authed({
      method: 'PUT',
      path: '/customers',
      body: JSON.stringify({
        customerId: 2077,
        firstName: 'Nomsa',
        lastName: 'Daka',
        status: 'SUSPENDED',
        referenceId: 99002077,
      }),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        customerId: 2077,
        firstName: 'Nomsa',
        lastName: 'Daka',
        status: 'SUSPENDED',
        referenceId: 99002077,
        createdAt: 1736154000,
        updatedAt: nowS(),
      },
      code: '200',
      message: 'Success',
    });
    expect((await authed({ path: '/customers/2077' })).body.data.firstName).toBe('Nomsa');
  });

  it('rejects invalid bodies with 400 and a message, unknown customers with 404, other media types with 415', async () => {
    const token = await issueToken();
    const put = (body: string, contentType?: string) =>
      authed({ token, method: 'PUT', path: '/customers', body, ...(contentType ? { contentType } : {}) });
    for (const body of [
      '{',
      '[]',
      JSON.stringify({ firstName: 'No Id' }),
      JSON.stringify({ customerId: '2077' }),
      JSON.stringify({ customerId: 2077.5 }),
      JSON.stringify({ customerId: 2077, status: 'DORMANT' }),
      JSON.stringify({ customerId: 2077, referenceId: 'abc' }),
      JSON.stringify({ customerId: 2077, firstName: 7 }),
      JSON.stringify({ customerId: 2077, firstname: 'typo' }),
    ]) {
      const res = await put(body);
      expect(res.status, body).toBe(400);
      expect(res.body.code).toBe('400');
      expect(res.body.message.length).toBeGreaterThan(5);
    }
    const unknown = await put(JSON.stringify({ customerId: 999999, firstName: 'X' }));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(NOT_FOUND);
    expect((await put(JSON.stringify({ customerId: 2077 }), 'text/plain')).status).toBe(415);
    expect((await put(JSON.stringify({ customerId: 2077, referenceId: 88001042 }))).status).toBe(409);
    expect(server.store.getCustomer(2077)!.firstName).toBe('Thandiwe');
  });
});

describe('resources', () => {
  it('returns 404 for unknown ids and 400 for non-integer ids', async () => {
    const token = await issueToken();
    for (const path of [
      '/customers/999999',
      '/accounts/999999',
      '/assets/999999',
      '/transactions/999999',
      '/accounts?customerId=999999',
      '/transactions?customerId=999999',
    ]) {
      const res = await authed({ token, path });
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
    for (const path of [
      '/customers/abc',
      '/customers/1042.0',
      '/customers/01042',
      '/accounts',
      '/accounts?customerId=x',
      '/transactions',
    ]) {
      const res = await authed({ token, path });
      expect(res.status, path).toBe(400);
      expect(res.body.code).toBe('400');
    }
  });

  it('serves accounts, assets and transactions with every field', async () => {
    const token = await issueToken();
    const accounts = await authed({ token, path: '/accounts?customerId=1042' });
    expect(accounts.status).toBe(200);
    expect(accounts.body.data.map((a: { accountId: number }) => a.accountId)).toEqual([5001, 5002]);
    expect(accounts.body.meta).toEqual({
      previousPage: 0,
      currentPage: 0,
      nextPage: 0,
      limit: 100,
      currentCount: 2,
      totalCount: 2,
      sort: 'ASC',
    });
    expect((await authed({ token, path: '/accounts/5001' })).body.data).toEqual({
      accountId: 5001,
      customerId: 1042,
      status: 'ACTIVE',
      investmentType: 'INTERNATIONAL_STOCKS',
      currency: 'USD',
      createdAt: 1735725600,
      updatedAt: 1735725600,
    });
    const asset = (await authed({ token, path: '/assets/6001' })).body.data;
    expect(Object.keys(asset).sort()).toEqual(
      [
        'assetId',
        'instrumentId',
        'customerId',
        'name',
        'symbol',
        'investmentAmount',
        'position',
        'locked',
        'available',
        'purchasePrice',
        'marketPrice',
        'currency',
        'createdAt',
        'updatedAt',
      ].sort(),
    );
    const tx = (await authed({ token, path: '/transactions/90011' })).body.data;
    expect(tx).toEqual({
      transactionId: 90011,
      assetId: 6001,
      customerId: 1042,
      amount: 1500,
      currency: 'USD',
      requestType: 'BUY',
      status: 'COMPLETED',
      createdAt: 1735729200,
      updatedAt: 1735729260,
    });
  });

  it('lists INTERNATIONAL_STOCKS instruments and rejects every other investmentType with 400', async () => {
    const token = await issueToken();
    const res = await authed({ token, path: '/instruments?investmentType=INTERNATIONAL_STOCKS' });
    expect(res.status).toBe(200);
    expect(res.body.meta.totalCount).toBe(6);
    for (const i of res.body.data) {
      expect(Array.isArray(i.valueChangeOverTime)).toBe(true);
      expect(i.investmentId).toBe(301);
    }
    for (const type of [
      'BONDS',
      'COMMODITY',
      'LOCAL_STOCKS',
      'FOREIGN_EXCHANGE',
      'CRYPTO',
      'international_stocks',
      '',
    ]) {
      const bad = await authed({ token, path: `/instruments?investmentType=${type}` });
      expect(bad.status, type).toBe(400);
    }
    expect((await authed({ token, path: '/instruments' })).status).toBe(400);
  });
});

describe('pagination', () => {
  it('walks 250 transactions in createdAt order, ties broken by id, with consistent meta', async () => {
    const token = await issueToken();
    const seen: Array<{ transactionId: number; createdAt: number }> = [];
    const metas = [];
    for (let page = 0; page < 3; page++) {
      const res = await authed({ token, path: `/transactions?customerId=1004&page=${page}` });
      expect(res.status).toBe(200);
      metas.push(res.body.meta);
      seen.push(...res.body.data);
    }
    expect(metas).toEqual([
      { previousPage: 0, currentPage: 0, nextPage: 1, limit: 100, currentCount: 100, totalCount: 250, sort: 'ASC' },
      { previousPage: 0, currentPage: 1, nextPage: 2, limit: 100, currentCount: 100, totalCount: 250, sort: 'ASC' },
      { previousPage: 1, currentPage: 2, nextPage: 2, limit: 100, currentCount: 50, totalCount: 250, sort: 'ASC' },
    ]);
    expect(new Set(seen.map((t) => t.transactionId)).size).toBe(250);
    // Distinct createdAt values, so any server's createdAt order is one order and checks can compare it exactly.
    expect(new Set(seen.map((t) => t.createdAt)).size).toBe(250);
    for (let i = 1; i < seen.length; i++) {
      const a = seen[i - 1]!;
      const b = seen[i]!;
      expect(a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.transactionId < b.transactionId)).toBe(
        true,
      );
    }
    // Ids are not in createdAt order, so a server sorting by id would be caught.
    const ids = seen.map((t) => t.transactionId);
    expect(ids).not.toEqual([...ids].sort((x, y) => x - y));

    const desc = await authed({ token, path: '/transactions?customerId=1004&sort=DESC&limit=1000' });
    expect(desc.body.meta).toEqual({
      previousPage: 0,
      currentPage: 0,
      nextPage: 0,
      limit: 1000,
      currentCount: 250,
      totalCount: 250,
      sort: 'DESC',
    });
    expect(desc.body.data.map((t: { transactionId: number }) => t.transactionId)).toEqual([...ids].reverse());

    const past = await authed({ token, path: '/transactions?customerId=1004&page=9&limit=50' });
    expect(past.body.data).toEqual([]);
    expect(past.body.meta).toMatchObject({ currentPage: 9, nextPage: 9, currentCount: 0, totalCount: 250 });
  });

  it('rejects out-of-range page, limit and sort with 400', async () => {
    const token = await issueToken();
    for (const q of [
      'limit=0',
      'limit=1001',
      'limit=ten',
      'limit=1.5',
      'page=-1',
      'page=x',
      'sort=desc',
      'sort=NEWEST',
      'page=1&page=2',
    ]) {
      const res = await authed({ token, path: `/transactions?customerId=1004&${q}` });
      expect(res.status, q).toBe(400);
    }
  });
});

describe('protocol edges', () => {
  it('answers an unknown path with 404 and a wrong method with 405, with the error body', async () => {
    const token = await issueToken();
    const unknown = await authed({ token, path: '/nothing/here' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(NOT_FOUND);
    const outside = await send({ path: '/../health' });
    expect(outside.status).toBe(404);
    const wrong = await authed({ token, method: 'DELETE', path: '/customers/1042' });
    expect(wrong.status).toBe(405);
    expect(wrong.body).toEqual({ code: '405', message: 'Method Not Allowed' });
    expect(wrong.headers['allow']).toBe('GET');
  });

  it('rejects a body over 1 MiB with 413', async () => {
    const res = await authed({
      method: 'PUT',
      path: '/customers',
      body: JSON.stringify({ customerId: 2077, firstName: 'x'.repeat(1024 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('413');
  });

  it('close() resolves while a keep-alive connection is open', async () => {
    const extra = await startReferenceServer({
      clients: [
        {
          clientId: alice.clientId,
          clientSecret: alice.clientSecret,
          keyId: alice.keyId,
          publicKey: alice.keys.publicKeyPem,
        },
      ],
    });
    const agent = new Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
    let answeredAt = 0;
    const res = await new Promise<number>((resolve, reject) => {
      httpRequest(`${extra.baseUrl}/customers/1042`, { agent }, (r) => {
        r.resume();
        r.on('end', () => {
          answeredAt = Date.now();
          resolve(r.statusCode ?? 0);
        });
      })
        .on('error', reject)
        .end();
    });
    expect(res).toBe(401);
    expect(Object.keys(agent.freeSockets).length).toBe(1);
    await extra.close();
    // A close() that waited for the idle connection would resolve when the server's keep-alive timeout (5 s after the
    // answer) ends it, never sooner: only a machine stalled for 5 s could make this one look like that.
    expect(Date.now() - answeredAt).toBeLessThan(SERVER_KEEP_ALIVE_MS);
    agent.destroy();
  });
});

describe('extension points', () => {
  it('lets middleware rewrite replies and the auth policy be relaxed, and logs each request with its reason', async () => {
    const log: Array<{ status: number; code?: string; reason?: string }> = [];
    const extra = await startReferenceServer({
      clients: [
        {
          clientId: alice.clientId,
          clientSecret: alice.clientSecret,
          keyId: alice.keyId,
          publicKey: alice.keys.publicKey,
        },
      ],
      auth: { verifySignatures: false },
      middleware: [
        async (_ctx, _state, route, next) => {
          const reply = await next();
          return route.path === '/customers/:customerId'
            ? { ...reply, headers: { ...reply.headers, 'x-fault': 'seen' } }
            : reply;
        },
      ],
      log: (e) => log.push(e),
    });
    const original = server;
    try {
      server = extra;
      const token = await issueToken();
      const res = await send({ path: '/customers/1042', token, clientId: alice.clientId, sign: false });
      const noToken = await send({ path: '/customers/1042', clientId: alice.clientId, sign: false });
      expect(res.status).toBe(200);
      expect(res.headers['x-fault']).toBe('seen');
      expect(noToken.status).toBe(401);
      expect(noToken.headers['x-fault']).toBe('seen');
      expect(log.map((e) => e.status)).toEqual([200, 200, 401]);
      expect(log[2]).toMatchObject({
        code: 'TOKEN_MISSING',
        reason: expect.stringMatching(/^no Authorization header/),
      });
    } finally {
      server = original;
      await extra.close();
    }
  });

  it('has one flag fault for each fault flag the server code reads, and no other', () => {
    const flags = [...Object.values(USSD_FAULT), ...Object.values(WEBHOOK_FAULT)];
    expect(
      FAULTS.filter((f) => f.flag)
        .map((f) => f.name)
        .sort(),
    ).toEqual([...flags].sort());
  });

  it('rejects two idempotency headers with different keys', async () => {
    const res = await authed({
      method: 'PUT',
      path: '/customers',
      body: JSON.stringify({ customerId: 2077 }),
      idempotencyKey: 'one',
      extraHeaders: { 'x-idempotency-id': 'two' },
    });
    expect(res.status).toBe(401);
  });
});

describe('seed and fixtures', () => {
  it('defaultFixtures names resources of the seed, and unknownId names none', async () => {
    const f = defaultFixtures();
    expect(f).toEqual({
      customerId: 1042,
      otherCustomerId: 1043,
      accountId: 5001,
      assetId: 6001,
      transactionId: 90011,
      mutableCustomerId: 2077,
      paginationCustomerId: 1004,
      unknownId: 999999,
    });
    expect(server.store.getAccount(f.accountId)!.customerId).toBe(f.customerId);
    expect(server.store.transactionsOf(f.paginationCustomerId)).toHaveLength(250);
    expect(server.store.getCustomer(f.unknownId)).toBeUndefined();
    expect(loadSeed().customers.length).toBeGreaterThanOrEqual(4);
  });
});
