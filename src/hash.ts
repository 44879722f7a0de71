// SHA-256 in lowercase hex: how a report, the evidence manifest and the carried records name the bytes they judged or
// hold. A module of its own, importing node:crypto only, so that what needs a digest (the run's recorded options, the
// evidence package and its verification, the catalog, the compiled schemas) drags in nothing of the others.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

/** SHA-256 of bytes, or of text as UTF-8, in lowercase hex. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** SHA-256 (lowercase hex) of a file's bytes, a relative path read from `cwd`: a run ties its report to the files it read. */
export async function fileSha256(file: string, cwd?: string): Promise<string> {
  return sha256Hex(await readFile(resolve(cwd ?? '.', file)));
}
