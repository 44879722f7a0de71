// Area `webhooks.create`: registering the receiver (the answer and its Webhook) and the automatic WEBHOOK.CREATED
// subscription of a created webhook (helpers/creation.ts: observed once per client).
import {
  AUTOMATIC_SUBSCRIPTION as AUTOMATIC,
  configOf,
  describeResponse,
  expectSchema,
  isSuccess,
  judgeObserved,
  locateWebhook,
  observedPath,
  observedTraffic,
  webhookOfResponse,
} from '../kit/index.js';
import { defineCheck } from '../../src/engine/index.js';
import { showPost } from './helpers/creation-records.js';
import { register, answerShape } from './helpers/endpoints.js';
import { receiverOf } from './helpers/state.js';
import { creationCheck } from './helpers/creation.js';

export const createAnswer = defineCheck({
  id: 'webhooks.create.answer',
  title:
    'registering the receiver\'s https URL with ["ALL"] is accepted, and a Webhook in the answer has the table\'s types',
  level: 'MUST',
  requirements: [
    'REQ-SVC-05',
    'REQ-WHKEP-02',
    'REQ-EVT-11',
    'REQ-WHK-01',
    'REQ-WHK-02',
    'REQ-WHK-03',
    'REQ-WHK-04',
    'REQ-WHK-05',
    'REQ-WHK-06',
    'REQ-STATE-04',
  ],
  explain: {
    sends:
      'the receiver\'s https URL registered with subscriptions ["ALL"]: POST /webhooks, or PUT where a webhook existed before the suite',
    passes:
      "a 2xx answer; where it carries a Webhook, whole or in part, each field it carries has the type and enum of the Webhook table (the answer's body is not shown: no Webhook, some fields of one, or the whole one are all accepted, and what it says is recorded)",
    fails:
      'a refusal, or a field of the Webhook with another type or a value outside its enum (the check fails); the report names the field and shows the exchange',
  },
  async run(ctx) {
    const reg = await register(ctx);
    const receiver = receiverOf(ctx);
    ctx.observe(
      `${reg.via} /webhooks answered ${answerShape(reg.res)}${reg.via === 'PUT' ? ' (a webhook existed already: updated, not created)' : ''}`,
    );
    const w = reg.webhook;
    if (w === undefined) {
      // "Response bodies of all webhook endpoints: not shown": an answer without the Webhook is allowed; GET /webhooks is checked on its own.
      ctx.observe('the answer carries no Webhook object (response bodies are not shown by the spec)');
      return ctx.judged(`the answer of ${reg.via} /webhooks`);
    }
    // Fewer fields than a Webhook is a reading of "not shown" too: what it carries has its type, what it leaves out is not judged.
    expectSchema(ctx, reg.res, w, 'webhook', { path: locateWebhook(reg.res)?.path ?? '', table: 'Webhook' });
    // What the answer says of the webhook is recorded; GET /webhooks judges the configuration (webhooks.config.get).
    const said: string[] = [];
    if ('status' in w) said.push(`status ${JSON.stringify(w.status)}`);
    if ('url' in w)
      said.push(w.url === receiver.url ? 'the url sent' : `url ${JSON.stringify(w.url)}, not the url sent`);
    if (said.length > 0) ctx.observe(`the answer's Webhook gives ${said.join(', ')}`);
    ctx.judged(`the answer of ${reg.via} /webhooks`);
  },
  // Observed traffic: every 2xx answer of POST or PUT /webhooks that carries a Webhook, whole or in part: each field
  // it carries has the table's type and enum. A refusal is not judged: the client's request may be what is wrong.
  async observe(ctx) {
    const answers = observedTraffic(ctx).filter(
      (res) =>
        ['POST', 'PUT'].includes(res.exchange.request.method) &&
        observedPath(ctx, res) === '/webhooks' &&
        isSuccess(res) &&
        webhookOfResponse(res) !== undefined,
    );
    if (answers.length === 0) ctx.skip('the traffic holds no 2xx answer of POST or PUT /webhooks with a Webhook');
    for (const res of answers)
      judgeObserved(ctx, res, () =>
        expectSchema(ctx, res, webhookOfResponse(res), 'webhook', {
          path: locateWebhook(res)?.path ?? '',
          table: 'Webhook',
        }),
      );
    ctx.judged('the Webhook a configuration answered', answers.length);
  },
});

export const createAutoSubscription = defineCheck({
  id: 'webhooks.create.auto-subscription',
  title: 'a created webhook is subscribed to WEBHOOK.CREATED automatically',
  level: 'MUST',
  // The second client's token, when it creates a webhook (helpers/creation-records.ts), is revoked by whichever creation check runs first.
  uses: ['token-revocation'],
  requirements: ['REQ-EVT-09'],
  explain: {
    sends:
      'the receiver\'s https URL created with subscriptions ["ALL"] by POST /webhooks, then GET /webhooks; where the client has a webhook already, the creation an earlier run recorded, or else the same requests as the second client of targets.NAME.webhookClient (suites/webhooks/helpers/creation-records.ts)',
    passes:
      'the subscriptions GET /webhooks shows after the creation contain WEBHOOK.CREATED (what the answer of POST lists is recorded, since its body is not shown); or the record of an earlier run that saw so, on the webhook the client still has, carried forward and said to be',
    fails:
      'subscriptions without WEBHOOK.CREATED, or a POST /webhooks of the second client refused (the check fails), now or in the run whose record is carried forward; the report shows the exchange; skipped when GET /webhooks shows no subscriptions (webhooks.config.get judges that), and with a set-up problem naming what to ask the provider for when no creation can be observed or carried forward',
  },
  async run(ctx) {
    await creationCheck(ctx, async (c) => {
      const who = c.by === 'webhookClient' ? ` of the webhook client ${JSON.stringify(c.clientId)}` : '';
      if (!isSuccess(c.post))
        ctx.fail(`POST /webhooks${who} answered ${c.post.status}`, {
          expected: 'the webhook is created (a 2xx answer): the client has none',
          observed: describeResponse(c.post),
          exchange: c.post.exchange,
        });
      const answered = webhookOfResponse(c.post);
      if (answered !== undefined && Array.isArray(answered.subscriptions))
        ctx.observe(`the answer of POST /webhooks${who} lists ${JSON.stringify(configOf(answered).subscriptions)}`);
      // The configuration is what GET /webhooks retrieves; the answer of the creation is not shown (REQ-WHKEP-08).
      const res = c.shown;
      const w = isSuccess(res) ? webhookOfResponse(res) : undefined;
      const subs = w && Array.isArray(w.subscriptions) ? configOf(w).subscriptions : undefined;
      if (subs === undefined)
        return ctx.skip(
          `GET /webhooks${who} answered ${describeResponse(res)}, with no subscriptions to read: webhooks.config.get judges the configuration`,
        );
      if (!subs.includes(AUTOMATIC)) {
        ctx.fail(`subscriptions ${JSON.stringify(subs)} do not contain ${AUTOMATIC}`, {
          expected: `created with ["ALL"], the webhook's subscriptions contain ${AUTOMATIC}, added automatically`,
          observed: describeResponse(res),
          exchange: res.exchange,
        });
      }
      ctx.observe(
        `created${who} with ["ALL"] ${showPost(c.clientId, c.data.post)}, GET /webhooks lists ${JSON.stringify(subs)}`,
      );
      ctx.judged(`the subscriptions GET /webhooks${who} shows after the creation`);
    });
  },
});
