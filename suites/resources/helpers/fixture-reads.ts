// The fixture reads several resources checks judge (the fixture records, the customer's lists, the instruments), sent
// once per run and judged by each (issue 29, see the kit's sharedGet).
import { sharedGet, type HttpResponse, type Query } from '../../kit/index.js';
import { type CheckContext } from '../../../src/engine/index.js';
import { type ResourcesRun } from './run-state.js';

/**
 * The run's answer to a plain GET of a record or list the suite only reads. The mutable customer, whose record changes
 * under the checks that update it, is read afresh each time.
 */
export function readOnce(ctx: CheckContext, path: string, query: Query = {}): Promise<HttpResponse> {
  const mutable = ctx.fixtures.mutableCustomerId;
  if (mutable !== undefined && path === `/customers/${mutable}`) return ctx.send({ method: 'GET', path, query });
  return sharedGet(ctx, (ctx.state as ResourcesRun).reads, path, query);
}
