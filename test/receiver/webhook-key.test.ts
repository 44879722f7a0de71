// The webhook public key in every form a server may reasonably publish it, wherever it sits in `data`.
import { describe, expect, it } from 'vitest';
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { generate } from 'selfsigned';
import { generateEd25519 } from '../../src/http/keys.js';
import { describeKeyForm, findWebhookKey, type KeySearch } from '../../src/receiver/webhook-key.js';

const pair = generateEd25519();
const raw = Buffer.from(pair.publicKey);
const thumbprint = 'Q2x6ZKQdX1Lr5HvpePzYd4Nlz4F3sE3aFhvWq0hUGiE';

function found(result: KeySearch) {
  if (!result.ok) throw new Error(`no key: ${result.reason}`);
  return result.found;
}

/** The key found verifies what the matching private key signed: it is the key, not merely 32 bytes. */
function expectTheKey(result: KeySearch): void {
  const message = Buffer.from('a delivery');
  expect(verify(null, message, found(result).key, sign(null, message, createPrivateKey(pair.privateKeyPem)))).toBe(
    true,
  );
  expect(Buffer.from(found(result).raw)).toEqual(raw);
}

describe('findWebhookKey', () => {
  it('reads an SPKI PEM, and reports where it was and the key id beside it', () => {
    const r = findWebhookKey({ keyId: thumbprint, algorithm: 'ed25519', publicKey: pair.publicKeyPem });
    expectTheKey(r);
    expect(found(r).form).toBe('pem');
    expect(found(r).path).toBe('data.publicKey');
    expect(found(r).keyId).toBe(thumbprint);
    expect(describeKeyForm(found(r))).toBe(`SPKI PEM at data.publicKey (key id "${thumbprint}")`);
  });

  it('reads a PEM whose line breaks arrived as literal \\n', () => {
    expectTheKey(findWebhookKey({ key: pair.publicKeyPem.replace(/\n/g, '\\n') }));
  });

  it('reads a JWK (OKP/Ed25519) nested anywhere, with its kid', () => {
    const jwk = { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url'), kid: thumbprint };
    const r = findWebhookKey({ key: { jwk } });
    expectTheKey(r);
    expect(found(r)).toMatchObject({ form: 'jwk', path: 'data.key.jwk', keyId: thumbprint });
    const set = findWebhookKey({ keys: [jwk] });
    expect(found(set).path).toBe('data.keys[0]');
  });

  it('reads the raw 32 bytes in base64 (padded or not), base64url and hex', () => {
    for (const [text, form] of [
      [raw.toString('base64'), raw.toString('base64').match(/[+/]/) ? 'raw-base64' : undefined],
      [raw.toString('base64').replace(/=$/, ''), undefined],
      [raw.toString('base64url'), undefined],
      [raw.toString('hex'), 'raw-hex'],
      [raw.toString('hex').toUpperCase(), 'raw-hex'],
    ] as const) {
      const r = findWebhookKey({ webhookKey: { value: text } });
      expectTheKey(r);
      if (form) expect(found(r).form).toBe(form);
      expect(found(r).path).toBe('data.webhookKey.value');
    }
  });

  it('reads the key when data itself is the string', () => {
    expectTheKey(findWebhookKey(raw.toString('base64url')));
    expectTheKey(findWebhookKey(pair.publicKeyPem));
  });

  it('reads a DER SPKI in base64', () => {
    const der = createPublicKey(pair.publicKeyPem).export({ format: 'der', type: 'spki' });
    const r = findWebhookKey({ spki: der.toString('base64') });
    expectTheKey(r);
    expect(found(r).form).toBe('der-base64');
    expectTheKey(findWebhookKey({ spki: der.toString('base64url') }));
  });

  it('reads the key of a certificate, and refuses one whose key is not Ed25519', async () => {
    const ec = await generate([{ name: 'commonName', value: 'hooks' }], { keyType: 'ec', algorithm: 'sha256' });
    expect(findWebhookKey({ certificate: ec.cert })).toEqual({
      ok: false,
      reason: expect.stringContaining('a ec key at data.certificate, not Ed25519'),
    });
  });

  it('prefers a self-describing key over a 32-byte identifier beside it, and never takes an id for the key', () => {
    // A thumbprint is 32 bytes in base64url, exactly like a raw key.
    const r = findWebhookKey({
      kid: thumbprint,
      keyId: thumbprint,
      id: raw.toString('hex').replace(/./, 'f'),
      publicKey: pair.publicKeyPem,
    });
    expectTheKey(r);
    const onlyId = findWebhookKey({ keyId: thumbprint, fingerprint: raw.toString('hex') });
    expect(onlyId.ok).toBe(false);
  });

  it('counts other distinct key candidates', () => {
    const other = generateEd25519();
    const r = findWebhookKey({
      publicKey: pair.publicKeyPem,
      previous: Buffer.from(other.publicKey).toString('base64url'),
    });
    expectTheKey(r);
    expect(r.ok && r.others).toBe(1);
  });

  it('refuses what is not an Ed25519 public key, and says what it found', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .publicKey.export({ format: 'pem', type: 'spki' })
      .toString();
    const rsaResult = findWebhookKey({ publicKey: rsa });
    expect(rsaResult).toEqual({
      ok: false,
      reason: expect.stringContaining('a rsa key at data.publicKey, not Ed25519'),
    });
    const ec = findWebhookKey({ jwk: { kty: 'EC', crv: 'P-256', x: 'abc', y: 'def' } });
    expect(ec).toEqual({
      ok: false,
      reason: expect.stringContaining('a JWK at data.jwk of kty "EC" crv "P-256", not OKP/Ed25519'),
    });
    const short = findWebhookKey({ jwk: { kty: 'OKP', crv: 'Ed25519', x: raw.subarray(1).toString('base64url') } });
    expect(short.ok).toBe(false);
    const priv = findWebhookKey({ key: pair.privateKeyPem });
    expect(priv).toEqual({ ok: false, reason: expect.stringContaining('a private key at data.key') });
    expect(findWebhookKey({ message: 'no key here', n: 3, list: [] })).toEqual({
      ok: false,
      reason: expect.stringMatching(/^no Ed25519 public key .* anywhere in data$/),
    });
    expect(findWebhookKey(null).ok).toBe(false);
  });

  it('stays bounded on a deep or huge value', () => {
    let deep: unknown = { publicKey: pair.publicKeyPem };
    for (let i = 0; i < 10_000; i++) deep = { d: deep };
    expect(findWebhookKey(deep).ok).toBe(false);
    // Bounded by the nodes it visits (a cap), which the machine's load cannot change: a key after 50,000 values is
    // never reached, one after 100 is.
    const wide = { list: Array.from({ length: 50_000 }, (_, i) => `v${i}`), publicKey: pair.publicKeyPem };
    expect(findWebhookKey(wide).ok).toBe(false);
    expect(findWebhookKey({ list: wide.list.slice(0, 100), publicKey: pair.publicKeyPem }).ok).toBe(true);
  });
});
