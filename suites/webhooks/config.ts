// Area `webhooks.config`: the client's configuration saved before the suite and restored after it, and GET /webhooks
// (the Webhook it answers and its fields).
import {
  cite,
  configOf,
  judgeObserved,
  type HttpResponse,
  describeResponse,
  expectSchema,
  expectSuccess,
  isSuccess,
  locateWebhook,
  restoreWebhook,
  showWebhook as show,
  WEBHOOK_TABLE,
  webhookOfResponse,
} from '../kit/index.js';
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import { receiverOf, stateOf } from './helpers/state.js';
import { register, currentConfig, answerShape } from './helpers/endpoints.js';
import { observedWebhookReads } from './helpers/observed.js';

export const configSaved = defineCheck({
  id: 'webhooks.config.saved',
  title: "the client's webhook configuration is saved before the suite changes anything",
  level: 'INFO',
  requirements: ['REQ-WHKEP-08'],
  explain: {
    sends:
      "nothing itself: the suite's setup sends GET /webhooks before any check runs, to save the client's configuration (the exchange is among the run's own, with the token's)",
    passes:
      "always, once the answer could be read: the check records the receiver's URL and TLS, and the configuration saved, or that there was none, or that it could not be read (the suite then changes nothing)",
  },
  async run(ctx) {
    const receiver = receiverOf(ctx);
    const st = stateOf(ctx);
    const tls = receiver.certificatePem
      ? "TLS with the receiver's own certificate"
      : `plain HTTP behind ${receiver.url.startsWith('https:') ? 'a proxy or tunnel that ends TLS' : 'an http URL, which the spec does not allow'}`;
    ctx.observe(`receiver: ${receiver.url} (${tls}); delivery deadline ${receiver.deadlineMs} ms`);
    if (st.saved.kind === 'none') ctx.observe(`no webhook configured before the suite: ${st.saved.how}`);
    else if (st.saved.kind === 'webhook')
      ctx.observe(
        `saved: ${show(st.saved.config)}, status ${JSON.stringify(st.saved.config.status)} (${st.saved.how}); it is restored at the end`,
      );
    else ctx.observe(`the configuration could not be read (${st.saved.reason}): the suite changes nothing`);
    // The answer of the setup's GET /webhooks, read; a request that got none (a transport failure) judged nothing.
    if (st.saved.kind !== 'unknown' || !st.saved.reason.startsWith('GET /webhooks failed'))
      ctx.judged('the answer of GET /webhooks before the suite');
  },
});

export const configGet = defineCheck({
  id: 'webhooks.config.get',
  title:
    'GET /webhooks retrieves the configuration: a Webhook with the registered url and subscriptions, each field with its type',
  level: 'MUST',
  requirements: [
    'REQ-SVC-05',
    'REQ-WHK-01',
    'REQ-WHK-02',
    'REQ-WHK-03',
    'REQ-WHK-04',
    'REQ-WHK-05',
    'REQ-WHK-06',
    'REQ-STATE-04',
    'REQ-WHKEP-04',
  ],
  explain: {
    sends:
      'GET /webhooks, after the receiver\'s https URL registered with subscriptions ["ALL"]: POST /webhooks, or PUT where a webhook existed before the suite',
    passes:
      "a 2xx answer carrying a Webhook (in data or bare) with the receiver's URL and the subscriptions set, each field it carries with the Webhook table's type and enum, and the webhookId the registration answered, if it answered one (which other fields it carries is webhooks.config.fields')",
    fails:
      'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
  },
  async run(ctx) {
    await register(ctx);
    const st = stateOf(ctx);
    const receiver = receiverOf(ctx);
    const res = await ctx.send({ method: 'GET', path: '/webhooks' });
    expectSuccess(ctx, res, 'the configuration (a 2xx answer)');
    const w = expectWebhook(ctx, res);
    const subs = configOf(w).subscriptions;
    const wanted = st.subscriptions ?? ['ALL'];
    if (w.url !== receiver.url || !Array.isArray(w.subscriptions) || !wanted.every((s) => subs.includes(s))) {
      ctx.fail('the configuration is not the one registered', {
        expected: `url ${JSON.stringify(receiver.url)}, subscriptions containing ${JSON.stringify(wanted)} ("Retrieve webhook configuration")`,
        observed: describeResponse(res),
        exchange: res.exchange,
      });
    }
    if (
      st.registration?.webhook?.webhookId !== undefined &&
      'webhookId' in w &&
      w.webhookId !== st.registration.webhook.webhookId
    ) {
      ctx.fail('webhookId differs from the one the registration answered', {
        expected: `webhookId ${JSON.stringify(st.registration.webhook.webhookId)}, the identifier of the same webhook`,
        observed: describeResponse(res),
        exchange: res.exchange,
      });
    }
    ctx.judged('the configuration GET /webhooks answered');
  },
  // Observed traffic: every 2xx answer of GET /webhooks after its client configured a webhook carries one, and every
  // Webhook answered has the table's types (whether it is the configuration the client set is judged where the suite
  // set it itself).
  async observe(ctx) {
    const reads = observedWebhookReads(ctx, '/webhooks').filter(
      (r) => r.configured || webhookOfResponse(r.res) !== undefined,
    );
    if (reads.length === 0)
      ctx.skip(
        'no 2xx answer of GET /webhooks in the traffic carries a Webhook or follows a configuration by its client (before one, a server may answer without one)',
      );
    for (const { res } of reads) judgeObserved(ctx, res, () => expectWebhook(ctx, res));
    ctx.judged('the configuration GET /webhooks answered', reads.length);
  },
});

/** The Webhook a 2xx answer of GET /webhooks carries, each field of the table's type; the check fails without one. */
function expectWebhook(ctx: CheckContext, res: HttpResponse): Record<string, unknown> {
  const w = webhookOfResponse(res);
  if (w === undefined)
    return ctx.fail('the answer carries no Webhook', {
      expected: 'the configuration: a Webhook with its url and subscriptions, in data or bare',
      observed: describeResponse(res),
      exchange: res.exchange,
    });
  expectSchema(ctx, res, w, 'webhook', { path: locateWebhook(res)?.path ?? '', table: 'Webhook' });
  return w;
}

export const configFields = defineCheck({
  id: 'webhooks.config.fields',
  title: 'GET /webhooks answers the configuration with every field of the Webhook table',
  level: 'SHOULD',
  requirements: ['REQ-WHKEP-11'],
  explain: {
    sends:
      'GET /webhooks, after the receiver\'s https URL registered with subscriptions ["ALL"]: POST /webhooks, or PUT where a webhook existed before the suite',
    passes: `the Webhook it answers carries each of ${WEBHOOK_TABLE.join(', ')} (the table has no Required column, hence SHOULD; their types are webhooks.config.get's)`,
    fails:
      'a field of the table left out: the check warns, naming it; skipped when the answer carries no Webhook (webhooks.config.get judges that)',
  },
  async run(ctx) {
    await register(ctx);
    const res = await ctx.send({ method: 'GET', path: '/webhooks' });
    const w = isSuccess(res) ? webhookOfResponse(res) : undefined;
    if (w === undefined)
      return ctx.skip(
        `GET /webhooks answered ${describeResponse(res)}, with no Webhook: webhooks.config.get judges the configuration`,
      );
    judgeWebhookFields(ctx, res, w);
    ctx.observe(`GET /webhooks answers every field of the Webhook table: ${WEBHOOK_TABLE.join(', ')}`);
    ctx.judged('the Webhook GET /webhooks answered');
  },
  // Observed traffic: every Webhook a 2xx answer of GET /webhooks carries.
  async observe(ctx) {
    const webhooks = observedWebhookReads(ctx, '/webhooks').flatMap(({ res }) => {
      const w = webhookOfResponse(res);
      return w === undefined ? [] : [{ res, w }];
    });
    if (webhooks.length === 0)
      ctx.skip('no 2xx answer of GET /webhooks in the traffic carries a Webhook: webhooks.config.get judges that');
    for (const { res, w } of webhooks) judgeWebhookFields(ctx, res, w);
    ctx.judged('the Webhook GET /webhooks answered', webhooks.length);
  },
});

/** Every field of the Webhook table there. */
function judgeWebhookFields(ctx: CheckContext, res: HttpResponse, w: Record<string, unknown>): void {
  const missing = WEBHOOK_TABLE.filter((f) => !(f in w));
  if (missing.length > 0)
    ctx.fail(`the configuration leaves out ${missing.join(', ')}`, {
      expected: `GET /webhooks answers the Webhook with every field of its table: ${WEBHOOK_TABLE.join(', ')}`,
      observed: describeResponse(res),
      exchange: cite(ctx, res),
    });
}

export const configRestored = defineCheck({
  id: 'webhooks.config.restored',
  title: "the client's webhook configuration is restored as it was before the suite",
  level: 'INFO',
  requirements: ['REQ-WHKEP-08'],
  explain: {
    sends:
      'PUT /webhooks with the configuration saved before the suite, then GET /webhooks (nothing when the suite changed nothing, or when no webhook existed before: the interface has no DELETE)',
    passes:
      'always, once the answer could be read: the check records that the configuration is back as it was (WEBHOOK.CREATED aside), or why nothing was restored',
    fails:
      'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning); a restore that does not take is reported on this check, with the PUT /webhooks to send by hand',
  },
  async run(ctx) {
    const st = stateOf(ctx);
    if (st.saved.kind === 'unknown')
      return ctx.skip(
        `nothing to restore: the configuration could not be read (${st.saved.reason}), so the suite changed nothing`,
      );
    if (!st.changed) return ctx.skip('nothing to restore: the suite changed nothing');
    if (st.saved.kind === 'none') {
      const now = await currentConfig(ctx).catch(() => undefined);
      const left =
        now === undefined
          ? 'its configuration could not be read'
          : `${show(now.config)}; GET /webhooks answered ${answerShape(now.res)}`;
      if (now !== undefined) ctx.judged('the configuration GET /webhooks shows at the end');
      return ctx.observe(
        `no webhook existed before the suite, and the interface has no DELETE: the webhook the suite configured stays (${left}); it points at this run's receiver, which stops at the end of the run, and the suite's clean-up narrows it to ["WEBHOOK.CREATED"] (the run's notes say what was left)`,
      );
    }
    const saved = st.saved.config;
    const restored = await restoreWebhook(ctx, saved);
    // Not yet a clean-up problem: the suite's teardown tries once more, and only then reports CLEAN-UP FAILED.
    if (!restored.ok) {
      ctx.fail(
        `the webhook configuration could not be restored (${restored.problem}); the suite's teardown tries once more`,
        {
          expected: `restored by hand, should the teardown fail too: ${restored.byHand}`,
          observed: restored.observed,
          ...(restored.exchange ? { exchange: restored.exchange } : {}),
        },
      );
    }
    st.restored = true;
    ctx.observe(
      `restored: ${show(saved)}${saved.status !== undefined && saved.status !== 'ACTIVE' ? `; its status was ${JSON.stringify(saved.status)} and cannot be set back (no transition is shown)` : ''}`,
    );
    ctx.observe(
      `PUT /webhooks answered ${answerShape(restored.put!)}; GET /webhooks answered ${answerShape(restored.read!)}`,
    );
    ctx.judged('the answers of the restoring PUT /webhooks and of GET /webhooks after it');
  },
});
