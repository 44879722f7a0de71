// Suite `resources`, area `lists`: a customer's lists: isolated from another customer's, and of a customer that does
// not exist.
import { exactValue, expectRejection, noteErrorBody, pageOfItem, readEnvelope } from '../kit/index.js';
import { defineCheck } from '../../src/engine/index.js';
import { fail } from './helpers/fail.js';
import { walkLeniently } from './helpers/lenient-reads.js';
import { ownedByOther } from './helpers/ownership.js';

export const listsIsolated = defineCheck({
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
      'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
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
});

export const listsUnknownCustomer = defineCheck({
  id: 'resources.lists.unknown-customer',
  title:
    'the accounts and transactions of a customer that does not exist are a rejection (404 listed), or an empty list; never items, never a 5xx',
  level: 'MUST',
  requirements: ['REQ-ACCTEP-04', 'REQ-TXNEP-03', 'REQ-ERR-03'],
  note: 'The exact conditions of a 404 are not shown (REQ-ERR-06): a rejection (404 is the status listed; any 4xx) and an empty list are both readings a correct server may take, and which one it took is recorded.',
  explain: {
    sends: 'GET /accounts and GET /transactions with customerId = fixtures.unknownId, a customer that does not exist',
    passes: 'each is rejected (404 is the status listed; any 4xx passes), or answered 200 with an empty list',
    fails: 'a 200 with items or without a list, another 2xx, a redirect, or a 5xx: the check fails',
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
});
