// Area `auth.revoke`: revoking a token (POST /oauth/revoke, spec "Token lifecycle"): the revoked token refused, an
// unsigned revocation refused, how far a revocation reaches and what the endpoint takes and answers.
import {
  describeResponse,
  expectRejection,
  expectStatus,
  isSuccess,
  knownRevokeBody,
  nowSeconds,
  readProbe,
  REVOKE_BODY_SAID,
  revokeRequest,
  revokeShapeOf,
  withTokens,
  type RequestSpec,
  type RevokeBody,
  type TokenJar,
} from '../kit/index.js';
import { randomBytes } from 'node:crypto';
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import { RUN_TOKEN_AGAIN } from './helpers/token-requests.js';
import { confirmNewTokenEndsOlder } from './helpers/older-tokens.js';

/**
 * A fresh token of the check's own that a correct read accepts, to revoke: never the run's (a server may hand that out
 * again), and a skip when a fresh token does not work to begin with (auth.use.read-endpoints reports that).
 */
async function workingToken(ctx: CheckContext, jar: TokenJar, sign?: RequestSpec['sign']): Promise<string> {
  const { token } = await jar.issue();
  if (await jar.isRunToken(token)) ctx.skip(RUN_TOKEN_AGAIN);
  const before = await ctx.send({ ...readProbe(ctx), token, sign });
  if (!isSuccess(before))
    ctx.skip(
      `the fresh token was not accepted to begin with (${describeResponse(before)}); auth.use.read-endpoints reports it`,
    );
  return token;
}

/**
 * The run's revoke shape, for a revocation that must differ from a correct one in one way only: learnt now, by revoking
 * a token of the check's own, when no revocation of the run has shown it yet. Undefined when no revocation showed it.
 */
async function learntRevokeBody(ctx: CheckContext, jar: TokenJar): Promise<RevokeBody | undefined> {
  const known = knownRevokeBody(ctx);
  if (known !== undefined || revokeShapeOf(ctx).failed()) return known;
  const { token } = await jar.issue();
  if (!(await jar.isRunToken(token))) await jar.revoke(token);
  return knownRevokeBody(ctx);
}

/** What auth.revoke.reply records when its two tokens cannot show whether a revoke body is read. */
const BODY_READ_UNSEEN = 'whether a body naming another token is read cannot be seen';

/**
 * Where the run revokes without a body (REQ-TOKEP-09): whether a form body naming another token of the client (RFC 7009's
 * token=) is read too. A revocation presents one fresh token and names another in its body: the server revokes the
 * named one (it reads the body), the presented one (it ignores the body), or refuses the request. Both are the check's.
 * `again`: the second try, after a first that saw both tokens end.
 */
async function recordBodyNamingAnother(ctx: CheckContext, jar: TokenJar, again = false): Promise<void> {
  const probe = readProbe(ctx);
  const alive = async (token: string) => (await ctx.send({ ...probe, token })).status !== 401;
  const named = await jar.issue();
  const presented = await jar.issue();
  if (named.token === presented.token || (await jar.isRunToken(named.token)) || (await jar.isRunToken(presented.token)))
    return ctx.observe(`${BODY_READ_UNSEEN}: a token request was answered with a token handed out before`);
  const before = [await alive(named.token), await alive(presented.token)];
  // The newer of two fresh tokens refused at once: no new token ended it, the server forgot its tokens (a restart).
  // Skipped, so that the session runs the check once more when the run's token ended too.
  if (!before[1]) {
    if (!before[0]) jar.forget(named.token);
    jar.forget(presented.token);
    ctx.skip(
      `of two fresh tokens, the newer was refused (401) before the revocation: the server ended its tokens meanwhile (a restart?), so ${BODY_READ_UNSEEN}`,
    );
  }
  if (!before[0]) {
    jar.forget(named.token);
    await confirmNewTokenEndsOlder(ctx, jar, presented.token, 'of two fresh tokens, the first was refused (401)');
    return ctx.observe(
      `${BODY_READ_UNSEEN}: of two fresh tokens, the first was refused (401) before the revocation (a new token ends the older ones?)`,
    );
  }
  const res = await ctx.send({ ...revokeRequest(presented.token, 'form'), form: { token: named.token } });
  const namedAlive = await alive(named.token);
  const presentedAlive = await alive(presented.token);
  if (!namedAlive) jar.forget(named.token);
  if (!presentedAlive) jar.forget(presented.token);
  const body = 'a form body naming another token of the client (token=, RFC 7009)';
  if (!isSuccess(res))
    return ctx.observe(
      `a revocation presenting one token with ${body} was refused: ${describeResponse(res)}; the run revokes without a body`,
    );
  if (!namedAlive && presentedAlive)
    return ctx.observe(
      `${body} is read: the token it named was revoked (${res.status}), and the one presented kept working; no body is needed, but a body names the token to revoke`,
    );
  if (namedAlive && !presentedAlive)
    return ctx.observe(
      `${body} is ignored: the token presented was revoked (${res.status}), and the one named kept working`,
    );
  // Both ended: a revocation that reaches every token of the client, or a restart just after it (every token forgotten)
  // looks the same once; the same revocation of two fresh tokens tells them apart, and its reading is the one kept.
  if (!namedAlive && !again) return recordBodyNamingAnother(ctx, jar, true);
  ctx.observe(
    namedAlive
      ? `a revocation presenting one token with ${body} answered ${res.status}, yet both tokens kept working`
      : `${BODY_READ_UNSEEN}: the token presented and the one the form body named both ended (${res.status}): the revocation reaches every token of the client`,
  );
}

export const revokeChecks = [
  defineCheck({
    id: 'auth.revoke.token-rejected',
    title: 'after POST /oauth/revoke, the revoked token is rejected with 401',
    level: 'MUST',
    requirements: ['REQ-LIFE-02', 'REQ-TOKEP-07', 'REQ-AUTH-04', 'REQ-ERR-02'],
    explain: {
      sends:
        "a fresh token shown to work on a signed read that answers 2xx to a correct request (GET /customers/{customerId}, or GET /instruments where fixtures.customerId is not configured), then revoked with POST /oauth/revoke in the run's revoke shape (learnt at the run's first revocation: no body, a form body token=, or a JSON body {\"token\"}; or set by the target's revoke.body), then used on the same read again",
      passes: 'the read after the revocation answers 401',
      fails:
        'any other status (the revoked token still works, or is refused otherwise than with 401): the check fails; it is skipped when a never-issued token is accepted too (auth.use.unknown-token reports that)',
    },
    async run(ctx) {
      await withTokens(ctx, async (jar) => {
        const probe = readProbe(ctx);
        // A server that takes any bearer token cannot show that it stopped taking this one.
        const never = await ctx.send({ ...probe, token: randomBytes(32).toString('base64url') });
        if (isSuccess(never))
          ctx.skip(
            `a never-issued token was accepted as well (${never.status}), so whether revocation ends a token cannot be told; auth.use.unknown-token reports it`,
          );
        // Shown working by a request signed a second earlier than any later one: the request after revocation never
        // repeats its signature, so a server that remembers verified signatures (signing's concern) cannot answer it
        // from memory.
        const token = await workingToken(ctx, jar, { created: nowSeconds() - 1 });
        const revoked = await jar.revoke(token);
        ctx.observe(`POST /oauth/revoke (${REVOKE_BODY_SAID[revoked.body]}) answered ${revoked.res.status}`);
        const after = await ctx.send({ ...probe, token });
        if (after.status !== 401 && revoked.tried !== undefined && !revoked.revoked)
          ctx.fail(
            `no shape of POST /oauth/revoke revoked the token (tried: ${revoked.tried}); a read with it afterwards answered ${after.status}`,
            {
              expected:
                'POST /oauth/revoke, signed, presenting the token (and naming it in the body, in one of the shapes tried), deletes it: a read with it afterwards answers 401',
              observed: describeResponse(after),
              exchange: revoked.res.exchange,
            },
          );
        expectStatus(ctx, after, 401, '401 Unauthorized: the token was revoked just before');
        ctx.judged('a read with the revoked token');
        jar.forget(token);
      });
    },
  }),
  defineCheck({
    id: 'auth.revoke.unsigned',
    title: 'an unsigned POST /oauth/revoke is rejected, and the token keeps working',
    level: 'MUST',
    requirements: ['REQ-SVC-09'],
    explain: {
      sends:
        "POST /oauth/revoke of a fresh, working token, with everything a revocation carries (the run's revoke shape, learnt first on a token of the check's own when no revocation has shown it yet) but Signature and Signature-Input; then a read with that token",
      passes: 'the revocation is rejected (any 4xx), and the token still works afterwards',
      fails:
        'a 2xx or a 5xx to the revocation, or the token refused (401) afterwards, revoked by an unsigned request: the check fails',
    },
    async run(ctx) {
      await withTokens(ctx, async (jar) => {
        // The shape first: learning it revokes a token, and a server may end the client's other tokens then.
        const body = await learntRevokeBody(ctx, jar);
        if (body === undefined)
          ctx.skip(
            `no signed revocation showed how POST /oauth/revoke carries the token (${revokeShapeOf(ctx).note()}), so an unsigned one cannot differ from a correct one in its signature only; auth.revoke.token-rejected judges revocation`,
          );
        const token = await workingToken(ctx, jar);
        const probe = readProbe(ctx);
        // Everything a revocation carries (the token, its body, X-Client-Id, the idempotency key) but Signature and
        // Signature-Input.
        const res = await ctx.send({ ...revokeRequest(token, body), sign: false });
        const after = await ctx.send({ ...probe, token });
        if (after.status === 401) jar.forget(token);
        expectRejection(ctx, res, 'a rejection (any 4xx): POST /oauth/revoke without Signature and Signature-Input');
        if (after.status === 401) {
          ctx.fail(`${res.status}, yet the token was revoked: it is refused (401) afterwards`, {
            expected: 'the rejected revocation changes nothing: the token keeps working',
            observed: describeResponse(after),
            exchange: after.exchange,
          });
        }
        ctx.judged('the unsigned revocation and the token after it');
      });
    },
  }),
  defineCheck({
    id: 'auth.revoke.other-tokens',
    title: 'how far a revocation reaches: the token presented only, or every token of the client',
    level: 'INFO',
    requirements: ['REQ-LIFE-03'],
    explain: {
      sends:
        'two fresh tokens, both shown to work on a read; the first is revoked (POST /oauth/revoke), then the second is used on the read again',
      passes:
        'once the answer could be read: the check records how far a revocation reaches: the token presented only, or every token of the client; where no two tokens are live at once (one token per client, or a new token ends the older ones) it records that and skips: there is no second token to watch',
    },
    async run(ctx) {
      await withTokens(ctx, async (jar) => {
        const a = await jar.issue();
        const b = await jar.issue();
        // What hides the reading is recorded (the choices matrix reads it), and the check skips: it saw no revocation reach.
        if (a.token === b.token) {
          ctx.observe(
            'both token requests were answered with the same token: no second token to watch, so how far a revocation reaches cannot be seen',
          );
          return ctx.skip('no second token to watch: both token requests were answered with the same token');
        }
        if (await jar.isRunToken(a.token)) ctx.skip(RUN_TOKEN_AGAIN);
        const probe = readProbe(ctx);
        const first = await ctx.send({ ...probe, token: a.token });
        if (first.status === 401) {
          await confirmNewTokenEndsOlder(
            ctx,
            jar,
            b.token,
            'the first token was refused (401) once a second was issued',
          );
          ctx.observe(
            'the first token was refused once a second was issued (a new token ends the older ones, auth.token.older-tokens): no two tokens are live at once, so how far a revocation reaches cannot be seen',
          );
          return ctx.skip('no two tokens are live at once (a new token ends the older ones): no second token to watch');
        }
        const before = await ctx.send({ ...probe, token: b.token });
        if (!isSuccess(before))
          return ctx.skip(
            `the second fresh token was not accepted to begin with (${describeResponse(before)}); auth.use.read-endpoints judges it`,
          );
        const revoked = (await jar.revoke(a.token)).res;
        const after = await ctx.send({ ...probe, token: b.token });
        ctx.judged('a read with the second token after the first was revoked');
        if (after.status === 401) {
          jar.forget(b.token);
          return ctx.observe(
            `every token of the client is deleted: revoking the first token (${revoked.status}) also ended the second, which was refused (401) afterwards`,
          );
        }
        ctx.observe(
          isSuccess(after)
            ? `only the token presented is deleted: after revoking the first token (${revoked.status}), the second kept working (${after.status})`
            : `after revoking the first token (${revoked.status}), a read with the second answered ${describeResponse(after)}`,
        );
      });
    },
  }),
  defineCheck({
    id: 'auth.revoke.reply',
    title:
      'what POST /oauth/revoke takes and answers: the request shape, its status, whether a body names the token, and whether a body naming another token is read',
    level: 'INFO',
    requirements: ['REQ-TOKEP-09'],
    explain: {
      sends:
        "POST /oauth/revoke of a fresh token, in the run's revoke shape; where the run revokes without a body, also two fresh tokens and a revocation presenting the second with a form body naming the first (token=, RFC 7009), each then used on a read",
      passes:
        "always, once the answer could be read: the check records how the run's revocations carry the token (no body, a form body token=, a JSON body {\"token\"}; learnt at the run's first revocation or set by the target's revoke.body), the status POST /oauth/revoke answers, whether a body names the token (its tokenId or the token itself), and, where no body is needed, whether a body naming another token of the client is read (that token revoked) or ignored (the one presented revoked)",
    },
    async run(ctx) {
      await withTokens(ctx, async (jar) => {
        const issued = await jar.issue();
        if (await jar.isRunToken(issued.token)) ctx.skip(RUN_TOKEN_AGAIN);
        const res = (await jar.revoke(issued.token)).res;
        // A fresh token refused: the server had ended it before its revocation (a restart, another check's revocation
        // of every token), and this is no answer to a revocation. Skipped, so that the session runs the check once
        // more when the run's token ended too; otherwise the skip says what the server did.
        if (res.status === 401)
          ctx.skip(
            `POST /oauth/revoke of a token issued just before answered 401 (${describeResponse(res)}): the token had ended before its revocation, so there is no answer to a revocation to record`,
          );
        ctx.observe(revokeShapeOf(ctx).note());
        ctx.judged('the revocation answer');
        const tokenId = issued.record.tokenId;
        if (res.text.trim() === '') ctx.observe(`POST /oauth/revoke answered ${res.status} with no body`);
        else {
          const names =
            (tokenId !== undefined && res.text.includes(String(tokenId))) || res.text.includes(issued.token);
          ctx.observe(
            `POST /oauth/revoke answered ${res.status} with ${names ? 'a body naming the token' : 'a body that does not name the token'}: ${describeResponse(res)}`,
          );
        }
        if (knownRevokeBody(ctx) === 'none') await recordBodyNamingAnother(ctx, jar);
      });
    },
  }),
];
