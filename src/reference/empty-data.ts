// A reference server with nothing to judge (issue 26, no vacuous pass): every list endpoint answers an empty list
// (no account, instrument or transaction to read, a walk that ends at once), and every USSD view offers no option to
// follow. Laid over the server as a middleware (startLocalTarget's `middleware`), so that a test can show each check
// over a collection skips, saying why, instead of passing on nothing. The records a fixture names still answer by id:
// only what a check reads through a collection is gone.
import type { Middleware } from './context.js';
import type { PageMeta } from './respond.js';

/** The list endpoints whose answers are emptied. */
const LISTS = new Set(['/accounts', '/instruments', '/transactions', '/customers']);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Empty list answers and USSD views without options; every other answer as the server gives it. */
export function emptyCollections(): Middleware {
  return async (_ctx, _state, route, next) => {
    const reply = await next();
    if (route.method !== 'GET' || reply.status !== 200 || !isObject(reply.body)) return reply;
    const body = reply.body;
    if (LISTS.has(route.path) && Array.isArray(body.data)) {
      const meta = isObject(body.meta) ? (body.meta as Partial<PageMeta>) : undefined;
      return {
        ...reply,
        body: {
          ...body,
          data: [],
          // The last page is the first: nextPage names the page itself, as the server's default reading does.
          ...(meta ? { meta: { ...meta, nextPage: meta.currentPage, currentCount: 0, totalCount: 0 } } : {}),
        },
      };
    }
    if (route.path.startsWith('/ussd/') && isObject(body.data) && Array.isArray(body.data.ussdOptions))
      return { ...reply, body: { ...body, data: { ...body.data, ussdOptions: [] } } };
    return reply;
  };
}
