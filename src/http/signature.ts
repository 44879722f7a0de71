// RFC 9421 signing (client side) and verification (server and receiver side), both with node:crypto: its Ed25519 is
// about ten times faster than @noble/ed25519's, which the client signed with until `npm run bench` showed signing to
// be an eighth of a run. The tests keep an independent check: the client's signatures equal @noble/ed25519's and the
// RFC 8032 and RFC 9421 vectors byte for byte.
import {
  verify as cryptoVerify,
  sign as cryptoSign,
  createPublicKey,
  timingSafeEqual,
  type KeyObject,
} from 'node:crypto';
import { parseDictionary, isInnerList, serializeInnerList, type InnerList } from 'structured-headers';
import { hasHeader, headerValue, type HttpMessage } from './message.js';
import { signatureBase, signatureParamsValue, SignatureBaseError, type SignatureParam } from './signature-base.js';
import { privateKeyFromSeed, publicKeyFromRaw } from './keys.js';

/** The component order of the signing profile (GUIDE "Signing profile"; spec "Common request rules"). */
export const PROFILE_COMPONENTS = [
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
] as const;

/** The components a request covers: every profile component it carries ("covers the headers that the request carries"). */
export function profileComponents(message: HttpMessage): string[] {
  const hasQuery = new URL(message.url).search !== '';
  return PROFILE_COMPONENTS.filter((c) => {
    if (c === '@query') return hasQuery;
    if (c.startsWith('@')) return true;
    return hasHeader(message.headers, c);
  });
}

const DEFAULT_LABEL = 'sig1';
/** Validity window of a signature we make: long enough for a slow network and modest clock skew, short against replay. */
export const DEFAULT_SIGNATURE_TTL_SECONDS = 300;

export interface SignOptions {
  keyId: string;
  /** 32-byte Ed25519 seed. */
  privateKey: Uint8Array;
  label?: string;
  /** Covered components; defaults to the profile components the message carries. */
  components?: readonly string[];
  /** Unix seconds; defaults to now. */
  created?: number;
  /** Unix seconds; defaults to created + 300. */
  expires?: number;
  /** The full parameter list in order; when given it replaces keyid/created/expires. */
  params?: readonly SignatureParam[];
}

export interface SignedHeaders {
  signatureInput: string;
  signature: string;
  /** The signature base that was signed (useful in reports; contains no secret). */
  base: string;
  label: string;
  components: string[];
  params: SignatureParam[];
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Signs a message and returns the Signature-Input and Signature field values. */
export function signRequest(message: HttpMessage, options: SignOptions): SignedHeaders {
  const label = options.label ?? DEFAULT_LABEL;
  const components = [...(options.components ?? profileComponents(message))];
  const created = options.created ?? nowSeconds();
  const params: SignatureParam[] = options.params
    ? [...options.params]
    : [
        ['keyid', options.keyId],
        ['created', created],
        ['expires', options.expires ?? created + DEFAULT_SIGNATURE_TTL_SECONDS],
      ];
  const paramsValue = signatureParamsValue(components, params);
  const base = signatureBase(message, components, paramsValue);
  const sig = signEd25519(options.privateKey, Buffer.from(base, 'utf8'));
  return {
    signatureInput: `${label}=${paramsValue}`,
    signature: `${label}=:${Buffer.from(sig).toString('base64')}:`,
    base,
    label,
    components,
    params,
  };
}

/**
 * Key objects of the seeds signed with lately: parsing a key costs more than a signature, and a run signs every
 * request with one seed (and, against the built-in target, the server its deliveries with another). Seeds are
 * compared by their bytes, not their identity, so a caller reusing a buffer for another key never signs with the old.
 */
const recentKeys: Array<{ seed: Buffer; key: KeyObject }> = [];
const RECENT_KEYS = 4;

/** An Ed25519 signature (RFC 8032, pure) of `data` with the 32-byte seed. */
export function signEd25519(seed: Uint8Array, data: Uint8Array): Uint8Array {
  let entry = recentKeys.find((k) => k.seed.length === seed.length && timingSafeEqual(k.seed, seed));
  if (entry === undefined) {
    entry = { seed: Buffer.from(seed), key: privateKeyFromSeed(seed) };
    recentKeys.unshift(entry);
    recentKeys.length = Math.min(recentKeys.length, RECENT_KEYS);
  }
  return cryptoSign(null, data, entry.key);
}

type PublicKeyInput = KeyObject | Uint8Array | string;

export interface VerifyOptions {
  /** The verification key, or a function from keyid to key (undefined: unknown key). */
  key: PublicKeyInput | ((keyId: string | undefined) => PublicKeyInput | undefined);
  /** Which signature to check; defaults to the only (or first) one in Signature-Input. */
  label?: string;
  /** Components that must be covered; a signature that leaves one out is rejected. */
  requiredComponents?: readonly string[];
  /** Unix seconds "now"; defaults to the clock. */
  now?: number;
  /** Tolerated clock skew in seconds for created/expires. */
  skewSeconds?: number;
  /** Reject a signature without expires, or whose window is longer than this many seconds. */
  maxAgeSeconds?: number;
  requireCreated?: boolean;
  requireExpires?: boolean;
}

export interface SignatureVerdict {
  ok: boolean;
  /** Why it failed; absent when ok. */
  reason?: string;
  code?: string;
  label?: string;
  keyId?: string;
  components?: string[];
  params?: Record<string, string | number | boolean>;
  base?: string;
}

function toKeyObject(key: PublicKeyInput): KeyObject {
  if (typeof key === 'string') return createPublicKey(key);
  if (key instanceof Uint8Array) return publicKeyFromRaw(key);
  return key;
}

/** The labels of a Signature-Input field, in order (RFC 9421 §4.1: a message may carry several signatures); [] when unreadable. */
export function signatureLabels(field: string | undefined): string[] {
  if (field === undefined) return [];
  try {
    return [...parseDictionary(field).keys()];
  } catch {
    return [];
  }
}

type SignedMessage = HttpMessage & { signatureInput?: string; signature?: string };

/** Everything short of the Ed25519 operation: parse, check coverage and times, build the base, find the key. */
type Prepared =
  { done: SignatureVerdict } | { verdict: SignatureVerdict; base: string; key: KeyObject; signature: Buffer };

/** Verifies an RFC 9421 Ed25519 signature on a message, whatever its label, component order and parameters. */
export function verifySignature(message: SignedMessage, options: VerifyOptions): SignatureVerdict {
  const p = prepareVerification(message, options);
  if ('done' in p) return p.done;
  return conclude(p, p.signature.length === 64 && cryptoVerify(null, Buffer.from(p.base, 'utf8'), p.key, p.signature));
}

/**
 * The same verification with the Ed25519 operation on libuv's thread pool, so a server verifying many requests keeps
 * its event loop free for the rest of the work.
 */
export function verifySignatureAsync(message: SignedMessage, options: VerifyOptions): Promise<SignatureVerdict> {
  const p = prepareVerification(message, options);
  if ('done' in p) return Promise.resolve(p.done);
  if (p.signature.length !== 64) return Promise.resolve(conclude(p, false));
  return new Promise((resolve) => {
    cryptoVerify(null, Buffer.from(p.base, 'utf8'), p.key, p.signature, (err, valid) =>
      resolve(conclude(p, !err && valid)),
    );
  });
}

/** The reason of a signature whose Ed25519 check fails: another key, or other bytes, were signed. */
export const SIGNATURE_MISMATCH = 'the signature does not verify against the signature base';

function conclude(p: { verdict: SignatureVerdict; base: string }, valid: boolean): SignatureVerdict {
  return valid ? { ...p.verdict, ok: true, base: p.base } : { ...p.verdict, base: p.base, reason: SIGNATURE_MISMATCH };
}

function prepareVerification(message: SignedMessage, options: VerifyOptions): Prepared {
  const v = prepareOrVerdict(message, options);
  return 'ok' in v ? { done: v } : v;
}

function prepareOrVerdict(
  message: SignedMessage,
  options: VerifyOptions,
): SignatureVerdict | Exclude<Prepared, { done: SignatureVerdict }> {
  const inputField = message.signatureInput ?? headerValue(message.headers, 'signature-input');
  const sigField = message.signature ?? headerValue(message.headers, 'signature');
  if (!inputField) return { ok: false, reason: 'no Signature-Input header' };
  if (!sigField) return { ok: false, reason: 'no Signature header' };
  let inputs, sigs;
  try {
    inputs = parseDictionary(inputField);
  } catch {
    return { ok: false, reason: 'Signature-Input is not a structured dictionary' };
  }
  try {
    sigs = parseDictionary(sigField);
  } catch {
    return { ok: false, reason: 'Signature is not a structured dictionary' };
  }
  const label = options.label ?? [...inputs.keys()][0];
  if (label === undefined) return { ok: false, reason: 'Signature-Input is empty' };
  const input = inputs.get(label);
  if (input === undefined || !isInnerList(input))
    return { ok: false, label, reason: `Signature-Input has no inner list labelled "${label}"` };
  const sigMember = sigs.get(label);
  if (sigMember === undefined || isInnerList(sigMember) || !(sigMember[0] instanceof ArrayBuffer)) {
    return { ok: false, label, reason: `Signature has no byte sequence labelled "${label}"` };
  }
  const [items, paramMap] = input as InnerList;
  const components: string[] = [];
  for (const [name, itemParams] of items) {
    if (typeof name !== 'string') return { ok: false, label, reason: 'a covered component is not a string' };
    if (itemParams.size > 0)
      return { ok: false, label, reason: `component parameters (on "${name}") are not supported by this profile` };
    components.push(name);
  }
  const params: Record<string, string | number | boolean> = {};
  for (const [k, v] of paramMap) {
    params[k] = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : String(v);
  }
  const keyId = typeof params.keyid === 'string' ? params.keyid : undefined;
  const verdict: SignatureVerdict = { ok: false, label, keyId, components, params };
  // RFC 9421 §3.2: an alg parameter must agree with the key; Ed25519 is the only one this profile verifies.
  if (params.alg !== undefined && params.alg !== 'ed25519')
    return { ...verdict, reason: `alg ${JSON.stringify(params.alg)} is not ed25519` };

  for (const required of options.requiredComponents ?? []) {
    if (!components.includes(required)) return { ...verdict, reason: `the signature does not cover "${required}"` };
  }
  const now = options.now ?? nowSeconds();
  const skew = options.skewSeconds ?? 0;
  const created = params.created;
  const expires = params.expires;
  if (created !== undefined && (typeof created !== 'number' || !Number.isInteger(created)))
    return { ...verdict, reason: 'created is not an integer' };
  if (expires !== undefined && (typeof expires !== 'number' || !Number.isInteger(expires)))
    return { ...verdict, reason: 'expires is not an integer' };
  if (options.requireCreated && created === undefined)
    return { ...verdict, reason: 'the signature has no created parameter' };
  if (options.requireExpires && expires === undefined)
    return { ...verdict, reason: 'the signature has no expires parameter' };
  if (typeof created === 'number' && created > now + skew)
    return { ...verdict, reason: `created (${created}) is in the future (now ${now})` };
  if (typeof expires === 'number' && expires < now - skew)
    return { ...verdict, reason: `expired at ${expires} (now ${now})` };
  if (typeof created === 'number' && typeof expires === 'number' && expires < created)
    return { ...verdict, reason: 'expires is before created' };
  if (options.maxAgeSeconds !== undefined && typeof created === 'number') {
    if (created < now - options.maxAgeSeconds - skew)
      return { ...verdict, reason: `created (${created}) is older than ${options.maxAgeSeconds} s` };
    if (typeof expires === 'number' && expires - created > options.maxAgeSeconds)
      return { ...verdict, reason: `validity window of ${expires - created} s exceeds ${options.maxAgeSeconds} s` };
  }

  let base: string;
  try {
    // Re-serialising the parsed inner list keeps parameter order and types (a token stays a token).
    base = signatureBase(message, components, serializeInnerList(input as InnerList));
  } catch (e) {
    if (e instanceof SignatureBaseError) return { ...verdict, reason: e.message };
    throw e;
  }
  const keyInput = typeof options.key === 'function' ? options.key(keyId) : options.key;
  if (keyInput === undefined)
    return {
      ...verdict,
      base,
      reason: `unknown keyid ${keyId === undefined ? '(none given)' : JSON.stringify(keyId)}`,
    };
  let key: KeyObject;
  try {
    key = toKeyObject(keyInput);
  } catch {
    return { ...verdict, base, reason: 'the verification key cannot be read' };
  }
  if (key.asymmetricKeyType !== 'ed25519')
    return { ...verdict, base, reason: `the key is ${key.asymmetricKeyType ?? 'unknown'}, not Ed25519` };
  return { verdict, base, key, signature: Buffer.from(sigMember[0] as ArrayBuffer) };
}
