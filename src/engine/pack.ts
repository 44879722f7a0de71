// What a pack of suites brings to the engine beside its checks: how its runs hold credentials on the target, and which
// requests change state that checks share. The engine runs any pack; the Investment API's is suites/index.ts.
import type { ExchangeSink, HttpResponse, RequestSpec, SignedClient } from '../http/client.js';
import type { Fixtures } from '../config/types.js';
import type { ResolvedTarget } from '../config/types.js';
import type { CheckDefinition, SuiteDefinition } from './check.js';
import type { RunFlags } from './context.js';

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
  runCheck(check: CheckDefinition, body: () => Promise<void>, retry: { observe(text: string): void; signal: AbortSignal }): Promise<void>;
  /** What the run should say about the credentials as a whole (renewals…): the run's notes. */
  notes(): string[];
  /** After the last check: ends what the session holds; a problem is returned for the clean-up list, never thrown. */
  close(): Promise<string | undefined>;
}

export interface Pack {
  /** Every suite, in the order reports list them. */
  suites: SuiteDefinition[];
  /** The shared state checks may name in `uses`: a name outside it is a mistake of the pack's, refused at load. */
  sharedStates: readonly string[];
  /** The shared state a request may change (`path` relative to the base URL, a query may follow), if any. */
  stateChangedBy(method: string, path: string): string | undefined;
  openSession(client: SignedClient, target: ResolvedTarget, sink: ExchangeSink): RunSession;
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
}

/** Refuses a pack whose checks name shared state the pack does not know. */
export function checkPack(pack: Pack): void {
  for (const c of pack.suites.flatMap((s) => s.checks)) {
    for (const u of c.uses ?? []) {
      if (!pack.sharedStates.includes(u)) throw new Error(`check ${c.id} uses "${u}", which is no shared state of the pack (${pack.sharedStates.join(', ')})`);
    }
  }
}
