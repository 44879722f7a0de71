// signing.accept.*: the positive checks, the baseline every negative check of the suite departs from: a GET, a PUT
// with a body and the token request, each signed over the spec's components in the spec's order, are accepted.
import { defineCheck } from '../../src/engine/index.js';
import {
  coveredComponents,
  describeResponse,
  expectSuccess,
  inSpecOrder,
  readCustomerOrSkip,
  tokenIn,
  tokenRequest,
  withTokens,
} from '../kit/index.js';
import { customerRead, putCurrent } from './helpers/requests.js';

// ---- positive: the baseline every negative check departs from ----------------------------------------------------
export const get = defineCheck({
  id: 'signing.accept.get',
  title: "a GET signed over the spec's components, in the spec's order, is accepted",
  level: 'MUST',
  requirements: ['REQ-SVC-09', 'REQ-CUSTEP-02'],
  explain: {
    sends:
      "GET /customers/{customerId}, signed over the spec's components in the spec's order (the headers, then the derived components)",
    passes: 'a 2xx answer: the signature, made as the spec prescribes, is verified and the read served',
    fails: 'any other status: the server does not take a signature made as the spec prescribes (the check fails)',
  },
  async run(ctx) {
    const spec = customerRead(ctx);
    // The spec's order (headers, then derived components) differs from our default: the server must follow the
    // order Signature-Input lists, not one of its own.
    const components = inSpecOrder(await coveredComponents(ctx, spec));
    const res = await ctx.send({ ...spec, sign: { components } });
    expectSuccess(ctx, res, `a 2xx answer to a GET signed over (${components.join(' ')})`);
    ctx.judged('the answer to the signed GET');
  },
});

export const put = defineCheck({
  id: 'signing.accept.put',
  title: "a PUT with a body, signed over the spec's components in the spec's order, is accepted",
  level: 'MUST',
  uses: ['mutable-customer'],
  requirements: ['REQ-SVC-09', 'REQ-HDR-13', 'REQ-CUSTEP-07'],
  explain: {
    sends:
      "PUT /customers on the mutable customer with its current values (nothing changes), with Content-Digest, signed over the spec's components in the spec's order",
    passes:
      'a 2xx answer: the signature and the digest, made as the spec prescribes, are verified and the update taken',
    fails: 'any other status: the server does not take a signed body made as the spec prescribes (the check fails)',
  },
  async run(ctx) {
    const before = await readCustomerOrSkip(ctx, ctx.fixture('mutableCustomerId'));
    const spec = putCurrent(before);
    const components = inSpecOrder(await coveredComponents(ctx, spec));
    const res = await ctx.send({ ...spec, sign: { components } });
    expectSuccess(
      ctx,
      res,
      `a 2xx answer to PUT /customers (the customer's own values) signed over (${components.join(' ')})`,
    );
    ctx.judged('the answer to the signed PUT');
  },
});

export const post = defineCheck({
  id: 'signing.accept.post',
  title:
    "the token request (a POST with a form body), signed over the spec's components in the spec's order, is accepted",
  level: 'MUST',
  uses: ['token-revocation'],
  requirements: ['REQ-SVC-09', 'REQ-TOKEP-01'],
  explain: {
    sends:
      "the token request (POST /oauth/token, a form body with Content-Digest), signed over the spec's components in the spec's order; the token is revoked afterwards",
    passes: 'a 2xx answer carrying a token',
    fails: 'any other status, or no token in the answer: the check fails',
  },
  async run(ctx) {
    await withTokens(ctx, async (jar) => {
      const spec = tokenRequest(ctx.credentials);
      const components = inSpecOrder(await coveredComponents(ctx, spec));
      const res = await ctx.send({ ...spec, sign: { components } });
      const found = tokenIn(res);
      if (found) await jar.keep(found.token);
      expectSuccess(ctx, res, `a 2xx answer with a token to POST /oauth/token signed over (${components.join(' ')})`);
      if (!found)
        ctx.fail('no token in the answer', {
          expected: 'a token record',
          observed: describeResponse(res),
          exchange: res.exchange,
        });
      ctx.judged('the answer to the signed token request');
    });
  },
});
