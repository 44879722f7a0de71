// The requests the signing suite's checks depart from (used by more than one of its areas): the customer read every GET
// check sends, the PUT of the mutable customer's current values, the instruments query.
import type { CheckContext } from '../../../src/engine/index.js';
import { customerBody, type CustomerSnapshot, type RequestSpec } from '../../kit/index.js';

/** The read every GET check uses: it answers 2xx to a correct request. */
export function customerRead(ctx: CheckContext): RequestSpec {
  return { method: 'GET', path: `/customers/${ctx.fixture('customerId')}` };
}

/** PUT /customers with the mutable customer's current values: a correct request changes nothing. */
export function putCurrent(snapshot: CustomerSnapshot, change: Partial<RequestSpec> = {}): RequestSpec {
  return {
    method: 'PUT',
    path: '/customers',
    body: customerBody(snapshot),
    contentType: 'application/json',
    ...change,
  };
}

export const INSTRUMENTS: RequestSpec = {
  method: 'GET',
  path: '/instruments',
  query: { investmentType: 'INTERNATIONAL_STOCKS', limit: 1 },
};
