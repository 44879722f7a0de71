// RFC 9421 signing (client side) and verification (server and receiver side), both with node:crypto: its Ed25519 is
// about ten times faster than @noble/ed25519's, which the client signed with until `npm run bench` showed signing to
// be an eighth of a run. The tests keep an independent check: the client's signatures equal @noble/ed25519's and the
// RFC 8032 and RFC 9421 vectors byte for byte.
import { verify as cryptoVerify, sign as cryptoSign, timingSafeEqual, KeyObject } from 'node:crypto';
import {
  parseDictionary,
  isInnerList,
  serializeInnerList,
  type InnerList,
  type Dictionary,
  type Item,
} from 'structured-headers';
import { hasHeader, headerValue, httpMessageOf, type HttpMessage, type MessageInput } from './message.js';
import {
  signatureBase,
  signatureParamsValue,
  targetParts,
  SignatureBaseError,
  type SignatureParam,
} from './signature-base.js';
import { privateKeyFrom, publicKeyFrom, type PrivateKeyInput, type PublicKeyInput } from './keys.js';

/**
 * Why a signature was rejected: a stable name per rule, on every failing SignatureVerdict (`code`), the same names the
 * reference server puts in its 401 body. RFC 9421 sections in brackets.
 */
export type SignatureFailure =
  /** No Signature-Input or no Signature field, or not the label asked for (§3.2 step 1). */
  | 'SIGNATURE_MISSING'
  /** Not a structured dictionary, empty, a label without its pair, bad or unsupported parameters (§4.1, §4.2). */
  | 'SIGNATURE_MALFORMED'
  /** The verifier knows no key for the keyid (§3.2 step 5). */
  | 'KEYID_UNKNOWN'
  /** The alg parameter names another algorithm than the key's, Ed25519 (§3.2 step 6). */
  | 'ALG_MISMATCH'
  /** A component the verifier requires is not in the covered components (§3.2.1). */
  | 'COMPONENT_NOT_COVERED'
  /** A covered component the message does not carry (§2.5: "produce an error"). */
  | 'COMPONENT_MISSING'
  | 'SIGNATURE_CREATED_MISSING'
  | 'SIGNATURE_EXPIRES_MISSING'
  /** Past expires, or created longer ago than the verifier allows. */
  | 'SIGNATURE_EXPIRED'
  | 'SIGNATURE_CREATED_FUTURE'
  /** expires - created is longer than the verifier allows. */
  | 'SIGNATURE_WINDOW_TOO_LONG'
  /** No signature base can be built (§2.5: non-ASCII, a line break, an unknown derived component). */
  | 'SIGNATURE_BASE_INVALID'
  /** The key is not an Ed25519 public key, or cannot be read. */
  | 'KEY_UNUSABLE'
  /** The Ed25519 check fails: other bytes, or another key, were signed. */
  | 'SIGNATURE_INVALID';

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

/** The derived components that may cover a request's method and target (spec "Common request rules"), in its order. */
export const TARGET_COMPONENTS = ['@method', '@target-uri', '@path', '@query'] as const;
export type TargetComponent = (typeof TARGET_COMPONENTS)[number];

/**
 * How requests are signed where the spec says nothing ("Exact rules for building the signature base and the signing
 * algorithm parameters: not shown", REQ-AUTH-13): the validity window (expires - created), the derived components that
 * cover the method and the target (the headers a request carries are always covered: "The component list of a request
 * covers the headers that the request carries"), and the label. A run learns the profile a server takes when it opens
 * (suites/kit/session.ts), or takes it from the target's config (`signing`).
 */
export interface SigningProfile {
  /** Seconds from created to expires. */
  readonly windowSeconds: number;
  /** The derived components covered, in the spec's order; @query only where the request has a query. */
  readonly components: readonly TargetComponent[];
  readonly label: string;
}

/**
 * The profile a run starts with. A 60 s window: as short as a request needs (it is signed the moment it is sent), the
 * longest FAPI 2.0 recommends, and so taken by a server that refuses longer ones as by one that takes 300 s. Both
 * @target-uri and @path/@query: a server that checks either finds it covered.
 */
export const DEFAULT_SIGNING_PROFILE: SigningProfile = Object.freeze({
  windowSeconds: 60,
  components: Object.freeze(['@method', '@target-uri', '@path', '@query'] as const),
  label: 'sig1',
});

/** A profile in words: `sig1 over @method @path @query with a 60 s window`. */
export function describeProfile(profile: SigningProfile): string {
  return `${profile.label} over ${profile.components.join(' ')} with a ${profile.windowSeconds} s window`;
}

/**
 * The components a request covers: the profile's derived components (the default profile's unless one is given), then
 * every profile header it carries ("covers the headers that the request carries"); @query only where there is a query.
 */
export function profileComponents(message: MessageInput, profile: SigningProfile = DEFAULT_SIGNING_PROFILE): string[] {
  const m = httpMessageOf(message);
  const { query } = targetParts(m.url);
  const hasQuery = query !== undefined && query !== '?';
  const derived: readonly string[] = profile.components;
  return PROFILE_COMPONENTS.filter((c) => {
    if (c === '@query') return hasQuery && derived.includes(c);
    if (c.startsWith('@')) return derived.includes(c);
    return hasHeader(m.headers, c);
  });
}

/**
 * The components a verifier requires a request's signature to cover (spec: "The component list of a request covers the
 * headers that the request carries"): @method and every profile header the request carries, except `Content-Length:
 * 0` on a body-less request, which HTTP stacks (fetch, node:http) add to a POST on their own after the client signed,
 * and which states nothing the absence of a body does not. The target is required apart (coversTarget): @target-uri
 * or @path are both right. The reference server and the client checks judge by this one rule.
 */
export function requiredComponentsFor(headers: ReadonlyArray<readonly [string, string]>, bodyLength: number): string[] {
  const carried = PROFILE_COMPONENTS.filter((c) => !c.startsWith('@') && hasHeader(headers, c));
  const exempt = bodyLength === 0 && headerValue(headers, 'content-length')?.trim() === '0' ? ['content-length'] : [];
  return ['@method', ...carried.filter((h) => !exempt.includes(h))];
}

/** Whether covered components cover the request target: @target-uri, or @path (with @query when there is a query). */
export function coversTarget(components: readonly string[], hasQuery: boolean): boolean {
  return (
    components.includes('@target-uri') || (components.includes('@path') && (!hasQuery || components.includes('@query')))
  );
}

const DEFAULT_LABEL = 'sig1';
/**
 * Validity window of a signature made without a profile (signRequest called by a client application, the reference
 * server's webhook deliveries): long enough for a slow network and modest clock skew, short against replay. The
 * conformance run signs with its SigningProfile instead (60 s by default).
 */
export const DEFAULT_SIGNATURE_TTL_SECONDS = 300;

export interface SignOptions {
  keyId: string;
  /**
   * The Ed25519 private key: PKCS8 PEM text (or the bytes of the file), a JWK, a KeyObject or CryptoKey, or raw bytes
   * (the 32-byte seed). Anything else throws KeyError.
   */
  privateKey: PrivateKeyInput;
  /** The label; default the profile's, else sig1. */
  label?: string;
  /** The window, derived components and label to sign with where the options below do not say. */
  profile?: SigningProfile;
  /**
   * Covered components; defaults to the profile components the message carries. Names are lowercased (RFC 9421 §2.1),
   * so `Authorization` covers, and is listed as, `authorization`.
   */
  components?: readonly string[];
  /** Unix seconds; defaults to now. */
  created?: number;
  /** Unix seconds; defaults to created + the profile's window (300 s without a profile). */
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

/**
 * Signs a message and returns the Signature-Input and Signature field values. Headers may be an object, a `Headers` or
 * an array of pairs. Throws SignatureBaseError (with its `code`) when RFC 9421 §2.5 allows no signature base, e.g. a
 * non-ASCII value or a covered header the message lacks, and KeyError for a key it cannot use.
 */
export function signRequest(message: MessageInput, options: SignOptions): SignedHeaders {
  const m = httpMessageOf(message);
  const label = options.label ?? options.profile?.label ?? DEFAULT_LABEL;
  const components = (options.components ?? profileComponents(m, options.profile)).map((c) => c.toLowerCase());
  const created = options.created ?? nowSeconds();
  const params: SignatureParam[] = options.params
    ? [...options.params]
    : [
        ['keyid', options.keyId],
        ['created', created],
        ['expires', options.expires ?? created + (options.profile?.windowSeconds ?? DEFAULT_SIGNATURE_TTL_SECONDS)],
      ];
  const paramsValue = signatureParamsValue(components, params);
  const base = signatureBase(m, components, paramsValue);
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
 * Key objects of the keys signed with lately: parsing a key costs more than a signature, and a run signs every
 * request with one seed (and, against the built-in target, the server its deliveries with another). Byte keys are
 * compared by their bytes, not their identity, so a caller reusing a buffer for another key never signs with the old;
 * PEM texts by their text. KeyObjects need no cache, and JWK objects are read afresh (they may be changed in place).
 */
const recentKeys: Array<{ id: Buffer | string; key: KeyObject }> = [];
const RECENT_KEYS = 4;

function cachedPrivateKey(input: PrivateKeyInput): KeyObject {
  if (input instanceof KeyObject) return privateKeyFrom(input);
  const id = input instanceof Uint8Array ? input : typeof input === 'string' ? input : undefined;
  if (id === undefined) return privateKeyFrom(input);
  let entry = recentKeys.find((k) =>
    typeof id === 'string'
      ? k.id === id
      : typeof k.id !== 'string' && k.id.length === id.length && timingSafeEqual(k.id, id),
  );
  if (entry === undefined) {
    entry = { id: typeof id === 'string' ? id : Buffer.from(id), key: privateKeyFrom(input) };
    recentKeys.unshift(entry);
    recentKeys.length = Math.min(recentKeys.length, RECENT_KEYS);
  }
  return entry.key;
}

/** An Ed25519 signature (RFC 8032, pure) of `data` with the private key (the 32-byte seed, PEM text, a JWK, …). */
export function signEd25519(key: PrivateKeyInput, data: Uint8Array): Uint8Array {
  return cryptoSign(null, data, cachedPrivateKey(key));
}

export interface VerifyOptions {
  /**
   * The verification key (SPKI PEM text, a JWK, a KeyObject or CryptoKey, or the raw 32-byte public key; a key that is
   * none of these throws KeyError), or a function from keyid to key (undefined: unknown key). With a function and
   * several signatures, the one verified is the first whose keyid the function knows (see chooseLabel).
   */
  key: PublicKeyInput | ((keyId: string | undefined) => PublicKeyInput | undefined);
  /** Which signature to check; by default, see chooseLabel. */
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
  /** Which rule it failed, a stable name; absent when ok. */
  code?: SignatureFailure;
  /** Why it failed, in words; absent when ok. */
  reason?: string;
  label?: string;
  keyId?: string;
  components?: string[];
  params?: Record<string, string | number | boolean>;
  base?: string;
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

/** A message to verify: Signature-Input and Signature from these members, else from its headers. */
export type SignedMessage = MessageInput & { signatureInput?: string; signature?: string };

/** Everything short of the Ed25519 operation: parse, check coverage and times, build the base, find the key. */
type Prepared =
  { done: SignatureVerdict } | { verdict: SignatureVerdict; base: string; key: KeyObject; signature: Buffer };

/**
 * Verifies an RFC 9421 Ed25519 signature on a message, whatever its label, component order and parameters. Headers may
 * be an object, a `Headers` or an array of pairs. A failing verdict carries `code` (SignatureFailure) and `reason`.
 */
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
  return valid
    ? { ...p.verdict, ok: true, base: p.base }
    : { ...p.verdict, base: p.base, code: 'SIGNATURE_INVALID', reason: SIGNATURE_MISMATCH };
}

function prepareVerification(message: SignedMessage, options: VerifyOptions): Prepared {
  // A fixed key that is no key at all is the caller's mistake, whatever the message: KeyError, before anything else.
  const fixedKey = typeof options.key === 'function' ? undefined : publicKeyFrom(options.key);
  const v = prepareOrVerdict(httpMessageOf(message), options, fixedKey);
  return 'ok' in v ? { done: v } : v;
}

function keyIdOf(member: Item | InnerList): string | undefined {
  if (!isInnerList(member)) return undefined;
  const keyId = member[1].get('keyid');
  return typeof keyId === 'string' ? keyId : undefined;
}

/**
 * Which of several signatures to verify. RFC 9421 §3.2 step 1.1 leaves the choice to "the policy and configuration of
 * the verifier"; this verifier's policy:
 * - the label the caller names (`options.label`), if any;
 * - else, when the key is a function of keyid (a server that knows its clients' keys), the first signature, in
 *   Signature-Input order, whose keyid the function knows: a proxy's signature, or one by a key being rotated out,
 *   placed in front of the client's, does not hide the client's;
 * - else the first signature (a fixed key says nothing about which signature it is for).
 * When no keyid is known, the first signature is verified, and fails with KEYID_UNKNOWN.
 */
function chooseLabel(inputs: Dictionary, options: VerifyOptions): string | undefined {
  if (options.label !== undefined) return options.label;
  const labels = [...inputs.keys()];
  const resolve = options.key;
  if (labels.length > 1 && typeof resolve === 'function') {
    const known = labels.find((l) => {
      const keyId = keyIdOf(inputs.get(l)!);
      return keyId !== undefined && resolve(keyId) !== undefined;
    });
    if (known !== undefined) return known;
  }
  return labels[0];
}

type Failure = Omit<SignatureVerdict, 'ok' | 'code'> & { code: SignatureFailure; reason: string };

/** Why a parsed signature fails before its bytes are checked. */
type Problem = { code: SignatureFailure; reason: string };

function prepareOrVerdict(
  message: HttpMessage & { signatureInput?: string; signature?: string },
  options: VerifyOptions,
  fixedKey: KeyObject | undefined,
): SignatureVerdict | Exclude<Prepared, { done: SignatureVerdict }> {
  const chosen = chooseSignature(message, options);
  if ('ok' in chosen) return chosen;
  const { label, input, signature } = chosen;
  const [items, paramMap] = input;
  const components = coveredComponents(items);
  if (!Array.isArray(components)) return { ok: false, code: components.code, label, reason: components.reason };
  const params = plainParams(paramMap);
  const keyId = typeof params.keyid === 'string' ? params.keyid : undefined;
  const verdict: SignatureVerdict = { ok: false, label, keyId, components, params };
  const reject = (problem: Problem, extra: Partial<SignatureVerdict> = {}): SignatureVerdict => ({
    ...verdict,
    ...extra,
    ...problem,
  });
  const refused = profileProblem(params, components, options) ?? timeProblem(params, options);
  if (refused) return reject(refused);
  let base: string;
  try {
    // Re-serialising the parsed inner list keeps parameter order and types (a token stays a token).
    base = signatureBase(message, components, serializeInnerList(input));
  } catch (e) {
    if (e instanceof SignatureBaseError) return reject({ code: e.code, reason: e.message });
    throw e;
  }
  const key = verificationKey(fixedKey, options, keyId);
  if ('reason' in key) return reject(key, { base });
  return { verdict, base, key, signature };
}

/** The signature to verify: its label (chooseLabel), its Signature-Input inner list and its Signature bytes. */
function chooseSignature(
  message: HttpMessage & { signatureInput?: string; signature?: string },
  options: VerifyOptions,
): SignatureVerdict | { label: string; input: InnerList; signature: Buffer } {
  const fail = (f: Failure): SignatureVerdict => ({ ok: false, ...f });
  const inputField = message.signatureInput ?? headerValue(message.headers, 'signature-input');
  const sigField = message.signature ?? headerValue(message.headers, 'signature');
  if (!inputField) return fail({ code: 'SIGNATURE_MISSING', reason: 'no Signature-Input header' });
  if (!sigField) return fail({ code: 'SIGNATURE_MISSING', reason: 'no Signature header' });
  let inputs: Dictionary, sigs: Dictionary;
  try {
    inputs = parseDictionary(inputField);
  } catch {
    return fail({ code: 'SIGNATURE_MALFORMED', reason: 'Signature-Input is not a structured dictionary' });
  }
  try {
    sigs = parseDictionary(sigField);
  } catch {
    return fail({ code: 'SIGNATURE_MALFORMED', reason: 'Signature is not a structured dictionary' });
  }
  const label = chooseLabel(inputs, options);
  if (label === undefined) return fail({ code: 'SIGNATURE_MALFORMED', reason: 'Signature-Input is empty' });
  const input = inputs.get(label);
  if (input === undefined)
    return fail({ code: 'SIGNATURE_MISSING', label, reason: `Signature-Input has no signature labelled "${label}"` });
  if (!isInnerList(input))
    return fail({
      code: 'SIGNATURE_MALFORMED',
      label,
      reason: `Signature-Input has no inner list labelled "${label}"`,
    });
  const sigMember = sigs.get(label);
  if (sigMember === undefined || isInnerList(sigMember) || !(sigMember[0] instanceof ArrayBuffer)) {
    return fail({ code: 'SIGNATURE_MALFORMED', label, reason: `Signature has no byte sequence labelled "${label}"` });
  }
  return { label, input: input as InnerList, signature: Buffer.from(sigMember[0] as ArrayBuffer) };
}

/** The covered component names, each a lowercase string without parameters (this profile's), or why not. */
function coveredComponents(items: InnerList[0]): string[] | Problem {
  const components: string[] = [];
  for (const [name, itemParams] of items) {
    if (typeof name !== 'string') return { code: 'SIGNATURE_MALFORMED', reason: 'a covered component is not a string' };
    if (itemParams.size > 0)
      return {
        code: 'SIGNATURE_MALFORMED',
        reason: `component parameters (on "${name}") are not supported by this profile`,
      };
    // RFC 9421 §2.1: component names are lowercased. Said here, at the parse, so that a capitalised "Authorization"
    // is reported as what it is, not as "authorization" left uncovered.
    if (name !== name.toLowerCase())
      return {
        code: 'SIGNATURE_MALFORMED',
        reason: `the component name "${name}" is not lowercase (RFC 9421 §2.1: component names are lowercased)`,
      };
    components.push(name);
  }
  return components;
}

/** The signature's parameters as plain values (a byte sequence or inner list as its string). */
function plainParams(paramMap: InnerList[1]): Record<string, string | number | boolean> {
  const params: Record<string, string | number | boolean> = {};
  for (const [k, v] of paramMap) {
    params[k] = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : String(v);
  }
  return params;
}

/** The profile's demands on what is signed: the algorithm, and the components the caller requires covered. */
function profileProblem(
  params: Record<string, string | number | boolean>,
  components: string[],
  options: VerifyOptions,
): Problem | undefined {
  // RFC 9421 §3.2 step 6: the algorithm of the key material (Ed25519, the only one this profile verifies) and an alg
  // parameter "MUST be the same. If the algorithms are not the same, the verifier MUST fail the verification."
  if (params.alg !== undefined && params.alg !== 'ed25519')
    return { code: 'ALG_MISMATCH', reason: `alg ${JSON.stringify(params.alg)} is not ed25519` };

  for (const required of options.requiredComponents ?? []) {
    if (!components.includes(required))
      return { code: 'COMPONENT_NOT_COVERED', reason: `the signature does not cover "${required}"` };
  }
  return undefined;
}

/** created and expires: integers, present when required, and now within them (skew allowed) and within maxAgeSeconds. */
function timeProblem(params: Record<string, string | number | boolean>, options: VerifyOptions): Problem | undefined {
  const now = options.now ?? nowSeconds();
  const skew = options.skewSeconds ?? 0;
  const created = params.created;
  const expires = params.expires;
  const problem = (code: SignatureFailure, reason: string): Problem => ({ code, reason });
  if (created !== undefined && (typeof created !== 'number' || !Number.isInteger(created)))
    return problem('SIGNATURE_MALFORMED', 'created is not an integer');
  if (expires !== undefined && (typeof expires !== 'number' || !Number.isInteger(expires)))
    return problem('SIGNATURE_MALFORMED', 'expires is not an integer');
  if (options.requireCreated && created === undefined)
    return problem('SIGNATURE_CREATED_MISSING', 'the signature has no created parameter');
  if (options.requireExpires && expires === undefined)
    return problem('SIGNATURE_EXPIRES_MISSING', 'the signature has no expires parameter');
  if (typeof created === 'number' && created > now + skew)
    return problem('SIGNATURE_CREATED_FUTURE', `created (${created}) is in the future (now ${now})`);
  if (typeof expires === 'number' && expires < now - skew)
    return problem('SIGNATURE_EXPIRED', `expired at ${expires} (now ${now})`);
  if (typeof created === 'number' && typeof expires === 'number' && expires < created)
    return problem('SIGNATURE_MALFORMED', 'expires is before created');
  if (options.maxAgeSeconds !== undefined && typeof created === 'number') {
    if (created < now - options.maxAgeSeconds - skew)
      return problem('SIGNATURE_EXPIRED', `created (${created}) is older than ${options.maxAgeSeconds} s`);
    if (typeof expires === 'number' && expires - created > options.maxAgeSeconds)
      return problem(
        'SIGNATURE_WINDOW_TOO_LONG',
        `validity window of ${expires - created} s exceeds ${options.maxAgeSeconds} s`,
      );
  }
  return undefined;
}

/** The Ed25519 key to verify with: the fixed one, or the one options.key gives for the keyid; or why there is none. */
function verificationKey(
  fixedKey: KeyObject | undefined,
  options: VerifyOptions,
  keyId: string | undefined,
): KeyObject | Problem {
  let key = fixedKey;
  if (key === undefined) {
    const keyInput = (options.key as (keyId: string | undefined) => PublicKeyInput | undefined)(keyId);
    if (keyInput === undefined)
      return {
        code: 'KEYID_UNKNOWN',
        reason: `unknown keyid ${keyId === undefined ? '(none given)' : JSON.stringify(keyId)}`,
      };
    try {
      key = publicKeyFrom(keyInput, `the key for keyid ${JSON.stringify(keyId)}`);
    } catch (e) {
      return { code: 'KEY_UNUSABLE', reason: e instanceof Error ? e.message : 'the verification key cannot be read' };
    }
  }
  if (key.asymmetricKeyType !== 'ed25519')
    return { code: 'KEY_UNUSABLE', reason: `the key is ${key.asymmetricKeyType ?? 'unknown'}, not Ed25519` };
  return key;
}

/** The first signature of a Signature-Input field as parsed (label, covered items, parameters, how many follow); undefined when absent or not a structured dictionary of inner lists. */
export function firstSignatureInput(
  field: string | undefined,
): { label: string; items: InnerList[0]; params: InnerList[1]; more: number } | undefined {
  if (field === undefined) return undefined;
  let dict;
  try {
    dict = parseDictionary(field);
  } catch {
    return undefined;
  }
  const first = [...dict.entries()][0];
  if (!first || !isInnerList(first[1])) return undefined;
  const [items, params] = first[1];
  return { label: first[0], items, params, more: dict.size - 1 };
}
