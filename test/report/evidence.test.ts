// The certification package end to end: a real run against the embedded reference server (with a fault, so there is
// something to certify), verified with the partner's public key; then tampered with, and verified again.
import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/api.js';
import type { RunResult } from '../../src/engine/index.js';
import { jsonReportText } from '../../src/report/json.js';
import {
  KEYID_FILE,
  MANIFEST,
  PACKAGE_FILES,
  SIGNATURE_FILE,
  checkEvidenceDir,
  type EvidenceManifest,
} from '../../src/evidence/package.js';
import { parsePublicKey, verifyEvidence } from '../../src/evidence/verify.js';
import { verifyEvidenceCommand } from '../../src/cli/verify-evidence.js';
import { ConfigError } from '../../src/errors.js';
import { runCli } from '../helpers/cli.js';

const sink = () => {
  let text = '';
  return {
    write: (s: string) => (text += s),
    get text() {
      return text;
    },
  };
};

describe('evidence package', () => {
  let root: string;
  let dir: string;
  let result: RunResult;
  let publicKeyPem: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'conformance-evidence-'));
    dir = join(root, 'package');
    result = await run({ evidence: dir, suites: ['auth'], local: { faults: ['auth.token-type-lowercase'] } });
    // The local target's key lives only in the process; the package carries its public half (and says so when used).
    publicKeyPem = await readFile(join(dir, 'public-key.pem'), 'utf8');
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  /** A fresh copy of the package to tamper with. */
  async function copy(name: string): Promise<string> {
    const to = join(root, name);
    await cp(dir, to, { recursive: true });
    return to;
  }

  it('holds the four reports, the public key, the manifest, its signature and the keyid', async () => {
    expect(result.exitCode).toBe(1);
    expect((await readdir(dir)).sort()).toEqual([...PACKAGE_FILES, MANIFEST, SIGNATURE_FILE, KEYID_FILE].sort());
    const manifest = JSON.parse(await readFile(join(dir, MANIFEST), 'utf8')) as EvidenceManifest;
    expect(manifest).toMatchObject({
      suiteVersion: result.run.suiteVersion,
      specVersion: '0.0.1',
      target: 'local',
      baseUrl: result.run.baseUrl,
      failOn: 'must',
      failOnIncomplete: false,
    });
    expect(manifest.verdict).toMatchObject({ status: 'NOT CONFORMANT', failed: result.verdict.failed });
    expect(manifest.verdict!.failed).toContain('REQ-TOKEN-06');
    expect(Number.isNaN(Date.parse(manifest.createdAt))).toBe(false);
    for (const name of PACKAGE_FILES) {
      expect(manifest.files[name]).toBe(
        createHash('sha256')
          .update(await readFile(join(dir, name)))
          .digest('hex'),
      );
    }
    expect(await readFile(join(dir, 'report.json'), 'utf8')).toBe(jsonReportText(result));
    expect((await readFile(join(dir, KEYID_FILE), 'utf8')).trim()).toBe(manifest.keyId);
    expect(manifest.keyId).toMatch(/^local-/);
    // The failing check is in the reports, and the HTML footer ties the page to report.json.
    expect(await readFile(join(dir, 'report.html'), 'utf8')).toContain(manifest.files['report.json']);
    expect(await readFile(join(dir, 'junit.xml'), 'utf8')).toContain('auth.token.type-bearer');
    expect(JSON.parse(await readFile(join(dir, 'exchanges.har'), 'utf8')).log.version).toBe('1.2');
    // Only the public half of the key is in the package.
    expect((await Promise.all(PACKAGE_FILES.map((f) => readFile(join(dir, f), 'utf8')))).join('')).not.toMatch(
      /PRIVATE KEY/,
    );
  });

  it('verifies with the public key, as SPKI PEM, JWK or raw base64', async () => {
    const key = createPublicKey(publicKeyPem);
    const jwk = key.export({ format: 'jwk' });
    for (const text of [
      publicKeyPem,
      JSON.stringify(jwk),
      Buffer.from(jwk.x as string, 'base64url').toString('base64'),
    ]) {
      const verdict = await verifyEvidence(dir, parsePublicKey(text, 'key'));
      expect(verdict.summary).toMatch(/^evidence verified: 5 files unchanged since signed with keyid "local-/);
      expect(verdict.ok).toBe(true);
    }
  });

  it('prints a line per file and "evidence verified", exit 0', async () => {
    const keyFile = join(root, 'partner.pem');
    await writeFile(keyFile, publicKeyPem);
    const out = sink();
    expect(await verifyEvidenceCommand(dir, { publicKey: keyFile }, out)).toBe(0);
    const lines = out.text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^✓ manifest\.json +signature verifies with the given public key/);
    for (const name of PACKAGE_FILES)
      expect(lines).toContainEqual(
        expect.stringMatching(new RegExp(`^✓ ${name.replace('.', '\\.')} +sha256 [0-9a-f]{64}$`)),
      );
    // The signed verdict follows: a package of a run limited to one suite, with a fault, is not conformant, and says
    // what the suites left out would need.
    const at = lines.findIndex((l) => l.startsWith('evidence verified'));
    expect(lines[at + 1]).toMatch(
      /^verdict: NOT CONFORMANT: 1 MUST check failed, on \d+ MUST requirements: .*REQ-TOKEN-06.*; \d+ more not exercised \(fail-on must\)$/,
    );
    expect(lines[at + 2]).toBe(
      '  to exercise the rest: run without --suite (or with its suite named); run with --long',
    );
    expect(lines).toHaveLength(at + 3);
    expect(out.text).not.toMatch(/note: the public key comes from the package/);
  });

  it('fails when one byte of report.html is edited, naming the file (exit 1)', async () => {
    const tampered = await copy('one-byte');
    const file = join(tampered, 'report.html');
    const bytes = await readFile(file);
    const at = bytes.indexOf('FAIL');
    bytes[at] = 'P'.charCodeAt(0);
    await writeFile(file, bytes);
    const verdict = await verifyEvidence(tampered, createPublicKey(publicKeyPem));
    expect(verdict.ok).toBe(false);
    expect(verdict.signature.ok).toBe(true);
    expect(verdict.files.filter((f) => !f.ok).map((f) => f.name)).toEqual(['report.html']);
    expect(verdict.summary).toBe(
      'evidence NOT verified: report.html differs from the signed manifest: the file was changed after signing',
    );
    const out = sink();
    expect(await verifyEvidenceCommand(tampered, { publicKey: join(tampered, 'public-key.pem') }, out)).toBe(1);
    expect(out.text).toMatch(/^✗ report\.html +differs/m);
    expect(out.text).toMatch(/note: the public key comes from the package itself/);
  });

  it('fails when the manifest is edited to match an edited file', async () => {
    const tampered = await copy('manifest-edit');
    await writeFile(join(tampered, 'report.json'), '{}\n');
    const manifest = JSON.parse(await readFile(join(tampered, MANIFEST), 'utf8')) as EvidenceManifest;
    manifest.files['report.json'] = createHash('sha256').update('{}\n').digest('hex');
    await writeFile(join(tampered, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    const verdict = await verifyEvidence(tampered, createPublicKey(publicKeyPem));
    expect(verdict.ok).toBe(false);
    expect(verdict.signature.ok).toBe(false);
    expect(verdict.summary).toMatch(/^evidence NOT verified: the signature of manifest\.json does not verify/);
  });

  it('fails with another public key (exit 1)', async () => {
    const other = generateKeyPairSync('ed25519').publicKey.export({ format: 'pem', type: 'spki' }).toString();
    const keyFile = join(root, 'other.pem');
    await writeFile(keyFile, other);
    const out = sink();
    expect(await verifyEvidenceCommand(dir, { publicKey: keyFile }, out)).toBe(1);
    // The verdict first, and no ✓ for a file that only matches a manifest nobody vouches for.
    expect(out.text.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        /^evidence NOT verified: the signature of manifest\.json does not verify with the given public key/,
      ),
      expect.stringMatching(/^✗ manifest\.json +not verified \(the package names keyid "local-[0-9a-f]+"\)$/),
      `· the ${PACKAGE_FILES.length} listed files match their digests in the manifest, which proves nothing while the manifest's signature does not verify`,
    ]);
    expect(out.text).not.toContain('✓');
  });

  it('with another key and a changed file: NOT verified first, the changed file named, the others not ticked', async () => {
    const tampered = await copy('other-key-tampered');
    await writeFile(join(tampered, 'junit.xml'), '<testsuites/>');
    const other = generateKeyPairSync('ed25519').publicKey.export({ format: 'pem', type: 'spki' }).toString();
    const keyFile = join(root, 'other-2.pem');
    await writeFile(keyFile, other);
    const out = sink();
    expect(await verifyEvidenceCommand(tampered, { publicKey: keyFile }, out)).toBe(1);
    const lines = out.text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^evidence NOT verified: the signature of manifest\.json does not verify/);
    expect(lines).toContainEqual(expect.stringMatching(/^✗ junit\.xml +differs from the signed manifest/));
    expect(lines.at(-1)).toBe(
      `· the other ${PACKAGE_FILES.length - 1} listed files match their digests in the manifest, which proves nothing while the manifest's signature does not verify`,
    );
    expect(out.text).not.toContain('✓');
  });

  it('fails when a listed file is missing, and names a file the manifest does not list', async () => {
    const tampered = await copy('missing');
    await rm(join(tampered, 'junit.xml'));
    await writeFile(join(tampered, 'extra.txt'), 'not signed');
    const verdict = await verifyEvidence(tampered, createPublicKey(publicKeyPem));
    expect(verdict.ok).toBe(false);
    expect(verdict.files.find((f) => f.name === 'junit.xml')).toMatchObject({
      ok: false,
      detail: 'is missing from the package',
    });
    expect(verdict.unlisted).toEqual(['extra.txt']);
  });

  it('is a usage error (exit 2) without a manifest, a signature or a readable key', async () => {
    const key = createPublicKey(publicKeyPem);
    await expect(verifyEvidence(join(root, 'nowhere'), key)).rejects.toThrow(ConfigError);
    const noSig = await copy('no-sig');
    await rm(join(noSig, SIGNATURE_FILE));
    await expect(verifyEvidence(noSig, key)).rejects.toThrow(/manifest\.sig is missing/);
    await expect(verifyEvidenceCommand(dir, { publicKey: join(root, 'absent.pem') }, sink())).rejects.toThrow(
      /--public-key .*cannot be read/,
    );
    const junk = join(root, 'junk.pem');
    await writeFile(junk, 'not a key');
    await expect(verifyEvidenceCommand(dir, { publicKey: junk }, sink())).rejects.toMatchObject({ exitCode: 2 });
    const privatePem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(() => parsePublicKey(privatePem, 'key')).toThrow(/private key/);
  });

  it('is the compiled CLI command verify-evidence, with exit codes 0, 1 and 2', async () => {
    const keyFile = join(root, 'cli.pem');
    await writeFile(keyFile, publicKeyPem);
    const good = await runCli(['verify-evidence', dir, '--public-key', keyFile]);
    expect(good.stderr).toBe('');
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/^evidence verified.*\nverdict: NOT CONFORMANT: /m);
    const tampered = await copy('cli-tampered');
    await writeFile(join(tampered, 'exchanges.har'), '{}');
    const bad = await runCli(['verify-evidence', tampered, '--public-key', keyFile]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^evidence NOT verified: exchanges\.har differs/m);
    const usage = await runCli(['verify-evidence', join(root, 'nowhere'), '--public-key', keyFile]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^conformance: .*nowhere cannot be read as a directory/);
    expect((await runCli(['verify-evidence', dir])).code).toBe(2);
  });

  it('refuses, before the run, a directory that holds other files', async () => {
    const busy = await mkdtemp(join(root, 'busy-'));
    await writeFile(join(busy, 'notes.txt'), 'x');
    await expect(checkEvidenceDir(busy)).rejects.toThrow(/holds other files \(notes\.txt\)/);
    await expect(run({ evidence: busy, suites: ['auth'] })).rejects.toThrow(ConfigError);
    // An earlier package in the same place may be replaced.
    await expect(checkEvidenceDir(dir)).resolves.toBeUndefined();
  });
});
