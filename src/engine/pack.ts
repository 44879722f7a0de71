// What a pack of suites brings to the engine beside its checks: how its runs hold credentials on the target, and which
// requests change state that checks share. The engine runs any pack; the Investment API's is suites/index.ts.
import type { ExchangeSink, SignedClient } from '../http/client.js';
import type { ResolvedTarget } from '../config/types.js';
import type { SuiteDefinition } from './check.js';
import type { RunSession, SuiteRun } from './session.js';
import type { EntryPutBack, JournalEntry } from '../journal/journal.js';

export interface Pack {
  /** Every suite, in the order reports list them. */
  suites: SuiteDefinition[];
  /** The shared state checks may name in `uses`: a name outside it is a mistake of the pack's, refused at load. */
  sharedStates: readonly string[];
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
  putBack?(entry: JournalEntry, send: Pick<SuiteRun, 'send' | 'journal'>): Promise<EntryPutBack>;
}

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
