// The restore journal. Before a run changes something on the target that it means to put back (the mutable customer,
// the webhook configuration), it writes an entry (what, the original, how to put it back) to a file of its own, flushed
// to disk; once put back, the entry goes, and with the last one the file. A run that is killed outright (SIGKILL, a
// lost machine) leaves its file: the next run against the same target, or `conformance restore`, puts back what it
// lists (`replay`, through the pack that wrote it) and says what it put back.
//
// The layout: one folder per target (<config folder>/.conformance/restore/<target>/, src/api.ts), one file per run
// (<pid>-<start ms>-<random>.json), so two runs never write the same file. A file whose process still runs on this machine is
// another run's, left alone. Entries of one subject (the same customer, the webhook configuration) put back the same
// thing: the earliest one holds the original, so a replay puts that back and removes them all.
//
// Knows no endpoint: what an entry means (`kind`, `data`) is the pack's (suites/kit), which also puts it back.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rmdir, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { JournalError } from '../errors.js';

/** One change to the target, written before it is made. */
export interface JournalEntry {
  /** Unique in its file. */
  id: string;
  /** What was changed, as a key: entries of one subject put back the same thing (e.g. "customer 1042"). */
  subject: string;
  /** The pack's kind of change, read by its putBack (e.g. "customer", "webhook"). */
  kind: string;
  /** In words, for the lines that say what was put back: "customer 1042". */
  what: string;
  /** The request (or step) that puts it back by hand. */
  byHand: string;
  /** What the pack needs to put it back: the original values. */
  data: unknown;
  /** When it was written (ISO 8601). */
  writtenAt: string;
}

export type EntryInput = Omit<JournalEntry, 'id' | 'writtenAt'>;

/** What a check or a suite writes to (CheckContext.journal, SuiteRun.journal). */
export interface RestoreJournal {
  /** Writes an entry and flushes it to disk before the change it describes is made; resolves with its id. */
  record(entry: EntryInput): Promise<string>;
  /** The change was put back (or found as it was): the entry goes. `said` is what the run says it put back (default `what`). */
  done(id: string, said?: string): Promise<void>;
}

/** How putting back one entry went (the pack's answer). */
export type EntryPutBack = { ok: true; said: string } | { ok: false; problem: string; byHand: string };

/** What a replay of the entries earlier runs left did. */
export interface Replayed {
  /** What was put back (or found as it was), one line each. */
  putBack: string[];
  /** What could not be: what, why, and the request that puts it back by hand. Their entries stay. */
  failed: Array<{ what: string; problem: string; byHand: string }>;
  /** Files of runs that still run on this machine: left alone. */
  busy: string[];
}

/** What the engine holds: this run's journal, and what earlier runs left. */
export interface RunJournal extends RestoreJournal {
  /** Puts back, through `putBack`, what earlier runs against the target left; says so through the journal's `tell`. */
  replay(putBack: (entry: JournalEntry) => Promise<EntryPutBack>): Promise<Replayed>;
  /**
   * This run's changes: what it put back (of each subject it settled, what was said last, e.g. "customer 1042 (as it
   * was)"), and what it did not (of each subject with an entry still open, the earliest: its original).
   */
  summary(): { putBack: string[]; open: Array<{ what: string; byHand: string }> };
  /** Where the journal is kept, for lines: its folder, or undefined when it lives in memory only. */
  readonly folder: string | undefined;
}

/** Whom a journal file belongs to: a replay puts back only what was written for the same server and client. */
export interface JournalOwner {
  target: string;
  baseUrl: string;
  clientId: string;
}

interface JournalFile extends JournalOwner {
  format: typeof FORMAT;
  formatVersion: 1;
  pid: number;
  host: string;
  startedAt: string;
  entries: JournalEntry[];
}

const FORMAT = 'conformance-restore-journal';

/** The journal of this run, and its record of what it put back. The base of both kinds, in memory and on disk. */
class MemoryJournal implements RunJournal {
  readonly folder: string | undefined = undefined;
  protected readonly entries: JournalEntry[] = [];
  /** What was last said put back of each subject settled, in the order the subjects were first settled. */
  private readonly putBackSaid = new Map<string, string>();
  private seq = 0;

  async record(input: EntryInput): Promise<string> {
    const id = `${++this.seq}-${randomBytes(3).toString('hex')}`;
    this.entries.push({ ...input, id, writtenAt: new Date().toISOString() });
    await this.flush();
    return id;
  }

  async done(id: string, said?: string): Promise<void> {
    const i = this.entries.findIndex((e) => e.id === id);
    if (i < 0) return;
    const [entry] = this.entries.splice(i, 1);
    this.putBackSaid.set(entry!.subject, said ?? entry!.what);
    await this.flush();
  }

  replay(_putBack: (entry: JournalEntry) => Promise<EntryPutBack>): Promise<Replayed> {
    return Promise.resolve({ putBack: [], failed: [], busy: [] });
  }

  summary(): { putBack: string[]; open: Array<{ what: string; byHand: string }> } {
    const open = earliestBySubject(this.entries);
    const stillOpen = new Set(open.map((e) => e.subject));
    const putBack = [...this.putBackSaid].filter(([subject]) => !stillOpen.has(subject)).map(([, said]) => said);
    return { putBack, open: open.map((e) => ({ what: e.what, byHand: e.byHand })) };
  }

  protected flush(): Promise<void> {
    return Promise.resolve();
  }
}

/** A journal kept in memory only: for a target whose state ends with the run (the built-in `local`), and for tests. */
export function memoryJournal(): RunJournal {
  return new MemoryJournal();
}

/** The journal on disk: this run's file in the target's folder, and the files earlier runs left there. */
class FileJournal extends MemoryJournal {
  override readonly folder: string;
  private readonly file: string;
  private readonly startedAt = new Date();
  /** Writes go one after the other, each the whole file, so the file on disk is always one state of the journal. */
  private writing: Promise<void> = Promise.resolve();
  private written = false;

  constructor(
    folder: string,
    private readonly owner: JournalOwner,
    private readonly tell: (line: string) => void,
  ) {
    super();
    this.folder = folder;
    this.file = join(folder, `${process.pid}-${this.startedAt.getTime()}-${randomBytes(2).toString('hex')}.json`);
  }

  protected override flush(): Promise<void> {
    const entries = [...this.entries];
    const next = this.writing.then(() => this.write(entries));
    // A write that failed is reported to the change that waited for it; the next write still runs.
    this.writing = next.catch(() => undefined);
    return next;
  }

  private async write(entries: JournalEntry[]): Promise<void> {
    if (entries.length === 0) {
      if (this.written) {
        await unlink(this.file).catch(ignoreMissing);
        syncFolder(this.folder);
        this.written = false;
        await removeEmptyFolders(this.folder);
      }
      return;
    }
    const content: JournalFile = {
      format: FORMAT,
      formatVersion: 1,
      ...this.owner,
      pid: process.pid,
      host: hostname(),
      startedAt: this.startedAt.toISOString(),
      entries,
    };
    await writeDurably(this.folder, this.file, content);
    this.written = true;
  }

  override async replay(putBack: (entry: JournalEntry) => Promise<EntryPutBack>): Promise<Replayed> {
    const files = await this.leftFiles();
    const busy = files.filter((f) => f.busy).map((f) => f.path);
    const foreign = files.filter((f) => !f.busy && !sameOwner(f.content, this.owner));
    const ours = files.filter((f) => !f.busy && sameOwner(f.content, this.owner));
    const failed: Replayed['failed'] = [];
    for (const f of foreign)
      for (const e of earliestBySubject(f.content.entries))
        failed.push({
          what: e.what,
          problem: `${f.path} was written for ${f.content.baseUrl} (client ${f.content.clientId}), which the target no longer names, so nothing was sent`,
          byHand: e.byHand,
        });
    const put: string[] = [];
    const all = ours.flatMap((f) => f.content.entries);
    const settled = new Set<string>();
    for (const entry of earliestBySubject(all)) {
      const outcome = await putBack(entry).catch((e: unknown): EntryPutBack => ({
        ok: false,
        problem: (e as Error)?.message ?? String(e),
        byHand: entry.byHand,
      }));
      if (outcome.ok) {
        settled.add(entry.subject);
        put.push(outcome.said);
      } else failed.push({ what: entry.what, problem: outcome.problem, byHand: outcome.byHand });
    }
    for (const f of ours) {
      const left = f.content.entries.filter((e) => !settled.has(e.subject));
      if (left.length === f.content.entries.length) continue;
      if (left.length === 0) {
        await unlink(f.path).catch(ignoreMissing);
        syncFolder(this.folder);
        await removeEmptyFolders(this.folder);
      } else await writeDurably(this.folder, f.path, { ...f.content, entries: left });
    }
    const replayed = { putBack: put, failed, busy };
    for (const line of replayLines(replayed, this.owner.target)) this.tell(line);
    return replayed;
  }

  /** The journal files of earlier runs in the folder (not this run's), read; a file that cannot be read is an error. */
  private async leftFiles(): Promise<Array<{ path: string; content: JournalFile; busy: boolean }>> {
    const names = await readdir(this.folder).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return [] as string[];
      throw new JournalError(`the restore journal folder ${this.folder} cannot be read (${e.code ?? e.message})`);
    });
    const out: Array<{ path: string; content: JournalFile; busy: boolean }> = [];
    for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
      const path = join(this.folder, name);
      if (path === this.file) continue;
      const content = await readJournalFile(path);
      out.push({ path, content, busy: content.host === hostname() && alive(content.pid) });
    }
    return out;
  }
}

/**
 * Opens the journal of a run against `owner`'s target in `folder` (created when the first entry is written). `tell`
 * hears the lines a replay says (the CLI writes them on stderr).
 */
export function fileJournal(folder: string, owner: JournalOwner, tell: (line: string) => void = () => {}): RunJournal {
  return new FileJournal(folder, owner, tell);
}

/** What a replay says, one line each: what it put back, what it could not (and how by hand), which files it left. */
function replayLines(r: Replayed, target: string): string[] {
  const lines: string[] = [];
  if (r.putBack.length > 0)
    lines.push(`restore journal: put back what an earlier run against ${target} left: ${r.putBack.join('; ')}`);
  for (const f of r.failed)
    lines.push(
      `restore journal: could not put back ${f.what}, which an earlier run left (${f.problem}); restore it by hand: ${f.byHand}; the journal keeps it for the next run or \`conformance restore --target ${target}\``,
    );
  for (const b of r.busy)
    lines.push(`restore journal: ${b} belongs to a run that is still going on this machine: left alone`);
  return lines;
}

/** The first entry of each subject, in the order written: the one that holds the original. */
function earliestBySubject(entries: readonly JournalEntry[]): JournalEntry[] {
  const seen = new Map<string, JournalEntry>();
  const sorted = [...entries].sort((a, b) => a.writtenAt.localeCompare(b.writtenAt));
  for (const e of sorted) if (!seen.has(e.subject)) seen.set(e.subject, e);
  return [...seen.values()];
}

function sameOwner(f: JournalOwner, owner: JournalOwner): boolean {
  return f.baseUrl === owner.baseUrl && f.clientId === owner.clientId;
}

async function readJournalFile(path: string): Promise<JournalFile> {
  const fix = 'put back by hand what it lists (each entry\'s "byHand"), then delete it';
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new JournalError(
      `the restore journal file ${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new JournalError(`the restore journal file ${path} is not JSON: ${fix}`);
  }
  if (!isJournalFile(value)) throw new JournalError(`${path} is not a restore journal of this version: ${fix}`);
  return value;
}

function isJournalFile(v: unknown): v is JournalFile {
  if (typeof v !== 'object' || v === null) return false;
  const f = v as Partial<JournalFile>;
  return (
    f.format === FORMAT &&
    f.formatVersion === 1 &&
    typeof f.baseUrl === 'string' &&
    typeof f.clientId === 'string' &&
    typeof f.pid === 'number' &&
    typeof f.host === 'string' &&
    Array.isArray(f.entries) &&
    f.entries.every(
      (e) =>
        typeof e === 'object' &&
        e !== null &&
        typeof e.id === 'string' &&
        typeof e.subject === 'string' &&
        typeof e.kind === 'string' &&
        typeof e.what === 'string' &&
        typeof e.byHand === 'string' &&
        typeof e.writtenAt === 'string',
    )
  );
}

/**
 * Writes `content` to `file` so that a crash leaves either the old file or the new one whole: a temporary file,
 * flushed, renamed over it, and the folder flushed. The folder and file are this user's only: entries hold a
 * customer's names.
 */
async function writeDurably(folder: string, file: string, content: JournalFile): Promise<void> {
  try {
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
    // Another run may have removed the folder, empty, just now (removeEmptyFolders): made again, once.
    const handle = await open(tmp, 'w', 0o600).catch(async (e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
      await mkdir(folder, { recursive: true, mode: 0o700 });
      return open(tmp, 'w', 0o600);
    });
    try {
      await handle.writeFile(`${JSON.stringify(content, null, 2)}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
    syncFolder(folder);
  } catch (e) {
    if (e instanceof JournalError) throw e;
    throw new JournalError(
      `the restore journal file ${file} cannot be written (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): the run changes nothing it could not put back after a crash; make the folder writable, or remove it`,
    );
  }
}

/** Flushes a folder's entries (a rename, an unlink) to disk; where a folder cannot be opened (Windows), a no-op. */
function syncFolder(folder: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(folder, 'r');
    fsyncSync(fd);
  } catch {
    // Not every platform opens folders; the rename is still atomic there.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the target's journal folder once empty, and the `restore` and `.conformance` folders above it when they are
 * empty too, so a run that put everything back leaves nothing beside the config. A folder not empty stays.
 */
async function removeEmptyFolders(folder: string): Promise<void> {
  // Only the layout conformance makes (journalFolder, src/api.ts): a folder a library caller chose stays.
  if (basename(dirname(folder)) !== 'restore' || basename(dirname(dirname(folder))) !== '.conformance') return;
  let dir = folder;
  for (let i = 0; i < 3; i++) {
    try {
      await rmdir(dir);
    } catch {
      return;
    }
    dir = dirname(dir);
  }
}

function ignoreMissing(e: NodeJS.ErrnoException): void {
  if (e.code !== 'ENOENT') throw e;
}
