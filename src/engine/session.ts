// The run's credentials and what a suite's setup and teardown see of the run: the two faces a pack's session and a
// suite's lifecycle meet the engine through.
import type { HttpResponse, RequestSpec } from '../http/client.js';
import type { Fixtures, ResolvedTarget } from '../config/types.js';
import type { RunFlags } from './types.js';
import type { RestoreJournal } from '../journal/journal.js';
import type { TrafficExchange } from '../traffic/exchange.js';

/**
 * The run's credentials on the target: opened before the first check, lent to every request, closed after the last.
 * A pack decides what they are (a token obtained and revoked, for the Investment API) and how a check that handles
 * credentials of its own runs beside the others.
 */
export interface RunSession {
  /** Before the first check; a throw (a TargetError) ends the run before any check, with one line. */
  open(): Promise<void>;
  /** The current token for a request of the run. */
  token(): Promise<string>;
  /** Sends with the run's token, renewing it when an answer shows the server ended it (`note` records that on the check). */
  withToken(send: (token: string) => Promise<HttpResponse>, note: (text: string) => void): Promise<HttpResponse>;
  /** Whether `token` still works. */
  accepts(token: string): Promise<boolean>;
  /** Sends a request with a token of the check's own that changes `state` (the pack may order it with its renewals). */
  sendChanging(state: string, send: () => Promise<HttpResponse>): Promise<HttpResponse>;
  /** Runs one check's body: at once, or in a turn of the pack's, and at most once more when the pack says why. */
  runCheck(
    check: { uses?: readonly string[]; timeoutMs?: number },
    body: () => Promise<void>,
    retry: { observe(text: string): void; signal: AbortSignal },
  ): Promise<void>;
  /** What the run should say about the credentials as a whole (renewals…): the run's notes. */
  notes(): string[];
  /** After the last check: ends what the session holds; a problem is returned for the clean-up list, never thrown. */
  close(): Promise<string | undefined>;
}

/** What a suite's setup and teardown get: the run as a whole, not a check. */
export interface SuiteRun {
  target: { name: string; baseUrl: string; clientId: string; keyId: string };
  /** The target as configured (a suite with a receiver reads its webhook settings). */
  config: ResolvedTarget;
  fixtures: Fixtures;
  flags: RunFlags;
  /** The suite's settings, defaults filled in. */
  options: Readonly<Record<string, number>>;
  session: RunSession;
  /** Sends with the run's token; the exchange is recorded with the run's own (the report's session exchanges). */
  send(spec: RequestSpec): Promise<HttpResponse>;
  /** Records a note of the run (RunInfo.notes): what the suite wants said once, that no check owns. */
  note(text: string): void;
  /** The run's restore journal: what the suite changes on the target is written there first (src/journal/journal.ts). */
  journal: RestoreJournal;
  /**
   * Records the webhook deliveries the suite's receiver got, redacted as the run's exchanges are (src/traffic/delivery.ts):
   * the run's --har carries them, for `conformance judge` to verify again (RunResult.deliveries).
   */
  received(deliveries: readonly TrafficExchange[]): void;
}
