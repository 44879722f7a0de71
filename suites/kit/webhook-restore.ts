// The client's webhook configuration: one way to read and save it, one restore, one wording. The webhooks suite saves
// it before its first change and restores it at the end (its restore check, else its teardown); a check of another
// suite that may change it (a POST /webhooks that must be refused) saves and restores it around its work.
//
// The rules: GET /webhooks is read leniently, since the answer's body is not shown (REQ-WHKEP-08): a 404, an empty
// body or one without a Webhook means none; the Webhook is `data`, the first item of a `data` list, or the bare body;
// an answer that cannot be read leaves the configuration unknown, and nothing that could change it is sent. The
// restore is one PUT /webhooks with the saved url and subscriptions, then GET /webhooks, which must show them (the
// automatic WEBHOOK.CREATED aside, order aside). No webhook before and one after cannot be undone: the interface has
// no DELETE; the webhook a run created is left narrowed to WEBHOOK.CREATED alone (QUIET_SUBSCRIPTIONS), and the run
// says what it left (url, subscriptions).
//
// Before the first change, the saved configuration goes to the run's restore journal (subject "the webhook
// configuration"; kind "webhook" with the saved url and subscriptions, or "webhook-none" with the urls the run sets):
// a run killed before its restore leaves it, and the next run (or `conformance restore`) puts it back (webhookPutBack).
import type { HttpResponse } from '../../src/http/client.js';
import type { EntryInput, EntryPutBack } from '../../src/journal/journal.js';
import { TransportError } from '../../src/http/client.js';
import { parseJson } from '../../src/http/json.js';
import type { CheckContext } from '../../src/engine/index.js';
import { cleanUpFailed, withPutBack, type GuardOptions, type PutBack, type Sender } from './clean-up.js';
import { describeResponse } from './expect.js';
import { isSuccess } from './negative.js';

/** The subscription a server adds to a created webhook by itself: a restore may bring it back, a difference no client avoids. */
export const AUTOMATIC_SUBSCRIPTION = 'WEBHOOK.CREATED';

/**
 * The fewest subscriptions the interface allows a webhook: the one it creates automatically, whose event (the
 * webhook's creation) cannot recur while the webhook exists, so a webhook subscribed to it alone draws no delivery.
 * An empty list is not sent: a server may read it as no filter at all.
 */
const QUIET_SUBSCRIPTIONS: readonly string[] = [AUTOMATIC_SUBSCRIPTION];

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
    await settleRecorded(ctx, saved, `${WHAT} (${showWebhook(saved)})`);
    return {
      ok: true,
      restored: true,
      note: `${WHAT} was restored: PUT /webhooks answered ${put.status}, and GET /webhooks shows ${showWebhook(saved)}`,
      said: `${WHAT} (${showWebhook(saved)})`,
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
      return {
        ok: true,
        restored: false,
        note: `${WHAT} is as it was saved (no webhook): nothing to restore`,
        said: `${WHAT} (no webhook, as it was)`,
      };
    return failed(
      `there was no webhook before, now ${showWebhook(now.config)}, and the interface has no DELETE`,
      `remove that webhook (${showWebhook(now.config)}); there was none before`,
      expected,
    );
  }
  if (now.kind === 'webhook' && sameSaved(saved.config, now.config))
    return {
      ok: true,
      restored: false,
      note: `${WHAT} is as it was saved: nothing to restore`,
      said: `${WHAT} (as it was: ${showWebhook(saved.config)})`,
    };
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
    (sender) => restoreWebhookIfChanged(sender, saved),
    // No webhook before: the urls the work sets are its own (a .invalid host, which a replay recognises).
    { ...options, journal: webhookEntry(saved, []) },
  );
}

// ---- the restore journal, and the webhook a run leaves ----------------------------------------------------------

const SUBJECT = 'the webhook configuration';
const ENTRY_SAVED = 'webhook';
const ENTRY_NONE = 'webhook-none';

/** The journal entry of a change to the configuration saved as `saved`; `urls`: those the run sets (none before). */
function webhookEntry(
  saved: Extract<SavedWebhook, { kind: 'none' | 'webhook' }>,
  urls: readonly unknown[],
): EntryInput {
  if (saved.kind === 'webhook')
    return {
      subject: SUBJECT,
      kind: ENTRY_SAVED,
      what: WHAT,
      byHand: restoreRequest(saved.config),
      data: { url: saved.config.url, subscriptions: saved.config.subscriptions },
    };
  return {
    subject: SUBJECT,
    kind: ENTRY_NONE,
    what: WHAT,
    byHand: `there was no webhook before the run, and the interface has no DELETE: narrow the one it created with PUT /webhooks {"url": <its url>, "subscriptions": ${JSON.stringify(QUIET_SUBSCRIPTIONS)}}`,
    data: { urls: urls.filter((u) => typeof u === 'string') },
  };
}

/** The journal entries a suite wrote for its saved configuration (one per saved state), by that state and its config. */
const recorded = new WeakMap<object, { id: Promise<string>; keys: object[] }>();

/**
 * Writes the saved configuration to the run's restore journal before a suite's first change to it (once per saved
 * state); `url` is the one the suite sets (its receiver's), which a replay recognises as the run's when no webhook
 * existed before. The entry is settled by restoreWebhook (or leaveWebhookQuiet) once it is put back.
 */
export async function journalWebhookChange(ctx: Sender, saved: SavedWebhook, url: unknown): Promise<void> {
  if (saved.kind === 'unknown' || ctx.journal === undefined || recorded.has(saved)) return;
  const keys = saved.kind === 'webhook' ? [saved, saved.config] : [saved];
  const entry = { id: ctx.journal.record(webhookEntry(saved, [url])), keys };
  for (const k of keys) recorded.set(k, entry);
  await entry.id;
}

async function settleRecorded(ctx: Sender, key: object, said: string): Promise<void> {
  const entry = recorded.get(key);
  if (entry === undefined || ctx.journal === undefined) return;
  for (const k of entry.keys) recorded.delete(k);
  await ctx.journal.done(await entry.id, said);
}

/** Whether a url is one the run set: one it listed, or a .invalid host (RFC 6761), which checks use for urls that must not work. */
function setByRun(url: unknown, urls: readonly unknown[]): boolean {
  if (urls.includes(url)) return true;
  try {
    return typeof url === 'string' && new URL(url).hostname.endsWith('.invalid');
  } catch {
    return false;
  }
}

/**
 * Narrows the webhook a run created (none existed before; the interface has no DELETE) to QUIET_SUBSCRIPTIONS, its url
 * as it is: PUT /webhooks, then GET /webhooks must show no other subscription. A webhook whose url the run did not set
 * is left as it is. Never throws.
 */
async function narrowLeftWebhook(ctx: Sender, urls: readonly unknown[]): Promise<PutBack> {
  const expected = `the webhook the run created narrowed to ${JSON.stringify(QUIET_SUBSCRIPTIONS)}`;
  const byHand = (url: unknown) =>
    `PUT /webhooks ${JSON.stringify({ url, subscriptions: QUIET_SUBSCRIPTIONS })} (there was no webhook before the run, and the interface has no DELETE)`;
  const now = await saveWebhook(ctx).catch((e: unknown) => ({
    kind: 'unknown' as const,
    reason: (e as Error)?.message ?? String(e),
  }));
  if (now.kind === 'unknown')
    return failed(`${now.reason}, so what the run left is unknown`, byHand('<its url>'), expected);
  if (now.kind === 'none')
    return {
      ok: true,
      restored: false,
      note: `${WHAT} is as it was before the run: no webhook`,
      said: `${WHAT} (no webhook, as it was)`,
    };
  const left = now.config;
  const quiet = (c: WebhookConfig | undefined) =>
    c !== undefined && c.subscriptions.every((s) => QUIET_SUBSCRIPTIONS.includes(s));
  const stays = (how: string) =>
    `there was no webhook before the run, and the interface has no DELETE: the one it created stays, ${how}: ${showWebhook(left)}`;
  if (!setByRun(left.url, urls))
    return {
      ok: true,
      restored: false,
      note: `a webhook the run did not configure is there now (${showWebhook(left)}): left as it is`,
      said: `${WHAT} (a webhook the run did not configure is there now: left as it is)`,
    };
  if (quiet(left))
    return {
      ok: true,
      restored: false,
      note: stays('subscribed to its own creation only, so it draws no delivery'),
      said: `${WHAT} (no webhook before the run; the one it created stays: ${showWebhook(left)})`,
    };
  try {
    const put = await ctx.send({
      method: 'PUT',
      path: '/webhooks',
      json: { url: left.url, subscriptions: QUIET_SUBSCRIPTIONS },
    });
    if (!isSuccess(put))
      return failed(
        `PUT /webhooks to narrow it answered ${put.status}; it stays ${showWebhook(left)}, drawing deliveries nothing receives`,
        byHand(left.url),
        expected,
        put,
      );
    const read = await ctx.send({ method: 'GET', path: '/webhooks' });
    const w = isSuccess(read) ? webhookOfResponse(read) : undefined;
    const config = w && configOf(w);
    if (!quiet(config))
      return failed(
        `after the narrowing PUT, GET /webhooks showed ${showWebhook(config)}`,
        byHand(left.url),
        expected,
        read,
      );
    const shown = { ...left, subscriptions: config!.subscriptions };
    return {
      ok: true,
      restored: true,
      note: `there was no webhook before the run, and the interface has no DELETE: the one it created stays, narrowed to the subscription the server adds by itself, whose event (its creation) cannot recur, so it draws no delivery: ${showWebhook(shown)} (PUT /webhooks answered ${put.status})`,
      said: `${WHAT} (no webhook before the run; the one it created stays, narrowed: ${showWebhook(shown)})`,
    };
  } catch (e) {
    return failed((e as Error)?.message ?? String(e), byHand(left.url), expected);
  }
}

/**
 * At the end of a run that created the client's webhook (none existed before, `saved`): narrows it (narrowLeftWebhook)
 * and says what was left as a note of the run, or returns the CLEAN-UP FAILED line. `urls`: those the run set (its
 * receiver's).
 */
export async function leaveWebhookQuiet(
  run: Sender & { note(text: string): void },
  saved: SavedWebhook,
  urls: readonly unknown[],
): Promise<string[]> {
  const done = await narrowLeftWebhook(run, urls);
  if (!done.ok) return [done.line];
  run.note(done.note);
  await settleRecorded(run, saved, done.said ?? WHAT);
  return [];
}

/**
 * Puts back the configuration an earlier run's journal entry saved (the run was killed before its restore): the saved
 * one, read first and sent only when it differs; or, when there was none, the webhook the run created narrowed.
 * Undefined for an entry of another kind.
 */
export async function webhookPutBack(
  entry: { kind: string; data: unknown; byHand: string },
  sender: Sender,
): Promise<EntryPutBack | undefined> {
  const data = (typeof entry.data === 'object' && entry.data !== null ? entry.data : {}) as Record<string, unknown>;
  let put: PutBack;
  if (entry.kind === ENTRY_SAVED) {
    if (!Array.isArray(data.subscriptions) || !data.subscriptions.every((s) => typeof s === 'string'))
      return { ok: false, problem: 'the journal entry holds no saved configuration', byHand: entry.byHand };
    const config: WebhookConfig = {
      url: data.url,
      subscriptions: data.subscriptions as string[],
      status: undefined,
      webhookId: undefined,
    };
    put = await restoreWebhookIfChanged(sender, { kind: 'webhook', config, how: 'the restore journal' });
  } else if (entry.kind === ENTRY_NONE) {
    put = await narrowLeftWebhook(sender, Array.isArray(data.urls) ? data.urls : []);
  } else return undefined;
  return put.ok ? { ok: true, said: put.said ?? WHAT } : { ok: false, problem: put.problem, byHand: put.byHand };
}
