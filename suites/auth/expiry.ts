// Area `auth.expiry`: a token's lifetime (spec "Auth token record" expiresIn, "Token lifecycle": 60 minutes).
import {
  cite,
  describeResponse,
  expectStatus,
  isSuccess,
  readProbe,
  withTokens,
  type IssuedToken,
} from '../kit/index.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import { TOKEN_TTL_SECONDS, observedTokensWith, presentField } from './helpers/token-record.js';

/** expiresIn is a number of seconds from 0 to 3600. */
function judgeExpiresIn(ctx: CheckContext, issued: IssuedToken, value: unknown): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    return ctx.fail(`expiresIn is ${JSON.stringify(value)}, not a number`, {
      expected: 'expiresIn, a remaining lifetime: a number',
      observed: describeResponse(issued.res),
      exchange: cite(ctx, issued.res),
      requirements: ['REQ-TOKEN-04'],
    });
  }
  if (value < 0 || value > TOKEN_TTL_SECONDS) {
    ctx.fail(
      `expiresIn is ${value}: not a number of seconds from 0 to ${TOKEN_TTL_SECONDS}${value === TOKEN_TTL_SECONDS * 1000 ? ' (60 minutes in milliseconds)' : ''}`,
      {
        expected: `a number of seconds from 0 to ${TOKEN_TTL_SECONDS}: the rest of a 60-minute lifetime, counted as OAuth 2.0's expires_in is (RFC 6749 §5.1)`,
        observed: describeResponse(issued.res),
        exchange: cite(ctx, issued.res),
        requirements: ['REQ-TOKEN-13'],
      },
    );
  }
  ctx.judged("the token record's expiresIn");
}

export const expiryChecks = [
  defineCheck({
    id: 'auth.expiry.expires-in',
    title: "a fresh token's expiresIn is a number of seconds from 0 to 3600, the rest of its 60 minutes",
    level: 'SHOULD',
    requirements: ['REQ-TOKEN-04', 'REQ-TOKEN-13'],
    note: 'The expiresIn row names no unit. Seconds are OAuth 2.0\'s (RFC 6749 §5.1 expires_in: "the lifetime in seconds of the access token"), and the spec calls the token "OAuth 2.0 style": the only reasonable reading, so SHOULD. The lifetime itself (60 minutes, MUST) is auth.expiry.after-60-minutes\', which runs only with --long.',
    explain: {
      sends:
        'one token request as a correct client sends it (POST /oauth/token with the configured clientId and clientSecret, form-encoded and signed); the token is revoked afterwards',
      passes: "the token record's expiresIn is a number of seconds from 0 to 3600: the rest of a 60-minute lifetime",
      fails:
        'a value that is not a number, or one outside 0..3600 (in milliseconds, 3600000; a day, 86400): the check warns; a record without expiresIn is skipped (auth.token.fields judges its presence)',
    },
    async run(ctx) {
      await withTokens(ctx, async (jar) => {
        const issued = await jar.issue();
        judgeExpiresIn(ctx, issued, presentField(ctx, issued, 'expiresIn'));
      });
    },
    // Observed traffic: every token record the traffic holds that carries expiresIn.
    async observe(ctx) {
      for (const issued of observedTokensWith(ctx, 'expiresIn')) judgeExpiresIn(ctx, issued, issued.record.expiresIn);
    },
  }),
  defineCheck({
    id: 'auth.expiry.after-60-minutes',
    title: 'a token stops working once its 60 minutes are over (runs only with --long)',
    level: 'MUST',
    requirements: ['REQ-LIFE-04', 'REQ-AUTH-03', 'REQ-LIM-03', 'REQ-TOKEN-03', 'REQ-TOKEP-04'],
    explain: {
      sends:
        'with --long only: a fresh token, shown to work on a signed read that answers 2xx to a correct request (GET /customers/{customerId}, or GET /instruments where fixtures.customerId is not configured), then used on that read once a minute for 61 minutes',
      passes:
        'the read 61 minutes after issue answers 401 (the report says when the token was last accepted and first refused)',
      fails: 'any other status at 61 minutes: the check fails; without --long it is skipped',
    },
    // The wait is the test: 61 minutes of polling, plus room for the requests themselves.
    timeoutMs: 65 * 60_000,
    async run(ctx) {
      if (!ctx.flags.long)
        ctx.skip('runs only with --long: it waits 61 minutes for a token to expire', { kind: 'long' });
      const waitMs = 61 * 60_000;
      const pollMs = 60_000;
      await withTokens(ctx, async (jar) => {
        const { token } = await jar.issue();
        const probe = readProbe(ctx);
        const started = Date.now();
        let last = await ctx.send({ ...probe, token });
        if (!isSuccess(last))
          ctx.skip(
            `the fresh token was not accepted to begin with (${describeResponse(last)}); auth.use.read-endpoints reports it`,
          );
        let lastAcceptedMs = 0;
        let firstRefusedMs: number | undefined;
        while (Date.now() - started < waitMs) {
          await sleep(Math.max(0, Math.min(pollMs, started + waitMs - Date.now())), undefined, {
            signal: ctx.signal,
          });
          last = await ctx.send({ ...probe, token });
          const at = Date.now() - started;
          if (isSuccess(last)) lastAcceptedMs = at;
          else firstRefusedMs ??= at;
        }
        const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;
        ctx.observe(
          `the token was last accepted ${minutes(lastAcceptedMs)} after it was issued${firstRefusedMs !== undefined ? `; first refused after ${minutes(firstRefusedMs)}` : ''}`,
        );
        expectStatus(ctx, last, 401, '401 Unauthorized: the token was issued 61 minutes ago');
        ctx.judged('a read with the token 61 minutes after issue');
        jar.forget(token);
      });
    },
  }),
];
