// The sandbox explains every rejection (issue 17, deliverable 3): the body keeps the spec's {code, message} with
// message "Unauthorized" on a 401, its code names the rule; the Conformance-Rejection header (an RFC 8941 Item: a
// token with a `reason` string parameter) says the same with the reason; the request log has a line for it, and for
// a signature that does not verify, the signature base the server built (RFC 9421 §2.5), line by line.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseItem, Token } from 'structured-headers';
import { generateEd25519 } from '../../src/http/keys.js';
import type { SignatureParam } from '../../src/http/signature-base.js';
import { contentDigest, contentDigestWith } from '../../src/http/digest.js';
import { startReferenceServer, type ReferenceServer, type RequestLogEntry } from '../../src/reference/server.js';
import { formatRequestLog, rejectionHeaderValue } from '../../src/reference/rejection.js';
import { sendSigned, type SignedCall } from '../helpers/reference-call.js';
import { WAIT_MS } from '../helpers/waits.js';

const acme = { clientId: 'acme', clientSecret: 'acme-secret-0123456789', keyId: 'acme-2026', keys: generateEd25519() };
/** Registered, but only from an address the tests never use. */
const initech = {
  clientId: 'initech',
  clientSecret: 'initech-secret-555',
  keyId: 'initech-2026',
  keys: generateEd25519(),
};
const START = Date.UTC(2026, 0, 15, 12, 0, 0);
let now = START;
const nowS = () => Math.floor(now / 1000);

let server: ReferenceServer;
const log: RequestLogEntry[] = [];
let keySeq = 0;

interface Call extends Omit<SignedCall, 'idempotencyKey'> {
  /** Send an X-Idempotency-Key (a fresh one); by default on every method but GET. */
  idempotency?: boolean;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { code: string; message: string } & Record<string, unknown>;
  /** The signature base the client signed. */
  signedBase?: string;
  /** The server's log entry for this request. */
  logged: RequestLogEntry;
}

async function send(call: Call): Promise<Answer> {
  const method = call.method ?? 'GET';
  const before = log.length;
  const { idempotency, ...rest } = call;
  const answer = await sendSigned(
    server.baseUrl,
    { ...rest, ...((idempotency ?? method !== 'GET') ? { idempotencyKey: `rej-${++keySeq}` } : {}) },
    { signer: acme, created: nowS(), timeoutMs: WAIT_MS },
  );
  // The log entry is written right after the reply is sent: on the server's next turn at the latest.
  await new Promise((resolve) => setImmediate(resolve));
  const logged = log.slice(before).find((e) => e.target === `/v1${call.path}` && e.method === method);
  if (logged === undefined) throw new Error(`no log entry for ${method} ${call.path}`);
  return {
    status: answer.status,
    headers: answer.headers,
    body: JSON.parse(answer.text),
    ...(answer.signedBase !== undefined ? { signedBase: answer.signedBase } : {}),
    logged,
  };
}

async function issueToken(): Promise<string> {
  const res = await tokenRequest({ clientId: acme.clientId, clientSecret: acme.clientSecret });
  expect(res.status).toBe(200);
  return (res.body.data as { token: string }).token;
}

function tokenRequest(form: Record<string, string>, call: Partial<Call> = {}): Promise<Answer> {
  return send({
    method: 'POST',
    path: '/oauth/token',
    body: new URLSearchParams(form).toString(),
    contentType: 'application/x-www-form-urlencoded',
    ...call,
  });
}

/** A signed read of acme with a fresh token, changed by `call`. */
async function read(call: Partial<Call> = {}): Promise<Answer> {
  return send({ path: '/customers/1042', clientId: acme.clientId, token: await issueToken(), ...call });
}

/** A signed PUT /customers of acme with a fresh token, changed by `call`. */
async function write(call: Partial<Call> = {}): Promise<Answer> {
  return send({
    method: 'PUT',
    path: '/customers',
    body: JSON.stringify({ customerId: 2077, lastName: 'Mumba' }),
    clientId: acme.clientId,
    token: await issueToken(),
    ...call,
  });
}

/** The Conformance-Rejection header, parsed as the RFC 8941 Item it is. */
function rejectionHeader(answer: Answer): { code: string; reason: string } {
  const field = answer.headers['conformance-rejection'];
  expect(typeof field, 'a Conformance-Rejection header').toBe('string');
  const [value, params] = parseItem(field as string);
  expect(value).toBeInstanceOf(Token);
  expect([...params.keys()]).toEqual(['reason']);
  const reason = params.get('reason');
  expect(typeof reason).toBe('string');
  return { code: (value as Token).toString(), reason: reason as string };
}

/** The signature base lines of RFC 9421 §2.5: `"<component identifier>": <value>`, "@signature-params" last. */
const BASE_LINE = /^"[a-z0-9@-]+": \S/;

beforeAll(async () => {
  server = await startReferenceServer({
    clients: [
      {
        clientId: acme.clientId,
        clientSecret: acme.clientSecret,
        keyId: acme.keyId,
        publicKey: acme.keys.publicKey,
      },
      {
        clientId: initech.clientId,
        clientSecret: initech.clientSecret,
        keyId: initech.keyId,
        publicKey: initech.keys.publicKey,
        trustedIps: ['203.0.113.9'],
      },
    ],
    clock: () => now,
    log: (entry) => log.push(entry),
  });
});

afterAll(async () => {
  await server?.close();
});

beforeEach(() => {
  now = START;
});

/** Each kind of rejection the issue names, with the code it must give. */
const KINDS: Array<{ kind: string; code: string; send: () => Promise<Answer> }> = [
  {
    kind: 'Signature header missing',
    code: 'SIGNATURE_MISSING',
    send: () => read({ after: (h) => delete h['signature'] }),
  },
  {
    kind: 'digest mismatch',
    code: 'DIGEST_MISMATCH',
    send: () => write({ digest: contentDigest('{"customerId":2077}') }),
  },
  {
    kind: 'a carried header not covered',
    code: 'COMPONENT_NOT_COVERED',
    send: () => read({ sign: { components: ['@method', '@target-uri', 'authorization'] } }),
  },
  {
    kind: 'expired',
    code: 'SIGNATURE_EXPIRED',
    send: () => read({ sign: { created: nowS() - 300, expires: nowS() - 120 } }),
  },
  {
    kind: 'created in the future',
    code: 'SIGNATURE_CREATED_FUTURE',
    send: () => read({ sign: { created: nowS() + 120, expires: nowS() + 300 } }),
  },
  {
    kind: 'unknown keyid',
    code: 'KEYID_UNKNOWN',
    send: () => read({ sign: { keyId: 'not-a-key' } }),
  },
  {
    kind: 'bad signature',
    code: 'SIGNATURE_INVALID',
    send: () => read({ signedPath: '/customers/1043' }),
  },
  {
    kind: 'alg mismatch (RFC 9421 §3.2 step 6)',
    code: 'ALG_MISMATCH',
    send: () =>
      read({
        sign: {
          params: [
            ['keyid', acme.keyId],
            ['alg', 'rsa-pss-sha512'],
            ['created', nowS()],
            ['expires', nowS() + 60],
          ] satisfies SignatureParam[],
        },
      }),
  },
  {
    kind: 'bearer missing',
    code: 'TOKEN_MISSING',
    send: () => send({ path: '/customers/1042', clientId: acme.clientId }),
  },
  {
    kind: 'bearer unknown',
    code: 'TOKEN_UNKNOWN',
    send: () => send({ path: '/customers/1042', clientId: acme.clientId, token: 'x'.repeat(43) }),
  },
  {
    kind: 'bearer revoked',
    code: 'TOKEN_REVOKED',
    send: async () => {
      const token = await issueToken();
      expect((await send({ method: 'POST', path: '/oauth/revoke', token, clientId: acme.clientId })).status).toBe(200);
      return send({ path: '/customers/1042', clientId: acme.clientId, token });
    },
  },
];

/** The reference server's own rules beyond those the issue names. */
const MORE: Array<{ kind: string; code: string; send: () => Promise<Answer> }> = [
  {
    kind: 'bearer expired',
    code: 'TOKEN_EXPIRED',
    send: async () => {
      const token = await issueToken();
      now += 61 * 60 * 1000;
      return send({ path: '/customers/1042', clientId: acme.clientId, token });
    },
  },
  {
    kind: 'Authorization not Bearer',
    code: 'TOKEN_MALFORMED',
    send: () => read({ after: (h) => (h['authorization'] = `Basic ${Buffer.from('a:b').toString('base64')}`) }),
  },
  { kind: 'digest missing', code: 'DIGEST_MISSING', send: () => write({ digest: null }) },
  {
    kind: 'digest of another algorithm',
    code: 'DIGEST_ALGORITHM_UNSUPPORTED',
    send: () =>
      write({ digest: contentDigestWith(JSON.stringify({ customerId: 2077, lastName: 'Mumba' }), ['sha-256']) }),
  },
  { kind: 'digest not a dictionary', code: 'DIGEST_MALFORMED', send: () => write({ digest: 'sha-512 abc' }) },
  {
    kind: 'X-Client-Id missing',
    code: 'CLIENT_ID_MISSING',
    send: async () => send({ path: '/customers/1042', token: await issueToken() }),
  },
  { kind: 'X-Client-Id of another client', code: 'CLIENT_ID_MISMATCH', send: () => read({ clientId: 'initech' }) },
  { kind: 'idempotency key missing', code: 'IDEMPOTENCY_KEY_MISSING', send: () => write({ idempotency: false }) },
  {
    kind: 'target not covered',
    code: 'COMPONENT_NOT_COVERED',
    send: () => read({ sign: { components: ['@method', 'authorization', 'x-client-id'] } }),
  },
  {
    kind: 'token request: wrong secret',
    code: 'CLIENT_SECRET_WRONG',
    send: () => tokenRequest({ clientId: acme.clientId, clientSecret: 'wrong' }),
  },
  {
    kind: 'token request: no secret',
    code: 'CLIENT_SECRET_MISSING',
    send: () => tokenRequest({ clientId: acme.clientId }),
  },
  {
    kind: 'token request: unknown client',
    code: 'CLIENT_UNKNOWN',
    send: () => tokenRequest({ clientId: 'nobody', clientSecret: 'x' }),
  },
  {
    kind: 'token request: address not trusted',
    code: 'CLIENT_IP_NOT_TRUSTED',
    send: () => tokenRequest({ clientId: initech.clientId, clientSecret: initech.clientSecret }, { signer: initech }),
  },
];

describe('every rejection names its rule: body code, Conformance-Rejection header and a log line', () => {
  it.each([...KINDS, ...MORE])('$kind → $code', async ({ code, send: request }) => {
    const answer = await request();
    expect(answer.status).toBe(401);
    // The spec's error body, both strings, the 401 message exactly "Unauthorized"; the code names the rule.
    expect(answer.body).toEqual({ code, message: 'Unauthorized' });
    // Beside the WWW-Authenticate RFC 9110 §11.6.1 requires on a 401, not instead of it.
    expect(answer.headers['www-authenticate']).toMatch(/^Bearer realm="investment-api", error="invalid_/);
    const header = rejectionHeader(answer);
    expect(header.code).toBe(code);
    expect(header.reason.length).toBeGreaterThan(10);
    expect(answer.logged).toMatchObject({ status: 401, code, reason: header.reason });
    expect(formatRequestLog(answer.logged).split('\n')[0]).toBe(
      `401 ${answer.logged.method} ${answer.logged.target} ${code} ${header.reason}`,
    );
  });

  it('gives each kind the issue names a code of its own', async () => {
    const codes: string[] = [];
    for (const k of KINDS) codes.push((await k.send()).body.code);
    expect(codes).toEqual(KINDS.map((k) => k.code));
    expect(new Set(codes).size).toBe(KINDS.length);
  });

  it('logs, for a signature that does not verify, the signature base the server built: it differs from the signed one where the request did', async () => {
    // The client signed GET /v1/customers/1043 and sent GET /v1/customers/1042: the bases differ in the target only.
    const answer = await read({ signedPath: '/customers/1043' });
    expect(answer.body.code).toBe('SIGNATURE_INVALID');
    const base = answer.logged.base!;
    const serverLines = base.split('\n');
    const clientLines = answer.signedBase!.split('\n');
    expect(serverLines.every((l) => BASE_LINE.test(l))).toBe(true);
    expect(serverLines.at(-1)).toMatch(/^"@signature-params": \("@method" "@target-uri" "@path" /);
    expect(serverLines).toHaveLength(clientLines.length);
    const differing = serverLines.flatMap((l, i) => (l === clientLines[i] ? [] : [[clientLines[i], l]]));
    expect(differing).toEqual([
      [`"@target-uri": ${server.baseUrl}/customers/1043`, `"@target-uri": ${server.baseUrl}/customers/1042`],
      ['"@path": /v1/customers/1043', '"@path": /v1/customers/1042'],
    ]);

    const printed = formatRequestLog(answer.logged).split('\n');
    expect(printed[0]).toMatch(
      /^401 GET \/v1\/customers\/1042 SIGNATURE_INVALID the signature does not verify against the signature base \(label sig1, keyid "acme-2026"\)/,
    );
    expect(printed[1]).toBe('    the signature base this server built (diff it with the one your client signed):');
    expect(printed.slice(2)).toEqual(serverLines.map((l) => `      ${l}`));
    // The header points at the log; the base itself (several lines) is not in it.
    expect(rejectionHeader(answer).reason).toContain('the log of conformance serve shows the base this server built');
  });

  it('logs no base for a rule the reason explains, and no code for a request that is served', async () => {
    const digest = await write({ digest: contentDigest('{}') });
    expect(digest.logged.base).toBeUndefined();
    expect(formatRequestLog(digest.logged)).not.toContain('\n');
    const served = await read();
    expect(served.status).toBe(200);
    expect(served.headers['conformance-rejection']).toBeUndefined();
    expect(served.logged).not.toHaveProperty('code');
    expect(formatRequestLog(served.logged)).toBe('200 GET /v1/customers/1042');
  });

  it('explains the other rejections in the header and the log, the body keeping the status as its code', async () => {
    const unknown = await send({ path: '/no-such-endpoint', sign: false });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: '404', message: 'Not Found' });
    expect(rejectionHeader(unknown)).toEqual({ code: 'NOT_FOUND', reason: 'no endpoint /v1/no-such-endpoint' });
    expect(unknown.logged).toMatchObject({ code: 'NOT_FOUND', reason: 'no endpoint /v1/no-such-endpoint' });

    const invalid = await read({ path: '/accounts?customerId=1042&limit=0' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('400');
    expect(rejectionHeader(invalid)).toEqual({ code: 'BAD_REQUEST', reason: invalid.body.message });
  });

  it('keeps the header printable: control characters and non-ASCII a client sent are escaped or replaced', async () => {
    // A signer refuses a non-ASCII header value (RFC 9421 §2.5), so no signed request brings one: the header's writer is
    // held to it directly.
    expect(
      rejectionHeaderValue({
        code: 'CLIENT_ID_MISMATCH',
        reason: 'X-Client-Id "x\u00e9y" is not the client the token was issued to',
      }),
    ).toBe('CLIENT_ID_MISMATCH;reason="X-Client-Id \\"x?y\\" is not the client the token was issued to"');
    expect(
      formatRequestLog({
        seq: 1,
        method: 'GET',
        target: '/v1/x',
        status: 401,
        code: 'C',
        reason: 'a\u001b[2Jb',
        durationMs: 1,
      }),
    ).toBe('401 GET /v1/x C a\\u001b[2Jb');
  });
});
