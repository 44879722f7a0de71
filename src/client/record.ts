// A request and its answer as the reports keep them (Exchange: redacted headers, a body excerpt), for traffic the
// client mode saw rather than sent: the client's requests to the sandbox, the sandbox's deliveries to its receiver.
import { recordMessage, type Exchange } from '../http/exchange.js';
import type { Redactor } from '../http/redact.js';
import type { WholeBodies } from '../http/whole-bodies.js';

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

/** `whole`: where the bodies longer than the excerpt are kept whole for the run's HAR (src/http/whole-bodies.ts). */
export function recordedExchange(seen: SeenExchange, redactor: Redactor, whole?: WholeBodies): Exchange {
  const { request, response } = seen;
  const recorded: Exchange = {
    seq: seen.seq,
    checkId: seen.label,
    startedAt: new Date(seen.startedAt).toISOString(),
    durationMs: seen.durationMs,
    request: recordMessage(redactor, request.headers, request.body, { method: request.method, url: request.url }),
    ...(response
      ? { response: recordMessage(redactor, response.headers, response.body, { status: response.status }) }
      : {}),
    ...(seen.error !== undefined ? { error: seen.error } : {}),
  };
  whole?.keep(recorded.request, request.body);
  if (recorded.response !== undefined) whole?.keep(recorded.response, response!.body);
  return recorded;
}
