// `conformance vectors --out DIR`: the signing vectors for SDK authors (src/vectors/signing-vectors.ts), as one JSON
// file they can test their own signer and verifier against, offline and without our code.
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import { fromPackageRoot } from '../paths.js';
import { buildSigningVectors } from '../vectors/signing-vectors.js';

export const VECTORS_FILE_NAME = 'signing-vectors.json';
/** The published TEST key (fixtures/example-keys): anyone may sign with it, which is what vectors are for. */
const TEST_KEY = fromPackageRoot('fixtures', 'example-keys', 'client-ed25519.test.pem');

/** The vectors as the file holds them: the same bytes every time, from the same key and code. */
export async function signingVectorsText(): Promise<string> {
  return `${JSON.stringify(buildSigningVectors(await readFile(TEST_KEY, 'utf8')), null, 2)}\n`;
}

export async function vectorsCommand(
  opts: { out?: string },
  out: { write(text: string): unknown } = process.stdout,
): Promise<number> {
  const dir = path.resolve(opts.out ?? '.');
  const existing = await stat(dir).catch(() => undefined);
  if (existing !== undefined && !existing.isDirectory()) {
    throw new ConfigError(
      `--out: ${dir} is a file; give a folder for ${VECTORS_FILE_NAME}`,
      'CONFORMANCE_ERR_OUTPUT_PATH',
    );
  }
  const file = path.join(dir, VECTORS_FILE_NAME);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(file, await signingVectorsText());
  } catch (e) {
    throw new ConfigError(`--out: cannot write ${file} (${(e as Error).message})`, 'CONFORMANCE_ERR_OUTPUT_PATH');
  }
  out.write(
    `wrote ${file}: request shapes of the Investment Service Interface signed with the published TEST key, and negative cases with the sandbox's rejection codes\n`,
  );
  return 0;
}
