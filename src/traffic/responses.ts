// Traffic as the checks read answers: an answered TrafficExchange as the HttpResponse a check's own request would have
// given, its exchange recorded (redacted, cut to the excerpt) as the reports keep one, so that a check judges observed
// answers with the very code that judges the answers to its own requests, and cites them the same way.
import type { HttpResponse } from '../http/client.js';
import { recordMessage, type Exchange, type RecordedMessage } from '../http/exchange.js';
import { headerValue } from '../http/message.js';
import type { Redactor } from '../http/redact.js';
import type { TrafficExchange, TrafficMessage } from './exchange.js';
import type { WholeBodies } from '../http/whole-bodies.js';

/** What the reports call the traffic's exchanges in place of a check id: nobody of this run sent them. */
export const OBSERVED = 'observed';

/** The number the reports give an exchange of the traffic (`#3`): from 1, in the traffic's order. */
export function observedNumber(t: TrafficExchange): number {
  return t.index + 1;
}

/** How an exchange of the traffic is recorded, beyond the default of a cited one. */
export interface RecordingOptions {
  /** Where bodies longer than the excerpt are kept whole for the HAR (src/http/whole-bodies.ts). */
  whole?: WholeBodies;
  /** What the reports show in place of a check id: OBSERVED by default. */
  checkId?: string;
  /** The request's excerpt size (a webhook delivery keeps its body whole in the record: ./delivery.ts). */
  requestExcerptBytes?: number;
}

/**
 * The exchange as a report keeps it: numbered (observedNumber), redacted, bodies cut to the excerpt (and kept whole
 * beside it for the HAR with `whole`). A check cites it for a finding about the answer (observedResponse) or about the
 * request (a client's, issue 30); the run records every exchange of the traffic so for its reports.
 */
export function recordedExchange(t: TrafficExchange, redactor: Redactor, options: RecordingOptions = {}): Exchange {
  const { request, response } = t;
  const { whole } = options;
  return {
    seq: observedNumber(t),
    checkId: options.checkId ?? OBSERVED,
    ...startedAtOf(t),
    durationMs: t.durationMs ?? 0,
    request: recordedMessage(
      redactor,
      request,
      { method: request.method, url: request.url },
      whole,
      options.requestExcerptBytes,
    ),
    ...(response
      ? { response: recordedMessage(redactor, response, { status: response.status }, whole) }
      : { error: t.error ?? 'no answer was recorded' }),
  };
}

/** One message of the traffic as recorded; one whose body was not captured says so rather than look empty. */
function recordedMessage<T extends object>(
  redactor: Redactor,
  m: TrafficMessage,
  extra: T,
  whole: WholeBodies | undefined,
  excerptBytes?: number,
): T & RecordedMessage {
  if (m.bodyState === 'not-captured') {
    const declared = Number(headerValue(m.headers, 'content-length'));
    return {
      ...recordMessage(redactor, m.headers, undefined, extra),
      bodySize: Number.isSafeInteger(declared) && declared >= 0 ? declared : 0,
      bodyNotCaptured: true,
    };
  }
  const recorded = recordMessage(redactor, m.headers, m.body, extra, undefined, excerptBytes);
  whole?.keep(recorded, m.body);
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
