// Area `webhooks.open`: what the server chose where the spec is silent (INFO).
import { describeResponse, isSuccess } from '../kit/index.js';
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import { stateOf, mayChange, receiverOf, type SuiteState } from './helpers/state.js';
import { refreshKey, shownSubscriptions, subscribe, fetchKey, currentConfig } from './helpers/endpoints.js';
import { negativeBound, otherDomainEvent } from './helpers/deliveries.js';

/**
 * REQ-WHKEP-09 ("Which body fields are required on create and update: not shown"), recorded: PUT /webhooks with the
 * url alone, the url it has already. Either answer is right; what the list becomes is recorded too, and set again later.
 */
async function fieldsRequired(ctx: CheckContext): Promise<void> {
  const st = stateOf(ctx);
  mayChange(ctx, st);
  const res = await ctx.send({ method: 'PUT', path: '/webhooks', json: { url: receiverOf(ctx).url } });
  st.subscriptions = undefined;
  if (isSuccess(res)) {
    await refreshKey(ctx, st, 'PUT /webhooks with the url alone');
    const shown = (await shownSubscriptions(ctx)).list;
    ctx.observe(
      `PUT /webhooks with the url alone was accepted (${res.status}): subscriptions optional on update (REQ-WHKEP-09); GET /webhooks then lists ${JSON.stringify(shown ?? null)}`,
    );
  } else {
    ctx.observe(
      `PUT /webhooks with the url alone was refused (${describeResponse(res)}): url and subscriptions both required (REQ-WHKEP-09)`,
    );
  }
}

/**
 * REQ-EVT-16 ("Event kinds of other domains (for example the ACCOUNT subscription): not shown"), recorded: under
 * ["ALL"], PUT /customers with only the customerId (it changes nothing) and a watch for an ACCOUNT event.
 */
async function accountEvents(ctx: CheckContext, st: SuiteState): Promise<string> {
  const receiver = receiverOf(ctx);
  // Without the fixture the probe is left out, not the whole check (the other open points are still recorded).
  const customerId = ctx.fixtures.mutableCustomerId;
  if (customerId === undefined)
    return 'ACCOUNT events not probed: fixtures.mutableCustomerId is not configured for this target';
  if (st.unreached) return `ACCOUNT events not probed: ${st.unreached.problem}`;
  await subscribe(ctx, ['ALL']);
  const cursor = receiver.cursor();
  const res = await ctx.send({ method: 'PUT', path: '/customers', json: { customerId } });
  if (!isSuccess(res))
    return `PUT /customers {customerId: ${customerId}} answered ${res.status}: no ACCOUNT event can be expected (the resources checks judge the update)`;
  const bound = negativeBound(st, receiver, 0);
  const d = await ctx.idle(
    receiver.waitFor((x) => x.seq > cursor && otherDomainEvent(x) !== undefined, bound.ms, ctx.signal),
  );
  if (d !== undefined)
    return `ACCOUNT event delivered after PUT /customers: ${otherDomainEvent(d)} (delivery #${d.seq})`;
  return `no ACCOUNT event within ${bound.ms} ms of PUT /customers under ["ALL"] (bound: ${bound.why})`;
}

export const openObserved = defineCheck({
  id: 'webhooks.open.observed',
  title: 'what the server chose where the spec is silent: body fields of an update, ACCOUNT events, deactivation',
  level: 'INFO',
  uses: ['mutable-customer'],
  requirements: ['REQ-WHKEP-09', 'REQ-EVT-16', 'REQ-STATE-08'],
  explain: {
    sends:
      'PUT /webhooks with the url alone (no subscriptions); under ["ALL"], PUT /customers with only the mutable customer\'s id (it changes nothing), watching for an ACCOUNT event; then GET /webhooks',
    passes:
      "always, once the answer could be read: the check records whether subscriptions may be left out of an update, whether ACCOUNT events are delivered, and the webhook's status after the run's deliveries",
  },
  async run(ctx) {
    const st = stateOf(ctx);
    await fetchKey(ctx);
    await fieldsRequired(ctx);
    ctx.observe(await accountEvents(ctx, st));
    const { config } = await currentConfig(ctx);
    ctx.observe(
      `webhook status ${JSON.stringify(config?.status)} after ${receiverOf(ctx).counts.received} deliveries: whether failed deliveries deactivate a webhook (REQ-STATE-08) is not probed, since no transition back to ACTIVE is shown and the suite never makes deliveries fail`,
    );
    ctx.judged('the answer of PUT /webhooks with the url alone');
    if (config !== undefined) ctx.judged('the status GET /webhooks shows');
  },
});
