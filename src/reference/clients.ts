// The registered API clients: credentials, signing key and organization. Keys are parsed once at start so a bad key
// fails `serve` immediately instead of turning every request into a 401.
import { createPublicKey, timingSafeEqual, createHash, type KeyObject } from 'node:crypto';
import { publicKeyFromRaw } from '../http/keys.js';

export interface ClientRegistration {
  clientId: string;
  clientSecret: string;
  keyId: string;
  /** Raw 32-byte Ed25519 public key, or an SPKI PEM text. */
  publicKey: Uint8Array | string;
  /** Organization name shown in the token record; defaults to the clientId. */
  name?: string;
  /** Organization id shown in the token record; defaults to 7001, 7002… in registration order. */
  organizationId?: number;
  /** Client IP addresses allowed to call; empty or absent allows every address. */
  trustedIps?: string[];
}

export interface RegisteredClient {
  clientId: string;
  keyId: string;
  key: KeyObject;
  organization: { id: number; name: string; clientId: string };
  trustedIps: string[];
  /** sha-256 of the secret: compared in constant time, and the secret itself is not kept in the heap. */
  secretHash: Buffer;
}

function sha256(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}

function parseKey(clientId: string, key: Uint8Array | string): KeyObject {
  let obj: KeyObject;
  try {
    obj = typeof key === 'string' ? createPublicKey(key) : publicKeyFromRaw(key);
  } catch {
    throw new Error(`client "${clientId}": publicKey is neither 32 raw bytes nor an SPKI PEM public key`);
  }
  if (obj.asymmetricKeyType !== 'ed25519') {
    throw new Error(`client "${clientId}": publicKey is ${obj.asymmetricKeyType ?? 'unknown'}, not Ed25519`);
  }
  return obj;
}

export class ClientRegistry {
  private readonly byId = new Map<string, RegisteredClient>();

  constructor(registrations: readonly ClientRegistration[]) {
    const keyIds = new Set<string>();
    registrations.forEach((r, i) => {
      if (!r.clientId || !r.clientSecret || !r.keyId)
        throw new Error(`client #${i + 1}: clientId, clientSecret and keyId are required`);
      if (this.byId.has(r.clientId)) throw new Error(`client "${r.clientId}" is registered twice`);
      // A keyid names one key of one client; sharing it would let one client's signature pass as another's.
      if (keyIds.has(r.keyId)) throw new Error(`keyId "${r.keyId}" is registered twice`);
      keyIds.add(r.keyId);
      this.byId.set(r.clientId, {
        clientId: r.clientId,
        keyId: r.keyId,
        key: parseKey(r.clientId, r.publicKey),
        organization: { id: r.organizationId ?? 7001 + i, name: r.name ?? r.clientId, clientId: r.clientId },
        trustedIps: [...(r.trustedIps ?? [])],
        secretHash: sha256(r.clientSecret),
      });
    });
  }

  get(clientId: string): RegisteredClient | undefined {
    return this.byId.get(clientId);
  }

  /** The client's key for a keyid, only when the keyid is that client's: another client's key never verifies. */
  keyFor(client: RegisteredClient, keyId: string | undefined): KeyObject | undefined {
    return keyId === client.keyId ? client.key : undefined;
  }

  secretMatches(client: RegisteredClient, secret: string): boolean {
    return timingSafeEqual(client.secretHash, sha256(secret));
  }
}

/** Whether a peer address is allowed; IPv4-mapped IPv6 addresses ("::ffff:127.0.0.1") match their IPv4 form. */
export function ipAllowed(client: RegisteredClient, remoteAddress: string | undefined): boolean {
  if (client.trustedIps.length === 0) return true;
  if (remoteAddress === undefined) return false;
  const plain = remoteAddress.startsWith('::ffff:') ? remoteAddress.slice(7) : remoteAddress;
  return client.trustedIps.includes(remoteAddress) || client.trustedIps.includes(plain);
}
