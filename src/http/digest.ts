// RFC 9530 Content-Digest with sha-512, the only algorithm the spec names ("sha-512=:<base64 sha-512 hash of the body>:").
// node:crypto hashes: OpenSSL's sha-512 is faster than @noble/hashes', and nothing more need be loaded for it.
import { createHash, timingSafeEqual } from 'node:crypto';
import { parseDictionary } from 'structured-headers';

export type BodyBytes = Uint8Array | string;

export function toBytes(body: BodyBytes): Uint8Array {
  return typeof body === 'string' ? new TextEncoder().encode(body) : body;
}

/** The Content-Digest field value for a body: `sha-512=:<base64>:`. */
export function contentDigest(body: BodyBytes): string {
  return `sha-512=:${sha512(body).toString('base64')}:`;
}

function sha512(body: BodyBytes): Buffer {
  return createHash('sha512').update(toBytes(body)).digest();
}

export type DigestVerdict =
  | { ok: true }
  | { ok: false; reason: string };

/**
 * Checks a received Content-Digest against the body. Only sha-512 is accepted: it is what the spec prescribes, and
 * accepting a weaker algorithm the sender chose would let a tampered body through.
 */
export function verifyContentDigest(fieldValue: string | undefined, body: BodyBytes): DigestVerdict {
  if (fieldValue === undefined || fieldValue.trim() === '') return { ok: false, reason: 'no Content-Digest header' };
  let dict;
  try {
    dict = parseDictionary(fieldValue);
  } catch {
    return { ok: false, reason: `Content-Digest is not a structured dictionary: ${fieldValue.slice(0, 120)}` };
  }
  const member = dict.get('sha-512');
  if (member === undefined) return { ok: false, reason: 'Content-Digest has no sha-512 member' };
  const value = member[0];
  if (!(value instanceof ArrayBuffer)) return { ok: false, reason: 'Content-Digest sha-512 member is not a byte sequence (:base64:)' };
  const expected = sha512(body);
  const got = new Uint8Array(value);
  if (got.length !== expected.length || !timingSafeEqual(got, expected)) {
    return { ok: false, reason: 'Content-Digest sha-512 does not match the body' };
  }
  return { ok: true };
}
