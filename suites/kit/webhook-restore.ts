// The client's webhook configuration: one way to read and save it, one restore, one wording. The webhooks suite saves
// it before its first change and restores it at the end (its restore check, else its teardown); a check of another
// suite that may change it (a POST /webhooks that must be refused) saves and restores it around its work.
//
// The rules: GET /webhooks is read leniently, since the answer's body is not shown (REQ-WHKEP-08): a 404, an empty
// body or one without a Webhook means none; the Webhook is `data`, the first item of a `data` list, or the bare body;
// an answer that cannot be read leaves the configuration unknown, and nothing that could change it is sent. The
// restore is one PUT /webhooks with the saved url and subscriptions, then GET /webhooks, which must show them (the
// automatic WEBHOOK.CREATED aside, order aside). No webhook before and one after cannot be undone: the interface has
// no DELETE.
import type { HttpResponse } from '../../src/http/client.js';
import { TransportError } from '../../src/http/client.js';
import { parseJson } from '../../src/http/json.js';
import type { CheckContext } from '../../src/engine/index.js';
import { cleanUpFailed, withPutBack, type GuardOptions, type PutBack, type Sender } from './clean-up.js';
import { describeResponse } from './expect.js';
import { isSuccess } from './negative.js';

/** The subscription a server adds to a created webhook by itself: a restore may bring it back, a difference no client avoids. */
export const AUTOMATIC_SUBSCRIPTION = 'WEBHOOK.CREATED';

/** A webhook configuration as read from the server: enough to compare, report and restore it. */
export interface WebhookConfig {
  url: unknown;
  subscriptions: string[];
  status: unknown;
  webhookId: unknown;
}

/** `how` says what GET /webhooks answered: response bodies of the webhook endpoints are not shown (REQ-WHKEP-08). */
export type SavedWebhook =
  | { kind: 'none'; how: string }
  | { kind: 'webhook'; config: WebhookConfig; how: string }
  | { kind: 'unknown'; reason: string };

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

export function webhookOfResponse(res: HttpResponse): Record<string, unknown> | undefined {
  return locateWebhook(res)?.webhook;
}

export function locateWebhook(res: HttpResponse): { webhook: Record<string, unknown>; path: string } | undefined {
  const parsed = parseJson(res.text);
  return parsed.ok ? webhookIn(parsed.value) : undefined;
}

/** The fields of the spec's Webhook table: an answer with fewer carries "some fields of a Webhook" (REQ-WHKEP-08). */
export const WEBHOOK_TABLE = ['webhookId', 'status', 'url', 'subscriptions', 'createdAt', 'updatedAt'];

export function whereWebhook(path: string, webhook?: Record<string, unknown>): string {
  const some = webhook !== undefined && !WEBHOOK_TABLE.every((f) => f in webhook);
  if (some) return `some fields of a Webhook at ${path === '' ? '(body)' : path} (${Object.keys(webhook).join(', ')})`;
  return path === '' ? 'the bare Webhook as the body' : `the Webhook at ${path}`;
}

export function configOf(w: Record<string, unknown>): WebhookConfig {
  const subs = Array.isArray(w.subscriptions) ? w.subscriptions.filter((s): s is string => typeof s === 'string') : [];
  return { url: w.url, subscriptions: subs, status: w.status, webhookId: w.webhookId };
}

/** Whether `after` is the configuration `before` (none stays none), ignoring the order of subscriptions. */
export function sameConfig(before: WebhookConfig | undefined, after: WebhookConfig | undefined): boolean {
  if (before === undefined || after === undefined) return before === after;
  return before.url === after.url && sameSet(before.subscriptions, after.subscriptions);
}

/** Whether two lists hold the same strings, order and repeats aside (subscription lists). */
export function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
}

/** Whether `now` is the saved configuration; the automatic WEBHOOK.CREATED may come back with an update, a difference no client could avoid. */
function sameSaved(saved: WebhookConfig, now: WebhookConfig | undefined): boolean {
  const withoutAuto = (c: WebhookConfig | undefined) =>
    c && { ...c, subscriptions: c.subscriptions.filter((x) => x !== AUTOMATIC_SUBSCRIPTION) };
  return sameConfig(withoutAuto(saved), withoutAuto(now));
}

export function showWebhook(c: WebhookConfig | undefined): string {
  return c === undefined
    ? 'no webhook'
    : `url ${JSON.stringify(c.url)}, subscriptions ${JSON.stringify(c.subscriptions)}`;
}

/** The request that puts a saved configuration back, as a person would send it. */
function restoreRequest(c: WebhookConfig): string {
  return `PUT /webhooks ${JSON.stringify({ url: c.url, subscriptions: c.subscriptions })}`;
}

/** Reads the client's configuration (GET /webhooks) to save it; an answer that cannot be read leaves it unknown. */
export async function saveWebhook(ctx: Sender): Promise<SavedWebhook> {
  let res: HttpResponse;
  try {
    res = await ctx.send({ method: 'GET', path: '/webhooks' });
  } catch (e) {
    if (e instanceof TransportError) return { kind: 'unknown', reason: `GET /webhooks failed: ${e.message}` };
    throw e;
  }
  if (res.status === 404) return { kind: 'none', how: `GET /webhooks answered ${describeResponse(res)}` };
  if (!isSuccess(res)) return { kind: 'unknown', reason: `GET /webhooks answered ${describeResponse(res)}` };
  const body = res.text.trim() === '' ? undefined : parseJson(res.text);
  if (body === undefined) return { kind: 'none', how: `GET /webhooks answered ${res.status} with an empty body` };
  if (!body.ok) return { kind: 'unknown', reason: `GET /webhooks answered ${res.status} with a body that is not JSON` };
  const found = webhookIn(body.value);
  if (found === undefined)
    return { kind: 'none', how: `GET /webhooks answered ${describeResponse(res)}, with no webhook in it` };
  return {
    kind: 'webhook',
    config: configOf(found.webhook),
    how: `GET /webhooks answered ${res.status} with ${whereWebhook(found.path)}`,
  };
}

const WHAT = 'the webhook configuration';

function failed(
  problem: string,
  byHand: string,
  expected: string,
  res?: HttpResponse,
): Extract<PutBack, { ok: false }> {
  return {
    ok: false,
    line: cleanUpFailed(WHAT, problem, byHand),
    problem,
    byHand,
    expected,
    observed: res ? `${problem}: ${describeResponse(res)}` : problem,
    ...(res ? { exchange: res.exchange } : {}),
  };
}

/**
 * Puts a saved configuration back with one PUT /webhooks and reads it again (GET /webhooks must show it). Never
 * throws: a request that fails is a restore that failed. The two answers come back for the caller's record.
 */
export async function restoreWebhook(
  ctx: Sender,
  saved: WebhookConfig,
): Promise<PutBack & { put?: HttpResponse; read?: HttpResponse }> {
  const expected = `${WHAT} restored as saved: ${showWebhook(saved)}`;
  try {
    const put = await ctx.send({
      method: 'PUT',
      path: '/webhooks',
      json: { url: saved.url, subscriptions: saved.subscriptions },
    });
    if (!isSuccess(put))
      return { ...failed(`PUT /webhooks answered ${put.status}`, restoreRequest(saved), expected, put), put };
    const read = await ctx.send({ method: 'GET', path: '/webhooks' });
    const w = isSuccess(read) ? webhookOfResponse(read) : undefined;
    const config = w && configOf(w);
    if (!sameSaved(saved, config))
      return {
        ...failed(`GET /webhooks then showed ${showWebhook(config)}`, restoreRequest(saved), expected, read),
        put,
        read,
      };
    return {
      ok: true,
      restored: true,
      note: `${WHAT} was restored: PUT /webhooks answered ${put.status}, and GET /webhooks shows ${showWebhook(saved)}`,
      put,
      read,
    };
  } catch (e) {
    return failed((e as Error)?.message ?? String(e), restoreRequest(saved), expected);
  }
}

/** Puts the configuration back as `saved` shows it, reading it first: nothing is sent when it is as saved. */
async function restoreWebhookIfChanged(
  ctx: Sender,
  saved: Extract<SavedWebhook, { kind: 'none' | 'webhook' }>,
): Promise<PutBack> {
  const byHand =
    saved.kind === 'webhook'
      ? restoreRequest(saved.config)
      : 'remove the webhook the client now has (there was none before)';
  const expected =
    saved.kind === 'webhook'
      ? `${WHAT} restored as saved: ${showWebhook(saved.config)}`
      : 'no webhook, as before the check';
  const now = await saveWebhook(ctx).catch((e: unknown) => ({
    kind: 'unknown' as const,
    reason: (e as Error)?.message ?? String(e),
  }));
  if (now.kind === 'unknown') return failed(`${now.reason}, so whether it changed is unknown`, byHand, expected);
  if (saved.kind === 'none') {
    if (now.kind === 'none')
      return { ok: true, restored: false, note: `${WHAT} is as it was saved (no webhook): nothing to restore` };
    return failed(
      `there was no webhook before, now ${showWebhook(now.config)}, and the interface has no DELETE`,
      `remove that webhook (${showWebhook(now.config)}); there was none before`,
      expected,
    );
  }
  if (now.kind === 'webhook' && sameSaved(saved.config, now.config))
    return { ok: true, restored: false, note: `${WHAT} is as it was saved: nothing to restore` };
  return restoreWebhook(ctx, saved.config);
}

/**
 * Saves the configuration, runs `work` with what was saved, and restores it afterwards whatever happened: after the
 * work passed, failed or threw, and as soon as the check's time is up (the engine's grace period), without waiting for
 * the work. Skips without running the work when the configuration cannot be read. A restore that fails (or a webhook
 * that did not exist before and cannot be removed) fails the check with CLEAN-UP FAILED (`cleanup`).
 */
export async function withRestoredWebhook<T>(
  ctx: CheckContext,
  work: (saved: Extract<SavedWebhook, { kind: 'none' | 'webhook' }>) => Promise<T>,
  options: GuardOptions = {},
): Promise<T> {
  const saved = await saveWebhook(ctx);
  if (saved.kind === 'unknown')
    ctx.skip(
      `the webhook configuration could not be saved first (${saved.reason}), so nothing that could change it was sent`,
    );
  return withPutBack(
    ctx,
    () => work(saved),
    () => restoreWebhookIfChanged(ctx, saved),
    options,
  );
}
