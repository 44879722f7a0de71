// What a killed run left in the restore journal, put back by the next run or `conformance restore` (the pack's
// putBack): each kind of entry by the restore that wrote it, the customer's (customer-restore.ts) or the webhook
// configuration's (webhook-restore.ts).
import type { EntryPutBack, JournalEntry } from '../../src/journal/journal.js';
import type { Sender } from './clean-up.js';
import { customerPutBack } from './customer-restore.js';
import { webhookPutBack } from './webhook-restore.js';

export async function putBackEntry(entry: JournalEntry, sender: Sender): Promise<EntryPutBack> {
  try {
    return (
      (await customerPutBack(entry, sender)) ??
      (await webhookPutBack(entry, sender)) ?? {
        ok: false,
        problem: `the journal entry is of a kind this version does not know ("${entry.kind}")`,
        byHand: entry.byHand,
      }
    );
  } catch (e) {
    return { ok: false, problem: (e as Error)?.message ?? String(e), byHand: entry.byHand };
  }
}
