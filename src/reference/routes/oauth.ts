// "Authentication endpoints": POST /oauth/token and POST /oauth/revoke, with their emission ties (AUTH.CREATED,
// AUTH.DELETED). Authentication of both happens before these handlers (see auth.ts).
import { FORM_CONTENT_TYPE, mediaType } from '../auth.js';
import { nowSeconds, type RequestContext, type RouteDef, type ServerState } from '../context.js';
import { badRequest, ok } from '../respond.js';
import type { IssuedToken } from '../tokens.js';

/**
 * The token a revocation deletes. The spec shows no body (REQ-TOKEP-09): with choice revokeBody=none the token presented
 * in Authorization is the one, and a body is ignored; with form or json the request must also name the token to revoke
 * in its body (RFC 7009 §2.1: `token=` in a form; or `{"token": …}`), a token of the calling client, and that token is
 * the one revoked; with optional-token a body is not needed, but one that is sent (form or JSON) names the token to
 * revoke. Authorization and the signature are still required (auth.ts ran first).
 */
function tokenToRevoke(ctx: RequestContext, state: ServerState): IssuedToken {
  const presented = ctx.token!;
  const shape = state.choices.revokeBody;
  if (shape === 'none') return presented;
  // optional-token: no body revokes the token presented; a body, either form or JSON, names the one to revoke.
  if (shape === 'optional-token' && ctx.body.length === 0) return presented;
  const named = shape === 'form' ? formToken(ctx) : shape === 'json' ? jsonToken(ctx) : optionalToken(ctx);
  const found = state.tokens.lookup(named);
  if ((found.state === 'live' || found.state === 'expired') && found.token.clientId === presented.clientId)
    return found.token;
  throw badRequest('Bad Request: the body names no live token of this client');
}

function formToken(ctx: RequestContext): string {
  const usage = `name the token to revoke in an ${FORM_CONTENT_TYPE} body: token=<the token> (RFC 7009)`;
  if (mediaType(ctx) !== FORM_CONTENT_TYPE) throw badRequest(`Bad Request: ${usage}`);
  const values = new URLSearchParams(ctx.body.toString('utf8')).getAll('token');
  if (values.length !== 1 || values[0] === '') throw badRequest(`Bad Request: ${usage}, once`);
  return values[0]!;
}

/** revoke-body=optional-token with a body: a form or a JSON body naming the token, as the body's type says. */
function optionalToken(ctx: RequestContext): string {
  try {
    return mediaType(ctx) === FORM_CONTENT_TYPE ? formToken(ctx) : jsonToken(ctx);
  } catch {
    throw badRequest(
      'Bad Request: send no body (the token presented is revoked), or name the token to revoke in a form body token=<the token> (RFC 7009) or a JSON body {"token": "<the token>"}',
    );
  }
}

function jsonToken(ctx: RequestContext): string {
  const usage = 'name the token to revoke in an application/json body: {"token": "<the token>"}';
  if (mediaType(ctx) !== 'application/json') throw badRequest(`Bad Request: ${usage}`);
  let body: unknown;
  try {
    body = JSON.parse(ctx.body.toString('utf8'));
  } catch {
    throw badRequest(`Bad Request: the body is not JSON; ${usage}`);
  }
  const token = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).token : undefined;
  if (typeof token !== 'string' || token === '') throw badRequest(`Bad Request: ${usage}`);
  return token;
}

export const oauthRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/oauth/token',
    auth: 'client-credentials',
    handler(ctx, state) {
      const client = ctx.client!;
      // Choice newToken: a server may keep one live token per client, ending the older ones.
      const issued = state.tokens.issue(client, { endOlder: state.choices.newToken === 'ends-older' });
      const record = state.tokens.record(issued, client);
      state.events.emit({
        name: 'AUTH.CREATED',
        clientId: client.clientId,
        occurredAt: nowSeconds(state),
        data: { tokenId: record.tokenId, clientId: client.clientId, createdAt: record.createdAt },
      });
      // RFC 6749 §5.1: a response carrying a token must not be cached.
      return { ...ok(record), headers: { 'cache-control': 'no-store', pragma: 'no-cache' } };
    },
  },
  {
    method: 'POST',
    path: '/oauth/revoke',
    handler(ctx, state) {
      // The token revoked is the one presented, or (choice revokeBody) the one the body names. Choice revoke: a server
      // may delete every token of the client (the row says nothing of the others); each deleted token has its event.
      const revoked = tokenToRevoke(ctx, state);
      const deleted = state.choices.revoke === 'all-tokens' ? state.tokens.revokeClient(revoked.clientId) : [revoked];
      if (state.choices.revoke !== 'all-tokens') state.tokens.revoke(revoked.token);
      for (const token of deleted) {
        state.events.emit({
          name: 'AUTH.DELETED',
          clientId: token.clientId,
          occurredAt: nowSeconds(state),
          data: { tokenId: token.tokenId, clientId: token.clientId },
        });
      }
      return ok({ tokenId: revoked.tokenId, revoked: true });
    },
  },
];
