// Suite `resources`, area `transactions`: GET /transactions/{transactionId} and GET /transactions: the transaction
// read, listed, its query validated, list and detail consistent.
import {
  describeWalk,
  differingFields,
  exactValue,
  getResource,
  pageOfItem,
  schemaFields,
  walkList,
} from '../kit/index.js';
import { defineCheck } from '../../src/engine/index.js';
import { getByIdCheck, listCheck, queryValidatedCheck } from './helpers/endpoint-checks.js';
import { TRANSACTION_BY_ID, TRANSACTIONS_LIST } from './helpers/endpoints.js';
import { fail } from './helpers/fail.js';
import { WALK } from './helpers/lenient-reads.js';
import { ownedByOther } from './helpers/ownership.js';

export const transactionsGet = getByIdCheck('resources.transactions.get', TRANSACTION_BY_ID);

export const transactionsList = listCheck('resources.transactions.list', TRANSACTIONS_LIST);

export const transactionsQueryValidated = queryValidatedCheck(
  'resources.transactions.query-validated',
  TRANSACTIONS_LIST,
  'customerId',
  ['not-a-number', '1.5'],
);

export const transactionsConsistent = defineCheck({
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
      'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
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
});
