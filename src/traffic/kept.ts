// The traffic a proxy session keeps for its judges until it ends: every exchange, and the bodies of as many as fit in
// a budget, so that a session left running for hours has a memory bound (the budget, plus the headers of each
// exchange) instead of growing with every answer. An exchange kept without its bodies is not judged on them, as one
// from a HAR saved without content is not (BodyState 'not-captured'), and the session says how many.
import { formatBytes } from '../http/format-bytes.js';
import type { TrafficExchange, TrafficMessage } from './exchange.js';

/** The bodies a session keeps at most (requests and answers together). */
export const SESSION_BODY_BUDGET_BYTES = 256 * 1024 * 1024;

export class KeptTraffic {
  readonly exchanges: TrafficExchange[] = [];
  private bodyBytes = 0;
  private withoutBodies = 0;

  constructor(private readonly budgetBytes = SESSION_BODY_BUDGET_BYTES) {}

  add(exchange: TrafficExchange): void {
    const size = exchange.request.body.byteLength + (exchange.response?.body.byteLength ?? 0);
    if (this.bodyBytes + size <= this.budgetBytes) {
      this.bodyBytes += size;
      this.exchanges.push(exchange);
      return;
    }
    this.withoutBodies += 1;
    const { response, ...rest } = exchange;
    this.exchanges.push({
      ...rest,
      request: withoutBody(exchange.request),
      ...(response !== undefined ? { response: withoutBody(response) } : {}),
    });
  }

  /** What the session could not keep, in one line for its notes; undefined when it kept everything. */
  note(): string | undefined {
    if (this.withoutBodies === 0) return undefined;
    return `${this.withoutBodies} exchange(s) kept without their bodies: the session's ${formatBytes(this.budgetBytes)} of bodies was full, so their bodies are not judged (a shorter session, or --duration, keeps them all)`;
  }
}

function withoutBody<T extends TrafficMessage>(message: T): T {
  return message.bodyState === 'captured' ? { ...message, body: new Uint8Array(), bodyState: 'not-captured' } : message;
}
