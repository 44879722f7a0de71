// Area `auth.idempotency`: the idempotency header on the token request and PUT /customers (spec "Headers").
import {
  customerBody,
  customerDifferences,
  describeResponse,
  failCleanUp,
  expectNoToken,
  expectRejection,
  isSuccess,
  readCustomer,
  readCustomerOrSkip,
  restoreCustomer,
  tokenIn,
  withRestoredCustomer,
  withTokens,
  type CustomerSnapshot,
  type HttpResponse,
  type RequestSpec,
} from '../kit/index.js';
import { randomUUID } from 'node:crypto';
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import { NO_TOKEN, tokenSpec } from './helpers/token-requests.js';

/**
 * Sends a PUT of the customer's own values (`before`): accepted or not, it should change nothing. A change is recorded
 * and undone; the customer is put back whatever happens (withRestoredCustomer), even when the check runs out of time.
 */
async function putOwnValues(ctx: CheckContext, before: CustomerSnapshot, spec: RequestSpec): Promise<HttpResponse> {
  return withRestoredCustomer(
    ctx,
    before,
    async () => {
      const res = await ctx.send(spec);
      const { snapshot: after } = await readCustomer(ctx, before.customerId);
      const changed = after ? customerDifferences(before, after) : [];
      if (changed.length > 0) {
        const restored = await restoreCustomer(ctx, before, after);
        if (!restored.ok)
          failCleanUp(ctx, restored, `It had changed although its own values were sent (${changed.join('; ')})`);
        ctx.observe(`the customer changed although its own values were sent (${changed.join('; ')}); ${restored.note}`);
      }
      return res;
    },
    { onlyAfterFailure: true },
  );
}

export const idempotencyRequired = defineCheck({
  id: 'auth.idempotency.required',
  title: 'a mutating request without any idempotency header (the token request, PUT /customers) is refused',
  level: 'SHOULD',
  uses: ['mutable-customer'],
  requirements: ['REQ-HDR-12'],
  explain: {
    sends:
      'a token request with neither X-Idempotency-Key nor X-Idempotency-Id, and PUT /customers on the mutable customer with its current values and neither header (it changes nothing; a change is undone)',
    passes: 'both are refused (any 4xx), and the token request issues no token',
    fails: 'a 2xx or a 5xx to either, or a token issued (revoked at once): the check warns',
  },
  async run(ctx) {
    const NONE = 'neither X-Idempotency-Key nor X-Idempotency-Id';
    await withTokens(ctx, async (jar) => {
      const res = await ctx.send(tokenSpec(ctx, { idempotencyKey: null }));
      await expectNoToken(ctx, jar, res, `${NO_TOKEN}: right credentials, signed, but ${NONE}`);
      ctx.judged('the answer to a token request without an idempotency header');
    });
    const customerId = ctx.fixtures.mutableCustomerId;
    if (customerId === undefined)
      return ctx.observe('PUT /customers not tried: fixtures.mutableCustomerId is not configured');
    const before = await readCustomerOrSkip(ctx, customerId);
    // The customer's current values: accepted or not, nothing changes.
    const res = await putOwnValues(ctx, before, {
      method: 'PUT',
      path: '/customers',
      body: customerBody(before),
      contentType: 'application/json',
      idempotencyKey: null,
    });
    expectRejection(ctx, res, `a rejection (any 4xx): PUT /customers, signed, with ${NONE}`);
    ctx.judged('the answer to PUT /customers without an idempotency header');
  },
});

export const idempotencyIdSpelling = defineCheck({
  id: 'auth.idempotency.id-spelling',
  title: 'whether PUT /customers accepts X-Idempotency-Id in place of X-Idempotency-Key',
  level: 'INFO',
  uses: ['mutable-customer'],
  requirements: ['REQ-HDR-14'],
  explain: {
    sends:
      'PUT /customers on the mutable customer with its current values, carrying X-Idempotency-Id instead of X-Idempotency-Key (a change is recorded and undone)',
    passes: 'always, once the answer could be read: the check records whether the server accepted it or refused it',
  },
  async run(ctx) {
    const customerId = ctx.fixture('mutableCustomerId');
    const before = await readCustomerOrSkip(ctx, customerId);
    // The customer's current values: accepted or not, nothing changes.
    const res = await putOwnValues(ctx, before, {
      method: 'PUT',
      path: '/customers',
      body: customerBody(before),
      contentType: 'application/json',
      idempotencyKey: null,
      headers: [['X-Idempotency-Id', randomUUID()]],
    });
    ctx.observe(
      isSuccess(res)
        ? `PUT /customers with X-Idempotency-Id and no X-Idempotency-Key was accepted (${res.status})`
        : `PUT /customers with X-Idempotency-Id and no X-Idempotency-Key was refused: ${describeResponse(res)}`,
    );
    ctx.judged('the answer to PUT /customers with X-Idempotency-Id');
  },
});

export const idempotencyTokenRepeat = defineCheck({
  id: 'auth.idempotency.token-repeat',
  title: 'what a repeated X-Idempotency-Key does on the token request: same token, new token, or refusal',
  level: 'INFO',
  requirements: ['REQ-HDR-19'],
  explain: {
    sends: 'the same token request twice, with one X-Idempotency-Key; any token given is revoked afterwards',
    passes:
      'always, once the answer could be read: the check records whether the repeat gave back the same token, a new token, or no token',
  },
  async run(ctx) {
    await withTokens(ctx, async (jar) => {
      const spec = tokenSpec(ctx, { idempotencyKey: randomUUID() });
      const first = await ctx.send(spec);
      const t1 = tokenIn(first);
      if (t1) await jar.keep(t1.token);
      const second = await ctx.send(spec);
      const t2 = tokenIn(second);
      if (t2) await jar.keep(t2.token);
      if (!t1) return ctx.skip(`the first request answered ${first.status} without a token; nothing to compare`);
      ctx.judged('the answer to the repeated token request');
      if (!t2)
        return ctx.observe(
          `the repeated key was answered ${describeResponse(second)} without a token (the first answered ${first.status})`,
        );
      ctx.observe(
        t1.token === t2.token
          ? `the repeated key gave back the same token (the first answer replayed; statuses ${first.status}, ${second.status})`
          : `the repeated key gave a new token (statuses ${first.status}, ${second.status})`,
      );
    });
  },
});
