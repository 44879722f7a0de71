// Area `webhooks.test`: POST /webhooks/test, the test endpoint, answers 2xx.
import { describeResponse, expectSuccess } from '../kit/index.js';
import { defineCheck } from '../../src/engine/index.js';
import { sendTest } from './helpers/endpoints.js';

export const testAccepted = defineCheck({
  id: 'webhooks.test.accepted',
  title: 'POST /webhooks/test, the test endpoint, answers 2xx',
  level: 'MUST',
  requirements: ['REQ-WHKEP-07'],
  explain: {
    sends: 'POST /webhooks/test, the webhook subscribed to ["ALL"]',
    passes: 'a 2xx answer to POST /webhooks/test',
    fails: 'any other status: the check fails',
  },
  async run(ctx) {
    const { res } = await sendTest(ctx);
    expectSuccess(
      ctx,
      res,
      'POST /webhooks/test is the endpoint that tests the webhook (the text also names /auth/test; the spec settles on /webhooks/test): a 2xx answer',
    );
    ctx.observe(`POST /webhooks/test answered ${describeResponse(res)}`);
    ctx.judged('the answer of POST /webhooks/test');
  },
});
