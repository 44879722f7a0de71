// Faults of webhook configuration and delivery. Delivery faults are flags (named in flags.ts): the webhook code
// (src/reference/webhooks/, routes/webhooks.ts) deviates where it checks `state.faults.has(flag)`, because a delivery
// is not a reply a middleware could rewrite. Faults of the answers to /webhooks (status-lowercase, body-not-validated,
// config-fields-missing)
// are middleware around the route, as for the other suites.
import type { FaultDefinition } from './types.js';
import { WEBHOOK_FAULT } from './flags.js';
import type { Middleware } from '../context.js';
import { nowSeconds } from '../context.js';
import { ok } from '../respond.js';
import { mapData, rewriteSuccess, without } from './reply-rewrites.js';

/**
 * A server that validates nothing in the body of POST and PUT /webhooks: where the reference answers 400 for the url or
 * the subscriptions, it stores what it was sent. Runs after authentication (inside `next`), so only a body the route
 * refused gets here.
 */
const storeUnvalidated: Middleware = async (ctx, state, route, next) => {
  const reply = await next();
  if (
    route.path !== '/webhooks' ||
    (ctx.method !== 'POST' && ctx.method !== 'PUT') ||
    reply.status !== 400 ||
    ctx.client === undefined
  )
    return reply;
  let body: unknown;
  try {
    body = JSON.parse(ctx.body.toString('utf8'));
  } catch {
    return reply;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return reply;
  const { url, subscriptions } = body as { url?: unknown; subscriptions?: unknown };
  if ((url !== undefined && typeof url !== 'string') || (subscriptions !== undefined && !Array.isArray(subscriptions)))
    return reply;
  const registry = state.webhooks.registry;
  const clientId = ctx.client.clientId;
  const now = nowSeconds(state);
  type Subscriptions = Parameters<typeof registry.create>[1]['subscriptions'];
  const stored =
    ctx.method === 'POST'
      ? url !== undefined && subscriptions !== undefined
        ? registry.create(clientId, { url, subscriptions: subscriptions as Subscriptions }, now)
        : undefined
      : registry.update(
          clientId,
          {
            ...(url !== undefined ? { url } : {}),
            ...(subscriptions !== undefined ? { subscriptions: subscriptions as Subscriptions } : {}),
          },
          now,
        );
  return stored === undefined ? reply : ok(stored);
};

export const webhookFaults: FaultDefinition[] = [
  {
    name: WEBHOOK_FAULT.wrongSigningKey,
    suite: 'webhooks',
    breaks: ['REQ-EVT-14', 'REQ-SVC-06', 'REQ-WHKEP-05'],
    description: 'deliveries are signed with a key other than the one GET /webhooks/key returns (same keyid)',
    flag: true,
  },
  {
    name: WEBHOOK_FAULT.digestMismatch,
    suite: 'webhooks',
    breaks: ['REQ-EVT-14'],
    description:
      'the Content-Digest of a delivery is not the digest of the body delivered (the signature is otherwise valid)',
    flag: true,
  },
  {
    name: WEBHOOK_FAULT.unsignedDelivery,
    suite: 'webhooks',
    breaks: ['REQ-EVT-14'],
    description: 'deliveries carry no Signature and no Signature-Input',
    flag: true,
  },
  {
    name: WEBHOOK_FAULT.unsubscribedDelivered,
    suite: 'webhooks',
    breaks: ['REQ-EVT-02'],
    description: 'every event is delivered to the webhook, subscribed or not',
    flag: true,
  },
  {
    name: WEBHOOK_FAULT.noAuthCreatedEvent,
    suite: 'webhooks',
    breaks: ['REQ-EVT-12', 'REQ-EVT-06', 'REQ-LIFE-01'],
    description: 'issuing a token delivers no AUTH.CREATED message, even to a webhook subscribed to it',
    flag: true,
  },
  {
    name: WEBHOOK_FAULT.subscriptionsAppended,
    suite: 'webhooks',
    breaks: ['REQ-EVT-13', 'REQ-WHKEP-03'],
    description: 'PUT /webhooks adds the new subscriptions to the old ones instead of replacing them',
    flag: true,
  },
  {
    name: WEBHOOK_FAULT.httpUrlAccepted,
    suite: 'webhooks',
    breaks: ['REQ-WHK-03'],
    description: 'POST /webhooks accepts a plain http URL',
    flag: true,
  },
  {
    name: WEBHOOK_FAULT.createdNotAutoSubscribed,
    suite: 'webhooks',
    breaks: ['REQ-EVT-09'],
    description:
      'WEBHOOK.CREATED is not added to the subscriptions (so the creation is not delivered unless asked for)',
    flag: true,
  },
  {
    name: WEBHOOK_FAULT.expiredSignature,
    suite: 'webhooks',
    breaks: ['REQ-AUTH-09'],
    description:
      'deliveries are signed with created 10 minutes ago and expires 5 minutes ago (a clock far behind): each has expired when it arrives',
    flag: true,
  },
  {
    name: 'webhooks.status-lowercase',
    suite: 'webhooks',
    breaks: ['REQ-WHK-02', 'REQ-STATE-04'],
    description: 'POST, PUT and GET /webhooks answer the Webhook with status "active"',
    middleware: rewriteSuccess(
      (route) => route.path === '/webhooks',
      (r) => mapData(r, (w) => ({ ...w, status: 'active' })),
    ),
  },
  {
    name: 'webhooks.body-not-validated',
    suite: 'webhooks',
    breaks: ['REQ-WHK-03'],
    description:
      'POST and PUT /webhooks store whatever url and subscription names they are sent: a url that is not a URL, or is http (what it makes of unknown names is an open point, REQ-EVT-04)',
    middleware: storeUnvalidated,
  },
  {
    name: 'webhooks.config-fields-missing',
    suite: 'webhooks',
    breaks: ['REQ-WHKEP-11'],
    description:
      'GET /webhooks answers the Webhook without createdAt and updatedAt (a server that keeps no times for its webhooks)',
    middleware: rewriteSuccess(
      (route, method) => route.path === '/webhooks' && method === 'GET',
      (r) => mapData(r, (w) => without(without(w, 'createdAt'), 'updatedAt')),
    ),
  },
  {
    name: WEBHOOK_FAULT.digestNotCovered,
    suite: 'webhooks',
    breaks: ['REQ-EVT-19'],
    description: 'the signature of a delivery does not cover content-digest, so the body is not bound to it',
    flag: true,
  },
  {
    name: WEBHOOK_FAULT.unsubscribedDeliveredLate,
    suite: 'webhooks',
    breaks: ['REQ-EVT-02'],
    description:
      'events the webhook is not subscribed to are delivered anyway, held back until after the next event it is subscribed to (a second, slower queue)',
    flag: true,
  },
  {
    name: WEBHOOK_FAULT.exactNamesIgnored,
    suite: 'webhooks',
    breaks: ['REQ-EVT-01', 'REQ-EVT-06'],
    description:
      'only ALL and the domains (AUTH, WEBHOOK) select events: a subscription to an exact name such as AUTH.CREATED delivers nothing',
    flag: true,
  },
  {
    name: WEBHOOK_FAULT.exactNameAsDomain,
    suite: 'webhooks',
    breaks: ['REQ-EVT-02'],
    description: 'an exact name subscribes its whole domain: AUTH.CREATED delivers AUTH.DELETED too',
    flag: true,
  },
  {
    name: WEBHOOK_FAULT.domainNamesIgnored,
    suite: 'webhooks',
    breaks: ['REQ-EVT-01', 'REQ-EVT-05', 'REQ-EVT-08'],
    description:
      'only ALL and exact names select events: a subscription to the domain AUTH or WEBHOOK delivers nothing',
    flag: true,
  },
  {
    name: WEBHOOK_FAULT.urlNotStored,
    suite: 'webhooks',
    breaks: ['REQ-WHKEP-03'],
    description:
      'PUT /webhooks answers with the new url but keeps the old one: GET /webhooks and the deliveries still use it',
    flag: true,
  },
  {
    name: WEBHOOK_FAULT.accountRefused,
    suite: 'webhooks',
    breaks: ['REQ-EVT-11'],
    description: 'POST and PUT /webhooks refuse the subscription ACCOUNT with 400 (it is not in the Events table)',
    flag: true,
  },
  {
    name: WEBHOOK_FAULT.formEncodedDelivery,
    suite: 'webhooks',
    breaks: ['REQ-EVT-01'],
    description:
      'deliveries are form-encoded (application/x-www-form-urlencoded, the data member as JSON text), signed and digested as sent',
    flag: true,
  },
  {
    name: WEBHOOK_FAULT.testEndpointMissing,
    suite: 'webhooks',
    breaks: ['REQ-WHKEP-07'],
    description:
      'POST /webhooks/test answers 404 to an authenticated request: the test endpoint was implemented at /auth/test, the path the text names',
    flag: true,
  },
  {
    name: WEBHOOK_FAULT.testNotDelivered,
    suite: 'webhooks',
    breaks: ['REQ-WHKEP-06'],
    description: 'POST /webhooks/test answers 200 (queued) but delivers nothing',
    flag: true,
  },
  {
    name: WEBHOOK_FAULT.noWebhookCreatedEvent,
    suite: 'webhooks',
    breaks: ['REQ-EVT-12'],
    description: 'POST /webhooks creates the webhook but emits no WEBHOOK.CREATED',
    flag: true,
  },
  {
    name: WEBHOOK_FAULT.noWebhookUpdatedEvent,
    suite: 'webhooks',
    breaks: ['REQ-EVT-12', 'REQ-EVT-10'],
    description: 'PUT /webhooks updates the webhook but emits no WEBHOOK.UPDATED',
    flag: true,
  },
];
