// Suite `resources`, area `ids`: identifiers the tables call unique never repeat.
import { describeResponse, exactValue } from '../kit/index.js';
import { defineCheck } from '../../src/engine/index.js';
import { fail } from './helpers/fail.js';
import { readLeniently, walkLeniently } from './helpers/lenient-reads.js';

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
});
