// The server's Ed25519 key for signing webhook deliveries, and the two shapes GET /webhooks/key publishes it in.
import { createHash } from 'node:crypto';
import { generateEd25519, parsePrivateKeyPem, type Ed25519KeyPair } from '../../http/keys.js';
import type { Choices } from '../choices/index.js';

export interface WebhookSigningKey {
  /** The `keyid` of every delivery's signature: the RFC 7638 thumbprint, so it names this key and no other. */
  keyId: string;
  /** 32-byte private seed. */
  seed: Uint8Array;
  publicKey: Uint8Array;
  publicKeyPem: string;
}

function fromPair(pair: Ed25519KeyPair): WebhookSigningKey {
  const x = Buffer.from(pair.publicKey).toString('base64url');
  // RFC 7638 §3.2: the required members in lexicographic order, no whitespace.
  const thumbprint = createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url');
  return { keyId: thumbprint, seed: pair.seed, publicKey: pair.publicKey, publicKeyPem: pair.publicKeyPem };
}

export function generateWebhookKey(): WebhookSigningKey {
  return fromPair(generateEd25519());
}

/** A fixed key from a PKCS8 PEM text (the `webhookKey` option); throws KeyError when it is not Ed25519. */
export function webhookKeyFromPem(pem: string): WebhookSigningKey {
  return fromPair(parsePrivateKeyPem(pem));
}

/** `data` of GET /webhooks/key in the chosen format ("not shown": each is one a real server uses), at its own place. */
export function publicKeyView(key: WebhookSigningKey, format: Choices['webhookKeyFormat']): Record<string, unknown> {
  const raw = Buffer.from(key.publicKey);
  switch (format) {
    case 'jwk':
      return { key: { jwk: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url'), kid: key.keyId } } };
    // A JWK set (RFC 7517 §5), as Turnkey and Upvest publish their keys.
    case 'jwks':
      return { keys: [{ kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url'), kid: key.keyId }] };
    case 'raw-base64':
      return { keyId: key.keyId, key: raw.toString('base64') };
    case 'raw-base64url':
      return { ed25519: { kid: key.keyId, x: raw.toString('base64url') } };
    case 'raw-hex':
      return { keyId: key.keyId, publicKeyHex: raw.toString('hex') };
    case 'der-base64':
      return { keyId: key.keyId, spki: key.publicKeyPem.replace(/-----(BEGIN|END) PUBLIC KEY-----|\s+/g, '') };
    default:
      return { keyId: key.keyId, algorithm: 'ed25519', publicKey: key.publicKeyPem };
  }
}
