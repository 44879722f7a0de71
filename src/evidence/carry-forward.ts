// What a run observed that no later run can observe again, kept so that a later run can carry it forward and say so.
// The case: a webhook's creation. The interface gives each client one webhook and no DELETE, so the creation of a
// client's webhook happens once; every later run finds the webhook there. The run that saw it keeps a record here
// (what it sent, what came back, what it judged), and a later run against the same server and client, finding the
// webhook that run created still configured, reports the record as its evidence: "observed at T, carried forward".
//
// Kept beside the config file, in .conformance/carried.json, one record per subject, server and client (the newest
// replaces the one before), whichever target name of the config reached them. Each record is signed with the target's own request-signing key, as the evidence
// package is (src/evidence/package.ts): a record edited by hand, or made with another key, is not carried forward.
// Holds no secret: the exchanges quoted are the reports' (redacted), and the key signs, it is never written.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as ed from '@noble/ed25519';
import { sha256Hex } from '../hash.js';

const CARRIED_FORMAT = 'conformance-carried';

/** One observation kept for later runs. `data` is the suite's: what it needs to report and judge it again. */
export interface CarriedRecord<T = unknown> {
  /** What was observed, e.g. "webhook-creation". */
  subject: string;
  /** The name of the target the run was given, for the reader: the record is the server's and client's. */
  target: string;
  baseUrl: string;
  /** The client the observation was made with. */
  clientId: string;
  /** When it was observed (ISO 8601): the time of the request that caused it. */
  observedAt: string;
  /** The version of the suite that observed it. */
  suiteVersion: string;
  data: T;
}

interface Signed {
  record: CarriedRecord;
  /** The keyid of the target that signed it, and the signature (base64) over the record's JSON text. */
  keyId: string;
  signature: string;
}

interface CarriedFile {
  format: typeof CARRIED_FORMAT;
  formatVersion: 1;
  records: Signed[];
}

/** The key that signs records and checks them: the target's request-signing key. */
export interface CarriedSigner {
  keyId: string;
  /** The 32-byte Ed25519 seed. */
  privateKey: Uint8Array;
}

/** A record found for a subject, server and client: verified, or why it cannot be used. */
export type FoundRecord<T> =
  { ok: true; record: CarriedRecord<T>; digest: string; file: string } | { ok: false; problem: string; file: string };

/** Where the records are kept, given the config file's folder. */
export function carriedFile(configFolder: string): string {
  return join(configFolder, '.conformance', 'carried.json');
}

/** SHA-256 (hex) of the record's JSON text: how a report names the record it carried forward. */
function recordDigest(record: CarriedRecord): string {
  return sha256Hex(JSON.stringify(record));
}

async function readFileOf(file: string): Promise<CarriedFile | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const parsed = JSON.parse(text) as Partial<CarriedFile>;
  if (parsed.format !== CARRIED_FORMAT || !Array.isArray(parsed.records)) throw new Error('not a record file');
  return parsed as CarriedFile;
}

const same = (r: CarriedRecord, key: Pick<CarriedRecord, 'subject' | 'baseUrl' | 'clientId'>) =>
  r.subject === key.subject && r.baseUrl === key.baseUrl && r.clientId === key.clientId;

/** The record of `key` in `file`, checked against the signer's public key; undefined when there is none. */
export async function findCarried<T>(
  file: string,
  key: Pick<CarriedRecord, 'subject' | 'baseUrl' | 'clientId'>,
  signer: CarriedSigner,
): Promise<FoundRecord<T> | undefined> {
  let content: CarriedFile | undefined;
  try {
    content = await readFileOf(file);
  } catch (e) {
    return { ok: false, problem: `${file} cannot be read (${(e as Error).message})`, file };
  }
  const entry = content?.records.find((s) => typeof s?.record === 'object' && same(s.record, key));
  if (entry === undefined) return undefined;
  const publicKey = await ed.getPublicKeyAsync(signer.privateKey);
  let verified: boolean;
  try {
    verified = await ed.verifyAsync(
      Buffer.from(entry.signature, 'base64'),
      Buffer.from(JSON.stringify(entry.record), 'utf8'),
      publicKey,
    );
  } catch {
    verified = false;
  }
  if (!verified)
    return {
      ok: false,
      problem: `the record in ${file} does not verify under the key of keyid ${JSON.stringify(signer.keyId)} (it was edited, or signed with another key${entry.keyId !== signer.keyId ? `: keyid ${JSON.stringify(entry.keyId)}` : ''})`,
      file,
    };
  return { ok: true, record: entry.record as CarriedRecord<T>, digest: recordDigest(entry.record), file };
}

/**
 * Keeps `record` in `file`, replacing the one of the same subject, server and client; written whole to a new file and
 * renamed over the old, so a run killed while writing leaves the file as it was. Resolves with the record's digest.
 */
export async function keepCarried(file: string, record: CarriedRecord, signer: CarriedSigner): Promise<string> {
  let content: CarriedFile | undefined;
  try {
    content = await readFileOf(file);
  } catch {
    content = undefined; // unreadable: replaced by a file that holds this record alone
  }
  const signature = await ed.signAsync(Buffer.from(JSON.stringify(record), 'utf8'), signer.privateKey);
  const signed: Signed = { record, keyId: signer.keyId, signature: Buffer.from(signature).toString('base64') };
  const records = (content?.records ?? []).filter((s) => !same(s.record, record));
  const next: CarriedFile = { format: CARRIED_FORMAT, formatVersion: 1, records: [...records, signed] };
  await mkdir(join(file, '..'), { recursive: true });
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
  return recordDigest(record);
}
