import type { FaultDefinition } from './types.js';
import { isRoute, mapData, rewriteSuccess } from './reply-rewrites.js';

const customerGet = isRoute('/customers/:customerId', 'GET');

export const resourceFaults: FaultDefinition[] = [
  {
    name: 'resources.customer-status-unknown',
    suite: 'resources',
    violates: 'Customer: status — enum ACTIVE, SUSPENDED, CLOSED',
    description: 'a customer is returned with status "DELETED"',
    middleware: rewriteSuccess(customerGet, (r) => mapData(r, (c) => ({ ...c, status: 'DELETED' }))),
  },
  {
    name: 'resources.envelope-code-number',
    suite: 'resources',
    violates: 'Response envelope: code — string — Response code (for success, the HTTP status, for example 200)',
    description: 'the envelope code is the number 200, not the string "200"',
    middleware: rewriteSuccess(customerGet, (r) => ({ ...r, body: { ...(r.body as object), code: 200 } })),
  },
  {
    name: 'resources.no-token-served',
    suite: 'resources',
    violates: 'Errors: 401 Unauthorized — every endpoint except the token endpoints',
    description: 'a request without Authorization is served as if it were authenticated',
    async middleware(ctx, state, route, next) {
      const reply = await next();
      const hasAuthorization = ctx.headers.some(([n]) => n.toLowerCase() === 'authorization');
      return reply.status === 401 && !hasAuthorization && route.auth !== 'client-credentials' ? route.handler(ctx, state) : reply;
    },
  },
  {
    name: 'resources.error-body-missing',
    suite: 'resources',
    violates: 'Errors: Error responses have the body {code, message} (both strings).',
    description: 'a 401 comes with an empty body',
    async middleware(_ctx, _state, _route, next) {
      const reply = await next();
      return reply.status === 401 ? { status: 401, headers: reply.headers ?? {} } : reply;
    },
  },
];
