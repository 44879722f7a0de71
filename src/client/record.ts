// A request and its answer as the reports keep them (Exchange: redacted headers, a body excerpt), for traffic the
// client mode saw rather than sent: the client's requests to the sandbox, the sandbox's deliveries to its receiver.
import type { Exchange, RecordedMessage } from '../http/exchange.js';
import type { Redactor } from '../http/redact.js';

/** The same excerpt size as the signed client's own recordings (src/http/client.ts). */
const EXCERPT_BYTES = 4096;

interface Message {
  headers: Array<[string, string]>;
  body?: Uint8Array;
}

export interface SeenExchange {
  seq: number;
  /** The scenario that produced it, shown where a check id would be. */
  label: string;
  startedAt: number;
  durationMs: number;
  request: Message & { method: string; url: string };
  response?: Message & { status: number };
  error?: string;
}

export function recordedExchange(seen: SeenExchange, redactor: Redactor): Exchange {
  const message = (m: Message): RecordedMessage => {
    const size = m.body?.byteLength ?? 0;
    const excerpt =
      m.body && size > 0 ? redactor.text(new TextDecoder().decode(m.body.subarray(0, EXCERPT_BYTES))) : undefined;
    return {
      headers: redactor.headers(m.headers),
      bodySize: size,
      ...(excerpt !== undefined ? { bodyExcerpt: excerpt } : {}),
      ...(size > EXCERPT_BYTES ? { bodyTruncated: true } : {}),
    };
  };
  return {
    seq: seen.seq,
    checkId: seen.label,
    startedAt: new Date(seen.startedAt).toISOString(),
    durationMs: seen.durationMs,
    request: { method: seen.request.method, url: seen.request.url, ...message(seen.request) },
    ...(seen.response ? { response: { status: seen.response.status, ...message(seen.response) } } : {}),
    ...(seen.error !== undefined ? { error: seen.error } : {}),
  };
}
