// Finds the webhook public key in the answer of GET /webhooks/key. Its shape is "not shown", so every reasonable form
// is accepted wherever it sits in `data`: SPKI PEM (or a certificate), a JWK (OKP/Ed25519), DER SPKI in base64, or
// the raw 32 bytes in base64, base64url or hex.
import { createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';

type KeyForm = 'pem' | 'certificate' | 'jwk' | 'der-base64' | 'raw-base64' | 'raw-base64url' | 'raw-hex';

export interface FoundKey {
  key: KeyObject;
  /** The 32 public key bytes. */
  raw: Uint8Array;
  form: KeyForm;
  /** Where it was found, e.g. "data.publicKey", "data.key.jwk", "data.keys[0]". */
  path: string;
  /** A key identifier published beside the key (kid, keyId…), when there is one. */
  keyId?: string;
}

export type KeySearch = { ok: true; found: FoundKey; others: number } | { ok: false; reason: string };

/** 302a300506032b6570032100: the DER SPKI header of an Ed25519 public key (RFC 8410), followed by the 32 bytes. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Members that name or fingerprint a key rather than hold it: a 32-byte thumbprint looks exactly like a raw key. */
const ID_LIKE =
  /(^|[_-])(kid|key_?id|id|thumbprint|fingerprint|x5t(#S256)?|hash|digest|sha256|signature|nonce|secret)$/i;
const KEY_LIKE = /key|pub|^x$/i;

const MAX_NODES = 10_000;
const MAX_DEPTH = 32;

interface Candidate extends FoundKey {
  /** Lower is more certain: a PEM or a JWK says what it is; a bare 32-byte string only might be a key. */
  rank: number;
}

/**
 * The best key candidate in a value: self-describing forms first (PEM, certificate, JWK, DER SPKI), then raw strings
 * under a key-like member name, then other raw strings; identifiers and fingerprints are never taken for a key.
 */
export function findWebhookKey(value: unknown, rootPath = 'data'): KeySearch {
  const candidates: Candidate[] = [];
  const rejected: string[] = [];
  let nodes = 0;
  const visit = (
    v: unknown,
    path: string,
    name: string | undefined,
    depth: number,
    parent: Record<string, unknown> | undefined,
  ): void => {
    if (++nodes > MAX_NODES || depth > MAX_DEPTH) return;
    if (typeof v === 'string') {
      const c = fromString(v, path, name, rejected);
      if (c) candidates.push(withKeyId(c, parent));
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((item, i) => visit(item, `${path}[${i}]`, name, depth + 1, parent));
      return;
    }
    if (typeof v !== 'object' || v === null) return;
    const obj = v as Record<string, unknown>;
    const jwk = fromJwk(obj, path, rejected);
    if (jwk) {
      candidates.push(jwk);
      return;
    }
    for (const [k, child] of Object.entries(obj)) visit(child, path ? `${path}.${k}` : k, k, depth + 1, obj);
  };
  visit(value, rootPath, undefined, 0, undefined);
  if (candidates.length === 0) {
    const why = rejected.length ? `; found ${[...new Set(rejected)].slice(0, 3).join('; ')}` : '';
    return {
      ok: false,
      reason: `no Ed25519 public key (PEM, JWK, or 32 bytes in base64, base64url or hex) anywhere in ${rootPath}${why}`,
    };
  }
  candidates.sort((a, b) => a.rank - b.rank);
  const best = candidates[0]!;
  const distinct = new Set(candidates.map((c) => Buffer.from(c.raw).toString('hex')));
  const { rank: _rank, ...found } = best;
  return { ok: true, found, others: distinct.size - 1 };
}

function withKeyId(c: Candidate, parent: Record<string, unknown> | undefined): Candidate {
  if (c.keyId !== undefined || parent === undefined) return c;
  for (const name of ['kid', 'keyId', 'keyid', 'key_id', 'id']) {
    const id = parent[name];
    if (typeof id === 'string' && id !== '') return { ...c, keyId: id };
  }
  return c;
}

function fromJwk(obj: Record<string, unknown>, path: string, rejected: string[]): Candidate | undefined {
  if (typeof obj.kty !== 'string') return undefined;
  if (obj.kty !== 'OKP' || obj.crv !== 'Ed25519') {
    rejected.push(
      `a JWK at ${path} of kty ${JSON.stringify(obj.kty)}${obj.crv !== undefined ? ` crv ${JSON.stringify(obj.crv)}` : ''}, not OKP/Ed25519`,
    );
    return undefined;
  }
  if (typeof obj.x !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(obj.x)) {
    rejected.push(`a JWK at ${path} whose x is not 32 bytes in base64url`);
    return undefined;
  }
  const raw = new Uint8Array(Buffer.from(obj.x, 'base64url'));
  const key = keyFromRaw(raw);
  if (!key) return undefined;
  return {
    key,
    raw,
    form: 'jwk',
    path,
    rank: 0,
    ...(typeof obj.kid === 'string' && obj.kid !== '' ? { keyId: obj.kid } : {}),
  };
}

function fromString(text: string, path: string, name: string | undefined, rejected: string[]): Candidate | undefined {
  // A PEM serialised without real line breaks (a literal "\n") is still meant as a PEM.
  const value = text.includes('-----BEGIN') && !text.includes('\n') ? text.replace(/\\n/g, '\n') : text.trim();
  if (value.includes('-----BEGIN CERTIFICATE-----')) {
    try {
      return fromKeyObject(new X509Certificate(value).publicKey, 'certificate', path, 0, rejected);
    } catch {
      rejected.push(`an unreadable certificate at ${path}`);
      return undefined;
    }
  }
  if (value.includes('-----BEGIN')) {
    if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(value)) {
      rejected.push(`a private key at ${path}`);
      return undefined;
    }
    try {
      return fromKeyObject(createPublicKey({ key: value, format: 'pem' }), 'pem', path, 0, rejected);
    } catch {
      rejected.push(`an unreadable PEM at ${path}`);
      return undefined;
    }
  }
  if (name !== undefined && ID_LIKE.test(name)) return undefined;
  const rank = name !== undefined && KEY_LIKE.test(name) ? 2 : 3;
  if (/^[0-9a-fA-F]{64}$/.test(value)) return rawCandidate(Buffer.from(value, 'hex'), 'raw-hex', path, rank);
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    // Without + / - _ the two alphabets agree; the form only records which one the server seems to use.
    const form: KeyForm = /[-_]/.test(value) ? 'raw-base64url' : 'raw-base64';
    return rawCandidate(decodeBase64(value), form, path, rank);
  }
  if (/^[A-Za-z0-9+/_-]{59}=?$/.test(value)) {
    const der = decodeBase64(value);
    if (der.length === 44 && der.subarray(0, 12).equals(ED25519_SPKI_PREFIX)) {
      const raw = new Uint8Array(der.subarray(12));
      const key = keyFromRaw(raw);
      if (key) return { key, raw, form: 'der-base64', path, rank: 1 };
    }
  }
  return undefined;
}

/** Either alphabet, padded or not (a string mixing both is malformed and decodes to the wrong length). */
function decodeBase64(value: string): Buffer {
  if (/[+/]/.test(value) && /[-_]/.test(value)) return Buffer.alloc(0);
  return Buffer.from(value.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_'), 'base64url');
}

function rawCandidate(bytes: Buffer, form: KeyForm, path: string, rank: number): Candidate | undefined {
  if (bytes.length !== 32) return undefined;
  const raw = new Uint8Array(bytes);
  const key = keyFromRaw(raw);
  return key ? { key, raw, form, path, rank } : undefined;
}

function fromKeyObject(
  key: KeyObject,
  form: KeyForm,
  path: string,
  rank: number,
  rejected: string[],
): Candidate | undefined {
  if (key.asymmetricKeyType !== 'ed25519') {
    rejected.push(`a ${key.asymmetricKeyType ?? 'unknown'} key at ${path}, not Ed25519`);
    return undefined;
  }
  const x = key.export({ format: 'jwk' }).x;
  if (typeof x !== 'string') return undefined;
  return { key, raw: new Uint8Array(Buffer.from(x, 'base64url')), form, path, rank };
}

function keyFromRaw(raw: Uint8Array): KeyObject | undefined {
  try {
    return createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(raw).toString('base64url') },
      format: 'jwk',
    });
  } catch {
    return undefined;
  }
}

/** How a found key is named in a report. */
export function describeKeyForm(found: FoundKey): string {
  const forms: Record<KeyForm, string> = {
    pem: 'SPKI PEM',
    certificate: 'X.509 certificate (PEM)',
    jwk: 'JWK (OKP/Ed25519)',
    'der-base64': 'DER SPKI in base64',
    'raw-base64': '32 raw bytes in base64',
    'raw-base64url': '32 raw bytes in base64url',
    'raw-hex': '32 raw bytes in hex',
  };
  return `${forms[found.form]} at ${found.path}${found.keyId !== undefined ? ` (key id ${JSON.stringify(found.keyId)})` : ''}`;
}
