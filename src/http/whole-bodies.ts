// Bodies longer than the excerpt, kept whole for the one report that is the traffic itself: the HAR (src/report/har.ts),
// which `conformance judge` reads back. Every other report keeps the excerpt (EXCERPT_BYTES), so they are kept beside
// the record, not in it: the JSON report, JUnit and HTML do not grow, and a record copied or read back from a JSON
// report simply has none (its HAR entry then says the body was cut, as before).
import { isUtf8 } from 'node:buffer';
import { EXCERPT_BYTES, type RecordedMessage } from './exchange.js';
import type { Redactor } from './redact.js';

/**
 * What one client keeps whole in all, so that a run against a server with long lists holds a bounded amount: past it,
 * a body is kept as its excerpt. A local run's bodies over the excerpt come to about 0.6 MB.
 */
const WHOLE_BODY_BUDGET_BYTES = 16 * 1024 * 1024;

const whole = new WeakMap<RecordedMessage, string>();

/** The whole body of a recorded message, secrets masked, when it was kept; else undefined (the excerpt is all). */
export function wholeBodyOf(message: RecordedMessage): string | undefined {
  return whole.get(message);
}

export class WholeBodies {
  private left: number;

  constructor(
    private readonly redactor: Redactor,
    budgetBytes = WHOLE_BODY_BUDGET_BYTES,
  ) {
    this.left = budgetBytes;
  }

  /**
   * Keeps `body` beside `message` (its record) when the excerpt cut it, it is UTF-8 (the HAR's text would not be its
   * bytes otherwise) and it fits what is left of the budget. `text` is the body already decoded, when the caller has it.
   */
  keep(message: RecordedMessage, body: Uint8Array | undefined, text?: string): void {
    if (body === undefined || body.byteLength <= EXCERPT_BYTES || body.byteLength > this.left) return;
    if (!isUtf8(body)) return;
    this.left -= body.byteLength;
    whole.set(message, this.redactor.text(text ?? new TextDecoder().decode(body)));
  }
}
