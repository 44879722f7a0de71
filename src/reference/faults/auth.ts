// Faults of tokens: what the token record says, who gets a token, what a token is good for, revocation and expiry.
import { headerValue } from '../../http/message.js';
import { authenticateBearer, FORM_CONTENT_TYPE, mediaType } from '../auth.js';
import type { RequestContext } from '../context.js';
import { serveAuthenticated } from '../pipeline.js';
import { fail, HttpError, ok } from '../respond.js';
import type { FaultDefinition } from './types.js';
import { isRoute, mapData, rewriteSuccess, without } from './reply-rewrites.js';
import {
  acceptWhen,
  authenticates,
  bearerOf,
  hasSignatureHeaders,
  isBearerRoute,
  phantomClient,
  registryWith,
  relaxPolicy,
  signedRequestHolds,
} from './signing.js';
import type { RegisteredClient } from '../clients.js';
import type { IssuedToken, TokenStore } from '../tokens.js';

const tokenReply = isRoute('/oauth/token', 'POST');
const isTokenRoute = (path: string) => path === '/oauth/token';

function formOf(ctx: RequestContext): URLSearchParams | undefined {
  return mediaType(ctx) === FORM_CONTENT_TYPE ? new URLSearchParams(ctx.body.toString('utf8')) : undefined;
}

/** The token store with every token's tokenId made by `idOf`: the record, the store and the events all carry it. */
function tokensWithIdOf(tokens: TokenStore, idOf: (client: RegisteredClient) => string): TokenStore {
  return Object.assign(Object.create(tokens) as TokenStore, {
    issue(client: RegisteredClient, options?: { endOlder?: boolean }): IssuedToken {
      const issued = tokens.issue(client, options);
      issued.tokenId = idOf(client);
      return issued;
    },
  });
}

export const authFaults: FaultDefinition[] = [
  // ---- the token record ---------------------------------------------------------------------------------------
  {
    name: 'auth.token-type-lowercase',
    suite: 'auth',
    breaks: ['REQ-TOKEN-06', 'REQ-TOKEP-04'],
    description: 'the token record says tokenType "bearer"',
    middleware: rewriteSuccess(tokenReply, (r) => mapData(r, (rec) => ({ ...rec, tokenType: 'bearer' }))),
  },
  {
    name: 'auth.token-record-incomplete',
    suite: 'auth',
    breaks: ['REQ-TOKEN-05', 'REQ-TOKEP-10'],
    description: 'the token record has no maxTTL',
    middleware: rewriteSuccess(tokenReply, (r) => mapData(r, (rec) => without(rec, 'maxTTL'))),
  },
  {
    name: 'auth.token-message-missing',
    suite: 'auth',
    breaks: ['REQ-TOKEN-01', 'REQ-TOKEP-10'],
    description: 'the token answer says no message: neither the record nor the envelope around it carries one',
    middleware: rewriteSuccess(tokenReply, (r) => {
      const stripped = mapData(r, (rec) => without(rec, 'message'));
      const body = stripped.body as Record<string, unknown>;
      return 'data' in body ? { ...stripped, body: without(body, 'message') } : stripped;
    }),
  },
  {
    name: 'auth.expires-in-milliseconds',
    suite: 'auth',
    breaks: ['REQ-TOKEN-13'],
    description: 'expiresIn is given in milliseconds (3600000)',
    middleware: rewriteSuccess(tokenReply, (r) =>
      mapData(r, (rec) => ({ ...rec, expiresIn: Number(rec.expiresIn) * 1000 })),
    ),
  },
  {
    name: 'auth.expires-in-string',
    suite: 'auth',
    breaks: ['REQ-TOKEN-04'],
    description: 'expiresIn is a string of digits ("3600"), not a number',
    middleware: rewriteSuccess(tokenReply, (r) => mapData(r, (rec) => ({ ...rec, expiresIn: String(rec.expiresIn) }))),
  },
  {
    name: 'auth.token-lives-a-day',
    suite: 'auth',
    breaks: ['REQ-LIFE-04', 'REQ-LIM-03', 'REQ-AUTH-03', 'REQ-TOKEN-03', 'REQ-TOKEP-04', 'REQ-TOKEN-13'],
    description: 'tokens live 24 hours: the record says expiresIn 86400 and a token keeps working past 60 minutes',
    policy: { enforceTokenExpiry: false },
    middleware: rewriteSuccess(tokenReply, (r) => mapData(r, (rec) => ({ ...rec, expiresIn: 86_400, maxTTL: 86_400 }))),
  },
  {
    name: 'auth.scope-without-write',
    suite: 'auth',
    breaks: ['REQ-AUTH-10', 'REQ-TOKEN-07'],
    description: "the token record's scope holds read only",
    middleware: rewriteSuccess(tokenReply, (r) =>
      mapData(r, (rec) => ({
        ...rec,
        scope: Array.isArray(rec.scope)
          ? rec.scope.filter((s) => s !== 'write')
          : String(rec.scope)
              .replace(/\bwrite\b/, '')
              .trim(),
      })),
    ),
  },
  {
    name: 'auth.organization-client-id-wrong',
    suite: 'auth',
    breaks: ['REQ-TOKEN-10'],
    description: 'organization.clientId carries the organization id instead of the client id',
    middleware: rewriteSuccess(tokenReply, (r) =>
      mapData(r, (rec) => {
        const org = rec.organization as Record<string, unknown>;
        return { ...rec, organization: { ...org, clientId: String(org.id) } };
      }),
    ),
  },
  {
    name: 'auth.organization-not-object',
    suite: 'auth',
    breaks: ['REQ-TOKEN-09'],
    description: "organization is the organization's name, a string, not an object with id, name and clientId",
    middleware: rewriteSuccess(tokenReply, (r) =>
      mapData(r, (rec) => ({ ...rec, organization: (rec.organization as Record<string, unknown>).name })),
    ),
  },
  {
    name: 'auth.trusted-ips-string',
    suite: 'auth',
    breaks: ['REQ-TOKEN-08', 'REQ-AUTH-11'],
    description: 'trustedIps is one comma-separated string, not a list',
    middleware: rewriteSuccess(tokenReply, (r) =>
      mapData(r, (rec) => ({ ...rec, trustedIps: (rec.trustedIps as string[]).join(',') })),
    ),
  },
  {
    name: 'auth.token-timestamps-milliseconds',
    suite: 'auth',
    breaks: ['REQ-TOKEN-11', 'REQ-TOKEN-12'],
    description: "the token record's createdAt and updatedAt are in milliseconds",
    middleware: rewriteSuccess(tokenReply, (r) =>
      mapData(r, (rec) => ({
        ...rec,
        createdAt: Number(rec.createdAt) * 1000,
        updatedAt: Number(rec.updatedAt) * 1000,
      })),
    ),
  },
  {
    name: 'auth.token-id-per-client',
    suite: 'auth',
    breaks: ['REQ-TOKEN-02'],
    description:
      'tokenId is the client id: every token of a client carries the same tokenId (in the record and in its events)',
    async middleware(ctx, state, route, next) {
      if (!isTokenRoute(route.path) || !(await authenticates(route, ctx, state))) return next();
      return serveAuthenticated(
        ctx,
        { ...state, tokens: tokensWithIdOf(state.tokens, (client) => client.clientId) },
        route,
      );
    },
  },

  // ---- who gets a token -------------------------------------------------------------------------------------------
  {
    name: 'auth.wrong-secret-accepted',
    suite: 'auth',
    breaks: ['REQ-LIFE-01'],
    description: 'the clientSecret is not compared: any secret gives a token (a missing one is still refused)',
    middleware: acceptWhen(
      (ctx, route) => isTokenRoute(route.path) && (formOf(ctx)?.get('clientSecret') ?? '') !== '',
      (_ctx, state) => ({ ...state, clients: registryWith(state.clients, { secretMatches: () => true }) }),
    ),
  },
  {
    name: 'auth.missing-secret-accepted',
    suite: 'auth',
    breaks: ['REQ-LIFE-01'],
    description:
      'a token request without clientSecret gives a token when it is signed by the client (a wrong secret is still refused)',
    async middleware(ctx, state, route, next) {
      const reply = await next();
      const form = formOf(ctx);
      if (reply.status !== 401 || !isTokenRoute(route.path) || !form || form.has('clientSecret')) return reply;
      const client = state.clients.get(form.get('clientId') ?? '');
      if (!client || !(await signedRequestHolds(ctx, state, client))) return reply;
      ctx.client = client;
      return serveAuthenticated(ctx, state, route);
    },
  },
  {
    name: 'auth.unknown-client-issued',
    suite: 'auth',
    breaks: ['REQ-LIFE-01'],
    description: 'a token request naming a clientId that is not registered gets a token all the same',
    async middleware(ctx, state, route, next) {
      const reply = await next();
      const clientId = formOf(ctx)?.get('clientId');
      if (reply.status !== 401 || !isTokenRoute(route.path) || !clientId || state.clients.get(clientId) !== undefined)
        return reply;
      ctx.client = phantomClient(clientId);
      return serveAuthenticated(ctx, state, route);
    },
  },
  {
    name: 'auth.unsigned-token-request-accepted',
    suite: 'auth',
    breaks: ['REQ-SVC-09'],
    description: 'the token request is not required to be signed: the right credentials alone give a token',
    middleware: acceptWhen(
      (ctx, route) => isTokenRoute(route.path) && !hasSignatureHeaders(ctx),
      relaxPolicy({ verifySignatures: false }),
    ),
  },
  {
    name: 'auth.token-digest-optional',
    suite: 'auth',
    breaks: ['REQ-HDR-23'],
    description: 'a token request without Content-Digest is served; a digest that is sent is still compared',
    middleware: acceptWhen(
      (ctx, route) => isTokenRoute(route.path) && headerValue(ctx.headers, 'content-digest') === undefined,
      relaxPolicy({ verifyContentDigest: false }),
    ),
  },
  {
    name: 'auth.token-digest-not-checked',
    suite: 'auth',
    breaks: ['REQ-SVC-09', 'REQ-HDR-23'],
    description: 'the Content-Digest of the token request is neither required nor compared with its body',
    middleware: acceptWhen((_ctx, route) => isTokenRoute(route.path), relaxPolicy({ verifyContentDigest: false })),
  },

  // ---- what a token is good for ---------------------------------------------------------------------------------
  {
    name: 'auth.missing-authorization-403',
    suite: 'auth',
    breaks: ['REQ-ERR-02'],
    description: 'a request without Authorization is refused with 403 instead of 401',
    async middleware(ctx, _state, route, next) {
      const reply = await next();
      return reply.status === 401 && isBearerRoute(route) && headerValue(ctx.headers, 'authorization') === undefined
        ? fail(403)
        : reply;
    },
  },
  {
    name: 'auth.bearer-not-validated',
    suite: 'auth',
    breaks: ['REQ-AUTH-01'],
    description:
      'the bearer token is not looked up: any "Bearer …" value passes when the request is signed by the client X-Client-Id names',
    async middleware(ctx, state, route, next) {
      const reply = await next();
      const authorization = headerValue(ctx.headers, 'authorization')?.trim().toLowerCase();
      if (
        reply.status !== 401 ||
        !isBearerRoute(route) ||
        route.path === '/oauth/revoke' ||
        !authorization?.startsWith('bearer')
      )
        return reply;
      const client = state.clients.get(headerValue(ctx.headers, 'x-client-id')?.trim() ?? '');
      if (!client || !(await signedRequestHolds(ctx, state, client))) return reply;
      ctx.client = client;
      return serveAuthenticated(ctx, state, route);
    },
  },
  {
    name: 'auth.client-id-not-required',
    suite: 'auth',
    breaks: ['REQ-HDR-22'],
    description: 'a request without X-Client-Id is served: the client is taken from the token',
    async middleware(ctx, state, route, next) {
      const reply = await next();
      if (reply.status !== 401 || !isBearerRoute(route) || headerValue(ctx.headers, 'x-client-id') !== undefined)
        return reply;
      const bearer = bearerOf(ctx);
      const token = bearer === undefined ? undefined : state.tokens.find(bearer);
      const client = token === undefined ? undefined : state.clients.get(token.clientId);
      if (!token || !client || !(await signedRequestHolds(ctx, state, client))) return reply;
      ctx.client = client;
      ctx.token = token;
      return serveAuthenticated(ctx, state, route);
    },
  },
  {
    name: 'auth.other-client-id-accepted',
    suite: 'auth',
    breaks: ['REQ-HDR-22'],
    description: 'X-Client-Id is required but its value is not compared with the client the token was issued to',
    policy: { requireMatchingClientId: false },
  },
  {
    name: 'auth.idempotency-key-optional',
    suite: 'auth',
    breaks: ['REQ-HDR-12'],
    description: 'a mutating request without X-Idempotency-Key (or X-Idempotency-Id) is served: the key is optional',
    policy: { requireIdempotencyKey: false },
  },
  {
    name: 'auth.token-refused-on-transactions',
    suite: 'auth',
    // A 403 where the transactions answer is due also breaks what those endpoints return with 200.
    breaks: ['REQ-AUTH-10', 'REQ-SVC-02', 'REQ-TXNEP-02', 'REQ-TXNEP-05'],
    description: 'GET /transactions and /transactions/{id} answer 403 insufficient scope to every token',
    async middleware(ctx, _state, route, next) {
      const reply = await next();
      if (!route.path.startsWith('/transactions') || reply.status < 200 || reply.status > 299) return reply;
      ctx.rejection = { code: 'TOKEN_SCOPE_INSUFFICIENT', reason: 'the token has no transactions scope' };
      return fail(403, 'Forbidden: insufficient scope');
    },
  },

  // ---- revocation -----------------------------------------------------------------------------------------------
  {
    name: 'auth.revoke-unsigned-accepted',
    suite: 'auth',
    breaks: ['REQ-SVC-09'],
    description: 'POST /oauth/revoke is not required to be signed: the bearer token alone revokes it',
    middleware: acceptWhen(
      (ctx, route) => route.path === '/oauth/revoke' && !hasSignatureHeaders(ctx),
      relaxPolicy({ verifySignatures: false }),
    ),
  },
  {
    name: 'auth.revoke-does-nothing',
    suite: 'auth',
    breaks: ['REQ-LIFE-02', 'REQ-TOKEP-07'],
    description: 'POST /oauth/revoke answers success but the token stays valid',
    async middleware(ctx, state, route, next) {
      if (route.path !== '/oauth/revoke') return next();
      try {
        await authenticateBearer(ctx, state);
      } catch (e) {
        if (e instanceof HttpError) return next();
        throw e;
      }
      return ok({ tokenId: ctx.token!.tokenId, revoked: true });
    },
  },
];
