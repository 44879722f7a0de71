// What the sandbox tells a client developer about a rejection, beyond the spec's `{code, message}`: a stable code that
// names the rule, a one-line reason and, for a signature that does not verify, the signature base the server built.
// The code is the body's `code` for the rules of authentication (the spec asks only for a string there); code and
// reason go into the Conformance-Rejection header of every rejection; `conformance serve` logs all three.
import { serializeItem, Token } from 'structured-headers';
import type { SignatureVerdict } from '../http/signature.js';

/**
 * The rules of authentication the reference server enforces itself. The signature's own (SIGNATURE_MISSING,
 * KEYID_UNKNOWN, SIGNATURE_EXPIRED…) are the verifier's, SignatureVerdict.code; COMPONENT_NOT_COVERED is both: the
 * verifier's for a carried header, the server's for the target (@target-uri, or @path with @query).
 */
type ReferenceRule =
  | 'TOKEN_MISSING'
  | 'TOKEN_REPEATED'
  | 'TOKEN_MALFORMED'
  | 'TOKEN_UNKNOWN'
  | 'TOKEN_REVOKED'
  | 'TOKEN_EXPIRED'
  | 'TOKEN_CLIENT_UNKNOWN'
  | 'TOKEN_SCOPE_INSUFFICIENT'
  | 'CLIENT_ID_MISSING'
  | 'CLIENT_ID_REPEATED'
  | 'CLIENT_ID_MISMATCH'
  | 'CLIENT_UNKNOWN'
  | 'CLIENT_SECRET_MISSING'
  | 'CLIENT_SECRET_REPEATED'
  | 'CLIENT_SECRET_WRONG'
  | 'CLIENT_IP_NOT_TRUSTED'
  | 'COMPONENT_NOT_COVERED'
  | 'DIGEST_MISSING'
  | 'DIGEST_MALFORMED'
  | 'DIGEST_ALGORITHM_UNSUPPORTED'
  | 'DIGEST_MISMATCH'
  | 'IDEMPOTENCY_KEY_MISSING'
  | 'IDEMPOTENCY_KEY_INVALID';

export type RejectionCode = ReferenceRule | NonNullable<SignatureVerdict['code']>;

/** The code of a signature the verifier refused; SIGNATURE_INVALID when it names none. */
export function signatureFailureCode(verdict: SignatureVerdict): RejectionCode {
  return verdict.code ?? 'SIGNATURE_INVALID';
}

export interface Rejection {
  code: string;
  /** One line, for a developer: what the server saw and what the rule wants. */
  reason: string;
  /** The signature base the server built, when the signature does not verify against it (SIGNATURE_INVALID). */
  base?: string;
}

/**
 * The response header with the code and the reason, an RFC 8941 Item: a token with a `reason` string parameter, e.g.
 * `Conformance-Rejection: DIGEST_MISMATCH;reason="Content-Digest sha-512 does not match the body"`.
 */
export const REJECTION_HEADER = 'conformance-rejection';

const MAX_REASON = 300;

/** The header's value; the reason made printable ASCII (sf-string allows nothing else) and at most 300 characters. */
export function rejectionHeaderValue(rejection: Rejection): string {
  const reason = rejection.reason.replace(/[^\x20-\x7e]/g, '?').slice(0, MAX_REASON);
  const code = /^[A-Z][A-Z0-9_]*$/.test(rejection.code) ? rejection.code : 'REJECTED';
  return serializeItem(new Token(code), new Map([['reason', reason]]));
}

/** The RFC 9110 reason phrase as a code, for a rejection no rule of authentication names (a 404, a 400…). */
const STATUS_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  411: 'LENGTH_REQUIRED',
  413: 'CONTENT_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
};

export function statusRejectionCode(status: number): string {
  return STATUS_CODES[status] ?? `HTTP_${status}`;
}

/** One request of the server's log: what `conformance serve` prints. */
export interface RequestLogEntry {
  seq: number;
  method: string;
  /** Path and query of the request (no secret travels in the query of this interface). */
  target: string;
  status: number;
  /** The rule a rejection broke (absent on success). */
  code?: string;
  /** Why the request was rejected, when it was (the detail the error body does not carry). */
  reason?: string;
  /** The signature base the server built for a signature that does not verify. */
  base?: string;
  durationMs: number;
}

/** Control characters shown as \u escapes, so nothing a client sends can rewrite the terminal. */
function printable(text: string): string {
  return text.replace(/[\x00-\x1f\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * `401 POST /v1/customers SIGNATURE_INVALID the signature does not verify…`, then, for a signature that does not
 * verify, the server's signature base line by line, indented, to diff with the one the client signed.
 */
export function formatRequestLog(entry: RequestLogEntry): string {
  const head = `${entry.status} ${entry.method} ${printable(entry.target)}`;
  const line = entry.code === undefined ? head : `${head} ${entry.code} ${printable(entry.reason ?? '')}`.trimEnd();
  if (entry.base === undefined) return line;
  return [
    line,
    '    the signature base this server built (diff it with the one your client signed):',
    ...entry.base.split('\n').map((l) => `      ${printable(l)}`),
  ].join('\n');
}
