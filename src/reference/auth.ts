// Request authentication ("Authentication", "Common request rules"). Every failure is a 401 with the spec's error body
// and happens before any handler runs, so a rejected request has no effect on state. The reason goes to the log and
// to WWW-Authenticate (RFC 9110 §11.6.1 requires the header on a 401); the body stays exactly {code, message}.
import { verifySignatureAsync, PROFILE_COMPONENTS } from '../http/signature.js';
import { verifyContentDigest } from '../http/digest.js';
import { hasHeader, headerValue, headerValues } from '../http/message.js';
import { asHttpMessage, nowSeconds, type RequestContext, type ServerState } from './context.js';
import { ipAllowed, type RegisteredClient } from './clients.js';
import { HttpError } from './respond.js';
import { idempotencyKeyOf, isMutating } from './idempotency.js';
import type { IssuedToken } from './tokens.js';

const REALM = 'investment-api';

/** A 401 whose reason is logged and put in WWW-Authenticate (RFC 6750 §3), never in the body. */
export class AuthError extends HttpError {
  constructor(
    readonly reason: string,
    oauthError = 'invalid_token',
  ) {
    // RFC 6750 error_description allows %x20-21 / %x23-5B / %x5D-7E only.
    const description = reason.replace(/[^\x20-\x7e]|["\\]/g, "'").slice(0, 300);
    super(401, 'Unauthorized', {
      'www-authenticate': `Bearer realm="${REALM}", error="${oauthError}", error_description="${description}"`,
    });
  }
}

/** Profile headers: the non-derived entries of PROFILE_COMPONENTS. */
const PROFILE_HEADERS = PROFILE_COMPONENTS.filter((c) => !c.startsWith('@'));

/**
 * "A signature that leaves out a carried header proves nothing about it": each carried profile header must be covered.
 * Except `Content-Length: 0` on a body-less request: HTTP stacks (fetch, node:http) add it to a POST on their own, after
 * the client signed, and it states nothing the absence of a body does not.
 */
export function requiredComponents(ctx: RequestContext): string[] {
  const carried = PROFILE_HEADERS.filter((h) => hasHeader(ctx.headers, h));
  const exempt =
    ctx.body.length === 0 && headerValue(ctx.headers, 'content-length')?.trim() === '0' ? ['content-length'] : [];
  return ['@method', ...carried.filter((h) => !exempt.includes(h))];
}

// ---- the parts ----------------------------------------------------------------------------------------------

/** Verified on the thread pool (verifySignatureAsync): Ed25519 is most of a request's cost, and the loop stays free. */
async function checkSignature(ctx: RequestContext, state: ServerState, client: RegisteredClient): Promise<void> {
  const policy = state.policy;
  if (!policy.verifySignatures) return;
  const required = policy.requireFullCoverage ? requiredComponents(ctx) : [];
  const verdict = await verifySignatureAsync(asHttpMessage(ctx), {
    key: (keyId) => state.clients.keyFor(client, keyId),
    requiredComponents: required,
    now: nowSeconds(state),
    skewSeconds: policy.skewSeconds,
    maxAgeSeconds: policy.maxSignatureWindowSeconds,
    requireCreated: policy.requireCreatedExpires,
    requireExpires: policy.requireCreatedExpires,
  });
  if (!verdict.ok) throw new AuthError(`signature: ${verdict.reason ?? 'invalid'}`);
  if (policy.requireFullCoverage) {
    const covered = verdict.components ?? [];
    const targetCovered =
      covered.includes('@target-uri') ||
      (covered.includes('@path') && (ctx.url.search === '' || covered.includes('@query')));
    if (!targetCovered)
      throw new AuthError('signature: covers neither "@target-uri" nor "@path" (with "@query" when there is a query)');
  }
}

function checkDigest(ctx: RequestContext, state: ServerState): void {
  if (!state.policy.verifyContentDigest) return;
  const field = headerValue(ctx.headers, 'content-digest');
  // A body must carry its digest; a digest sent with an empty body must still be right.
  if (ctx.body.length === 0 && field === undefined) return;
  const verdict = verifyContentDigest(field, ctx.body);
  if (!verdict.ok) throw new AuthError(`content-digest: ${verdict.reason}`);
}

function checkIdempotencyHeader(ctx: RequestContext, state: ServerState): void {
  if (!state.policy.requireIdempotencyKey || !isMutating(ctx.method)) return;
  const key = idempotencyKeyOf(ctx.headers, state.choices.idempotencyIdSpelling === 'accepted');
  if (key.kind === 'missing') throw new AuthError('a mutating request must carry X-Idempotency-Key');
  if (key.kind === 'invalid') throw new AuthError(key.reason);
}

function checkIp(ctx: RequestContext, client: RegisteredClient): void {
  if (!ipAllowed(client, ctx.remoteAddress))
    throw new AuthError(`address ${ctx.remoteAddress ?? '(unknown)'} is not in the client's trustedIps`);
}

// ---- the two modes ------------------------------------------------------------------------------------------

/** Every endpoint but the token request: bearer token, X-Client-Id of the token's client, signature by that client's key. */
export async function authenticateBearer(ctx: RequestContext, state: ServerState): Promise<void> {
  const authorization = headerValues(ctx.headers, 'authorization');
  if (authorization.length === 0) throw new AuthError('no Authorization header', 'invalid_request');
  if (authorization.length > 1) throw new AuthError('more than one Authorization header', 'invalid_request');
  const match = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(authorization[0]!.trim());
  if (!match) throw new AuthError('Authorization is not "Bearer <token>"', 'invalid_request');
  const token = state.policy.enforceTokenExpiry
    ? state.tokens.find(match[1]!)
    : state.tokens.findIgnoringExpiry(match[1]!);
  if (token === undefined) throw new AuthError('the token is unknown, revoked or expired');
  const client = state.clients.get(token.clientId);
  if (client === undefined) throw new AuthError('the token belongs to no registered client');

  const clientIds = headerValues(ctx.headers, 'x-client-id');
  if (clientIds.length !== 1)
    throw new AuthError(clientIds.length === 0 ? 'no X-Client-Id header' : 'more than one X-Client-Id header');
  if (state.policy.requireMatchingClientId && clientIds[0]!.trim() !== client.clientId) {
    throw new AuthError('X-Client-Id is not the client the token was issued to');
  }
  checkIp(ctx, client);
  await checkSignature(ctx, state, client);
  checkDigest(ctx, state);
  checkIdempotencyHeader(ctx, state);
  checkScope(ctx, state, token);
  ctx.client = client;
  ctx.token = token;
}

/**
 * Choice scopeEnforcement=read-write: a GET needs the read scope, any other method the write scope. Every token has
 * both (Authentication 6), so a correct client never meets the 403; which scope an endpoint needs is not shown.
 */
function checkScope(ctx: RequestContext, state: ServerState, token: IssuedToken): void {
  if (state.choices.scopeEnforcement !== 'read-write') return;
  const needed = ctx.method === 'GET' ? 'read' : 'write';
  if (!token.scopes.includes(needed)) {
    ctx.rejection = `the token lacks the ${needed} scope`;
    throw new HttpError(403, 'Forbidden: insufficient scope');
  }
}

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/** The media type of Content-Type without parameters, lower-cased. */
export function mediaType(ctx: RequestContext): string | undefined {
  return headerValue(ctx.headers, 'content-type')?.split(';')[0]?.trim().toLowerCase();
}

/**
 * The token request. It has no token and no X-Client-Id, so the form's clientId names the client, and the signature
 * must verify with that client's registered key (keyid must be that client's). The secret is checked last: a request
 * whose signature fails says nothing about whether its secret was right.
 */
export async function authenticateClientCredentials(ctx: RequestContext, state: ServerState): Promise<void> {
  if (mediaType(ctx) !== FORM_CONTENT_TYPE) {
    throw new HttpError(415, `Unsupported Media Type: the token request body must be ${FORM_CONTENT_TYPE}`);
  }
  const form = new URLSearchParams(ctx.body.toString('utf8'));
  const clientIds = form.getAll('clientId');
  const secrets = form.getAll('clientSecret');
  if (clientIds.length !== 1 || clientIds[0] === '')
    throw new AuthError('the form must carry one clientId', 'invalid_client');
  const client = state.clients.get(clientIds[0]!);
  if (client === undefined) throw new AuthError('unknown clientId', 'invalid_client');
  // The request needs no X-Client-Id; one that is sent must not name another client.
  const headerClient = headerValue(ctx.headers, 'x-client-id');
  if (headerClient !== undefined && headerClient.trim() !== client.clientId)
    throw new AuthError('X-Client-Id differs from the form clientId', 'invalid_client');
  checkIp(ctx, client);
  await checkSignature(ctx, state, client);
  checkDigest(ctx, state);
  checkIdempotencyHeader(ctx, state);
  if (secrets.length !== 1 || !state.clients.secretMatches(client, secrets[0]!)) {
    throw new AuthError('clientSecret is missing or wrong', 'invalid_client');
  }
  ctx.client = client;
}
