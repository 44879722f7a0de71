// The PUT a body check sends, judged: rejected, and the mutable customer unchanged afterwards (put back if not).
import type { CheckContext } from '../../../src/engine/index.js';
import {
  customerDifferences,
  describeResponse,
  expectRejection,
  readCustomer,
  withRestoredCustomer,
  type CustomerSnapshot,
  type HttpResponse,
} from '../../kit/index.js';

/**
 * Sends the PUT: rejected, or failed with what it did to the customer. What it changed is put back whatever happened
 * (withRestoredCustomer), even when the check runs out of time; a pass has read the customer unchanged already.
 */
export async function expectPutRejectedAndHarmless(
  ctx: CheckContext,
  before: CustomerSnapshot,
  send: () => Promise<HttpResponse>,
  expected: string,
): Promise<void> {
  await withRestoredCustomer(
    ctx,
    before,
    async () => {
      const res = await send();
      const { snapshot: after, res: read } = await readCustomer(ctx, before.customerId);
      const changed = after ? customerDifferences(before, after) : [];
      if (changed.length > 0) {
        ctx.fail(`${res.status}, and the tampered body was applied: ${changed.join('; ')}`, {
          expected: `${expected}, and the customer unchanged afterwards`,
          observed: `${describeResponse(res)}; then GET /customers/${before.customerId} shows ${changed.join('; ')}`,
          exchange: res.exchange,
        });
      }
      if (!after)
        ctx.observe(
          `could not read customer ${before.customerId} again afterwards (${describeResponse(read)}): whether anything was applied is unknown`,
        );
      expectRejection(ctx, res, expected);
      ctx.judged('the altered PUT and the customer after it');
    },
    { onlyAfterFailure: true },
  );
}
