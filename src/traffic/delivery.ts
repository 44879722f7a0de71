// A webhook delivery in a HAR (issue 30). A run's --har carries each delivery its receiver got as `conformance proxy
// --receiver` records one (a TrafficExchange: the server's request at the URL it was sent to, the URL it signed, with
// the receiver's answer), so that `conformance judge` hands them to the same judges (judge-api.ts judgeTraffic
// `deliveries`). One custom field marks such an entry: written by src/report/har.ts, read by ./har.ts.
import { isUtf8 } from 'node:buffer';
import type { Exchange } from '../http/exchange.js';
import type { Redactor } from '../http/redact.js';
import type { TrafficExchange } from './exchange.js';
import { recordedExchange } from './responses.js';

/** The field (HAR 1.2: custom fields start with "_") that marks an entry as a webhook delivery: its number, from 1. */
export const DELIVERY_FIELD = '_delivery';

/** What a recorded delivery carries in place of a check id: the server sent it, to the run's receiver. */
export const DELIVERY = 'delivery';

/**
 * A delivery as the run's reports keep it, to be judged again from its HAR: its body whole (a digest is recomputed over
 * it; a body that is not UTF-8 text cannot be written as HAR text, so none is kept) and its Signature as it came. The
 * Signature is the server's over a delivery to the run's own receiver, which stops listening at the run's end: unlike
 * the signature of a request of the client's (masked), it lets no one act as the client, and without it nothing shows
 * which key signed. A secret of the run inside it is masked all the same; the rest is redacted as every recorded
 * message is.
 */
export function recordedDelivery(t: TrafficExchange, redactor: Redactor): Exchange {
  const recorded = recordedExchange(t, redactor, { checkId: DELIVERY, requestExcerptBytes: Infinity });
  const { request } = recorded;
  // The Signature as it came, but for a secret of the run's (a token, the client secret) a hostile server put in it.
  request.headers = request.headers.map(([name, value], i) =>
    name.toLowerCase() === 'signature' ? [name, redactor.registeredMasked(t.request.headers[i]![1])] : [name, value],
  );
  if (!isUtf8(t.request.body)) delete request.bodyExcerpt;
  return recorded;
}
