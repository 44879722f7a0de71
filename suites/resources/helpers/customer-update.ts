// The mutable customer as the update checks read it, and the restore around their work.
import {
  customerSnapshot,
  expectSchema,
  getResource,
  withRestoredCustomer,
  type HttpResponse,
} from '../../kit/index.js';
import { type CheckContext } from '../../../src/engine/index.js';

/**
 * The customer as the update checks read it: they judge only the fields they change, so what the Customer table
 * says about the rest (judged by resources.customers.get) is recorded, never failed.
 */
export async function readCustomer(
  ctx: CheckContext,
  id: number,
): Promise<{ res: HttpResponse; customer: Record<string, unknown> }> {
  const { res, data } = await getResource(ctx, `/customers/${id}`);
  expectSchema(ctx, res, data, 'customer', {
    path: 'data',
    table: 'Customer',
    leftTo: { fields: 'all', owner: 'resources.customers.get' },
  });
  return { res, customer: data };
}

/**
 * Runs `work` on the mutable customer, read first as the update checks read it, and restores it afterwards whatever
 * happened (withRestoredCustomer): after the work passed, failed or threw, or once the check's time is up. A restore
 * that fails fails the check, CLEAN-UP FAILED, with the PUT /customers to send by hand.
 */
export async function withCustomerRestored(
  ctx: CheckContext,
  work: (id: number, original: Record<string, unknown>) => Promise<void>,
): Promise<void> {
  const id = ctx.fixture('mutableCustomerId');
  const { res, customer: original } = await readCustomer(ctx, id);
  // readCustomer has seen a 200 with a customer object: the snapshot is there.
  await withRestoredCustomer(ctx, customerSnapshot(id, res)!, () => work(id, original));
}
