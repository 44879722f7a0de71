// Suite `resources`: every endpoint's envelope, schema and errors, and consistency across resources (spec "Resources
// and their fields", "Endpoints", "Errors").
import {
  alterSignature,
  describeResponse,
  describeUnit,
  describeWalk,
  differingFields,
  errorBodyOf,
  exactValue,
  expectErrorBody,
  expectJson,
  expectRejection,
  expectSchema,
  expectStatus,
  fieldsNotGiven,
  getResource,
  headerValue,
  idKey,
  idSegment,
  inSeconds,
  invalidFields,
  isJsonMediaType,
  isObject,
  isUnsafeNumber,
  learnUnit,
  mediaTypeOf,
  noteErrorBody,
  pageOfItem,
  parseJson,
  readEnvelope,
  readProbe,
  schemaFields,
  setHeader,
  tokenIn,
  tokenRequest,
  unknownFields,
  unsafeNumbersOf,
  walkList,
  withTokens,
  type FixtureName,
  type HttpResponse,
  type Query,
  type RequestSpec,
  type TimestampUnit,
} from './kit/index.js';
import { defineCheck, defineSuite, type CheckContext, type SuiteRun } from '../src/engine/index.js';
import { readCustomer, withCustomerRestored } from './resources/helpers/customer-update.js';
import { getByIdCheck, listCheck, queryValidatedCheck } from './resources/helpers/endpoint-checks.js';
import {
  FIELDS_OWNER,
  CUSTOMER_BY_ID,
  ACCOUNT_BY_ID,
  ASSET_BY_ID,
  TRANSACTION_BY_ID,
  BY_ID,
  ACCOUNTS_LIST,
  INSTRUMENTS_LIST,
  TRANSACTIONS_LIST,
  LISTS,
} from './resources/helpers/endpoints.js';
import { fail } from './resources/helpers/fail.js';
import { WALK, dataOf, readLeniently, walkLeniently, readListLeniently } from './resources/helpers/lenient-reads.js';
import { ownedByOther } from './resources/helpers/ownership.js';
import { type ResourcesRun } from './resources/helpers/run-state.js';
import {
  readTimestampedRecords,
  type Timestamp,
  timestampsOf,
  unitOf,
} from './resources/helpers/timestamped-records.js';

const ANNOUNCED_TYPES = ['COMMODITY', 'BONDS', 'LOCAL_STOCKS', 'FOREIGN_EXCHANGE', 'CRYPTO'] as const;
const CUSTOMER_WRITABLE = ['firstName', 'lastName', 'status', 'referenceId'] as const;
const CUSTOMER_STATUSES = ['ACTIVE', 'SUSPENDED', 'CLOSED'];
/** A day either way of this machine's clock: beyond it a date is noted, not failed. */
const SKEW_SECONDS = 24 * 60 * 60;
/** Detail fetches per consistency check; the rest are compared only through the list. */
const MAX_DETAIL_FETCHES = 50;

function showTimestamp(t: Timestamp): string {
  return `${t.record.what}.${t.field} = ${exactValue(t.record.record, t.field)}`;
}

/** Fails the check for `wrong` timestamps, naming the first few and the rows of the tables they break. */
function failTimestamps(ctx: CheckContext, wrong: readonly Timestamp[], what: string, expected: string): never {
  const listed = wrong
    .slice(0, 5)
    .map((t) => `${showTimestamp(t)}${'problem' in t.read ? ` (${t.read.problem})` : ''}`);
  const first = wrong[0]!.record.res;
  return ctx.fail(
    `${wrong.length} ${what}: ${listed.join('; ')}${wrong.length > 5 ? ` (+${wrong.length - 5} more)` : ''}`,
    {
      expected,
      observed: describeResponse(first),
      exchange: first.exchange,
      requirements: [...new Set(wrong.flatMap((t) => t.record.requirements))],
    },
  );
}

/** Dates a server may hold but that are worth a reader's eye: before 1970, or more than a day ahead of this clock. */
function unusualDates(timestamps: readonly Timestamp[], unit: TimestampUnit, nowSeconds: number): string[] {
  return timestamps.flatMap((t) => {
    const v = t.record.record[t.field];
    if (typeof v !== 'number' || unitOf(t) !== unit) return [];
    const seconds = inSeconds(v, unit);
    return seconds < 0 || seconds > nowSeconds + SKEW_SECONDS
      ? [`${showTimestamp(t)} (${seconds < 0 ? 'before 1970' : 'in the future'})`]
      : [];
  });
}

// ---- PUT /customers with restore -----------------------------------------------------------------------------------

/** How an asset's available relates to its position and locked, in words (the relation is not shown: REQ-ASSET-15). */
function assetRelation(asset: Record<string, unknown>): string {
  const { position, locked, available } = asset;
  const label = `asset ${exactValue(asset, 'assetId')}`;
  if (typeof position !== 'number' || typeof locked !== 'number' || typeof available !== 'number')
    return `${label}: not all three are numbers`;
  const numbers = `position ${position}, locked ${locked}, available ${available}`;
  // Decimals in binary: 8.5 − 1 is exact, 0.3 − 0.1 is not; a relative tolerance reads both as the same relation.
  const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  const relation = close(available, position - locked)
    ? 'available = position − locked'
    : close(available, position)
      ? 'available = position'
      : 'no simple relation';
  return `${label}: ${relation} (${numbers})`;
}

/** Update bodies with a value outside the type the update request gives it. */
function invalidValues(id: number): Array<[string, Record<string, unknown>]> {
  return [
    ['status "NOT_A_STATUS"', { customerId: id, status: 'NOT_A_STATUS' }],
    ['firstName 12345 (a number)', { customerId: id, firstName: 12345 }],
    ['referenceId "not-a-number" (a string)', { customerId: id, referenceId: 'not-a-number' }],
  ];
}

/** Test values that differ from the current ones. */
function otherName(current: unknown, a: string, b: string): string {
  return current === a ? b : a;
}

function expectUnchanged(
  ctx: CheckContext,
  res: HttpResponse,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  what: string,
  requirements?: readonly string[],
): void {
  const diff = differingFields(before, after, CUSTOMER_WRITABLE);
  if (diff.length) {
    ctx.fail(`${what} changed the customer: ${diff.map((d) => `${d.field} ${d.a} → ${d.b}`).join(', ')}`, {
      expected: `${what} is rejected and changes nothing`,
      observed: describeResponse(res),
      exchange: res.exchange,
      ...(requirements ? { requirements: [...requirements] } : {}),
    });
  }
}

/** The `error` member of an RFC 6749 §5.2 error answer, if the body is one. */
function oauthErrorOf(res: HttpResponse): string | undefined {
  const parsed = parseJson(res.text);
  const body = parsed.ok && isObject(parsed.value) ? parsed.value : undefined;
  return typeof body?.error === 'string' ? body.error : undefined;
}

// ---- the suite -----------------------------------------------------------------------------------------------------

export default defineSuite({
  name: 'resources',
  title: 'Resources: envelopes, schemas, errors',
  setup: (): ResourcesRun => ({}),
  // The unit of "Unix timestamp" the server counts is said once for the whole run: every timestamp was judged in it.
  teardown(state: ResourcesRun, run: SuiteRun): string[] {
    if (state.timestampUnit !== undefined) run.note(`timestamps: ${state.timestampUnit}`);
    return [];
  },
  checks: [
    getByIdCheck('resources.customers.get', CUSTOMER_BY_ID),
    getByIdCheck('resources.accounts.get', ACCOUNT_BY_ID),
    getByIdCheck('resources.assets.get', ASSET_BY_ID),
    getByIdCheck('resources.transactions.get', TRANSACTION_BY_ID),
    listCheck('resources.accounts.list', ACCOUNTS_LIST),
    listCheck('resources.instruments.list', INSTRUMENTS_LIST),
    listCheck('resources.transactions.list', TRANSACTIONS_LIST),
    defineCheck({
      id: FIELDS_OWNER,
      title: 'instruments, assets and transactions carry every field of their table',
      level: 'SHOULD',
      requirements: ['REQ-INSTEP-06', 'REQ-ASSETEP-05', 'REQ-TXNEP-07', 'REQ-TXNEP-08'],
      note: 'The Instrument, Asset and Transaction tables have no Required column (unlike Account: "All fields are required in responses"), so that every field is present is the only reasonable reading of "data = Asset", not stated word for word: SHOULD. The type of each field that is present is judged by resources.instruments.list, resources.assets.get, resources.transactions.list and resources.transactions.get (MUST).',
      explain: {
        sends:
          'GET /assets/{id} of fixtures.assetId, GET /transactions/{id} of fixtures.transactionId, and the first pages of GET /instruments?investmentType=INTERNATIONAL_STOCKS and GET /transactions?customerId=<fixtures.customerId>',
        passes:
          'every asset, transaction and instrument there carries every field of its table (null counts as present: its type is judged by the checks of the endpoint)',
        fails:
          'a field left out (the report names the record and the field): the check warns; an answer that is no resource or no list is left to the checks of its endpoint; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const f = ctx.fixtures;
        /** Each answer read: a record by its id, or the items of a list's first page. */
        const reads: Array<{
          what: string;
          res: HttpResponse;
          records: unknown[];
          list: boolean;
          schema: string;
          requirement: string;
        }> = [];
        for (const ep of BY_ID) {
          const id = f[ep.fixture];
          if (ep.absentTo === undefined || id === undefined) continue;
          const got = await readLeniently(ctx, `${ep.prefix}/${id}`);
          if (got)
            reads.push({
              what: `GET ${ep.prefix}/${id}`,
              res: got.res,
              records: [got.data],
              list: false,
              schema: ep.schema,
              requirement: ep.absentTo.requirements[0]!,
            });
        }
        for (const ep of LISTS) {
          if (ep.absentTo === undefined || (ep.name !== 'instruments' && f.customerId === undefined)) continue;
          const got = await readListLeniently(ctx, ep.path, ep.query(ctx));
          if (got)
            reads.push({
              what: `GET ${ep.path}`,
              res: got.res,
              records: got.items,
              list: true,
              schema: ep.schema,
              requirement: ep.absentTo.requirements[0]!,
            });
        }
        if (reads.every((r) => !r.records.some(isObject)))
          ctx.skip(
            `no asset, transaction or instrument record was read (${reads.length} answer(s), none holding one): nothing to judge (the checks of each endpoint judge its answers)`,
          );
        const missing = reads.flatMap((r) =>
          r.records.flatMap((record, i) => {
            if (!isObject(record)) return [];
            const { absent } = fieldsNotGiven(record, r.schema);
            const where = `${r.what}: data${r.list ? `[${i}]` : ''}`;
            return absent.length > 0 ? [{ read: r, text: `${where} leaves out ${absent.join(', ')}` }] : [];
          }),
        );
        if (missing.length > 0) {
          const first = missing[0]!.read.res;
          ctx.fail(
            `${missing.length} record(s) leave out fields of their table: ${missing
              .slice(0, 5)
              .map((m) => m.text)
              .join('; ')}${missing.length > 5 ? ` (+${missing.length - 5} more)` : ''}`,
            {
              expected: 'every field of the Instrument, Asset and Transaction tables present in every record',
              observed: describeResponse(first),
              exchange: first.exchange,
              requirements: [...new Set(missing.map((m) => m.read.requirement))],
            },
          );
        }
        for (const r of reads) ctx.judged(r.list ? `an item of ${r.what}` : r.what, r.records.filter(isObject).length);
        ctx.observe(
          `every field present in ${reads.map((r) => (r.list ? `the ${r.records.length} item(s) of ${r.what}` : r.what)).join(', ')}`,
        );
      },
    }),
    defineCheck({
      id: 'resources.customers.no-token',
      title: 'GET /customers/{customerId} without a token is rejected with 401 and the error body',
      level: 'MUST',
      requirements: ['REQ-CUSTEP-03', 'REQ-ERR-01', 'REQ-ERR-02'],
      explain: {
        sends: 'GET /customers/{customerId} of fixtures.customerId, signed, without Authorization',
        passes: '401 with the error body {code, message}',
        fails:
          'any other status, or a 401 without the error body: the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const customerId = ctx.fixture('customerId');
        const res = await ctx.send({ method: 'GET', path: `/customers/${customerId}`, token: null });
        expectStatus(ctx, res, 401, '401 Unauthorized: the request carries no Authorization header');
        expectErrorBody(ctx, res);
        ctx.judged(`GET /customers/${customerId} without a token`);
      },
    }),
    defineCheck({
      id: 'resources.errors.no-token',
      title:
        'every other endpoint but the token endpoints (resources, USSD views, webhooks) without a token answers 401 with the error body',
      level: 'MUST',
      // PUT /customers and POST /webhooks/test change shared state should the server wrongly serve them.
      uses: ['mutable-customer', 'webhook-config'],
      requirements: [
        'REQ-SVC-09',
        'REQ-ACCTEP-04',
        'REQ-ACCTEP-07',
        'REQ-CUSTEP-08',
        'REQ-INSTEP-05',
        'REQ-ASSETEP-04',
        'REQ-TXNEP-03',
        'REQ-TXNEP-06',
        'REQ-AUTH-01',
        'REQ-ERR-01',
        'REQ-ERR-02',
      ],
      explain: {
        sends:
          "every endpoint but the token endpoints, signed but without Authorization: GET /accounts, /transactions, /instruments, /accounts/{id}, /assets/{id}, /transactions/{id}, PUT /customers with only the mutable customer's id (nothing changes), GET /ussd/stocks, /ussd/assets, /ussd/requests, GET /webhooks, GET /webhooks/key and POST /webhooks/test (never POST or PUT /webhooks, which would replace the configuration if wrongly served); an endpoint whose fixture is not configured is left out",
        passes: 'each answers 401 with the error body {code, message}',
        fails:
          'any other status, or a 401 without the error body (the report names the endpoint): the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const f = ctx.fixtures;
        const requests: Array<{ what: string; method: string; path: string; query?: Query; json?: unknown }> = [];
        if (f.customerId !== undefined) {
          requests.push({
            what: 'GET /accounts',
            method: 'GET',
            path: '/accounts',
            query: { customerId: f.customerId },
          });
          requests.push({
            what: 'GET /transactions',
            method: 'GET',
            path: '/transactions',
            query: { customerId: f.customerId },
          });
        }
        requests.push({
          what: 'GET /instruments',
          method: 'GET',
          path: '/instruments',
          query: { investmentType: 'INTERNATIONAL_STOCKS' },
        });
        if (f.accountId !== undefined)
          requests.push({ what: 'GET /accounts/{id}', method: 'GET', path: `/accounts/${f.accountId}` });
        if (f.assetId !== undefined)
          requests.push({ what: 'GET /assets/{id}', method: 'GET', path: `/assets/${f.assetId}` });
        if (f.transactionId !== undefined)
          requests.push({ what: 'GET /transactions/{id}', method: 'GET', path: `/transactions/${f.transactionId}` });
        // Only customerId: should the server wrongly serve it, nothing changes.
        if (f.mutableCustomerId !== undefined)
          requests.push({
            what: 'PUT /customers',
            method: 'PUT',
            path: '/customers',
            json: { customerId: f.mutableCustomerId },
          });
        if (f.customerId !== undefined) {
          for (const view of ['stocks', 'assets', 'requests'])
            requests.push({
              what: `GET /ussd/${view}`,
              method: 'GET',
              path: `/ussd/${view}`,
              query: { customerId: f.customerId },
            });
        }
        requests.push(
          { what: 'GET /webhooks', method: 'GET', path: '/webhooks' },
          { what: 'GET /webhooks/key', method: 'GET', path: '/webhooks/key' },
        );
        // Wrongly served, it sends one test delivery and changes no configuration. POST and PUT /webhooks are never sent
        // without a token: wrongly served, they would replace the client's webhook configuration.
        requests.push({ what: 'POST /webhooks/test', method: 'POST', path: '/webhooks/test' });
        for (const r of requests) {
          const res = await ctx.send({
            method: r.method,
            path: r.path,
            token: null,
            ...(r.query ? { query: r.query } : {}),
            ...(r.json ? { json: r.json } : {}),
          });
          expectStatus(ctx, res, 401, `401 Unauthorized for ${r.what} without an Authorization header`);
          expectErrorBody(ctx, res);
          ctx.judged(`${r.what} without a token`);
        }
        ctx.observe(`${requests.length} endpoints answered 401 without a token`);
      },
    }),
    defineCheck({
      id: 'resources.errors.not-found',
      title: 'GET of a customer, account, asset or transaction that does not exist answers 404 with the error body',
      level: 'MUST',
      requirements: ['REQ-ACCTEP-07', 'REQ-CUSTEP-03', 'REQ-ASSETEP-04', 'REQ-TXNEP-06', 'REQ-ERR-01', 'REQ-ERR-03'],
      explain: {
        sends:
          'GET /customers/{id}, /accounts/{id}, /assets/{id} and /transactions/{id} with fixtures.unknownId, which names no resource',
        passes: 'each answers 404 with the error body {code, message}',
        fails:
          'any other status, or a 404 without the error body: the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const unknown = ctx.fixture('unknownId');
        const messages = new Set<string>();
        for (const ep of BY_ID) {
          const res = await ctx.send({ method: 'GET', path: `${ep.prefix}/${unknown}` });
          expectStatus(ctx, res, 404, `404 for GET ${ep.prefix}/${unknown} (fixtures.unknownId names no resource)`);
          expectErrorBody(ctx, res);
          const body = expectJson(ctx, res) as Record<string, unknown>;
          messages.add(String(body.message));
          ctx.judged(`GET ${ep.prefix}/${unknown}`);
        }
        ctx.observe(`404 message text: ${[...messages].map((m) => JSON.stringify(m)).join(', ')}`);
      },
    }),
    defineCheck({
      id: 'resources.errors.malformed-id',
      title: 'GET of a customer, account, asset or transaction with a non-integer id is rejected, never a 5xx',
      level: 'MUST',
      requirements: ['REQ-ACCTEP-05', 'REQ-CUSTEP-01', 'REQ-ASSETEP-02', 'REQ-TXNEP-04'],
      explain: {
        sends:
          'GET /customers/{id}, /accounts/{id}, /assets/{id} and /transactions/{id} with the ids not-an-id and 1.5',
        passes: 'each is rejected (any 4xx): the ids are integers',
        fails:
          'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        for (const ep of BY_ID) {
          for (const bad of ['not-an-id', '1.5']) {
            const res = await ctx.send({ method: 'GET', path: `${ep.prefix}/${bad}` });
            expectRejection(ctx, res, `GET ${ep.prefix}/${bad} is rejected (any 4xx): ${ep.idField} is an integer`);
            ctx.judged(`GET ${ep.prefix}/${bad}`);
          }
        }
      },
    }),
    defineCheck({
      id: 'resources.errors.body',
      title:
        'refused requests (no token, unknown or malformed id, missing query, wrong client secret, altered signature) answer with the JSON error body {code, message}, both strings',
      level: 'MUST',
      // A wrong secret that is wrongly given a token: the token is revoked before the check ends.
      uses: ['token-revocation'],
      requirements: ['REQ-ERR-01', 'REQ-ERRB-01', 'REQ-ERRB-02', 'REQ-HDR-01'],
      note: 'Only answers that are rejections (4xx) are judged here: that a request is refused, and with which status, is the business of the checks of each endpoint.',
      explain: {
        sends:
          'requests a server refuses: a read without a token, a customer and the accounts of a customer that do not exist, an account id that is not an integer, each list without its required query, a token request with a wrong secret (a token given is revoked), and a read whose signature was altered',
        passes:
          'every answer that is a rejection (4xx) carries the JSON error body {"code": string, "message": string}; the token endpoint may answer with an OAuth 2.0 error body ({"error": …}) instead',
        fails:
          'a rejection without that body (the report lists which): the check fails; an answer that is no rejection is left to the checks of its endpoint; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        await withTokens(ctx, async (jar) => {
          const f = ctx.fixtures;
          const answers: Array<{ what: string; res: HttpResponse }> = [];
          const ask = async (what: string, spec: RequestSpec) => answers.push({ what, res: await ctx.send(spec) });
          await ask('a read without a token', { ...readProbe(ctx), token: null });
          if (f.unknownId !== undefined) {
            await ask('a customer that does not exist', { method: 'GET', path: `/customers/${f.unknownId}` });
            await ask('the accounts of a customer that does not exist', {
              method: 'GET',
              path: '/accounts',
              query: { customerId: f.unknownId },
            });
          }
          await ask('an account id that is not an integer', { method: 'GET', path: '/accounts/not-an-id' });
          for (const ep of LISTS)
            await ask(`GET ${ep.path} without its required query`, { method: 'GET', path: ep.path });
          // Nothing of the real secret in it: a wrong secret is not redacted everywhere a real one is.
          const wrong =
            ctx.credentials.clientSecret === 'conformance-wrong-secret'
              ? 'conformance-wrong-secret-2'
              : 'conformance-wrong-secret';
          const token = await ctx.send(tokenRequest({ clientId: ctx.credentials.clientId, clientSecret: wrong }));
          // The token exchange is "OAuth 2.0 style" and the Errors table leaves the token endpoints out of its 401 row: an
          // RFC 6749 §5.2 error body ({"error": "invalid_client"}) there is a reading a correct server may take.
          if (
            token.status >= 400 &&
            token.status <= 499 &&
            errorBodyOf(token) === undefined &&
            oauthErrorOf(token) !== undefined
          ) {
            ctx.observe(
              `the token endpoint refuses with an OAuth 2.0 error body (RFC 6749 §5.2): error ${JSON.stringify(oauthErrorOf(token))}, not {code, message}; accepted there`,
            );
          } else answers.push({ what: 'a token request with a wrong client secret', res: token });
          const issued = tokenIn(token);
          if (issued) {
            await jar.keep(issued.token);
            ctx.observe(
              'also seen here, judged by auth.token.wrong-secret: a token request with a wrong secret was given a token (revoked before this check ended)',
            );
          }
          await ask('a read whose signature was altered', {
            ...readProbe(ctx),
            tamper: (req) =>
              setHeader(req.headers, 'Signature', alterSignature(headerValue(req.headers, 'signature')!)),
          });

          const judged = answers.filter((a) => a.res.status >= 400 && a.res.status <= 499);
          for (const a of answers.filter((x) => !judged.includes(x))) {
            ctx.observe(
              `not a rejection, so no error body to judge here (the checks of that endpoint judge the status): ${a.what} answered ${describeResponse(a.res)}`,
            );
          }
          if (judged.length === 0)
            ctx.skip('no request of the battery was refused with a 4xx, so no error body could be judged');
          const wrongBodies = judged.filter((a) => errorBodyOf(a.res) === undefined);
          if (wrongBodies.length > 0) {
            const first = wrongBodies[0]!;
            const notJson = wrongBodies.filter((a) => !parseJson(a.res.text).ok);
            ctx.fail(
              `${wrongBodies.length} of ${judged.length} rejection(s) came without the error body {code, message}: ${wrongBodies.map((a) => `${a.what} (${a.res.status})`).join('; ')}`,
              {
                expected: 'every error answer is the JSON body {"code": string, "message": string}',
                observed: describeResponse(first.res),
                exchange: first.res.exchange,
                requirements: notJson.length
                  ? ['REQ-ERR-01', 'REQ-ERRB-01', 'REQ-ERRB-02', 'REQ-HDR-01']
                  : ['REQ-ERR-01', 'REQ-ERRB-01', 'REQ-ERRB-02'],
              },
            );
          }
          for (const a of judged) ctx.judged(a.what);
          const codes = judged.map((a) => `${a.res.status} → ${JSON.stringify(errorBodyOf(a.res)!.code)}`);
          const statusLike = judged.every((a) => errorBodyOf(a.res)!.code === String(a.res.status));
          ctx.observe(
            `error codes (the spec says only "string"): ${[...new Set(codes)].join(', ')}${statusLike ? ' — the HTTP status as a string' : ''}`,
          );
        });
      },
    }),
    defineCheck({
      id: 'resources.errors.message-text',
      title:
        'a 401 says "Unauthorized" and a 404 says "Not Found", as the Errors table writes them (any case, any wording around them)',
      level: 'MUST',
      requirements: ['REQ-ERR-02', 'REQ-ERR-03'],
      note: 'The only check that judges the message text; read leniently: /unauthori[sz]ed/i for a 401, /not\\s*found/i for a 404 ("Not Found (the specified resource was not found)" and "The specified resource was not found" both pass).',
      explain: {
        sends:
          'reads without a token (GET /customers/{id}, GET /accounts, GET /instruments), and GET /customers/{id}, /accounts/{id}, /assets/{id} and /transactions/{id} of fixtures.unknownId',
        passes:
          'where a 401 or a 404 comes with the error body, its message says "Unauthorized" (a 401) or "Not Found" (a 404), in any case and with any words around them',
        fails:
          'a message without those words (the report lists which): the check fails; another status or a missing body is left to other checks; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const f = ctx.fixtures;
        const probes: Array<{ what: string; status: 401 | 404; spec: RequestSpec }> = [];
        if (f.customerId !== undefined) {
          probes.push({
            what: 'GET /customers/{id} without a token',
            status: 401,
            spec: { method: 'GET', path: `/customers/${f.customerId}`, token: null },
          });
          probes.push({
            what: 'GET /accounts without a token',
            status: 401,
            spec: { method: 'GET', path: '/accounts', query: { customerId: f.customerId }, token: null },
          });
        }
        probes.push({
          what: 'GET /instruments without a token',
          status: 401,
          spec: { method: 'GET', path: '/instruments', query: { investmentType: 'INTERNATIONAL_STOCKS' }, token: null },
        });
        if (f.unknownId !== undefined) {
          for (const ep of BY_ID)
            probes.push({
              what: `GET ${ep.prefix}/{id} of an unknown id`,
              status: 404,
              spec: { method: 'GET', path: `${ep.prefix}/${f.unknownId}` },
            });
        }
        const TEXT = {
          401: { pattern: /unauthori[sz]ed/i, words: 'Unauthorized', requirement: 'REQ-ERR-02' },
          404: {
            pattern: /not\s*found/i,
            words: 'Not Found (the specified resource was not found)',
            requirement: 'REQ-ERR-03',
          },
        } as const;
        const wrong: Array<{ what: string; res: HttpResponse; message: string; status: 401 | 404 }> = [];
        const messages = new Set<string>();
        let judged = 0;
        for (const p of probes) {
          const res = await ctx.send(p.spec);
          if (res.status !== p.status) {
            ctx.observe(
              `${p.what} answered ${res.status}, not ${p.status}: its status is judged by the checks of that endpoint, its text not here`,
            );
            continue;
          }
          const body = errorBodyOf(res);
          if (!body) {
            ctx.observe(
              `also seen here, judged by resources.errors.body: ${p.what} answered ${p.status} without the error body`,
            );
            continue;
          }
          judged++;
          messages.add(`${p.status} ${JSON.stringify(body.message)}`);
          if (!TEXT[p.status].pattern.test(body.message))
            wrong.push({ what: p.what, res, message: body.message, status: p.status });
        }
        if (judged === 0)
          ctx.skip('no probe answered 401 or 404 with an error body, so no message text could be judged');
        if (wrong.length > 0) {
          const first = wrong[0]!;
          ctx.fail(
            `${wrong.length} of ${judged} error message(s) do not say what the Errors table lists: ${wrong.map((w) => `${w.what}: ${w.status} ${JSON.stringify(w.message)}`).join('; ')}`,
            {
              expected: `a 401 says "${TEXT[401].words}", a 404 says "${TEXT[404].words}" (any case; other words around them allowed)`,
              observed: describeResponse(first.res),
              exchange: first.res.exchange,
              requirements: [...new Set(wrong.map((w) => TEXT[w.status].requirement))],
            },
          );
        }
        ctx.judged('an error message', judged);
        ctx.observe(`message texts: ${[...messages].join(', ')}`);
      },
    }),
    queryValidatedCheck('resources.accounts.query-validated', ACCOUNTS_LIST, 'customerId', ['not-a-number', '1.5']),
    queryValidatedCheck('resources.transactions.query-validated', TRANSACTIONS_LIST, 'customerId', [
      'not-a-number',
      '1.5',
    ]),
    queryValidatedCheck('resources.instruments.type-validated', INSTRUMENTS_LIST, 'investmentType', [
      'NOT_AN_INVESTMENT_TYPE',
    ]),
    defineCheck({
      id: 'resources.instruments.announced-types-rejected',
      title: 'GET /instruments with an announced but not yet available investment type is rejected',
      level: 'MUST',
      requirements: ['REQ-SVC-08'],
      explain: {
        sends: `GET /instruments with investmentType=${ANNOUNCED_TYPES.join(', ')}, one at a time`,
        passes:
          'each is rejected (any 4xx): the spec announces these types, but INTERNATIONAL_STOCKS is the only one accepted today',
        fails:
          'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        for (const type of ANNOUNCED_TYPES) {
          const res = await ctx.send({ method: 'GET', path: '/instruments', query: { investmentType: type } });
          expectRejection(ctx, res, `investmentType=${type} is rejected (any 4xx): it is not an accepted value today`);
          ctx.judged(`investmentType=${type}`);
        }
      },
    }),
    defineCheck({
      id: 'resources.accounts.consistent',
      title:
        'every account listed for a customer carries that customerId and equals GET /accounts/{id}; the fixture account is listed',
      level: 'MUST',
      requirements: ['REQ-ACCT-03', 'REQ-ACCT-06', 'REQ-ACCTEP-06'],
      explain: {
        sends: `a walk of GET /accounts?customerId=<fixtures.customerId>, following meta.nextPage, then GET /accounts/{id} of each account listed (the first ${MAX_DETAIL_FETCHES})`,
        passes:
          'every account listed carries that customerId, the fixture account (fixtures.accountId) is listed, and each account fetched equals its list item (status and updatedAt may move on together with a later updatedAt)',
        fails:
          'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const customerId = ctx.fixture('customerId');
        const accountId = ctx.fixture('accountId');
        const walk = await walkList(ctx, '/accounts', { customerId }, { idField: 'accountId', ...WALK });
        const owner = String(customerId);
        walk.items.forEach((item, i) => {
          if (!isObject(item) || idKey(item, 'customerId') !== owner) {
            const got = isObject(item) ? exactValue(item, 'customerId') : JSON.stringify(item);
            fail(
              ctx,
              pageOfItem(walk, i),
              `an account listed for customer ${owner} has customerId ${got}`,
              `every account of GET /accounts?customerId=${owner} has customerId ${owner}`,
            );
          }
        });
        if (!walk.ids.includes(String(accountId)) && !walk.capped) {
          fail(
            ctx,
            walk.pages[0]!.response,
            `the fixture account ${accountId} is not in the list of customer ${owner} (${describeWalk(walk)})`,
            `GET /accounts?customerId=${owner} lists account ${accountId}`,
          );
        }
        // Account transitions are not shown (REQ-STATE-06), and nothing says an account stands still between two reads:
        // activity the interface does not show may touch it. So status and updatedAt may differ, but only together with a
        // later updatedAt (a change that says when it happened); what an account is never changes.
        const fields = schemaFields('account');
        const mutable = new Set(['status', 'updatedAt']);
        let fetched = 0;
        const touched: string[] = [];
        for (const item of walk.items.slice(0, MAX_DETAIL_FETCHES)) {
          const seg = isObject(item) ? idSegment(item, 'accountId') : undefined;
          if (!isObject(item) || seg === undefined) continue;
          const { res, data } = await getResource(ctx, `/accounts/${seg}`);
          fetched++;
          const diff = differingFields(item, data, fields);
          const later =
            typeof item.updatedAt === 'number' && typeof data.updatedAt === 'number' && data.updatedAt > item.updatedAt;
          const wrong = diff.filter((d) => !(later && mutable.has(d.field)));
          if (wrong.length) {
            fail(
              ctx,
              res,
              `account ${seg} differs between the list and GET /accounts/${seg}: ${wrong.map((d) => `${d.field} ${d.a} (list) vs ${d.b}`).join(', ')}`,
              'an account listed equals the account fetched by its id (status and updatedAt may move on together with a later updatedAt)',
            );
          }
          if (diff.length) touched.push(`account ${seg}: ${diff.map((d) => `${d.field} ${d.a} → ${d.b}`).join(', ')}`);
        }
        ctx.judged('an account listed', walk.items.length);
        ctx.observe(
          `${walk.items.length} account(s) listed, ${fetched} compared with GET /accounts/{id}${walk.capped ? `; the walk was capped (${walk.stop.detail})` : ''}`,
        );
        ctx.observe(
          touched.length
            ? `${touched.length} account(s) changed between the list and GET /accounts/{id} (transitions not shown): ${touched.slice(0, 3).join('; ')}`
            : 'no account changed between the list and GET /accounts/{id}',
        );
      },
    }),
    defineCheck({
      id: 'resources.transactions.consistent',
      title:
        'every transaction listed for a customer carries that customerId; the fixture transaction is listed and equals GET /transactions/{id}',
      level: 'MUST',
      requirements: ['REQ-TXN-03', 'REQ-TXNEP-05'],
      explain: {
        sends:
          'a walk of GET /transactions?customerId=<fixtures.customerId>, following meta.nextPage, then GET /transactions/{id} of fixtures.transactionId',
        passes:
          'every transaction listed carries that customerId, and the fixture transaction is listed and equals what GET /transactions/{id} answers',
        fails:
          'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const customerId = ctx.fixture('customerId');
        const transactionId = ctx.fixture('transactionId');
        const walk = await walkList(ctx, '/transactions', { customerId }, { idField: 'transactionId', ...WALK });
        const owner = String(customerId);
        walk.items.forEach((item, i) => {
          if (ownedByOther(item, owner)) {
            fail(
              ctx,
              pageOfItem(walk, i),
              `a transaction listed for customer ${owner} has customerId ${exactValue(item as Record<string, unknown>, 'customerId')}`,
              `every transaction of GET /transactions?customerId=${owner} has customerId ${owner}`,
            );
          }
        });
        ctx.judged('a transaction listed', walk.items.length);
        const at = walk.ids.indexOf(String(transactionId));
        if (at < 0) {
          if (walk.capped)
            return ctx.observe(
              `the fixture transaction was not within the first ${walk.items.length} items (${walk.stop.detail})`,
            );
          fail(
            ctx,
            walk.pages[0]!.response,
            `the fixture transaction ${transactionId} is not in the list of customer ${owner} (${describeWalk(walk)})`,
            `GET /transactions?customerId=${owner} lists transaction ${transactionId}`,
          );
        }
        const { res, data } = await getResource(ctx, `/transactions/${transactionId}`);
        const diff = differingFields(walk.items[at] as Record<string, unknown>, data, schemaFields('transaction'));
        if (diff.length) {
          fail(
            ctx,
            res,
            `transaction ${transactionId} differs between the list and GET /transactions/${transactionId}: ${diff.map((d) => `${d.field} ${d.a} (list) vs ${d.b}`).join(', ')}`,
            'a transaction listed equals the transaction fetched by its id',
          );
        }
        ctx.observe(`${walk.items.length} transaction(s) listed for customer ${owner}`);
      },
    }),
    defineCheck({
      id: 'resources.fixtures.owned',
      title: 'the fixture account, asset and transaction belong to the fixture customer',
      level: 'MUST',
      requirements: ['REQ-ACCT-03', 'REQ-ASSET-03', 'REQ-TXN-03', 'REQ-ASSETEP-01'],
      explain: {
        sends:
          'GET /accounts/{id}, /assets/{id} and /transactions/{id} of fixtures.accountId, assetId and transactionId',
        passes: 'each carries customerId = fixtures.customerId (one that cannot be read skips the check)',
        fails:
          'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const customerId = String(ctx.fixture('customerId'));
        const owned: Array<[FixtureName, string]> = [
          ['accountId', '/accounts'],
          ['assetId', '/assets'],
          ['transactionId', '/transactions'],
        ];
        const unread: string[] = [];
        for (const [fixture, prefix] of owned) {
          const id = ctx.fixture(fixture);
          // A resource the server does not serve is resources.*.get's failure; its owner is then simply not known.
          const got = await readLeniently(ctx, `${prefix}/${id}`);
          if (!got) {
            unread.push(`${prefix}/${id}`);
            continue;
          }
          // A record without customerId names no owner: whether the field is there is its table's business.
          if (got.data.customerId === undefined) {
            unread.push(`${prefix}/${id} (no customerId)`);
            continue;
          }
          if (ownedByOther(got.data, customerId)) {
            fail(
              ctx,
              got.res,
              `${prefix}/${id} has customerId ${exactValue(got.data, 'customerId')}, not ${customerId}`,
              `fixtures.${fixture} ${id} belongs to fixtures.customerId ${customerId}`,
            );
          }
          ctx.judged(`${prefix}/${id}`);
        }
        if (unread.length)
          ctx.skip(
            `${unread.join(', ')} could not be read or named no owner, so the owner could not be compared (the resources.*.get and resources.fields.present checks judge those answers)`,
          );
      },
    }),
    defineCheck({
      id: 'resources.lists.isolated',
      title: "another customer's accounts and transactions never appear in a customer's lists",
      level: 'MUST',
      requirements: ['REQ-ACCTEP-02', 'REQ-TXNEP-01'],
      explain: {
        sends:
          'walks of GET /accounts and GET /transactions for fixtures.customerId and for fixtures.otherCustomerId, following meta.nextPage',
        passes:
          "no item of the other customer is listed for the fixture customer, and every item listed for the other customer carries the other customer's id",
        fails:
          'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const customerId = ctx.fixture('customerId');
        const otherId = ctx.fixture('otherCustomerId');
        const unwalked: string[] = [];
        let items = 0;
        for (const [path, idField] of [
          ['/accounts', 'accountId'],
          ['/transactions', 'transactionId'],
        ] as const) {
          // A list the server does not serve is the list checks' failure; its isolation is then simply not known.
          const mine = await walkLeniently(ctx, path, { customerId }, idField);
          const theirs = await walkLeniently(ctx, path, { customerId: otherId }, idField);
          if (!mine || !theirs) {
            unwalked.push(path);
            continue;
          }
          const own = new Set(theirs.ids.filter((id): id is string => id !== undefined));
          const leaked = mine.ids.findIndex((id) => id !== undefined && own.has(id));
          if (leaked >= 0) {
            fail(
              ctx,
              pageOfItem(mine, leaked),
              `${idField} ${mine.ids[leaked]} of customer ${otherId} is listed for customer ${customerId}`,
              `GET ${path}?customerId=${customerId} lists none of customer ${otherId}'s items`,
            );
          }
          const foreign = theirs.items.findIndex((item) => ownedByOther(item, String(otherId)));
          if (foreign >= 0) {
            fail(
              ctx,
              pageOfItem(theirs, foreign),
              `an item listed for customer ${otherId} has customerId ${exactValue(theirs.items[foreign] as Record<string, unknown>, 'customerId')}`,
              `GET ${path}?customerId=${otherId} lists only that customer's items`,
            );
          }
          items += mine.items.length + theirs.items.length;
          ctx.judged(`an item of GET ${path}`, mine.items.length + theirs.items.length);
        }
        if (unwalked.length)
          ctx.skip(
            `${unwalked.join(' and ')} could not be walked, so their isolation could not be compared (the list checks judge those answers)`,
          );
        if (items === 0)
          ctx.skip(
            `the accounts and transactions of customers ${customerId} and ${otherId} are empty lists: no item to tell apart`,
          );
      },
    }),
    defineCheck({
      id: 'resources.lists.unknown-customer',
      title:
        'the accounts and transactions of a customer that does not exist are a rejection (404 listed), or an empty list; never items, never a 5xx',
      level: 'MUST',
      requirements: ['REQ-ACCTEP-04', 'REQ-TXNEP-03', 'REQ-ERR-03'],
      note: 'The exact conditions of a 404 are not shown (REQ-ERR-06): a rejection (404 is the status listed; any 4xx) and an empty list are both readings a correct server may take, and which one it took is recorded.',
      explain: {
        sends:
          'GET /accounts and GET /transactions with customerId = fixtures.unknownId, a customer that does not exist',
        passes: 'each is rejected (404 is the status listed; any 4xx passes), or answered 200 with an empty list',
        fails:
          'a 200 with items or without a list, another 2xx, a redirect, or a 5xx: the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const unknown = ctx.fixture('unknownId');
        for (const path of ['/accounts', '/transactions']) {
          const res = await ctx.send({ method: 'GET', path, query: { customerId: unknown } });
          if (res.status >= 400 && res.status <= 499) {
            noteErrorBody(ctx, res);
            ctx.observe(
              `GET ${path}?customerId=${unknown}: ${res.status}${res.status === 404 ? '' : ' (a rejection other than the 404 the Errors table lists)'}`,
            );
            ctx.judged(`GET ${path}?customerId=${unknown}`);
            continue;
          }
          if (res.status !== 200)
            expectRejection(
              ctx,
              res,
              `GET ${path}?customerId=${unknown} for a customer that does not exist: 404 (or any 4xx), or 200 with an empty list`,
            );
          const env = readEnvelope(ctx, res);
          if (!Array.isArray(env.data) || env.data.length > 0) {
            fail(
              ctx,
              res,
              `GET ${path}?customerId=${unknown} returned ${Array.isArray(env.data) ? `${env.data.length} item(s)` : 'a non-list'} for a customer that does not exist`,
              'a 404, or an empty list',
            );
          }
          ctx.observe(`GET ${path}?customerId=${unknown}: 200 with an empty list`);
          ctx.judged(`GET ${path}?customerId=${unknown}`);
        }
      },
    }),
    defineCheck({
      id: 'resources.customers.update',
      title:
        'PUT /customers changes firstName and lastName, answers the Customer with createdAt and updatedAt, and a following GET shows the change',
      level: 'MUST',
      uses: ['mutable-customer'],
      requirements: [
        'REQ-SVC-02',
        'REQ-ENV-01',
        'REQ-ENV-02',
        'REQ-ENV-03',
        'REQ-ENV-04',
        'REQ-HDR-13',
        'REQ-CUSTEP-04',
        'REQ-CUSTEP-07',
      ],
      explain: {
        sends:
          'PUT /customers on the mutable customer with new firstName and lastName, then GET /customers/{id}; the original values are put back afterwards',
        passes:
          'the PUT answers 200 with the envelope and the updated Customer (createdAt and updatedAt included, the values sent), and the GET shows the change',
        fails:
          'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too; a restore that fails fails the check too, with the PUT /customers to send by hand',
      },
      async run(ctx) {
        await withCustomerRestored(ctx, async (id, original) => {
          if (typeof original.firstName !== 'string' || typeof original.lastName !== 'string') {
            ctx.skip(`customer ${id} shows no firstName/lastName, so a change could neither be verified nor undone`);
          }
          const wanted = {
            firstName: otherName(original.firstName, 'Conformance', 'Conformance-Check'),
            lastName: otherName(original.lastName, 'Suite', 'Suite-Check'),
          };
          // The other fields keep their current values (never a new status: transitions are not shown, CLOSED may be final).
          const body: Record<string, unknown> = { customerId: id, ...wanted };
          // Only a status the enum has, and never CLOSED; a status outside the enum is customers.get's failure, not this one's.
          if (
            typeof original.status === 'string' &&
            original.status !== 'CLOSED' &&
            CUSTOMER_STATUSES.includes(original.status)
          )
            body.status = original.status;
          // An integer beyond 2^53 would go out rounded, i.e. changed: leave it out.
          if (Number.isInteger(original.referenceId) && !isUnsafeNumber(original, 'referenceId'))
            body.referenceId = original.referenceId;
          const res = await ctx.send({ method: 'PUT', path: '/customers', json: body });
          expectStatus(ctx, res, 200, '200 with the updated Customer');
          const env = readEnvelope(ctx, res);
          if (!isObject(env.data))
            fail(ctx, res, 'data is not an object', 'data = Customer (including createdAt, updatedAt)');
          // A field the GET already showed wrong is the same defect seen again (customers.get judges it).
          expectSchema(ctx, res, env.data, 'customer', {
            path: 'data',
            table: 'Customer',
            leftTo: { fields: invalidFields(original, 'customer'), owner: 'resources.customers.get' },
          });
          const data = env.data;
          const missing = ['createdAt', 'updatedAt'].filter((f) => data[f] === undefined);
          if (missing.length)
            fail(
              ctx,
              res,
              `the updated Customer has no ${missing.join(' and ')}`,
              'data = Customer (including createdAt, updatedAt)',
            );
          for (const [f, v] of Object.entries(wanted)) {
            if (data[f] !== undefined && data[f] !== v)
              fail(
                ctx,
                res,
                `the answer shows ${f} ${JSON.stringify(data[f])}, not the ${JSON.stringify(v)} sent`,
                'the answer is the updated customer',
              );
          }
          const { res: after, customer } = await readCustomer(ctx, id);
          for (const [f, v] of Object.entries(wanted)) {
            if (customer[f] !== v)
              fail(
                ctx,
                after,
                `after the update GET /customers/${id} shows ${f} ${JSON.stringify(customer[f])}, not ${JSON.stringify(v)}`,
                'the update is reflected by a following GET',
              );
          }
          ctx.judged('the update and the customer after it');
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
      explain: {
        sends: 'PUT /customers on the mutable customer with only customerId, then GET /customers/{id}',
        passes: '200 with the Customer, and the customer unchanged afterwards',
        fails:
          'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too; a restore that fails fails the check too, with the PUT /customers to send by hand',
      },
      async run(ctx) {
        await withCustomerRestored(ctx, async (id, original) => {
          const res = await ctx.send({ method: 'PUT', path: '/customers', json: { customerId: id } });
          expectStatus(ctx, res, 200, '200: a body with only customerId is a valid update');
          const env = readEnvelope(ctx, res);
          // What the answer holds is resources.customers.update's to judge; this check judges acceptance and the store.
          expectSchema(ctx, res, env.data, 'customer', {
            path: 'data',
            table: 'Customer',
            leftTo: { fields: 'all', owner: 'resources.customers.update' },
          });
          const { res: after, customer } = await readCustomer(ctx, id);
          const diff = differingFields(original, customer, CUSTOMER_WRITABLE);
          if (diff.length)
            fail(
              ctx,
              after,
              `an update with only customerId changed ${diff.map((d) => `${d.field} ${d.a} → ${d.b}`).join(', ')}`,
              'fields that are not sent keep their values',
            );
          ctx.judged('the update and the customer after it');
        });
      },
    }),
    defineCheck({
      id: 'resources.customers.update-invalid',
      title:
        'PUT /customers without an integer customerId, with a body that is not JSON, or with a value outside its type (a status outside the enum, a number for a name, a string for referenceId) is refused (4xx) and changes nothing',
      level: 'MUST',
      uses: ['mutable-customer'],
      requirements: ['REQ-CUSTEP-05', 'REQ-CUSTEP-10', 'REQ-HDR-01'],
      note: "The update body states each field's type and the enum of status: a closed domain, so a body outside it is refused, whatever the status (any 4xx: the status of a validation failure is not shown, whether to refuse is). Answered 2xx and ignored, or stored, it is not refused; a 5xx is no refusal either.",
      explain: {
        sends:
          'PUT /customers on the mutable customer with no customerId, with customerId "abc", with a body that is not JSON, with status "NOT_A_STATUS", with firstName 12345 and with referenceId "not-a-number", one at a time, each followed by GET /customers/{id}; restored afterwards',
        passes: 'each is refused (any 4xx), and none changes the customer',
        fails:
          'a 2xx (the body was taken, or answered and ignored), a redirect or a 5xx to any of them, or any change to the customer: the check fails; a restore that fails fails the check too, with the PUT /customers to send by hand; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        await withCustomerRestored(ctx, async (id, original) => {
          const firstName = otherName(original.firstName, 'Conformance', 'Conformance-Check');
          const bodies: Array<[string, Pick<RequestSpec, 'json' | 'body' | 'contentType'>, string[]]> = [
            ['no customerId (only firstName)', { json: { firstName } }, ['REQ-CUSTEP-05']],
            ['customerId "abc" (a string)', { json: { customerId: 'abc', firstName } }, ['REQ-CUSTEP-05']],
            [
              'a body that is not JSON (cut short)',
              { body: `{"customerId":${id},"firstName":"${firstName}"`, contentType: 'application/json' },
              ['REQ-CUSTEP-05', 'REQ-HDR-01'],
            ],
            ...invalidValues(id).map(([what, json]): [string, { json: unknown }, string[]] => [
              what,
              { json },
              ['REQ-CUSTEP-10'],
            ]),
          ];
          const answers: string[] = [];
          for (const [what, body, requirements] of bodies) {
            const res = await ctx.send({ method: 'PUT', path: '/customers', ...body });
            expectRejection(
              ctx,
              res,
              `PUT /customers with ${what} is refused (any 4xx): customerId is a required integer, the body is JSON, and each field has the type (status: the enum) the update request gives it`,
              requirements,
            );
            answers.push(`${what}: ${res.status}`);
            const { res: after, customer } = await readCustomer(ctx, id);
            expectUnchanged(ctx, after, original, customer, `PUT /customers with ${what}`, requirements);
            ctx.judged(`PUT /customers with ${what}`);
          }
          ctx.observe(`refused, and the customer unchanged (${answers.join('; ')})`);
        });
      },
    }),
    defineCheck({
      id: 'resources.customers.reference-id-unique',
      title: "PUT /customers giving the mutable customer another customer's referenceId is refused and changes nothing",
      level: 'MUST',
      uses: ['mutable-customer'],
      requirements: ['REQ-CUST-05'],
      note: 'referenceId is an "Externally provided unique identifier": a server keeps it unique. The customer is restored should the server accept the change.',
      explain: {
        sends:
          'PUT /customers giving the mutable customer the referenceId of fixtures.customerId, another customer; the customer is restored should the server take it',
        passes: 'the server refuses it (any 4xx), and the customer is unchanged',
        fails:
          'a 2xx or a 5xx, or a change to the customer: the check fails; a restore that fails fails the check too, with the PUT /customers to send by hand; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const holderId = ctx.fixture('customerId');
        const read = await readLeniently(ctx, `/customers/${holderId}`);
        if (!read) return ctx.skip(`customer ${holderId}, whose referenceId the probe borrows, could not be read`);
        const holder = read.data;
        if (!Number.isInteger(holder.referenceId) || isUnsafeNumber(holder, 'referenceId')) {
          ctx.skip(
            `customer ${holderId} shows no referenceId that can be sent back exactly (${exactValue(holder, 'referenceId')})`,
          );
        }
        await withCustomerRestored(ctx, async (id, original) => {
          if (exactValue(original, 'referenceId') === exactValue(holder, 'referenceId')) {
            ctx.skip(
              `customers ${id} and ${holderId} already share referenceId ${exactValue(holder, 'referenceId')} (resources.ids.unique judges two fixture customers)`,
            );
          }
          const res = await ctx.send({
            method: 'PUT',
            path: '/customers',
            json: { customerId: id, referenceId: holder.referenceId },
          });
          expectRejection(
            ctx,
            res,
            `PUT /customers giving customer ${id} referenceId ${exactValue(holder, 'referenceId')}, which customer ${holderId} holds, is refused (any 4xx): referenceId is unique`,
          );
          noteErrorBody(ctx, res);
          const { res: after, customer } = await readCustomer(ctx, id);
          expectUnchanged(ctx, after, original, customer, `PUT /customers with customer ${holderId}'s referenceId`);
          ctx.judged('the update and the customer after it');
          ctx.observe(`refused with ${res.status}`);
        });
      },
    }),
    defineCheck({
      id: 'resources.numbers.safe-integers',
      title: 'integers in resource responses stay within ±(2^53 − 1), so a JavaScript client reads ids exactly',
      level: 'SHOULD',
      requirements: ['REQ-HDR-20'],
      explain: {
        sends:
          'GET of each fixture record (customer, account, asset, transaction) and the first page of each list (accounts, instruments, transactions)',
        passes: 'no integer in those answers is beyond ±(2^53 − 1), so a JavaScript client reads ids exactly',
        fails:
          'an integer beyond it (the report lists where): the check warns; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
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
            const listed = unsafe
              .slice(0, 5)
              .map(
                (u) =>
                  `${u.path} = ${u.text}${String(u.parsed) !== u.text ? ` (a double reads ${String(u.parsed)})` : ''}`,
              )
              .join('; ');
            fail(
              ctx,
              res,
              `${unsafe.length} integer(s) beyond 2^53 − 1 in ${res.exchange.request.url.replace(/^https?:\/\/[^/]+/, '')}: ${listed}`,
              'every integer within ±9007199254740991, which a JavaScript client holds exactly',
            );
          }
        }
        for (const res of responses) ctx.judged(res.exchange.request.url.replace(/^https?:\/\/[^/]+/, ''));
        ctx.observe(`${responses.length} responses scanned, ${found} unsafe integers`);
      },
    }),
    defineCheck({
      id: 'resources.ids.unique',
      title:
        "identifiers the tables call unique never repeat: two customers differ in customerId and referenceId, a customer's accounts in accountId",
      level: 'MUST',
      requirements: ['REQ-CUST-01', 'REQ-CUST-05', 'REQ-ACCT-02'],
      note: 'Only what a table calls unique: customerId ("Unique customer identifier"), referenceId ("Externally provided unique identifier"), accountId ("Unique account identifier"). instrumentId ("Identifier") and transactionId (no note) are not called unique; assetId is, but no list shows several assets.',
      explain: {
        sends:
          'GET /customers/{id} of fixtures.customerId and of fixtures.otherCustomerId, and a walk of the accounts of fixtures.customerId',
        passes:
          "the server's answers show that identifiers the tables call unique never repeat: two customers differ in customerId and referenceId, a customer's accounts in accountId",
        fails:
          'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const f = ctx.fixtures;
        const done: string[] = [];
        if (f.customerId !== undefined && f.otherCustomerId !== undefined) {
          const one = await readLeniently(ctx, `/customers/${f.customerId}`);
          const two = await readLeniently(ctx, `/customers/${f.otherCustomerId}`);
          if (one && two) {
            for (const [field, requirement] of [
              ['customerId', 'REQ-CUST-01'],
              ['referenceId', 'REQ-CUST-05'],
            ] as const) {
              // Which customer fields are present is not shown: only two values that are there can be compared.
              // null is "no value" (the field is not shown as a value), never a shared identifier.
              if (
                one.data[field] === undefined ||
                two.data[field] === undefined ||
                one.data[field] === null ||
                two.data[field] === null
              )
                continue;
              if (exactValue(one.data, field) === exactValue(two.data, field)) {
                ctx.fail(
                  `customers ${f.customerId} and ${f.otherCustomerId} both have ${field} ${exactValue(one.data, field)}`,
                  {
                    expected: `${field} is unique: two customers never share it`,
                    observed: `${describeResponse(one.res)} — and — ${describeResponse(two.res)}`,
                    exchange: two.res.exchange,
                    requirements: [requirement],
                  },
                );
              }
            }
            done.push(
              `customers ${f.customerId} and ${f.otherCustomerId} differ in customerId and referenceId (where shown)`,
            );
            ctx.judged('two fixture customers');
          }
        }
        if (f.customerId !== undefined) {
          const walk = await walkLeniently(ctx, '/accounts', { customerId: f.customerId }, 'accountId');
          const d = walk?.duplicates[0];
          if (walk && d) {
            fail(
              ctx,
              walk.pages[d.page]!.response,
              `accountId ${d.id} is listed twice for customer ${f.customerId} (pages ${d.firstPage + 1} and ${d.page + 1}; ${walk.duplicates.length} repeat(s))`,
              "accountId is unique: a customer's accounts list each account once",
            );
          }
          if (walk) done.push(`${walk.items.length} account(s) of customer ${f.customerId}, each accountId once`);
          if (walk) ctx.judged('an account listed', walk.items.length);
        }
        if (done.length === 0)
          ctx.skip(
            'neither the two fixture customers nor the accounts list could be read (fixtures.customerId, fixtures.otherCustomerId)',
          );
        ctx.observe(done.join('; '));
      },
    }),
    defineCheck({
      id: 'resources.timestamps.unix',
      title:
        'createdAt and updatedAt are Unix timestamps: integers, all in the one unit the server counts (seconds or milliseconds)',
      level: 'MUST',
      requirements: [
        'REQ-CUST-06',
        'REQ-CUST-08',
        'REQ-ACCT-07',
        'REQ-ACCT-08',
        'REQ-INST-08',
        'REQ-INST-09',
        'REQ-ASSET-13',
        'REQ-ASSET-14',
        'REQ-TXN-08',
        'REQ-TXN-09',
      ],
      note: '"Unix timestamp" names no unit (REQ-CUST-09): the unit is learnt from the timestamps read, the one most of them are plausible Unix times in (a date up to the year 2286 in seconds, or in milliseconds), and every timestamp is judged against it: one server, one meaning of "Unix timestamp". The token record\'s timestamps are judged by auth.token.timestamps. A date before 1970 or in the future, and whether updatedAt >= createdAt, are only recorded (the data a server holds is its own).',
      explain: {
        sends:
          'GET of each fixture record (customer, account, asset, transaction) and the first page of GET /instruments?investmentType=INTERNATIONAL_STOCKS',
        passes:
          'every createdAt and updatedAt there is an integer, a plausible Unix time in seconds or in milliseconds (a date up to the year 2286), and all of them count the same unit; dates before 1970 or in the future are only noted',
        fails:
          'a timestamp that is not an integer, one that is no Unix time in either unit (microseconds, say), one in another unit than the rest (a record in milliseconds among records in seconds), or as many in one unit as in the other: the check fails, naming the fields; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const records = await readTimestampedRecords(ctx);
        const timestamps = timestampsOf(records);
        if (timestamps.length === 0)
          ctx.skip(
            `no createdAt or updatedAt was read (${records.length} record(s)): nothing to judge (the checks of each endpoint judge its answers)`,
          );
        const none = timestamps.filter((t) => unitOf(t) === undefined);
        if (none.length > 0)
          failTimestamps(
            ctx,
            none,
            'timestamp(s) are no Unix time',
            'createdAt and updatedAt are integers counting seconds or milliseconds since 1970 (a date up to the year 2286 in either unit)',
          );
        const learnt = learnUnit(timestamps.map((t) => unitOf(t)!));
        if (learnt.unit === undefined)
          failTimestamps(
            ctx,
            timestamps,
            `timestamp(s) count no one unit: ${learnt.seconds} in seconds, ${learnt.milliseconds} in milliseconds`,
            'every createdAt and updatedAt in one unit: one server, one meaning of "Unix timestamp"',
          );
        const unit = learnt.unit;
        const other = timestamps.filter((t) => unitOf(t) !== unit);
        if (other.length > 0)
          failTimestamps(
            ctx,
            other,
            `timestamp(s) count ${unit === 'seconds' ? 'milliseconds' : 'seconds'}, while the server's other ${timestamps.length - other.length} count ${unit}`,
            `every createdAt and updatedAt in the unit the server counts (${unit}): one server, one meaning of "Unix timestamp"`,
          );
        ctx.judged('a timestamp', timestamps.length);
        ctx.observe(describeUnit(learnt));
        const unusual = unusualDates(timestamps, unit, Math.floor(Date.now() / 1000));
        if (unusual.length > 0)
          ctx.observe(
            `dates a reader may want to look at (not failed): ${unusual.slice(0, 5).join('; ')}${unusual.length > 5 ? ` (+${unusual.length - 5} more)` : ''}`,
          );
        const both = records.filter(
          (r) => typeof r.record.createdAt === 'number' && typeof r.record.updatedAt === 'number',
        );
        const ordered = both.filter((r) => (r.record.updatedAt as number) >= (r.record.createdAt as number));
        ctx.observe(
          `${records.length} record(s) read; updatedAt >= createdAt on ${ordered.length} of ${both.length}${
            ordered.length < both.length
              ? ` (not on: ${both
                  .filter((r) => !ordered.includes(r))
                  .map((r) => r.what)
                  .join(', ')})`
              : ''
          }`,
        );
      },
    }),
    defineCheck({
      id: 'resources.info.timestamp-unit',
      title: 'which unit the server counts Unix timestamps in (the spec names none): seconds or milliseconds',
      level: 'INFO',
      requirements: ['REQ-CUST-09'],
      note: "The unit the checks of timestamps judge against (resources.timestamps.unix, auth.token.timestamps); the run's notes say it too.",
      explain: {
        sends:
          'GET of each fixture record (customer, account, asset, transaction) and the first page of GET /instruments?investmentType=INTERNATIONAL_STOCKS',
        passes:
          'always, once the answers could be read: the check records the unit most createdAt and updatedAt there are plausible Unix times in, seconds or milliseconds',
        fails:
          'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning)',
      },
      async run(ctx) {
        const records = await readTimestampedRecords(ctx);
        const timestamps = timestampsOf(records);
        const units = timestamps.flatMap((t) => unitOf(t) ?? []);
        if (units.length === 0)
          ctx.skip(
            `no createdAt or updatedAt read as a Unix time (${records.length} record(s), ${timestamps.length} timestamp(s)): no unit to learn`,
          );
        ctx.judged('a timestamp', units.length);
        const text = describeUnit(learnUnit(units));
        ctx.observe(text);
        (ctx.state as ResourcesRun).timestampUnit = text;
      },
    }),
    defineCheck({
      id: 'resources.responses.json-type',
      title:
        'JSON answers, successes and errors, are labelled Content-Type application/json (or a +json type; parameters such as charset allowed)',
      level: 'SHOULD',
      requirements: ['REQ-HDR-02'],
      explain: {
        sends:
          'GET /instruments with and without investmentType, GET /customers/{id} of fixtures.customerId with and without a token, GET /accounts?customerId, and GET /customers/{id} of fixtures.unknownId: successes and errors',
        passes:
          'every answer with a JSON body is labelled Content-Type application/json or a +json type (parameters such as charset allowed)',
        fails:
          'a JSON body labelled otherwise, or not at all: the check warns; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const f = ctx.fixtures;
        const specs: RequestSpec[] = [
          { method: 'GET', path: '/instruments', query: { investmentType: 'INTERNATIONAL_STOCKS' } },
          { method: 'GET', path: '/instruments' },
        ];
        if (f.customerId !== undefined) {
          specs.push(
            { method: 'GET', path: `/customers/${f.customerId}` },
            { method: 'GET', path: '/accounts', query: { customerId: f.customerId } },
            { method: 'GET', path: `/customers/${f.customerId}`, token: null },
          );
        }
        if (f.unknownId !== undefined) specs.push({ method: 'GET', path: `/customers/${f.unknownId}` });
        const mislabelled: HttpResponse[] = [];
        const types = new Set<string>();
        let judged = 0;
        for (const spec of specs) {
          const res = await ctx.send(spec);
          // Only a body that is JSON can be mislabelled JSON; one that is not is the business of the checks reading it.
          if (res.text.length === 0 || !parseJson(res.text).ok) continue;
          judged++;
          const type = mediaTypeOf(res);
          types.add(`${res.status} ${res.header('content-type') ?? '(none)'}`);
          if (type === undefined || !isJsonMediaType(type)) mislabelled.push(res);
        }
        if (judged === 0) ctx.skip('no answer carried a JSON body');
        if (mislabelled.length > 0) {
          const first = mislabelled[0]!;
          fail(
            ctx,
            first,
            `${mislabelled.length} of ${judged} JSON answer(s) are labelled otherwise: ${mislabelled.map((r) => `${r.exchange.request.method} ${r.exchange.request.url.replace(/^https?:\/\/[^/]+/, '')} → ${r.status} ${r.header('content-type') ?? 'without Content-Type'}`).join('; ')}`,
            'Content-Type: application/json (or application/<something>+json) on every JSON answer',
          );
        }
        ctx.judged('a JSON answer', judged);
        ctx.observe(`Content-Type seen: ${[...types].join(', ')}`);
      },
    }),
    defineCheck({
      id: 'resources.info.extra-fields',
      title:
        'fields the spec tables do not list, per resource (clients must ignore them), and the values the tables leave open: timeFrame, position/locked/available, requestType and status',
      level: 'INFO',
      requirements: ['REQ-INST-10', 'REQ-ASSET-15', 'REQ-TXN-10'],
      explain: {
        sends: 'GET of each fixture record and the first page of each list',
        passes:
          'always, once the answer could be read: the check records the fields each resource carries beyond its table (clients must ignore them), and the values the tables leave open: timeFrame, how available relates to position and locked, requestType and status',
        fails:
          'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning)',
      },
      async run(ctx) {
        const f = ctx.fixtures;
        const seen = new Map<string, Set<string>>();
        const open = { timeFrame: new Set<string>(), requestType: new Set<string>(), status: new Set<string>() };
        const relations: string[] = [];
        let records = 0;
        const record = (table: string, obj: unknown, schema: string) => {
          if (isObject(obj)) records++;
          note(table, obj, schema);
        };
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
            record(ep.table, parsed.value.data, ep.schema);
            if (ep.name === 'assets' && isObject(parsed.value.data)) relations.push(assetRelation(parsed.value.data));
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
            record(ep.table, item, ep.schema);
            if (ep.name === 'instruments' && isObject(item) && Array.isArray(item.valueChangeOverTime)) {
              const vc = new Set(seen.get('valueChangeOverTime item') ?? []);
              for (const change of item.valueChangeOverTime) {
                if (isObject(change))
                  for (const k of Object.keys(change))
                    if (!['timeFrame', 'percentChange', 'summary'].includes(k)) vc.add(k);
                if (isObject(change) && typeof change.timeFrame === 'string') open.timeFrame.add(change.timeFrame);
              }
              seen.set('valueChangeOverTime item', vc);
            }
            if (ep.name === 'transactions' && isObject(item)) {
              if (typeof item.requestType === 'string') open.requestType.add(item.requestType);
              if (typeof item.status === 'string') open.status.add(item.status);
            }
          }
        }
        if (records === 0)
          ctx.skip('no record was read (the checks of each endpoint judge its answers): no field to tell');
        ctx.judged('a record', records);
        const extra = [...seen]
          .filter(([, keys]) => keys.size > 0)
          .map(([table, keys]) => `${table}: ${[...keys].join(', ')}`);
        ctx.observe(
          extra.length ? `fields the spec does not list — ${extra.join('; ')}` : 'no fields beyond the spec tables',
        );
        const values = (set: Set<string>) =>
          set.size ? [...set].map((v) => JSON.stringify(v)).join(', ') : 'none seen';
        ctx.observe(`timeFrame values (allowed values not shown): ${values(open.timeFrame)}`);
        ctx.observe(
          `position, locked and available (their relation is not shown): ${relations.length ? relations.join('; ') : 'no asset read'}`,
        );
        ctx.observe(
          `transaction requestType values (not shown): ${values(open.requestType)}; status values (not shown): ${values(open.status)}`,
        );
      },
    }),
    defineCheck({
      id: 'resources.info.customer-fields',
      title: 'which Customer fields the server returns (their presence is not shown)',
      level: 'INFO',
      requirements: ['REQ-CUST-07'],
      note: 'Where a customer has no value for a field, a server may leave the field out or send it as null; both are recorded, neither fails.',
      explain: {
        sends: 'GET /customers/{id} of fixtures.customerId and of fixtures.otherCustomerId',
        passes:
          'always, once the answer could be read: the check records which Customer fields each answer leaves out or sends as null',
        fails:
          'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning)',
      },
      async run(ctx) {
        const f = ctx.fixtures;
        const ids = [f.customerId, f.otherCustomerId].filter((id): id is number => id !== undefined);
        for (const id of ids) {
          const got = await readLeniently(ctx, `/customers/${id}`);
          if (!got) continue;
          const { absent, nulls } = fieldsNotGiven(got.data, 'customer');
          const shown = [
            ...(absent.length ? [`absent: ${absent.join(', ')}`] : []),
            ...(nulls.length ? [`null: ${nulls.join(', ')}`] : []),
          ];
          ctx.observe(
            `customer ${id}: ${shown.length ? shown.join('; ') : `all ${schemaFields('customer').length} Customer fields present`}`,
          );
          ctx.judged(`customer ${id}`);
        }
        if (ctx.subjectsJudged.count === 0)
          ctx.skip(
            `no customer could be read (${ids.join(', ')}): no field to tell (resources.customers.get judges it)`,
          );
      },
    }),
    defineCheck({
      id: 'resources.info.instruments-available',
      title:
        'whether GET /instruments lists instruments with isAvailable false ("lists available instruments" reads both ways)',
      level: 'INFO',
      requirements: ['REQ-INSTEP-02'],
      explain: {
        sends: 'a walk of GET /instruments?investmentType=INTERNATIONAL_STOCKS, following meta.nextPage',
        passes:
          'always, once the answer could be read: the check records how many instruments listed have isAvailable false, and so which reading of "lists available instruments" the server took',
        fails:
          'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning)',
      },
      async run(ctx) {
        const walk = await walkLeniently(ctx, INSTRUMENTS_LIST.path, INSTRUMENTS_LIST.query(ctx), 'instrumentId');
        if (!walk) return ctx.skip('the instrument list could not be walked (resources.instruments.list judges it)');
        const objects = walk.items.filter(isObject);
        if (objects.length === 0)
          return ctx.skip('the instrument list is empty: no instrument to tell available or not');
        ctx.judged('an instrument listed', objects.length);
        const unavailable = objects.filter((i) => i.isAvailable === false);
        const reading =
          unavailable.length > 0
            ? 'every instrument is listed, isAvailable telling which can be bought'
            : 'only instruments with isAvailable true are listed (or none is unavailable)';
        ctx.observe(
          `${unavailable.length} of ${objects.length} instrument(s) listed have isAvailable false: ${reading}${walk.capped ? `; the walk was capped (${walk.stop.detail})` : ''}`,
        );
      },
    }),
    defineCheck({
      id: 'resources.info.customer-list',
      title: 'whether GET /customers is served (its parameters and response are not shown)',
      level: 'INFO',
      requirements: ['REQ-CUSTEP-09'],
      explain: {
        sends: 'GET /customers, without parameters',
        passes: 'always, once the answer could be read: the check records whether it is served, and what it answers',
        fails:
          'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning)',
      },
      async run(ctx) {
        const res = await ctx.send({ method: 'GET', path: '/customers' });
        const data = dataOf(res);
        ctx.judged('the answer to GET /customers');
        ctx.observe(
          Array.isArray(data)
            ? `GET /customers: a list (${data.length} item(s) on the first page${res.text.includes('"meta"') ? ', with meta' : ''})`
            : `GET /customers: not served (${describeResponse(res)})`,
        );
      },
    }),
    defineCheck({
      id: 'resources.info.validation-status',
      title: 'which status a validation failure gets (not shown: any 4xx is a rejection)',
      level: 'INFO',
      requirements: ['REQ-ERR-05'],
      explain: {
        sends:
          'GET /accounts?customerId=not-a-number, GET /instruments?investmentType=NOT_AN_INVESTMENT_TYPE and GET /transactions/not-an-id',
        passes: 'always, once the answer could be read: the check records the status each validation failure gets',
        fails:
          'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning)',
      },
      async run(ctx) {
        const probes: Array<[string, RequestSpec]> = [
          [
            'GET /accounts?customerId=not-a-number',
            { method: 'GET', path: '/accounts', query: { customerId: 'not-a-number' } },
          ],
          [
            'GET /instruments?investmentType=NOT_AN_INVESTMENT_TYPE',
            { method: 'GET', path: '/instruments', query: { investmentType: 'NOT_AN_INVESTMENT_TYPE' } },
          ],
          ['GET /transactions/not-an-id', { method: 'GET', path: '/transactions/not-an-id' }],
        ];
        const seen: string[] = [];
        for (const [what, spec] of probes) {
          seen.push(`${what}: ${(await ctx.send(spec)).status}`);
          ctx.judged(what);
        }
        const statuses = [...new Set(seen.map((x) => x.slice(x.lastIndexOf(' ') + 1)))];
        ctx.observe(`validation failures answered ${statuses.join(', ')} (${seen.join('; ')})`);
      },
    }),
    defineCheck({
      id: 'resources.info.body-size',
      title: 'whether a request body of 64 KiB is taken (the maximum body size is not shown)',
      level: 'INFO',
      uses: ['mutable-customer'],
      requirements: ['REQ-LIM-05'],
      note: 'The body is {"customerId": <mutable customer>} padded with JSON whitespace: taken, it changes nothing.',
      explain: {
        sends:
          'PUT /customers whose body is {"customerId": <the mutable customer>} padded with JSON whitespace to 64 KiB (taken, it changes nothing)',
        passes:
          'always, once the answer could be read: the check records whether the body was taken or refused, and with which status',
        fails:
          'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning)',
      },
      async run(ctx) {
        const id = ctx.fixture('mutableCustomerId');
        const size = 64 * 1024;
        const head = `{"customerId":${id}`;
        const body = `${head}${' '.repeat(size - head.length - 1)}}`;
        const res = await ctx.send({ method: 'PUT', path: '/customers', body, contentType: 'application/json' });
        const kib = Math.round(Buffer.byteLength(body) / 1024);
        ctx.judged(`a PUT /customers body of ${kib} KiB`);
        ctx.observe(
          res.status >= 200 && res.status <= 299
            ? `a PUT /customers body of ${kib} KiB was accepted (${res.status})`
            : `a PUT /customers body of ${kib} KiB was refused: ${describeResponse(res)}`,
        );
      },
    }),
    defineCheck({
      id: 'resources.info.customer-transitions',
      title:
        'whether PUT /customers lets the status of an ACTIVE customer change to SUSPENDED (transitions are not shown); put back afterwards',
      level: 'INFO',
      uses: ['mutable-customer'],
      requirements: ['REQ-STATE-05'],
      note: 'Only ACTIVE → SUSPENDED and back, never CLOSED (which a server may treat as final); a restore that fails fails the check loudly, with the values to put back by hand.',
      explain: {
        sends: 'PUT /customers setting the mutable customer, where it is ACTIVE, to SUSPENDED; put back afterwards',
        passes: 'always, once the answer could be read: the check records whether the change was accepted or refused',
        fails:
          'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning); a restore that fails is reported as a clean-up problem, with the PUT /customers to send by hand',
      },
      async run(ctx) {
        await withCustomerRestored(ctx, async (id, original) => {
          if (original.status !== 'ACTIVE')
            return ctx.skip(
              `customer ${id} is ${exactValue(original, 'status')}, not ACTIVE: no status change was tried`,
            );
          const res = await ctx.send({
            method: 'PUT',
            path: '/customers',
            json: { customerId: id, status: 'SUSPENDED' },
          });
          if (res.status >= 500)
            return ctx.skip(
              `the status change ACTIVE → SUSPENDED answered ${describeResponse(res)}: neither taken nor refused`,
            );
          ctx.judged('the status change ACTIVE → SUSPENDED');
          ctx.observe(
            res.status >= 200 && res.status <= 299
              ? `status change ACTIVE → SUSPENDED accepted (${res.status}); put back afterwards`
              : `status change ACTIVE → SUSPENDED refused: ${describeResponse(res)}`,
          );
        });
      },
    }),
    // Last, and alone: should the server create the customer it was asked to update, fixtures.unknownId exists from then
    // on, and every check after this one sees it exist. Alone, the checks before it saw it unknown and those after it
    // see the same thing on every run, never a mix that depends on timing.
    defineCheck({
      id: 'resources.customers.update-unknown',
      title: 'PUT /customers for a customer that does not exist is refused (404 listed) and creates no customer',
      level: 'MUST',
      uses: ['mutable-customer'],
      alone: () => true,
      requirements: ['REQ-CUSTEP-08', 'REQ-ERR-03'],
      note: 'fixtures.unknownId must name no customer. The body carries nothing but that id, so a server that wrongly creates a customer creates an empty one; the interface cannot remove it, and the report says so.',
      explain: {
        sends:
          'GET /customers/{id} of fixtures.unknownId (it must answer 404, else the check is skipped), PUT /customers with only that customerId, then the GET again',
        passes:
          'the PUT is refused (404 is the status listed; any 4xx passes), and the GET still answers 404: no customer was created',
        fails:
          'a 2xx or a 5xx to the PUT, or a customer created (CLEANUP NEEDED: the interface cannot remove it): the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        // GUIDE: never make a change that might not be reversible. A correct server changes nothing here (the customer
        // does not exist, the 404 is listed), and the issue asks for this probe because a server that upserts is a real
        // defect nothing else finds. So the probe is made as small as it can be: only after a GET shows the id unknown,
        // with a body of nothing but that id (no name, no status, never CLOSED), and a creation is reported loudly with
        // what to do by hand.
        const unknown = ctx.fixture('unknownId');
        const before = await ctx.send({ method: 'GET', path: `/customers/${unknown}` });
        if (before.status !== 404) {
          ctx.skip(
            `GET /customers/${unknown} answered ${before.status}, not 404: the id may name a customer, and only fixtures.mutableCustomerId may be changed (resources.errors.not-found judges the answer)`,
          );
        }
        const res = await ctx.send({ method: 'PUT', path: '/customers', json: { customerId: unknown } });
        const after = await ctx.send({ method: 'GET', path: `/customers/${unknown}` });
        if (after.status >= 200 && after.status <= 299) {
          ctx.fail(
            `CLEANUP NEEDED: PUT /customers for customer ${unknown}, which did not exist, answered ${res.status} and created it: GET /customers/${unknown} now answers ${after.status}`,
            {
              cleanup: true,
              expected: `PUT /customers for a customer that does not exist is refused (404) and creates nothing`,
              observed: `${describeResponse(after)} — the interface has no way to remove a customer: have the server's operators delete customer ${unknown}, and until then set fixtures.unknownId to an id that exists nowhere (the not-found checks of later runs would fail on it)`,
              exchange: after.exchange,
            },
          );
        }
        expectRejection(
          ctx,
          res,
          `PUT /customers for customer ${unknown}, which does not exist, is refused: 404 is listed (any 4xx)`,
        );
        noteErrorBody(ctx, res);
        ctx.judged(`PUT /customers for customer ${unknown} and the customer after it`);
        if (after.status !== 404)
          ctx.observe(`after the refused PUT, GET /customers/${unknown} answered ${after.status}`);
        ctx.observe(
          `refused with ${res.status}${res.status === 404 ? '' : ' (a rejection other than the 404 the endpoint lists)'}; no customer was created`,
        );
      },
    }),
  ],
});
