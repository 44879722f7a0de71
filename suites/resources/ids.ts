// Suite `resources`, area `ids`: identifiers the tables call unique never repeat.
import {
  cite,
  describeResponse,
  exactValue,
  isObject,
  observedLine,
  observedPath,
  observedTraffic,
  parseJson,
  type HttpResponse,
} from '../kit/index.js';
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import { fail } from './helpers/fail.js';
import { endpointAt } from './helpers/endpoints.js';
import { dataOf, readLeniently, walkLeniently } from './helpers/lenient-reads.js';

export const idsUnique = defineCheck({
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
      'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
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
  // Observed traffic: each 200 page of GET /accounts lists an accountId once, and two customers read by id (of
  // different customerIds) do not share a referenceId, unless the traffic holds a 2xx PUT of either: a referenceId
  // may move from one customer to another between two reads.
  async observe(ctx) {
    const answers = observedTraffic(ctx).filter((res) => res.status === 200);
    let judged = 0;
    for (const res of answers.filter(
      (r) => r.exchange.request.method === 'GET' && observedPath(ctx, r) === '/accounts',
    )) {
      const data = dataOf(res);
      if (!Array.isArray(data)) continue;
      const ids = data.flatMap((item) =>
        isObject(item) && item.accountId != null ? [exactValue(item, 'accountId')] : [],
      );
      // A page of fewer than two accounts cannot repeat one: it is not judged.
      if (ids.length < 2) continue;
      judged++;
      const twice = ids.find((id, i) => ids.indexOf(id) !== i);
      if (twice !== undefined)
        fail(
          ctx,
          res,
          `${observedLine(ctx, res)}: accountId ${twice} is listed twice on one page`,
          "accountId is unique: a customer's accounts list each account once",
        );
    }
    const put = customersPut(ctx);
    if (put !== undefined) judged += judgeReferenceIds(ctx, answers, put);
    if (judged === 0)
      ctx.skip(
        'the traffic holds no 200 page of GET /accounts with two accounts or more, and no two customers read by id',
      );
    ctx.judged('a page of accounts or a customer read by id', judged);
  },
});

/**
 * The customers a 2xx PUT of the traffic changed, by the id its path or its JSON body names, else (its body not kept
 * whole) by the customer its answer carries: "200: `data` = Customer", the one updated. Undefined when a PUT of a
 * customer names none that can be read: any customer may then have changed.
 */
function customersPut(ctx: CheckContext): Set<string> | undefined {
  const put = new Set<string>();
  for (const res of observedTraffic(ctx)) {
    const path = observedPath(ctx, res) ?? '';
    if (res.exchange.request.method !== 'PUT' || res.status >= 300 || !/^\/customers(\/|$)/.test(path)) continue;
    const inPath = /^\/customers\/([^/]+)$/.exec(path)?.[1];
    const { bodyExcerpt, bodyTruncated } = res.exchange.request;
    const parsed = bodyExcerpt !== undefined && !bodyTruncated ? parseJson(bodyExcerpt) : undefined;
    const inBody = customerIdOf(parsed?.ok ? parsed.value : undefined);
    const named = inPath === undefined && inBody === undefined ? customerIdOf(dataOf(res)) : undefined;
    if (inPath === undefined && inBody === undefined && named === undefined) return undefined;
    for (const id of [inPath && decoded(inPath), inBody, named]) if (id !== undefined) put.add(id);
  }
  return put;
}

/** The customerId a JSON object carries, as its exact text; undefined when it carries none. */
function customerIdOf(value: unknown): string | undefined {
  return isObject(value) && value.customerId != null ? exactValue(value, 'customerId') : undefined;
}

/**
 * Two customers of the traffic, read by id, that share a referenceId, neither of them in `put`: the later read fails.
 * How many customers were compared.
 */
function judgeReferenceIds(ctx: CheckContext, answers: readonly HttpResponse[], put: ReadonlySet<string>): number {
  const latest = new Map<string, { res: HttpResponse; referenceId: string }>();
  for (const res of answers) {
    if (res.exchange.request.method !== 'GET' || endpointAt(observedPath(ctx, res))?.name !== 'customers') continue;
    const data = dataOf(res);
    if (!isObject(data) || data.customerId == null || data.referenceId == null) continue;
    if (put.has(exactValue(data, 'customerId'))) continue;
    latest.set(exactValue(data, 'customerId'), { res, referenceId: exactValue(data, 'referenceId') });
  }
  const customers = [...latest.entries()];
  customers.forEach(([id, read], i) => {
    const other = customers.slice(0, i).find(([, earlier]) => earlier.referenceId === read.referenceId);
    if (other !== undefined)
      ctx.fail(`customers ${other[0]} and ${id} both have referenceId ${read.referenceId}`, {
        expected: 'referenceId is unique: two customers never share it',
        observed: `${describeResponse(other[1].res)} — and — ${describeResponse(read.res)}`,
        exchange: cite(ctx, read.res),
        requirements: ['REQ-CUST-05'],
      });
  });
  return customers.length >= 2 ? customers.length : 0;
}

/** A path segment as the id it names; as it went when a % starts no escape. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
