// What `conformance client` records of one scenario: every request the client sent to the sandbox and what it was
// answered, the deliveries the sandbox sent to the client's webhook receiver, and how the command ended. The client
// checks (suites/client/) judge these and nothing else; the harness (src/client/scenario.ts) fills them in.
import type { Exchange } from '../http/exchange.js';

/** The tasks a client performs, one sandbox each; `conformance client --list` describes them. */
export const SCENARIOS = ['token', 'read', 'update', 'renew', 'throttle', 'ussd', 'webhooks'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

/**
 * One request of the client, as the sandbox received it, and its answer; or one a judge of observed traffic read
 * (`conformance judge`, `conformance proxy`: suites/kit/client-traffic.ts), where the notes below say what differs.
 */
export interface ClientRequest {
  /** Order of arrival within the whole client run (every scenario), from 1; observed: the traffic's order, from 1. */
  seq: number;
  /** Absent for observed traffic: no scenario asked the client for it. */
  scenario?: ScenarioName;
  /**
   * Milliseconds since the epoch when the request had arrived (its body read); observed: when it was sent, NaN when the
   * traffic does not say (a check that needs the time does not judge it then).
   */
  receivedAt: number;
  method: string;
  /** The target URI (https://127.0.0.1:PORT/v1/...), as the sandbox reconstructs it. */
  url: string;
  /** The path relative to the base URL, with the query: `/customers/1042`, `/accounts?customerId=1042`. */
  path: string;
  headers: Array<[string, string]>;
  body: Buffer;
  status: number;
  replyHeaders: Record<string, string>;
  /** The reply's JSON body parsed, undefined when empty or not JSON. */
  reply: unknown;
  /** The rule of the sandbox a rejection broke (Conformance-Rejection), absent on success. */
  rejection?: { code: string; reason: string };
  /** The same request recorded for the reports (redacted): cite it in a finding, push it to ctx.exchanges. */
  exchange: Exchange;
  /**
   * Observed traffic only: what its source did not keep of the request (a HAR saved without bodies; a report's HAR,
   * Authorization and Signature masked: lower-case names). A check does not judge what is withheld: it says it could
   * not, never that the client failed.
   */
  withheld?: { body: boolean; headers: string[] };
}

/**
 * A client's requests as the client checks judge them, with what is known of the client: the record of a scenario
 * (ScenarioRecord), or traffic observed between the client and a real server, where the client's id and key are known
 * only when given (suites/kit/client-traffic.ts).
 */
export interface ClientTraffic {
  scenario?: ScenarioName;
  clientId?: string;
  keyId?: string;
  /** The client's public key (SPKI PEM), to verify its signatures. */
  publicKeyPem?: string;
  requests: ClientRequest[];
}

/** What the sandbox did to the client on purpose (renew, throttle): the checks judge the client against it. */
export type SandboxAct =
  /** renew: every token of the client was ended right after the request `afterSeq` was answered. */
  | { kind: 'token-ended'; afterSeq: number; tokenIds: string[]; at: number }
  /** throttle: request `seq` was answered 429 with `Retry-After: seconds`. */
  | { kind: 'throttled'; seq: number; retryAfterSeconds: number; at: number; persistent: boolean };

/** The forged kinds of delivery the webhooks scenario sends (src/client/forgeries.ts). */
export const FORGERIES = [
  'body-altered',
  'digest-wrong',
  'signature-wrong',
  'other-key',
  'headers-missing',
  'expired',
  'created-in-future',
  'replayed',
] as const;
type ForgeryKind = (typeof FORGERIES)[number];

/** One delivery the sandbox sent to the client's receiver in the webhooks scenario. */
export interface SentDelivery {
  /** 'valid', or the way it was forged. */
  kind: 'valid' | ForgeryKind;
  /** The payload's eventId: what the receiver writes to CONFORMANCE_ACCEPTED_FILE when it accepts the delivery. */
  eventId: string;
  sentAt: number;
  /** The receiver's HTTP status, absent when no answer came (error says why). */
  status?: number;
  error?: string;
  exchange: Exchange;
}

/** How the command ended. */
export interface CommandEnd {
  /** Exit code, null when ended by a signal. */
  code: number | null;
  signal: string | null;
  /** The harness ended it: the scenario's time limit passed, or (webhooks) every delivery had been answered. */
  endedBy: 'exit' | 'time-limit' | 'scenario-done';
  /** The last lines of its stderr and stdout, for the report (at most a few KiB each). */
  stderrTail: string;
  stdoutTail: string;
  durationMs: number;
}

/** Everything one scenario recorded. */
export interface ScenarioRecord {
  scenario: ScenarioName;
  /** The credentials the sandbox registered for this scenario (the client was handed them in its environment). */
  clientId: string;
  keyId: string;
  /** The client's public key (SPKI PEM), to verify its signatures. */
  publicKeyPem: string;
  baseUrl: string;
  /** The ids handed over in CONFORMANCE_FIXTURES. */
  fixtures: Record<string, unknown>;
  requests: ClientRequest[];
  acts: SandboxAct[];
  /** webhooks only: the deliveries sent, and the lines of CONFORMANCE_ACCEPTED_FILE when the command ended. */
  deliveries: SentDelivery[];
  accepted: string[];
  /** webhooks only: the webhook's delivery key (SPKI PEM) the sandbox published on GET /webhooks/key. */
  webhookPublicKeyPem?: string;
  end: CommandEnd;
}

/** The whole client run: the scenarios that ran, in order. A scenario not selected (--scenario) is absent. */
export interface ClientRunRecord {
  command: string[];
  scenarios: Partial<Record<ScenarioName, ScenarioRecord>>;
}
