import type { Redactor } from './redact.js';

/** One request and its response (or transport error) as recorded for the reports, with secrets already redacted. */
export interface RecordedMessage {
  headers: Array<[string, string]>;
  /** The body as text, cut to the excerpt size; absent when there was none. */
  bodyExcerpt?: string;
  /** Full size of the body in bytes (the excerpt may be shorter). */
  bodySize: number;
  bodyTruncated?: boolean;
  /**
   * Observed traffic whose body went but was not captured (a HAR saved without content, a proxy session past its
   * budget): no excerpt, and bodySize is what Content-Length declared, else 0. A reader must not take it for empty.
   */
  bodyNotCaptured?: boolean;
}

export interface RecordedRequest extends RecordedMessage {
  method: string;
  url: string;
}

export interface RecordedResponse extends RecordedMessage {
  status: number;
}

export interface Exchange {
  /** Sequence number within the run, in the order requests were sent. */
  seq: number;
  /** The check that sent it, or "session" for shared set-up (the run's token). */
  checkId: string;
  /**
   * When the request started (ISO 8601). Absent only for observed traffic whose source gave no time (a HAR entry
   * without a startedDateTime that reads as a date): a report never makes one up.
   */
  startedAt?: string;
  durationMs: number;
  request: RecordedRequest;
  response?: RecordedResponse;
  /** A transport failure (timeout, refused connection, body over the cap), in one line. */
  error?: string;
}

/**
 * The diagnostics channel (node:diagnostics_channel) on which the signed client publishes every attempt on the wire,
 * as recorded (redacted), once it ends: what `CONFORMANCE_DEBUG=1` prints (src/cli/debug.ts), and open to any other
 * subscriber. Nothing is published, and nothing costs, while no one subscribes.
 */
export const EXCHANGE_CHANNEL = 'conformance:exchange';

/** How much of a body an Exchange keeps (its excerpt): enough to read a finding, small enough for every report. */
export const EXCERPT_BYTES = 4096;

/**
 * A message as the reports keep it: headers and the body's excerpt redacted, the body's size. The one way a message
 * becomes recorded, for the suite's own requests and for traffic it judges (src/traffic/). `text` is the body already
 * decoded, when the caller has it: a body that fits the excerpt is then not decoded again, and with nothing to mask the
 * excerpt is the same string as the response's text, not a second copy kept per exchange. `excerptBytes`: the excerpt's
 * size (a webhook delivery is kept whole, src/traffic/delivery.ts).
 */
export function recordMessage<T extends object>(
  redactor: Redactor,
  headers: Array<[string, string]>,
  body: Uint8Array | undefined,
  extra?: T,
  text?: string,
  excerptBytes = EXCERPT_BYTES,
): T & RecordedMessage {
  const size = body?.byteLength ?? 0;
  const whole = text !== undefined && size <= excerptBytes ? text : undefined;
  const excerpt =
    body && size > 0 ? redactor.text(whole ?? new TextDecoder().decode(body.subarray(0, excerptBytes))) : undefined;
  return {
    ...(extra as T),
    headers: redactor.headers(headers),
    bodySize: size,
    ...(excerpt !== undefined ? { bodyExcerpt: excerpt } : {}),
    ...(size > excerptBytes ? { bodyTruncated: true } : {}),
  };
}
