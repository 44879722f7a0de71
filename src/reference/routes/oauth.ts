// "Authentication endpoints": POST /oauth/token and POST /oauth/revoke, with their emission ties (AUTH.CREATED,
// AUTH.DELETED). Authentication of both happens before these handlers (see auth.ts).
import { nowSeconds, type RouteDef } from '../context.js';
import { ok } from '../respond.js';

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
      // The token revoked is the one presented: the spec shows no body naming another. Choice revoke: a server may
      // delete every token of the client (the row says nothing of the others); each deleted token has its event.
      const presented = ctx.token!;
      const deleted =
        state.choices.revoke === 'all-tokens' ? state.tokens.revokeClient(presented.clientId) : [presented];
      if (state.choices.revoke !== 'all-tokens') state.tokens.revoke(presented.token);
      for (const token of deleted) {
        state.events.emit({
          name: 'AUTH.DELETED',
          clientId: token.clientId,
          occurredAt: nowSeconds(state),
          data: { tokenId: token.tokenId, clientId: token.clientId },
        });
      }
      return ok({ tokenId: presented.tokenId, revoked: true });
    },
  },
];
