// The request `conformance curl` sends, made from its command line: what a correct client sends (the spec's "Common
// request rules": bearer token, X-Client-Id, idempotency key, Content-Digest, an RFC 9421 signature over the profile's
// components), with each part open to change from the command line the way a check changes it. One module for the
// command and for the replay line every report writes (src/report/exchange-text.ts), so a line read back gives the
// request it was written from.
import { randomUUID } from 'node:crypto';
import { contentDigest } from '../http/digest.js';
import { removeHeader, setHeader } from '../http/message.js';
import type { PreparedRequest } from '../http/client.js';
import {
  DEFAULT_SIGNING_PROFILE,
  profileComponents,
  signRequest,
  type SignedHeaders,
  type SigningProfile,
} from '../http/signature.js';
import type { SignatureParam } from '../http/signature-base.js';

const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * How the signature is made; every field left out takes the target's signing profile (the one the token request
 * learnt, or the config set; the default profile's without either).
 */
export interface SignSpec {
  /** Covered components, in order; default: the profile's, for the headers the request carries. */
  components?: string[];
  /** `created`, in seconds from the moment of signing (0 by default); null leaves the parameter out. */
  created?: number | null;
  /** `expires`, in seconds from the moment of signing (the profile's window by default); null leaves it out. */
  expires?: number | null;
  /** keyid; default the target's; null leaves it out. */
  keyId?: string | null;
  label?: string;
  /** Parameters after keyid, created and expires (alg, nonce, tag…), in order. */
  params?: SignatureParam[];
}

export interface CurlSpec {
  method: string;
  /** An absolute URL, or a path (with its query) under the target's baseUrl. */
  url: string;
  /**
   * `-H` in order. A value replaces the header curl would make of that name (or is added); null sends the request
   * without it. Signature and Signature-Input given here replace (or drop) what signing made, after signing.
   */
  headers: Array<[string, string | null]>;
  body?: Uint8Array;
  /** false: no Signature, no Signature-Input. */
  sign: false | SignSpec;
}

/** What fills the {{…}} placeholders, and signs. */
export interface CurlIdentity {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  keyId: string;
  privateKey: Uint8Array;
}

/**
 * Values a report masks, written as {{name}} in a replay line and filled from the target: `{{token}}` is the fresh
 * token, `{{signature}}` the fresh signature's bytes (base64), for a Signature given with -H.
 */
type Placeholder = 'clientId' | 'clientSecret' | 'keyId' | 'token' | 'signature';

const PLACEHOLDER = /\{\{(clientId|clientSecret|keyId|token|signature)\}\}/g;

function usesPlaceholder(text: string, name: Placeholder): boolean {
  return text.includes(`{{${name}}}`);
}

function fillPlaceholders(text: string, values: Partial<Record<Placeholder, string>>): string {
  return text.replace(PLACEHOLDER, (whole, name: Placeholder) => values[name] ?? whole);
}

/** The token request (POST /oauth/token) carries no bearer token and no X-Client-Id: its body holds the credentials. */
export function isTokenEndpoint(url: string): boolean {
  return /\/oauth\/token\/?$/.test(pathOf(url));
}

export function isMutating(method: string): boolean {
  return MUTATING_METHODS.has(method.toUpperCase());
}

/** curl's Content-Type for a body given with -d: JSON when it reads as an object or array, else a form (as curl's -d). */
export function defaultContentType(body: string): string {
  return /^\s*[[{]/.test(body) ? 'application/json' : 'application/x-www-form-urlencoded';
}

/** The absolute URL of a request: as given, or the path under the target's baseUrl. */
export function resolveUrl(url: string, baseUrl: string): string {
  if (/^https?:\/\//i.test(url)) return new URL(url).toString();
  return new URL(`${baseUrl.replace(/\/+$/, '')}${url.startsWith('/') ? '' : '/'}${url}`).toString();
}

/** Whether the request carries a bearer token curl obtains (one is obtained only when it does). */
export function needsToken(spec: CurlSpec): boolean {
  const given = spec.headers.find(([n]) => n.toLowerCase() === 'authorization');
  const texts = [spec.url, ...spec.headers.map(([, v]) => v ?? '')];
  if (spec.body) texts.push(new TextDecoder().decode(spec.body));
  if (texts.some((t) => usesPlaceholder(t, 'token'))) return true;
  return given === undefined && !isTokenEndpoint(spec.url);
}

export interface BuiltRequest {
  request: PreparedRequest;
  /** Absent with --no-sign. */
  signed?: SignedHeaders;
}

/** Builds, signs (in `profile` where `spec.sign` does not say otherwise) and finishes the request; `now` in Unix seconds. */
export function buildRequest(
  spec: CurlSpec,
  identity: CurlIdentity,
  token: string | undefined,
  now: number,
  profile: SigningProfile = DEFAULT_SIGNING_PROFILE,
): BuiltRequest {
  const fill = (text: string, signature?: string): string =>
    fillPlaceholders(text, {
      clientId: identity.clientId,
      clientSecret: identity.clientSecret,
      keyId: identity.keyId,
      ...(token !== undefined ? { token } : {}),
      ...(signature !== undefined ? { signature } : {}),
    });
  // As given: RFC 9421 §2.2.1 signs the method as sent, and a check may send one in lower case.
  const method = spec.method;
  const url = resolveUrl(fill(spec.url), identity.baseUrl);
  const body = spec.body && spec.body.byteLength > 0 ? fillBody(spec.body, fill) : undefined;

  // What a correct client sends, in the order SignedClient.prepare makes it.
  const headers: Array<[string, string]> = [];
  if (!isTokenEndpoint(url)) {
    if (token !== undefined) headers.push(['Authorization', `Bearer ${token}`]);
    headers.push(['X-Client-Id', identity.clientId]);
  }
  if (isMutating(method)) headers.push(['X-Idempotency-Key', randomUUID()]);
  if (body) {
    headers.push(['Content-Type', defaultContentType(new TextDecoder().decode(body))]);
    headers.push(['Content-Length', String(body.byteLength)]);
    headers.push(['Content-Digest', contentDigest(body)]);
  }
  // -H: replaces (or drops) what curl made, else adds; the signature's own fields wait until it is made.
  const afterSigning: Array<[string, string | null]> = [];
  const given = new Set<string>();
  for (const [name, value] of spec.headers) {
    const lower = name.toLowerCase();
    if (lower === 'signature' || lower === 'signature-input') {
      afterSigning.push([name, value]);
      continue;
    }
    if (value === null) removeHeader(headers, name);
    else if (given.has(lower)) headers.push([name, fill(value)]);
    else setHeader(headers, name, fill(value));
    given.add(lower);
  }
  const request: PreparedRequest = { method, url, headers, ...(body ? { body } : {}) };
  let signed: SignedHeaders | undefined;
  if (spec.sign !== false) {
    signed = signRequest(request, {
      keyId: identity.keyId,
      privateKey: identity.privateKey,
      label: spec.sign.label ?? profile.label,
      components: spec.sign.components ?? profileComponents(request, profile),
      params: signatureParams(spec.sign, identity.keyId, now, profile.windowSeconds),
    });
    headers.push(['Signature-Input', signed.signatureInput], ['Signature', signed.signature]);
  }
  const signatureBytes = signed?.signature.replace(/^[^=]*=:|:$/g, '');
  for (const [name, value] of afterSigning) {
    if (value === null) removeHeader(headers, name);
    else setHeader(headers, name, fill(value, signatureBytes));
  }
  return { request, ...(signed ? { signed } : {}) };
}

/** keyid, created, expires (each unless left out), then the other parameters. */
function signatureParams(sign: SignSpec, keyId: string, now: number, windowSeconds: number): SignatureParam[] {
  const params: SignatureParam[] = [];
  if (sign.keyId !== null) params.push(['keyid', sign.keyId ?? keyId]);
  if (sign.created !== null) params.push(['created', now + (sign.created ?? 0)]);
  if (sign.expires !== null) params.push(['expires', now + (sign.expires ?? windowSeconds)]);
  return [...params, ...(sign.params ?? [])];
}

/** Placeholders are filled in a body that is text; bytes that are not UTF-8 go as they are. */
function fillBody(body: Uint8Array, fill: (text: string) => string): Uint8Array {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return body;
  }
  return text.includes('{{') ? new TextEncoder().encode(fill(text)) : body;
}

function pathOf(url: string): string {
  try {
    return new URL(url, 'http://x').pathname;
  } catch {
    return url;
  }
}
