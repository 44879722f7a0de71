// Suite `resources`, area `accounts`: GET /accounts/{accountId} and GET /accounts: the account read, listed, its query
// validated, list and detail consistent.
import {
  describeWalk,
  differingFields,
  exactValue,
  getResource,
  idKey,
  idSegment,
  isObject,
  pageOfItem,
  schemaFields,
  walkList,
} from '../kit/index.js';
import { defineCheck } from '../../src/engine/index.js';
import { getByIdCheck, listCheck, queryValidatedCheck } from './helpers/endpoint-checks.js';
import { ACCOUNT_BY_ID, ACCOUNTS_LIST } from './helpers/endpoints.js';
import { fail } from './helpers/fail.js';
import { WALK } from './helpers/lenient-reads.js';

/** Detail fetches per consistency check; the rest are compared only through the list. */
const MAX_DETAIL_FETCHES = 50;

export const accountsGet = getByIdCheck('resources.accounts.get', ACCOUNT_BY_ID);

export const accountsList = listCheck('resources.accounts.list', ACCOUNTS_LIST);

export const accountsQueryValidated = queryValidatedCheck(
  'resources.accounts.query-validated',
  ACCOUNTS_LIST,
  'customerId',
  ['not-a-number', '1.5'],
);

export const accountsConsistent = defineCheck({
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
      'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
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
});
