// Suite `resources`, area `fixtures`: the fixture records belong to the fixture customer.
import { exactValue, type FixtureName } from '../kit/index.js';
import { defineCheck } from '../../src/engine/index.js';
import { fail } from './helpers/fail.js';
import { readLeniently } from './helpers/lenient-reads.js';
import { ownedByOther } from './helpers/ownership.js';

export const fixturesOwned = defineCheck({
  id: 'resources.fixtures.owned',
  title: 'the fixture account, asset and transaction belong to the fixture customer',
  level: 'MUST',
  requirements: ['REQ-ACCT-03', 'REQ-ASSET-03', 'REQ-TXN-03', 'REQ-ASSETEP-01'],
  explain: {
    sends: 'GET /accounts/{id}, /assets/{id} and /transactions/{id} of fixtures.accountId, assetId and transactionId',
    passes: 'each carries customerId = fixtures.customerId (one that cannot be read skips the check)',
    fails:
      'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
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
});
