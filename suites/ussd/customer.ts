// Area `ussd.customer`: customerId is required, an unknown customer is refused.
import { defineCheck } from '../../src/engine/index.js';
import { describeResponse, expectErrorBody, expectRejection, readEnvelope, validateAgainst } from '../kit/index.js';
import { endpointOf, followLink, scopeOf, type TargetScope } from './helpers/url.js';
import { requestUrlOf } from './helpers/menu-graph.js';

/** customerId values that are not integers: no number at all, and a decimal a lenient parser would cut to 1. */
const NOT_INTEGERS = ['abc', '1.5'];

/**
 * A view answered for a customer that does not exist (REQ-USSD-24) must not serve a customer's menus: its options may
 * lead home or to portfolio (the way back), never to /ussd/stocks, /ussd/assets or /ussd/requests.
 */
function unknownCustomerViewProblems(data: unknown, viewUrl: string, scope: TargetScope): string[] {
  const problems = validateAgainst('ussd-view', data, 'data').map((p) => `${p.path} ${p.message}`);
  if (problems.length > 0) return problems;
  const view = data as { ussdMessage: string; ussdOptions: unknown[] };
  if (view.ussdMessage.trim() === '')
    problems.push('ussdMessage is empty: the user is not told the customer is unknown');
  view.ussdOptions.forEach((raw, i) => {
    const url = requestUrlOf(raw);
    const u = followLink(url, viewUrl, scope)?.url;
    const endpoint = u ? endpointOf(u, scope) : undefined;
    if (endpoint !== 'home' && endpoint !== 'portfolio')
      problems.push(
        `option ${JSON.stringify((raw as { option?: unknown }).option)} (ussdOptions[${i}]) leads to ${JSON.stringify(url)}: a menu of a customer`,
      );
  });
  return problems;
}

export const customerChecks = [
  defineCheck({
    id: 'ussd.customer.required',
    title:
      'A USSD view requested without customerId, or with one that is not an integer, is rejected (any 4xx) with the error body',
    level: 'MUST',
    requirements: ['REQ-USSD-04', 'REQ-USSD-13', 'REQ-USSD-19'],
    explain: {
      sends: `GET /ussd/stocks, /ussd/assets and /ussd/requests without customerId, and with customerId=${NOT_INTEGERS.join(' and customerId=')}`,
      passes: 'each is rejected (any 4xx) with the error body {code, message}',
      fails: 'a 2xx, a 5xx, or a rejection without the error body: the check fails',
    },
    async run(ctx) {
      for (const endpoint of ['stocks', 'assets', 'requests']) {
        const res = await ctx.send({ method: 'GET', path: `/ussd/${endpoint}` });
        expectRejection(ctx, res, `GET /ussd/${endpoint} without the required customerId is rejected (any 4xx)`);
        expectErrorBody(ctx, res);
        ctx.judged(`GET /ussd/${endpoint} without customerId`);
        for (const customerId of NOT_INTEGERS) {
          const bad = await ctx.send({ method: 'GET', path: `/ussd/${endpoint}`, query: { customerId } });
          expectRejection(
            ctx,
            bad,
            `GET /ussd/${endpoint}?customerId=${customerId} is rejected (any 4xx): customerId is an integer`,
          );
          expectErrorBody(ctx, bad);
          ctx.judged(`GET /ussd/${endpoint}?customerId=${customerId}`);
        }
      }
    },
  }),
  defineCheck({
    id: 'ussd.customer.unknown',
    title:
      "A USSD view for a customer that does not exist is rejected (any 4xx) with the error body, or is a view that says so and serves none of a customer's menus",
    level: 'SHOULD',
    requirements: ['REQ-ERR-04'],
    explain: {
      sends:
        'GET /ussd/stocks, /ussd/assets and /ussd/requests with customerId = fixtures.unknownId, a customer that does not exist',
      passes:
        'each is rejected (any 4xx) with the error body, or answered with a USSD view that says the customer is unknown and offers at most the way home (/ussd/home or /ussd/portfolio)',
      fails:
        'a view that serves the menus as if the customer existed, a rejection without the error body, a redirect or a 5xx: the check warns',
    },
    async run(ctx) {
      // The USSD endpoints list no errors: a refusal and a screen saying the customer is unknown are both readings
      // (REQ-USSD-24, recorded by ussd.info.readings). Serving the menus of a customer who does not exist is neither.
      const unknownId = ctx.fixture('unknownId');
      for (const endpoint of ['stocks', 'assets', 'requests']) {
        const res = await ctx.send({ method: 'GET', path: `/ussd/${endpoint}`, query: { customerId: unknownId } });
        if (res.status >= 200 && res.status <= 299) {
          const env = readEnvelope(ctx, res);
          const problems = unknownCustomerViewProblems(env.data, res.exchange.request.url, scopeOf(ctx.target.baseUrl));
          if (problems.length > 0) {
            ctx.fail(
              `GET /ussd/${endpoint}?customerId=${unknownId} (a customer that does not exist) was served as if the customer existed: ${problems[0]}`,
              {
                expected:
                  'a rejection (any 4xx) with the error body, or a USSD view that says the customer is unknown and offers at most the way home (/ussd/home or /ussd/portfolio)',
                observed: [describeResponse(res), ...problems.slice(1, 6).map((p) => `- ${p}`)].join('\n'),
                exchange: res.exchange,
              },
            );
          }
          ctx.judged(`GET /ussd/${endpoint}?customerId=${unknownId}`);
          continue;
        }
        expectRejection(
          ctx,
          res,
          `GET /ussd/${endpoint}?customerId=${unknownId} (a customer that does not exist) is rejected, or answered a view that says so`,
        );
        expectErrorBody(ctx, res);
        ctx.judged(`GET /ussd/${endpoint}?customerId=${unknownId}`);
        if (res.status !== 404) ctx.observe(`/ussd/${endpoint} answers ${res.status} for an unknown customer`);
      }
    },
  }),
];
