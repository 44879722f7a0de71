// The reads of the webhook endpoints in observed traffic (a judge of traffic), and whether the client had configured a
// webhook before each: until it has, a server may answer GET /webhooks without one (a 404, or a 2xx with no webhook,
// as saveWebhook reads it) and GET /webhooks/key without a key; from its first 2xx POST or PUT /webhooks on, the
// configuration and its key are there to be answered.
import { type CheckContext } from '../../../src/engine/index.js';
import { headerValue, isSuccess, observedPath, observedTraffic, type HttpResponse } from '../../kit/index.js';

export interface ObservedRead {
  res: HttpResponse;
  /** The traffic showed a 2xx configuration (POST or PUT /webhooks) by the same client (X-Client-Id) before it. */
  configured: boolean;
}

/** Whose request it was: its X-Client-Id ('' without one). */
export const clientOf = (res: HttpResponse) => headerValue(res.exchange.request.headers, 'x-client-id') ?? '';

/** Whether an answer is of a configuration of the webhook: a 2xx POST or PUT /webhooks. */
export function isConfiguration(ctx: CheckContext, res: HttpResponse): boolean {
  const { method } = res.exchange.request;
  return (method === 'POST' || method === 'PUT') && observedPath(ctx, res) === '/webhooks' && isSuccess(res);
}

/** Every 2xx answer of GET `path` in the traffic; a skip when there is none. */
export function observedWebhookReads(ctx: CheckContext, path: '/webhooks' | '/webhooks/key'): ObservedRead[] {
  const traffic = observedTraffic(ctx);
  const configuredAt = new Map<string, number>();
  for (const res of traffic)
    if (isConfiguration(ctx, res) && !configuredAt.has(clientOf(res)))
      configuredAt.set(clientOf(res), res.exchange.seq);
  const reads = traffic.filter(
    (res) => res.exchange.request.method === 'GET' && observedPath(ctx, res) === path && isSuccess(res),
  );
  if (reads.length === 0) ctx.skip(`the traffic holds no 2xx answer of GET ${path}`);
  return reads.map((res) => {
    const at = configuredAt.get(clientOf(res));
    return { res, configured: at !== undefined && at < res.exchange.seq };
  });
}
