// Area `webhooks.events`: each event of the Events table the suite can cause is delivered (WEBHOOK.CREATED,
// WEBHOOK.UPDATED, AUTH.CREATED, AUTH.DELETED) and the test endpoint's message.
import {
  describeResponse,
  isSuccess,
  type Delivery,
  eventMatcher,
  findEvent,
  KNOWN_EVENTS,
  topLevelFields,
} from '../kit/index.js';
import { defineCheck } from '../../src/engine/index.js';
import { creationCheck, ofSecondClient } from './helpers/creation.js';
import { fetchKey, sendTest, subscribe, put } from './helpers/endpoints.js';
import {
  type Awaited,
  eventOf,
  awaitDelivery,
  alsoSeeDiscarded,
  missing,
  eventObservation,
  otherDomainEvent,
  eventHeaders,
  authEvent,
} from './helpers/deliveries.js';
import { reachable, reachableAfterWait } from './helpers/reach.js';
import { stateOf, receiverOf } from './helpers/state.js';

export const eventsWebhookCreated = defineCheck({
  id: 'webhooks.events.webhook-created',
  title: 'creating the webhook delivers a WEBHOOK.CREATED message',
  level: 'MUST',
  uses: ['token-revocation'],
  requirements: ['REQ-WHKEP-02', 'REQ-EVT-01', 'REQ-EVT-09', 'REQ-EVT-12'],
  explain: {
    sends:
      'the receiver\'s https URL created with subscriptions ["ALL"] by POST /webhooks; where the client has a webhook already, the creation an earlier run recorded, or else the same request as the second client of targets.NAME.webhookClient (suites/webhooks/helpers/creation-records.ts)',
    passes:
      'a WEBHOOK.CREATED delivery reaches the receiver within its deadline; or the record of an earlier run that saw one, on the webhook the client still has, carried forward and said to be',
    fails:
      "no such delivery within the receiver's deadline (the report says what arrived instead), now or in the run whose record is carried forward: the check fails, unless nothing ever reached the receiver (then it is skipped with the run's set-up problem); skipped with a set-up problem naming what to ask the provider for when no creation can be observed or carried forward",
  },
  async run(ctx) {
    await creationCheck(ctx, async (c, st) => {
      await fetchKey(ctx);
      const second = c.by === 'webhookClient';
      const who = second ? ` of the webhook client ${JSON.stringify(c.clientId)}` : '';
      if (!isSuccess(c.post))
        ctx.fail(`POST /webhooks${who} answered ${c.post.status}: no webhook was created`, {
          expected: 'the webhook is created (a 2xx answer), and a WEBHOOK.CREATED delivery reaches it',
          observed: describeResponse(c.post),
          exchange: c.post.exchange,
        });
      const awaited: Awaited = {
        what: 'WEBHOOK.CREATED',
        after: c.cursor,
        match: (x) => eventOf(x) === 'WEBHOOK.CREATED' && ofSecondClient(ctx, st)(x) === second,
        trigger: c.post,
      };
      if (c.keyProblem !== undefined)
        ctx.observe(
          `GET /webhooks/key of the webhook client gave no key (${c.keyProblem}): its deliveries cannot be verified`,
        );
      let d: Delivery;
      if (!second) d = await awaitDelivery(ctx, st, awaited);
      else if (c.delivery !== undefined) {
        d = c.delivery;
        alsoSeeDiscarded(ctx, d, `the WEBHOOK.CREATED delivery #${d.seq}`);
      } else {
        // Awaited already, when the second client created its webhook: nothing came by the deadline.
        reachable(ctx, st);
        await reachableAfterWait(ctx, st);
        return missing(ctx, awaited)();
      }
      ctx.observe(eventObservation(d));
      c.data.delivery = {
        arrivedAt: new Date(d.arrivedAt).toISOString(),
        path: d.path,
        state: d.state,
        ...(d.signature?.keyId !== undefined ? { keyId: d.signature.keyId } : {}),
      };
      ctx.judged(`WEBHOOK.CREATED delivery #${d.seq}`);
    });
  },
});

export const eventsTest = defineCheck({
  id: 'webhooks.events.test',
  title: 'POST /webhooks/test delivers a message to the webhook',
  level: 'SHOULD',
  requirements: ['REQ-WHKEP-06'],
  explain: {
    failsInFull: true,
    sends: 'POST /webhooks/test, the webhook subscribed to ["ALL"]',
    passes:
      'a delivery that is none of the events the spec names (the test message) reaches the receiver within its deadline',
    fails:
      "no such delivery within the receiver's deadline (the report says what arrived instead): the check warns, unless nothing ever reached the receiver (then it is skipped with the run's set-up problem); no usable answer (refused, reset, timed out, a body over the cap) fails it too; skipped when POST /webhooks/test was not accepted",
  },
  async run(ctx) {
    const st = stateOf(ctx);
    await fetchKey(ctx);
    const { res, cursor } = await sendTest(ctx);
    if (!isSuccess(res))
      ctx.skip(
        `POST /webhooks/test answered ${describeResponse(res)}, so no test delivery is due; webhooks.test.accepted judges the endpoint`,
      );
    // The test event's name is not shown: it is the delivery that is none of the events the spec names.
    // Nor an event of another domain (ACCOUNT…), which a server may emit meanwhile (REQ-EVT-16).
    const d = await awaitDelivery(ctx, st, {
      what: 'test',
      after: cursor,
      match: (x) =>
        !(KNOWN_EVENTS as readonly string[]).includes(eventOf(x) ?? '') && otherDomainEvent(x) === undefined,
      trigger: res,
    });
    // Its name is not shown either: a value with "test" in it, in the payload or a header, is recorded where it is.
    const named = findEvent(
      d.payload,
      eventHeaders(d),
      eventMatcher((upper) => (/TEST/.test(upper) ? upper : undefined)),
    ).candidates[0];
    ctx.observe(
      `test delivery #${d.seq}${named ? `: ${named.at} = ${JSON.stringify(named.raw)}` : ''}, payload fields ${JSON.stringify(topLevelFields(d.payload))}`,
    );
    ctx.judged(`test delivery #${d.seq}`);
  },
});

export const eventsAuthCreated = defineCheck({
  id: 'webhooks.events.auth-created',
  title: 'issuing a token delivers an AUTH.CREATED message',
  level: 'MUST',
  // It obtains a token of its own and revokes it: a server may end the client's other tokens on either (REQ-LIFE-03,
  // REQ-LIFE-05), so it takes its turn with the checks that judge tokens, and its revocation is one the check may send.
  uses: ['token-revocation'],
  requirements: ['REQ-LIFE-01', 'REQ-EVT-01', 'REQ-EVT-06', 'REQ-EVT-12'],
  explain: {
    sends: 'a token request (POST /oauth/token), the webhook subscribed to ["ALL"]; the token is revoked afterwards',
    passes: 'an AUTH.CREATED delivery for that token reaches the receiver within its deadline',
    fails:
      "no such delivery within the receiver's deadline (the report says what arrived instead): the check fails, unless nothing ever reached the receiver (then it is skipped with the run's set-up problem)",
  },
  async run(ctx) {
    await fetchKey(ctx);
    await subscribe(ctx, ['ALL']);
    await authEvent(ctx, 'AUTH.CREATED');
  },
});

export const eventsAuthDeleted = defineCheck({
  id: 'webhooks.events.auth-deleted',
  title: 'revoking a token delivers an AUTH.DELETED message',
  level: 'MUST',
  uses: ['token-revocation'],
  requirements: ['REQ-LIFE-02', 'REQ-EVT-07', 'REQ-EVT-12'],
  explain: {
    sends: 'a token request, then POST /oauth/revoke of that token, the webhook subscribed to ["ALL"]',
    passes: 'an AUTH.DELETED delivery for that token reaches the receiver within its deadline',
    fails:
      "no such delivery within the receiver's deadline (the report says what arrived instead): the check fails, unless nothing ever reached the receiver (then it is skipped with the run's set-up problem)",
  },
  async run(ctx) {
    await fetchKey(ctx);
    await subscribe(ctx, ['ALL']);
    await authEvent(ctx, 'AUTH.DELETED');
  },
});

export const eventsWebhookUpdated = defineCheck({
  id: 'webhooks.events.webhook-updated',
  title: 'updating the webhook delivers a WEBHOOK.UPDATED message',
  level: 'MUST',
  requirements: ['REQ-EVT-10', 'REQ-EVT-12'],
  explain: {
    sends: 'PUT /webhooks with the receiver\'s URL and subscriptions ["ALL"]',
    passes: 'a WEBHOOK.UPDATED delivery reaches the receiver within its deadline',
    fails:
      "no such delivery within the receiver's deadline (the report says what arrived instead): the check fails, unless nothing ever reached the receiver (then it is skipped with the run's set-up problem)",
  },
  async run(ctx) {
    const st = stateOf(ctx);
    await fetchKey(ctx);
    const receiver = receiverOf(ctx);
    const cursor = receiver.cursor();
    const res = await put(ctx, ['ALL']);
    const d = await awaitDelivery(ctx, st, {
      what: 'WEBHOOK.UPDATED',
      after: cursor,
      match: (x) => eventOf(x) === 'WEBHOOK.UPDATED',
      trigger: res,
    });
    ctx.observe(eventObservation(d));
    ctx.judged(`WEBHOOK.UPDATED delivery #${d.seq}`);
  },
});
