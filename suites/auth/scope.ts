// Area `auth.scope`: which scope each endpoint requires (not shown; INFO).
import { withTokens } from '../kit/index.js';
import { defineCheck } from '../../src/engine/index.js';
import { scopesOf } from './helpers/token-record.js';

export const scopeChecks = [
  defineCheck({
    id: 'auth.scope.per-endpoint',
    title: 'which scope each endpoint requires (not shown; every token has both)',
    level: 'INFO',
    requirements: ['REQ-AUTH-14'],
    explain: {
      sends:
        'one token request as a correct client sends it (POST /oauth/token with the configured clientId and clientSecret, form-encoded and signed); the token is revoked afterwards',
      passes:
        "always, once the answer could be read: the check records the token's scope: since every token has both read and write, which scope each endpoint requires cannot be seen from outside, and the check says so",
    },
    async run(ctx) {
      await withTokens(ctx, async (jar) => {
        const issued = await jar.issue();
        const scopes = scopesOf(issued.record.scope);
        ctx.judged("the token record's scope");
        ctx.observe(
          `the token's scope is ${JSON.stringify(issued.record.scope)}; every token has both read and write (auth.token.scope judges it), so which scope each endpoint requires cannot be seen from outside${scopes?.includes('read') && scopes.includes('write') ? '' : ' (this one lacks one of them)'}`,
        );
      });
    },
  }),
];
