// Shapes successful replies the way the server's choices make the spec's open points (see choices/). Choices that
// live deeper (paging, USSD numbering, the webhook key's format) are made where that data is built.
import type { Middleware } from './context.js';
import type { Reply } from './respond.js';
import type { Choices } from './choices/index.js';

const EXTRA_FIELD = 'referenceExtension';

export const choicesMiddleware: Middleware = async (ctx, state, route, next) => {
  const reply = await next();
  if (reply.status < 200 || reply.status > 299) return reply;
  let shaped = reply;
  if (route.path === '/oauth/token') shaped = shapeTokenReply(shaped, state.choices);
  if (ctx.method === 'POST' && route.path === '/webhooks') shaped = { ...shaped, status: Number(state.choices.creationStatus) };
  if (state.choices.extraFields === 'added') shaped = withExtraFields(shaped);
  return shaped;
};

function shapeTokenReply(reply: Reply, choices: Choices): Reply {
  const envelope = reply.body as { data: Record<string, unknown> };
  const record = { ...envelope.data };
  if (choices.scopeFormat === 'string' && Array.isArray(record.scope)) record.scope = record.scope.join(' ');
  const body = choices.tokenEnvelope === 'envelope' ? { ...envelope, data: record } : record;
  return { ...reply, status: Number(choices.creationStatus), body };
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
