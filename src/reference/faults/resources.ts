// Faults of the resource endpoints: wrong shapes, wrong objects, leaks between customers, crashes on bad input and
// updates that do not do what they say. All are middleware, so the routes stay the strict implementation.
import { nowSeconds, type Middleware, type RequestContext, type RouteDef, type ServerState } from '../context.js';
import { HttpError, fail, ok, okList, type PageMeta, type Reply } from '../respond.js';
import { parseCustomerUpdate } from '../routes/customers.js';
import { STATUSES, type Status } from '../store.js';
import type { FaultDefinition } from './types.js';
import { isRoute, mapData, rewriteSuccess, without } from './reply-rewrites.js';

const customerGet = isRoute('/customers/:customerId', 'GET');
const customerPut = isRoute('/customers', 'PUT');
const BY_ID_PATHS = new Set([
  '/customers/:customerId',
  '/accounts/:accountId',
  '/assets/:assetId',
  '/transactions/:transactionId',
]);
const byIdGet = (route: RouteDef, m: string) => m === 'GET' && BY_ID_PATHS.has(route.path);
const of =
  (...paths: string[]) =>
  (route: RouteDef, m: string) =>
    m === 'GET' && paths.includes(route.path);
const accountReads = of('/accounts', '/accounts/:accountId');
const transactionReads = of('/transactions', '/transactions/:transactionId');
/** The routes of "Customers", "Accounts", "Instruments", "Assets" and "Transactions". */
const resourceRoute = (route: RouteDef) =>
  /^\/(customers|accounts|instruments|assets|transactions)(\/|$)/.test(route.path);
const ussdRoute = (route: RouteDef) => route.path.startsWith('/ussd/');
const REQUIRED_QUERY: Record<string, string> = {
  '/accounts': 'customerId',
  '/transactions': 'customerId',
  '/instruments': 'investmentType',
};
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

/**
 * The first page of a customer's list carries one item of another customer in place of its last: counts, limits and
 * the createdAt order stay as they were (the item takes the place's createdAt), so only the isolation shows.
 */
const listFilterLeak: Middleware = async (ctx, state, route, next) => {
  const reply = await next();
  if (ctx.method !== 'GET' || (route.path !== '/accounts' && route.path !== '/transactions')) return reply;
  if (reply.status !== 200 && reply.status !== 404) return reply;
  const requested = Number(ctx.query.get('customerId'));
  const other = leakingCustomer(state.store.fixtures, requested);
  const leaked: Array<{ createdAt: number; updatedAt: number }> =
    route.path === '/accounts' ? state.store.accountsOf(other) : state.store.transactionsOf(other);
  if (reply.status === 404)
    return okList(leaked, { ...emptyMeta(), currentCount: leaked.length, totalCount: leaked.length });
  const body = reply.body as { data: Item[]; meta: PageMeta };
  const page = ctx.query.get('page');
  if ((page !== null && Number(page) !== 0) || body.data.length === 0 || leaked.length === 0) return reply;
  const last = body.data[body.data.length - 1]!;
  const stranger = { ...leaked[0]!, createdAt: last.createdAt, updatedAt: last.updatedAt };
  return { ...reply, body: { ...body, data: [...body.data.slice(0, -1), stranger] } };
};

/**
 * PUT /customers for a known customer that the server refused (400) for a body `invalid` selects is answered 200 with
 * the customer as it was: the body answered and ignored, nothing stored.
 */
function invalidUpdateIgnored(invalid: (body: Item) => boolean): Middleware {
  return async (ctx, state, route, next) => {
    const reply = await next();
    if (!customerPut(route, ctx.method) || reply.status !== 400) return reply;
    const body = jsonBody(ctx);
    const id = body?.customerId;
    return body && typeof id === 'number' && state.store.hasCustomer(id) && invalid(body)
      ? ok(state.store.getCustomer(id))
      : reply;
  };
}

/** A request without Authorization that the auth layer refused is served anyway on the routes `when` selects. */
function servedWithoutToken(
  when: (route: RouteDef) => boolean,
  asClient: (ctx: RequestContext, state: ServerState) => void = () => undefined,
): Middleware {
  return async (ctx, state, route, next) => {
    const reply = await next();
    const hasAuthorization = ctx.headers.some(([n]) => n.toLowerCase() === 'authorization');
    if (reply.status !== 401 || hasAuthorization || route.auth === 'client-credentials' || !when(route)) return reply;
    asClient(ctx, state);
    try {
      return await route.handler(ctx, state);
    } catch (e) {
      if (e instanceof HttpError) return e.toReply();
      throw e;
    }
  };
}

/** Rewrites the error replies (status in `statuses`) of the routes `when` selects. */
function rewriteError(
  statuses: readonly number[],
  when: (route: RouteDef, method: string) => boolean,
  rewrite: (reply: Reply) => Reply,
): Middleware {
  return async (ctx, _state, route, next) => {
    const reply = await next();
    return statuses.includes(reply.status) && when(route, ctx.method) ? rewrite(reply) : reply;
  };
}

function messageOf(reply: Reply): string {
  const body = reply.body as { message?: unknown } | undefined;
  return typeof body?.message === 'string' ? body.message : 'Bad Request';
}

export const resourceFaults: FaultDefinition[] = [
  {
    name: 'resources.customer-status-unknown',
    suite: 'resources',
    breaks: ['REQ-CUST-04', 'REQ-STATE-01'],
    description:
      'the fixture customer is returned with status "DELETED" (a soft-deleted customer, in a state the enum does not have)',
    async middleware(ctx, state, route, next) {
      const reply = await next();
      if (
        reply.status !== 200 ||
        !customerGet(route, ctx.method) ||
        Number(ctx.params.customerId) !== state.store.fixtures.customerId
      )
        return reply;
      return mapData(reply, (c) => ({ ...c, status: 'DELETED' }));
    },
  },
  {
    name: 'resources.envelope-code-number',
    suite: 'resources',
    breaks: ['REQ-ENV-03'],
    description: 'the envelope code is the number 200, not the string "200"',
    middleware: rewriteSuccess(customerGet, (r) => ({ ...r, body: { ...(r.body as object), code: 200 } })),
  },
  {
    // Where the envelope's owner (resources.customers.get) sees nothing wrong: the check that saw it must fail for it.
    name: 'resources.account-envelope-code-number',
    suite: 'resources',
    breaks: ['REQ-ENV-03'],
    description: 'GET /accounts/{accountId} alone gives the envelope code as the number 200, not the string "200"',
    middleware: rewriteSuccess(isRoute('/accounts/:accountId', 'GET'), (r) => ({
      ...r,
      body: { ...(r.body as object), code: 200 },
    })),
  },
  {
    // A rewrite of finished replies, so it lives here beside its /accounts twin rather than among the USSD flags.
    name: 'ussd.envelope-code-number',
    suite: 'ussd',
    breaks: ['REQ-ENV-03'],
    description: 'the USSD views alone give the envelope code as the number 200, not the string "200"',
    middleware: rewriteSuccess(
      (route) => route.path.startsWith('/ussd/'),
      (r) => ({ ...r, body: { ...(r.body as object), code: 200 } }),
    ),
  },
  {
    name: 'resources.no-token-served',
    suite: 'resources',
    breaks: ['REQ-ERR-02', 'REQ-AUTH-01', 'REQ-SVC-09'],
    description: 'a request without Authorization is served as if it were authenticated',
    middleware: servedWithoutToken(() => true),
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
      (r) =>
        typeof r.body === 'object' && r.body !== null && 'message' in r.body
          ? { ...r, body: { ...r.body, message: '' } }
          : r,
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
    middleware: rewriteSuccess(
      of('/accounts', '/accounts/:accountId', '/assets/:assetId', '/transactions', '/transactions/:transactionId'),
      (r) => mapData(r, (x) => (x.currency === 'ZK' ? { ...x, currency: 'ZMW' } : x)),
    ),
  },
  {
    name: 'resources.asset-numbers-as-strings',
    suite: 'resources',
    breaks: ['REQ-ASSET-07', 'REQ-ASSET-08', 'REQ-ASSET-09'],
    description: 'an asset gives position, locked and available as decimal strings ("8.5")',
    middleware: rewriteSuccess(isRoute('/assets/:assetId', 'GET'), (r) =>
      mapData(r, (a) => ({
        ...a,
        position: String(a.position),
        locked: String(a.locked),
        available: String(a.available),
      })),
    ),
  },
  {
    name: 'resources.transaction-amount-as-string',
    suite: 'resources',
    breaks: ['REQ-TXN-04'],
    description: 'transactions (list and by id) give amount as a string with two decimals ("25.00")',
    middleware: rewriteSuccess(transactionReads, (r) =>
      mapData(r, (t) => ({ ...t, amount: typeof t.amount === 'number' ? t.amount.toFixed(2) : t.amount })),
    ),
  },
  {
    name: 'resources.instrument-value-changes-object',
    suite: 'resources',
    breaks: ['REQ-INST-07'],
    description: 'valueChangeOverTime is an object keyed by timeFrame instead of an array',
    middleware: rewriteSuccess(isRoute('/instruments', 'GET'), (r) =>
      mapData(r, (i) => {
        const changes = Array.isArray(i.valueChangeOverTime) ? (i.valueChangeOverTime as Item[]) : [];
        return {
          ...i,
          valueChangeOverTime: Object.fromEntries(changes.map(({ timeFrame, ...rest }) => [String(timeFrame), rest])),
        };
      }),
    ),
  },
  // Fields left out of tables without a Required column: the presence check (SHOULD) alone catches them.
  {
    name: 'resources.instrument-field-missing',
    suite: 'resources',
    breaks: ['REQ-INSTEP-06'],
    description: 'instruments come without fractionalEnabled (a column added later, left out of the list query)',
    middleware: rewriteSuccess(isRoute('/instruments', 'GET'), (r) =>
      mapData(r, (i) => without(i, 'fractionalEnabled')),
    ),
  },
  {
    name: 'resources.asset-field-missing',
    suite: 'resources',
    breaks: ['REQ-ASSETEP-05'],
    description: 'an asset comes without marketPrice while the price feed is down',
    middleware: rewriteSuccess(isRoute('/assets/:assetId', 'GET'), (r) => mapData(r, (a) => without(a, 'marketPrice'))),
  },
  {
    name: 'resources.transaction-field-missing',
    suite: 'resources',
    breaks: ['REQ-TXNEP-07', 'REQ-TXNEP-08'],
    description: 'transactions (list and by id) come without requestType',
    middleware: rewriteSuccess(transactionReads, (r) => mapData(r, (t) => without(t, 'requestType'))),
  },
  {
    name: 'resources.wrong-object-by-id',
    suite: 'resources',
    breaks: ['REQ-TXNEP-05'],
    description: 'GET /transactions/{id} answers with another transaction of the same customer (the next id)',
    async middleware(ctx, state, route, next) {
      const reply = await next();
      if (reply.status !== 200 || !isRoute('/transactions/:transactionId', 'GET')(route, ctx.method)) return reply;
      const asked = (reply.body as { data: Item }).data;
      const others = state.store
        .transactionsOf(asked.customerId as number)
        .filter((t) => t.transactionId !== asked.transactionId);
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
      return reply.status === 400 && isRoute('/instruments', 'GET')(route, ctx.method) && ANNOUNCED_TYPES.includes(type)
        ? okList([], emptyMeta())
        : reply;
    },
  },
  {
    name: 'resources.list-filter-leak',
    suite: 'resources',
    breaks: [
      'REQ-ACCTEP-02',
      'REQ-TXNEP-01',
      'REQ-ACCT-03',
      'REQ-TXN-03',
      'REQ-ACCTEP-04',
      'REQ-TXNEP-03',
      'REQ-ERR-03',
    ],
    description:
      "the first page of a customer's accounts and transactions carries another customer's item in place of its last (a cache keyed by the wrong customer); the lists of an unknown customer are another's",
    middleware: listFilterLeak,
  },
  {
    name: 'resources.account-detail-currency-default',
    suite: 'resources',
    breaks: ['REQ-ACCTEP-06', 'REQ-ACCT-06'],
    description: 'GET /accounts/{id} reports currency USD whatever the account holds, unlike the list',
    middleware: rewriteSuccess(isRoute('/accounts/:accountId', 'GET'), (r) =>
      mapData(r, (a) => ({ ...a, currency: 'USD' })),
    ),
  },
  {
    name: 'resources.asset-owner-wrong',
    suite: 'resources',
    breaks: ['REQ-ASSETEP-01', 'REQ-ASSET-03'],
    description: 'GET /assets/{id} reports the owner as customerId + 1 (an off-by-one join)',
    middleware: rewriteSuccess(isRoute('/assets/:assetId', 'GET'), (r) =>
      mapData(r, (a) => ({ ...a, customerId: (a.customerId as number) + 1 })),
    ),
  },
  {
    name: 'resources.integer-beyond-2-53',
    suite: 'resources',
    breaks: ['REQ-HDR-20'],
    description:
      'transactions refer to their asset by a 64-bit id above 2^53 (2^53 + 2 × assetId), which JavaScript clients round',
    middleware: rewriteSuccess(transactionReads, (r) =>
      mapData(r, (t) => ({ ...t, assetId: 2 ** 53 + 2 * (t.assetId as number) })),
    ),
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
        state.store.updateCustomer(
          before.customerId,
          {
            firstName: before.firstName,
            lastName: before.lastName,
            status: before.status,
            referenceId: before.referenceId,
          },
          nowSeconds(state),
        );
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
      return body && (body.firstName === undefined || body.lastName === undefined)
        ? fail(400, 'firstName and lastName are required')
        : reply;
    },
  },
  {
    name: 'resources.customer-invalid-status-stored',
    suite: 'resources',
    breaks: ['REQ-CUSTEP-10'],
    description: 'PUT /customers stores a status outside the enum instead of rejecting it',
    async middleware(ctx, state, route, next) {
      const reply = await next();
      if (!customerPut(route, ctx.method) || reply.status !== 400) return reply;
      const body = jsonBody(ctx);
      const id = body?.customerId;
      const status = body?.status;
      if (
        typeof id !== 'number' ||
        typeof status !== 'string' ||
        (STATUSES as readonly string[]).includes(status) ||
        !state.store.hasCustomer(id)
      )
        return reply;
      return ok(state.store.updateCustomer(id, { status: status as Status }, nowSeconds(state)));
    },
  },
  {
    name: 'resources.customer-invalid-values-ignored',
    suite: 'resources',
    breaks: ['REQ-CUSTEP-10'],
    description:
      'PUT /customers answers 200 to a value outside its type (status "NOT_A_STATUS", a number for a name) and leaves the customer as it was',
    middleware: invalidUpdateIgnored(() => true),
  },
  {
    name: 'resources.customer-field-types-ignored',
    suite: 'resources',
    breaks: ['REQ-CUSTEP-10'],
    description:
      'PUT /customers answers 200 to a wrongly typed firstName, lastName or referenceId (a number for a name, a string for referenceId) and leaves the customer as it was; a status outside the enum is still refused',
    middleware: invalidUpdateIgnored(
      (body) =>
        ['firstName', 'lastName'].some((f) => body[f] !== undefined && typeof body[f] !== 'string') ||
        (body.referenceId !== undefined && !Number.isSafeInteger(body.referenceId)),
    ),
  },
  {
    name: 'resources.validation-error-shape',
    suite: 'resources',
    breaks: ['REQ-ERR-01', 'REQ-ERRB-01', 'REQ-ERRB-02'],
    description:
      'validation failures (400) of the resource endpoints come as {"error": "…"}, the validation framework\'s own shape',
    middleware: rewriteError([400], resourceRoute, (r) => ({ ...r, body: { error: messageOf(r) } })),
  },
  {
    name: 'resources.unauthorized-message-text',
    suite: 'resources',
    breaks: ['REQ-ERR-02'],
    description: 'every 401 says "Invalid token" instead of "Unauthorized"',
    // Only the message deviates: the code still names the rule the request broke.
    middleware: rewriteError(
      [401],
      () => true,
      (r) => ({ ...r, body: { ...(r.body as object), message: 'Invalid token' } }),
    ),
  },
  {
    name: 'resources.not-found-message-text',
    suite: 'resources',
    breaks: ['REQ-ERR-03'],
    description: 'GET /customers/{id} of a customer that does not exist says "No such customer" instead of "Not Found"',
    middleware: rewriteError([404], customerGet, (r) => fail(404, 'No such customer', r.headers)),
  },
  {
    name: 'resources.customer-update-unknown-accepted',
    suite: 'resources',
    breaks: ['REQ-CUSTEP-08', 'REQ-ERR-03'],
    description:
      'PUT /customers for a customer that does not exist answers 200 with the body as the customer (an UPDATE that matched no row, unnoticed); nothing is stored',
    async middleware(ctx, state, route, next) {
      const reply = await next();
      if (!customerPut(route, ctx.method) || reply.status !== 404) return reply;
      const body = jsonBody(ctx);
      const now = nowSeconds(state);
      return body && Number.isSafeInteger(body.customerId) ? ok({ ...body, createdAt: now, updatedAt: now }) : reply;
    },
  },
  {
    name: 'resources.customer-update-id-unchecked',
    suite: 'resources',
    breaks: ['REQ-CUSTEP-05'],
    description:
      'PUT /customers with a body that is not JSON, or without an integer customerId, answers 500 (it reaches the database unchecked)',
    async middleware(ctx, _state, route, next) {
      const reply = await next();
      if (!customerPut(route, ctx.method) || reply.status !== 400) return reply;
      const body = jsonBody(ctx);
      return body === undefined || !Number.isSafeInteger(body.customerId) ? fail(500) : reply;
    },
  },
  {
    name: 'resources.reference-id-conflict-accepted',
    suite: 'resources',
    breaks: ['REQ-CUST-05'],
    description: 'PUT /customers stores a referenceId that another customer holds (no unique constraint on the column)',
    async middleware(ctx, state, route, next) {
      const reply = await next();
      if (!customerPut(route, ctx.method) || reply.status !== 409) return reply;
      const body = jsonBody(ctx);
      if (body === undefined) return reply;
      const { customerId, patch } = parseCustomerUpdate(body);
      return ok(state.store.updateCustomer(customerId, patch, nowSeconds(state)));
    },
  },
  {
    name: 'resources.reference-id-duplicated',
    suite: 'resources',
    breaks: ['REQ-CUST-05'],
    description:
      "the other fixture customer shows the fixture customer's referenceId (an import that did not keep it unique)",
    async middleware(ctx, state, route, next) {
      const reply = await next();
      const { customerId, otherCustomerId } = state.store.fixtures;
      if (reply.status !== 200 || !customerGet(route, ctx.method) || Number(ctx.params.customerId) !== otherCustomerId)
        return reply;
      const shared = state.store.getCustomer(customerId)?.referenceId;
      return shared === undefined ? reply : mapData(reply, (c) => ({ ...c, referenceId: shared }));
    },
  },
  {
    name: 'resources.account-listed-twice',
    suite: 'resources',
    breaks: ['REQ-ACCT-02'],
    description:
      "a page of a customer's accounts shows its first account again in place of its last (a join that repeats a row)",
    middleware: rewriteSuccess(isRoute('/accounts', 'GET'), (r) => {
      const body = r.body as { data: Item[] };
      return body.data.length < 2 ? r : { ...r, body: { ...body, data: [...body.data.slice(0, -1), body.data[0]!] } };
    }),
  },
  {
    name: 'resources.asset-timestamps-millis',
    suite: 'resources',
    breaks: ['REQ-ASSET-13', 'REQ-ASSET-14'],
    description:
      "GET /assets/{id} gives createdAt and updatedAt a thousand times too large (milliseconds on a server that counts seconds): one record in another unit than the server's other timestamps",
    middleware: rewriteSuccess(isRoute('/assets/:assetId', 'GET'), (r) =>
      mapData(r, (a) => ({
        ...a,
        createdAt: (a.createdAt as number) * 1000,
        updatedAt: (a.updatedAt as number) * 1000,
      })),
    ),
  },
  {
    name: 'resources.transaction-timestamps-microseconds',
    suite: 'resources',
    breaks: ['REQ-TXN-08', 'REQ-TXN-09'],
    description:
      'transactions (list and by id) give createdAt and updatedAt in microseconds: no Unix time in seconds or in milliseconds',
    middleware: rewriteSuccess(transactionReads, (r) =>
      mapData(r, (t) => ({
        ...t,
        createdAt: (t.createdAt as number) * 1_000_000,
        updatedAt: (t.updatedAt as number) * 1_000_000,
      })),
    ),
  },
  {
    name: 'resources.json-as-text-plain',
    suite: 'resources',
    breaks: ['REQ-HDR-02'],
    description:
      'the resource endpoints send their JSON answers (successes and errors) as Content-Type text/plain; charset=utf-8',
    async middleware(_ctx, _state, route, next) {
      const reply = await next();
      return resourceRoute(route) && reply.body !== undefined
        ? { ...reply, headers: { ...reply.headers, 'content-type': 'text/plain; charset=utf-8' } }
        : reply;
    },
  },
  {
    name: 'resources.ussd-no-token-served',
    suite: 'resources',
    breaks: ['REQ-AUTH-01', 'REQ-SVC-09', 'REQ-ERR-02'],
    description: 'the USSD views are served to a request without Authorization (a phone gateway route left open)',
    middleware: servedWithoutToken(ussdRoute),
  },
  {
    name: 'resources.webhook-key-no-token-served',
    suite: 'resources',
    breaks: ['REQ-AUTH-01', 'REQ-SVC-09', 'REQ-ERR-02'],
    description:
      'GET /webhooks/key is served without Authorization, to the client X-Client-Id names ("the key is public anyway")',
    middleware: servedWithoutToken(
      (route) => route.path === '/webhooks/key',
      (ctx, state) => {
        const id = ctx.headers.find(([n]) => n.toLowerCase() === 'x-client-id')?.[1];
        const client = id === undefined ? undefined : state.clients.get(id);
        if (client !== undefined) ctx.client = client;
      },
    ),
  },
];
