// Traffic as the checks read answers: an answered TrafficExchange as the HttpResponse a check's own request would have
// given, its exchange recorded (redacted, cut to the excerpt) as the reports keep one, so that a check judges observed
// answers with the very code that judges the answers to its own requests, and cites them the same way.
import type { HttpResponse } from '../http/client.js';
import { recordMessage, type Exchange } from '../http/exchange.js';
import { headerValue } from '../http/message.js';
import type { Redactor } from '../http/redact.js';
import type { TrafficExchange } from './exchange.js';
import type { WholeBodies } from '../http/whole-bodies.js';

/** What the reports call the traffic's exchanges in place of a check id: nobody of this run sent them. */
export const OBSERVED = 'observed';

/** The number the reports give an exchange of the traffic (`#3`): from 1, in the traffic's order. */
export function observedNumber(t: TrafficExchange): number {
  return t.index + 1;
}

/**
 * The exchange as a report keeps it: numbered (observedNumber), redacted, bodies cut to the excerpt (and kept whole
 * beside it for the HAR with `whole`). A check cites it for a finding about the answer (observedResponse) or about the
 * request (a client's, issue 30); the run records every exchange of the traffic so for its reports.
 */
export function recordedExchange(t: TrafficExchange, redactor: Redactor, whole?: WholeBodies): Exchange {
  const { request, response } = t;
  const recorded: Exchange = {
    seq: observedNumber(t),
    checkId: OBSERVED,
    ...startedAtOf(t),
    durationMs: t.durationMs ?? 0,
    request: recordMessage(redactor, request.headers, request.body, { method: request.method, url: request.url }),
    ...(response
      ? { response: recordMessage(redactor, response.headers, response.body, { status: response.status }) }
      : { error: 'no answer was recorded' }),
  };
  whole?.keep(recorded.request, request.body);
  if (recorded.response !== undefined) whole?.keep(recorded.response, response!.body);
  return recorded;
}

/**
 * When the exchange started, as the reports write a time (RFC 3339, UTC): the source's own time read as a date (HAR 1.2
 * requires startedDateTime, in ISO 8601 with an offset); none when the source gives none or one that is no date.
 */
function startedAtOf(t: TrafficExchange): { startedAt?: string } {
  const at = t.startedAt !== undefined ? new Date(t.startedAt) : undefined;
  return at !== undefined && !Number.isNaN(at.getTime()) ? { startedAt: at.toISOString() } : {};
}

/**
 * The answer of an exchange, as a check reads one; undefined when none came or its body was not captured (a check
 * cannot judge a body it does not have: a HAR saved without content).
 */
export function observedResponse(t: TrafficExchange, redactor: Redactor): HttpResponse | undefined {
  const response = t.response;
  if (response === undefined || response.bodyState === 'not-captured') return undefined;
  const headers = response.headers;
  return {
    status: response.status,
    headers,
    body: response.body,
    text: new TextDecoder().decode(response.body),
    exchange: recordedExchange(t, redactor),
    header: (name) => headerValue(headers, name),
  };
}
