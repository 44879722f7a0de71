// Suite `resources`: every endpoint's envelope, schema and errors (spec "Resources and their fields", "Endpoints", "Errors").
import { defineCheck, defineSuite } from '../src/runner/check.js';
import { expectEnvelope, expectErrorBody, expectSchema, expectStatus, describeResponse } from '../src/runner/expect.js';

export default defineSuite('resources', 'Resources: envelopes, schemas, errors', [
  defineCheck({
    id: 'resources.customers.get',
    title: 'GET /customers/{customerId} answers 200 with the envelope and a Customer carrying that id',
    level: 'MUST',
    spec: { section: 'Customers', sentence: 'GET /customers/{customerId} — 200: data = Customer.' },
    async run(ctx) {
      const customerId = ctx.fixture('customerId');
      const res = await ctx.send({ method: 'GET', path: `/customers/${customerId}` });
      expectStatus(ctx, res, 200);
      const env = expectEnvelope(ctx, res);
      expectSchema(ctx, res, env.data, 'customer', { path: 'data', table: 'Customer' });
      const data = env.data as Record<string, unknown>;
      if (data.customerId !== undefined && data.customerId !== customerId) {
        ctx.fail(`data.customerId is ${JSON.stringify(data.customerId)}, not ${customerId}`, {
          expected: `the customer that was asked for (${customerId})`,
          observed: describeResponse(res),
          exchange: res.exchange,
        });
      }
    },
  }),
  defineCheck({
    id: 'resources.customers.no-token',
    title: 'GET /customers/{customerId} without a token is rejected with 401 and the error body',
    level: 'MUST',
    spec: { section: 'Errors', sentence: '401 Unauthorized — every endpoint except the token endpoints. Error responses have the body {code, message} (both strings).' },
    async run(ctx) {
      const customerId = ctx.fixture('customerId');
      const res = await ctx.send({ method: 'GET', path: `/customers/${customerId}`, token: null });
      expectStatus(ctx, res, 401, '401 Unauthorized: the request carries no Authorization header');
      expectErrorBody(ctx, res);
    },
  }),
]);
