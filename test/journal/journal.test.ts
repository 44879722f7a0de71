// The restore journal (src/journal/journal.ts): an entry is on disk before the change it describes and gone once put
// back; what a killed run left is put back by the next one, the earliest entry of each subject (the original) only,
// and never what belongs to a live run or to another server.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  fileJournal,
  memoryJournal,
  type EntryInput,
  type EntryPutBack,
  type JournalEntry,
} from '../../src/journal/journal.js';
import { JournalError } from '../../src/errors.js';

const owner = { target: 'staging', baseUrl: 'https://api.example/v1', clientId: 'client-1' };

const customer = (status: string): EntryInput => ({
  subject: 'customer 7',
  kind: 'customer',
  what: 'customer 7',
  byHand: `PUT /customers {"customerId":7,"status":"${status}"}`,
  data: { status },
});
const webhook: EntryInput = {
  subject: 'the webhook configuration',
  kind: 'webhook',
  what: 'the webhook configuration',
  byHand: 'PUT /webhooks {…}',
  data: { url: 'https://hook.example', subscriptions: ['AUTH'] },
};

function folder(): string {
  return join(mkdtempSync(join(tmpdir(), 'conformance-journal-')), '.conformance', 'restore', 'staging');
}

const files = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.json'));
const entriesOf = (dir: string, name: string) =>
  (JSON.parse(readFileSync(join(dir, name), 'utf8')) as { entries: JournalEntry[] }).entries;

/** A journal file as a run killed outright leaves it: its pid is no live process's. */
function leftByKilledRun(dir: string, entries: Array<EntryInput & { writtenAt: string }>, own = owner): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `999999999-${Date.parse(entries[0]!.writtenAt)}.json`),
    JSON.stringify({
      format: 'conformance-restore-journal',
      formatVersion: 1,
      ...own,
      pid: 999_999_999,
      host: 'elsewhere-or-here',
      startedAt: entries[0]!.writtenAt,
      entries: entries.map((e, i) => ({ ...e, id: `e${i}` })),
    }),
  );
}

describe('the restore journal of a run', () => {
  it('writes an entry to its own file, readable by this user only, before the change, and removes the file with the last entry', async () => {
    const dir = folder();
    const journal = fileJournal(dir, owner);
    const a = await journal.record(customer('ACTIVE'));
    const [name] = files(dir);
    expect(name).toMatch(new RegExp(`^${process.pid}-\\d+-[0-9a-f]{4}\\.json$`));
    expect(statSync(join(dir, name!)).mode & 0o077).toBe(0);
    expect(statSync(dir).mode & 0o077).toBe(0);
    expect(entriesOf(dir, name!).map((e) => [e.subject, e.byHand])).toEqual([
      ['customer 7', 'PUT /customers {"customerId":7,"status":"ACTIVE"}'],
    ]);
    const b = await journal.record(webhook);
    expect(entriesOf(dir, name!)).toHaveLength(2);
    await journal.done(a, 'customer 7 (put back: status "ACTIVE")');
    expect(entriesOf(dir, name!).map((e) => e.subject)).toEqual(['the webhook configuration']);
    await journal.done(b);
    // No file is left behind, nor the folders made for it: the config's folder is as it was.
    expect(existsSync(join(dir, '..', '..'))).toBe(false);
    expect(readdirSync(join(dir, '..', '..', '..'))).toEqual([]);
    expect(journal.summary()).toEqual({
      putBack: ['customer 7 (put back: status "ACTIVE")', 'the webhook configuration'],
      open: [],
    });
  });

  it('says, of a subject changed twice and put back once, the original as not put back', async () => {
    const journal = memoryJournal();
    const first = await journal.record(customer('ACTIVE'));
    await journal.done(first, 'customer 7 (as it was)');
    await journal.record(customer('ACTIVE'));
    await journal.record(customer('SUSPENDED'));
    expect(journal.summary()).toEqual({
      putBack: [],
      open: [{ what: 'customer 7', byHand: 'PUT /customers {"customerId":7,"status":"ACTIVE"}' }],
    });
    expect(journal.folder).toBeUndefined();
  });
});

describe('a replay of what killed runs left', () => {
  it('puts back the earliest entry of each subject across files, once, and removes what it put back', async () => {
    const dir = folder();
    leftByKilledRun(dir, [
      { ...customer('ACTIVE'), writtenAt: '2026-01-01T10:00:00.000Z' },
      { ...webhook, writtenAt: '2026-01-01T10:00:01.000Z' },
    ]);
    // A later killed run that could not put the first one back saved the changed customer as its original.
    leftByKilledRun(dir, [{ ...customer('SUSPENDED'), writtenAt: '2026-01-02T10:00:00.000Z' }]);
    const told: string[] = [];
    const journal = fileJournal(dir, owner, (line) => told.push(line));
    const sent: unknown[] = [];
    const replayed = await journal.replay(async (e): Promise<EntryPutBack> => {
      sent.push(e.data);
      return e.kind === 'customer'
        ? { ok: true, said: `customer 7 (put back: status ${JSON.stringify((e.data as { status: string }).status)})` }
        : { ok: false, problem: 'PUT /webhooks answered 503', byHand: e.byHand };
    });
    expect(sent).toEqual([{ status: 'ACTIVE' }, webhook.data]);
    expect(replayed).toEqual({
      putBack: ['customer 7 (put back: status "ACTIVE")'],
      failed: [
        { what: 'the webhook configuration', problem: 'PUT /webhooks answered 503', byHand: 'PUT /webhooks {…}' },
      ],
      busy: [],
    });
    expect(told).toEqual([
      'restore journal: put back what an earlier run against staging left: customer 7 (put back: status "ACTIVE")',
      'restore journal: could not put back the webhook configuration, which an earlier run left (PUT /webhooks answered 503); restore it by hand: PUT /webhooks {…}; the journal keeps it for the next run or `conformance restore --target staging`',
    ]);
    // The customer's entries are gone from both files (the second file with them); the webhook's stays for next time.
    expect(files(dir)).toHaveLength(1);
    expect(entriesOf(dir, files(dir)[0]!).map((e) => e.subject)).toEqual(['the webhook configuration']);
  });

  it('leaves alone the file of a run still going, and sends nothing for a file written for another server', async () => {
    const dir = folder();
    const live = fileJournal(dir, owner);
    await live.record(customer('ACTIVE'));
    leftByKilledRun(dir, [{ ...webhook, writtenAt: '2026-01-01T10:00:00.000Z' }], {
      ...owner,
      baseUrl: 'https://old.example/v1',
    });
    const calls: JournalEntry[] = [];
    const replayed = await fileJournal(dir, owner).replay(async (e) => {
      calls.push(e);
      return { ok: true, said: e.what };
    });
    // The live run is this very process: a second journal of the same process finds it alive.
    expect(calls).toEqual([]);
    expect(replayed.putBack).toEqual([]);
    expect(replayed.busy).toHaveLength(1);
    expect(replayed.failed).toEqual([
      {
        what: 'the webhook configuration',
        problem: expect.stringMatching(
          /was written for https:\/\/old\.example\/v1 \(client client-1\), which the target no longer names, so nothing was sent$/,
        ),
        byHand: 'PUT /webhooks {…}',
      },
    ]);
    expect(files(dir)).toHaveLength(2);
  });

  it('refuses a file that is not a journal, in one line naming it and what to do', async () => {
    const dir = folder();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '123-1.json'), '{"entries": [');
    const replay = fileJournal(dir, owner).replay(async () => ({ ok: true, said: '' }));
    await expect(replay).rejects.toBeInstanceOf(JournalError);
    await expect(replay).rejects.toThrow(
      `the restore journal file ${join(dir, '123-1.json')} is not JSON: put back by hand what it lists (each entry's "byHand"), then delete it`,
    );
    expect(((await replay.catch((e: unknown) => e)) as JournalError).exitCode).toBe(2);
  });

  it('finds nothing to do where no run left a folder', async () => {
    const replayed = await fileJournal(folder(), owner).replay(() => {
      throw new Error('nothing should be put back');
    });
    expect(replayed).toEqual({ putBack: [], failed: [], busy: [] });
  });
});
