// The innermost steps of a routed request, inside the middleware (server.ts): authenticate the way the route
// declares, then the idempotency step, then the handler. Faults that serve a request the strict server rejected
// (faults/signing.ts acceptWhen) run the same step after authentication, so they differ from the server only in the
// step they skip.
import { authenticateBearer, authenticateClientCredentials } from './auth.js';
import type { RequestContext, RouteDef, ServerState } from './context.js';
import { idempotencyKeyOf, isMutating, requestFingerprint } from './idempotency.js';
import { HttpError, type Reply } from './respond.js';

/** Authenticates the request the way its route declares; a rejection is thrown (an HttpError; an AuthError: 401). */
export async function authenticate(route: RouteDef, ctx: RequestContext, state: ServerState): Promise<void> {
  switch (route.auth ?? 'bearer') {
    case 'bearer':
      return authenticateBearer(ctx, state);
    case 'client-credentials':
      return authenticateClientCredentials(ctx, state);
    case 'none':
      return;
  }
}

/** What follows authentication: the idempotency step, then the handler. */
export function serveAuthenticated(ctx: RequestContext, state: ServerState, route: RouteDef): Promise<Reply> {
  // Authenticated now (a fault may serve a request the strict server refused): an earlier rejection no longer stands.
  ctx.rejection = undefined;
  return withIdempotency(ctx, state, async () => {
    try {
      return await route.handler(ctx, state);
    } catch (e) {
      // Validation errors become replies here, inside the idempotency step, so a replay returns the same 4xx.
      if (e instanceof HttpError) {
        ctx.rejection = e.rejection;
        return e.toReply();
      }
      throw e;
    }
  });
}

/** The idempotency step; a no-op for safe methods and requests without a client. */
function withIdempotency(ctx: RequestContext, state: ServerState, next: () => Promise<Reply>): Promise<Reply> {
  if (!isMutating(ctx.method) || ctx.client === undefined) return next();
  const key = idempotencyKeyOf(ctx.headers, state.choices.idempotencyIdSpelling === 'accepted');
  // A missing key was already rejected by authentication unless a fault relaxed that; then there is nothing to replay.
  if (key.kind !== 'ok') return next();
  return state.idempotency.run(
    ctx.client.clientId,
    key.key,
    requestFingerprint(ctx),
    next,
    state.choices.idempotencyRepeat,
  );
}
