import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createPublicKey, sign as cryptoSign, verify as cryptoVerify, createPrivateKey } from 'node:crypto';
import * as ed from '@noble/ed25519';
import {
  signRequest,
  signEd25519,
  verifySignature,
  verifySignatureAsync,
  profileComponents,
} from '../../src/http/signature.js';
import { signatureBase, signatureParamsValue, type SignatureParam } from '../../src/http/signature-base.js';
import { parsePrivateKeyPem, generateEd25519, privateKeyFromSeed } from '../../src/http/keys.js';
import type { HttpMessage } from '../../src/http/message.js';

interface Example {
  id: string;
  message: string;
  label: string;
  coveredComponents: string[];
  signatureParameters: SignatureParam[];
  signatureInput: string;
  signatureBase: string | null;
  signature: string;
  expectValid: boolean;
}
const vectors = JSON.parse(
  readFileSync(new URL('../fixtures/vectors/rfc9421-ed25519.json', import.meta.url), 'utf8'),
) as {
  keys: Array<{ privateKeyPem: string; publicKeyPem: string; derivedPublicKeyHex: string }>;
  messages: Record<string, { method: string; targetUri: string; headers: Array<[string, string]> }>;
  examples: Example[];
};
const key = vectors.keys[0]!;
const messageOf = (name: string): HttpMessage => {
  const m = vectors.messages[name]!;
  return { method: m.method, url: m.targetUri, headers: m.headers };
};

describe('RFC 9421 Ed25519 vectors', () => {
  it('reads the B.1.4 test key from PKCS8 PEM', () => {
    const pair = parsePrivateKeyPem(key.privateKeyPem);
    expect(Buffer.from(pair.publicKey).toString('hex')).toBe(key.derivedPublicKeyHex);
  });

  it('reproduces B.2.6 byte for byte: signature base, Signature-Input and Signature', () => {
    const ex = vectors.examples.find((e) => e.id === 'B.2.6')!;
    const signed = signRequest(messageOf(ex.message), {
      keyId: 'test-key-ed25519',
      privateKey: parsePrivateKeyPem(key.privateKeyPem).seed,
      label: ex.label,
      components: ex.coveredComponents,
      params: ex.signatureParameters,
    });
    expect(signed.base).toBe(ex.signatureBase);
    expect(signed.signatureInput).toBe(ex.signatureInput);
    expect(signed.signature).toBe(ex.signature);
  });

  for (const ex of vectors.examples) {
    it(`verifies ${ex.id} with node:crypto: ${ex.expectValid ? 'valid' : 'invalid'}`, () => {
      const message = messageOf(ex.message);
      const verdict = verifySignature(
        { ...message, signatureInput: ex.signatureInput, signature: ex.signature },
        { key: key.publicKeyPem },
      );
      expect(verdict.ok).toBe(ex.expectValid);
      expect(verdict.label).toBe(ex.label);
      expect(verdict.components).toEqual(ex.coveredComponents);
      if (ex.signatureBase !== null) expect(verdict.base).toBe(ex.signatureBase);
      if (!ex.expectValid) expect(verdict.reason).toMatch(/does not verify/);
    });

    it(`verifies ${ex.id} on the thread pool with the same verdict`, async () => {
      const message = { ...messageOf(ex.message), signatureInput: ex.signatureInput, signature: ex.signature };
      expect(await verifySignatureAsync(message, { key: key.publicKeyPem })).toEqual(
        verifySignature(message, { key: key.publicKeyPem }),
      );
    });
  }
});

describe('signing profile', () => {
  const pair = generateEd25519();
  const message: HttpMessage = {
    method: 'PUT',
    url: 'http://127.0.0.1:8080/v1/customers?x=1',
    headers: [
      ['Authorization', 'Bearer abc'],
      ['X-Client-Id', 'acme'],
      ['X-Idempotency-Key', 'k-1'],
      ['Content-Type', 'application/json'],
      ['Content-Length', '2'],
      [
        'Content-Digest',
        'sha-512=:z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg==:',
      ],
    ],
  };

  it('covers the components the request carries, in the profile order', () => {
    expect(profileComponents(message)).toEqual([
      '@method',
      '@target-uri',
      '@path',
      '@query',
      'authorization',
      'content-digest',
      'content-length',
      'content-type',
      'x-client-id',
      'x-idempotency-key',
    ]);
    expect(profileComponents({ method: 'GET', url: 'http://h/v1/a', headers: [['X-Client-Id', 'c']] })).toEqual([
      '@method',
      '@target-uri',
      '@path',
      'x-client-id',
    ]);
  });

  it('makes a signature that node:crypto verifies, with label sig1, keyid, created and expires', () => {
    const signed = signRequest(message, {
      keyId: 'acme-2026',
      privateKey: pair.seed,
      created: 1_700_000_000,
      expires: 1_700_000_060,
    });
    expect(signed.signatureInput).toBe(
      'sig1=("@method" "@target-uri" "@path" "@query" "authorization" "content-digest" "content-length" "content-type" "x-client-id" "x-idempotency-key");keyid="acme-2026";created=1700000000;expires=1700000060',
    );
    const raw = Buffer.from(signed.signature.replace(/^sig1=:|:$/g, ''), 'base64');
    const nodeOk = createPublicKey(pair.publicKeyPem);
    // The same bytes through node:crypto directly, not through our verifier.
    expect(raw.length).toBe(64);
    expect(cryptoVerify(null, Buffer.from(signed.base), nodeOk, raw)).toBe(true);
    const verdict = verifySignature(
      { ...message, signatureInput: signed.signatureInput, signature: signed.signature },
      { key: pair.publicKey, now: 1_700_000_010 },
    );
    expect(verdict).toMatchObject({ ok: true, keyId: 'acme-2026', label: 'sig1' });
  });

  it('agrees with @noble/ed25519, an implementation independent of the node:crypto one it signs with', async () => {
    const signed = signRequest(message, { keyId: 'k', privateKey: pair.seed, created: 1, expires: 2 });
    const nobleSig = Buffer.from(await ed.signAsync(Buffer.from(signed.base), pair.seed)).toString('base64');
    expect(signed.signature).toBe(`sig1=:${nobleSig}:`);
  });

  it('signs with the key of the seed it is given, when seeds alternate', () => {
    const other = generateEd25519();
    const data = Buffer.from('the same bytes');
    const sigs = [pair, other, pair, other].map((p) => Buffer.from(signEd25519(p.seed, data)));
    expect(cryptoVerify(null, data, createPublicKey(pair.publicKeyPem), sigs[0]!)).toBe(true);
    expect(cryptoVerify(null, data, createPublicKey(other.publicKeyPem), sigs[1]!)).toBe(true);
    expect(cryptoVerify(null, data, createPublicKey(pair.publicKeyPem), sigs[1]!)).toBe(false);
    expect(sigs[2]).toEqual(sigs[0]);
    expect(sigs[3]).toEqual(sigs[1]);
  });

  it('signs with the right key when more seeds take turns than it keeps key objects for', () => {
    const pairs = Array.from({ length: 6 }, () => generateEd25519());
    const data = Buffer.from('round robin');
    for (let round = 0; round < 2; round++) {
      for (const p of pairs)
        expect(cryptoVerify(null, data, createPublicKey(p.publicKeyPem), signEd25519(p.seed, data))).toBe(true);
    }
  });

  it('signs with the new bytes when a seed buffer is overwritten in place', () => {
    const seed = new Uint8Array(pair.seed);
    const data = Buffer.from('x');
    const before = Buffer.from(signEd25519(seed, data));
    const other = generateEd25519();
    seed.set(other.seed);
    expect(Buffer.from(signEd25519(seed, data))).not.toEqual(before);
    expect(cryptoVerify(null, data, createPublicKey(other.publicKeyPem), signEd25519(seed, data))).toBe(true);
  });

  it('refuses a seed that is not 32 bytes', () => {
    expect(() => privateKeyFromSeed(new Uint8Array(31))).toThrow(/31 bytes, not a 32-byte Ed25519 seed/);
    expect(() => signEd25519(new Uint8Array(33), Buffer.from('x'))).toThrow(/33 bytes/);
  });

  it('agrees with node:crypto signatures: Ed25519 is deterministic', () => {
    const signed = signRequest(message, { keyId: 'k', privateKey: pair.seed, created: 1, expires: 2 });
    const nodeSig = cryptoSign(null, Buffer.from(signed.base), createPrivateKey(pair.privateKeyPem)).toString('base64');
    expect(signed.signature).toBe(`sig1=:${nodeSig}:`);
  });

  it('rejects a tampered covered header, an expired signature, a missing required component and an unknown key', () => {
    const signed = signRequest(message, { keyId: 'k', privateKey: pair.seed, created: 1000, expires: 1060 });
    const base = { ...message, signatureInput: signed.signatureInput, signature: signed.signature };
    const tampered = {
      ...base,
      headers: message.headers.map(([n, v]) => [n, n === 'X-Client-Id' ? 'evil' : v] as [string, string]),
    };
    expect(verifySignature(tampered, { key: pair.publicKey, now: 1010 }).reason).toMatch(/does not verify/);
    expect(verifySignature(base, { key: pair.publicKey, now: 2000 }).reason).toMatch(/expired/);
    expect(verifySignature(base, { key: pair.publicKey, now: 500 }).reason).toMatch(/future/);
    const unsignedLength = signRequest(message, {
      keyId: 'k',
      privateKey: pair.seed,
      components: ['@method'],
      created: 1000,
      expires: 1060,
    });
    expect(
      verifySignature(
        { ...message, signatureInput: unsignedLength.signatureInput, signature: unsignedLength.signature },
        { key: pair.publicKey, now: 1010, requiredComponents: ['content-digest'] },
      ).reason,
    ).toMatch(/does not cover "content-digest"/);
    expect(verifySignature(base, { key: () => undefined, now: 1010 }).reason).toMatch(/unknown keyid "k"/);
  });

  it('builds @query as "?" when the URL has none and refuses a covered header the message lacks', () => {
    const m: HttpMessage = { method: 'GET', url: 'https://a.example/v1/x', headers: [] };
    expect(signatureBase(m, ['@method', '@query'], signatureParamsValue(['@method', '@query'], []))).toBe(
      '"@method": GET\n"@query": ?\n"@signature-params": ("@method" "@query")',
    );
    expect(() => signatureBase(m, ['x-client-id'], '()')).toThrow(/not in the message/);
  });
});

describe('RFC 8032 Section 7.1 Ed25519 vectors', () => {
  const rfc8032 = JSON.parse(
    readFileSync(new URL('../fixtures/vectors/rfc8032-ed25519.json', import.meta.url), 'utf8'),
  ) as {
    vectors: Array<{ name: string; secretKey: string; publicKey: string; message: string; signature: string }>;
  };
  for (const v of rfc8032.vectors) {
    it(`${v.name}: the client's signer gives the RFC's signature, and so does @noble/ed25519`, async () => {
      const seed = Buffer.from(v.secretKey, 'hex');
      const message = Buffer.from(v.message, 'hex');
      expect(Buffer.from(signEd25519(seed, message)).toString('hex')).toBe(v.signature);
      expect(Buffer.from(await ed.signAsync(message, seed)).toString('hex')).toBe(v.signature);
      expect(Buffer.from(await ed.getPublicKeyAsync(seed)).toString('hex')).toBe(v.publicKey);
    });
  }
});
