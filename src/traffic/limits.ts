// What a judge cannot do with the traffic it was given, per side, in words a person acts on. A judge that meets a
// missing body or a redacted field says "cannot judge" for that exchange; this says it once for the whole file, with
// the count and the way to get a better capture, so the person fixes the capture rather than reading 40 skips.
import type { TrafficExchange, TrafficMessage } from './exchange.js';

export interface TrafficLimits {
  /** What cannot be judged of the requests (the client's side). */
  request: string[];
  /** What cannot be judged of the responses (the server's side). */
  response: string[];
}

/** A pure summary over the exchanges; empty lists when a judge can read everything. */
export function trafficLimits(exchanges: readonly TrafficExchange[]): TrafficLimits {
  if (exchanges.length === 0) {
    const none =
      'the traffic holds no HTTP exchange: nothing can be judged (was the capture started before the calls?)';
    return { request: [none], response: [none] };
  }
  const answered = exchanges.flatMap((e) => (e.response !== undefined ? [e.response] : []));
  return {
    request: [
      ...bodiesLine(
        exchanges.map((e) => e.request),
        'requests',
        REQUEST_BODY_HINT,
      ),
      ...redactedLine(exchanges, 'request'),
    ],
    response: [
      ...unansweredLine(exchanges.length - answered.length, exchanges.length),
      ...bodiesLine(answered, 'responses', RESPONSE_BODY_HINT),
      ...redactedLine(exchanges, 'response'),
    ],
  };
}

const RESPONSE_BODY_HINT =
  "the HAR was saved without content, or a tool cut them: in the browser's devtools use 'Save all as HAR with content'; in mitmproxy or a gateway, export with bodies";
const REQUEST_BODY_HINT =
  'the HAR holds no request body for them, or a cut or masked one: save the HAR with content, from a capture that keeps request bodies';

function bodiesLine(messages: readonly TrafficMessage[], what: string, hint: string): string[] {
  const missing = messages.filter((m) => m.bodyState === 'not-captured').length;
  if (missing === 0) return [];
  return [
    `${missing} of ${messages.length} ${what} have no body (${hint}): their bodies, digests and signatures over them cannot be judged`,
  ];
}

function unansweredLine(unanswered: number, total: number): string[] {
  if (unanswered === 0) return [];
  return [
    `${unanswered} of ${total} requests got no response in the HAR (status 0: the connection failed or was cancelled): nothing of the server can be judged from them`,
  ];
}

// What a judge needs each masked field for; any other field is named with the generic consequence.
const NEEDED_FOR: Record<string, string> = {
  authorization: 'tokens cannot be checked',
  signature: 'signatures cannot be verified',
  'signature-input': 'signatures cannot be verified',
};

function redactedLine(exchanges: readonly TrafficExchange[], side: 'request' | 'response'): string[] {
  // Sorted: the line reads the same whichever exchange happened to come first.
  const names = [...new Set(exchanges.flatMap((e) => e.redacted?.[side] ?? []))].sort();
  if (names.length === 0) return [];
  const ours = names.every((n) => n === 'authorization' || n === 'signature');
  const consequences = [...new Set(names.map((n) => NEEDED_FOR[n] ?? 'judges reading them cannot'))];
  const source = ours ? " (a conformance report's HAR: judge a capture from the browser or a proxy instead)" : '';
  return [
    `the ${listed(names.map(display))} ${names.length === 1 ? 'value is' : 'values are'} redacted${source}: ${side} ${consequences.join(', ')}`,
  ];
}

/** A field name as people write it: `signature-input` → `Signature-Input`. */
function display(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

function listed(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
