// Small tools for faults that rewrite a reply: each takes the reply and returns the deviating one.
import type { Middleware, RouteDef } from '../context.js';
import type { Reply } from '../respond.js';

type Rewrite = (reply: Reply) => Reply;

/** Applies `rewrite` to the successful replies of the routes `when` selects. */
export function rewriteSuccess(when: (route: RouteDef, method: string) => boolean, rewrite: Rewrite): Middleware {
  return async (ctx, _state, route, next) => {
    const reply = await next();
    return reply.status >= 200 && reply.status <= 299 && when(route, ctx.method) ? rewrite(reply) : reply;
  };
}

/** Changes `data` (object or each list item) of a successful reply. */
export function mapData(reply: Reply, change: (item: Record<string, unknown>) => Record<string, unknown>): Reply {
  const body = reply.body as { data?: unknown } & Record<string, unknown>;
  if (typeof body !== 'object' || body === null) return reply;
  const data = body.data;
  if (Array.isArray(data))
    return { ...reply, body: { ...body, data: data.map((d) => change(d as Record<string, unknown>)) } };
  if (typeof data === 'object' && data !== null)
    return { ...reply, body: { ...body, data: change(data as Record<string, unknown>) } };
  // A bare token record (alt variant) has no `data`: the body is the record.
  return { ...reply, body: change(body) };
}

export const isRoute = (path: string, method?: string) => (route: RouteDef, m: string) =>
  route.path === path && (method === undefined || m === method);

export function without<T extends Record<string, unknown>>(obj: T, key: string): T {
  const { [key]: _dropped, ...rest } = obj;
  return rest as T;
}
