// Failing a check on one answer, with what was expected and the exchange.
import { describeResponse, type HttpResponse } from '../../kit/index.js';
import { type CheckContext } from '../../../src/engine/index.js';

export function fail(ctx: CheckContext, res: HttpResponse, message: string, expected: string): never {
  return ctx.fail(message, { expected, observed: describeResponse(res), exchange: res.exchange });
}
