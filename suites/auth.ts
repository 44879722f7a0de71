// Suite `auth`: tokens (spec "Auth token record", "Token lifecycle", "Authentication endpoints", "Authentication").
import { defineCheck, defineSuite } from '../src/runner/check.js';
import { expectJson, expectSchema, expectSuccess, describeResponse } from '../src/runner/expect.js';
import { tokenRecordOf } from '../src/runner/session.js';

export default defineSuite('auth', 'Tokens: issuing, using, revoking', [
  defineCheck({
    id: 'auth.token.issued',
    title: 'valid client credentials give a Bearer token with the full token record',
    level: 'MUST',
    spec: {
      section: 'Authentication endpoints',
      sentence: 'POST /oauth/token creates an access token. Result: an auth token record (fields above); the token has a TTL of 60 minutes; tokenType is Bearer.',
    },
    async run(ctx) {
      const res = await ctx.requestToken();
      expectSuccess(ctx, res, 'a 2xx answer carrying a token record');
      const body = expectJson(ctx, res);
      const found = tokenRecordOf(body);
      if (!found) {
        return ctx.fail('no token in the answer', { expected: 'a token record, with or without the {data, code, message} envelope', observed: describeResponse(res), exchange: res.exchange });
      }
      expectSchema(ctx, res, found.record, 'token-record', { path: found.enveloped ? 'data' : '', table: 'Auth token record' });
      ctx.observe(`token record ${found.enveloped ? 'inside the {data, code, message} envelope' : 'without an envelope'}, status ${res.status}`);
      await ctx.revokeToken(found.token);
    },
  }),
]);
