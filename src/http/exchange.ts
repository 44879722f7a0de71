/** One request and its response (or transport error) as recorded for the reports, with secrets already redacted. */
export interface RecordedMessage {
  headers: Array<[string, string]>;
  /** The body as text, cut to the excerpt size; absent when there was none. */
  bodyExcerpt?: string;
  /** Full size of the body in bytes (the excerpt may be shorter). */
  bodySize: number;
  bodyTruncated?: boolean;
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
  startedAt: string;
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
