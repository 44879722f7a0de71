// The suite's requests to the webhook endpoints, which several areas send: POST/PUT /webhooks (configure, register,
// put, subscribe), GET /webhooks (currentConfig, shownSubscriptions), GET /webhooks/key (readKey, fetchKey, refreshKey)
// and the run's one POST /webhooks/test (sendTest).
import {
  configOf,
  describeKeyForm,
  describeResponse,
  expectSuccess,
  findWebhookKey,
  isSuccess,
  journalWebhookChange,
  locateWebhook,
  parseJson,
  sameSet,
  type FoundKey,
  type HttpResponse,
  type WebhookConfig as Config,
  webhookOfResponse,
  whereWebhook,
} from '../../kit/index.js';
import { type CheckContext } from '../../../src/engine/index.js';
import { stateOf, mayChange, receiverOf, type Registration, type SuiteState } from './state.js';

/**
 * Every POST/PUT /webhooks of the suite. It may change the configuration; once the key is known, a success reads the
 * key again, since "the key is generated when the webhook is configured" (REQ-WHKEP-05) may mean every configuration.
 */
export async function configure(
  ctx: CheckContext,
  method: 'POST' | 'PUT',
  json: { url: unknown; subscriptions: unknown },
): Promise<HttpResponse> {
  const st = stateOf(ctx);
  mayChange(ctx, st);
  // Written to the run's restore journal before the first change: a run killed now is put back by the next one.
  await journalWebhookChange(ctx, st.saved, receiverOf(ctx).url);
  const res = await ctx.send({ method, path: '/webhooks', json });
  if (isSuccess(res)) await refreshKey(ctx, st, `${method} /webhooks ${JSON.stringify(json.subscriptions)}`);
  return res;
}

// ---- reading answers -------------------------------------------------------------------------------------------

/** What an answer of a webhook endpoint carried, for the INFO record of REQ-WHKEP-08. */
export function answerShape(res: HttpResponse): string {
  if (res.text.trim() === '') return `${res.status} with an empty body`;
  const found = locateWebhook(res);
  return found
    ? `${res.status} with ${whereWebhook(found.path, found.webhook)}`
    : `${res.status} with no Webhook in the body (${describeResponse(res)})`;
}

/** The configuration now: undefined for none (404 or an answer without a webhook); a failure fails the check. */
export async function currentConfig(ctx: CheckContext): Promise<{ config: Config | undefined; res: HttpResponse }> {
  const res = await ctx.send({ method: 'GET', path: '/webhooks' });
  if (res.status === 404) return { config: undefined, res };
  expectSuccess(ctx, res, 'GET /webhooks answers the configuration (or 404 when there is none)');
  const w = webhookOfResponse(res);
  return { config: w && configOf(w), res };
}

// ---- set-up shared by the checks -------------------------------------------------------------------------------

/** Registers the receiver with ["ALL"]: POST, or PUT when a webhook exists already (there is one per client). */
export async function register(ctx: CheckContext): Promise<Registration> {
  const st = stateOf(ctx);
  if (st.registration) return st.registration;
  if (st.registrationProblem) ctx.skip(`the receiver could not be registered: ${st.registrationProblem}`);
  const receiver = receiverOf(ctx);
  const json = { url: receiver.url, subscriptions: ['ALL'] };
  const cursor = receiver.cursor();
  let via: 'POST' | 'PUT' = st.saved.kind === 'webhook' ? 'PUT' : 'POST';
  let res = await configure(ctx, via, json);
  if (via === 'POST' && res.status >= 400 && res.status <= 499) {
    // A webhook exists after all (e.g. one a faulty server created on a request it should have rejected): change it.
    const now = await ctx.send({ method: 'GET', path: '/webhooks' });
    if (isSuccess(now) && webhookOfResponse(now) !== undefined) {
      via = 'PUT';
      res = await configure(ctx, via, json);
    }
  }
  if (!isSuccess(res)) {
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

/** GET /webhooks/key once: the key it gives, or why it gives none. */
export async function readKey(
  ctx: CheckContext,
  sender: { send: CheckContext['send'] } = ctx,
): Promise<{ res: HttpResponse } & ({ key: FoundKey } | { problem: string })> {
  return keyOfAnswer(await sender.send({ method: 'GET', path: '/webhooks/key' }));
}

/** The key an answer of GET /webhooks/key holds (in data or bare), or why it holds none. */
export function keyOfAnswer(res: HttpResponse): { res: HttpResponse } & ({ key: FoundKey } | { problem: string }) {
  if (!isSuccess(res)) return { res, problem: `GET /webhooks/key answered ${res.status}` };
  const parsed = parseJson(res.text);
  if (!parsed.ok) return { res, problem: `GET /webhooks/key: ${parsed.error}` };
  const body = parsed.value as Record<string, unknown> | null;
  const inData = typeof body === 'object' && body !== null && 'data' in body;
  const found = findWebhookKey(inData ? body.data : parsed.value, inData ? 'data' : '(body)');
  return found.ok ? { res, key: found.found } : { res, problem: found.reason };
}

/**
 * The published key, fetched once per run after the registration: the receiver verifies with it, or, without one,
 * discards every delivery saying why. Never skips: an event check judges emission with or without a key.
 */
export async function fetchKey(ctx: CheckContext): Promise<FoundKey | undefined> {
  const st = stateOf(ctx);
  if (st.key || st.keyProblem) return st.key;
  await register(ctx);
  const receiver = receiverOf(ctx);
  const got = await readKey(ctx);
  st.keyRes = got.res;
  if ('problem' in got) {
    st.keyProblem = got.problem;
    receiver.keyUnusable(got.problem);
    return undefined;
  }
  st.key = got.key;
  receiver.useKey(got.key.key);
  return got.key;
}

/**
 * Reads the key again after a configuration. A new key is used besides the earlier ones (deliveries signed before the
 * change still arrive, and the receiver verifies again what failed) and recorded; the same key changes nothing. Read
 * at once, so that no key the server signs with goes unseen, however soon the next configuration replaces it.
 */
export async function refreshKey(ctx: CheckContext, st: SuiteState, after: string): Promise<void> {
  if (st.key === undefined) return;
  const got = await readKey(ctx);
  if (!('key' in got)) return;
  const receiver = receiverOf(ctx);
  if (!receiver.useKey(got.key.key)) return;
  st.key = got.key;
  const note = `GET /webhooks/key gave another key (${describeKeyForm(got.key)}) after ${after}: the server generates a key each time the webhook is configured; deliveries are verified under any key it published in the run`;
  st.keyChanges.push(note);
  ctx.observe(note);
  await receiver.settled();
}

/** Sets the subscription list when it is not the one last set; the PUT must succeed. */
export async function subscribe(ctx: CheckContext, list: string[]): Promise<HttpResponse | undefined> {
  const st = stateOf(ctx);
  await register(ctx);
  if (st.subscriptions && sameSet(st.subscriptions, list)) return undefined;
  return put(ctx, list);
}

export async function put(ctx: CheckContext, list: string[]): Promise<HttpResponse> {
  const st = stateOf(ctx);
  const res = await configure(ctx, 'PUT', { url: receiverOf(ctx).url, subscriptions: list });
  expectSuccess(ctx, res, `PUT /webhooks with subscriptions ${JSON.stringify(list)} is accepted (a 2xx answer)`);
  st.subscriptions = list;
  return res;
}

/** The subscriptions GET /webhooks shows now; undefined when it shows none (the answer is "not shown"). */
export async function shownSubscriptions(
  ctx: CheckContext,
): Promise<{ list: string[] | undefined; res: HttpResponse }> {
  const res = await ctx.send({ method: 'GET', path: '/webhooks' });
  const w = isSuccess(res) ? webhookOfResponse(res) : undefined;
  return { list: w && Array.isArray(w.subscriptions) ? configOf(w).subscriptions : undefined, res };
}

/** POST /webhooks/test once per run (test.accepted judges the answer, events.test the delivery). */
export async function sendTest(ctx: CheckContext): Promise<{ res: HttpResponse; cursor: number }> {
  const st = stateOf(ctx);
  if (st.test) return st.test;
  await subscribe(ctx, ['ALL']);
  const cursor = receiverOf(ctx).cursor();
  const res = await ctx.send({ method: 'POST', path: '/webhooks/test' });
  st.test = { res, cursor };
  return st.test;
}
