// Waiting for deliveries and reading them, for several areas: which event a delivery names, the waits with deadlines
// (awaitDelivery, tryDelivery, expectEmitted, authEvent), how long to wait for one that must not come (negativeBound,
// drain), and which check owns each rule a discarded delivery breaks (PROBLEM_OWNERS, alsoSeeDiscarded: one cause, one
// failure, see ../index.ts).
import {
  expectSuccess,
  headerValue,
  revokeToken,
  signatureLabels,
  type Delivery,
  type HttpResponse,
  type WebhookReceiver,
  containsValue,
  eventMatcher,
  findEvent,
  topLevelFields,
  type DeliveryProblem,
  type ProblemKind,
} from '../../kit/index.js';
import { type CheckContext } from '../../../src/engine/index.js';
import { type SuiteState, receiverOf, stateOf } from './state.js';
import { reachable, awaitNeeded, reachableAfterWait, silence } from './reach.js';
import { subscribe, put } from './endpoints.js';
import { issueToken, forToken, revokeQuietly } from './tokens.js';

/** The check that owns a delivery's verification (Authentication 8): the others record a delivery that fails it. */
export const VERIFIED_OWNER = 'webhooks.delivery.verified';
const VERIFIED_REQUIREMENTS = ['REQ-EVT-14'];
/** The owner of a signature that leaves the Content-Digest out (a SHOULD: REQ-EVT-19). */
export const COVERED_OWNER = 'webhooks.delivery.digest-covered';
const COVERED_REQUIREMENTS = ['REQ-EVT-19'];
/** The owner of a signature already expired (or not yet valid) when its delivery arrived (a SHOULD: REQ-AUTH-09). */
export const WINDOW_OWNER = 'webhooks.delivery.in-window';
const WINDOW_REQUIREMENTS = ['REQ-AUTH-09'];
/** Which check owns each rule a discarded delivery breaks (see ProblemKind). */
export const PROBLEM_OWNERS: Record<ProblemKind, { ownedBy: string; requirements: string[] }> = {
  key: { ownedBy: VERIFIED_OWNER, requirements: VERIFIED_REQUIREMENTS },
  digest: { ownedBy: VERIFIED_OWNER, requirements: VERIFIED_REQUIREMENTS },
  signature: { ownedBy: VERIFIED_OWNER, requirements: VERIFIED_REQUIREMENTS },
  coverage: { ownedBy: COVERED_OWNER, requirements: COVERED_REQUIREMENTS },
  window: { ownedBy: WINDOW_OWNER, requirements: WINDOW_REQUIREMENTS },
};
/**
 * How long to wait for a delivery that must not come: this many times the slowest delivery the run has measured (a
 * server may deliver in any order, REQ-EVT-17), never less than NEGATIVE_FLOOR_MS (below it, a bound measures the
 * scheduler rather than the server), never more than the receiver's deadline. The measured deliveries carry a server's
 * own delays (a queue, a worker that batches), so the floor only speaks when every delivery came within milliseconds.
 */
const NEGATIVE_MARGIN = 3;
const NEGATIVE_FLOOR_MS = 250;

/** One delivery per request: the first event of each batch, for what concerns the request (verification, body). */
export function perRequest(list: readonly Delivery[]): Delivery[] {
  const seen = new Set<number>();
  return list.filter((d) => !seen.has(d.request) && seen.add(d.request));
}

/** The headers that may name a delivery's event: none for an event of a batch, whose headers describe the whole request. */
export const eventHeaders = (d: Delivery): ReadonlyArray<readonly [string, string]> => (d.batch ? [] : d.headers);

/** The event of the Events table a delivery names (in its payload or its headers), as the receiver read it. */
export const eventOf = (d: Delivery): string | undefined => d.event.name;

/** The domains the spec names beside the Events table ("The values ALL and ACCOUNT appear as subscription values"). */
const OTHER_DOMAINS = /^ACCOUNT(\.[A-Z_]+)?$/;
const otherDomain = eventMatcher((upper) => (OTHER_DOMAINS.test(upper) ? upper : undefined));

/** The name of an event of another domain (ACCOUNT.UPDATED…) a delivery carries, if any (REQ-EVT-16: "not shown"). */
export function otherDomainEvent(d: Delivery): string | undefined {
  const found = findEvent(d.payload, eventHeaders(d), otherDomain);
  return found.name ?? found.candidates[0]?.name;
}

/**
 * Where the delivery names its event, for the record (REQ-EVT-15, REQ-EVT-18): every place that names the event taken,
 * the one taken first, each with its value as sent where that is not the spec's spelling, e.g. `event name at header
 * x-event-type (also at header ce-type (as "com.example.auth.created"))`.
 */
function eventWhere(d: Delivery): string {
  const e = d.event;
  if (e.name === undefined) return e.ambiguity ?? 'no event of the Events table named, in the payload or the headers';
  const place = (at: string, raw: string) => (raw.trim() === e.name ? at : `${at} (as ${JSON.stringify(raw.trim())})`);
  const also = [
    ...new Set(e.candidates.filter((c) => c.name === e.name && c.at !== e.at).map((c) => place(c.at, c.raw))),
  ];
  return `event name at ${place(e.at!, e.raw!)}${also.length > 0 ? ` (also at ${also.join('; ')})` : ''}${e.ambiguity ? `; ${e.ambiguity}` : ''}`;
}

/** Records, on the check that met it, each rule a discarded delivery breaks, for the check that owns that rule. */
export function alsoSeeDiscarded(ctx: CheckContext, d: Delivery, what: string): void {
  // A delivery a proxy rewrote beyond reading back is a set-up problem, not the server's (see unmapped).
  if (d.state !== 'rejected' || d.route?.kind === 'unmapped') return;
  const byOwner = new Map<string, DeliveryProblem[]>();
  for (const p of d.problems) {
    const owner = PROBLEM_OWNERS[p.kind].ownedBy;
    byOwner.set(owner, [...(byOwner.get(owner) ?? []), p]);
  }
  for (const [ownedBy, problems] of byOwner)
    ctx.alsoSee({
      requirements: PROBLEM_OWNERS[problems[0]!.kind].requirements,
      ownedBy,
      message: `${what} does not verify, so a client must discard it: ${problems.map((p) => p.reason).join('; ')}`,
    });
}

export interface Awaited {
  /** What is awaited, e.g. "WEBHOOK.CREATED". */
  what: string;
  after: number;
  match: (d: Delivery) => boolean;
  /** The request that caused the event: the evidence of a failure, and the start of the latency. */
  trigger: HttpResponse;
}

export function latencyOf(d: Delivery, trigger: HttpResponse): number | undefined {
  const sent = Date.parse(trigger.exchange.startedAt ?? '');
  return Number.isFinite(sent) ? Math.max(0, d.arrivedAt - sent) : undefined;
}

/**
 * Waits for a delivery; fails when none arrives by the deadline. One that arrived but does not verify shows the event
 * was emitted: it is returned, and its verification failure is recorded as seen here (delivery.verified judges it).
 */
export async function awaitDelivery(ctx: CheckContext, st: SuiteState, a: Awaited): Promise<Delivery> {
  return (await tryDelivery(ctx, st, a)) ?? missing(ctx, a)();
}

/**
 * As awaitDelivery, for a check that judges which events reach the webhook rather than whether they are emitted: when
 * nothing comes, and the run has never seen `event` delivered, it is tried under ["ALL"] first. A server that never
 * emits it fails the event checks, and this check is skipped.
 */
export async function awaitSelected(
  ctx: CheckContext,
  st: SuiteState,
  a: Awaited,
  event: ProbedEvent,
): Promise<Delivery> {
  const d = await tryDelivery(ctx, st, a);
  if (d !== undefined) return d;
  const fail = missing(ctx, a);
  await expectEmitted(ctx, st, event, `no ${a.what} delivery`);
  return fail();
}

/**
 * The delivery awaited, or undefined when none arrives within the deadline of the answer to the request that caused it
 * (so an event an earlier check already waited for is not waited for again). A skip, with the run's set-up problem,
 * when nothing can reach the receiver (see unreached).
 */
export async function tryDelivery(ctx: CheckContext, st: SuiteState, a: Awaited): Promise<Delivery | undefined> {
  const receiver = receiverOf(ctx);
  reachable(ctx, st);
  const answered = Date.parse(a.trigger.exchange.startedAt ?? '') + a.trigger.exchange.durationMs;
  const left = Number.isFinite(answered)
    ? Math.max(0, answered + receiver.deadlineMs - Date.now())
    : receiver.deadlineMs;
  const d = await awaitNeeded(ctx, st, (x) => x.seq > a.after && a.match(x), left);
  if (d === undefined) {
    await reachableAfterWait(ctx, st);
    return undefined;
  }
  const latency = latencyOf(d, a.trigger);
  if (latency !== undefined) st.latencies.push(latency);
  const named = eventOf(d);
  if (named !== undefined) st.delivered.add(named);
  alsoSeeDiscarded(ctx, d, `the ${a.what} delivery #${d.seq}`);
  return d;
}

/** The failure of a wait that ended with nothing, worded from what had arrived when it ended. */
export function missing(ctx: CheckContext, a: Awaited): () => never {
  const receiver = receiverOf(ctx);
  const expected = `a ${a.what} delivery reaches the receiver at ${receiver.url}`;
  const since = receiver.arrivals.filter((x) => x.seq > a.after);
  const seen =
    since.length === 0
      ? 'no delivery arrived meanwhile'
      : `${since.length} other deliver${since.length === 1 ? 'y' : 'ies'} arrived meanwhile: ${since
          .slice(0, 5)
          .map((x) => `#${x.seq} ${eventOf(x) ?? '(no known event named)'} (${x.state})`)
          .join(', ')}`;
  const observed = `${seen}; ${silence(receiver)}`;
  return () =>
    ctx.fail(`no ${a.what} delivery within ${receiver.deadlineMs} ms`, {
      expected,
      observed,
      exchange: a.trigger.exchange,
    });
}

type ProbedEvent = 'AUTH.CREATED' | 'WEBHOOK.UPDATED';

/**
 * Skips the check unless the server delivers `event` at all: seen delivered earlier in the run, or tried now under ALL
 * and the event's own name, at the receiver's first URL.
 */
export async function expectEmitted(ctx: CheckContext, st: SuiteState, event: ProbedEvent, why: string): Promise<void> {
  const receiver = receiverOf(ctx);
  reachable(ctx, st);
  if (st.delivered.has(event)) return;
  const list = ['ALL', event];
  await subscribe(ctx, list);
  const cursor = receiver.cursor();
  let trigger: HttpResponse;
  let mine: (d: Delivery) => boolean = () => true;
  let token: string | undefined;
  if (event === 'AUTH.CREATED') {
    const issued = await issueToken(ctx);
    ({ token, res: trigger } = issued);
    mine = forToken(st, issued.tokenId);
  } else {
    // A real change under a list that selects the update either way, old list or new.
    trigger = await put(ctx, ['ALL', 'WEBHOOK']);
  }
  try {
    const d = await ctx.idle(
      receiver.waitFor((x) => x.seq > cursor && eventOf(x) === event && mine(x), receiver.deadlineMs, ctx.signal),
    );
    if (d === undefined)
      ctx.skip(
        `${why}, and none is delivered under ${JSON.stringify(list)} either (tried once more: ${trigger.exchange.request.method} ${new URL(trigger.exchange.request.url).pathname}): whether ${event} is emitted is judged by the event checks`,
      );
    st.delivered.add(event);
  } finally {
    if (token !== undefined) await revokeQuietly(ctx, token);
  }
}

export function eventObservation(d: Delivery): string {
  const sigs = signatureLabels(headerValue(d.headers, 'signature-input')).length;
  const params = Object.keys(d.signature?.params ?? {}).join(', ');
  const digest = d.digest?.ok ? (d.digest.algorithms ?? []).join(', ') : 'not verified';
  const batch = d.batch ? ` (event ${d.batch.index + 1} of ${d.batch.size} of a batch at ${d.batch.at})` : '';
  return `${eventOf(d) ?? 'event'} delivery #${d.seq}${batch}: ${eventWhere(d)}, payload fields ${JSON.stringify(topLevelFields(d.payload))}, signature label ${d.signature?.label ?? '?'} (${sigs} signature${sigs === 1 ? '' : 's'}) covering ${JSON.stringify(d.signature?.components ?? [])} with ${params || 'no parameters'}, digest ${digest}`;
}

/**
 * Waits for an AUTH event of one token while that token is in use, and always revokes it. With `selection`, the check
 * judges which events the subscriptions select, not their emission (see awaitSelected).
 */
export async function authEvent(
  ctx: CheckContext,
  event: 'AUTH.CREATED' | 'AUTH.DELETED',
  selection?: { what: string },
): Promise<Delivery> {
  const st = stateOf(ctx);
  reachable(ctx, st);
  const receiver = receiverOf(ctx);
  const cursor = receiver.cursor();
  const issued = await issueToken(ctx);
  let revoked = false;
  try {
    let trigger = issued.res;
    if (event === 'AUTH.DELETED') {
      trigger = await revokeToken(ctx, issued.token);
      revoked = true;
      expectSuccess(ctx, trigger, 'POST /oauth/revoke revokes the token');
    }
    const mine = forToken(st, issued.tokenId);
    const awaited: Awaited = {
      what: selection?.what ?? event,
      after: cursor,
      match: (x) => eventOf(x) === event && mine(x),
      trigger,
    };
    const d =
      selection && event === 'AUTH.CREATED'
        ? await awaitSelected(ctx, st, awaited, event)
        : await awaitDelivery(ctx, st, awaited);
    ctx.observe(eventObservation(d));
    ctx.judged(`${event} delivery #${d.seq}`);
    if (issued.tokenId !== undefined)
      ctx.observe(
        containsValue(d.payload, issued.tokenId)
          ? `the payload names the token (tokenId ${issued.tokenId})`
          : 'the payload does not name the tokenId',
      );
    if (event === 'AUTH.DELETED')
      ctx.observe(
        orderSeen(
          receiver,
          d,
          (x) => x.seq > cursor && eventOf(x) === 'AUTH.CREATED' && forToken(st, issued.tokenId)(x),
        ),
      );
    return d;
  } finally {
    if (!revoked) await revokeQuietly(ctx, issued.token);
  }
}

/** REQ-EVT-17 ("Delivery retries and ordering: not shown"): whether a token's creation came before its deletion. */
function orderSeen(receiver: WebhookReceiver, deleted: Delivery, created: (d: Delivery) => boolean): string {
  const c = receiver.arrivals.find(created);
  if (c !== undefined && c.seq < deleted.seq)
    return `AUTH.CREATED #${c.seq} came before AUTH.DELETED #${deleted.seq} of the same token: deliveries in the order of the requests (REQ-EVT-17)`;
  return `AUTH.DELETED #${deleted.seq} came before the AUTH.CREATED of the same token${c ? ` (#${c.seq})` : ' (not arrived yet)'}: deliveries in any order (REQ-EVT-17 leaves it open)`;
}

/**
 * How long a delivery that is not due is waited for. Deliveries may come in any order (REQ-EVT-17), so the marker
 * alone proves nothing; the bound comes from what the run measured, so no server is waited on blindly.
 */
export function negativeBound(
  st: SuiteState,
  receiver: WebhookReceiver,
  markerMs: number,
): { ms: number; why: string } {
  const slowest = st.latencies.length > 0 ? Math.max(...st.latencies) : 0;
  const ms = Math.min(receiver.deadlineMs, Math.max(NEGATIVE_FLOOR_MS, markerMs, NEGATIVE_MARGIN * slowest));
  return {
    ms,
    why: `${NEGATIVE_MARGIN} × the slowest delivery the run measured (${slowest} ms), at least the subscribed marker (${markerMs} ms) and ${NEGATIVE_FLOOR_MS} ms, at most the receiver's deadline (${receiver.deadlineMs} ms)`,
  };
}

/**
 * Lets the deliveries of events that occurred before the subscriptions changed arrive before a scenario watches: they
 * may come late and in any order (REQ-EVT-17), and one whose payload names no token (the server's choice, REQ-EVT-15)
 * cannot be told from the scenario's own. Each such event was caused by a request sent no later than `causedBy` (the
 * run's last request that emits one), and arrives, as the negative bound reads the server, within the bound of the
 * request that caused it: so waits until the bound has passed since `causedBy` and since the last delivery `match`
 * takes, at most the receiver's deadline (a server that keeps delivering them is caught by the watch after). Says what
 * it let pass.
 */
export async function drain(
  ctx: CheckContext,
  st: SuiteState,
  match: (d: Delivery) => boolean,
  causedBy: number,
): Promise<string> {
  const receiver = receiverOf(ctx);
  const quiet = negativeBound(st, receiver, 0).ms;
  const until = Date.now() + receiver.deadlineMs;
  let cursor = receiver.cursor();
  let last = receiver.arrivals.reduce((at, d) => (match(d) ? Math.max(at, d.arrivedAt) : at), causedBy);
  const passed: number[] = [];
  for (;;) {
    const left = Math.min(last + quiet, until) - Date.now();
    if (left <= 0) break;
    const d = await ctx.idle(receiver.waitFor((x) => x.seq > cursor && match(x), left, ctx.signal));
    if (d === undefined) break;
    passed.push(d.seq);
    cursor = d.seq;
    last = Math.max(last, d.arrivedAt);
  }
  return passed.length === 0
    ? ''
    : `; before watching, ${passed.length} deliver${passed.length === 1 ? 'y' : 'ies'} of events that occurred before the change (#${passed.join(', #')}) were let arrive`;
}

/**
 * Where the deliveries name their event, each place once (the events of a batch as "payload.events[*].event"), with a
 * value as sent where it is not the spec's spelling.
 */
export function eventPlaces(all: readonly Delivery[]): string {
  const places = new Map<string, string | undefined>();
  for (const d of all) {
    const { raw, name } = d.event;
    const at = d.event.at?.replace(/\[\d+\]/g, '[*]');
    if (at === undefined) continue;
    const other = raw !== undefined && raw.trim() !== name ? raw.trim() : undefined;
    if (!places.has(at) || (places.get(at) === undefined && other !== undefined)) places.set(at, other);
  }
  return [...places].map(([at, raw]) => (raw === undefined ? at : `${at} (e.g. ${JSON.stringify(raw)})`)).join(', ');
}

/**
 * What the run saw of requests that bundle several events (batches), or undefined when none did, e.g. "3 of 12 delivery
 * requests carry a list of events at payload.events (7 events; up to 3 in one)"; with what could not be settled.
 */
export function batchesSeen(all: readonly Delivery[]): string | undefined {
  const requests = perRequest(all);
  const batched = requests.filter((d) => d.batch !== undefined);
  const unsettled = requests.find((d) => d.eventsNote !== undefined);
  if (batched.length === 0 && unsettled === undefined) return undefined;
  const at = [...new Set(batched.map((d) => d.batch!.at))].join(', ');
  const events = all.filter((d) => d.batch !== undefined).length;
  const most = Math.max(0, ...batched.map((d) => d.batch!.size));
  const seen =
    batched.length === 0
      ? 'no request read as a batch'
      : `${batched.length} of ${requests.length} delivery requests carry a list of events at ${at} (${events} events; up to ${most} in one)`;
  return `${seen}${unsettled ? `; request of delivery #${unsettled.seq}: ${unsettled.eventsNote}` : ''}`;
}
