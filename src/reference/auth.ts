// Request authentication ("Authentication", "Common request rules"). Every failure is a 401 with the spec's error body
// and happens before any handler runs, so a rejected request has no effect on state. The body is {code, message}:
// message "Unauthorized" (the spec's Errors table), code the rule that was broken (rejection.ts). The reason goes to
// the log, to the Conformance-Rejection header and to WWW-Authenticate (RFC 9110 §11.6.1 requires it on a 401).
import { parseDictionary } from 'structured-headers';
import { coversTarget, requiredComponentsFor, verifySignatureAsync, type VerifyOptions } from '../http/signature.js';
import { SECURE_DIGEST_ALGORITHMS, verifyContentDigest, type DigestAlgorithm } from '../http/digest.js';
import { headerValue, headerValues, type HttpMessage } from '../http/message.js';
import { targetParts } from '../http/signature-base.js';
import { asHttpMessage, nowSeconds, type RequestContext, type ServerState } from './context.js';
import { PROXIED_ORIGIN, SHORT_WINDOW } from './choices/signing.js';
import { ipAllowed, type RegisteredClient } from './clients.js';
import { HttpError } from './respond.js';
import { idempotencyKeyOf, isMutating } from './idempotency.js';
import { signatureFailureCode, type RejectionCode } from './rejection.js';
import type { IssuedToken } from './tokens.js';

const REALM = 'investment-api';

/**
 * A 401 whose body's code names the rule; its reason is logged and put in WWW-Authenticate (RFC 6750 §3) and the
 * Conformance-Rejection header, never in the body. `base`: the signature base of a signature that does not verify.
 */
export class AuthError extends HttpError {
  constructor(
    code: RejectionCode,
    readonly reason: string,
    options: { oauthError?: string; base?: string } = {},
  ) {
    // RFC 6750 error_description allows %x20-21 / %x23-5B / %x5D-7E only.
    const description = reason.replace(/[^\x20-\x7e]|["\\]/g, "'").slice(0, 300);
    const oauthError = options.oauthError ?? 'invalid_token';
    super(
      401,
      'Unauthorized',
      { 'www-authenticate': `Bearer realm="${REALM}", error="${oauthError}", error_description="${description}"` },
      { code, reason, ...(options.base !== undefined ? { base: options.base } : {}) },
    );
  }
}

/** A malformed Authorization as RFC 6750 §3.1 answers it: 400 invalid_request, the spec's error body. */
function malformedBearer400(): HttpError {
  const reason = 'Authorization is not "Bearer <token>"';
  return new HttpError(
    400,
    'Bad Request',
    {
      'www-authenticate': `Bearer realm="${REALM}", error="invalid_request", error_description="${reason.replace(/"/g, "'")}"`,
    },
    { code: 'TOKEN_MALFORMED', reason },
  );
}

/** What the signature must cover (src/http/signature.ts, the one rule the client checks judge by too). */
export function requiredComponents(ctx: RequestContext): string[] {
  return requiredComponentsFor(ctx.headers, ctx.body.length);
}

/**
 * How this server verifies a signature's times and parameters: its policy, narrowed by its choices (REQ-AUTH-13
 * readings): signatureWindow=60-no-skew allows at most 60 s and no skew, signatureParams=optional takes a signature
 * without created or expires.
 */
export function timeRules(
  state: ServerState,
): Pick<VerifyOptions, 'now' | 'skewSeconds' | 'maxAgeSeconds' | 'requireCreated' | 'requireExpires'> {
  const policy = state.policy;
  const short = state.choices.signatureWindow === '60-no-skew';
  const required = policy.requireCreatedExpires && state.choices.signatureParams === 'required';
  return {
    now: nowSeconds(state),
    skewSeconds: short ? Math.min(policy.skewSeconds, SHORT_WINDOW.skewSeconds) : policy.skewSeconds,
    maxAgeSeconds: short
      ? Math.min(policy.maxSignatureWindowSeconds, SHORT_WINDOW.maxWindowSeconds)
      : policy.maxSignatureWindowSeconds,
    requireCreated: required,
    requireExpires: required,
  };
}

/**
 * The request as this server verifies it: with signatureTarget=path-query its @target-uri is the one a server behind a
 * TLS-terminating proxy rebuilds (the proxy's upstream, over http), not the one the client signed.
 */
export function verifiedMessage(ctx: RequestContext, state: ServerState): HttpMessage {
  const message = asHttpMessage(ctx);
  if (state.choices.signatureTarget !== 'path-query') return message;
  // The path and query as sent, byte for byte: what the proxy forwards, and what @path and @query cover.
  const { path, query } = targetParts(ctx.targetUri);
  return { ...message, url: `${PROXIED_ORIGIN}${path}${query ?? ''}` };
}

/**
 * Whether the covered components cover the target: @target-uri, or @path (with @query, unless queryCoverage=optional);
 * with signatureTarget=target-uri, @target-uri alone.
 */
export function targetCovered(ctx: RequestContext, state: ServerState, components: readonly string[]): boolean {
  if (state.choices.signatureTarget === 'target-uri') return components.includes('@target-uri');
  const queryRequired = state.choices.queryCoverage === 'required';
  return coversTarget(components, queryRequired && ctx.url.search !== '');
}

/** The digest algorithms taken: sha-512 alone (the spec's), or with digestAlgorithms=any every secure one of RFC 9530. */
export function digestAlgorithms(state: ServerState): readonly DigestAlgorithm[] {
  return state.choices.digestAlgorithms === 'any' ? SECURE_DIGEST_ALGORITHMS : ['sha-512'];
}

// ---- the parts ----------------------------------------------------------------------------------------------

/** Verified on the thread pool (verifySignatureAsync): Ed25519 is most of a request's cost, and the loop stays free. */
async function checkSignature(ctx: RequestContext, state: ServerState, client: RegisteredClient): Promise<void> {
  const policy = state.policy;
  if (!policy.verifySignatures) return;
  const required = policy.requireFullCoverage ? requiredComponents(ctx) : [];
  const verdict = await verifySignatureAsync(verifiedMessage(ctx, state), {
    key: (keyId) => state.clients.keyFor(client, keyId),
    requiredComponents: required,
    ...timeRules(state),
  });
  if (!verdict.ok) {
    const code = signatureFailureCode(verdict);
    // Only the base shows why bytes that look right do not verify; for the other rules the reason says it all.
    const base = code === 'SIGNATURE_INVALID' ? verdict.base : undefined;
    const reason = verdict.reason ?? 'the signature is invalid';
    if (base === undefined) throw new AuthError(code, reason);
    const signer = [`label ${verdict.label ?? '?'}`, `keyid ${JSON.stringify(verdict.keyId ?? null)}`].join(', ');
    throw new AuthError(code, `${reason} (${signer}); the log of conformance serve shows the base this server built`, {
      base,
    });
  }
  if (policy.requireFullCoverage) {
    if (!targetCovered(ctx, state, verdict.components ?? []))
      throw new AuthError(
        'COMPONENT_NOT_COVERED',
        state.choices.signatureTarget === 'target-uri'
          ? 'the signature does not cover "@target-uri"'
          : `the signature covers neither "@target-uri" nor "@path"${ctx.url.search === '' || state.choices.queryCoverage !== 'required' ? '' : ' with "@query" (the request has a query)'}`,
      );
  }
}

function checkDigest(ctx: RequestContext, state: ServerState): void {
  if (!state.policy.verifyContentDigest) return;
  const field = headerValue(ctx.headers, 'content-digest');
  // A body must carry its digest; a digest sent with an empty body must still be right.
  if (ctx.body.length === 0 && field === undefined) return;
  const algorithms = digestAlgorithms(state);
  const verdict = verifyContentDigest(field, ctx.body, { algorithms });
  if (!verdict.ok) throw new AuthError(digestFailure(field, algorithms), verdict.reason);
}

/** Which digest rule a Content-Digest that did not verify breaks (the spec's algorithm is sha-512, digest.ts). */
function digestFailure(field: string | undefined, algorithms: readonly DigestAlgorithm[]): RejectionCode {
  if (field === undefined || field.trim() === '') return 'DIGEST_MISSING';
  let members;
  try {
    members = parseDictionary(field);
  } catch {
    return 'DIGEST_MALFORMED';
  }
  const taken = algorithms.map((a) => members.get(a)).filter((m) => m !== undefined);
  if (taken.length === 0) return 'DIGEST_ALGORITHM_UNSUPPORTED';
  return taken.every((m) => m[0] instanceof ArrayBuffer) ? 'DIGEST_MISMATCH' : 'DIGEST_MALFORMED';
}

function checkIdempotencyHeader(ctx: RequestContext, state: ServerState): void {
  if (!state.policy.requireIdempotencyKey || !isMutating(ctx.method)) return;
  const key = idempotencyKeyOf(ctx.headers, state.choices.idempotencyIdSpelling === 'accepted');
  if (key.kind === 'missing')
    throw new AuthError('IDEMPOTENCY_KEY_MISSING', `a ${ctx.method} request must carry X-Idempotency-Key`);
  if (key.kind === 'invalid') throw new AuthError('IDEMPOTENCY_KEY_INVALID', key.reason);
}

function checkIp(ctx: RequestContext, client: RegisteredClient): void {
  if (!ipAllowed(client, ctx.remoteAddress))
    throw new AuthError(
      'CLIENT_IP_NOT_TRUSTED',
      `address ${ctx.remoteAddress ?? '(unknown)'} is not in the client's trustedIps`,
    );
}

// ---- the two modes ------------------------------------------------------------------------------------------

/** Every endpoint but the token request: bearer token, X-Client-Id of the token's client, signature by that client's key. */
export async function authenticateBearer(ctx: RequestContext, state: ServerState): Promise<void> {
  const authorization = headerValues(ctx.headers, 'authorization');
  const invalidRequest = { oauthError: 'invalid_request' };
  if (authorization.length === 0)
    throw new AuthError(
      'TOKEN_MISSING',
      'no Authorization header: send "Authorization: Bearer <token>"',
      invalidRequest,
    );
  if (authorization.length > 1)
    throw new AuthError('TOKEN_REPEATED', `${authorization.length} Authorization headers; send one`, invalidRequest);
  const match = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(authorization[0]!.trim());
  if (!match) {
    // Choice malformedBearer=400: RFC 6750 §3.1 answers a malformed request (invalid_request) with 400, not 401.
    if (state.choices.malformedBearer === '400') throw malformedBearer400();
    throw new AuthError('TOKEN_MALFORMED', 'Authorization is not "Bearer <token>"', invalidRequest);
  }
  const token = findToken(match[1]!, state);
  const client = state.clients.get(token.clientId);
  if (client === undefined) throw new AuthError('TOKEN_CLIENT_UNKNOWN', 'the token belongs to no registered client');

  const clientIds = headerValues(ctx.headers, 'x-client-id');
  if (clientIds.length === 0) throw new AuthError('CLIENT_ID_MISSING', 'no X-Client-Id header');
  if (clientIds.length > 1)
    throw new AuthError('CLIENT_ID_REPEATED', `${clientIds.length} X-Client-Id headers; send one`);
  if (state.policy.requireMatchingClientId && clientIds[0]!.trim() !== client.clientId) {
    throw new AuthError(
      'CLIENT_ID_MISMATCH',
      `X-Client-Id ${JSON.stringify(clientIds[0]!.trim())} is not the client the token was issued to`,
    );
  }
  checkIp(ctx, client);
  await checkSignature(ctx, state, client);
  checkDigest(ctx, state);
  checkIdempotencyHeader(ctx, state);
  checkScope(ctx, state, token);
  ctx.client = client;
  ctx.token = token;
}

/** The live token, or the rule it breaks: never issued (or forgotten), revoked, or expired (unless expiry is off). */
function findToken(presented: string, state: ServerState): IssuedToken {
  const found = state.tokens.lookup(presented);
  switch (found.state) {
    case 'unknown':
      throw new AuthError(
        'TOKEN_UNKNOWN',
        'this server never issued the token, or has forgotten it (a restart, or a token expired more than a day ago)',
      );
    case 'revoked':
      throw new AuthError('TOKEN_REVOKED', `the token was ${found.why}; request a new one`);
    case 'expired':
      if (state.policy.enforceTokenExpiry) {
        const ago = Math.round((state.clock() - found.token.expiresAtMs) / 1000);
        throw new AuthError(
          'TOKEN_EXPIRED',
          `the token expired ${ago} s ago (tokens live 60 minutes); request a new one`,
        );
      }
      return found.token;
    case 'live':
      return found.token;
  }
}

/**
 * Choice scopeEnforcement=read-write: a GET needs the read scope, any other method the write scope. Every token has
 * both (Authentication 6), so a correct client never meets the 403; which scope an endpoint needs is not shown.
 */
function checkScope(ctx: RequestContext, state: ServerState, token: IssuedToken): void {
  if (state.choices.scopeEnforcement !== 'read-write') return;
  const needed = ctx.method === 'GET' ? 'read' : 'write';
  if (!token.scopes.includes(needed)) {
    throw new HttpError(403, 'Forbidden: insufficient scope', undefined, {
      code: 'TOKEN_SCOPE_INSUFFICIENT',
      reason: `the token lacks the ${needed} scope`,
    });
  }
}

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/** The media type of Content-Type without parameters, lower-cased. */
export function mediaType(ctx: RequestContext): string | undefined {
  return headerValue(ctx.headers, 'content-type')?.split(';')[0]?.trim().toLowerCase();
}

/**
 * The credentials of a token request: a form (the spec's encoding), or with choice tokenBody=form-or-json also a JSON
 * object {clientId, clientSecret} (REQ-HDR-10: whether another encoding is refused is open). Another type is a 415.
 */
function credentialsOf(ctx: RequestContext, state: ServerState): { clientIds: string[]; secrets: string[] } {
  const type = mediaType(ctx);
  if (type === FORM_CONTENT_TYPE) {
    const form = new URLSearchParams(ctx.body.toString('utf8'));
    return { clientIds: form.getAll('clientId'), secrets: form.getAll('clientSecret') };
  }
  if (type === 'application/json' && state.choices.tokenBody === 'form-or-json') {
    let body: unknown;
    try {
      body = JSON.parse(ctx.body.toString('utf8'));
    } catch {
      throw new HttpError(400, 'Bad Request: the token request body is not JSON');
    }
    const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const one = (v: unknown) => (typeof v === 'string' ? [v] : []);
    return { clientIds: one(fields.clientId), secrets: one(fields.clientSecret) };
  }
  const accepted =
    state.choices.tokenBody === 'form-or-json' ? `${FORM_CONTENT_TYPE} or application/json` : FORM_CONTENT_TYPE;
  throw new HttpError(415, `Unsupported Media Type: the token request body must be ${accepted}`);
}

/**
 * The token request. It has no token and no X-Client-Id, so the form's clientId names the client, and the signature
 * must verify with that client's registered key (keyid must be that client's). The secret is checked last: a request
 * whose signature fails says nothing about whether its secret was right.
 */
export async function authenticateClientCredentials(ctx: RequestContext, state: ServerState): Promise<void> {
  const { clientIds, secrets } = credentialsOf(ctx, state);
  const invalidClient = { oauthError: 'invalid_client' };
  if (clientIds.length > 1)
    throw new AuthError('CLIENT_ID_REPEATED', `the form carries clientId ${clientIds.length} times`, invalidClient);
  if (clientIds.length === 0 || clientIds[0] === '')
    throw new AuthError('CLIENT_ID_MISSING', 'the form carries no clientId', invalidClient);
  const client = state.clients.get(clientIds[0]!);
  if (client === undefined)
    throw new AuthError('CLIENT_UNKNOWN', `no client ${JSON.stringify(clientIds[0])} is registered`, invalidClient);
  // The request needs no X-Client-Id; one that is sent must not name another client.
  const headerClient = headerValue(ctx.headers, 'x-client-id');
  if (headerClient !== undefined && headerClient.trim() !== client.clientId)
    throw new AuthError('CLIENT_ID_MISMATCH', 'X-Client-Id differs from the form clientId', invalidClient);
  checkIp(ctx, client);
  await checkSignature(ctx, state, client);
  checkDigest(ctx, state);
  checkIdempotencyHeader(ctx, state);
  if (secrets.length === 0)
    throw new AuthError('CLIENT_SECRET_MISSING', 'the form carries no clientSecret', invalidClient);
  if (secrets.length > 1)
    throw new AuthError(
      'CLIENT_SECRET_REPEATED',
      `the form carries clientSecret ${secrets.length} times`,
      invalidClient,
    );
  if (!state.clients.secretMatches(client, secrets[0]!))
    throw new AuthError(
      'CLIENT_SECRET_WRONG',
      'clientSecret is not the secret registered for the client',
      invalidClient,
    );
  ctx.client = client;
}
