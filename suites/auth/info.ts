// Area `auth.info`: open points of the token request the spec leaves unsaid (INFO).
import { describeResponse, tokenIn, withTokens } from '../kit/index.js';
import { defineCheck } from '../../src/engine/index.js';
import { tokenSpec } from './helpers/token-requests.js';

export const infoChecks = [
  defineCheck({
    id: 'auth.info.token-json-body',
    title: 'whether the token request is also taken with a JSON body instead of a form',
    level: 'INFO',
    requirements: ['REQ-HDR-10'],
    explain: {
      sends:
        'a token request with the right credentials, signed and digested, but as an application/json body {"clientId", "clientSecret"} instead of a form; a token given is revoked at once',
      passes:
        'always, once the answer could be read: the check records whether the server refused the JSON body or gave a token for it too (the spec names the form for the token request; whether another encoding is refused is not said)',
    },
    async run(ctx) {
      await withTokens(ctx, async (jar) => {
        // Right credentials, signed and digested: only the encoding differs from what the spec shows.
        const res = await ctx.send(
          tokenSpec(ctx, {
            form: undefined,
            json: { clientId: ctx.credentials.clientId, clientSecret: ctx.credentials.clientSecret },
          }),
        );
        const found = tokenIn(res);
        if (found) {
          await jar.keep(found.token);
          ctx.judged('the answer to a JSON token request');
          return ctx.observe(`a JSON token body accepted too: ${res.status} and a token (revoked afterwards)`);
        }
        ctx.judged('the answer to a JSON token request');
        ctx.observe(
          res.status >= 400 && res.status <= 499
            ? `a JSON token body refused: ${describeResponse(res)}`
            : `a JSON token body answered ${describeResponse(res)}, without a token`,
        );
      });
    },
  }),
];
