// Traffic the suite did not send: what a client and a server exchanged, read from a HAR file (`conformance judge`) or
// seen by the intercepting proxy (`conformance proxy`), as the judges of issue 30 read it. Unlike a run's recorded
// Exchange (src/http/exchange.ts: redacted, bodies cut to an excerpt, made to be reported), this is the traffic whole:
// headers as they went, bodies as bytes, so that a signature can be verified and a digest recomputed. It never goes
// into a report as it is: the reports redact what they show of it.

/** Whether a message's body is known: sent and captured, known to be empty, or not captured (a HAR saved without). */
export type BodyState = 'captured' | 'empty' | 'not-captured';

export interface TrafficMessage {
  /** The header fields in the order they went, names as sent. */
  headers: Array<[string, string]>;
  /** The body's bytes when `bodyState` is `captured`; empty otherwise. */
  body: Uint8Array;
  bodyState: BodyState;
}

export interface TrafficRequest extends TrafficMessage {
  method: string;
  /** The absolute URL the client asked for (scheme, host, path and query), as it went. */
  url: string;
  /** `HTTP/1.1`, `HTTP/2`…, when known. */
  httpVersion?: string;
}

export interface TrafficResponse extends TrafficMessage {
  status: number;
  httpVersion?: string;
}

export interface TrafficExchange {
  /** Position in the traffic, from 0: the HAR's entry index, or the proxy's order of requests. */
  index: number;
  /** When the request started (ISO 8601), when known. */
  startedAt?: string;
  /** How long the exchange took, when known. */
  durationMs?: number;
  request: TrafficRequest;
  /** Absent when no answer came (the connection failed, or the HAR records none). */
  response?: TrafficResponse;
  /**
   * Why no answer came, in one line, when the source knows (the proxy: the server refused the connection, or its TLS
   * certificate was not trusted; the client was answered 502 with this line). Added for the proxy (issue 30).
   */
  error?: string;
  /**
   * Fields whose values the source had masked (a conformance report's HAR writes `[redacted]` for Authorization and
   * Signature): lower-case names, per side. A judge that needs such a value says it cannot judge, never that it fails.
   */
  redacted?: { request?: string[]; response?: string[] };
  /**
   * A delivery the run's own receiver answered (a conformance run's --har, ./delivery.ts): it answers every delivery
   * 200 before it verifies, so its answer says nothing of a client's receiver and no check judges it as one.
   */
  answeredByRun?: true;
}
