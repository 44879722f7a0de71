// Faults of the resource endpoints: wrong shapes, wrong objects, leaks between customers, crashes on bad input and
// updates that do not do what they say. All are middleware, so the routes stay the strict implementation.
import { nowSeconds, type Middleware, type RequestContext, type RouteDef } from '../context.js';
import { fail, ok, okList, type PageMeta } from '../respond.js';
import { STATUSES, type Status } from '../store.js';
import type { FaultDefinition } from './types.js';
import { isRoute, mapData, rewriteSuccess, without } from './reply-rewrites.js';

const customerGet = isRoute('/customers/:customerId', 'GET');
const customerPut = isRoute('/customers', 'PUT');
const BY_ID_PATHS = new Set(['/customers/:customerId', '/accounts/:accountId', '/assets/:assetId', '/transactions/:transactionId']);
const byIdGet = (route: RouteDef, m: string) => m === 'GET' && BY_ID_PATHS.has(route.path);
const of = (...paths: string[]) => (route: RouteDef, m: string) => m === 'GET' && paths.includes(route.path);
const accountReads = of('/accounts', '/accounts/:accountId');
const transactionReads = of('/transactions', '/transactions/:transactionId');
const REQUIRED_QUERY: Record<string, string> = { '/accounts': 'customerId', '/transactions': 'customerId', '/instruments': 'investmentType' };
const ANNOUNCED_TYPES = ['COMMODITY', 'BONDS', 'LOCAL_STOCKS', 'FOREIGN_EXCHANGE', 'CRYPTO'];
const INTEGER = /^-?[0-9]+$/;

type Item = Record<string, unknown>;

function jsonBody(ctx: RequestContext): Item | undefined {
  try {
    const v = JSON.parse(ctx.body.toString('utf8')) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Item) : undefined;
  } catch {
    return undefined;
  }
}

function emptyMeta(): PageMeta {
  return { previousPage: 0, currentPage: 0, nextPage: 0, limit: 100, currentCount: 0, totalCount: 0, sort: 'ASC' };
}

/** The customer whose items leak into another's list: the fixtures' other customer (or the main one, for the other). */
function leakingCustomer(fixtures: { customerId: number; otherCustomerId: number }, requested: number): number {
  return requested === fixtures.otherCustomerId ? fixtures.customerId : fixtures.otherCustomerId;
}

const listFilterLeak: Middleware = async (ctx, state, route, next) => {
  const reply = await next();
  if (ctx.method !== 'GET' || (route.path !== '/accounts' && route.path !== '/transactions')) return reply;
  if (reply.status !== 200 && reply.status !== 404) return reply;
  const requested = Number(ctx.query.get('customerId'));
  const other = leakingCustomer(state.store.fixtures, requested);
  const leaked: unknown[] = route.path === '/accounts' ? state.store.accountsOf(other) : state.store.transactionsOf(other);
  if (reply.status === 404) return okList(leaked, { ...emptyMeta(), currentCount: leaked.length, totalCount: leaked.length });
  const body = reply.body as { data: unknown[]; meta: PageMeta };
  const meta = { ...body.meta, currentCount: body.meta.currentCount + leaked.length, totalCount: body.meta.totalCount + leaked.length };
  return { ...reply, body: { ...body, data: [...body.data, ...leaked], meta } };
};

export const resourceFaults: FaultDefinition[] = [
  {
    name: 'resources.customer-status-unknown',
    suite: 'resources',
    breaks: ['REQ-CUST-04', 'REQ-STATE-01'],
    description: 'a customer is returned with status "DELETED"',
    middleware: rewriteSuccess(customerGet, (r) => mapData(r, (c) => ({ ...c, status: 'DELETED' }))),
  },
  {
    name: 'resources.envelope-code-number',
    suite: 'resources',
    breaks: ['REQ-ENV-03'],
    description: 'the envelope code is the number 200, not the string "200"',
    middleware: rewriteSuccess(customerGet, (r) => ({ ...r, body: { ...(r.body as object), code: 200 } })),
  },
  {
    name: 'resources.no-token-served',
    suite: 'resources',
    breaks: ['REQ-ERR-02', 'REQ-HDR-03', 'REQ-AUTH-01', 'REQ-SVC-09'],
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
    breaks: ['REQ-ERR-01', 'REQ-ERRB-01', 'REQ-ERRB-02'],
    description: 'a 401 comes with an empty body',
    async middleware(_ctx, _state, _route, next) {
      const reply = await next();
      return reply.status === 401 ? { status: 401, headers: reply.headers ?? {} } : reply;
    },
  },
  {
    name: 'resources.message-empty',
    suite: 'resources',
    breaks: ['REQ-ENV-04'],
    description: 'every successful resource response has message ""',
    middleware: rewriteSuccess(
      (route) => !route.path.startsWith('/oauth/'),
      (r) => (typeof r.body === 'object' && r.body !== null && 'message' in r.body ? { ...r, body: { ...r.body, message: '' } } : r),
    ),
  },
  {
    name: 'resources.account-field-missing',
    suite: 'resources',
    breaks: ['REQ-ACCT-01', 'REQ-ACCT-05'],
    description: 'accounts (list and by id) come without investmentType',
    middleware: rewriteSuccess(accountReads, (r) => mapData(r, (a) => without(a, 'investmentType'))),
  },
  {
    name: 'resources.currency-iso-code',
    suite: 'resources',
    breaks: ['REQ-ACCT-06', 'REQ-ASSET-12', 'REQ-TXN-05'],
    description: 'the kwacha is written with its ISO 4217 code ZMW instead of ZK in accounts, assets and transactions',
    middleware: rewriteSuccess(of('/accounts', '/accounts/:accountId', '/assets/:assetId', '/transactions', '/transactions/:transactionId'), (r) =>
      mapData(r, (x) => (x.currency === 'ZK' ? { ...x, currency: 'ZMW' } : x)),
    ),
  },
  {
    name: 'resources.asset-numbers-as-strings',
    suite: 'resources',
    breaks: ['REQ-ASSET-07', 'REQ-ASSET-08', 'REQ-ASSET-09'],
    description: 'an asset gives position, locked and available as decimal strings ("8.5")',
    middleware: rewriteSuccess(isRoute('/assets/:assetId', 'GET'), (r) =>
      mapData(r, (a) => ({ ...a, position: String(a.position), locked: String(a.locked), available: String(a.available) })),
    ),
  },
  {
    name: 'resources.transaction-amount-as-string',
    suite: 'resources',
    breaks: ['REQ-TXN-04'],
    description: 'transactions (list and by id) give amount as a string with two decimals ("25.00")',
    middleware: rewriteSuccess(transactionReads, (r) => mapData(r, (t) => ({ ...t, amount: typeof t.amount === 'number' ? t.amount.toFixed(2) : t.amount }))),
  },
  {
    name: 'resources.instrument-value-changes-object',
    suite: 'resources',
    breaks: ['REQ-INST-07'],
    description: 'valueChangeOverTime is an object keyed by timeFrame instead of an array',
    middleware: rewriteSuccess(isRoute('/instruments', 'GET'), (r) =>
      mapData(r, (i) => {
        const changes = Array.isArray(i.valueChangeOverTime) ? (i.valueChangeOverTime as Item[]) : [];
        return { ...i, valueChangeOverTime: Object.fromEntries(changes.map(({ timeFrame, ...rest }) => [String(timeFrame), rest])) };
      }),
    ),
  },
  {
    name: 'resources.wrong-object-by-id',
    suite: 'resources',
    breaks: ['REQ-TXNEP-05'],
    description: "GET /transactions/{id} answers with another transaction of the same customer (the next id)",
    async middleware(ctx, state, route, next) {
      const reply = await next();
      if (reply.status !== 200 || !isRoute('/transactions/:transactionId', 'GET')(route, ctx.method)) return reply;
      const asked = (reply.body as { data: Item }).data;
      const others = state.store.transactionsOf(asked.customerId as number).filter((t) => t.transactionId !== asked.transactionId);
      if (others.length === 0) return reply;
      others.sort((a, b) => a.transactionId - b.transactionId);
      return ok(others.find((t) => t.transactionId > (asked.transactionId as number)) ?? others[0]);
    },
  },
  {
    name: 'resources.not-found-as-empty',
    suite: 'resources',
    breaks: ['REQ-ERR-03', 'REQ-ACCTEP-07', 'REQ-CUSTEP-03', 'REQ-ASSETEP-04', 'REQ-TXNEP-06'],
    description: 'GET of a customer, account, asset or transaction that does not exist answers 200 with data {}',
    async middleware(ctx, _state, route, next) {
      const reply = await next();
      return reply.status === 404 && byIdGet(route, ctx.method) ? ok({}) : reply;
    },
  },
  {
    name: 'resources.malformed-id-crash',
    suite: 'resources',
    breaks: ['REQ-CUSTEP-01', 'REQ-ACCTEP-05', 'REQ-ASSETEP-02', 'REQ-TXNEP-04'],
    description: 'a non-integer id in the path of a GET by id answers 500',
    async middleware(ctx, _state, route, next) {
      const reply = await next();
      const bad = Object.values(ctx.params).some((v) => !INTEGER.test(v));
      return reply.status === 400 && bad && byIdGet(route, ctx.method) ? fail(500) : reply;
    },
  },
  {
    name: 'resources.missing-param-crash',
    suite: 'resources',
    breaks: ['REQ-ACCTEP-02', 'REQ-TXNEP-01', 'REQ-INSTEP-03'],
    description: 'a list requested without its required query parameter answers 500',
    async middleware(ctx, _state, route, next) {
      const reply = await next();
      const param = ctx.method === 'GET' ? REQUIRED_QUERY[route.path] : undefined;
      return param !== undefined && reply.status === 400 && !ctx.query.has(param) ? fail(500) : reply;
    },
  },
  {
    name: 'resources.announced-type-accepted',
    suite: 'resources',
    breaks: ['REQ-SVC-08'],
    description: 'GET /instruments with an announced investment type (CRYPTO…) answers 200 with an empty list',
    async middleware(ctx, _state, route, next) {
      const reply = await next();
      const type = ctx.query.get('investmentType') ?? '';
      return reply.status === 400 && isRoute('/instruments', 'GET')(route, ctx.method) && ANNOUNCED_TYPES.includes(type) ? okList([], emptyMeta()) : reply;
    },
  },
  {
    name: 'resources.list-filter-leak',
    suite: 'resources',
    breaks: ['REQ-ACCTEP-02', 'REQ-TXNEP-01', 'REQ-ACCT-03', 'REQ-TXN-03', 'REQ-ACCTEP-04', 'REQ-TXNEP-03', 'REQ-ERR-03'],
    description: "a customer's accounts and transactions lists (even of an unknown customer) also carry another customer's",
    middleware: listFilterLeak,
  },
  {
    name: 'resources.account-detail-currency-default',
    suite: 'resources',
    breaks: ['REQ-ACCTEP-06', 'REQ-ACCT-06'],
    description: 'GET /accounts/{id} reports currency USD whatever the account holds, unlike the list',
    middleware: rewriteSuccess(isRoute('/accounts/:accountId', 'GET'), (r) => mapData(r, (a) => ({ ...a, currency: 'USD' }))),
  },
  {
    name: 'resources.asset-owner-wrong',
    suite: 'resources',
    breaks: ['REQ-ASSETEP-01', 'REQ-ASSET-03'],
    description: 'GET /assets/{id} reports the owner as customerId + 1 (an off-by-one join)',
    middleware: rewriteSuccess(isRoute('/assets/:assetId', 'GET'), (r) => mapData(r, (a) => ({ ...a, customerId: (a.customerId as number) + 1 }))),
  },
  {
    name: 'resources.integer-beyond-2-53',
    suite: 'resources',
    breaks: ['REQ-HDR-20'],
    description: "transactions refer to their asset by a 64-bit id above 2^53 (2^53 + 2 × assetId), which JavaScript clients round",
    middleware: rewriteSuccess(transactionReads, (r) => mapData(r, (t) => ({ ...t, assetId: 2 ** 53 + 2 * (t.assetId as number) }))),
  },
  {
    name: 'resources.customer-update-not-saved',
    suite: 'resources',
    breaks: ['REQ-CUSTEP-04'],
    description: 'PUT /customers answers 200 with the updated customer but does not store the change',
    async middleware(ctx, state, route, next) {
      if (!customerPut(route, ctx.method)) return next();
      const id = jsonBody(ctx)?.customerId;
      const before = typeof id === 'number' ? state.store.getCustomer(id) : undefined;
      const reply = await next();
      if (before && reply.status === 200) {
        state.store.updateCustomer(before.customerId, { firstName: before.firstName, lastName: before.lastName, status: before.status, referenceId: before.referenceId }, nowSeconds(state));
      }
      return reply;
    },
  },
  {
    name: 'resources.customer-update-requires-names',
    suite: 'resources',
    breaks: ['REQ-CUSTEP-05'],
    description: 'PUT /customers without firstName and lastName is rejected with 400',
    async middleware(ctx, _state, route, next) {
      const reply = await next();
      if (!customerPut(route, ctx.method) || reply.status !== 200) return reply;
      const body = jsonBody(ctx);
      return body && (body.firstName === undefined || body.lastName === undefined) ? fail(400, 'firstName and lastName are required') : reply;
    },
  },
  {
    name: 'resources.customer-invalid-status-stored',
    suite: 'resources',
    breaks: ['REQ-CUSTEP-05'],
    description: 'PUT /customers stores a status outside the enum instead of rejecting it',
    async middleware(ctx, state, route, next) {
      const reply = await next();
      if (!customerPut(route, ctx.method) || reply.status !== 400) return reply;
      const body = jsonBody(ctx);
      const id = body?.customerId;
      const status = body?.status;
      if (typeof id !== 'number' || typeof status !== 'string' || (STATUSES as readonly string[]).includes(status) || !state.store.hasCustomer(id)) return reply;
      return ok(state.store.updateCustomer(id, { status: status as Status }, nowSeconds(state)));
    },
  },
];
