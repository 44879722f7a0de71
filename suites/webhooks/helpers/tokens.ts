// The tokens the suite issues and revokes to make the server emit AUTH.CREATED and AUTH.DELETED, and which deliveries
// are of them.
import {
  describeResponse,
  expectSuccess,
  parseJson,
  requestToken,
  revokeToken,
  tokenRecordOf,
  type Delivery,
  type HttpResponse,
  containsValue,
  valuesNamed,
} from '../../kit/index.js';
import { type CheckContext } from '../../../src/engine/index.js';
import { stateOf, type SuiteState } from './state.js';

/** Issues a token for a check (recorded against it) and returns it with its tokenId, when the record has one. */
export async function issueToken(
  ctx: CheckContext,
): Promise<{ token: string; tokenId: string | undefined; res: HttpResponse }> {
  const res = await requestToken(ctx);
  expectSuccess(ctx, res, 'POST /oauth/token issues a token');
  const parsed = parseJson(res.text);
  const found = parsed.ok ? tokenRecordOf(parsed.value) : undefined;
  if (!found)
    return ctx.fail('no token in the answer of POST /oauth/token', {
      expected: 'a token record',
      observed: describeResponse(res),
      exchange: res.exchange,
    });
  const id = found.record.tokenId;
  const tokenId = typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
  if (tokenId !== undefined) stateOf(ctx).tokenIds.add(tokenId);
  return { token: found.token, tokenId, res };
}

/** Revokes a token of the check's, whatever becomes of it: the auth checks judge revocation. */
export async function revokeQuietly(ctx: CheckContext, token: string): Promise<HttpResponse | undefined> {
  return revokeToken(ctx, token).catch(() => undefined);
}

/**
 * The last moment the run (any check, or the session) sent a request that emits an AUTH event: POST /oauth/token
 * (AUTH.CREATED, or the AUTH.DELETED of tokens a new one ends) or POST /oauth/revoke (AUTH.DELETED); 0 when it sent none.
 */
export function lastAuthCause(ctx: CheckContext): number {
  return Math.max(ctx.lastSent('POST', '/oauth/token') ?? 0, ctx.lastSent('POST', '/oauth/revoke') ?? 0);
}

/** Whether a delivery names a token: a `tokenId` member (the record's field), or a token id the suite issued. */
export function namesAToken(st: SuiteState, d: Delivery): boolean {
  return valuesNamed(d.payload, 'tokenId').length > 0 || [...st.tokenIds].some((id) => containsValue(d.payload, id));
}

/**
 * Whether a delivery may be about the token `tokenId`. Checks of other suites issue tokens while this suite runs, so a
 * delivery naming another token is not this one's; one naming no token at all may be.
 */
export function forToken(st: SuiteState, tokenId: string | undefined): (d: Delivery) => boolean {
  if (tokenId === undefined) return () => true;
  return (d) => containsValue(d.payload, tokenId) || !namesAToken(st, d);
}
