// Ed25519 key material: PEM containers and raw bytes to and from node:crypto key objects.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
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
