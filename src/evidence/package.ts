// The certification package of `--evidence DIR`: the four reports of one run, a manifest of their SHA-256 digests, and
// the manifest signed with the partner's own request-signing key, whose public half the provider already holds. So
// the provider can tell that the package came from that partner and that no byte was changed afterwards.
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as ed from '@noble/ed25519';
import type { RunResult, VerdictStatus } from '../engine/index.js';
import type { Reporter } from '../engine/index.js';
import { jsonReportText } from '../report/json.js';
import { htmlReport } from '../report/html.js';
import { buildJunitXml, type JunitOptions } from '../report/junit.js';
import { harText } from '../report/har.js';
import { verdictSummary } from '../report/verdict-text.js';
import { publicKeyFromRaw } from '../http/keys.js';
import { ConfigError } from '../errors.js';
import { sha256Hex } from '../hash.js';

export const MANIFEST = 'manifest.json';
export const SIGNATURE_FILE = 'manifest.sig';
export const KEYID_FILE = 'manifest.keyid';
export const EVIDENCE_FORMAT = 'conformance-evidence';

/** The files the manifest lists, in the order it lists them. */
export const PACKAGE_FILES = ['report.json', 'report.html', 'junit.xml', 'exchanges.har', 'public-key.pem'] as const;

export interface EvidenceManifest {
  format: typeof EVIDENCE_FORMAT;
  formatVersion: 1;
  suiteVersion: string;
  specVersion: string;
  target: string;
  baseUrl: string;
  /** The keyid the signature was made with, under the signature itself so it cannot be swapped. */
  keyId: string;
  createdAt: string;
  /**
   * The run's verdict and the fail-on policy its exit code followed, under the signature like the rest, so a reviewer
   * reads what the run claims without trusting an unsigned summary. Absent in packages of versions before verdicts.
   */
  verdict?: ManifestVerdict;
  failOn?: 'must' | 'should';
  failOnIncomplete?: boolean;
  /** File name → SHA-256 (lower-case hex) of its exact bytes. */
  files: Record<string, string>;
}

/** The verdict as the manifest records it: report.json has it in full. */
export interface ManifestVerdict {
  status: VerdictStatus;
  /** The verdict's one line, as the terminal report prints it. */
  summary: string;
  /** MUST requirements a check failed on. */
  failed: string[];
  /** MUST requirements not exercised, each with what to do. */
  notExercised: Array<{ id: string; remedy: string }>;
}

/** The target's request-signing key: only the seed signs, and it is never written anywhere. */
export interface EvidenceSigner {
  keyId: string;
  /** The 32-byte Ed25519 seed (ResolvedTarget.privateKey). */
  privateKey: Uint8Array;
}

/**
 * Refuses a directory that holds anything but an earlier package: files the manifest does not list would sit beside
 * the signed ones and could be taken for part of the package. Called before the run, so a bad path costs nothing.
 */
export async function checkEvidenceDir(dir: string): Promise<void> {
  let entries: string[];
  try {
    if (!(await stat(dir)).isDirectory())
      throw new ConfigError(`--evidence ${dir}: exists and is not a directory`, 'CONFORMANCE_ERR_OUTPUT_PATH');
    entries = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(
      `--evidence ${dir}: cannot be read (${(err as Error).message})`,
      'CONFORMANCE_ERR_OUTPUT_PATH',
    );
  }
  const own = new Set<string>([...PACKAGE_FILES, MANIFEST, SIGNATURE_FILE, KEYID_FILE]);
  const foreign = entries.filter((name) => !own.has(name));
  if (foreign.length > 0) {
    const shown = foreign.slice(0, 3).join(', ') + (foreign.length > 3 ? `, … (${foreign.length} in all)` : '');
    throw new ConfigError(
      `--evidence ${dir}: the directory holds other files (${shown}); give a new or empty directory`,
      'CONFORMANCE_ERR_OUTPUT_PATH',
    );
  }
}

/** Writes the package when the run ends. */
export class EvidenceReporter implements Reporter {
  readonly name: string;

  constructor(
    private readonly dir: string,
    private readonly signer: EvidenceSigner,
    private readonly junit: JunitOptions = {},
  ) {
    this.name = `evidence package ${dir}`;
  }

  async onRunEnd(result: RunResult): Promise<void> {
    await writeEvidence(this.dir, result, this.signer, new Date(), this.junit);
  }
}

export async function writeEvidence(
  dir: string,
  result: RunResult,
  signer: EvidenceSigner,
  now = new Date(),
  junit: JunitOptions = {},
): Promise<EvidenceManifest> {
  const publicKey = await ed.getPublicKeyAsync(signer.privateKey);
  const publicKeyPem = publicKeyFromRaw(publicKey).export({ format: 'pem', type: 'spki' }).toString();
  // The bytes written are the bytes hashed: each report comes from the same function its own reporter writes with.
  const contents: Record<(typeof PACKAGE_FILES)[number], Buffer> = {
    'report.json': Buffer.from(jsonReportText(result), 'utf8'),
    'report.html': Buffer.from(htmlReport(result), 'utf8'),
    'junit.xml': Buffer.from(buildJunitXml(result, junit), 'utf8'),
    'exchanges.har': Buffer.from(harText(result), 'utf8'),
    'public-key.pem': Buffer.from(publicKeyPem, 'utf8'),
  };
  await mkdir(dir, { recursive: true });
  const files: Record<string, string> = {};
  for (const name of PACKAGE_FILES) {
    await writeFile(join(dir, name), contents[name]);
    files[name] = sha256Hex(contents[name]);
  }
  const manifest: EvidenceManifest = {
    format: EVIDENCE_FORMAT,
    formatVersion: 1,
    suiteVersion: result.run.suiteVersion,
    specVersion: result.run.specVersion,
    target: result.run.target,
    baseUrl: result.run.baseUrl,
    keyId: signer.keyId,
    createdAt: now.toISOString(),
    verdict: {
      status: result.verdict.status,
      summary: verdictSummary(result.verdict),
      failed: [...result.verdict.failed],
      notExercised: result.verdict.notExercised.map((r) => ({ id: r.id, remedy: r.remedy })),
    },
    failOn: result.run.failOn,
    failOnIncomplete: result.run.failOnIncomplete ?? false,
    files,
  };
  const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8');
  const signature = await ed.signAsync(manifestBytes, signer.privateKey);
  await writeFile(join(dir, MANIFEST), manifestBytes);
  await writeFile(join(dir, SIGNATURE_FILE), `${Buffer.from(signature).toString('base64')}\n`, 'utf8');
  await writeFile(join(dir, KEYID_FILE), `${signer.keyId}\n`, 'utf8');
  return manifest;
}
