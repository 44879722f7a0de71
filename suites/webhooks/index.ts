// Suite `webhooks`: configuration, the published key, deliveries and their verification (spec "Webhook", "Webhooks",
// "Events", "Authentication" 8). Deliveries arrive at the run's receiver (src/receiver/), which verifies each one.
//
// The checks share one state per run: the client's configuration as it was before the suite (saved by whichever check
// runs first, restored by the last), the receiver's registration and the published key. Checks run in declaration order,
// one at a time (the suite shares `webhook-config`: other suites' checks run alongside, and only a check that changes the
// configuration waits for it);
// each sets up what it needs itself, so a --grep selection still works.
//
// One cause, one failure: a delivery that arrives but does not verify still shows that its event was emitted. The event
// checks take it as such and record the verification failure as seen on their way, for the check that owns it:
// webhooks.delivery.verified (the digest and a signature by the published key, REQ-EVT-14, with webhooks.key.published
// for which key signed), webhooks.delivery.digest-covered (the signature covers the digest, REQ-EVT-19) and
// webhooks.delivery.in-window (the signature's window holds when it arrives, REQ-AUTH-09).
//
// Where a delivery names its event is not shown (REQ-EVT-15, REQ-EVT-18): the receiver finds the event's name among
// its payload members and its header values (src/receiver/payload.ts findEvent), and the checks record where. A
// request that bundles several events (a batch: a list of objects each naming an event, readEvents) is read as one
// delivery per event, each judged as a delivery of its event: no check depends on how a server groups its events.
// What concerns the request (its digest, signature, body, Content-Type) is judged once per request.
//
// A server that never reaches the receiver at all (it refuses the receiver's certificate, or cannot connect) shows a
// set-up problem of the run, not a defect: the checks that need deliveries are skipped with it (ctx.setupProblem), and
// the run states it once with its fix. A server that reaches the receiver and still misses an event fails for it.
import {
  AUTOMATIC_SUBSCRIPTION as AUTOMATIC,
  DEFAULT_DEADLINE_MS,
  isLoopbackHost,
  configOf,
  describeDelivery,
  describeKeyForm,
  describeResponse,
  expectRejection,
  expectSchema,
  expectSuccess,
  headerValue,
  isSuccess,
  leaveWebhookQuiet,
  locateWebhook,
  pathAndQuery,
  restoreWebhook,
  sameConfig,
  showWebhook as show,
  startReceiver,
  type Delivery,
  type HttpResponse,
  type WebhookReceiver,
  WEBHOOK_TABLE,
  webhookOfResponse,
  containsValue,
  eventMatcher,
  findEvent,
  KNOWN_EVENTS,
  topLevelFields,
} from '../kit/index.js';
import { defineCheck, defineSuite, type CheckContext, type SuiteRun } from '../../src/engine/index.js';
import { showPost, type CarrySettings } from './helpers/creation-records.js';
import { type WebhooksRun, type Creation, stateOf, mayChange, receiverOf, type SuiteState } from './helpers/state.js';
import {
  eventPlaces,
  batchesSeen,
  eventOf,
  negativeBound,
  otherDomainEvent,
  drain,
  latencyOf,
  type Awaited,
  tryDelivery,
  missing,
  perRequest,
  PROBLEM_OWNERS,
  alsoSeeDiscarded,
  awaitDelivery,
  eventObservation,
  eventHeaders,
  authEvent,
  expectEmitted,
  awaitSelected,
  VERIFIED_OWNER,
  COVERED_OWNER,
  WINDOW_OWNER,
} from './helpers/deliveries.js';
import {
  refreshKey,
  shownSubscriptions,
  subscribe,
  currentConfig,
  configure,
  put,
  fetchKey,
  register,
  answerShape,
  sendTest,
} from './helpers/endpoints.js';
import { reachable, awaitNeeded, reachableAfterWait, silence } from './helpers/reach.js';
import { issueToken, revokeQuietly, forToken } from './helpers/tokens.js';
import { creationCheck, ofSecondClient } from './helpers/creation.js';

const AUTH_NAMES = ['AUTH', 'AUTH.CREATED', 'AUTH.DELETED'];
/** A subscription name no table of the spec lists, for the unknown-name probe (REQ-EVT-04). */
const UNKNOWN_SUBSCRIPTION = 'CONFORMANCE.NO-SUCH-EVENT';
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

const lifecycle = {
  options: {
    deadlineMs: { default: DEFAULT_DEADLINE_MS, description: 'how long a webhook check waits for a delivery, in ms' },
  },
  // Deliveries can only be received while the receiver listens: from before the first webhook check to the end of the run.
  async setup(run: SuiteRun): Promise<WebhooksRun> {
    const settings = run.config.webhook;
    // Said once, before any check waits in vain: a certificate made for this run alone can only be trusted by a server
    // of this machine (the built-in target trusts the one its process makes).
    if (settings.tls === 'self-signed' && !isLoopbackHost(new URL(run.target.baseUrl).hostname))
      run.note(
        `webhook.tls is "self-signed": the receiver makes a new certificate for each run, which a server not on this machine cannot trust, so its deliveries will not arrive. Make a lasting one with \`npx conformance keygen\`, set webhook.tls to {"certFile", "keyFile"} of it and hand it to the provider (docs/webhook-receiver.md)`,
      );
    const receiver = await startReceiver(settings, { deadlineMs: run.options.deadlineMs! });
    // Behind webhook.publicUrl, the run's own request through it (src/receiver/probe.ts), in the background: evidence
    // for a set-up problem, and for reading back deliveries a proxy rewrote.
    void receiver.probe();
    const carry: CarrySettings = {
      target: run.target.name,
      baseUrl: run.target.baseUrl,
      clientId: run.target.clientId,
      folder: run.config.configFolder,
      signer: { keyId: run.config.keyId, privateKey: run.config.privateKey },
      webhookClient: run.config.webhookClient,
    };
    return { receiver, settings, carry };
  },
  /** Puts back a configuration the suite changed and did not restore (its restore check left out, or failed). */
  async teardown(w: WebhooksRun, run: SuiteRun): Promise<string[]> {
    try {
      // Where the server names its events is not shown (REQ-EVT-15, REQ-EVT-18): said once for the run when it is not
      // the payload, or when a delivery named two events, since every event check read the deliveries that way.
      const all = w.receiver.arrivals;
      const inHeader = all.some((d) => d.event.at?.startsWith('header ') === true);
      const ambiguous = all.find((d) => d.event.ambiguity !== undefined);
      if (inHeader || ambiguous)
        run.note(
          `webhook deliveries name their event at ${eventPlaces(all) || '(nowhere)'}${ambiguous ? `; delivery #${ambiguous.seq}: ${ambiguous.event.ambiguity}` : ''}; where is not shown (REQ-EVT-15, REQ-EVT-18), and the webhook checks read it there`,
        );
      // Several events in one request (REQ-EVT-15: payload fields not shown): said once, since every check read them so.
      const batches = batchesSeen(all);
      if (batches !== undefined)
        run.note(
          `webhook deliveries bundle events: ${batches}; each event of a batch is read as a delivery of its own (REQ-EVT-15 leaves the payload open)`,
        );
      // A proxy in front that rewrote the deliveries' path, read back: said once, since every check judged them so.
      const rewrite = w.receiver.rewriteNote();
      if (rewrite !== undefined) run.note(rewrite);
      const st = await w.state?.catch(() => undefined);
      const creation = await st?.creation?.catch(() => undefined);
      const said = creation && creationNote(creation, w.carry);
      if (said) run.note(said);
      // No webhook before: the one the suite created stays (no DELETE), narrowed so that it draws no delivery.
      if (st?.changed && st.saved.kind === 'none') return await leaveWebhookQuiet(run, st.saved, [w.receiver.url]);
      if (st === undefined || !st.changed || st.restored || st.saved.kind !== 'webhook') return [];
      const saved = st.saved.config;
      const restored = await restoreWebhook(run, saved);
      return restored.ok ? [] : [restored.line];
    } finally {
      await w.receiver.stop();
    }
  },
};

/** Whether a subscription list selects an event: by its exact name, its domain, or ALL. */
function covers(subscriptions: readonly string[], event: string): boolean {
  return subscriptions.includes(event) || subscriptions.includes(event.split('.')[0]!) || subscriptions.includes('ALL');
}

/** What the run says once of how it knew the creation: carried forward, or observed with the second client. */
function creationNote(c: Creation, carry: CarrySettings): string | undefined {
  if (c.kind === 'carried')
    return `webhook creation carried forward, not observed in this run (${c.why}): the creation checks report the creation observed ${showPost(c.clientId, c.record.data.post)} (${c.how}; record ${c.file}, sha256 ${c.digest})`;
  if (c.kind !== 'observed') return undefined;
  const kept =
    c.kept === undefined
      ? carry.folder === undefined
        ? '; no record kept (the target comes from no config file), so a later run against the same client cannot carry it forward'
        : ''
      : 'problem' in c.kept
        ? `; ${c.kept.problem}`
        : `; kept for later runs in ${c.kept.file} (sha256 ${c.kept.digest})`;
  if (c.by === 'webhookClient')
    return `webhook creation observed with the webhook client ${JSON.stringify(c.clientId)} (client ${JSON.stringify(carry.clientId)} has a webhook already)${kept}; ${c.left ?? 'it created no webhook'}`;
  // The target's own creation, where no record can be kept (the built-in target, made afresh each run): nothing to say.
  return c.kept === undefined ? undefined : `webhook creation observed${kept}`;
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

/**
 * REQ-WHKEP-09 ("Which body fields are required on create and update: not shown"), recorded: PUT /webhooks with the
 * url alone, the url it has already. Either answer is right; what the list becomes is recorded too, and set again later.
 */
async function fieldsRequired(ctx: CheckContext): Promise<void> {
  const st = await stateOf(ctx);
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
  const d = await receiver.waitFor((x) => x.seq > cursor && otherDomainEvent(x) !== undefined, bound.ms, ctx.signal);
  if (d !== undefined)
    return `ACCOUNT event delivered after PUT /customers: ${otherDomainEvent(d)} (delivery #${d.seq})`;
  return `no ACCOUNT event within ${bound.ms} ms of PUT /customers under ["ALL"] (bound: ${bound.why})`;
}

/** Rejections: a bad body is refused (any 4xx) and the configuration stays as it was. */
async function expectRefused(
  ctx: CheckContext,
  badBody: (receiverUrl: string) => { url: string; subscriptions: string[] },
  expected: string,
): Promise<void> {
  const receiver = receiverOf(ctx);
  const before = await currentConfig(ctx);
  // One webhook per client: where one exists the change would be a PUT, and a POST would be refused for that reason alone.
  const method = before.config === undefined ? 'POST' : 'PUT';
  const res = await configure(ctx, method, badBody(receiver.url));
  expectRejection(ctx, res, `${method} /webhooks: ${expected}`);
  const after = await currentConfig(ctx);
  if (!sameConfig(before.config, after.config)) {
    ctx.fail('the refused request changed the configuration', {
      expected: `the configuration stays ${show(before.config)}`,
      observed: `now ${show(after.config)}: ${describeResponse(after.res)}`,
      exchange: after.res.exchange,
    });
  }
  ctx.observe(`${method} /webhooks refused with ${res.status}; the configuration stayed ${show(before.config)}`);
  ctx.judged(`the answer of ${method} /webhooks and the configuration after it`);
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

/** Watches for an unwanted delivery until the bound; fails on one, and says what was watched otherwise. */
async function expectNone(ctx: CheckContext, st: SuiteState, u: Unwanted): Promise<string> {
  const receiver = receiverOf(ctx);
  const bound = negativeBound(st, receiver, Math.max(0, u.marker.arrivedAt - u.since));
  const found = await receiver.waitFor(u.violation, Math.max(0, u.since + bound.ms - Date.now()), ctx.signal);
  await receiver.settled();
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

/** Subscribed to the WEBHOOK domain only, a token issued and revoked meanwhile delivers no AUTH event. */
async function noAuthUnderWebhook(ctx: CheckContext, st: SuiteState): Promise<Scenario> {
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
  const late = await drain(ctx, st, (x) => namesEvent(x, 'AUTH.CREATED') || namesEvent(x, 'AUTH.DELETED'));
  const cursor = receiver.cursor();
  const issued = await issueToken(ctx);
  const revoke = await revokeQuietly(ctx, issued.token);
  const since = Date.parse((revoke ?? issued.res).exchange.startedAt);
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
  const seen = await expectNone(ctx, st, {
    subscribed: `WEBHOOK events only (["WEBHOOK"], then ${JSON.stringify(markerList)})`,
    what: 'AUTH.CREATED or AUTH.DELETED of a token issued and revoked meanwhile',
    since,
    marker,
    violation: (x) => x.seq > cursor && mine(x) && (namesEvent(x, 'AUTH.CREATED') || namesEvent(x, 'AUTH.DELETED')),
    trigger: revoke ?? issued.res,
  });
  return { judged: true, seen: `${seen}${late}` };
}

/** Subscribed to the exact name AUTH.CREATED, revoking a token delivers no AUTH.DELETED; the next token is the marker. */
async function noDeletedUnderCreated(ctx: CheckContext, st: SuiteState): Promise<Scenario> {
  const receiver = receiverOf(ctx);
  const list = ['AUTH.CREATED'];
  await subscribe(ctx, list);
  const kept = await stillSubscribed(ctx, ['AUTH.DELETED'], list);
  if (kept) return { judged: false, why: kept };
  const late = await drain(ctx, st, (x) => namesEvent(x, 'AUTH.DELETED'));
  const revoked = await issueToken(ctx);
  const cursor = receiver.cursor();
  const revoke = await revokeQuietly(ctx, revoked.token);
  if (revoke === undefined || !isSuccess(revoke)) {
    return {
      judged: false,
      why: `POST /oauth/revoke answered ${revoke ? describeResponse(revoke) : 'nothing'}, so no AUTH.DELETED is due under any list (the auth checks judge revocation)`,
    };
  }
  const since = Date.parse(revoke.exchange.startedAt);
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

/**
 * Moves the webhook to the receiver's second URL and judges the move; the caller moves it back. Returns the failure to
 * raise when no event came after the move at all, which is this check's only if the server emits that event.
 */
async function judgeMove(ctx: CheckContext, st: SuiteState, moved: string): Promise<(() => never) | undefined> {
  const receiver = receiverOf(ctx);
  const res = await configure(ctx, 'PUT', { url: moved, subscriptions: ['ALL'] });
  expectSuccess(
    ctx,
    res,
    `PUT /webhooks with the url ${moved} (the same receiver, another query) is accepted (a 2xx answer)`,
  );
  const answered = webhookOfResponse(res);
  if (answered !== undefined) ctx.observe(`PUT /webhooks answered with url ${JSON.stringify(answered.url)}`);
  const now = await currentConfig(ctx);
  if (now.config?.url !== moved) {
    ctx.fail('GET /webhooks does not show the new url', {
      expected: `url ${JSON.stringify(moved)} after PUT /webhooks with it ("update webhook details")`,
      observed: describeResponse(now.res),
      exchange: now.res.exchange,
    });
  }
  // Which url the update's own event goes to is not shown; the next event goes to the new one.
  const at = pathAndQuery(moved);
  const cursor = receiver.cursor();
  const issued = await issueToken(ctx);
  try {
    const mine = forToken(st, issued.tokenId);
    const awaited: Awaited = {
      what: `AUTH.CREATED (after the move to ${at})`,
      after: cursor,
      match: (x) => eventOf(x) === 'AUTH.CREATED' && mine(x),
      trigger: issued.res,
    };
    const d = await tryDelivery(ctx, st, awaited);
    if (d === undefined) return missing(ctx, awaited);
    await receiver.settled();
    const old = receiver.arrivals.find((x) => x.seq > cursor && awaited.match(x) && x.path !== at);
    const wrong = old ?? d;
    // Behind a proxy that rewrote the URL beyond reading back, where it was sent cannot be judged: a set-up problem.
    if (wrong.route?.kind === 'unmapped') ctx.setupProblem(receiver.diagnoseUnmapped(wrong));
    if (d.path !== at || old !== undefined) {
      const which = wrong.path === pathAndQuery(receiver.url) ? 'the old url' : 'a url the run never registered';
      ctx.fail(`the first event after the move was delivered to ${wrong.path}, ${which}, not ${at}`, {
        expected: `deliveries go to the new url ${moved} once GET /webhooks shows it`,
        observed: describeDelivery(wrong),
        exchange: res.exchange,
      });
    }
    ctx.observe(`moved to ${moved}: GET /webhooks shows it, and AUTH.CREATED delivery #${d.seq} came to ${d.path}`);
    ctx.judged(`the move to ${at}: GET /webhooks after it, and AUTH.CREATED delivery #${d.seq}`);
    return undefined;
  } finally {
    await revokeQuietly(ctx, issued.token);
  }
}

// ---- the delivery checks: which deliveries break which rule ------------------------------------------------------

/** The deliveries discarded for a rule `owner` judges, with the reasons of that rule alone. */
function withProblems(
  receiver: WebhookReceiver,
  owner: string,
  routed = false,
): Array<{ d: Delivery; reasons: string }> {
  return perRequest(receiver.arrivals).flatMap((d) => {
    // `routed`: a delivery whose URL cannot be read back (see unmapped) is not judged on its signature.
    const unjudged = routed && d.route?.kind === 'unmapped' ? ['signature'] : [];
    const mine = d.problems.filter((p) => PROBLEM_OWNERS[p.kind].ownedBy === owner && !unjudged.includes(p.kind));
    return mine.length > 0 ? [{ d, reasons: mine.map((p) => p.reason).join('; ') }] : [];
  });
}

/**
 * The deliveries of the run with a signature by the published key that verifies: what the coverage and window checks
 * judge. A skip when none arrived, or none is so signed (webhooks.delivery.verified judges that).
 */
async function signedDeliveries(ctx: CheckContext): Promise<Delivery[]> {
  const st = await stateOf(ctx);
  await fetchKey(ctx);
  const receiver = receiverOf(ctx);
  await receiver.settled();
  if (receiver.arrivals.length === 0) {
    reachable(ctx, st);
    ctx.skip(`no delivery reached the receiver (${silence(receiver)}); the event checks report it`);
  }
  const signed = perRequest(receiver.arrivals).filter(
    (d) => d.signedBy === 'published-key' && d.signature?.ok === true,
  );
  if (signed.length === 0)
    ctx.skip(
      `none of the ${receiver.arrivals.length} deliveries carries a signature by the published key that verifies: webhooks.delivery.verified judges that`,
    );
  return signed;
}

/** The windows the server's signatures chose (RFC 9421 leaves created and expires optional and sets no longest one). */
function windowsSeen(signed: readonly Delivery[]): string {
  const windows: number[] = [];
  let noExpires = 0;
  let noCreated = 0;
  for (const d of signed) {
    const { created, expires } = d.signature?.params ?? {};
    if (typeof expires !== 'number') noExpires++;
    if (typeof created !== 'number') noCreated++;
    if (typeof created === 'number' && typeof expires === 'number') windows.push(expires - created);
  }
  const parts: string[] = [];
  if (windows.length > 0)
    parts.push(
      `expires - created ${Math.min(...windows) === Math.max(...windows) ? `${windows[0]} s` : `${Math.min(...windows)} to ${Math.max(...windows)} s`} in ${windows.length}`,
    );
  if (noExpires > 0) parts.push(`no expires in ${noExpires}`);
  if (noCreated > 0) parts.push(`no created in ${noCreated}`);
  return `the windows the server chose (RFC 9421 leaves them to the signer): ${parts.join(', ')}`;
}

// ---- the checks ------------------------------------------------------------------------------------------------

// One configuration per client, saved by the first check and restored by the last, and one stream of deliveries.
export default defineSuite({
  name: 'webhooks',
  title: 'Webhooks: configuration, key, deliveries and their verification',
  uses: ['webhook-config'],
  ...lifecycle,
  checks: [
    defineCheck({
      id: 'webhooks.config.saved',
      title: "the client's webhook configuration is saved before the suite changes anything",
      level: 'INFO',
      requirements: ['REQ-WHKEP-08'],
      explain: {
        sends: "GET /webhooks, to save the client's configuration before the suite changes it",
        passes:
          "always, once the answer could be read: the check records the receiver's URL and TLS, and the configuration saved, or that there was none, or that it could not be read (the suite then changes nothing)",
        fails:
          'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning)',
      },
      async run(ctx) {
        const receiver = receiverOf(ctx);
        const st = await stateOf(ctx);
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
        // The answer of GET /webhooks, read; a request that got none (a transport failure) judged nothing.
        if (st.saved.kind !== 'unknown' || !st.saved.reason.startsWith('GET /webhooks failed'))
          ctx.judged('the answer of GET /webhooks before the suite');
      },
    }),
    defineCheck({
      id: 'webhooks.reject.http-url',
      title: 'a plain http webhook URL is refused and the configuration stays as it was',
      level: 'MUST',
      requirements: ['REQ-WHK-03'],
      explain: {
        sends:
          'POST /webhooks (PUT where a webhook exists) with the receiver\'s URL turned into http:// and subscriptions ["ALL"], then GET /webhooks',
        passes: 'the request is refused (any 4xx), and GET /webhooks shows the configuration as it was before',
        fails:
          'a 2xx or a 5xx, or a configuration changed by the refused request: the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        await expectRefused(
          ctx,
          (url) => {
            const http = new URL(url);
            http.protocol = 'http:';
            return { url: http.href, subscriptions: ['ALL'] };
          },
          'an http:// URL is not "a valid https URL" and is refused (any 4xx)',
        );
      },
    }),
    defineCheck({
      id: 'webhooks.reject.not-a-url',
      title: 'a webhook URL that is not a URL is refused and the configuration stays as it was',
      level: 'MUST',
      requirements: ['REQ-WHK-03'],
      explain: {
        sends:
          'POST /webhooks (PUT where a webhook exists) with url "not a url" and subscriptions ["ALL"], then GET /webhooks',
        passes: 'the request is refused (any 4xx), and GET /webhooks shows the configuration as it was before',
        fails:
          'a 2xx or a 5xx, or a configuration changed by the refused request: the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        await expectRefused(
          ctx,
          () => ({ url: 'not a url', subscriptions: ['ALL'] }),
          '"not a url" is not "a valid https URL" and is refused (any 4xx)',
        );
      },
    }),
    defineCheck({
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
          'a refusal, or a field of the Webhook with another type or a value outside its enum (the check fails); the report names the field and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
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
    }),
    defineCheck({
      id: 'webhooks.create.auto-subscription',
      title: 'a created webhook is subscribed to WEBHOOK.CREATED automatically',
      level: 'MUST',
      // The second client's token, when it creates a webhook (helpers/creation-records.ts), is revoked by whichever creation check runs first.
      uses: ['token-revocation'],
      requirements: ['REQ-EVT-09'],
      explain: {
        sends:
          'the receiver\'s https URL created with subscriptions ["ALL"] by POST /webhooks, then GET /webhooks; where the client has a webhook already, the creation an earlier run recorded, or else the same requests as the second client of targets.NAME.webhookClient (suites/webhooks/creation.ts)',
        passes:
          'the subscriptions GET /webhooks shows after the creation contain WEBHOOK.CREATED (what the answer of POST lists is recorded, since its body is not shown); or the record of an earlier run that saw so, on the webhook the client still has, carried forward and said to be',
        fails:
          'subscriptions without WEBHOOK.CREATED, or a POST /webhooks of the second client refused (the check fails), now or in the run whose record is carried forward; the report shows the exchange; skipped when GET /webhooks shows no subscriptions (webhooks.config.get judges that), and with a set-up problem naming what to ask the provider for when no creation can be observed or carried forward; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
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
    }),
    defineCheck({
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
          'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        await register(ctx);
        const st = await stateOf(ctx);
        const receiver = receiverOf(ctx);
        const res = await ctx.send({ method: 'GET', path: '/webhooks' });
        expectSuccess(ctx, res, 'the configuration (a 2xx answer)');
        const w = webhookOfResponse(res);
        if (w === undefined)
          return ctx.fail('the answer carries no Webhook', {
            expected: 'the configuration: a Webhook with its url and subscriptions, in data or bare',
            observed: describeResponse(res),
            exchange: res.exchange,
          });
        expectSchema(ctx, res, w, 'webhook', { path: locateWebhook(res)?.path ?? '', table: 'Webhook' });
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
    }),
    defineCheck({
      id: 'webhooks.config.fields',
      title: 'GET /webhooks answers the configuration with every field of the Webhook table',
      level: 'SHOULD',
      requirements: ['REQ-WHKEP-11'],
      explain: {
        sends:
          'GET /webhooks, after the receiver\'s https URL registered with subscriptions ["ALL"]: POST /webhooks, or PUT where a webhook existed before the suite',
        passes: `the Webhook it answers carries each of ${WEBHOOK_TABLE.join(', ')} (the table has no Required column, hence SHOULD; their types are webhooks.config.get's)`,
        fails:
          'a field of the table left out: the check warns, naming it; skipped when the answer carries no Webhook (webhooks.config.get judges that); no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        await register(ctx);
        const res = await ctx.send({ method: 'GET', path: '/webhooks' });
        const w = isSuccess(res) ? webhookOfResponse(res) : undefined;
        if (w === undefined)
          return ctx.skip(
            `GET /webhooks answered ${describeResponse(res)}, with no Webhook: webhooks.config.get judges the configuration`,
          );
        const missing = WEBHOOK_TABLE.filter((f) => !(f in w));
        if (missing.length > 0)
          ctx.fail(`the configuration leaves out ${missing.join(', ')}`, {
            expected: `GET /webhooks answers the Webhook with every field of its table: ${WEBHOOK_TABLE.join(', ')}`,
            observed: describeResponse(res),
            exchange: res.exchange,
          });
        ctx.observe(`GET /webhooks answers every field of the Webhook table: ${WEBHOOK_TABLE.join(', ')}`);
        ctx.judged('the Webhook GET /webhooks answered');
      },
    }),
    defineCheck({
      id: 'webhooks.key.published',
      title: 'GET /webhooks/key gives an Ed25519 public key, and the deliveries verify under it',
      level: 'MUST',
      requirements: ['REQ-SVC-06', 'REQ-WHKEP-05', 'REQ-EVT-14'],
      explain: {
        sends:
          'GET /webhooks/key, after the receiver\'s https URL registered with subscriptions ["ALL"]: POST /webhooks, or PUT where a webhook existed before the suite; the receiver waits for the registration\'s delivery',
        passes:
          "the answer holds an Ed25519 public key (PEM, JWK or 32 raw bytes), and the registration's delivery is signed by it",
        fails:
          'no key in the answer, or a delivery signed by another key: the check fails; skipped when no delivery arrives; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const reg = await register(ctx);
        const st = await stateOf(ctx);
        const key = await fetchKey(ctx);
        if (key === undefined) {
          return ctx.fail(st.keyProblem ?? 'no key', {
            expected: 'an Ed25519 public key (PEM, JWK or raw 32 bytes) in the answer of GET /webhooks/key',
            observed: st.keyRes ? describeResponse(st.keyRes) : (st.keyProblem ?? ''),
            ...(st.keyRes ? { exchange: st.keyRes.exchange } : {}),
          });
        }
        ctx.observe(`key: ${describeKeyForm(key)}`);
        const receiver = receiverOf(ctx);
        const trigger = st.keyRes ?? reg.res;
        // The registration's own event (WEBHOOK.CREATED, or WEBHOOK.UPDATED for a PUT under ["ALL"]) is what the key must verify.
        const ofSecond = ofSecondClient(ctx, st);
        const d = await awaitNeeded(ctx, st, (x) => x.seq > reg.cursor && !ofSecond(x), receiver.deadlineMs);
        if (d === undefined) {
          await reachableAfterWait(ctx, st);
          return ctx.skip(
            `no delivery arrived to verify the key with (${silence(receiver)}); the event checks report it`,
          );
        }
        await receiver.settled();
        if (d.route?.kind === 'unmapped') ctx.setupProblem(receiver.diagnoseUnmapped(d));
        // This check judges the key alone: which key signed. Coverage, times and the digest are delivery.verified's.
        if (d.signedBy === 'other-key') {
          ctx.fail(
            `a delivery does not verify under the published key: ${d.signature?.reason ?? 'another key signed it'}`,
            {
              expected: 'the deliveries are signed by the key that GET /webhooks/key publishes',
              observed: describeDelivery(d),
              exchange: trigger.exchange,
            },
          );
        }
        alsoSeeDiscarded(ctx, d, `delivery #${d.seq}`);
        if (d.signedBy === 'unsigned')
          return ctx.skip(
            `delivery #${d.seq} carries no signature that can be read (${d.signature?.reason ?? 'none'}), so nothing shows which key signed it; webhooks.delivery.verified judges the delivery`,
          );
        if (d.signature?.keyId !== undefined)
          ctx.observe(
            `deliveries are signed with keyid ${JSON.stringify(d.signature.keyId)}${key.keyId !== undefined ? (key.keyId === d.signature.keyId ? ', the key id published with the key' : `, not the published key id ${JSON.stringify(key.keyId)}`) : ''}`,
          );
        ctx.judged(`the published key, over delivery #${d.seq}`);
      },
    }),
    defineCheck({
      id: 'webhooks.events.webhook-created',
      title: 'creating the webhook delivers a WEBHOOK.CREATED message',
      level: 'MUST',
      uses: ['token-revocation'],
      requirements: ['REQ-WHKEP-02', 'REQ-EVT-01', 'REQ-EVT-09', 'REQ-EVT-12'],
      explain: {
        sends:
          'the receiver\'s https URL created with subscriptions ["ALL"] by POST /webhooks; where the client has a webhook already, the creation an earlier run recorded, or else the same request as the second client of targets.NAME.webhookClient (suites/webhooks/creation.ts)',
        passes:
          'a WEBHOOK.CREATED delivery reaches the receiver within its deadline; or the record of an earlier run that saw one, on the webhook the client still has, carried forward and said to be',
        fails:
          "no such delivery within the receiver's deadline (the report says what arrived instead), now or in the run whose record is carried forward: the check fails, unless nothing ever reached the receiver (then it is skipped with the run's set-up problem); skipped with a set-up problem naming what to ask the provider for when no creation can be observed or carried forward; no usable answer (refused, reset, timed out, a body over the cap) fails it too",
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
    }),
    defineCheck({
      id: 'webhooks.test.accepted',
      title: 'POST /webhooks/test, the test endpoint, answers 2xx',
      level: 'MUST',
      requirements: ['REQ-WHKEP-07'],
      explain: {
        sends: 'POST /webhooks/test, the webhook subscribed to ["ALL"]',
        passes: 'a 2xx answer to POST /webhooks/test',
        fails:
          'any other status: the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
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
    }),
    defineCheck({
      id: 'webhooks.events.test',
      title: 'POST /webhooks/test delivers a message to the webhook',
      level: 'SHOULD',
      requirements: ['REQ-WHKEP-06'],
      explain: {
        sends: 'POST /webhooks/test, the webhook subscribed to ["ALL"]',
        passes:
          'a delivery that is none of the events the spec names (the test message) reaches the receiver within its deadline',
        fails:
          "no such delivery within the receiver's deadline (the report says what arrived instead): the check warns, unless nothing ever reached the receiver (then it is skipped with the run's set-up problem); no usable answer (refused, reset, timed out, a body over the cap) fails it too; skipped when POST /webhooks/test was not accepted",
      },
      async run(ctx) {
        const st = await stateOf(ctx);
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
    }),
    defineCheck({
      id: 'webhooks.events.auth-created',
      title: 'issuing a token delivers an AUTH.CREATED message',
      level: 'MUST',
      requirements: ['REQ-LIFE-01', 'REQ-EVT-01', 'REQ-EVT-06', 'REQ-EVT-12'],
      explain: {
        sends:
          'a token request (POST /oauth/token), the webhook subscribed to ["ALL"]; the token is revoked afterwards',
        passes: 'an AUTH.CREATED delivery for that token reaches the receiver within its deadline',
        fails:
          "no such delivery within the receiver's deadline (the report says what arrived instead): the check fails, unless nothing ever reached the receiver (then it is skipped with the run's set-up problem); no usable answer (refused, reset, timed out, a body over the cap) fails it too",
      },
      async run(ctx) {
        await fetchKey(ctx);
        await subscribe(ctx, ['ALL']);
        await authEvent(ctx, 'AUTH.CREATED');
      },
    }),
    defineCheck({
      id: 'webhooks.events.auth-deleted',
      title: 'revoking a token delivers an AUTH.DELETED message',
      level: 'MUST',
      uses: ['token-revocation'],
      requirements: ['REQ-LIFE-02', 'REQ-EVT-07', 'REQ-EVT-12'],
      explain: {
        sends: 'a token request, then POST /oauth/revoke of that token, the webhook subscribed to ["ALL"]',
        passes: 'an AUTH.DELETED delivery for that token reaches the receiver within its deadline',
        fails:
          "no such delivery within the receiver's deadline (the report says what arrived instead): the check fails, unless nothing ever reached the receiver (then it is skipped with the run's set-up problem); no usable answer (refused, reset, timed out, a body over the cap) fails it too",
      },
      async run(ctx) {
        await fetchKey(ctx);
        await subscribe(ctx, ['ALL']);
        await authEvent(ctx, 'AUTH.DELETED');
      },
    }),
    defineCheck({
      id: 'webhooks.events.webhook-updated',
      title: 'updating the webhook delivers a WEBHOOK.UPDATED message',
      level: 'MUST',
      requirements: ['REQ-EVT-10', 'REQ-EVT-12'],
      explain: {
        sends: 'PUT /webhooks with the receiver\'s URL and subscriptions ["ALL"]',
        passes: 'a WEBHOOK.UPDATED delivery reaches the receiver within its deadline',
        fails:
          "no such delivery within the receiver's deadline (the report says what arrived instead): the check fails, unless nothing ever reached the receiver (then it is skipped with the run's set-up problem); no usable answer (refused, reset, timed out, a body over the cap) fails it too",
      },
      async run(ctx) {
        const st = await stateOf(ctx);
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
    }),
    defineCheck({
      id: 'webhooks.update.replaces',
      title: 'PUT /webhooks with a new subscription list replaces the earlier list',
      level: 'MUST',
      requirements: ['REQ-WHKEP-03', 'REQ-EVT-13'],
      explain: {
        sends: 'PUT /webhooks with subscriptions ["AUTH"], then with ["WEBHOOK"], then GET /webhooks',
        passes:
          'GET /webhooks then shows ["WEBHOOK"] (WEBHOOK.CREATED may be listed too), nothing of AUTH or ALL; what the PUT answers is recorded (its body is not shown)',
        fails:
          'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        await register(ctx);
        await put(ctx, ['AUTH']);
        const res = await put(ctx, ['WEBHOOK']);
        const judge = (subs: string[], r: HttpResponse, where: string) => {
          const kept = subs.filter((s) => s === 'ALL' || AUTH_NAMES.includes(s));
          const has = subs.includes('WEBHOOK') || ['WEBHOOK.CREATED', 'WEBHOOK.UPDATED'].every((s) => subs.includes(s));
          if (kept.length > 0 || !has) {
            ctx.fail(
              `${where}: subscriptions ${JSON.stringify(subs)} ${kept.length > 0 ? `still hold ${JSON.stringify(kept)} from the earlier lists` : 'lack WEBHOOK'}`,
              {
                expected: `after PUT ["AUTH"] then PUT ["WEBHOOK"], the subscriptions are ["WEBHOOK"] (${AUTOMATIC}, the automatic subscription, may be listed too)`,
                observed: describeResponse(r),
                exchange: r.exchange,
              },
            );
          }
        };
        // The answer's body is not shown (REQ-WHKEP-08): what it lists is recorded; GET /webhooks is the configuration.
        const answered = webhookOfResponse(res);
        if (answered && Array.isArray(answered.subscriptions))
          ctx.observe(`the PUT answer lists ${JSON.stringify(configOf(answered).subscriptions)}`);
        const now = await currentConfig(ctx);
        if (now.config === undefined)
          return ctx.fail('GET /webhooks shows no webhook after the update', {
            expected: 'the updated configuration',
            observed: describeResponse(now.res),
            exchange: now.res.exchange,
          });
        judge(now.config.subscriptions, now.res, 'GET /webhooks');
        ctx.observe(`subscriptions after the update: ${JSON.stringify(now.config.subscriptions)}`);
        ctx.judged('the subscriptions GET /webhooks shows after the two updates');
      },
    }),
    defineCheck({
      id: 'webhooks.update.url',
      title:
        'PUT /webhooks with a new url moves the webhook: GET /webhooks shows it and the next event is delivered there',
      level: 'MUST',
      uses: ['token-revocation'],
      requirements: ['REQ-WHKEP-03'],
      explain: {
        sends:
          'PUT /webhooks moving the webhook to a second URL of the receiver, GET /webhooks, a token request whose AUTH.CREATED is awaited, then PUT /webhooks back to the first URL',
        passes: 'GET /webhooks shows the new URL, and the AUTH.CREATED delivery comes to it',
        fails:
          'the new URL not shown, the event delivered to the old URL or not at all, or the move back refused: the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const st = await stateOf(ctx);
        await fetchKey(ctx);
        await subscribe(ctx, ['ALL']);
        const receiver = receiverOf(ctx);
        let failure: unknown;
        let nothingCame: (() => never) | undefined;
        try {
          nothingCame = await judgeMove(ctx, st, receiver.alternateUrl);
        } catch (e) {
          failure = e;
        }
        // Back to the receiver's first URL whatever happened, so the checks after this one see the configuration they expect.
        const back = await configure(ctx, 'PUT', { url: receiver.url, subscriptions: ['ALL'] });
        if (!isSuccess(back)) {
          st.registrationProblem = `PUT /webhooks could not move the webhook back to ${receiver.url}: ${describeResponse(back)}`;
          if (failure === undefined)
            ctx.fail(`PUT /webhooks with the url ${receiver.url} answered ${back.status}`, {
              expected: 'the webhook is moved back (a 2xx answer)',
              observed: describeResponse(back),
              exchange: back.exchange,
            });
          ctx.observe(`moving the webhook back to ${receiver.url} failed too: ${describeResponse(back)}`);
        }
        if (failure !== undefined) throw failure;
        if (nothingCame !== undefined) {
          await expectEmitted(ctx, st, 'AUTH.CREATED', 'no AUTH.CREATED delivery after the move, at either path');
          nothingCame();
        }
      },
    }),
    defineCheck({
      id: 'webhooks.subscriptions.names',
      title:
        'every subscription name of the Events table, and ALL and ACCOUNT, is accepted by PUT /webhooks and listed by GET /webhooks',
      level: 'MUST',
      requirements: ['REQ-WHK-04', 'REQ-EVT-03', 'REQ-EVT-05', 'REQ-EVT-07', 'REQ-EVT-08', 'REQ-EVT-10', 'REQ-EVT-11'],
      explain: {
        sends: `PUT /webhooks with each of ${SUBSCRIPTION_NAMES.join(', ')} alone, each followed by GET /webhooks`,
        passes: 'each PUT is accepted (2xx), and GET /webhooks then lists the name (WEBHOOK.CREATED may be added)',
        fails:
          'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const st = await stateOf(ctx);
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
    }),
    defineCheck({
      id: 'webhooks.info.unknown-subscription',
      title:
        'what the server does with a subscription name no table lists: refused, accepted and ignored, or accepted and kept',
      level: 'INFO',
      requirements: ['REQ-EVT-04'],
      explain: {
        sends: `PUT /webhooks with the receiver's URL and subscriptions ["ALL", "${UNKNOWN_SUBSCRIPTION}"], then GET /webhooks`,
        passes:
          'always, once the answer could be read: the check records whether the unknown name was refused (any 4xx), accepted and left out of the list GET /webhooks shows, or accepted and listed (the Events table\'s domain is open: "Event kinds of other domains …: not shown")',
        fails:
          'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning)',
      },
      async run(ctx) {
        const st = await stateOf(ctx);
        await register(ctx);
        const before = await currentConfig(ctx);
        const list = ['ALL', UNKNOWN_SUBSCRIPTION];
        const res = await configure(ctx, 'PUT', { url: receiverOf(ctx).url, subscriptions: list });
        // Whatever the server made of it, the next check sets its own list afresh.
        st.subscriptions = undefined;
        const after = await currentConfig(ctx);
        const sent = `PUT /webhooks with subscriptions ${JSON.stringify(list)}`;
        ctx.judged(`the answer of ${sent}, and GET /webhooks after it`);
        if (!isSuccess(res)) {
          ctx.observe(
            `an unknown name refused: ${sent} answered ${describeResponse(res)}; the configuration ${sameConfig(before.config, after.config) ? 'stayed' : 'is now'} ${show(after.config)} (REQ-EVT-04)`,
          );
          return;
        }
        const shown = after.config?.subscriptions;
        if (after.config === undefined)
          ctx.observe(
            `${sent} was accepted (${res.status}), and GET /webhooks shows no webhook: whether the unknown name was kept cannot be read (REQ-EVT-04)`,
          );
        else if (shown!.includes(UNKNOWN_SUBSCRIPTION))
          ctx.observe(
            `an unknown name accepted and kept: ${sent} answered ${res.status}, and GET /webhooks lists ${JSON.stringify(shown)} (REQ-EVT-04)`,
          );
        else
          ctx.observe(
            `an unknown name accepted and ignored: ${sent} answered ${res.status}, and GET /webhooks lists ${JSON.stringify(shown)}, without it (REQ-EVT-04)`,
          );
      },
    }),
    defineCheck({
      id: 'webhooks.subscriptions.exact',
      title: 'subscribed to the exact name AUTH.CREATED only, issuing a token delivers an AUTH.CREATED message',
      level: 'MUST',
      uses: ['token-revocation'],
      requirements: ['REQ-EVT-01', 'REQ-EVT-06'],
      explain: {
        sends: 'PUT /webhooks with subscriptions ["AUTH.CREATED"], then a token request (revoked afterwards)',
        passes: 'an AUTH.CREATED delivery for that token reaches the receiver within its deadline',
        fails:
          "no such delivery within the receiver's deadline (the report says what arrived instead): the check fails, unless nothing ever reached the receiver (then it is skipped with the run's set-up problem); no usable answer (refused, reset, timed out, a body over the cap) fails it too",
      },
      async run(ctx) {
        await fetchKey(ctx);
        await subscribe(ctx, ['AUTH.CREATED']);
        await authEvent(ctx, 'AUTH.CREATED', { what: 'AUTH.CREATED (subscribed to ["AUTH.CREATED"])' });
      },
    }),
    defineCheck({
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
          "no such delivery within the receiver's deadline (the report says what arrived instead): the check fails, unless nothing ever reached the receiver (then it is skipped with the run's set-up problem); no usable answer (refused, reset, timed out, a body over the cap) fails it too",
      },
      async run(ctx) {
        const st = await stateOf(ctx);
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
    }),
    defineCheck({
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
          'an event the subscriptions do not select is delivered: the check warns; a scenario whose marker never arrives is not judged (the check is skipped, naming it); no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const st = await stateOf(ctx);
        await fetchKey(ctx);
        const scenarios = [await noAuthUnderWebhook(ctx, st), await noDeletedUnderCreated(ctx, st)];
        for (const s of scenarios)
          if (s.judged) {
            ctx.observe(s.seen);
            ctx.judged('a watch for a delivery the subscriptions do not select');
          }
        const open = scenarios.filter((s): s is Extract<Scenario, { judged: false }> => !s.judged);
        if (open.length > 0) ctx.skip(`not judged: ${open.map((s) => s.why).join('; ')}`);
      },
    }),
    defineCheck({
      id: 'webhooks.delivery.json',
      title: 'every delivery of the run carries a JSON payload',
      level: 'MUST',
      requirements: ['REQ-EVT-01'],
      explain: {
        sends: 'nothing of its own: it reads every delivery the receiver got during the run',
        passes: 'every delivery body is JSON, under any media type (application/json, application/cloudevents+json…)',
        fails: 'a delivery whose body is not JSON: the check fails; skipped when no delivery arrived',
      },
      async run(ctx) {
        const receiver = receiverOf(ctx);
        await receiver.settled();
        // The body is the request's: a batch is judged once.
        const all = perRequest(receiver.arrivals);
        if (all.length === 0) {
          reachable(ctx, await stateOf(ctx));
          ctx.skip(`no delivery reached the receiver (${silence(receiver)}); the event checks report it`);
        }
        const types = [...new Set(all.map((d) => headerValue(d.headers, 'content-type') ?? '(no Content-Type)'))];
        const other = all.filter((d) => !d.json);
        const { registration } = await stateOf(ctx);
        if (other.length > 0) {
          ctx.fail(
            `${other.length} of ${all.length} deliveries are not JSON (Content-Type ${JSON.stringify(headerValue(other[0]!.headers, 'content-type') ?? null)})`,
            {
              expected: 'each delivery\'s body is "a JSON payload"',
              observed: describeDelivery(other[0]!),
              ...(registration ? { exchange: registration.res.exchange } : {}),
            },
          );
        }
        ctx.observe(`${all.length} deliveries, every body JSON; Content-Type ${types.join(', ')}`);
        ctx.judged('a delivery request', all.length);
      },
    }),
    defineCheck({
      id: 'webhooks.delivery.verified',
      title:
        'every delivery of the run carries a Content-Digest matching its body and a signature by the published key that verifies',
      level: 'MUST',
      requirements: ['REQ-EVT-14'],
      explain: {
        sends:
          'nothing of its own: it reads every delivery the receiver got during the run (the key comes from GET /webhooks/key)',
        passes:
          "every delivery carries a Content-Digest (sha-512 or sha-256) matching its body, and an RFC 9421 Ed25519 signature (any label, parameters and component order) by the key of GET /webhooks/key that verifies over the components it lists; whether it covers the digest and holds its window are webhooks.delivery.digest-covered's and webhooks.delivery.in-window's",
        fails:
          "a delivery whose digest or signature does not verify (the report gives the reason), or one over the receiver's size cap: the check fails; skipped when no delivery arrived",
      },
      async run(ctx) {
        const st = await stateOf(ctx);
        await fetchKey(ctx);
        const receiver = receiverOf(ctx);
        await receiver.settled();
        const c = receiver.counts;
        if (c.received === 0 && c.oversized === 0) {
          reachable(ctx, st);
          ctx.skip(`no delivery reached the receiver (${silence(receiver)}); the event checks report it`);
        }
        // A delivery a proxy rewrote beyond reading back: its signature cannot be judged (see unmapped), only its digest.
        const unmapped = perRequest(receiver.arrivals).filter((d) => d.route?.kind === 'unmapped');
        const rejected = withProblems(receiver, VERIFIED_OWNER, true);
        if (rejected.length === 0 && unmapped.length === c.received && unmapped.length > 0)
          ctx.setupProblem(receiver.diagnoseUnmapped(unmapped[0]!));
        if (unmapped.length > 0)
          ctx.observe(
            `${unmapped.length} of ${c.received} deliveries arrived where the run cannot read back which URL they were sent to, so their signatures are not judged: ${receiver.diagnoseUnmapped(unmapped[0]!).problem}`,
          );
        if (rejected.length > 0) {
          const reasons = [...new Set(rejected.map((r) => r.reasons))].slice(0, 3).join(' | ');
          ctx.fail(`${rejected.length} of ${c.received} deliveries do not verify and were discarded: ${reasons}`, {
            expected:
              'every delivery: a Content-Digest of the body; an Ed25519 signature by the key of GET /webhooks/key that verifies over the components it lists',
            observed: describeDelivery(rejected[0]!.d),
            ...(st.registration ? { exchange: st.registration.res.exchange } : {}),
          });
        }
        if (c.oversized > 0)
          ctx.fail(`${c.oversized} deliveries had a body over the receiver's cap and could not be verified`, {
            expected: 'deliveries of a reasonable size',
            observed: silence(receiver),
          });
        const unread = unmapped.filter((d) => d.state === 'rejected').length;
        const others = Math.max(0, c.rejected - rejected.length - unread);
        ctx.observe(
          `${c.received - rejected.length - unread} of ${c.received} deliveries carry a matching digest and a signature by the published key${others > 0 ? ` (${others} of them discarded for another rule: webhooks.delivery.digest-covered and webhooks.delivery.in-window judge it)` : ''}${c.dropped ? `; ${c.dropped} more were answered but not kept (flood cap)` : ''}`,
        );
        ctx.judged('a delivery, its digest and signature', c.received);
      },
    }),
    defineCheck({
      id: 'webhooks.delivery.digest-covered',
      title: "every delivery's signature covers its Content-Digest, binding the body to the signature",
      level: 'SHOULD',
      requirements: ['REQ-EVT-19'],
      explain: {
        sends: 'nothing of its own: it reads every delivery of the run whose signature by the published key verifies',
        passes: 'each such signature lists content-digest among its components',
        fails:
          'a signature that leaves content-digest out, so the digest proves nothing about the body that was signed: the check warns; skipped when no delivery carries a signature by the published key (webhooks.delivery.verified judges that)',
      },
      async run(ctx) {
        const signed = await signedDeliveries(ctx);
        const uncovered = withProblems(receiverOf(ctx), COVERED_OWNER);
        if (uncovered.length > 0) {
          const st = await stateOf(ctx);
          const { d } = uncovered[0]!;
          ctx.fail(
            `${uncovered.length} of ${signed.length} signed deliveries have a signature that does not cover content-digest (covering ${JSON.stringify(d.signature?.components ?? [])})`,
            {
              expected:
                "each delivery's signature covers content-digest, so that the digest binds the body to the signature (RFC 9530 §6.3, RFC 9421 §7.2.8)",
              observed: describeDelivery(d),
              ...(st.registration ? { exchange: st.registration.res.exchange } : {}),
            },
          );
        }
        ctx.observe(`${signed.length} signed deliveries, each signature covering content-digest`);
        ctx.judged("a signed delivery's covered components", signed.length);
      },
    }),
    defineCheck({
      id: 'webhooks.delivery.in-window',
      title: "every delivery's signature is valid when it arrives: not expired, not created in the future",
      level: 'SHOULD',
      requirements: ['REQ-AUTH-09'],
      explain: {
        sends: 'nothing of its own: it reads every delivery of the run whose signature by the published key verifies',
        passes:
          "each such signature's expires (when it has one) is not past, and its created (when it has one) not in the future, when the delivery arrives, within 60 s of clock skew; the window itself is the server's choice (no expires, or a long one, is accepted) and is recorded",
        fails:
          'a signature that had expired before its delivery arrived, or was created in the future (a clock behind or ahead): a verifier discards it (RFC 9421 §3.2.1), and the check warns; skipped when no delivery carries a signature by the published key (webhooks.delivery.verified judges that)',
      },
      async run(ctx) {
        const signed = await signedDeliveries(ctx);
        const stale = withProblems(receiverOf(ctx), WINDOW_OWNER);
        if (stale.length > 0) {
          const st = await stateOf(ctx);
          ctx.fail(
            `${stale.length} of ${signed.length} signed deliveries arrived outside their signature's window: ${[...new Set(stale.map((x) => x.reasons))].slice(0, 3).join(' | ')}`,
            {
              expected:
                "each delivery arrives while its signature is valid: expires not past, created not in the future (60 s of clock skew tolerated), as a verifier judges it (RFC 9421 §3.2.1); the window's length is the server's",
              observed: describeDelivery(stale[0]!.d),
              ...(st.registration ? { exchange: st.registration.res.exchange } : {}),
            },
          );
        }
        ctx.observe(`${signed.length} signed deliveries, each arriving within its window; ${windowsSeen(signed)}`);
        ctx.judged("a signed delivery's window", signed.length);
      },
    }),
    defineCheck({
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
        fails:
          'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning)',
      },
      async run(ctx) {
        const st = await stateOf(ctx);
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
    }),
    defineCheck({
      id: 'webhooks.delivery.observed',
      title: 'what the deliveries looked like: latency, retries, payload fields, headers',
      level: 'INFO',
      requirements: ['REQ-EVT-15', 'REQ-EVT-17', 'REQ-EVT-18'],
      explain: {
        sends: 'nothing of its own: it reads the deliveries of the run',
        passes:
          "always, once the answer could be read: the check records delivery latency, retries (repeated bodies), the events and payload fields, requests that bundle several events (batches), the header names, the key's format and whether it changed, and events of other domains",
        fails:
          'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning)',
      },
      async run(ctx) {
        const st = await stateOf(ctx);
        const receiver = receiverOf(ctx);
        const all = receiver.arrivals;
        if (all.length === 0) {
          reachable(ctx, st);
          ctx.skip(`no delivery reached the receiver (${silence(receiver)})`);
        }
        const lat = [...st.latencies].sort((a, b) => a - b);
        if (lat.length > 0)
          ctx.observe(
            `latency from the request to the delivery: p50 ${lat[Math.floor((lat.length - 1) / 2)]} ms, max ${lat[lat.length - 1]} ms (${lat.length} measured)`,
          );
        // Bodies are the requests': the events of one batch share theirs.
        const requests = perRequest(all);
        const bodies = new Map<string, number>();
        for (const d of requests)
          bodies.set(d.body.toString('base64'), (bodies.get(d.body.toString('base64')) ?? 0) + 1);
        const repeats = [...bodies.values()].reduce((n, k) => n + k - 1, 0);
        ctx.observe(
          `${requests.length} deliveries; ${repeats === 0 ? 'no repeated body (no retry seen)' : `${repeats} repeated a body already delivered (retries)`}`,
        );
        ctx.judged('a delivery', all.length);
        const batches = batchesSeen(all);
        if (batches !== undefined) ctx.observe(`several events in one request (REQ-EVT-15): ${batches}`);
        const events = new Map<string, number>();
        const label = (d: Delivery) => eventOf(d) ?? '(none of the named events)';
        for (const d of all) events.set(label(d), (events.get(label(d)) ?? 0) + 1);
        ctx.observe(`events: ${[...events].map(([e, n]) => `${e} ×${n}`).join(', ')}`);
        ctx.observe(
          `event name carried at ${eventPlaces(all) || '(not found)'} (REQ-EVT-15, REQ-EVT-18: not shown); payload fields ${JSON.stringify([...new Set(all.flatMap((d) => topLevelFields(d.payload)))])}`,
        );
        const ambiguous = all.filter((d) => d.event.ambiguity !== undefined);
        if (ambiguous.length > 0)
          ctx.observe(
            `${ambiguous.length} deliver${ambiguous.length === 1 ? 'y names' : 'ies name'} more than one event; first, #${ambiguous[0]!.seq}: ${ambiguous[0]!.event.ambiguity}`,
          );
        ctx.observe(
          `header names: ${[...new Set(requests.flatMap((d) => d.headers.map(([n]) => n.toLowerCase())))].sort().join(', ')}`,
        );
        // The format of the public key is not shown (REQ-WHKEP-08): the one the server took, on record.
        if (st.key) ctx.observe(`public key (its format is not shown): ${describeKeyForm(st.key)}`);
        if (st.keyChanges.length > 0)
          ctx.observe(
            `the published key changed ${st.keyChanges.length} time(s) during the run; first: ${st.keyChanges[0]}`,
          );
        else if (st.key !== undefined)
          ctx.observe(
            'the published key did not change across the configurations of the run: generated once (REQ-WHKEP-05 allows either)',
          );
        const others = [...new Set(all.map(otherDomainEvent).filter((e): e is string => e !== undefined))];
        if (others.length > 0)
          ctx.observe(`events of other domains delivered: ${others.join(', ')} (REQ-EVT-16: not shown)`);
        const c = receiver.counts;
        if (c.tlsFailures || c.stray || c.oversized || c.dropped)
          ctx.observe(
            `${c.tlsFailures} failed TLS handshakes, ${c.stray} stray requests, ${c.oversized} oversized bodies, ${c.dropped} deliveries over the flood cap`,
          );
      },
    }),
    defineCheck({
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
        const st = await stateOf(ctx);
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
    }),
  ],
});
