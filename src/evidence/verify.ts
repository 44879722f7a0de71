// Checking an evidence package: the manifest's Ed25519 signature with node:crypto (the signer used @noble/ed25519, so
// two implementations check each other), then every listed file against its SHA-256. Anything that stops the check
// from being made at all (no manifest, no signature, an unreadable key) is a usage error; anything the package's
// content gets wrong is a verdict.
import { verify as cryptoVerify, type KeyObject } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '../errors.js';
import { findWebhookKey } from '../receiver/webhook-key.js';
import { KEYID_FILE, MANIFEST, SIGNATURE_FILE, type EvidenceManifest } from './package.js';
import { sha256Hex } from '../hash.js';

interface FileVerdict {
  name: string;
  ok: boolean;
  /** Why it failed, or the digest it matched. */
  detail: string;
}

export interface EvidenceVerdict {
  ok: boolean;
  signature: { ok: boolean; detail: string };
  files: FileVerdict[];
  /** Files in the directory the manifest does not list: present, but not covered by the signature. */
  unlisted: string[];
  /** Present when the signature verified and the manifest could be read. */
  manifest?: EvidenceManifest;
  /** The keyid the package names (manifest.keyid); not itself signed. */
  keyId?: string;
  /** One line: what failed first, or what was verified. */
  summary: string;
}

/** Reads a public key in any form the webhook key finder knows: SPKI PEM, certificate, JWK, raw 32 bytes in base64/base64url/hex. */
export function parsePublicKey(text: string, what: string): KeyObject {
  let value: unknown = text.trim();
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON: a PEM or an encoded raw key, searched as a string.
  }
  const found = findWebhookKey(value, 'the file');
  if (!found.ok) throw new ConfigError(`${what}: ${found.reason}`, 'CONFORMANCE_ERR_KEY');
  return found.found.key;
}

// A manifest names files inside the package only: no directories, no way out of it.
const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

async function readRequired(dir: string, name: string): Promise<Buffer> {
  try {
    return await readFile(join(dir, name));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new ConfigError(
        `${join(dir, name)} is missing: ${dir} is not an evidence package (conformance run --evidence DIR makes one)`,
        'CONFORMANCE_ERR_EVIDENCE',
      );
    throw new ConfigError(
      `${join(dir, name)} cannot be read (${code ?? (err as Error).message})`,
      'CONFORMANCE_ERR_EVIDENCE',
    );
  }
}

export async function verifyEvidence(dir: string, publicKey: KeyObject): Promise<EvidenceVerdict> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (err) {
    throw new ConfigError(
      `${dir} cannot be read as a directory (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      'CONFORMANCE_ERR_EVIDENCE',
    );
  }
  const manifestBytes = await readRequired(dir, MANIFEST);
  const signatureText = (await readRequired(dir, SIGNATURE_FILE)).toString('utf8').trim();
  const keyId = entries.includes(KEYID_FILE) ? (await readFile(join(dir, KEYID_FILE), 'utf8')).trim() : undefined;

  const signature = checkSignature(manifestBytes, signatureText, publicKey);
  const files: FileVerdict[] = [];
  let manifest: EvidenceManifest | undefined;
  let manifestProblem: string | undefined;
  try {
    manifest = JSON.parse(manifestBytes.toString('utf8')) as EvidenceManifest;
    if (
      typeof manifest !== 'object' ||
      manifest === null ||
      typeof manifest.files !== 'object' ||
      manifest.files === null
    ) {
      manifestProblem = 'manifest.json has no "files" object';
      manifest = undefined;
    }
  } catch {
    manifestProblem = 'manifest.json is not JSON';
  }
  // The digests are checked even when the signature fails: which file differs is the first thing a reviewer asks.
  for (const [name, expected] of Object.entries(manifest?.files ?? {})) {
    files.push(await checkFile(dir, name, expected));
  }
  const listed = new Set([...Object.keys(manifest?.files ?? {}), MANIFEST, SIGNATURE_FILE, KEYID_FILE]);
  const unlisted = entries.filter((name) => !listed.has(name)).sort();

  const badFile = files.find((f) => !f.ok);
  const ok = signature.ok && manifestProblem === undefined && badFile === undefined;
  const summary = !signature.ok
    ? `evidence NOT verified: ${signature.detail}`
    : manifestProblem !== undefined
      ? `evidence NOT verified: ${manifestProblem}`
      : badFile !== undefined
        ? `evidence NOT verified: ${badFile.name} ${badFile.detail}`
        : `evidence verified: ${files.length} file${files.length === 1 ? '' : 's'} unchanged since signed${manifest?.keyId !== undefined ? ` with keyid ${JSON.stringify(manifest.keyId)}` : ''}`;
  return {
    ok,
    signature,
    files,
    unlisted,
    ...(ok && manifest ? { manifest } : {}),
    ...(keyId !== undefined ? { keyId } : {}),
    summary,
  };
}

function checkSignature(manifestBytes: Buffer, signatureText: string, key: KeyObject): { ok: boolean; detail: string } {
  const signature = /^[A-Za-z0-9+/]+={0,2}$/.test(signatureText)
    ? Buffer.from(signatureText, 'base64')
    : Buffer.alloc(0);
  if (signature.length !== 64)
    return { ok: false, detail: 'manifest.sig is not a 64-byte Ed25519 signature in base64' };
  let valid: boolean;
  try {
    valid = cryptoVerify(null, manifestBytes, key, signature);
  } catch {
    valid = false;
  }
  return valid
    ? { ok: true, detail: 'signature verifies with the given public key' }
    : {
        ok: false,
        detail:
          'the signature of manifest.json does not verify with the given public key (another key signed it, or the manifest was changed)',
      };
}

async function checkFile(dir: string, name: string, expected: unknown): Promise<FileVerdict> {
  if (!PLAIN_NAME.test(name)) return { name, ok: false, detail: 'is not a plain file name inside the package' };
  if (typeof expected !== 'string' || !/^[0-9a-f]{64}$/.test(expected))
    return { name, ok: false, detail: 'has no SHA-256 digest in the manifest' };
  let bytes: Buffer;
  try {
    bytes = await readFile(join(dir, name));
  } catch {
    return { name, ok: false, detail: 'is missing from the package' };
  }
  const actual = sha256Hex(bytes);
  return actual === expected
    ? { name, ok: true, detail: `sha256 ${actual}` }
    : { name, ok: false, detail: 'differs from the signed manifest: the file was changed after signing' };
}
