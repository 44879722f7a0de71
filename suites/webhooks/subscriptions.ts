// Area `webhooks.subscriptions`: every subscription name is accepted, and a list selects its events (exact names,
// domains) and no others.
import {
  AUTOMATIC_SUBSCRIPTION as AUTOMATIC,
  describeDelivery,
  describeResponse,
  isSuccess,
  type Delivery,
  type HttpResponse,
  containsValue,
} from '../kit/index.js';
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import {
  eventOf,
  negativeBound,
  drain,
  latencyOf,
  authEvent,
  awaitSelected,
  eventObservation,
} from './helpers/deliveries.js';
import { type SuiteState, receiverOf, stateOf } from './helpers/state.js';
import { reachable, awaitNeeded, reachableAfterWait } from './helpers/reach.js';
import { shownSubscriptions, subscribe, put, register, configure, fetchKey } from './helpers/endpoints.js';
import { issueToken, revokeQuietly, forToken, lastAuthCause, namesAToken } from './helpers/tokens.js';

/** Every subscription name of the Events table, and the two values that "appear as subscription values"; ALL last, so the suite ends on it. */
const SUBSCRIPTION_NAMES = [
  'AUTH',
  'AUTH.CREATED',
  'AUTH.DELETED',
  'WEBHOOK',
  'WEBHOOK.CREATED',
  'WEBHOOK.UPDATED',
  'ACCOUNT',
  'ALL',
];

/** Whether a subscription list selects an event: by its exact name, its domain, or ALL. */
function covers(subscriptions: readonly string[], event: string): boolean {
  return subscriptions.includes(event) || subscriptions.includes(event.split('.')[0]!) || subscriptions.includes('ALL');
}

/**
 * Whether a delivery is `event`: it names it, or (a delivery naming several events the receiver could not tell apart)
 * carries the name anywhere, payload or header. A check that must see none of an event reads widely.
 */
function namesEvent(d: Delivery, event: string): boolean {
  const named = eventOf(d);
  return named === undefined
    ? d.event.candidates.some((c) => c.name === event) || containsValue(d.payload, event)
    : named === event;
}

// ---- deliveries that must not come -----------------------------------------------------------------------------

/** One scenario of a negative check: judged (what was seen), or not judgeable on this server, and why. */
type Scenario = { judged: true; seen: string } | { judged: false; why: string };

interface Unwanted {
  /** The subscriptions in effect, as the messages name them. */
  subscribed: string;
  /** What must not come, e.g. "AUTH.DELETED of the revoked token". */
  what: string;
  /** When the request that caused the unwanted event was sent: the bound runs from here. */
  since: number;
  /** A subscribed delivery caused after the unwanted event: the wait lasts at least until it has arrived. */
  marker: Delivery;
  violation: (d: Delivery) => boolean;
  trigger: HttpResponse;
}

/** Whether a delivery is an AUTH event (created or deleted), read widely as namesEvent reads. */
const isAuthEvent = (d: Delivery): boolean => namesEvent(d, 'AUTH.CREATED') || namesEvent(d, 'AUTH.DELETED');

/** Watches for an unwanted delivery until the bound; fails on one, and says what was watched otherwise. */
async function expectNone(ctx: CheckContext, st: SuiteState, u: Unwanted): Promise<string> {
  const receiver = receiverOf(ctx);
  const bound = negativeBound(st, receiver, Math.max(0, u.marker.arrivedAt - u.since));
  const found = await ctx.idle(receiver.waitFor(u.violation, Math.max(0, u.since + bound.ms - Date.now()), ctx.signal));
  await ctx.idle(receiver.settled());
  const violator = found ?? receiver.arrivals.find(u.violation);
  if (violator) {
    const late =
      violator.seq > u.marker.seq
        ? `; it arrived after delivery #${u.marker.seq}, the subscribed event caused after it`
        : '';
    ctx.fail(`${u.what} delivered to a webhook subscribed to ${u.subscribed}`, {
      expected: `no ${u.what} delivery (events go to subscribed URLs only), watched for ${bound.ms} ms after the request that caused it (${bound.why})`,
      observed: `${describeDelivery(violator)}${late}`,
      exchange: u.trigger.exchange,
    });
  }
  return `subscribed to ${u.subscribed}: no ${u.what} within ${bound.ms} ms of the request that caused it (bound: ${bound.why}); the subscribed marker was delivery #${u.marker.seq}`;
}

/** A subscribed delivery a scenario needs before it can judge, or undefined; a skip when nothing can reach the receiver. */
async function neededDelivery(
  ctx: CheckContext,
  st: SuiteState,
  match: (d: Delivery) => boolean,
): Promise<Delivery | undefined> {
  const receiver = receiverOf(ctx);
  reachable(ctx, st);
  const d = await awaitNeeded(ctx, st, match, receiver.deadlineMs);
  if (d === undefined) await reachableAfterWait(ctx, st);
  return d;
}

/** Why a scenario cannot be judged when GET /webhooks shows the unwanted events still subscribed after the PUT. */
async function stillSubscribed(ctx: CheckContext, events: string[], list: string[]): Promise<string | undefined> {
  const shown = (await shownSubscriptions(ctx)).list;
  const kept = shown === undefined ? [] : events.filter((e) => covers(shown, e));
  if (kept.length === 0) return undefined;
  return `GET /webhooks shows ${JSON.stringify(shown)} after PUT ${JSON.stringify(list)}, so ${kept.join(' and ')} are subscribed still (webhooks.update.replaces judges the replacement)`;
}

/**
 * Subscribed to the WEBHOOK domain only, a token issued and revoked meanwhile delivers no AUTH event. AUTH events the
 * run caused before the change may still be delivered (late, in any order): one naming another token is not the
 * scenario's, one naming none may be. `quick`: the server's AUTH deliveries so far each named their token, so the
 * scenario watches at once instead of first waiting for those; should a delivery naming no token come all the same, it
 * runs again the slow way.
 */
async function noAuthUnderWebhook(ctx: CheckContext, st: SuiteState, quick: boolean, again = ''): Promise<Scenario> {
  const receiver = receiverOf(ctx);
  await subscribe(ctx, ['ALL']);
  const setCursor = receiver.cursor();
  await put(ctx, ['WEBHOOK']);
  // From ALL to WEBHOOK the update is subscribed under either list: its delivery shows the change took effect.
  const applied = await neededDelivery(ctx, st, (x) => x.seq > setCursor && eventOf(x) === 'WEBHOOK.UPDATED');
  if (!applied)
    return {
      judged: false,
      why: `no WEBHOOK.UPDATED arrived within ${receiver.deadlineMs} ms of PUT ["WEBHOOK"] (webhooks.events.webhook-updated and webhooks.subscriptions.domain judge that)`,
    };
  const kept = await stillSubscribed(ctx, ['AUTH.CREATED', 'AUTH.DELETED'], ['WEBHOOK']);
  if (kept) return { judged: false, why: kept };
  const late = quick
    ? '; not first waiting for late deliveries of earlier AUTH events: the AUTH deliveries so far each named their token'
    : await drain(ctx, st, isAuthEvent, lastAuthCause(ctx));
  const cursor = receiver.cursor();
  const issued = await issueToken(ctx);
  const revoke = await revokeQuietly(ctx, issued.token);
  const since = Date.parse((revoke ?? issued.res).exchange.startedAt ?? '');
  // A real change that still subscribes no AUTH event: a server need not emit for a PUT that changes nothing.
  const markerList = ['WEBHOOK', 'WEBHOOK.UPDATED'];
  const markerSent = Date.now();
  const markerRes = await put(ctx, markerList);
  // Not a retry or duplicate of the first update: another body, or (a payload that names nothing but the event, the
  // same bytes for every update within a second) one that arrived after the second PUT was sent.
  const marker = await neededDelivery(
    ctx,
    st,
    (x) =>
      x.seq > cursor && eventOf(x) === 'WEBHOOK.UPDATED' && (!x.body.equals(applied.body) || x.arrivedAt >= markerSent),
  );
  if (!marker)
    return {
      judged: false,
      why: `no WEBHOOK.UPDATED arrived within ${receiver.deadlineMs} ms of PUT ${JSON.stringify(markerList)} (webhooks.subscriptions.domain judges that)`,
    };
  const latency = latencyOf(marker, markerRes);
  if (latency !== undefined) st.latencies.push(latency);
  const mine = forToken(st, issued.tokenId);
  const named = (x: Delivery) => issued.tokenId !== undefined && containsValue(x.payload, issued.tokenId);
  const seen = await expectNone(ctx, st, {
    subscribed: `WEBHOOK events only (["WEBHOOK"], then ${JSON.stringify(markerList)})`,
    what: 'AUTH.CREATED or AUTH.DELETED of a token issued and revoked meanwhile',
    since,
    marker,
    // Quick, only a delivery naming the scenario's token is surely of it.
    violation: (x) => x.seq > cursor && (quick ? named(x) : mine(x)) && isAuthEvent(x),
    trigger: revoke ?? issued.res,
  });
  const unclear = quick ? receiver.arrivals.find((x) => x.seq > cursor && mine(x) && isAuthEvent(x)) : undefined;
  if (unclear)
    return noAuthUnderWebhook(
      ctx,
      st,
      false,
      `; run twice: the first watch saw delivery #${unclear.seq}, an AUTH event naming no token, which could have been caused before the change`,
    );
  return { judged: true, seen: `${seen}${late}${again}` };
}

/** Whether every AUTH delivery the receiver has had names a token: the server's reading the quick watch rests on. */
function authDeliveriesNameTokens(ctx: CheckContext, st: SuiteState): boolean {
  const auth = receiverOf(ctx).arrivals.filter(isAuthEvent);
  return auth.length > 0 && auth.every((d) => namesAToken(st, d));
}

/** Subscribed to the exact name AUTH.CREATED, revoking a token delivers no AUTH.DELETED; the next token is the marker. */
async function noDeletedUnderCreated(ctx: CheckContext, st: SuiteState): Promise<Scenario> {
  const receiver = receiverOf(ctx);
  const list = ['AUTH.CREATED'];
  await subscribe(ctx, list);
  const kept = await stillSubscribed(ctx, ['AUTH.DELETED'], list);
  if (kept) return { judged: false, why: kept };
  const late = await drain(ctx, st, (x) => namesEvent(x, 'AUTH.DELETED'), lastAuthCause(ctx));
  const revoked = await issueToken(ctx);
  const cursor = receiver.cursor();
  const revoke = await revokeQuietly(ctx, revoked.token);
  if (revoke === undefined || !isSuccess(revoke)) {
    return {
      judged: false,
      why: `POST /oauth/revoke answered ${revoke ? describeResponse(revoke) : 'nothing'}, so no AUTH.DELETED is due under any list (the auth checks judge revocation)`,
    };
  }
  const since = Date.parse(revoke.exchange.startedAt ?? '');
  const next = await issueToken(ctx);
  try {
    const marker = await neededDelivery(
      ctx,
      st,
      (x) => x.seq > cursor && eventOf(x) === 'AUTH.CREATED' && forToken(st, next.tokenId)(x),
    );
    if (!marker)
      return {
        judged: false,
        why: `no AUTH.CREATED arrived within ${receiver.deadlineMs} ms for a token issued under ["AUTH.CREATED"] (webhooks.subscriptions.exact judges that)`,
      };
    const latency = latencyOf(marker, next.res);
    if (latency !== undefined) st.latencies.push(latency);
    const mine = forToken(st, revoked.tokenId);
    const seen = await expectNone(ctx, st, {
      subscribed: JSON.stringify(list),
      what: 'AUTH.DELETED of the revoked token',
      since,
      marker,
      violation: (x) => x.seq > cursor && namesEvent(x, 'AUTH.DELETED') && mine(x),
      trigger: revoke,
    });
    return { judged: true, seen: `${seen}${late}` };
  } finally {
    await revokeQuietly(ctx, next.token);
  }
}

export const subscriptionsNames = defineCheck({
  id: 'webhooks.subscriptions.names',
  title:
    'every subscription name of the Events table, and ALL and ACCOUNT, is accepted by PUT /webhooks and listed by GET /webhooks',
  level: 'MUST',
  requirements: ['REQ-WHK-04', 'REQ-EVT-03', 'REQ-EVT-05', 'REQ-EVT-07', 'REQ-EVT-08', 'REQ-EVT-10', 'REQ-EVT-11'],
  explain: {
    sends: `PUT /webhooks with each of ${SUBSCRIPTION_NAMES.join(', ')} alone, each followed by GET /webhooks`,
    passes: 'each PUT is accepted (2xx), and GET /webhooks then lists the name (WEBHOOK.CREATED may be added)',
    fails:
      'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
  },
  async run(ctx) {
    const st = stateOf(ctx);
    await register(ctx);
    const receiver = receiverOf(ctx);
    const problems: Array<{ name: string; problem: string; res: HttpResponse }> = [];
    // One name per PUT: a server may fold a list it finds redundant (AUTH with AUTH.CREATED), which says nothing of a name.
    for (const name of SUBSCRIPTION_NAMES) {
      const res = await configure(ctx, 'PUT', { url: receiver.url, subscriptions: [name] });
      if (!isSuccess(res)) {
        problems.push({ name, problem: `refused with ${res.status}`, res });
        continue;
      }
      st.subscriptions = [name];
      const { list: shown, res: now } = await shownSubscriptions(ctx);
      if (!shown?.includes(name))
        problems.push({
          name,
          problem:
            shown === undefined
              ? `GET /webhooks shows no subscriptions (${now.status})`
              : `GET /webhooks lists ${JSON.stringify(shown)}`,
          res: now,
        });
    }
    if (problems.length > 0) {
      ctx.fail(problems.map((p) => `${p.name}: ${p.problem}`).join('; '), {
        expected: `PUT /webhooks with each of ${SUBSCRIPTION_NAMES.join(', ')} alone is accepted (a 2xx answer), and GET /webhooks then lists it (${AUTOMATIC} may be added)`,
        observed: describeResponse(problems[0]!.res),
        exchange: problems[0]!.res.exchange,
      });
    }
    ctx.observe(`each of ${SUBSCRIPTION_NAMES.join(', ')} was accepted alone and listed by GET /webhooks`);
    ctx.judged('PUT /webhooks with one subscription name, and GET /webhooks after it', SUBSCRIPTION_NAMES.length);
  },
});

export const subscriptionsExact = defineCheck({
  id: 'webhooks.subscriptions.exact',
  title: 'subscribed to the exact name AUTH.CREATED only, issuing a token delivers an AUTH.CREATED message',
  level: 'MUST',
  uses: ['token-revocation'],
  requirements: ['REQ-EVT-01', 'REQ-EVT-06'],
  explain: {
    sends: 'PUT /webhooks with subscriptions ["AUTH.CREATED"], then a token request (revoked afterwards)',
    passes: 'an AUTH.CREATED delivery for that token reaches the receiver within its deadline',
    fails:
      "no such delivery within the receiver's deadline (the report says what arrived instead): the check fails, unless nothing ever reached the receiver (then it is skipped with the run's set-up problem)",
  },
  async run(ctx) {
    await fetchKey(ctx);
    await subscribe(ctx, ['AUTH.CREATED']);
    await authEvent(ctx, 'AUTH.CREATED', { what: 'AUTH.CREATED (subscribed to ["AUTH.CREATED"])' });
  },
});

export const subscriptionsDomain = defineCheck({
  id: 'webhooks.subscriptions.domain',
  title:
    'a domain subscription selects its events: ["AUTH"] delivers AUTH.CREATED, ["WEBHOOK"] delivers WEBHOOK.UPDATED',
  level: 'MUST',
  uses: ['token-revocation'],
  requirements: ['REQ-EVT-05', 'REQ-EVT-08'],
  explain: {
    sends:
      'PUT /webhooks with ["AUTH"] and a token request; then PUT with ["WEBHOOK"], and PUT with ["WEBHOOK", "AUTH.DELETED"]',
    passes:
      'under ["AUTH"] the AUTH.CREATED of the token is delivered, and under the WEBHOOK lists the WEBHOOK.UPDATED of the last PUT',
    fails:
      "no such delivery within the receiver's deadline (the report says what arrived instead): the check fails, unless nothing ever reached the receiver (then it is skipped with the run's set-up problem)",
  },
  async run(ctx) {
    const st = stateOf(ctx);
    await fetchKey(ctx);
    await subscribe(ctx, ['AUTH']);
    await authEvent(ctx, 'AUTH.CREATED', { what: 'AUTH.CREATED (subscribed to ["AUTH"])' });
    const cursor = receiverOf(ctx).cursor();
    // Whether the PUT that sets a list is matched against the old list or the new is not shown. The update after it is
    // matched against a WEBHOOK list either way, and neither list names WEBHOOK.UPDATED itself: only the domain selects it.
    await put(ctx, ['WEBHOOK']);
    const next = await put(ctx, ['WEBHOOK', 'AUTH.DELETED']);
    const d = await awaitSelected(
      ctx,
      st,
      {
        what: 'WEBHOOK.UPDATED (subscribed to ["WEBHOOK"])',
        after: cursor,
        match: (x) => eventOf(x) === 'WEBHOOK.UPDATED',
        trigger: next,
      },
      'WEBHOOK.UPDATED',
    );
    ctx.observe(eventObservation(d));
    ctx.judged(`WEBHOOK.UPDATED delivery #${d.seq}`);
  },
});

export const subscriptionsFiltered = defineCheck({
  id: 'webhooks.subscriptions.filtered',
  title:
    'an event the subscriptions do not select is not delivered: no AUTH event under ["WEBHOOK"], no AUTH.DELETED under ["AUTH.CREATED"]',
  level: 'SHOULD',
  uses: ['token-revocation'],
  requirements: ['REQ-EVT-02'],
  explain: {
    sends:
      'under ["WEBHOOK"]: a token request and its revocation, then a PUT whose WEBHOOK.UPDATED marks the end of the wait; under ["AUTH.CREATED"]: a revocation, then a token request whose AUTH.CREATED marks the end',
    passes:
      'no AUTH event arrives under ["WEBHOOK"], and no AUTH.DELETED under ["AUTH.CREATED"], by the time the marker has arrived and a margin over the slowest delivery of the run has passed',
    fails:
      'an event the subscriptions do not select is delivered: the check warns; a scenario whose marker never arrives is not judged (the check is skipped, naming it)',
  },
  async run(ctx) {
    const st = stateOf(ctx);
    await fetchKey(ctx);
    const scenarios = [
      await noAuthUnderWebhook(ctx, st, authDeliveriesNameTokens(ctx, st)),
      await noDeletedUnderCreated(ctx, st),
    ];
    for (const s of scenarios)
      if (s.judged) {
        ctx.observe(s.seen);
        ctx.judged('a watch for a delivery the subscriptions do not select');
      }
    const open = scenarios.filter((s): s is Extract<Scenario, { judged: false }> => !s.judged);
    if (open.length > 0) ctx.skip(`not judged: ${open.map((s) => s.why).join('; ')}`);
  },
});
