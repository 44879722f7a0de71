// What a pack of suites brings to the engine beside its checks: how its runs hold credentials on the target, and which
// requests change state that checks share. The engine runs any pack; the Investment API's is suites/index.ts.
import type { ExchangeSink, HttpResponse, RequestSpec, SignedClient } from '../http/client.js';
import type { ResolvedTarget } from '../config/types.js';
import type { SuiteDefinition } from './check.js';
import type { RunSession, SuiteRun } from './session.js';
import type { EntryPutBack, JournalEntry } from '../journal/journal.js';

export interface Pack {
  /** Every suite, in the order reports list them. */
  suites: SuiteDefinition[];
  /** The shared state checks may name in `uses`: a name outside it is a mistake of the pack's, refused at load. */
  sharedStates: readonly string[];
  /**
   * Of those, the states whose checks only take turns: never two at once, in whatever order the scheduler finds best
   * (each check sets up what it judges, so none depends on another having run first). Checks over any other shared
   * state run in declaration order.
   */
  turnStates?: readonly string[];
  /**
   * Of those, the states whose checks keep declaration order within their suite only: checks of different suites over
   * one take turns, in whatever order (each puts back what it changed, so none depends on another suite's).
   */
  suiteOrderStates?: readonly string[];
  /** The shared state a request may change (`path` relative to the base URL, a query may follow), if any. */
  stateChangedBy(method: string, path: string): string | undefined;
  openSession(client: SignedClient, target: ResolvedTarget, sink: ExchangeSink): RunSession;
  /**
   * Its checks send nothing: they judge traffic the session recorded (`conformance client`). The run then says nothing
   * of its own client's throttling and connections, and counts no requirement of the catalog out of its reach.
   */
  observesOnly?: boolean;
  /**
   * Puts back one change an earlier run wrote to the restore journal and did not put back (it was killed): the next
   * run, or `conformance restore`, replays them through this. Never throws: a failure is an answer.
   */
  putBack?(entry: JournalEntry, send: PutBackSender): Promise<EntryPutBack>;
}

/**
 * What a pack's putBack sends with: the run's token (`send`), or as another client of the target's config (`sendBare`:
 * the request as given, no token of the run's added; its token, client id and signature say whose it is). `config`:
 * the target as configured now (a replay takes another client's credentials from it, never from the journal).
 */
export type PutBackSender = Pick<SuiteRun, 'send' | 'journal'> & {
  config?: ResolvedTarget;
  sendBare?: (spec: RequestSpec) => Promise<HttpResponse>;
};

/** Refuses a pack whose checks name shared state the pack does not know. */
export function checkPack(pack: Pack): void {
  for (const c of pack.suites.flatMap((s) => s.checks)) {
    for (const u of c.uses ?? []) {
      if (!pack.sharedStates.includes(u))
        throw new Error(
          `check ${c.id} uses "${u}", which is no shared state of the pack (${pack.sharedStates.join(', ')})`,
        );
    }
  }
}
