// Ed25519 key material: PEM containers and raw bytes to and from node:crypto key objects.
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  KeyObject,
  type JsonWebKey,
  type webcrypto,
} from 'node:crypto';
import { KeyError } from '../errors.js';

export interface Ed25519KeyPair {
  /** The 32-byte private seed (RFC 8032 "secret key"). */
  seed: Uint8Array;
  /** The 32-byte public key. */
  publicKey: Uint8Array;
  publicKeyPem: string;
}

// Not Ed25519 key material: an error with a code, so it lives with the others.
export { KeyError };

function fromBase64url(s: string): Uint8Array {
  return new Uint8Array(Buffer.from(s, 'base64url'));
}

/** Reads a PKCS8 PEM Ed25519 private key. Throws KeyError with a one-line reason otherwise. */
export function parsePrivateKeyPem(pem: string): Ed25519KeyPair {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new KeyError('is not a PKCS8 PEM private key (expected a PEM block labelled PRIVATE KEY)');
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new KeyError(`is a ${key.asymmetricKeyType ?? 'unknown'} key, not Ed25519`);
  }
  const jwk = key.export({ format: 'jwk' });
  const pub = createPublicKey(key);
  return {
    seed: fromBase64url(jwk.d as string),
    publicKey: fromBase64url(jwk.x as string),
    publicKeyPem: pub.export({ format: 'pem', type: 'spki' }).toString(),
  };
}

/** A fresh key pair, as PEM texts and raw bytes: the local target and the reference server make their own. */
export function generateEd25519(): Ed25519KeyPair & { privateKeyPem: string } {
  const { privateKey } = generateKeyPairSync('ed25519');
  const privateKeyPem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  return { ...parsePrivateKeyPem(privateKeyPem), privateKeyPem };
}

/** A node:crypto public key object from raw 32 bytes, for verification with node:crypto. */
export function publicKeyFromRaw(raw: Uint8Array): KeyObject {
  return createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(raw).toString('base64url') },
    format: 'jwk',
  });
}

/** PKCS8 DER of an Ed25519 private key (RFC 8410 §7) is this fixed header followed by the 32-byte seed. */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** A node:crypto private key object from the 32-byte seed the config and the client carry. */
export function privateKeyFromSeed(seed: Uint8Array): KeyObject {
  if (seed.length !== 32) throw new KeyError(`is ${seed.length} bytes, not a 32-byte Ed25519 seed`);
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

/**
 * An Ed25519 private key as people hold one: PKCS8 PEM text (as a string or the bytes of a file), a JWK (an object or
 * its JSON text, with `d`), a node:crypto KeyObject or WebCrypto CryptoKey, or raw bytes: the 32-byte seed, the
 * 64-byte seed-and-public-key of libsodium and tweetnacl, or PKCS8 DER.
 */
export type PrivateKeyInput = string | Uint8Array | KeyObject | webcrypto.CryptoKey | JsonWebKey;
/**
 * An Ed25519 public key: SPKI PEM text (a PKCS8 private PEM gives its public key too), a JWK (with `x`), a KeyObject or
 * CryptoKey (a private one gives its public key), or raw bytes: the 32-byte public key or SPKI DER.
 */
export type PublicKeyInput = PrivateKeyInput;

const PEM_START = '-----BEGIN';

/** PEM text from an environment variable often has its line breaks as the two characters `\n`. */
function pemText(text: string): string {
  const t = text.trim();
  return t.includes('\n') ? t : t.replace(/(?:\\r)?\\n/g, '\n');
}

function describeInput(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'an array';
  return typeof input === 'object' ? `an object (${input.constructor?.name ?? 'no prototype'})` : typeof input;
}

/** A string holding PEM or JWK JSON; undefined for any other text. */
function textKind(text: string): 'pem' | 'jwk' | undefined {
  const t = text.trimStart();
  if (t.startsWith(PEM_START)) return 'pem';
  if (t.startsWith('{')) return 'jwk';
  return undefined;
}

function parseJwkText(text: string, what: string): JsonWebKey {
  try {
    return JSON.parse(text) as JsonWebKey;
  } catch {
    throw new KeyError(`${what} is text starting with "{" but not JSON: a JWK must be a JSON object`);
  }
}

function isJwk(input: object): input is JsonWebKey {
  return typeof (input as JsonWebKey).kty === 'string';
}

function checkOkpJwk(jwk: JsonWebKey, what: string): void {
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519')
    throw new KeyError(
      `${what} is a JWK with kty ${JSON.stringify(jwk.kty)} crv ${JSON.stringify(jwk.crv)}, not OKP Ed25519`,
    );
}

function jwkBytes(value: unknown, member: string, what: string): Uint8Array {
  const bytes = typeof value === 'string' ? fromBase64url(value) : new Uint8Array();
  if (bytes.length !== 32) throw new KeyError(`${what} is a JWK whose "${member}" is not 32 base64url-encoded bytes`);
  return bytes;
}

function fromCryptoKey(key: webcrypto.CryptoKey, what: string): KeyObject {
  try {
    return KeyObject.from(key);
  } catch {
    throw new KeyError(`${what} is a CryptoKey that node:crypto cannot read (is it extractable?)`);
  }
}

const CryptoKeyClass = (globalThis as { CryptoKey?: abstract new () => webcrypto.CryptoKey }).CryptoKey;

function isCryptoKey(input: unknown): input is webcrypto.CryptoKey {
  return CryptoKeyClass !== undefined && input instanceof CryptoKeyClass;
}

function ensureEd25519(key: KeyObject, what: string): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519')
    throw new KeyError(`${what} is a ${key.asymmetricKeyType ?? key.type} key, not Ed25519`);
  return key;
}

/**
 * The node:crypto private key of any PrivateKeyInput; throws KeyError with a one-line reason naming `what` for
 * anything that is not Ed25519 private key material.
 */
export function privateKeyFrom(input: PrivateKeyInput, what = 'the private key'): KeyObject {
  if (input instanceof KeyObject) {
    if (input.type !== 'private')
      throw new KeyError(`${what} is a ${input.type} KeyObject; signing needs the private key`);
    return ensureEd25519(input, what);
  }
  if (isCryptoKey(input)) return privateKeyFrom(fromCryptoKey(input, what), what);
  if (typeof input === 'string') {
    const kind = textKind(input);
    if (kind === 'jwk') return privateKeyFrom(parseJwkText(input, what), what);
    if (kind === undefined)
      throw new KeyError(
        `${what} is text but neither PEM ("${PEM_START} PRIVATE KEY-----") nor a JWK; pass raw bytes as a Uint8Array`,
      );
    const pem = pemText(input);
    if (/^-----BEGIN PUBLIC KEY-----/.test(pem))
      throw new KeyError(`${what} is a public key (PEM labelled PUBLIC KEY); signing needs the PRIVATE KEY`);
    let key: KeyObject;
    try {
      key = createPrivateKey({ key: pem, format: 'pem' });
    } catch {
      throw new KeyError(`${what} is not a PKCS8 PEM private key (expected a PEM block labelled PRIVATE KEY)`);
    }
    return ensureEd25519(key, what);
  }
  if (input instanceof Uint8Array) {
    if (looksLikePem(input)) return privateKeyFrom(Buffer.from(input).toString('utf8'), what);
    if (input.length === 32) return privateKeyFromSeed(input);
    if (input.length === 64) {
      // libsodium / tweetnacl "secret key": the seed, then the public key; the second half must be the first's.
      const key = privateKeyFromSeed(input.subarray(0, 32));
      const pub = fromBase64url(key.export({ format: 'jwk' }).x as string);
      if (Buffer.compare(Buffer.from(pub), Buffer.from(input.subarray(32))) !== 0)
        throw new KeyError(
          `${what} is 64 bytes whose second half is not the public key of the first (seed, public key)`,
        );
      return key;
    }
    try {
      return ensureEd25519(createPrivateKey({ key: Buffer.from(input), format: 'der', type: 'pkcs8' }), what);
    } catch (e) {
      if (e instanceof KeyError) throw e;
      throw new KeyError(
        `${what} is ${input.length} bytes: not a 32-byte Ed25519 seed, 64-byte seed and public key, PKCS8 DER or PEM text`,
      );
    }
  }
  if (input !== null && typeof input === 'object' && isJwk(input)) {
    checkOkpJwk(input, what);
    if (input.d === undefined) throw new KeyError(`${what} is a public JWK (no "d"); signing needs the private key`);
    return privateKeyFromSeed(jwkBytes(input.d, 'd', what));
  }
  throw new KeyError(
    `${what} is ${describeInput(input)}: expected PKCS8 PEM text, a JWK, a KeyObject or the 32-byte Ed25519 seed`,
  );
}

/**
 * The node:crypto public key of any PublicKeyInput (a private key gives its public key); throws KeyError with a
 * one-line reason for anything that is not key material. The key type is not checked: the verifier says when it is not
 * Ed25519.
 */
export function publicKeyFrom(input: PublicKeyInput, what = 'the verification key'): KeyObject {
  if (input instanceof KeyObject) return input.type === 'private' ? createPublicKey(input) : input;
  if (isCryptoKey(input)) return publicKeyFrom(fromCryptoKey(input, what), what);
  if (typeof input === 'string') {
    const kind = textKind(input);
    if (kind === 'jwk') return publicKeyFrom(parseJwkText(input, what), what);
    if (kind === undefined)
      throw new KeyError(
        `${what} is text but neither PEM ("${PEM_START} PUBLIC KEY-----") nor a JWK; pass raw bytes as a Uint8Array`,
      );
    try {
      return createPublicKey({ key: pemText(input), format: 'pem' });
    } catch {
      throw new KeyError(`${what} is not a PEM key (expected a PEM block labelled PUBLIC KEY)`);
    }
  }
  if (input instanceof Uint8Array) {
    if (looksLikePem(input)) return publicKeyFrom(Buffer.from(input).toString('utf8'), what);
    if (input.length === 32) return publicKeyFromRaw(input);
    try {
      return createPublicKey({ key: Buffer.from(input), format: 'der', type: 'spki' });
    } catch {
      throw new KeyError(`${what} is ${input.length} bytes: not a 32-byte Ed25519 public key, SPKI DER or PEM text`);
    }
  }
  if (input !== null && typeof input === 'object' && isJwk(input)) {
    checkOkpJwk(input, what);
    if (input.x !== undefined) return publicKeyFromRaw(jwkBytes(input.x, 'x', what));
    if (input.d !== undefined) return createPublicKey(privateKeyFromSeed(jwkBytes(input.d, 'd', what)));
    throw new KeyError(`${what} is a JWK with neither "x" nor "d"`);
  }
  throw new KeyError(
    `${what} is ${describeInput(input)}: expected SPKI PEM text, a JWK, a KeyObject or the 32-byte Ed25519 public key`,
  );
}

function looksLikePem(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 64)).toString('latin1').trimStart().startsWith(PEM_START);
}
