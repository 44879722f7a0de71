// Failing a check on one answer, with what was expected and the exchange.
import { cite, describeResponse, type HttpResponse } from '../../kit/index.js';
import { type CheckContext } from '../../../src/engine/index.js';

export function fail(ctx: CheckContext, res: HttpResponse, message: string, expected: string): never {
  // The exchange is the check's own when it sent it; an observed one (a judge of traffic) joins them here.
  return ctx.fail(message, { expected, observed: describeResponse(res), exchange: cite(ctx, res) });
}
