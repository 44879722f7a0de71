// "Webhooks": POST/PUT/GET /webhooks, GET /webhooks/key, POST /webhooks/test, with their emission ties
// (WEBHOOK.CREATED, WEBHOOK.UPDATED). Delivery happens elsewhere (webhooks/service.ts), off the request path.
import { mediaType } from '../auth.js';
import { nowSeconds, type RequestContext, type RouteDef, type ServerState } from '../context.js';
import { WEBHOOK_FAULT } from '../faults/flags.js';
import { badRequest, HttpError, notFound, ok, type Reply } from '../respond.js';
import type { Webhook } from '../webhooks/registry.js';
import { publicKeyView } from '../webhooks/signing-key.js';
import { parseSubscriptions, withAutomatic, type Subscription } from '../webhooks/subscriptions.js';

/** Far above any real endpoint URL; bounds what a client can make the server store and sign. */
const MAX_URL_LENGTH = 2048;
const FIELDS = new Set(['url', 'subscriptions']);

function jsonBody(ctx: RequestContext): Record<string, unknown> {
  if (mediaType(ctx) !== 'application/json')
    throw new HttpError(415, 'Unsupported Media Type: the body must be application/json');
  let value: unknown;
  try {
    value = JSON.parse(ctx.body.toString('utf8'));
  } catch {
    throw badRequest('the body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw badRequest('the body must be a JSON object');
  const unknown = Object.keys(value).filter((k) => !FIELDS.has(k));
  if (unknown.length > 0)
    throw badRequest(`unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.slice(0, 5).join(', ')}`);
  return value as Record<string, unknown>;
}

/** "A valid https URL": absolute, https, with a host; credentials in it are refused, since they would be stored and echoed. */
function parseUrl(value: unknown, allowHttp: boolean): string {
  if (typeof value !== 'string' || value === '') throw badRequest('url must be a non-empty string');
  if (value.length > MAX_URL_LENGTH) throw badRequest(`url must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest('url must be an absolute https URL');
  }
  const schemes = allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) throw badRequest('url must be an https URL');
  if (url.hostname === '') throw badRequest('url must name a host');
  if (url.username !== '' || url.password !== '') throw badRequest('url must not carry credentials');
  return value;
}

function subscriptionsOf(state: ServerState, listed: Subscription[]): Subscription[] {
  return state.faults.has(WEBHOOK_FAULT.createdNotAutoSubscribed) ? listed : withAutomatic(listed);
}

/** The subscription names of a body; ACCOUNT is outside the Events table, which a faulty server takes as the whole list. */
function listedSubscriptions(state: ServerState, value: unknown): Subscription[] {
  const listed = parseSubscriptions(value, state.choices.unknownSubscription);
  if (state.faults.has(WEBHOOK_FAULT.accountRefused) && listed.includes('ACCOUNT'))
    throw badRequest('unknown subscription "ACCOUNT"');
  return listed;
}

function emit(
  ctx: RequestContext,
  state: ServerState,
  name: 'WEBHOOK.CREATED' | 'WEBHOOK.UPDATED',
  webhook: Webhook,
): void {
  const silenced =
    name === 'WEBHOOK.CREATED' ? WEBHOOK_FAULT.noWebhookCreatedEvent : WEBHOOK_FAULT.noWebhookUpdatedEvent;
  if (state.faults.has(silenced)) return;
  state.events.emit({ name, clientId: ctx.client!.clientId, occurredAt: nowSeconds(state), data: { ...webhook } });
}

/**
 * The answer of a webhook endpoint as the server's webhookAnswer choice shapes it ("Response bodies of all webhook
 * endpoints: not shown"): the envelope, the bare object, only webhookId and status, no body, or (GET /webhooks) a list
 * holding the webhook. GET /webhooks (the configuration) and GET /webhooks/key always carry what they are for.
 */
function answer(
  state: ServerState,
  op: 'create' | 'update' | 'configuration' | 'key' | 'test',
  body: Record<string, unknown>,
): Reply {
  const read = op === 'configuration' || op === 'key';
  switch (state.choices.webhookAnswer) {
    case 'bare':
      return { status: 200, body };
    case 'partial':
      return op === 'create' || op === 'update' ? ok({ webhookId: body.webhookId, status: body.status }) : ok(body);
    case 'empty':
      return read ? ok(body) : { status: op === 'create' ? 200 : 204 };
    // Upvest: "An object with a data property that contains an array of webhook subscription objects".
    case 'list':
      return op === 'configuration' ? ok([body]) : ok(body);
    default:
      return ok(body);
  }
}

/** After a configuration: a new key when the server generates one at each (REQ-WHKEP-05), and the webhook live again. */
function configured(ctx: RequestContext, state: ServerState): void {
  const clientId = ctx.client!.clientId;
  if (state.choices.webhookKeyRotation === 'every-configuration') state.webhooks.registry.regenerateKey(clientId);
  state.webhooks.registry.activate(clientId);
}

function existing(ctx: RequestContext, state: ServerState): Webhook {
  const webhook = state.webhooks.registry.get(ctx.client!.clientId);
  if (webhook === undefined) throw notFound();
  return webhook;
}

export const webhookRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/webhooks',
    handler(ctx, state) {
      const body = jsonBody(ctx);
      if (body.url === undefined) throw badRequest('url is required');
      if (body.subscriptions === undefined) throw badRequest('subscriptions is required');
      const url = parseUrl(body.url, state.faults.has(WEBHOOK_FAULT.httpUrlAccepted));
      const subscriptions = subscriptionsOf(state, listedSubscriptions(state, body.subscriptions));
      const created = state.webhooks.registry.create(ctx.client!.clientId, { url, subscriptions }, nowSeconds(state));
      // "Register one webhook URL": a second creation would silently replace the first; PUT is the way to change it.
      if (created === undefined)
        throw new HttpError(
          409,
          'Conflict: a webhook is already configured for this client; use PUT /webhooks to change it',
        );
      emit(ctx, state, 'WEBHOOK.CREATED', created);
      return answer(state, 'create', { ...created });
    },
  },
  {
    method: 'PUT',
    path: '/webhooks',
    handler(ctx, state) {
      const body = jsonBody(ctx);
      if (body.url === undefined && body.subscriptions === undefined)
        throw badRequest('the body must carry url, subscriptions or both');
      if (
        state.choices.webhookFields === 'both-required' &&
        (body.url === undefined || body.subscriptions === undefined)
      )
        throw badRequest('url and subscriptions are both required');
      const change: { url?: string; subscriptions?: Subscription[] } = {};
      if (body.url !== undefined) change.url = parseUrl(body.url, false);
      const listed = body.subscriptions === undefined ? undefined : listedSubscriptions(state, body.subscriptions);
      const before = existing(ctx, state);
      if (listed !== undefined) {
        const merged = state.faults.has(WEBHOOK_FAULT.subscriptionsAppended)
          ? [...new Set([...before.subscriptions, ...listed])]
          : listed;
        change.subscriptions = subscriptionsOf(state, merged);
      }
      // The faulty server echoes the url it was sent and stores everything else.
      const dropUrl = state.faults.has(WEBHOOK_FAULT.urlNotStored) && change.url !== undefined;
      const { url: _echoed, ...stored } = change;
      state.webhooks.registry.update(ctx.client!.clientId, dropUrl ? stored : change, nowSeconds(state));
      configured(ctx, state);
      const updated = existing(ctx, state);
      emit(ctx, state, 'WEBHOOK.UPDATED', updated);
      return answer(state, 'update', dropUrl ? { ...updated, url: change.url } : { ...updated });
    },
  },
  {
    method: 'GET',
    path: '/webhooks',
    handler(ctx, state) {
      return answer(state, 'configuration', { ...existing(ctx, state) });
    },
  },
  {
    method: 'GET',
    path: '/webhooks/key',
    handler(ctx, state) {
      existing(ctx, state);
      const key = state.webhooks.registry.keyOf(ctx.client!.clientId)!;
      return answer(state, 'key', publicKeyView(key, state.choices.webhookKeyFormat));
    },
  },
  {
    method: 'POST',
    path: '/webhooks/test',
    handler(ctx, state) {
      // The request body is "none shown": whatever is sent (its digest already checked) is ignored.
      if (state.faults.has(WEBHOOK_FAULT.testEndpointMissing)) throw notFound();
      const queued = state.webhooks.sendTest(ctx.client!.clientId);
      if (queued === undefined) throw notFound();
      return answer(state, 'test', {
        webhookId: queued.webhook.webhookId,
        eventId: queued.eventId,
        event: queued.event,
        status: 'QUEUED',
      });
    },
  },
];
