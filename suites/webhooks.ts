// Suite `webhooks`: configuration, the published key, deliveries and their verification (spec "Webhook", "Webhooks",
// "Events", "Authentication" 8). Deliveries arrive at the run's receiver (src/receiver/), which verifies each one.
//
// The checks share one state per run: the client's configuration as it was before the suite (saved by whichever check
// runs first, restored by the last), the receiver's registration and the published key. Checks run in declaration order,
// one at a time (the suite shares `webhook-config`: other suites' checks run alongside, and only a check that changes the
// configuration waits for it);
// each sets up what it needs itself, so a --grep selection still works.
import { defineCheck, defineSuite } from '../src/runner/check.js';
import type { CheckContext } from '../src/runner/context.js';
import type { Session } from '../src/runner/session.js';
import { tokenRecordOf } from '../src/runner/session.js';
import { describeResponse, expectRejection, expectSchema, expectSuccess } from '../src/runner/expect.js';
import type { HttpResponse } from '../src/http/client.js';
import { TransportError } from '../src/http/client.js';
import { parseJson } from '../src/http/json.js';
import { describeDelivery, type Delivery, type WebhookReceiver } from '../src/receiver/receiver.js';
import { describeKeyForm, findWebhookKey, type FoundKey } from '../src/receiver/webhook-key.js';
import { containsValue, eventNameOf, KNOWN_EVENTS, topLevelFields, valuesNamed } from '../src/receiver/payload.js';

const AUTOMATIC = 'WEBHOOK.CREATED';
const AUTH_NAMES = ['AUTH', 'AUTH.CREATED', 'AUTH.DELETED'];
const LEFTOVER = 'webhook configuration';


// ---- the suite's state -----------------------------------------------------------------------------------------

/** A webhook configuration as read from the server: enough to compare, report and restore it. */
interface Config {
  url: unknown;
  subscriptions: string[];
  status: unknown;
  webhookId: unknown;
}

type Saved = { kind: 'none'; how: string } | { kind: 'webhook'; config: Config } | { kind: 'unknown'; reason: string };

interface Registration {
  via: 'POST' | 'PUT';
  res: HttpResponse;
  /** The receiver's cursor before the registering request: its WEBHOOK.CREATED/UPDATED comes after it. */
  cursor: number;
  /** The Webhook the answer carries, if it carries one. */
  webhook: Record<string, unknown> | undefined;
}

interface SuiteState {
  saved: Saved;
  /** Whether the suite sent a request that changes (or, on a faulty server, may change) the configuration. */
  changed: boolean;
  registration?: Registration;
  registrationProblem?: string;
  key?: FoundKey;
  keyProblem?: string;
  /** The list last set successfully, to skip a PUT that would change nothing. */
  subscriptions?: string[];
  /** Token ids of the tokens the suite issued, to tell their AUTH deliveries apart. */
  tokenIds: Set<string>;
  /** Set when a wait ended with nothing ever received: later waits fail at once instead of waiting again. */
  silentSince?: number;
  /** Delivery latencies (ms) from the request that caused the event. */
  latencies: number[];
}

const states = new WeakMap<Session, Promise<SuiteState>>();

function receiverOf(ctx: CheckContext): WebhookReceiver {
  return ctx.receiver ?? ctx.skip('this run has no webhook receiver');
}

/** The state of this run; the first call saves the client's configuration (GET /webhooks) before anything changes it. */
function stateOf(ctx: CheckContext): Promise<SuiteState> {
  let state = states.get(ctx.session);
  if (state === undefined) {
    state = save(ctx).then((saved) => ({ saved, changed: false, tokenIds: new Set<string>(), latencies: [] }));
    states.set(ctx.session, state);
  }
  return state;
}

async function save(ctx: CheckContext): Promise<Saved> {
  let res: HttpResponse;
  try {
    res = await ctx.send({ method: 'GET', path: '/webhooks' });
  } catch (e) {
    if (e instanceof TransportError) return { kind: 'unknown', reason: `GET /webhooks failed: ${e.message}` };
    throw e;
  }
  if (res.status === 404) return { kind: 'none', how: 'GET /webhooks answered 404' };
  if (res.status < 200 || res.status > 299) return { kind: 'unknown', reason: `GET /webhooks answered ${describeResponse(res)}` };
  const body = res.text.trim() === '' ? undefined : parseJson(res.text);
  if (body === undefined) return { kind: 'none', how: `GET /webhooks answered ${res.status} with an empty body` };
  if (!body.ok) return { kind: 'unknown', reason: `GET /webhooks answered ${res.status} with a body that is not JSON` };
  const found = webhookIn(body.value);
  if (found === undefined) return { kind: 'none', how: `GET /webhooks answered ${res.status} with no webhook in it` };
  return { kind: 'webhook', config: configOf(found.webhook) };
}

/** A check that changes the configuration may run only when the configuration before the suite is known. */
function mayChange(ctx: CheckContext, st: SuiteState): void {
  if (st.saved.kind === 'unknown') ctx.skip(`the current webhook configuration could not be saved (${st.saved.reason}), so the suite changes nothing`);
  st.changed = true;
  // Cleared by the restore check: if it does not run or fails, the run's report says what to restore by hand.
  if (st.saved.kind === 'webhook') receiverOf(ctx).leftovers.set(LEFTOVER, `the webhook configuration was changed and not restored; restore it by hand: ${restoreRequest(st.saved.config)}`);
}

function restoreRequest(c: Config): string {
  return `PUT /webhooks ${JSON.stringify({ url: c.url, subscriptions: c.subscriptions })}`;
}

// ---- reading answers -------------------------------------------------------------------------------------------

const WEBHOOK_FIELDS = ['webhookId', 'url', 'subscriptions'];
const looksLikeWebhook = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && WEBHOOK_FIELDS.some((f) => f in (v as object));

/** The Webhook in an answer and where: in `data` (the envelope), as the first item of a `data` list, or the bare body ("not shown"). */
function webhookIn(body: unknown): { webhook: Record<string, unknown>; path: string } | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const data = (body as Record<string, unknown>).data;
  if (looksLikeWebhook(data)) return { webhook: data, path: 'data' };
  if (Array.isArray(data) && looksLikeWebhook(data[0])) return { webhook: data[0], path: 'data[0]' };
  return looksLikeWebhook(body) ? { webhook: body, path: '' } : undefined;
}

function webhookOfResponse(res: HttpResponse): Record<string, unknown> | undefined {
  return locateWebhook(res)?.webhook;
}

function locateWebhook(res: HttpResponse): { webhook: Record<string, unknown>; path: string } | undefined {
  const parsed = parseJson(res.text);
  return parsed.ok ? webhookIn(parsed.value) : undefined;
}

function configOf(w: Record<string, unknown>): Config {
  const subs = Array.isArray(w.subscriptions) ? w.subscriptions.filter((s): s is string => typeof s === 'string') : [];
  return { url: w.url, subscriptions: subs, status: w.status, webhookId: w.webhookId };
}

/** Whether `after` is the configuration `before` (none stays none), ignoring the order of subscriptions. */
function sameConfig(before: Config | undefined, after: Config | undefined): boolean {
  if (before === undefined || after === undefined) return before === after;
  return before.url === after.url && sameSet(before.subscriptions, after.subscriptions);
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
}

/** The configuration now: undefined for none (404 or an answer without a webhook); a failure fails the check. */
async function currentConfig(ctx: CheckContext): Promise<{ config: Config | undefined; res: HttpResponse }> {
  const res = await ctx.send({ method: 'GET', path: '/webhooks' });
  if (res.status === 404) return { config: undefined, res };
  expectSuccess(ctx, res, 'GET /webhooks answers the configuration (or 404 when there is none)');
  const w = webhookOfResponse(res);
  return { config: w && configOf(w), res };
}

function show(c: Config | undefined): string {
  return c === undefined ? 'no webhook' : `url ${JSON.stringify(c.url)}, subscriptions ${JSON.stringify(c.subscriptions)}`;
}

// ---- set-up shared by the checks -------------------------------------------------------------------------------

/** Registers the receiver with ["ALL"]: POST, or PUT when a webhook exists already (there is one per client). */
async function register(ctx: CheckContext): Promise<Registration> {
  const st = await stateOf(ctx);
  if (st.registration) return st.registration;
  if (st.registrationProblem) ctx.skip(`the receiver could not be registered: ${st.registrationProblem}`);
  mayChange(ctx, st);
  const receiver = receiverOf(ctx);
  const json = { url: receiver.url, subscriptions: ['ALL'] };
  const cursor = receiver.cursor();
  let via: 'POST' | 'PUT' = st.saved.kind === 'webhook' ? 'PUT' : 'POST';
  let res = await ctx.send({ method: via, path: '/webhooks', json });
  if (via === 'POST' && res.status >= 400 && res.status <= 499) {
    // A webhook exists after all (e.g. one a faulty server created on a request it should have rejected): change it.
    const now = await ctx.send({ method: 'GET', path: '/webhooks' });
    if (now.status >= 200 && now.status <= 299 && webhookOfResponse(now) !== undefined) {
      via = 'PUT';
      res = await ctx.send({ method: via, path: '/webhooks', json });
    }
  }
  if (res.status < 200 || res.status > 299) {
    st.registrationProblem = `${via} /webhooks answered ${describeResponse(res)}`;
    ctx.fail(`${via} /webhooks with the receiver's URL answered ${res.status}`, {
      expected: `${via === 'POST' ? 'the webhook is created' : 'the webhook is updated'} (a 2xx answer)`,
      observed: describeResponse(res),
      exchange: res.exchange,
    });
  }
  st.registration = { via, res, cursor, webhook: webhookOfResponse(res) };
  st.subscriptions = ['ALL'];
  return st.registration;
}

/** Why a creation could not be observed when the registration had to be a PUT. */
async function noCreation(ctx: CheckContext): Promise<string> {
  const st = await stateOf(ctx);
  const why = st.saved.kind === 'webhook' ? 'a webhook existed before the suite' : 'a webhook existed already (created by an earlier request of the suite that the server should have refused)';
  return `${why}: the receiver was registered with PUT, so no creation could be observed (the interface has no DELETE)`;
}

/** GET /webhooks/key, and the receiver verifies with what it finds; a check that needs the key skips without one. */
async function publishedKey(ctx: CheckContext, report = false): Promise<{ key: FoundKey; res?: HttpResponse }> {
  const st = await stateOf(ctx);
  if (st.key) return { key: st.key };
  if (st.keyProblem && !report) ctx.skip(`no usable webhook key: ${st.keyProblem}`);
  await register(ctx);
  const receiver = receiverOf(ctx);
  const res = await ctx.send({ method: 'GET', path: '/webhooks/key' });
  const problem = (reason: string): never => {
    st.keyProblem = reason;
    receiver.keyUnusable(reason);
    if (!report) ctx.skip(`no usable webhook key: ${reason}`);
    return ctx.fail(reason, { expected: 'an Ed25519 public key (PEM, JWK or raw 32 bytes) in the answer of GET /webhooks/key', observed: describeResponse(res), exchange: res.exchange });
  };
  if (res.status < 200 || res.status > 299) return problem(`GET /webhooks/key answered ${res.status}`);
  const parsed = parseJson(res.text);
  if (!parsed.ok) return problem(`GET /webhooks/key: ${parsed.error}`);
  const body = parsed.value as Record<string, unknown> | null;
  const inData = typeof body === 'object' && body !== null && 'data' in body;
  const found = findWebhookKey(inData ? body.data : parsed.value, inData ? 'data' : '(body)');
  if (!found.ok) return problem(found.reason);
  st.key = found.found;
  receiver.useKey(found.found.key);
  return { key: found.found, res };
}

/** Sets the subscription list when it is not the one last set; the PUT must succeed. */
async function subscribe(ctx: CheckContext, list: string[]): Promise<HttpResponse | undefined> {
  const st = await stateOf(ctx);
  await register(ctx);
  if (st.subscriptions && sameSet(st.subscriptions, list)) return undefined;
  return put(ctx, list);
}

async function put(ctx: CheckContext, list: string[]): Promise<HttpResponse> {
  const st = await stateOf(ctx);
  mayChange(ctx, st);
  const res = await ctx.send({ method: 'PUT', path: '/webhooks', json: { url: receiverOf(ctx).url, subscriptions: list } });
  expectSuccess(ctx, res, `PUT /webhooks with subscriptions ${JSON.stringify(list)} is accepted (a 2xx answer)`);
  st.subscriptions = list;
  return res;
}

/** Issues a token for a check (recorded against it) and returns it with its tokenId, when the record has one. */
async function issueToken(ctx: CheckContext): Promise<{ token: string; tokenId: string | undefined; res: HttpResponse }> {
  const res = await ctx.requestToken();
  expectSuccess(ctx, res, 'POST /oauth/token issues a token');
  const parsed = parseJson(res.text);
  const found = parsed.ok ? tokenRecordOf(parsed.value) : undefined;
  if (!found) return ctx.fail('no token in the answer of POST /oauth/token', { expected: 'a token record', observed: describeResponse(res), exchange: res.exchange });
  const id = found.record.tokenId;
  const tokenId = typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
  if (tokenId !== undefined) (await stateOf(ctx)).tokenIds.add(tokenId);
  return { token: found.token, tokenId, res };
}

/** Matches the AUTH delivery of one token: it names that token's id, or (payloads without ids) names no other token of the suite. */
/**
 * Whether a delivery may be about the token `tokenId`. Checks of other suites issue tokens while this suite runs, so a
 * delivery naming another token (a `tokenId` member, the record's field) is not this one's; one naming no token at all
 * may be, unless it carries a token id of the suite's own.
 */
function forToken(st: SuiteState, tokenId: string | undefined): (d: Delivery) => boolean {
  if (tokenId === undefined) return () => true;
  const others = [...st.tokenIds].filter((id) => id !== tokenId);
  return (d) => {
    if (containsValue(d.payload, tokenId)) return true;
    if (valuesNamed(d.payload, 'tokenId').length > 0) return false;
    return !others.some((id) => containsValue(d.payload, id));
  };
}

const eventOf = (d: Delivery): string | undefined => eventNameOf(d.payload)?.name;

interface Awaited {
  /** What is awaited, e.g. "WEBHOOK.CREATED". */
  what: string;
  after: number;
  match: (d: Delivery) => boolean;
  /** The request that caused the event: the evidence of a failure, and the start of the latency. */
  trigger: HttpResponse;
}

/** Waits for a delivery; fails when none arrives by the deadline, or when the one that arrived was discarded. */
async function awaitDelivery(ctx: CheckContext, st: SuiteState, a: Awaited): Promise<Delivery> {
  const receiver = receiverOf(ctx);
  const expected = `a ${a.what} delivery reaches the receiver at ${receiver.url} and verifies (Content-Digest, and the signature with the key of GET /webhooks/key)`;
  if (st.silentSince !== undefined && receiver.counts.received === 0) {
    ctx.fail(`no ${a.what} delivery: nothing has reached the receiver since the webhook was registered`, {
      expected,
      observed: `an earlier wait of ${receiver.deadlineMs} ms ended with no delivery at all, and none has arrived since; ${silence(receiver)}`,
      exchange: a.trigger.exchange,
    });
  }
  const d = await receiver.waitFor((x) => x.seq > a.after && a.match(x), receiver.deadlineMs, ctx.signal);
  if (d === undefined) {
    if (receiver.counts.received === 0) st.silentSince ??= Date.now();
    const since = receiver.arrivals.filter((x) => x.seq > a.after);
    const seen = since.length === 0 ? 'no delivery arrived meanwhile' : `${since.length} other deliver${since.length === 1 ? 'y' : 'ies'} arrived meanwhile: ${since.slice(0, 5).map((x) => `#${x.seq} ${eventOf(x) ?? '(no known event named)'} (${x.state})`).join(', ')}`;
    return ctx.fail(`no ${a.what} delivery within ${receiver.deadlineMs} ms`, {
      expected,
      observed: `${seen}; ${silence(receiver)}`,
      exchange: a.trigger.exchange,
    });
  }
  const sent = Date.parse(a.trigger.exchange.startedAt);
  if (Number.isFinite(sent)) st.latencies.push(Math.max(0, d.arrivedAt - sent));
  if (d.state === 'rejected') {
    return ctx.fail(`the ${a.what} delivery does not verify and must be discarded: ${d.reason}`, { expected, observed: describeDelivery(d), exchange: a.trigger.exchange });
  }
  return d;
}

function silence(receiver: WebhookReceiver): string {
  const c = receiver.counts;
  const tls = c.tlsFailures > 0 ? `${c.tlsFailures} TLS handshake(s) failed (last: ${receiver.tlsError}): does the server trust the receiver's certificate?` : 'no TLS handshake failed';
  return `receiver totals: ${c.received} received (${c.verified} verified, ${c.rejected} discarded, ${c.pending} unverified), ${c.oversized} over the size cap; ${tls}`;
}

function eventObservation(d: Delivery): string {
  const named = eventNameOf(d.payload);
  return `${named?.name ?? 'event'} delivery #${d.seq}: event name at payload.${named?.path ?? '?'}, payload fields ${JSON.stringify(topLevelFields(d.payload))}, signature label ${d.signature?.label ?? '?'} covering ${JSON.stringify(d.signature?.components ?? [])}`;
}

/** Waits for an AUTH event of one token while that token is in use, and always revokes it. */
async function authEvent(ctx: CheckContext, event: 'AUTH.CREATED' | 'AUTH.DELETED'): Promise<void> {
  const st = await stateOf(ctx);
  await publishedKey(ctx);
  await subscribe(ctx, ['ALL']);
  const receiver = receiverOf(ctx);
  const cursor = receiver.cursor();
  const issued = await issueToken(ctx);
  let revoked = false;
  try {
    let trigger = issued.res;
    if (event === 'AUTH.DELETED') {
      trigger = await ctx.revokeToken(issued.token);
      revoked = true;
      expectSuccess(ctx, trigger, 'POST /oauth/revoke revokes the token');
    }
    const d = await awaitDelivery(ctx, st, { what: event, after: cursor, match: (x) => eventOf(x) === event && forToken(st, issued.tokenId)(x), trigger });
    ctx.observe(eventObservation(d));
    if (issued.tokenId !== undefined) ctx.observe(containsValue(d.payload, issued.tokenId) ? `the payload names the token (tokenId ${issued.tokenId})` : 'the payload does not name the tokenId');
  } finally {
    if (!revoked) await ctx.revokeToken(issued.token).catch(() => undefined);
  }
}

/** Rejections: a bad body is refused (any 4xx) and the configuration stays as it was. */
async function expectRefused(ctx: CheckContext, badBody: (receiverUrl: string) => { url: string; subscriptions: string[] }, expected: string): Promise<void> {
  const st = await stateOf(ctx);
  const receiver = receiverOf(ctx);
  const before = await currentConfig(ctx);
  mayChange(ctx, st);
  // One webhook per client: where one exists the change would be a PUT, and a POST would be refused for that reason alone.
  const method = before.config === undefined ? 'POST' : 'PUT';
  const res = await ctx.send({ method, path: '/webhooks', json: badBody(receiver.url) });
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
}

// ---- the checks ------------------------------------------------------------------------------------------------

export default defineSuite('webhooks', 'Webhooks: configuration, key, deliveries and their verification', [
  defineCheck({
    id: 'webhooks.config.saved',
    title: "the client's webhook configuration is saved before the suite changes anything",
    level: 'INFO',
    requirements: ['REQ-WHKEP-08'],
    async run(ctx) {
      const receiver = receiverOf(ctx);
      const st = await stateOf(ctx);
      const tls = receiver.certificatePem ? "TLS with the receiver's own certificate" : `plain HTTP behind ${receiver.url.startsWith('https:') ? 'a proxy or tunnel that ends TLS' : 'an http URL, which the spec does not allow'}`;
      ctx.observe(`receiver: ${receiver.url} (${tls}); delivery deadline ${receiver.deadlineMs} ms`);
      if (st.saved.kind === 'none') ctx.observe(`no webhook configured before the suite (${st.saved.how})`);
      else if (st.saved.kind === 'webhook') ctx.observe(`saved: ${show(st.saved.config)}, status ${JSON.stringify(st.saved.config.status)}; it is restored at the end`);
      else ctx.observe(`the configuration could not be read (${st.saved.reason}): the suite changes nothing`);
    },
  }),
  defineCheck({
    id: 'webhooks.reject.http-url',
    title: 'a plain http webhook URL is refused and the configuration stays as it was',
    level: 'MUST',
    requirements: ['REQ-WHK-03'],
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
    async run(ctx) {
      await expectRefused(ctx, () => ({ url: 'not a url', subscriptions: ['ALL'] }), '"not a url" is not "a valid https URL" and is refused (any 4xx)');
    },
  }),
  defineCheck({
    id: 'webhooks.reject.unknown-subscription',
    title: 'an unknown subscription name is refused and the configuration stays as it was',
    level: 'SHOULD',
    requirements: ['REQ-EVT-04'],
    async run(ctx) {
      await expectRefused(ctx, (url) => ({ url, subscriptions: ['CONFORMANCE.NO-SUCH-EVENT'] }), 'a subscription name the Events table does not list is refused (any 4xx)');
    },
  }),
  defineCheck({
    id: 'webhooks.create.answer',
    title: "registering the receiver's https URL with [\"ALL\"] answers an ACTIVE Webhook echoing the URL",
    level: 'MUST',
    requirements: ['REQ-SVC-05', 'REQ-WHK-02', 'REQ-STATE-04', 'REQ-WHKEP-02', 'REQ-EVT-11'],
    async run(ctx) {
      const reg = await register(ctx);
      const receiver = receiverOf(ctx);
      ctx.observe(`${reg.via} /webhooks answered ${reg.res.status}${reg.via === 'PUT' ? ' (a webhook existed already: updated, not created)' : ''}`);
      const w = reg.webhook;
      if (w === undefined) {
        // "Response bodies of all webhook endpoints: not shown": an answer without the Webhook is allowed; GET /webhooks is checked on its own.
        ctx.observe('the answer carries no Webhook object (response bodies are not shown by the spec)');
        return;
      }
      expectSchema(ctx, reg.res, w, 'webhook', { path: locateWebhook(reg.res)?.path ?? '', table: 'Webhook' });
      if (w.status !== 'ACTIVE') ctx.fail(`status is ${JSON.stringify(w.status)}, not "ACTIVE"`, { expected: 'a newly configured webhook is ACTIVE (live)', observed: describeResponse(reg.res), exchange: reg.res.exchange });
      if (w.url !== receiver.url) ctx.fail('the answer does not echo the registered URL', { expected: `url ${JSON.stringify(receiver.url)}`, observed: describeResponse(reg.res), exchange: reg.res.exchange });
    },
  }),
  defineCheck({
    id: 'webhooks.create.auto-subscription',
    title: 'a created webhook is subscribed to WEBHOOK.CREATED automatically',
    level: 'MUST',
    requirements: ['REQ-EVT-09'],
    async run(ctx) {
      const reg = await register(ctx);
      if (reg.via === 'PUT') ctx.skip(await noCreation(ctx));
      let res = reg.res;
      let w = reg.webhook;
      if (w === undefined || !Array.isArray(w.subscriptions)) {
        res = await ctx.send({ method: 'GET', path: '/webhooks' });
        expectSuccess(ctx, res, 'GET /webhooks answers the configuration');
        w = webhookOfResponse(res);
      }
      const subs = w && Array.isArray(w.subscriptions) ? w.subscriptions : undefined;
      if (!subs?.includes(AUTOMATIC)) {
        ctx.fail(`subscriptions ${JSON.stringify(subs)} do not contain ${AUTOMATIC}`, {
          expected: `created with ["ALL"], the webhook's subscriptions contain ${AUTOMATIC}, added automatically`,
          observed: describeResponse(res),
          exchange: res.exchange,
        });
      }
    },
  }),
  defineCheck({
    id: 'webhooks.config.get',
    title: 'GET /webhooks returns the configuration: a Webhook with the registered URL and subscriptions',
    level: 'MUST',
    requirements: ['REQ-SVC-05', 'REQ-WHK-01', 'REQ-WHK-02', 'REQ-WHK-03', 'REQ-WHK-04', 'REQ-WHK-05', 'REQ-WHK-06', 'REQ-STATE-04', 'REQ-WHKEP-04'],
    async run(ctx) {
      await register(ctx);
      const st = await stateOf(ctx);
      const receiver = receiverOf(ctx);
      const res = await ctx.send({ method: 'GET', path: '/webhooks' });
      expectSuccess(ctx, res, 'the configuration (a 2xx answer)');
      const w = webhookOfResponse(res);
      if (w === undefined) return ctx.fail('the answer carries no Webhook', { expected: 'the Webhook (webhookId, status, url, subscriptions…), in data or bare', observed: describeResponse(res), exchange: res.exchange });
      expectSchema(ctx, res, w, 'webhook', { path: locateWebhook(res)?.path ?? '', table: 'Webhook' });
      const subs = configOf(w).subscriptions;
      const wanted = st.subscriptions ?? ['ALL'];
      if (w.url !== receiver.url || !wanted.every((s) => subs.includes(s))) {
        ctx.fail('the configuration is not the one registered', {
          expected: `url ${JSON.stringify(receiver.url)}, subscriptions containing ${JSON.stringify(wanted)}`,
          observed: describeResponse(res),
          exchange: res.exchange,
        });
      }
      if (st.registration?.webhook?.webhookId !== undefined && w.webhookId !== st.registration.webhook.webhookId) {
        ctx.fail('webhookId differs from the one the registration answered', { expected: `webhookId ${JSON.stringify(st.registration.webhook.webhookId)}`, observed: describeResponse(res), exchange: res.exchange });
      }
    },
  }),
  defineCheck({
    id: 'webhooks.key.published',
    title: 'GET /webhooks/key gives an Ed25519 public key, and the deliveries verify under it',
    level: 'MUST',
    requirements: ['REQ-SVC-06', 'REQ-WHKEP-05', 'REQ-AUTH-12', 'REQ-EVT-14'],
    async run(ctx) {
      const reg = await register(ctx);
      const { key, res } = await publishedKey(ctx, true);
      ctx.observe(`key: ${describeKeyForm(key)}`);
      const receiver = receiverOf(ctx);
      const trigger = res ?? reg.res;
      // The registration's own event (WEBHOOK.CREATED, or WEBHOOK.UPDATED for a PUT under ["ALL"]) is what the key must verify.
      const d = await receiver.waitFor((x) => x.seq > reg.cursor, receiver.deadlineMs, ctx.signal);
      if (d === undefined) {
        const st = await stateOf(ctx);
        if (receiver.counts.received === 0) st.silentSince ??= Date.now();
        return ctx.skip(`no delivery arrived to verify the key with (${silence(receiver)}); the event checks report it`);
      }
      if (d.signature && !d.signature.ok) {
        ctx.fail(`a delivery does not verify under the published key: ${d.signature.reason}`, {
          expected: 'the deliveries are signed by the key that GET /webhooks/key publishes, covering content-digest, within created/expires',
          observed: describeDelivery(d),
          exchange: trigger.exchange,
        });
      }
      if (d.signature?.keyId !== undefined) ctx.observe(`deliveries are signed with keyid ${JSON.stringify(d.signature.keyId)}${key.keyId !== undefined ? (key.keyId === d.signature.keyId ? ', the key id published with the key' : `, not the published key id ${JSON.stringify(key.keyId)}`) : ''}`);
    },
  }),
  defineCheck({
    id: 'webhooks.events.webhook-created',
    title: 'creating the webhook delivers a WEBHOOK.CREATED message that verifies',
    level: 'MUST',
    requirements: ['REQ-WHKEP-02', 'REQ-EVT-01', 'REQ-EVT-09', 'REQ-EVT-12'],
    async run(ctx) {
      const st = await stateOf(ctx);
      const reg = await register(ctx);
      if (reg.via === 'PUT') ctx.skip(await noCreation(ctx));
      await publishedKey(ctx);
      const d = await awaitDelivery(ctx, st, { what: 'WEBHOOK.CREATED', after: reg.cursor, match: (x) => eventOf(x) === 'WEBHOOK.CREATED', trigger: reg.res });
      ctx.observe(eventObservation(d));
    },
  }),
  defineCheck({
    id: 'webhooks.events.test',
    title: 'POST /webhooks/test delivers a message that verifies',
    level: 'SHOULD',
    requirements: ['REQ-WHKEP-06'],
    async run(ctx) {
      const st = await stateOf(ctx);
      await publishedKey(ctx);
      await subscribe(ctx, ['ALL']);
      const receiver = receiverOf(ctx);
      const cursor = receiver.cursor();
      const res = await ctx.send({ method: 'POST', path: '/webhooks/test' });
      expectSuccess(ctx, res, 'the test is accepted (a 2xx answer)');
      // The test event's name is not shown: it is the delivery that is none of the events the spec names.
      const d = await awaitDelivery(ctx, st, { what: 'test', after: cursor, match: (x) => !(KNOWN_EVENTS as readonly string[]).includes(eventOf(x) ?? ''), trigger: res });
      const named = Object.entries(typeof d.payload === 'object' && d.payload !== null ? d.payload : {}).find(([, v]) => typeof v === 'string' && /test/i.test(v));
      ctx.observe(`test delivery #${d.seq}${named ? `: ${named[0]} = ${JSON.stringify(named[1])}` : ''}, payload fields ${JSON.stringify(topLevelFields(d.payload))}`);
    },
  }),
  defineCheck({
    id: 'webhooks.events.auth-created',
    title: 'issuing a token delivers an AUTH.CREATED message that verifies',
    level: 'MUST',
    requirements: ['REQ-LIFE-01', 'REQ-EVT-01', 'REQ-EVT-06', 'REQ-EVT-12'],
    async run(ctx) {
      await authEvent(ctx, 'AUTH.CREATED');
    },
  }),
  defineCheck({
    id: 'webhooks.events.auth-deleted',
    title: 'revoking a token delivers an AUTH.DELETED message that verifies',
    level: 'MUST',
    uses: ['token-revocation'],
    requirements: ['REQ-LIFE-02', 'REQ-EVT-07', 'REQ-EVT-12'],
    async run(ctx) {
      await authEvent(ctx, 'AUTH.DELETED');
    },
  }),
  defineCheck({
    id: 'webhooks.events.webhook-updated',
    title: 'updating the webhook delivers a WEBHOOK.UPDATED message that verifies',
    level: 'MUST',
    requirements: ['REQ-EVT-10', 'REQ-EVT-12'],
    async run(ctx) {
      const st = await stateOf(ctx);
      await publishedKey(ctx);
      const receiver = receiverOf(ctx);
      const cursor = receiver.cursor();
      const res = await put(ctx, ['ALL']);
      const d = await awaitDelivery(ctx, st, { what: 'WEBHOOK.UPDATED', after: cursor, match: (x) => eventOf(x) === 'WEBHOOK.UPDATED', trigger: res });
      ctx.observe(eventObservation(d));
    },
  }),
  defineCheck({
    id: 'webhooks.update.replaces',
    title: 'PUT /webhooks with a new subscription list replaces the earlier list',
    level: 'MUST',
    requirements: ['REQ-WHKEP-03', 'REQ-EVT-13'],
    async run(ctx) {
      await register(ctx);
      await put(ctx, ['AUTH']);
      const res = await put(ctx, ['WEBHOOK']);
      const judge = (subs: string[], r: HttpResponse, where: string) => {
        const kept = subs.filter((s) => s === 'ALL' || AUTH_NAMES.includes(s));
        const has = subs.includes('WEBHOOK') || ['WEBHOOK.CREATED', 'WEBHOOK.UPDATED'].every((s) => subs.includes(s));
        if (kept.length > 0 || !has) {
          ctx.fail(`${where}: subscriptions ${JSON.stringify(subs)} ${kept.length > 0 ? `still hold ${JSON.stringify(kept)} from the earlier lists` : 'lack WEBHOOK'}`, {
            expected: `after PUT ["AUTH"] then PUT ["WEBHOOK"], the subscriptions are ["WEBHOOK"] (${AUTOMATIC}, the automatic subscription, may be listed too)`,
            observed: describeResponse(r),
            exchange: r.exchange,
          });
        }
      };
      const answered = webhookOfResponse(res);
      if (answered && Array.isArray(answered.subscriptions)) judge(configOf(answered).subscriptions, res, 'the PUT answer');
      const now = await currentConfig(ctx);
      if (now.config === undefined) return ctx.fail('GET /webhooks shows no webhook after the update', { expected: 'the updated configuration', observed: describeResponse(now.res), exchange: now.res.exchange });
      judge(now.config.subscriptions, now.res, 'GET /webhooks');
      ctx.observe(`subscriptions after the update: ${JSON.stringify(now.config.subscriptions)}`);
    },
  }),
  defineCheck({
    id: 'webhooks.subscriptions.filtered',
    title: 'subscribed to WEBHOOK only, issuing and revoking a token delivers no AUTH message (events go to subscribed URLs only)',
    level: 'SHOULD',
    uses: ['token-revocation'],
    requirements: ['REQ-EVT-02'],
    async run(ctx) {
      const st = await stateOf(ctx);
      await publishedKey(ctx);
      const receiver = receiverOf(ctx);
      // The list takes effect before the token: wait for the update's own delivery, so it cannot pass for the marker below.
      const setCursor = receiver.cursor();
      const set = await put(ctx, ['WEBHOOK']);
      await awaitDelivery(ctx, st, { what: 'WEBHOOK.UPDATED (subscriptions set to ["WEBHOOK"])', after: setCursor, match: (x) => eventOf(x) === 'WEBHOOK.UPDATED', trigger: set });
      const cursor = receiver.cursor();
      const issued = await issueToken(ctx);
      const revoke = await ctx.revokeToken(issued.token);
      expectSuccess(ctx, revoke, 'POST /oauth/revoke revokes the token');
      // A subscribed event after the AUTH ones marks the point by which an AUTH delivery would have come, without sleeping.
      const marker = await put(ctx, ['WEBHOOK']);
      const m = await awaitDelivery(ctx, st, { what: 'WEBHOOK.UPDATED (the marker after the token)', after: cursor, match: (x) => eventOf(x) === 'WEBHOOK.UPDATED', trigger: marker });
      const mine = forToken(st, issued.tokenId);
      const unsubscribed = receiver.arrivals.filter((x) => x.seq > cursor && x.seq !== m.seq && (eventOf(x) ?? '').startsWith('AUTH.') && mine(x));
      if (unsubscribed.length > 0) {
        ctx.fail(`${unsubscribed.map(eventOf).join(' and ')} delivered to a webhook subscribed to ["WEBHOOK"] only`, {
          expected: 'no AUTH.CREATED or AUTH.DELETED delivery while the subscriptions are ["WEBHOOK"]',
          observed: describeDelivery(unsubscribed[0]!),
          exchange: issued.res.exchange,
        });
      }
      ctx.observe(`no AUTH delivery before the marker (delivery #${m.seq})`);
    },
  }),
  defineCheck({
    id: 'webhooks.delivery.verified',
    title: 'every delivery of the run carries a matching Content-Digest and a signature by the published key covering it',
    level: 'MUST',
    requirements: ['REQ-AUTH-12', 'REQ-EVT-14'],
    async run(ctx) {
      const st = await stateOf(ctx);
      await publishedKey(ctx);
      const receiver = receiverOf(ctx);
      await receiver.settled();
      const c = receiver.counts;
      if (c.received === 0 && c.oversized === 0) ctx.skip(`no delivery reached the receiver (${silence(receiver)}); the event checks report it`);
      const rejected = receiver.arrivals.filter((d) => d.state === 'rejected');
      if (rejected.length > 0) {
        const reasons = [...new Set(rejected.map((d) => d.reason))].slice(0, 3).join(' | ');
        ctx.fail(`${rejected.length} of ${c.received} deliveries do not verify and were discarded: ${reasons}`, {
          expected: 'every delivery: Content-Digest sha-512 of the body; an Ed25519 signature by the key of GET /webhooks/key covering content-digest, with created and expires around the time of delivery',
          observed: describeDelivery(rejected[0]!),
          ...(st.registration ? { exchange: st.registration.res.exchange } : {}),
        });
      }
      if (c.oversized > 0) ctx.fail(`${c.oversized} deliveries had a body over the receiver's cap and could not be verified`, { expected: 'deliveries of a reasonable size', observed: silence(receiver) });
      ctx.observe(`${c.verified} deliveries verified, none discarded${c.dropped ? `; ${c.dropped} more were answered but not kept (flood cap)` : ''}`);
    },
  }),
  defineCheck({
    id: 'webhooks.delivery.observed',
    title: 'what the deliveries looked like: latency, retries, payload fields, headers',
    level: 'INFO',
    requirements: ['REQ-EVT-15', 'REQ-EVT-17', 'REQ-EVT-18'],
    async run(ctx) {
      const st = await stateOf(ctx);
      const receiver = receiverOf(ctx);
      const all = receiver.arrivals;
      if (all.length === 0) ctx.skip(`no delivery reached the receiver (${silence(receiver)})`);
      const lat = [...st.latencies].sort((a, b) => a - b);
      if (lat.length > 0) ctx.observe(`latency from the request to the delivery: p50 ${lat[Math.floor((lat.length - 1) / 2)]} ms, max ${lat[lat.length - 1]} ms (${lat.length} measured)`);
      const bodies = new Map<string, number>();
      for (const d of all) bodies.set(d.body.toString('base64'), (bodies.get(d.body.toString('base64')) ?? 0) + 1);
      const repeats = [...bodies.values()].reduce((n, k) => n + k - 1, 0);
      ctx.observe(`${all.length} deliveries; ${repeats === 0 ? 'no repeated body (no retry seen)' : `${repeats} repeated a body already delivered (retries)`}`);
      const events = new Map<string, number>();
      const label = (d: Delivery) => eventOf(d) ?? '(none of the named events)';
      for (const d of all) events.set(label(d), (events.get(label(d)) ?? 0) + 1);
      ctx.observe(`events: ${[...events].map(([e, n]) => `${e} ×${n}`).join(', ')}`);
      const paths = new Set(all.map((d) => eventNameOf(d.payload)?.path).filter((p): p is string => p !== undefined));
      ctx.observe(`event name carried at ${[...paths].map((p) => `payload.${p}`).join(', ') || '(not found)'}; payload fields ${JSON.stringify([...new Set(all.flatMap((d) => topLevelFields(d.payload)))])}`);
      ctx.observe(`header names: ${[...new Set(all.flatMap((d) => d.headers.map(([n]) => n.toLowerCase())))].sort().join(', ')}`);
      const c = receiver.counts;
      if (c.tlsFailures || c.stray || c.oversized || c.dropped) ctx.observe(`${c.tlsFailures} failed TLS handshakes, ${c.stray} stray requests, ${c.oversized} oversized bodies, ${c.dropped} deliveries over the flood cap`);
    },
  }),
  defineCheck({
    id: 'webhooks.config.restored',
    title: "the client's webhook configuration is restored as it was before the suite",
    level: 'INFO',
    requirements: ['REQ-WHKEP-08'],
    async run(ctx) {
      const st = await stateOf(ctx);
      const receiver = receiverOf(ctx);
      if (st.saved.kind === 'unknown') return ctx.observe(`nothing to restore: the configuration could not be read (${st.saved.reason}), so the suite changed nothing`);
      if (!st.changed) return ctx.observe('nothing to restore: the suite changed nothing');
      if (st.saved.kind === 'none') {
        const now = await currentConfig(ctx).catch(() => undefined);
        const left = now === undefined ? 'its configuration could not be read' : show(now.config);
        return ctx.observe(
          `no webhook existed before the suite, and the interface has no DELETE: the webhook the suite configured stays (${left}); it points at this run's receiver, which stops at the end of the run`,
        );
      }
      const saved = st.saved.config;
      const res = await ctx.send({ method: 'PUT', path: '/webhooks', json: { url: saved.url, subscriptions: saved.subscriptions } });
      const restoreFailed = (observed: string, r: HttpResponse): never =>
        ctx.fail('the webhook configuration could not be restored', { expected: `restored by hand: ${restoreRequest(saved)}`, observed, exchange: r.exchange });
      if (res.status < 200 || res.status > 299) restoreFailed(describeResponse(res), res);
      const now = await currentConfig(ctx);
      // The automatic WEBHOOK.CREATED may come back with the update; it is no difference a client could avoid.
      const withoutAuto = (c: Config | undefined) => c && { ...c, subscriptions: c.subscriptions.filter((s) => s !== AUTOMATIC) };
      if (!sameConfig(withoutAuto(saved), withoutAuto(now.config))) restoreFailed(`now ${show(now.config)}: ${describeResponse(now.res)}`, now.res);
      receiver.leftovers.delete(LEFTOVER);
      ctx.observe(`restored: ${show(saved)}${saved.status !== undefined && saved.status !== 'ACTIVE' ? `; its status was ${JSON.stringify(saved.status)} and cannot be set back (no transition is shown)` : ''}`);
    },
  }),
  // One configuration per client, saved by the first check and restored by the last, and one stream of deliveries.
], { uses: ['webhook-config'] });
