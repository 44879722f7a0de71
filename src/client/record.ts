// A request and its answer as the reports keep them (Exchange: redacted headers, a body excerpt), for traffic the
// client mode saw rather than sent: the client's requests to the sandbox, the sandbox's deliveries to its receiver.
// Recorded as any observed traffic is (src/traffic/responses.ts), numbered and labelled by the client run.
import type { Exchange } from '../http/exchange.js';
import type { Redactor } from '../http/redact.js';
import type { WholeBodies } from '../http/whole-bodies.js';
import type { TrafficMessage } from '../traffic/exchange.js';
import { recordedExchange as recordedTraffic } from '../traffic/responses.js';

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

/** The client mode saw every byte it records: a body is captured, or there was none. */
function captured<T extends Message>(m: T): T & TrafficMessage {
  const body = m.body ?? new Uint8Array(0);
  return { ...m, body, bodyState: body.byteLength > 0 ? 'captured' : 'empty' };
}

/** `whole`: where the bodies longer than the excerpt are kept whole for the run's HAR (src/http/whole-bodies.ts). */
export function recordedExchange(seen: SeenExchange, redactor: Redactor, whole?: WholeBodies): Exchange {
  return recordedTraffic(
    {
      index: seen.seq - 1,
      startedAt: new Date(seen.startedAt).toISOString(),
      durationMs: seen.durationMs,
      request: captured(seen.request),
      ...(seen.response ? { response: captured(seen.response) } : {}),
      ...(seen.error !== undefined ? { error: seen.error } : {}),
    },
    redactor,
    { checkId: seen.label, ...(whole ? { whole } : {}) },
  );
}
