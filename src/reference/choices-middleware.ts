// Shapes successful replies the way the server's choices make the spec's open points (see choices/). Choices that
// live deeper (paging, USSD numbering, the webhook key's format) are made where that data is built.
import type { Middleware, ServerState } from './context.js';
import type { Reply } from './respond.js';
import type { Choices } from './choices/index.js';
import { RESTART_AFTER_REQUESTS } from './choices/tokens.js';
import { inTimestampUnit } from './views.js';

const EXTRA_FIELD = 'referenceExtension';

export const choicesMiddleware: Middleware = async (ctx, state, route, next) => {
  if (state.choices.tokenRestart === 'after-150') restartWhenDue(ctx.seq, state);
  const reply = await next();
  if (reply.status < 200 || reply.status > 299) return reply;
  let shaped = reply;
  if (route.path === '/oauth/token') shaped = shapeTokenReply(shaped, state.choices);
  if (route.path === '/oauth/revoke') shaped = shapeRevokeReply(shaped, state.choices);
  if (ctx.method === 'POST' && route.path === '/webhooks')
    shaped = { ...shaped, status: Number(state.choices.creationStatus) };
  if (state.choices.extraFields === 'added') shaped = withExtraFields(shaped);
  if (shaped.body !== undefined) shaped = { ...shaped, body: inTimestampUnit(shaped.body, state.choices) };
  return shaped;
};

function shapeTokenReply(reply: Reply, choices: Choices): Reply {
  const envelope = reply.body as { data: Record<string, unknown> };
  const record = { ...envelope.data };
  if (choices.scopeFormat === 'string' && Array.isArray(record.scope)) record.scope = record.scope.join(' ');
  // Choice maxTtl: the same 60 minutes, counted in minutes.
  if (choices.maxTtl === 'minutes' && typeof record.maxTTL === 'number') record.maxTTL = record.maxTTL / 60;
  let body: Record<string, unknown> = record;
  if (choices.tokenEnvelope === 'envelope') body = { ...envelope, data: record };
  // Choice tokenEnvelope=envelope-message: one message for the answer, the envelope's, and none inside data.
  if (choices.tokenEnvelope === 'envelope-message') {
    const { message, ...rest } = record;
    body = { ...envelope, data: rest, message };
  }
  return { ...reply, status: Number(choices.creationStatus), body };
}

/** Per server: how many of RESTART_AFTER_REQUESTS it has gone through. */
const restarts = new WeakMap<ServerState, number>();

/** Choice tokenRestart: past its Nth request the server forgets every token, as one that restarts does. */
function restartWhenDue(seq: number, state: ServerState): void {
  const done = restarts.get(state) ?? 0;
  const due = RESTART_AFTER_REQUESTS.filter((n) => seq > n).length;
  if (due <= done) return;
  restarts.set(state, due);
  state.tokens.forgetAll();
}

/** Choice revokeReply: the body of revoke is not shown; 204 or 200 without one are readings too. */
function shapeRevokeReply(reply: Reply, choices: Choices): Reply {
  if (choices.revokeReply === 'no-content')
    return { status: 204, ...(reply.headers ? { headers: reply.headers } : {}) };
  if (choices.revokeReply === 'empty') return { status: 200, ...(reply.headers ? { headers: reply.headers } : {}) };
  return reply;
}

/** Adds an unknown member to every object under `data` (and to `meta`): a client must ignore what it does not know. */
function withExtraFields(reply: Reply): Reply {
  const body = reply.body as Record<string, unknown> | undefined;
  if (typeof body !== 'object' || body === null) return reply;
  return { ...reply, body: addExtra(body, true) };
}

function addExtra(value: unknown, root = false): unknown {
  if (Array.isArray(value)) return value.map((v) => addExtra(v));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = addExtra(v);
  // The envelope itself keeps its exact members; everything inside it gains one.
  if (!root) out[EXTRA_FIELD] = 'added';
  return out;
}
