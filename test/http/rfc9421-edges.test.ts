// RFC 9421 at its edges, each case built from the RFC's own words and examples (the section is in the test's name),
// and the library API for the keys and headers people have. The cases were found by signing with an independent
// implementation and verifying with ours, or the reverse (issue 17).
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, webcrypto } from 'node:crypto';
import {
  signRequest,
  verifySignature,
  verifySignatureAsync,
  type SignatureFailure,
  type SignatureVerdict,
} from '../../src/http/signature.js';
import { signatureBase, signatureParamsValue, SignatureBaseError } from '../../src/http/signature-base.js';
import { generateEd25519, KeyError } from '../../src/http/keys.js';
import { contentDigest } from '../../src/http/digest.js';
import type { HttpMessage } from '../../src/http/message.js';
import { startLocalTarget, type LocalTarget } from '../../src/targets/local.js';
import { WAIT_MS } from '../helpers/waits.js';

const vectors = JSON.parse(
  readFileSync(new URL('../fixtures/vectors/rfc9421-ed25519.json', import.meta.url), 'utf8'),
) as {
  keys: Array<{
    privateKeyPem: string;
    publicKeyPem: string;
    jwk: { kty: string; crv: string; d: string; x: string };
    derivedPublicKeyHex: string;
    derivedPrivateKeySeedHex: string;
  }>;
  messages: Record<string, { method: string; targetUri: string; headers: Array<[string, string]> }>;
  examples: Array<{
    id: string;
    message: string;
    label: string;
    coveredComponents: string[];
    signatureParameters: Array<[string, string | number]>;
    signatureInput: string;
    signatureBase: string;
    signature: string;
  }>;
};
/** RFC 9421 Appendix B.1.4 test-key-ed25519. */
const testKey = vectors.keys[0]!;
/** RFC 9421 Appendix B.2.6, "Signing a Request Using ed25519". */
const b26 = vectors.examples.find((e) => e.id === 'B.2.6')!;
const testRequest = vectors.messages[b26.message]!;
const b26Message = (): HttpMessage => ({
  method: testRequest.method,
  url: testRequest.targetUri,
  headers: testRequest.headers,
});
const b26Options = {
  keyId: 'test-key-ed25519',
  label: b26.label,
  components: b26.coveredComponents,
  params: b26.signatureParameters,
};

const T = 1_700_000_000;
const pair = generateEd25519();

function signed(message: HttpMessage, sig: { signatureInput: string; signature: string }) {
  return { ...message, signatureInput: sig.signatureInput, signature: sig.signature };
}

function expectFailure(verdict: SignatureVerdict, code: SignatureFailure, reason?: RegExp): void {
  expect(verdict.ok).toBe(false);
  expect(verdict.code).toBe(code);
  if (reason) expect(verdict.reason).toMatch(reason);
}

// ---- the reference server over HTTP ------------------------------------------------------------------------------

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

async function local(): Promise<LocalTarget> {
  const l = await startLocalTarget();
  stops.push(l.stop);
  return l;
}

interface Sent {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One request with node:http, the target sent exactly as given (no URL parsing on the way). node:http, not fetch: in a
 * process that has loaded undici 7 (this package does), Node 20's fetch refuses a Content-Length header.
 */
function send(
  origin: string,
  method: string,
  target: string,
  headers: Array<[string, string]> | Record<string, string>,
  body?: string,
): Promise<Sent> {
  const o = new URL(origin);
  const pairs = Array.isArray(headers) ? headers : Object.entries(headers);
  const raw = [['Host', o.host], ...pairs].flat();
  return new Promise((resolve, reject) => {
    const r = httpRequest(
      { host: o.hostname, port: o.port, method, path: target, headers: raw, agent: false, timeout: WAIT_MS },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      },
    );
    r.on('timeout', () => r.destroy(new Error(`${method} ${target}: no answer within ${WAIT_MS} ms`)));
    r.on('error', reject);
    r.end(body);
  });
}

/** A token for the local target's client, from a token request signed with its PEM text and a headers object. */
async function tokenFor(l: LocalTarget): Promise<string> {
  const t = l.target;
  const url = new URL(`${t.baseUrl}/oauth/token`);
  const body = new URLSearchParams({ clientId: t.clientId, clientSecret: t.clientSecret }).toString();
  const headers = {
    'Content-Type': 'application/x-www-form-urlencoded',
    'Content-Length': String(Buffer.byteLength(body)),
    'Content-Digest': contentDigest(body),
    'X-Idempotency-Key': randomUUID(),
  };
  const sig = signRequest({ method: 'POST', url: url.href, headers }, { keyId: t.keyId, privateKey: t.privateKeyPem! });
  const res = await send(
    url.origin,
    'POST',
    url.pathname,
    { ...headers, 'Signature-Input': sig.signatureInput, Signature: sig.signature },
    body,
  );
  expect(res.status, `${String(res.headers['www-authenticate'])} ${res.body}`).toBe(200);
  const json = JSON.parse(res.body) as { data?: { token?: string }; token?: string };
  const token = json.data?.token ?? json.token;
  expect(typeof token).toBe('string');
  return token!;
}

describe('RFC 9421 §2.2.6 @path and §2.2.7 @query are the request target as sent', () => {
  const paramsOf = (components: string[]) => signatureParamsValue(components, []);

  it('§2.2.6 example: "POST /path?param=value" gives "@path": /path; an empty path is "/"', () => {
    const m: HttpMessage = { method: 'POST', url: 'https://www.example.com/path?param=value', headers: [] };
    expect(signatureBase(m, ['@path'], paramsOf(['@path']))).toBe('"@path": /path\n"@signature-params": ("@path")');
    const empty: HttpMessage = { method: 'GET', url: 'https://www.example.com?x=1', headers: [] };
    expect(signatureBase(empty, ['@path'], paramsOf(['@path'])).split('\n')[0]).toBe('"@path": /');
  });

  it('§2.2.7 examples: "?param=value&foo=bar&baz=bat%2Dman", "?queryString", and "?" alone when absent', () => {
    const q = (url: string) =>
      signatureBase({ method: 'POST', url, headers: [] }, ['@query'], paramsOf(['@query'])).split('\n')[0];
    expect(q('https://www.example.com/path?param=value&foo=bar&baz=bat%2Dman')).toBe(
      '"@query": ?param=value&foo=bar&baz=bat%2Dman',
    );
    expect(q('https://www.example.com/path?queryString')).toBe('"@query": ?queryString');
    expect(q('https://www.example.com/path')).toBe('"@query": ?');
  });

  it('"percent-encoded octets are not decoded" and nothing is encoded either: \' stays \', /./ and %7e stay', () => {
    const m: HttpMessage = {
      method: 'GET',
      url: "http://127.0.0.1:8080/v1/ussd/./stocks/%7esmith?customerId=1&symbol=O'Reilly&a=%2F",
      headers: [],
    };
    const components = ['@path', '@query', '@request-target'];
    expect(signatureBase(m, components, paramsOf(components)).split('\n').slice(0, 3)).toEqual([
      '"@path": /v1/ussd/./stocks/%7esmith',
      `"@query": ?customerId=1&symbol=O'Reilly&a=%2F`,
      `"@request-target": /v1/ussd/./stocks/%7esmith?customerId=1&symbol=O'Reilly&a=%2F`,
    ]);
  });

  it("the reference server accepts @path + @query signed over /ussd/stocks?customerId=…&searchMode=true&symbol=O'Reilly, as sent", async () => {
    const l = await local();
    const token = await tokenFor(l);
    const base = new URL(l.target.baseUrl);
    const target = `${base.pathname}/ussd/stocks?customerId=${l.target.fixtures.customerId!}&searchMode=true&symbol=O'Reilly`;
    const headers: Array<[string, string]> = [
      ['Authorization', `Bearer ${token}`],
      ['X-Client-Id', l.target.clientId],
    ];
    const sig = signRequest(
      { method: 'GET', url: `${base.origin}${target}`, headers },
      {
        keyId: l.target.keyId,
        privateKey: l.target.privateKeyPem!,
        components: ['@method', '@path', '@query', 'authorization', 'x-client-id'],
      },
    );
    expect(sig.base).toContain(`&symbol=O'Reilly\n`);
    const res = await send(base.origin, 'GET', target, [
      ...headers,
      ['Signature-Input', sig.signatureInput],
      ['Signature', sig.signature],
    ]);
    expect(res.status, `${String(res.headers['www-authenticate'])} ${res.body}`).toBe(200);
    expect(res.body).toContain(`No stocks match \\"O'Reilly\\"`);
    // The same signature does not verify for the WHATWG-normalised target (' as %27): the value is the target as sent.
    const whatwg = new URL(`${base.origin}${target}`);
    expect(whatwg.search).toContain('O%27Reilly');
    const normalised = await send(base.origin, 'GET', `${whatwg.pathname}${whatwg.search}`, [
      ...headers,
      ['Signature-Input', sig.signatureInput],
      ['Signature', sig.signature],
    ]);
    expect(normalised.status).toBe(401);
  });
});

describe('RFC 9421 §3.2 step 6: an alg that is not the key\'s algorithm "MUST fail the verification"', () => {
  it('fails with ALG_MISMATCH for alg="rsa-pss-sha512" signed with the Ed25519 key, and passes with alg="ed25519"', () => {
    const m = b26Message();
    const withAlg = (alg: string) =>
      signRequest(m, {
        ...b26Options,
        privateKey: testKey.privateKeyPem,
        params: [
          ['created', 1618884473],
          ['keyid', 'test-key-ed25519'],
          ['alg', alg],
        ],
      });
    const mismatch = withAlg('rsa-pss-sha512');
    expect(mismatch.signatureInput).toContain(';alg="rsa-pss-sha512"');
    const verdict = verifySignature(signed(m, mismatch), { key: testKey.publicKeyPem, now: 1618884473 });
    expectFailure(verdict, 'ALG_MISMATCH', /alg "rsa-pss-sha512"/);
    expect(verifySignature(signed(m, withAlg('ed25519')), { key: testKey.publicKeyPem, now: 1618884473 }).ok).toBe(
      true,
    );
  });

  it('the reference server answers 401 to it', async () => {
    const l = await local();
    const t = l.target;
    const url = `${t.baseUrl}/oauth/token`;
    const body = new URLSearchParams({ clientId: t.clientId, clientSecret: t.clientSecret }).toString();
    const headers: Array<[string, string]> = [
      ['Content-Type', 'application/x-www-form-urlencoded'],
      ['Content-Length', String(Buffer.byteLength(body))],
      ['Content-Digest', contentDigest(body)],
      ['X-Idempotency-Key', randomUUID()],
    ];
    const now = Math.floor(Date.now() / 1000);
    const sig = signRequest(
      { method: 'POST', url, headers },
      {
        keyId: t.keyId,
        privateKey: t.privateKeyPem!,
        params: [
          ['keyid', t.keyId],
          ['alg', 'rsa-pss-sha512'],
          ['created', now],
          ['expires', now + 60],
        ],
      },
    );
    const u = new URL(url);
    const res = await send(
      u.origin,
      'POST',
      u.pathname,
      [...headers, ['Signature-Input', sig.signatureInput], ['Signature', sig.signature]],
      body,
    );
    expect(res.status).toBe(401);
  });
});

describe('RFC 9421 §2.1: component names are lowercased ("implementations MUST use lowercased field names")', () => {
  const m: HttpMessage = {
    method: 'GET',
    url: 'https://example.com/x',
    headers: [
      ['Authorization', 'Bearer abc'],
      ['X-Client-Id', 'acme'],
    ],
  };

  it('signRequest given "Authorization" lists and signs "authorization", and the result verifies', () => {
    const sig = signRequest(m, {
      keyId: 'k',
      privateKey: pair.seed,
      components: ['@method', 'Authorization', 'X-Client-Id'],
      created: T,
    });
    expect(sig.signatureInput).toBe(
      'sig1=("@method" "authorization" "x-client-id");keyid="k";created=1700000000;expires=1700000300',
    );
    expect(sig.base.split('\n')).toEqual([
      '"@method": GET',
      '"authorization": Bearer abc',
      '"x-client-id": acme',
      '"@signature-params": ("@method" "authorization" "x-client-id");keyid="k";created=1700000000;expires=1700000300',
    ]);
    expect(sig.components).toEqual(['@method', 'authorization', 'x-client-id']);
    const verdict = verifySignature(signed(m, sig), {
      key: pair.publicKey,
      now: T,
      requiredComponents: ['authorization'],
    });
    expect(verdict).toMatchObject({ ok: true, components: ['@method', 'authorization', 'x-client-id'] });
  });

  it('a Signature-Input listing "Authorization" is SIGNATURE_MALFORMED, saying so, not a bad signature', () => {
    const verdict = verifySignature(
      { ...m, signatureInput: 'sig1=("@method" "Authorization");created=1', signature: `sig1=:${'A'.repeat(86)}==:` },
      { key: pair.publicKey, now: 1 },
    );
    expectFailure(verdict, 'SIGNATURE_MALFORMED', /"Authorization" is not lowercase/);
  });
});

describe('RFC 9421 §3.2 step 1.1: several signatures, the one "based on the policy and configuration of the verifier"', () => {
  const proxy = generateEd25519();
  const m: HttpMessage = {
    method: 'POST',
    url: 'https://api.example.com/v1/orders',
    headers: [['X-Client-Id', 'acme']],
  };
  const both = () => {
    const p = signRequest(m, { keyId: 'proxy-1', privateKey: proxy.seed, label: 'proxy', created: T });
    const c = signRequest(m, { keyId: 'acme-2026', privateKey: pair.seed, label: 'sig1', created: T });
    return {
      ...m,
      headers: [
        ...m.headers,
        ['Signature-Input', `${p.signatureInput}, ${c.signatureInput}`],
        ['Signature', `${p.signature}, ${c.signature}`],
      ] as Array<[string, string]>,
    };
  };
  const clientKeys = (keyId: string | undefined) => (keyId === 'acme-2026' ? pair.publicKey : undefined);

  it('a key function of keyid verifies the signature whose keyid it knows, though another comes first', async () => {
    const verdict = verifySignature(both(), { key: clientKeys, now: T });
    expect(verdict).toMatchObject({ ok: true, label: 'sig1', keyId: 'acme-2026' });
    expect(await verifySignatureAsync(both(), { key: clientKeys, now: T })).toEqual(verdict);
  });

  it('no keyid known: the first signature is checked and fails with KEYID_UNKNOWN', () => {
    expectFailure(
      verifySignature(both(), { key: () => undefined, now: T }),
      'KEYID_UNKNOWN',
      /unknown keyid "proxy-1"/,
    );
  });

  it('a fixed key checks the first signature; a named label that one', () => {
    expect(verifySignature(both(), { key: proxy.publicKey, now: T })).toMatchObject({ ok: true, label: 'proxy' });
    expect(verifySignature(both(), { key: pair.publicKey, label: 'sig1', now: T })).toMatchObject({
      ok: true,
      label: 'sig1',
    });
    expectFailure(verifySignature(both(), { key: pair.publicKey, now: T }), 'SIGNATURE_INVALID');
    expectFailure(verifySignature(both(), { key: pair.publicKey, label: 'nope', now: T }), 'SIGNATURE_MISSING');
  });

  it("the reference server accepts a request whose client signature follows a proxy's", async () => {
    const l = await local();
    const token = await tokenFor(l);
    const url = `${l.target.baseUrl}/accounts?customerId=${l.target.fixtures.customerId!}`;
    const headers: Array<[string, string]> = [
      ['Authorization', `Bearer ${token}`],
      ['X-Client-Id', l.target.clientId],
    ];
    const p = signRequest(
      { method: 'GET', url, headers },
      { keyId: 'proxy-1', privateKey: proxy.seed, label: 'proxy' },
    );
    const c = signRequest(
      { method: 'GET', url, headers },
      { keyId: l.target.keyId, privateKey: l.target.privateKeyPem! },
    );
    const u = new URL(url);
    const res = await send(u.origin, 'GET', `${u.pathname}${u.search}`, [
      ...headers,
      ['Signature-Input', `${p.signatureInput}, ${c.signatureInput}`],
      ['Signature', `${p.signature}, ${c.signature}`],
    ]);
    expect(res.status, `${String(res.headers['www-authenticate'])} ${res.body}`).toBe(200);
  });
});

describe('RFC 9421 §2.5 step 4: "Produce an error if the output string contains any non-ASCII characters"', () => {
  const m: HttpMessage = { method: 'GET', url: 'https://example.com/x', headers: [['X-Client-Id', 'acmé']] };

  it('signing throws SignatureBaseError with code SIGNATURE_BASE_INVALID, naming the component', () => {
    let error: unknown;
    try {
      signRequest(m, { keyId: 'k', privateKey: pair.seed, components: ['@method', 'x-client-id'] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SignatureBaseError);
    expect((error as SignatureBaseError).code).toBe('SIGNATURE_BASE_INVALID');
    expect((error as Error).message).toMatch(
      /component "x-client-id" contains the non-ASCII character "é" \(U\+00E9\)/,
    );
  });

  it('verifying gives the verdict SIGNATURE_BASE_INVALID; a non-ASCII keyid or an uncovered header too, or not', () => {
    const verdict = verifySignature(
      { ...m, signatureInput: 'sig1=("@method" "x-client-id");created=1', signature: `sig1=:${'A'.repeat(86)}==:` },
      { key: pair.publicKey, now: 1 },
    );
    expectFailure(verdict, 'SIGNATURE_BASE_INVALID', /non-ASCII/);
    // Not covered: not in the base, no error.
    const sig = signRequest(m, { keyId: 'k', privateKey: pair.seed, components: ['@method'], created: T });
    expect(verifySignature(signed(m, sig), { key: pair.publicKey, now: T }).ok).toBe(true);
  });
});

describe('RFC 9421 §2.1: obsolete line folding is replaced by a single space', () => {
  // The §2.1 example message fragment and its signature base lines, word for word.
  const m: HttpMessage = {
    method: 'GET',
    url: 'https://www.example.com/',
    headers: [
      ['Host', 'www.example.com'],
      ['Date', 'Tue, 20 Apr 2021 02:07:56 GMT'],
      ['X-OWS-Header', '  Leading and trailing whitespace.  '],
      ['X-Obs-Fold-Header', 'Obsolete\r\n    line folding.'],
      ['Cache-Control', 'max-age=60'],
      ['Cache-Control', '   must-revalidate'],
      ['Example-Dict', ' a=1,    b=2;x=1;y=2,   c=(a   b   c)'],
    ],
  };
  const components = ['host', 'date', 'x-ows-header', 'x-obs-fold-header', 'cache-control', 'example-dict'];

  it('gives the §2.1 example lines, "x-obs-fold-header": Obsolete line folding. among them', () => {
    expect(signatureBase(m, components, signatureParamsValue(components, [])).split('\n').slice(0, 6)).toEqual([
      '"host": www.example.com',
      '"date": Tue, 20 Apr 2021 02:07:56 GMT',
      '"x-ows-header": Leading and trailing whitespace.',
      '"x-obs-fold-header": Obsolete line folding.',
      '"cache-control": max-age=60, must-revalidate',
      '"example-dict": a=1,    b=2;x=1;y=2,   c=(a   b   c)',
    ]);
  });

  it('signs and verifies a folded field; a bare line break (no fold) is still SIGNATURE_BASE_INVALID', () => {
    const sig = signRequest(m, { keyId: 'k', privateKey: pair.seed, components, created: T });
    expect(verifySignature(signed(m, sig), { key: pair.publicKey, now: T }).ok).toBe(true);
    const broken: HttpMessage = { ...m, headers: [['X-Obs-Fold-Header', 'Obsolete\r\nline folding.']] };
    expect(() => signRequest(broken, { keyId: 'k', privateKey: pair.seed, components: ['x-obs-fold-header'] })).toThrow(
      /contains a line break/,
    );
  });
});

describe('RFC 9421 §2.2.1: @method is "the value of the method as a string", case kept ("the method name is case-sensitive")', () => {
  it('"@method": post for a method sent as post; a signature over POST does not verify for it', () => {
    const lower: HttpMessage = { method: 'post', url: 'https://www.example.com/path?param=value', headers: [] };
    expect(signatureBase(lower, ['@method'], '("@method")')).toBe('"@method": post\n"@signature-params": ("@method")');
    const sig = signRequest({ ...lower, method: 'POST' }, { keyId: 'k', privateKey: pair.seed, created: T });
    expect(sig.base.split('\n')[0]).toBe('"@method": POST');
    expectFailure(verifySignature(signed(lower, sig), { key: pair.publicKey, now: T }), 'SIGNATURE_INVALID');
  });
});

describe('every failure has its code', () => {
  const m: HttpMessage = {
    method: 'PUT',
    url: 'https://api.example.com/v1/customers/1',
    headers: [
      ['X-Client-Id', 'acme'],
      ['Content-Type', 'application/json'],
    ],
  };
  const sig = (over: Parameters<typeof signRequest>[1] extends infer O ? Partial<O> : never = {}) =>
    signRequest(m, { keyId: 'k', privateKey: pair.seed, created: T, expires: T + 60, ...over });
  const cases: Array<[string, () => SignatureVerdict, SignatureFailure]> = [
    ['no Signature-Input', () => verifySignature(m, { key: pair.publicKey }), 'SIGNATURE_MISSING'],
    [
      'no Signature',
      () => verifySignature({ ...m, signatureInput: sig().signatureInput }, { key: pair.publicKey }),
      'SIGNATURE_MISSING',
    ],
    [
      'not a dictionary',
      () => verifySignature({ ...m, signatureInput: '(((', signature: sig().signature }, { key: pair.publicKey }),
      'SIGNATURE_MALFORMED',
    ],
    [
      'a label without its pair',
      () =>
        verifySignature(
          { ...m, signatureInput: sig().signatureInput, signature: sig({ label: 'other' }).signature },
          { key: pair.publicKey, now: T },
        ),
      'SIGNATURE_MALFORMED',
    ],
    [
      'created not an integer',
      () =>
        verifySignature(
          { ...m, signatureInput: 'sig1=("@method");created=1.5', signature: sig().signature },
          { key: pair.publicKey },
        ),
      'SIGNATURE_MALFORMED',
    ],
    [
      'a covered component with parameters',
      () =>
        verifySignature(
          { ...m, signatureInput: 'sig1=("x-client-id";sf);created=1', signature: sig().signature },
          { key: pair.publicKey, now: 1 },
        ),
      'SIGNATURE_MALFORMED',
    ],
    ['unknown keyid', () => verifySignature(signed(m, sig()), { key: () => undefined, now: T }), 'KEYID_UNKNOWN'],
    [
      'content-type required but not covered',
      () =>
        verifySignature(signed(m, sig({ components: ['@method'] })), {
          key: pair.publicKey,
          now: T,
          requiredComponents: ['content-type'],
        }),
      'COMPONENT_NOT_COVERED',
    ],
    [
      'a covered header the message lacks',
      () =>
        verifySignature({ ...m, headers: [['X-Client-Id', 'acme']], ...pick(sig()) }, { key: pair.publicKey, now: T }),
      'COMPONENT_MISSING',
    ],
    [
      'no created',
      () =>
        verifySignature(signed(m, sig({ params: [['keyid', 'k']] })), { key: pair.publicKey, requireCreated: true }),
      'SIGNATURE_CREATED_MISSING',
    ],
    [
      'no expires',
      () =>
        verifySignature(signed(m, sig({ params: [['created', T]] })), {
          key: pair.publicKey,
          now: T,
          requireExpires: true,
        }),
      'SIGNATURE_EXPIRES_MISSING',
    ],
    ['expired', () => verifySignature(signed(m, sig()), { key: pair.publicKey, now: T + 61 }), 'SIGNATURE_EXPIRED'],
    [
      'created too long ago',
      () =>
        verifySignature(signed(m, sig({ params: [['created', T]] })), {
          key: pair.publicKey,
          now: T + 400,
          maxAgeSeconds: 300,
        }),
      'SIGNATURE_EXPIRED',
    ],
    [
      'created in the future',
      () => verifySignature(signed(m, sig()), { key: pair.publicKey, now: T - 1 }),
      'SIGNATURE_CREATED_FUTURE',
    ],
    [
      'a window too long',
      () => verifySignature(signed(m, sig({ expires: T + 3600 })), { key: pair.publicKey, now: T, maxAgeSeconds: 300 }),
      'SIGNATURE_WINDOW_TOO_LONG',
    ],
    [
      'an unknown derived component',
      () =>
        verifySignature(
          { ...m, signatureInput: 'sig1=("@status");created=1', signature: sig().signature },
          { key: pair.publicKey, now: 1 },
        ),
      'SIGNATURE_BASE_INVALID',
    ],
    [
      'an RSA key',
      () =>
        verifySignature(signed(m, sig()), {
          key: generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey,
          now: T,
        }),
      'KEY_UNUSABLE',
    ],
    [
      'the key function gives no key material',
      () => verifySignature(signed(m, sig()), { key: () => 'not a key', now: T }),
      'KEY_UNUSABLE',
    ],
    [
      'altered bytes',
      () =>
        verifySignature(
          { ...signed(m, sig()), headers: [['X-Client-Id', 'evil'], m.headers[1]!] },
          {
            key: pair.publicKey,
            now: T,
          },
        ),
      'SIGNATURE_INVALID',
    ],
    [
      'another key',
      () => verifySignature(signed(m, sig()), { key: generateEd25519().publicKey, now: T }),
      'SIGNATURE_INVALID',
    ],
  ];
  for (const [name, verdictOf, code] of cases) {
    it(`${name}: ${code}, with a reason`, () => {
      const verdict = verdictOf();
      expect(verdict.ok).toBe(false);
      expect(verdict.code).toBe(code);
      expect(verdict.reason).toMatch(/\S/);
    });
  }

  it('a verdict that is ok has neither code nor reason', () => {
    const verdict = verifySignature(signed(m, sig()), { key: pair.publicKey, now: T });
    expect(verdict.ok).toBe(true);
    expect(verdict.code).toBeUndefined();
    expect(verdict.reason).toBeUndefined();
  });
});

function pick(s: { signatureInput: string; signature: string }) {
  return { signatureInput: s.signatureInput, signature: s.signature };
}

describe('the keys people have (issue 17, deliverable 5)', () => {
  const seed = Buffer.from(testKey.derivedPrivateKeySeedHex, 'hex');
  const publicRaw = Buffer.from(testKey.derivedPublicKeyHex, 'hex');
  const privateObject = createPrivateKey(testKey.privateKeyPem);

  it('signs RFC 9421 B.2.6 byte for byte with the private key in every form', async () => {
    const cryptoKey = await webcrypto.subtle.importKey(
      'pkcs8',
      privateObject.export({ format: 'der', type: 'pkcs8' }),
      { name: 'Ed25519' },
      true,
      ['sign'],
    );
    const forms: Array<[string, Parameters<typeof signRequest>[1]['privateKey']]> = [
      ['PKCS8 PEM text', testKey.privateKeyPem],
      ['PEM file bytes (readFileSync without an encoding)', Buffer.from(testKey.privateKeyPem)],
      [
        'PEM with its line breaks escaped as \\n (an environment variable)',
        testKey.privateKeyPem.replace(/\n/g, '\\n'),
      ],
      ['KeyObject', privateObject],
      ['WebCrypto CryptoKey', cryptoKey],
      ['JWK object', testKey.jwk],
      ['JWK JSON text', JSON.stringify(testKey.jwk)],
      ['32-byte seed', new Uint8Array(seed)],
      ['64-byte seed and public key (libsodium, tweetnacl)', Buffer.concat([seed, publicRaw])],
      ['PKCS8 DER', privateObject.export({ format: 'der', type: 'pkcs8' })],
    ];
    for (const [name, privateKey] of forms) {
      const sig = signRequest(b26Message(), { ...b26Options, privateKey });
      expect(sig.signature, name).toBe(b26.signature);
      expect(sig.base, name).toBe(b26.signatureBase);
    }
  });

  it('verifies B.2.6 with the public key in every form', () => {
    const publicObject = createPublicKey(testKey.publicKeyPem);
    const forms: Array<[string, Parameters<typeof verifySignature>[1]['key']]> = [
      ['SPKI PEM text', testKey.publicKeyPem],
      ['PKCS8 PEM text (its public key)', testKey.privateKeyPem],
      ['KeyObject (public)', publicObject],
      ['KeyObject (private: its public key)', privateObject],
      ['JWK object', { kty: 'OKP', crv: 'Ed25519', x: testKey.jwk.x }],
      ['JWK JSON text', JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: testKey.jwk.x })],
      ['raw 32-byte public key', new Uint8Array(publicRaw)],
      ['SPKI DER', publicObject.export({ format: 'der', type: 'spki' })],
      ['a function of keyid', (keyId) => (keyId === 'test-key-ed25519' ? testKey.jwk : undefined)],
    ];
    for (const [name, key] of forms) {
      const verdict = verifySignature(
        { ...b26Message(), signatureInput: b26.signatureInput, signature: b26.signature },
        {
          key,
        },
      );
      expect(verdict.ok, `${name}: ${verdict.reason}`).toBe(true);
    }
  });

  it('takes headers as an array of pairs, a plain object, a WHATWG Headers or a Map, with the same signature', () => {
    const pairs = testRequest.headers;
    const object = Object.fromEntries(pairs);
    const shapes = [pairs, object, new Headers(pairs), new Map(pairs)];
    for (const headers of shapes) {
      const sig = signRequest(
        { method: testRequest.method, url: testRequest.targetUri, headers },
        { ...b26Options, privateKey: testKey.privateKeyPem },
      );
      expect(sig.signature).toBe(b26.signature);
      const verdict = verifySignature(
        { method: testRequest.method, url: testRequest.targetUri, headers, ...pick(b26) },
        { key: testKey.publicKeyPem },
      );
      expect(verdict.ok).toBe(true);
    }
    // node:http's IncomingHttpHeaders: repeated fields as arrays, lowercase names.
    const incoming = { 'cache-control': ['max-age=60', 'must-revalidate'], 'content-length': '2' };
    expect(
      signatureBase(
        { method: 'GET', url: 'https://h/', headers: incoming },
        ['cache-control', 'content-length'],
        '()',
      ).split('\n'),
    ).toEqual(['"cache-control": max-age=60, must-revalidate', '"content-length": 2', '"@signature-params": ()']);
    // Signature-Input and Signature may come in the headers object itself.
    const withSig = { ...object, 'Signature-Input': b26.signatureInput, Signature: b26.signature };
    expect(
      verifySignature({ method: 'POST', url: testRequest.targetUri, headers: withSig }, { key: testKey.publicKeyPem })
        .ok,
    ).toBe(true);
  });

  it('refuses what is no key with a one-line KeyError (CONFORMANCE_ERR_KEY) that says what it got', () => {
    const m = b26Message();
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const refusals: Array<[unknown, RegExp]> = [
      ['my-secret-key', /is text but neither PEM .* nor a JWK; pass raw bytes as a Uint8Array/],
      [testKey.publicKeyPem, /is a public key \(PEM labelled PUBLIC KEY\); signing needs the PRIVATE KEY/],
      ['-----BEGIN PRIVATE KEY-----\nnot base64\n-----END PRIVATE KEY-----', /is not a PKCS8 PEM private key/],
      [rsa.privateKey.export({ format: 'pem', type: 'pkcs8' }), /is a rsa key, not Ed25519/],
      [rsa.privateKey, /is a rsa key, not Ed25519/],
      [createPublicKey(testKey.publicKeyPem), /is a public KeyObject; signing needs the private key/],
      [new Uint8Array(31), /is 31 bytes: not a 32-byte Ed25519 seed/],
      [Buffer.concat([seed, Buffer.alloc(32)]), /64 bytes whose second half is not the public key/],
      [{ kty: 'OKP', crv: 'Ed25519', x: testKey.jwk.x }, /is a public JWK \(no "d"\)/],
      [{ kty: 'EC', crv: 'P-256', d: 'x' }, /is a JWK with kty "EC" crv "P-256", not OKP Ed25519/],
      ['{not json', /is text starting with "\{" but not JSON/],
      [42, /is number: expected PKCS8 PEM text, a JWK, a KeyObject or the 32-byte Ed25519 seed/],
      [undefined, /is undefined: expected/],
      [{ key: 'x' }, /is an object \(Object\): expected/],
    ];
    for (const [privateKey, message] of refusals) {
      let error: unknown;
      try {
        signRequest(m, { ...b26Options, privateKey: privateKey as string });
      } catch (e) {
        error = e;
      }
      expect(error, String(message)).toBeInstanceOf(KeyError);
      expect((error as KeyError).code).toBe('CONFORMANCE_ERR_KEY');
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('\n');
    }
    expect(() => verifySignature({ ...m, ...pick(b26) }, { key: 'ssh-ed25519 AAAA' })).toThrow(KeyError);
    expect(() => verifySignature({ ...m, ...pick(b26) }, { key: new Uint8Array(5) })).toThrow(
      /the verification key is 5 bytes: not a 32-byte Ed25519 public key/,
    );
  });

  it('refuses headers that are none of the shapes with a one-line TypeError', () => {
    const bad = [{ 'x-a': { nested: true } }, [['only-a-name']], 'X-A: b'];
    for (const headers of bad)
      expect(() =>
        signRequest(
          { method: 'GET', url: 'https://h/', headers: headers as never },
          { keyId: 'k', privateKey: pair.seed },
        ),
      ).toThrow(TypeError);
  });

  it('signs with the PEM text a config holds and a plain headers object, and the reference server answers 200', async () => {
    const l = await local();
    const token = await tokenFor(l); // the token request: signed with the PEM text and a headers object, sent by fetch
    const url = `${l.target.baseUrl}/accounts?customerId=${l.target.fixtures.customerId!}`;
    const headers = { Authorization: `Bearer ${token}`, 'X-Client-Id': l.target.clientId };
    const sig = signRequest(
      { method: 'GET', url, headers },
      { keyId: l.target.keyId, privateKey: l.target.privateKeyPem! },
    );
    const res = await fetch(url, {
      headers: { ...headers, 'Signature-Input': sig.signatureInput, Signature: sig.signature },
    });
    expect(res.status, `${res.headers.get('www-authenticate')}`).toBe(200);
  });
});
