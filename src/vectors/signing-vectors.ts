// Signing vectors for SDK authors (issue 17): every request shape of the Investment API signed with the published TEST
// key at a fixed time, with the covered components, the signature base, the signature and the content digest an
// implementation must produce byte for byte; and negative cases, each with the rejection code the sandbox gives. They
// are data, usable offline and without our code; `conformance vectors --out DIR` writes them, and the project's own
// tests read the committed copy (test/fixtures/vectors/api/) and check it against this generator and our verifier.
import { contentDigest } from '../http/digest.js';
import { parsePrivateKeyPem } from '../http/keys.js';
import type { HttpMessage } from '../http/message.js';
import { signRequest } from '../http/signature.js';

const VECTORS_FORMAT = 'conformance-signing-vectors';

/** When every vector was signed (Unix seconds), and the moment a verifier should take as "now" to accept them. */
const CREATED = 1_767_225_600; // 2026-01-01T00:00:00Z
const TTL = 300;
const BASE = 'https://api.example.test/v1';
const KEY_ID = 'conformance-test-key';
const CLIENT_ID = 'example-client';
const TOKEN = 'example-token-0123456789abcdef';

interface RequestShape {
  name: string;
  description: string;
  method: string;
  path: string;
  headers: Array<[string, string]>;
  body?: string;
}

interface SigningVector {
  name: string;
  description: string;
  request: { method: string; url: string; headers: Array<[string, string]>; body?: string };
  components: string[];
  signatureInput: string;
  signatureBase: string;
  signature: string;
  contentDigest?: string;
}

interface NegativeVector {
  name: string;
  description: string;
  /** The request as sent: headers include Signature-Input, Signature and, with a body, Content-Digest. */
  request: { method: string; url: string; headers: Array<[string, string]>; body?: string };
  /** What the sandbox answers, and the rule's code in the body and the Conformance-Rejection header. */
  expect: { status: 401; code: string };
}

export interface SigningVectors {
  format: typeof VECTORS_FORMAT;
  version: 1;
  note: string;
  key: { keyId: string; algorithm: 'ed25519'; privateKeyPem: string; publicKeyPem: string; test: true };
  /** Take this as "now" when verifying (a window of `created` to `expires`). */
  verifyAt: number;
  vectors: SigningVector[];
  negative: NegativeVector[];
}

const json = (value: unknown) => JSON.stringify(value);

const SHAPES: RequestShape[] = [
  {
    name: 'token-request',
    description: 'POST /oauth/token: form-encoded credentials, signed, without Authorization and without X-Client-Id',
    method: 'POST',
    path: '/oauth/token',
    headers: [['Content-Type', 'application/x-www-form-urlencoded']],
    body: `clientId=${CLIENT_ID}&clientSecret=example-secret`,
  },
  {
    name: 'get-with-query',
    description: 'GET with a query: @query is covered',
    method: 'GET',
    path: '/instruments?investmentType=INTERNATIONAL_STOCKS&limit=1',
    headers: [
      ['Authorization', `Bearer ${TOKEN}`],
      ['X-Client-Id', CLIENT_ID],
    ],
  },
  {
    name: 'get-query-as-sent',
    description:
      "@path and @query are the request target as sent (RFC 9421 §2.2.6, §2.2.7): the ' is not percent-encoded",
    method: 'GET',
    path: "/ussd/stocks?customerId=1&symbol=O'Reilly",
    headers: [
      ['Authorization', `Bearer ${TOKEN}`],
      ['X-Client-Id', CLIENT_ID],
    ],
  },
  {
    name: 'put-json',
    description:
      'PUT /customers with a JSON body: Content-Digest (RFC 9530, sha-512), Content-Type and Content-Length covered',
    method: 'PUT',
    path: '/customers',
    headers: [
      ['Authorization', `Bearer ${TOKEN}`],
      ['X-Client-Id', CLIENT_ID],
      ['Content-Type', 'application/json'],
    ],
    body: json({ customerId: 7, firstName: 'Ada' }),
  },
  {
    name: 'post-webhooks',
    description: 'POST /webhooks with a JSON body and an idempotency key',
    method: 'POST',
    path: '/webhooks',
    headers: [
      ['Authorization', `Bearer ${TOKEN}`],
      ['X-Client-Id', CLIENT_ID],
      ['Content-Type', 'application/json'],
      ['X-Idempotency-Key', '6f1c2a7e-8d44-4b0e-9a61-1f7b8c9d0e21'],
    ],
    body: json({ url: 'https://partner.example.test/hooks', subscriptions: ['ALL'] }),
  },
];

function signed(
  shape: RequestShape,
  seed: Uint8Array,
  params?: { created?: number; expires?: number; keyId?: string },
) {
  const headers: Array<[string, string]> = [...shape.headers];
  const digest = shape.body !== undefined ? contentDigest(Buffer.from(shape.body, 'utf8')) : undefined;
  if (shape.body !== undefined) headers.push(['Content-Length', String(Buffer.byteLength(shape.body))]);
  if (digest !== undefined) headers.push(['Content-Digest', digest]);
  const message: HttpMessage = { method: shape.method, url: `${BASE}${shape.path}`, headers };
  const created = params?.created ?? CREATED;
  const s = signRequest(message, {
    keyId: params?.keyId ?? KEY_ID,
    privateKey: seed,
    created,
    expires: params?.expires ?? created + TTL,
  });
  return { message, digest, s };
}

function sent(message: HttpMessage, s: { signatureInput: string; signature: string }, body: string | undefined) {
  return {
    method: message.method,
    url: message.url,
    headers: [
      ...message.headers,
      ['Signature-Input', s.signatureInput] as [string, string],
      ['Signature', s.signature] as [string, string],
    ],
    ...(body !== undefined ? { body } : {}),
  };
}

/** Builds the vectors from the TEST key's PKCS8 PEM; the same key and code give the same bytes (Ed25519 is deterministic). */
export function buildSigningVectors(privateKeyPem: string): SigningVectors {
  const key = parsePrivateKeyPem(privateKeyPem);
  return {
    format: VECTORS_FORMAT,
    version: 1,
    note: 'TEST KEY: published with the package, never register it anywhere real. Signed at verifyAt with the signing profile of the Investment Service Interface (RFC 9421, Ed25519, label sig1, keyid/created/expires, 300 s). Negative cases give the code of the sandbox (conformance serve) in the 401 body and the Conformance-Rejection header.',
    key: { keyId: KEY_ID, algorithm: 'ed25519', privateKeyPem, publicKeyPem: key.publicKeyPem, test: true },
    verifyAt: CREATED + 1,
    vectors: SHAPES.map((shape) => signingVector(shape, key.seed)),
    negative: NEGATIVE_CASES.map(({ name, description, code, request }) => ({
      name,
      description,
      request: request(key.seed),
      expect: { status: 401, code },
    })),
  };
}

/** One request shape signed with the TEST key, with its signature base and Content-Digest. */
function signingVector(shape: RequestShape, seed: Uint8Array): SigningVector {
  const { message, digest, s } = signed(shape, seed);
  return {
    name: shape.name,
    description: shape.description,
    request: {
      method: message.method,
      url: message.url,
      headers: message.headers,
      ...(shape.body !== undefined ? { body: shape.body } : {}),
    },
    components: s.components,
    signatureInput: s.signatureInput,
    signatureBase: s.base,
    signature: s.signature,
    ...(digest !== undefined ? { contentDigest: digest } : {}),
  };
}

const PUT = SHAPES.find((s) => s.name === 'put-json')!;
const GET = SHAPES.find((s) => s.name === 'get-with-query')!;

/** The GET shape signed with other parameters (a time, a keyid), as sent. */
function sentGet(seed: Uint8Array, params: { created?: number; expires?: number; keyId?: string }) {
  const { message, s } = signed(GET, seed, params);
  return sent(message, s, undefined);
}

/** The GET shape unsigned: the message a negative case signs its own way. */
function unsignedGet(): HttpMessage {
  return { method: GET.method, url: `${BASE}${GET.path}`, headers: [...GET.headers] };
}

/** The negative cases, in the order of the file: each one request the sandbox rejects, and the code it gives. */
const NEGATIVE_CASES: Array<{
  name: string;
  description: string;
  code: string;
  request: (seed: Uint8Array) => NegativeVector['request'];
}> = [
  {
    name: 'body-altered',
    description: 'the body was changed after signing: Content-Digest no longer matches it',
    code: 'DIGEST_MISMATCH',
    request: (seed) => {
      const { message, s } = signed(PUT, seed);
      return sent(message, s, PUT.body!.replace('Ada', 'Eve'));
    },
  },
  {
    name: 'signature-altered',
    description: 'one byte of the signature changed',
    code: 'SIGNATURE_INVALID',
    request: (seed) => {
      const { message, s } = signed(GET, seed);
      const bytes = Buffer.from(s.signature.slice(s.signature.indexOf(':') + 1, -1), 'base64');
      bytes[0] = bytes[0]! ^ 0xff;
      return sent(message, { ...s, signature: `${s.label}=:${bytes.toString('base64')}:` }, undefined);
    },
  },
  {
    name: 'expired',
    description: 'expires is an hour before verifyAt',
    code: 'SIGNATURE_EXPIRED',
    request: (seed) => sentGet(seed, { created: CREATED - 3600, expires: CREATED - 3600 + TTL }),
  },
  {
    name: 'created-in-the-future',
    description: 'created is an hour after verifyAt',
    code: 'SIGNATURE_CREATED_FUTURE',
    request: (seed) => sentGet(seed, { created: CREATED + 3600, expires: CREATED + 3600 + TTL }),
  },
  {
    name: 'unknown-keyid',
    description: 'keyid names no key of the client',
    code: 'KEYID_UNKNOWN',
    request: (seed) => sentGet(seed, { keyId: 'no-such-key' }),
  },
  {
    name: 'authorization-not-covered',
    description: 'the request carries Authorization but the signature does not cover it',
    code: 'COMPONENT_NOT_COVERED',
    request: (seed) => {
      const message = unsignedGet();
      const s = signRequest(message, {
        keyId: KEY_ID,
        privateKey: seed,
        created: CREATED,
        expires: CREATED + TTL,
        components: ['@method', '@target-uri', '@path', '@query', 'x-client-id'],
      });
      return sent(message, s, undefined);
    },
  },
  {
    name: 'alg-mismatch',
    description: 'alg="rsa-pss-sha512" on a signature made with the Ed25519 key (RFC 9421 §3.2 step 6)',
    code: 'ALG_MISMATCH',
    request: (seed) => {
      const message = unsignedGet();
      const params: Array<[string, string | number]> = [
        ['alg', 'rsa-pss-sha512'],
        ['keyid', KEY_ID],
        ['created', CREATED],
        ['expires', CREATED + TTL],
      ];
      return sent(message, signRequest(message, { keyId: KEY_ID, privateKey: seed, params }), undefined);
    },
  },
];
