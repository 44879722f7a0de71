// accountEvents=on-customer-update: a server with events of the ACCOUNT domain ("Event kinds of other domains (for
// example the ACCOUNT subscription): not shown"). A successful PUT /customers emits ACCOUNT.UPDATED, delivered to
// webhooks subscribed to ACCOUNT or ALL like any event. A middleware, so the customer route knows nothing of it.
import { nowSeconds, type Middleware } from '../context.js';

export const accountEventsMiddleware: Middleware = async (ctx, state, route, next) => {
  const reply = await next();
  if (state.choices.accountEvents !== 'on-customer-update' || route.path !== '/customers' || ctx.method !== 'PUT')
    return reply;
  if (reply.status < 200 || reply.status > 299 || ctx.client === undefined) return reply;
  const customer = (reply.body as { data?: { customerId?: unknown } } | undefined)?.data;
  state.events.emit({
    name: 'ACCOUNT.UPDATED',
    clientId: ctx.client.clientId,
    occurredAt: nowSeconds(state),
    data: { customerId: customer?.customerId },
  });
  return reply;
};
