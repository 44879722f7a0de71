// The client's side of observed traffic (issue 30): what a real client sent a real server, read from a HAR
// (`conformance judge`) or seen by the intercepting proxy (`conformance proxy`), as the client checks read the
// requests the sandbox of `conformance client` records (ClientRequest), so that one judging function serves both.
// What the traffic does not show (the sandbox's acts, the client's task) is not made up: a check that needs it has no
// `observe`, and is reported as not exercised (suites/client/index.ts, clientJudgePack).
import type { ClientRequest, ClientTraffic } from '../../src/client/types.js';
import { parsePrivateKeyPem } from '../../src/http/keys.js';
import type { Redactor } from '../../src/http/redact.js';
import type { TrafficExchange } from '../../src/traffic/exchange.js';
import { recordedExchange } from '../../src/traffic/responses.js';
import { ObservingSession } from './observing-session.js';

/**
 * What the judge is told of the client whose requests it judges (a target of the config names it): its id, its key
 * id, and its public key, given or derived from its private key. Each is optional: a check that needs one that is not
 * given is not exercised, and says so.
 */
export interface ObservedClient {
  clientId?: string;
  keyId?: string;
  publicKeyPem?: string;
  /** The client's Ed25519 private key (PKCS#8 PEM): its public key is derived from it when publicKeyPem is not given. */
  privateKeyPem?: string;
}

/**
 * The traffic's requests as the client checks read them, with what is known of the client. `baseUrl` is the API's base
 * (the target's): each request's `path` is relative to it, as the sandbox's are to its own.
 */
export function clientTrafficOf(
  traffic: readonly TrafficExchange[],
  baseUrl: string,
  redactor: Redactor,
  client: ObservedClient = {},
): ClientTraffic {
  const publicKeyPem =
    client.publicKeyPem ??
    (client.privateKeyPem !== undefined ? parsePrivateKeyPem(client.privateKeyPem).publicKeyPem : undefined);
  return {
    ...(client.clientId !== undefined ? { clientId: client.clientId } : {}),
    ...(client.keyId !== undefined ? { keyId: client.keyId } : {}),
    ...(publicKeyPem !== undefined ? { publicKeyPem } : {}),
    requests: traffic.map((t) => clientRequestOf(t, baseUrl, redactor)),
  };
}

/** One exchange as a ClientRequest: numbered from 1 in the traffic's order, its answer parsed, what was withheld. */
function clientRequestOf(t: TrafficExchange, baseUrl: string, redactor: Redactor): ClientRequest {
  const { request, response } = t;
  const sent = t.startedAt !== undefined ? Date.parse(t.startedAt) : Number.NaN;
  const replyText = response?.bodyState === 'captured' ? new TextDecoder().decode(response.body) : '';
  return {
    seq: t.index + 1,
    receivedAt: sent,
    method: request.method,
    url: request.url,
    path: relativePath(request.url, baseUrl),
    headers: request.headers,
    body: Buffer.from(request.body),
    // No answer (the connection failed, or none was recorded): no status, which no check reads as a success.
    status: response?.status ?? 0,
    replyHeaders: Object.fromEntries((response?.headers ?? []).map(([n, v]) => [n.toLowerCase(), v])),
    reply: parseJson(replyText),
    exchange: recordedExchange(t, redactor),
    withheld: { body: request.bodyState === 'not-captured', headers: t.redacted?.request ?? [] },
  };
}

/** `/transactions?customerId=1` of `https://api.example.com/v1/transactions?customerId=1` under base `…/v1`. */
function relativePath(url: string, baseUrl: string): string {
  if (!URL.canParse(url)) return url;
  const at = new URL(url);
  const base = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const path = base !== '' && at.pathname.startsWith(`${base}/`) ? at.pathname.slice(base.length) : at.pathname;
  return `${path}${at.search}`;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The session of the client judge pack: the client's side of the traffic, given whole before the run. */
export class ClientTrafficSession extends ObservingSession {
  constructor(
    readonly observed: ClientTraffic,
    /** The server's webhook deliveries to the client's receiver (`conformance proxy --receiver`), and their answers. */
    readonly deliveries: readonly TrafficExchange[] = [],
    /** How a delivery cited by a finding is recorded (see observedDeliveries). */
    readonly redactor?: Redactor,
  ) {
    super();
  }

  open(): Promise<void> {
    return Promise.resolve();
  }
}
