// Token requests of suite `auth`: the request a correct client sends, and what checks say of a token request that
// must give no token or that hands out the run's own token again (used by the token, revoke, idempotency and info areas).
import { tokenRequest, type RequestSpec } from '../../kit/index.js';
import { type CheckContext } from '../../../src/engine/index.js';

export const NO_TOKEN = 'a rejection (any 4xx) and no token';
export const RUN_TOKEN_AGAIN =
  "the server answered a new token request with the run's own token; revoking it would end the session of every later check";

/** A token request exactly as a correct client sends it, with `change` applied. */
export function tokenSpec(ctx: CheckContext, change: Partial<RequestSpec> = {}): RequestSpec {
  return { ...tokenRequest(ctx.credentials), ...change };
}
