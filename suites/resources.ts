// Suite `resources`: every endpoint's envelope, schema and errors, and consistency across resources (spec "Resources
// and their fields", "Endpoints", "Errors").
import type { FixtureName } from '../src/config/types.js';
import type { HttpResponse } from '../src/http/client.js';
import { TransportError } from '../src/http/client.js';
import { defineCheck, defineSuite, type CheckDeclaration } from '../src/runner/check.js';
import type { CheckContext } from '../src/runner/context.js';
import { describeResponse, expectEnvelope, expectErrorBody, expectJson, expectRejection, expectSchema, expectStatus, readEnvelope } from '../src/runner/expect.js';
import { CheckFailed } from '../src/runner/outcomes.js';
import { describeWalk } from '../src/runner/pages.js';
import {
  differingFields,
  exactValue,
  expectItems,
  getList,
  getResource,
  idSegment,
  isObject,
  pageOfItem,
  schemaFields,
  unknownFields,
  unsafeNumbersOf,
  walkList,
  type Query,
} from '../src/runner/resource-helpers.js';
import { idKey, isUnsafeNumber, parseJson } from '../src/http/json.js';

type Check = CheckDeclaration;

/** GET-by-id endpoints of the spec. */
interface ByIdEndpoint {
  name: 'customers' | 'accounts' | 'assets' | 'transactions';
  prefix: string;
  fixture: FixtureName;
  idField: string;
  schema: string;
  table: string;
  /** What GET-by-id of this resource enforces. */
  requirements: readonly string[];
  /** Customer fields are not guaranteed present ("not shown"), so its id may be absent; every other table requires it. */
  idOptional?: boolean;
}

const BY_ID: readonly ByIdEndpoint[] = [
  { name: 'customers', prefix: '/customers', fixture: 'customerId', idField: 'customerId', schema: 'customer', table: 'Customer', requirements: ['REQ-ENV-01', 'REQ-ENV-02', 'REQ-ENV-03', 'REQ-ENV-04', 'REQ-CUST-01', 'REQ-CUST-02', 'REQ-CUST-03', 'REQ-CUST-04', 'REQ-CUST-05', 'REQ-CUST-06', 'REQ-CUST-08', 'REQ-STATE-01', 'REQ-HDR-01', 'REQ-CUSTEP-02'], idOptional: true },
  { name: 'accounts', prefix: '/accounts', fixture: 'accountId', idField: 'accountId', schema: 'account', table: 'Account (investment account)', requirements: ['REQ-ENV-01', 'REQ-ENV-02', 'REQ-ENV-03', 'REQ-ENV-04', 'REQ-ACCT-01', 'REQ-ACCT-02', 'REQ-ACCT-04', 'REQ-ACCT-05', 'REQ-ACCT-06', 'REQ-ACCT-07', 'REQ-ACCT-08', 'REQ-STATE-02', 'REQ-ACCTEP-06'] },
  { name: 'assets', prefix: '/assets', fixture: 'assetId', idField: 'assetId', schema: 'asset', table: 'Asset', requirements: ['REQ-ENV-01', 'REQ-ENV-02', 'REQ-ENV-03', 'REQ-ENV-04', 'REQ-ASSET-01', 'REQ-ASSET-02', 'REQ-ASSET-03', 'REQ-ASSET-04', 'REQ-ASSET-05', 'REQ-ASSET-06', 'REQ-ASSET-07', 'REQ-ASSET-08', 'REQ-ASSET-09', 'REQ-ASSET-10', 'REQ-ASSET-11', 'REQ-ASSET-12', 'REQ-ASSET-13', 'REQ-ASSET-14', 'REQ-ASSETEP-01', 'REQ-ASSETEP-03'] },
  { name: 'transactions', prefix: '/transactions', fixture: 'transactionId', idField: 'transactionId', schema: 'transaction', table: 'Transaction', requirements: ['REQ-ENV-01', 'REQ-ENV-02', 'REQ-ENV-03', 'REQ-ENV-04', 'REQ-TXN-01', 'REQ-TXN-02', 'REQ-TXN-03', 'REQ-TXN-04', 'REQ-TXN-05', 'REQ-TXN-06', 'REQ-TXN-07', 'REQ-TXN-08', 'REQ-TXN-09', 'REQ-TXNEP-05'] },
];

/** List endpoints of the spec, with the query a correct client sends. */
interface ListEndpoint {
  name: 'accounts' | 'instruments' | 'transactions';
  path: string;
  query(ctx: CheckContext): Query;
  schema: string;
  table: string;
  /** What the list check of this endpoint enforces. */
  requirements: readonly string[];
  /** What a missing or malformed required query parameter breaks. */
  queryRequirements: readonly string[];
}

const ACCOUNTS_LIST: ListEndpoint = {
  name: 'accounts', path: '/accounts', query: (ctx) => ({ customerId: ctx.fixture('customerId') }), schema: 'account', table: 'Account (investment account)',
  requirements: ['REQ-ENV-01', 'REQ-ENV-02', 'REQ-ENV-03', 'REQ-ENV-04', 'REQ-ACCT-01', 'REQ-ACCT-02', 'REQ-ACCT-03', 'REQ-ACCT-04', 'REQ-ACCT-05', 'REQ-ACCT-06', 'REQ-STATE-02', 'REQ-ACCTEP-01', 'REQ-ACCTEP-02', 'REQ-ACCTEP-03'],
  queryRequirements: ['REQ-ACCTEP-02'],
};
const INSTRUMENTS_LIST: ListEndpoint = {
  name: 'instruments', path: '/instruments', query: () => ({ investmentType: 'INTERNATIONAL_STOCKS' }), schema: 'instrument', table: 'Instrument',
  requirements: ['REQ-SVC-07', 'REQ-ENV-01', 'REQ-ENV-02', 'REQ-ENV-03', 'REQ-ENV-04', 'REQ-INST-01', 'REQ-INST-02', 'REQ-INST-03', 'REQ-INST-04', 'REQ-INST-05', 'REQ-INST-06', 'REQ-INST-07', 'REQ-INST-08', 'REQ-INST-09', 'REQ-INSTEP-01', 'REQ-INSTEP-04'],
  queryRequirements: ['REQ-INSTEP-03'],
};
const TRANSACTIONS_LIST: ListEndpoint = {
  name: 'transactions', path: '/transactions', query: (ctx) => ({ customerId: ctx.fixture('customerId') }), schema: 'transaction', table: 'Transaction',
  requirements: ['REQ-ENV-01', 'REQ-ENV-02', 'REQ-ENV-03', 'REQ-ENV-04', 'REQ-TXN-01', 'REQ-TXN-02', 'REQ-TXN-03', 'REQ-TXN-04', 'REQ-TXN-05', 'REQ-TXN-06', 'REQ-TXN-07', 'REQ-TXN-08', 'REQ-TXN-09', 'REQ-TXNEP-01', 'REQ-TXNEP-02'],
  queryRequirements: ['REQ-TXNEP-01'],
};
const LISTS = [ACCOUNTS_LIST, INSTRUMENTS_LIST, TRANSACTIONS_LIST] as const;

const ANNOUNCED_TYPES = ['COMMODITY', 'BONDS', 'LOCAL_STOCKS', 'FOREIGN_EXCHANGE', 'CRYPTO'] as const;
const CUSTOMER_WRITABLE = ['firstName', 'lastName', 'status', 'referenceId'] as const;
/** Walks of a customer's lists stop here: enough for any fixture customer, bounded for a hostile server. */
const WALK = { maxPages: 30, maxItems: 3000 } as const;
/** Detail fetches per consistency check; the rest are compared only through the list. */
const MAX_DETAIL_FETCHES = 50;

function fail(ctx: CheckContext, res: HttpResponse, message: string, expected: string): never {
  return ctx.fail(message, { expected, observed: describeResponse(res), exchange: res.exchange });
}

// ---- per endpoint ------------------------------------------------------------------------------------------------

function getByIdCheck(ep: ByIdEndpoint): Check {
  const singular = ep.table.split(' ')[0]!;
  return defineCheck({
    id: `resources.${ep.name}.get`,
    title: `GET ${ep.prefix}/{${ep.idField}} answers 200 with the envelope and a${/^[AEIOU]/.test(singular) ? 'n' : ''} ${singular} carrying that id`,
    level: 'MUST',
    requirements: ep.requirements,
    async run(ctx) {
      const id = ctx.fixture(ep.fixture);
      const { res, data } = await getResource(ctx, `${ep.prefix}/${id}`, { judgeEnvelope: true });
      expectSchema(ctx, res, data, ep.schema, { path: 'data', table: ep.table });
      if (data[ep.idField] === undefined && ep.idOptional) {
        ctx.observe(`data carries no ${ep.idField} (which customer fields are present is not shown)`);
        return;
      }
      if (idKey(data, ep.idField) !== String(id)) {
        fail(ctx, res, `data.${ep.idField} is ${exactValue(data, ep.idField)}, not ${id}`, `the ${singular.toLowerCase()} that was asked for (${ep.idField} ${id})`);
      }
    },
  });
}

function listCheck(ep: ListEndpoint): Check {
  return defineCheck({
    id: `resources.${ep.name}.list`,
    title: `GET ${ep.path} answers 200 with the list envelope and ${ep.table.split(' ')[0]} items`,
    level: 'MUST',
    requirements: ep.requirements,
    async run(ctx) {
      const query = ep.query(ctx);
      // meta is the pagination suite's (pagination.meta.present): one defect, one failing check.
      const page = await getList(ctx, ep.path, query, { judgeEnvelope: true });
      expectItems(ctx, page.res, page.items, ep.schema, ep.table);
      if (ep.name !== 'instruments') {
        const customerId = String(query.customerId);
        const foreign = page.items.findIndex((item) => isObject(item) && idKey(item, 'customerId') !== customerId);
        if (foreign >= 0) {
          fail(ctx, page.res, `data[${foreign}].customerId is ${exactValue(page.items[foreign] as Record<string, unknown>, 'customerId')}, not ${customerId}`, `only items of customer ${customerId}`);
        }
      }
      ctx.observe(`first page: ${page.items.length} item(s), totalCount ${String(page.meta?.totalCount ?? 'absent')}`);
    },
  });
}

/** A required query parameter that is missing or malformed is rejected (any 4xx; never a 2xx, never a 5xx). */
function queryValidatedCheck(ep: ListEndpoint, param: string, bad: readonly string[]): Check {
  return defineCheck({
    id: ep.name === 'instruments' ? 'resources.instruments.type-validated' : `resources.${ep.name}.query-validated`,
    title: `GET ${ep.path} without ${param}, or with ${param} ${bad.map((b) => JSON.stringify(b)).join(' or ')}, is rejected`,
    level: 'MUST',
    requirements: ep.queryRequirements,
    async run(ctx) {
      const missing = await ctx.send({ method: 'GET', path: ep.path });
      expectRejection(ctx, missing, `GET ${ep.path} without the required ${param} is rejected (any 4xx)`);
      expectErrorBody(ctx, missing);
      for (const value of bad) {
        const res = await ctx.send({ method: 'GET', path: ep.path, query: { [param]: value } });
        expectRejection(ctx, res, `GET ${ep.path}?${param}=${value} is rejected (any 4xx): ${param} must be ${ep.name === 'instruments' ? 'INTERNATIONAL_STOCKS' : 'an integer'}`);
      }
    },
  });
}

// ---- PUT /customers with restore -----------------------------------------------------------------------------------

async function readCustomer(ctx: CheckContext, id: number): Promise<{ res: HttpResponse; customer: Record<string, unknown> }> {
  const { res, data } = await getResource(ctx, `/customers/${id}`);
  expectSchema(ctx, res, data, 'customer', { path: 'data', table: 'Customer' });
  return { res, customer: data };
}

/** The body that puts the customer back as it was, for a person to send: exact values, never a rounded number. */
function restoreBody(id: number, original: Record<string, unknown>): string {
  const fields = CUSTOMER_WRITABLE.filter((f) => original[f] !== undefined).map((f) => `"${f}":${exactValue(original, f)}`);
  return `{"customerId":${id}${fields.map((f) => `,${f}`).join('')}}`;
}

/**
 * Puts the customer back: fields that differ from `original` are sent again, then read back. Never sets CLOSED
 * (GUIDE: a real server may treat it as final): a CLOSED original status that changed is left for a person.
 * Returns what went wrong, or undefined.
 */
async function restoreCustomer(ctx: CheckContext, id: number, original: Record<string, unknown>): Promise<string | undefined> {
  try {
    const now = await ctx.send({ method: 'GET', path: `/customers/${id}` });
    const current = parseJson(now.text);
    const data = current.ok && isObject(current.value) && isObject(current.value.data) ? current.value.data : undefined;
    if (now.status !== 200 || !data) return `GET /customers/${id} answered ${now.status}, so the customer's state is unknown`;
    const changed = CUSTOMER_WRITABLE.filter((f) => original[f] !== undefined && exactValue(data, f) !== exactValue(original, f));
    if (changed.length === 0) return undefined;
    if (changed.includes('status') && original.status === 'CLOSED') return 'the status was CLOSED and has changed; the suite never sets CLOSED';
    // JSON.stringify would send a rounded double: an integer beyond 2^53 is left for a person to put back exactly.
    const inexact = changed.filter((f) => isUnsafeNumber(original, f));
    if (inexact.length) return `${inexact.join(', ')} changed and cannot be sent back exactly from JavaScript (an integer beyond 2^53)`;
    const body: Record<string, unknown> = { customerId: id };
    for (const f of changed) body[f] = original[f];
    const put = await ctx.send({ method: 'PUT', path: '/customers', json: body });
    if (put.status < 200 || put.status > 299) return `the restoring PUT /customers ${JSON.stringify(body)} answered ${put.status}`;
    const after = await ctx.send({ method: 'GET', path: `/customers/${id}` });
    const parsed = parseJson(after.text);
    const back = parsed.ok && isObject(parsed.value) && isObject(parsed.value.data) ? parsed.value.data : undefined;
    if (after.status !== 200 || !back) return `after the restoring PUT, GET /customers/${id} answered ${after.status}`;
    const still = CUSTOMER_WRITABLE.filter((f) => original[f] !== undefined && exactValue(back, f) !== exactValue(original, f));
    return still.length ? `after the restoring PUT the customer still differs in ${still.join(', ')}` : undefined;
  } catch (e) {
    return `the restore could not be done: ${e instanceof TransportError ? e.message : (e as Error).message}`;
  }
}

/**
 * Runs `work` on the mutable customer and restores its original values afterwards, whatever happened. A failed
 * restore fails the check loudly, with the values to put back by hand.
 */
async function withCustomerRestored(ctx: CheckContext, work: (id: number, original: Record<string, unknown>) => Promise<void>): Promise<void> {
  const id = ctx.fixture('mutableCustomerId');
  const { customer: original } = await readCustomer(ctx, id);
  let primary: unknown;
  try {
    await work(id, original);
  } catch (e) {
    primary = e;
  }
  const problem = await restoreCustomer(ctx, id, original);
  if (problem) {
    const earlier = primary instanceof CheckFailed ? ` The check had failed before the restore: ${primary.finding.message}` : '';
    ctx.fail(`RESTORE FAILED: customer ${id} (fixtures.mutableCustomerId) was not put back: ${problem}.${earlier}`, {
      cleanup: true,
      expected: 'the customer is restored to its original values after the check',
      observed: `restore by hand: PUT /customers ${restoreBody(id, original)}`,
    });
  }
  if (primary !== undefined) throw primary;
}

/** Test values that differ from the current ones. */
function otherName(current: unknown, a: string, b: string): string {
  return current === a ? b : a;
}

function expectUnchanged(ctx: CheckContext, res: HttpResponse, before: Record<string, unknown>, after: Record<string, unknown>, what: string): void {
  const diff = differingFields(before, after, CUSTOMER_WRITABLE);
  if (diff.length) {
    fail(ctx, res, `${what} changed the customer: ${diff.map((d) => `${d.field} ${d.a} → ${d.b}`).join(', ')}`, `${what} is rejected and changes nothing`);
  }
}

// ---- the suite -----------------------------------------------------------------------------------------------------

export default defineSuite('resources', 'Resources: envelopes, schemas, errors', [
  ...BY_ID.map(getByIdCheck),
  ...LISTS.map(listCheck),
  defineCheck({
    id: 'resources.customers.no-token',
    title: 'GET /customers/{customerId} without a token is rejected with 401 and the error body',
    level: 'MUST',
    requirements: ['REQ-CUSTEP-03', 'REQ-ERR-02'],
    async run(ctx) {
      const customerId = ctx.fixture('customerId');
      const res = await ctx.send({ method: 'GET', path: `/customers/${customerId}`, token: null });
      expectStatus(ctx, res, 401, '401 Unauthorized: the request carries no Authorization header');
      expectErrorBody(ctx, res);
    },
  }),
  defineCheck({
    id: 'resources.errors.no-token',
    title: 'every other resource endpoint without a token answers 401 with the error body',
    level: 'MUST',
    uses: ['mutable-customer'],
    requirements: ['REQ-SVC-09', 'REQ-HDR-03', 'REQ-ACCTEP-04', 'REQ-ACCTEP-07', 'REQ-CUSTEP-08', 'REQ-INSTEP-05', 'REQ-ASSETEP-04', 'REQ-TXNEP-03', 'REQ-TXNEP-06', 'REQ-USSD-02', 'REQ-WHKEP-01', 'REQ-AUTH-01', 'REQ-ERR-01', 'REQ-ERR-02'],
    async run(ctx) {
      const f = ctx.fixtures;
      const requests: Array<{ what: string; method: string; path: string; query?: Query; json?: unknown }> = [];
      if (f.customerId !== undefined) {
        requests.push({ what: 'GET /accounts', method: 'GET', path: '/accounts', query: { customerId: f.customerId } });
        requests.push({ what: 'GET /transactions', method: 'GET', path: '/transactions', query: { customerId: f.customerId } });
      }
      requests.push({ what: 'GET /instruments', method: 'GET', path: '/instruments', query: { investmentType: 'INTERNATIONAL_STOCKS' } });
      if (f.accountId !== undefined) requests.push({ what: 'GET /accounts/{id}', method: 'GET', path: `/accounts/${f.accountId}` });
      if (f.assetId !== undefined) requests.push({ what: 'GET /assets/{id}', method: 'GET', path: `/assets/${f.assetId}` });
      if (f.transactionId !== undefined) requests.push({ what: 'GET /transactions/{id}', method: 'GET', path: `/transactions/${f.transactionId}` });
      // Only customerId: should the server wrongly serve it, nothing changes.
      if (f.mutableCustomerId !== undefined) requests.push({ what: 'PUT /customers', method: 'PUT', path: '/customers', json: { customerId: f.mutableCustomerId } });
      for (const r of requests) {
        const res = await ctx.send({ method: r.method, path: r.path, token: null, ...(r.query ? { query: r.query } : {}), ...(r.json ? { json: r.json } : {}) });
        expectStatus(ctx, res, 401, `401 Unauthorized for ${r.what} without an Authorization header`);
        expectErrorBody(ctx, res);
      }
      ctx.observe(`${requests.length} endpoints answered 401 without a token`);
    },
  }),
  defineCheck({
    id: 'resources.errors.not-found',
    title: 'GET of a customer, account, asset or transaction that does not exist answers 404 with the error body',
    level: 'MUST',
    requirements: ['REQ-ACCTEP-07', 'REQ-CUSTEP-03', 'REQ-ASSETEP-04', 'REQ-TXNEP-06', 'REQ-ERR-01', 'REQ-ERR-03'],
    async run(ctx) {
      const unknown = ctx.fixture('unknownId');
      const messages = new Set<string>();
      for (const ep of BY_ID) {
        const res = await ctx.send({ method: 'GET', path: `${ep.prefix}/${unknown}` });
        expectStatus(ctx, res, 404, `404 for GET ${ep.prefix}/${unknown} (fixtures.unknownId names no resource)`);
        expectErrorBody(ctx, res);
        const body = expectJson(ctx, res) as Record<string, unknown>;
        messages.add(String(body.message));
      }
      ctx.observe(`404 message text: ${[...messages].map((m) => JSON.stringify(m)).join(', ')}`);
    },
  }),
  defineCheck({
    id: 'resources.errors.malformed-id',
    title: 'GET of a customer, account, asset or transaction with a non-integer id is rejected, never a 5xx',
    level: 'MUST',
    requirements: ['REQ-ACCTEP-05', 'REQ-CUSTEP-01', 'REQ-ASSETEP-02', 'REQ-TXNEP-04'],
    async run(ctx) {
      for (const ep of BY_ID) {
        for (const bad of ['not-an-id', '1.5']) {
          const res = await ctx.send({ method: 'GET', path: `${ep.prefix}/${bad}` });
          expectRejection(ctx, res, `GET ${ep.prefix}/${bad} is rejected (any 4xx): ${ep.idField} is an integer`);
        }
      }
    },
  }),
  queryValidatedCheck(ACCOUNTS_LIST, 'customerId', ['not-a-number', '1.5']),
  queryValidatedCheck(TRANSACTIONS_LIST, 'customerId', ['not-a-number', '1.5']),
  queryValidatedCheck(INSTRUMENTS_LIST, 'investmentType', ['NOT_AN_INVESTMENT_TYPE']),
  defineCheck({
    id: 'resources.instruments.announced-types-rejected',
    title: 'GET /instruments with an announced but not yet available investment type is rejected',
    level: 'MUST',
    requirements: ['REQ-SVC-08'],
    async run(ctx) {
      for (const type of ANNOUNCED_TYPES) {
        const res = await ctx.send({ method: 'GET', path: '/instruments', query: { investmentType: type } });
        expectRejection(ctx, res, `investmentType=${type} is rejected (any 4xx): it is not an accepted value today`);
      }
    },
  }),
  defineCheck({
    id: 'resources.accounts.consistent',
    title: "every account listed for a customer carries that customerId and equals GET /accounts/{id}; the fixture account is listed",
    level: 'MUST',
    requirements: ['REQ-ACCT-03', 'REQ-ACCT-06', 'REQ-ACCTEP-06'],
    async run(ctx) {
      const customerId = ctx.fixture('customerId');
      const accountId = ctx.fixture('accountId');
      const walk = await walkList(ctx, '/accounts', { customerId }, { idField: 'accountId', ...WALK });
      const owner = String(customerId);
      walk.items.forEach((item, i) => {
        if (!isObject(item) || idKey(item, 'customerId') !== owner) {
          const got = isObject(item) ? exactValue(item, 'customerId') : JSON.stringify(item);
          fail(ctx, pageOfItem(walk, i), `an account listed for customer ${owner} has customerId ${got}`, `every account of GET /accounts?customerId=${owner} has customerId ${owner}`);
        }
      });
      if (!walk.ids.includes(String(accountId)) && !walk.capped) {
        fail(ctx, walk.pages[0]!.response, `the fixture account ${accountId} is not in the list of customer ${owner} (${describeWalk(walk)})`, `GET /accounts?customerId=${owner} lists account ${accountId}`);
      }
      const fields = schemaFields('account');
      let fetched = 0;
      for (const item of walk.items.slice(0, MAX_DETAIL_FETCHES)) {
        const seg = isObject(item) ? idSegment(item, 'accountId') : undefined;
        if (!isObject(item) || seg === undefined) continue;
        const { res, data } = await getResource(ctx, `/accounts/${seg}`);
        fetched++;
        const diff = differingFields(item, data, fields);
        if (diff.length) {
          fail(ctx, res, `account ${seg} differs between the list and GET /accounts/${seg}: ${diff.map((d) => `${d.field} ${d.a} (list) vs ${d.b}`).join(', ')}`, 'an account listed equals the account fetched by its id');
        }
      }
      ctx.observe(`${walk.items.length} account(s) listed, ${fetched} compared with GET /accounts/{id}${walk.capped ? `; the walk was capped (${walk.stop.detail})` : ''}`);
    },
  }),
  defineCheck({
    id: 'resources.transactions.consistent',
    title: "every transaction listed for a customer carries that customerId; the fixture transaction is listed and equals GET /transactions/{id}",
    level: 'MUST',
    requirements: ['REQ-TXN-03', 'REQ-TXNEP-05'],
    async run(ctx) {
      const customerId = ctx.fixture('customerId');
      const transactionId = ctx.fixture('transactionId');
      const walk = await walkList(ctx, '/transactions', { customerId }, { idField: 'transactionId', ...WALK });
      const owner = String(customerId);
      walk.items.forEach((item, i) => {
        if (!isObject(item) || idKey(item, 'customerId') !== owner) {
          const got = isObject(item) ? exactValue(item, 'customerId') : JSON.stringify(item);
          fail(ctx, pageOfItem(walk, i), `a transaction listed for customer ${owner} has customerId ${got}`, `every transaction of GET /transactions?customerId=${owner} has customerId ${owner}`);
        }
      });
      const at = walk.ids.indexOf(String(transactionId));
      if (at < 0) {
        if (walk.capped) return ctx.observe(`the fixture transaction was not within the first ${walk.items.length} items (${walk.stop.detail})`);
        fail(ctx, walk.pages[0]!.response, `the fixture transaction ${transactionId} is not in the list of customer ${owner} (${describeWalk(walk)})`, `GET /transactions?customerId=${owner} lists transaction ${transactionId}`);
      }
      const { res, data } = await getResource(ctx, `/transactions/${transactionId}`);
      const diff = differingFields(walk.items[at] as Record<string, unknown>, data, schemaFields('transaction'));
      if (diff.length) {
        fail(ctx, res, `transaction ${transactionId} differs between the list and GET /transactions/${transactionId}: ${diff.map((d) => `${d.field} ${d.a} (list) vs ${d.b}`).join(', ')}`, 'a transaction listed equals the transaction fetched by its id');
      }
      ctx.observe(`${walk.items.length} transaction(s) listed for customer ${owner}`);
    },
  }),
  defineCheck({
    id: 'resources.fixtures.owned',
    title: 'the fixture account, asset and transaction belong to the fixture customer',
    level: 'MUST',
    requirements: ['REQ-ACCT-03', 'REQ-ASSET-03', 'REQ-TXN-03', 'REQ-ASSETEP-01'],
    async run(ctx) {
      const customerId = String(ctx.fixture('customerId'));
      const owned: Array<[FixtureName, string]> = [['accountId', '/accounts'], ['assetId', '/assets'], ['transactionId', '/transactions']];
      for (const [fixture, prefix] of owned) {
        const id = ctx.fixture(fixture);
        const { res, data } = await getResource(ctx, `${prefix}/${id}`);
        if (idKey(data, 'customerId') !== customerId) {
          fail(ctx, res, `${prefix}/${id} has customerId ${exactValue(data, 'customerId')}, not ${customerId}`, `fixtures.${fixture} ${id} belongs to fixtures.customerId ${customerId}`);
        }
      }
    },
  }),
  defineCheck({
    id: 'resources.lists.isolated',
    title: "another customer's accounts and transactions never appear in a customer's lists",
    level: 'MUST',
    requirements: ['REQ-ACCTEP-02', 'REQ-TXNEP-01'],
    async run(ctx) {
      const customerId = ctx.fixture('customerId');
      const otherId = ctx.fixture('otherCustomerId');
      for (const [path, idField] of [['/accounts', 'accountId'], ['/transactions', 'transactionId']] as const) {
        const mine = await walkList(ctx, path, { customerId }, { idField, ...WALK });
        const theirs = await walkList(ctx, path, { customerId: otherId }, { idField, ...WALK });
        const own = new Set(theirs.ids.filter((id): id is string => id !== undefined));
        const leaked = mine.ids.findIndex((id) => id !== undefined && own.has(id));
        if (leaked >= 0) {
          fail(ctx, pageOfItem(mine, leaked), `${idField} ${mine.ids[leaked]} of customer ${otherId} is listed for customer ${customerId}`, `GET ${path}?customerId=${customerId} lists none of customer ${otherId}'s items`);
        }
        const foreign = theirs.items.findIndex((item) => isObject(item) && idKey(item, 'customerId') !== String(otherId));
        if (foreign >= 0) {
          fail(ctx, pageOfItem(theirs, foreign), `an item listed for customer ${otherId} has customerId ${exactValue(theirs.items[foreign] as Record<string, unknown>, 'customerId')}`, `GET ${path}?customerId=${otherId} lists only that customer's items`);
        }
      }
    },
  }),
  defineCheck({
    id: 'resources.lists.unknown-customer',
    title: 'the accounts and transactions of a customer that does not exist are a rejection with the error body (404 listed), or an empty list; never items, never a 5xx',
    level: 'MUST',
    requirements: ['REQ-ACCTEP-04', 'REQ-TXNEP-03', 'REQ-ERR-03'],
    note: 'The exact conditions of a 404 are not shown (REQ-ERR-06): a rejection (404 is the status listed; any 4xx) and an empty list are both readings a correct server may take, and which one it took is recorded.',
    async run(ctx) {
      const unknown = ctx.fixture('unknownId');
      for (const path of ['/accounts', '/transactions']) {
        const res = await ctx.send({ method: 'GET', path, query: { customerId: unknown } });
        if (res.status >= 400 && res.status <= 499) {
          expectErrorBody(ctx, res);
          ctx.observe(`GET ${path}?customerId=${unknown}: ${res.status}${res.status === 404 ? '' : ' (a rejection other than the 404 the Errors table lists)'}`);
          continue;
        }
        if (res.status !== 200) expectRejection(ctx, res, `GET ${path}?customerId=${unknown} for a customer that does not exist: 404 (or any 4xx) with the error body, or 200 with an empty list`);
        const env = readEnvelope(ctx, res);
        if (!Array.isArray(env.data) || env.data.length > 0) {
          fail(ctx, res, `GET ${path}?customerId=${unknown} returned ${Array.isArray(env.data) ? `${env.data.length} item(s)` : 'a non-list'} for a customer that does not exist`, 'a 404, or an empty list');
        }
        ctx.observe(`GET ${path}?customerId=${unknown}: 200 with an empty list`);
      }
    },
  }),
  defineCheck({
    id: 'resources.customers.update',
    title: 'PUT /customers changes firstName and lastName, answers the Customer with createdAt and updatedAt, and a following GET shows the change',
    level: 'MUST',
    uses: ['mutable-customer'],
    requirements: ['REQ-SVC-02', 'REQ-ENV-01', 'REQ-ENV-02', 'REQ-ENV-03', 'REQ-ENV-04', 'REQ-HDR-13', 'REQ-CUSTEP-04', 'REQ-CUSTEP-07'],
    async run(ctx) {
      await withCustomerRestored(ctx, async (id, original) => {
        if (typeof original.firstName !== 'string' || typeof original.lastName !== 'string') {
          ctx.skip(`customer ${id} shows no firstName/lastName, so a change could neither be verified nor undone`);
        }
        const wanted = { firstName: otherName(original.firstName, 'Conformance', 'Conformance-Check'), lastName: otherName(original.lastName, 'Suite', 'Suite-Check') };
        // The other fields keep their current values (never a new status: transitions are not shown, CLOSED may be final).
        const body: Record<string, unknown> = { customerId: id, ...wanted };
        if (typeof original.status === 'string' && original.status !== 'CLOSED') body.status = original.status;
        // An integer beyond 2^53 would go out rounded, i.e. changed: leave it out.
        if (original.referenceId !== undefined && !isUnsafeNumber(original, 'referenceId')) body.referenceId = original.referenceId;
        const res = await ctx.send({ method: 'PUT', path: '/customers', json: body });
        expectStatus(ctx, res, 200, '200 with the updated Customer');
        const env = expectEnvelope(ctx, res);
        expectSchema(ctx, res, env.data, 'customer', { path: 'data', table: 'Customer' });
        const data = env.data as Record<string, unknown>;
        const missing = ['createdAt', 'updatedAt'].filter((f) => data[f] === undefined);
        if (missing.length) fail(ctx, res, `the updated Customer has no ${missing.join(' and ')}`, 'data = Customer (including createdAt, updatedAt)');
        for (const [f, v] of Object.entries(wanted)) {
          if (data[f] !== undefined && data[f] !== v) fail(ctx, res, `the answer shows ${f} ${JSON.stringify(data[f])}, not the ${JSON.stringify(v)} sent`, 'the answer is the updated customer');
        }
        const { res: after, customer } = await readCustomer(ctx, id);
        for (const [f, v] of Object.entries(wanted)) {
          if (customer[f] !== v) fail(ctx, after, `after the update GET /customers/${id} shows ${f} ${JSON.stringify(customer[f])}, not ${JSON.stringify(v)}`, 'the update is reflected by a following GET');
        }
        ctx.observe(`sent ${Object.keys(body).join(', ')}; the original values were restored afterwards`);
      });
    },
  }),
  defineCheck({
    id: 'resources.customers.update-minimal',
    title: 'PUT /customers with only customerId is accepted and changes nothing',
    level: 'MUST',
    uses: ['mutable-customer'],
    requirements: ['REQ-CUSTEP-05'],
    async run(ctx) {
      await withCustomerRestored(ctx, async (id, original) => {
        const res = await ctx.send({ method: 'PUT', path: '/customers', json: { customerId: id } });
        expectStatus(ctx, res, 200, '200: a body with only customerId is a valid update');
        const env = readEnvelope(ctx, res);
        expectSchema(ctx, res, env.data, 'customer', { path: 'data', table: 'Customer' });
        const { res: after, customer } = await readCustomer(ctx, id);
        const diff = differingFields(original, customer, CUSTOMER_WRITABLE);
        if (diff.length) fail(ctx, after, `an update with only customerId changed ${diff.map((d) => `${d.field} ${d.a} → ${d.b}`).join(', ')}`, 'fields that are not sent keep their values');
      });
    },
  }),
  defineCheck({
    id: 'resources.customers.update-invalid',
    title: 'PUT /customers with an invalid status or a wrongly typed field is rejected and changes nothing',
    level: 'MUST',
    uses: ['mutable-customer'],
    requirements: ['REQ-CUSTEP-05'],
    async run(ctx) {
      await withCustomerRestored(ctx, async (id, original) => {
        const attempts: Array<[string, Record<string, unknown>]> = [
          ['status "NOT_A_STATUS"', { customerId: id, status: 'NOT_A_STATUS' }],
          ['firstName 12345 (a number)', { customerId: id, firstName: 12345 }],
          ['referenceId "not-a-number" (a string)', { customerId: id, referenceId: 'not-a-number' }],
        ];
        for (const [what, body] of attempts) {
          const res = await ctx.send({ method: 'PUT', path: '/customers', json: body });
          expectRejection(ctx, res, `PUT /customers with ${what} is rejected (any 4xx)`);
          const { res: after, customer } = await readCustomer(ctx, id);
          expectUnchanged(ctx, after, original, customer, `PUT /customers with ${what}`);
        }
      });
    },
  }),
  defineCheck({
    id: 'resources.numbers.safe-integers',
    title: 'integers in resource responses stay within ±(2^53 − 1), so a JavaScript client reads ids exactly',
    level: 'SHOULD',
    requirements: ['REQ-HDR-20'],
    async run(ctx) {
      const responses: HttpResponse[] = [];
      const f = ctx.fixtures;
      for (const ep of BY_ID) {
        const id = f[ep.fixture];
        if (id !== undefined) responses.push(await ctx.send({ method: 'GET', path: `${ep.prefix}/${id}` }));
      }
      for (const ep of LISTS) {
        if (ep.name !== 'instruments' && f.customerId === undefined) continue;
        responses.push(await ctx.send({ method: 'GET', path: ep.path, query: ep.query(ctx) }));
      }
      let found = 0;
      for (const res of responses) {
        const unsafe = unsafeNumbersOf(res);
        found += unsafe.length;
        if (unsafe.length) {
          const listed = unsafe.slice(0, 5).map((u) => `${u.path} = ${u.text}${String(u.parsed) !== u.text ? ` (a double reads ${String(u.parsed)})` : ''}`).join('; ');
          fail(ctx, res, `${unsafe.length} integer(s) beyond 2^53 − 1 in ${res.exchange.request.url.replace(/^https?:\/\/[^/]+/, '')}: ${listed}`, 'every integer within ±9007199254740991, which a JavaScript client holds exactly');
        }
      }
      ctx.observe(`${responses.length} responses scanned, ${found} unsafe integers`);
    },
  }),
  defineCheck({
    id: 'resources.info.extra-fields',
    title: 'fields the spec tables do not list, per resource (clients must ignore them)',
    level: 'INFO',
    requirements: ['REQ-INST-10'],
    async run(ctx) {
      const f = ctx.fixtures;
      const seen = new Map<string, Set<string>>();
      const note = (table: string, obj: unknown, schema: string) => {
        const set = seen.get(table) ?? new Set<string>();
        for (const k of unknownFields(obj, schema)) set.add(k);
        seen.set(table, set);
      };
      for (const ep of BY_ID) {
        const id = f[ep.fixture];
        if (id === undefined) continue;
        const res = await ctx.send({ method: 'GET', path: `${ep.prefix}/${id}` });
        const parsed = parseJson(res.text);
        if (res.status === 200 && parsed.ok && isObject(parsed.value)) {
          note('envelope', parsed.value, 'envelope');
          note(ep.table, parsed.value.data, ep.schema);
        }
      }
      for (const ep of LISTS) {
        if (ep.name !== 'instruments' && f.customerId === undefined) continue;
        const res = await ctx.send({ method: 'GET', path: ep.path, query: ep.query(ctx) });
        const parsed = parseJson(res.text);
        if (res.status !== 200 || !parsed.ok || !isObject(parsed.value)) continue;
        note('list envelope', parsed.value, 'list-envelope');
        note('Paging meta', parsed.value.meta, 'paging-meta');
        for (const item of Array.isArray(parsed.value.data) ? parsed.value.data : []) {
          note(ep.table, item, ep.schema);
          if (ep.name === 'instruments' && isObject(item) && Array.isArray(item.valueChangeOverTime)) {
            const vc = new Set(seen.get('valueChangeOverTime item') ?? []);
            for (const change of item.valueChangeOverTime) {
              if (isObject(change)) for (const k of Object.keys(change)) if (!['timeFrame', 'percentChange', 'summary'].includes(k)) vc.add(k);
            }
            seen.set('valueChangeOverTime item', vc);
          }
        }
      }
      const extra = [...seen].filter(([, keys]) => keys.size > 0).map(([table, keys]) => `${table}: ${[...keys].join(', ')}`);
      ctx.observe(extra.length ? `fields the spec does not list — ${extra.join('; ')}` : 'no fields beyond the spec tables');
    },
  }),
  defineCheck({
    id: 'resources.info.customer-fields',
    title: 'which Customer fields the server returns (their presence is not shown)',
    level: 'INFO',
    requirements: ['REQ-CUST-07'],
    async run(ctx) {
      const { data } = await getResource(ctx, `/customers/${ctx.fixture('customerId')}`);
      const fields = schemaFields('customer');
      const absent = fields.filter((k) => data[k] === undefined);
      ctx.observe(absent.length ? `present: ${fields.filter((k) => data[k] !== undefined).join(', ')}; absent: ${absent.join(', ')}` : `all ${fields.length} Customer fields present`);
    },
  }),
]);
