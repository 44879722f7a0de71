// RFC 9530 Content-Digest with sha-512, the only algorithm the spec names for requests (sha-256 too for a receiver) ("sha-512=:<base64 sha-512 hash of the body>:").
// node:crypto hashes: OpenSSL's sha-512 is faster than @noble/hashes', and nothing more need be loaded for it.
import { createHash, timingSafeEqual } from 'node:crypto';
import { parseDictionary } from 'structured-headers';

export type BodyBytes = Uint8Array | string;

function toBytes(body: BodyBytes): Uint8Array {
  return typeof body === 'string' ? new TextEncoder().encode(body) : body;
}

/** The Content-Digest field value for a body: `sha-512=:<base64>:`. */
export function contentDigest(body: BodyBytes): string {
  return `sha-512=:${sha512(body).toString('base64')}:`;
}

/** A Content-Digest with the given algorithms, in that order: `sha-256=:<base64>:, sha-512=:<base64>:`. */
export function contentDigestWith(body: BodyBytes, algorithms: readonly DigestAlgorithm[]): string {
  return algorithms.map((a) => `${a}=:${createHash(NODE_HASH[a]).update(toBytes(body)).digest('base64')}:`).join(', ');
}

function sha512(body: BodyBytes): Buffer {
  return createHash('sha512').update(toBytes(body)).digest();
}

export type DigestVerdict =
  | { ok: true; /** The members that matched the body, e.g. ["sha-512"]. */ algorithms?: string[] }
  | { ok: false; reason: string };

/**
 * The algorithms of the RFC 9530 registry whose status is "standard" (§7.2): what a receiver may verify. The
 * deprecated ones (md5, sha, unixsum, unixcksum, adler, crc32c) prove nothing against tampering and are ignored.
 */
export const SECURE_DIGEST_ALGORITHMS = ['sha-512', 'sha-256'] as const;
export type DigestAlgorithm = (typeof SECURE_DIGEST_ALGORITHMS)[number];

export interface DigestOptions {
  /**
   * The algorithms accepted; default sha-512 alone, which is what the spec prescribes for requests. A webhook receiver
   * accepts every secure one, since the spec names none for deliveries. Every accepted member present must match, and
   * at least one must be present.
   */
  algorithms?: readonly DigestAlgorithm[];
}

const NODE_HASH: Record<DigestAlgorithm, string> = { 'sha-512': 'sha512', 'sha-256': 'sha256' };

/**
 * Checks a received Content-Digest against the body. Only sha-512 is accepted unless told otherwise: it is what the
 * spec prescribes, and accepting a weaker algorithm the sender chose would let a tampered body through.
 */
export function verifyContentDigest(
  fieldValue: string | undefined,
  body: BodyBytes,
  options: DigestOptions = {},
): DigestVerdict {
  const accepted = options.algorithms ?? ['sha-512'];
  if (fieldValue === undefined || fieldValue.trim() === '') return { ok: false, reason: 'no Content-Digest header' };
  let dict;
  try {
    dict = parseDictionary(fieldValue);
  } catch {
    return { ok: false, reason: `Content-Digest is not a structured dictionary: ${fieldValue.slice(0, 120)}` };
  }
  const matched: string[] = [];
  for (const algorithm of accepted) {
    const member = dict.get(algorithm);
    if (member === undefined) continue;
    const value = member[0];
    if (!(value instanceof ArrayBuffer))
      return { ok: false, reason: `Content-Digest ${algorithm} member is not a byte sequence (:base64:)` };
    const expected = createHash(NODE_HASH[algorithm]).update(toBytes(body)).digest();
    const got = new Uint8Array(value);
    if (got.length !== expected.length || !timingSafeEqual(got, expected)) {
      return { ok: false, reason: `Content-Digest ${algorithm} does not match the body` };
    }
    matched.push(algorithm);
  }
  if (matched.length === 0) return { ok: false, reason: `Content-Digest has no ${accepted.join(' or ')} member` };
  return { ok: true, algorithms: matched };
}
