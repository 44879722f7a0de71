// The proxy's CA (issue 30): made on first use (the key beside the certificate, mode 0600), the same pair reused on the
// next start, and a pair that cannot be used (a key readable by others, a garbled PEM, a key of another certificate,
// one file of the two) stops the start with one line naming the file, code CONFORMANCE_ERR_PROXY_CA, exit 2.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { X509Certificate } from 'node:crypto';
import { chmodSync, copyFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProxyCaError } from '../../src/errors.js';
import { caKeyFile, leafFor, loadOrCreateCa } from '../../src/proxy/ca.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'conformance-proxy-ca-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const refused = async (certFile: string) => {
  const err = await loadOrCreateCa(certFile).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProxyCaError);
  const e = err as ProxyCaError;
  expect(e.code).toBe('CONFORMANCE_ERR_PROXY_CA');
  expect(e.exitCode).toBe(2);
  expect(e.message).not.toContain('\n');
  return e.message;
};

describe('the proxy CA', () => {
  it('is made on first use (key 0600 beside it) and reused on the next start', async () => {
    const certFile = join(dir, 'ca.pem');
    const first = await loadOrCreateCa(certFile);
    expect(first.created).toBe(true);
    expect(first.keyFile).toBe(join(dir, 'ca-key.pem'));
    expect(statSync(first.keyFile).mode & 0o777).toBe(0o600);
    expect(new X509Certificate(first.cert).ca).toBe(true);
    const second = await loadOrCreateCa(certFile);
    expect(second.created).toBe(false);
    expect(second.cert).toBe(first.cert);
    expect(second.key).toBe(first.key);
  });

  it('signs a leaf for the host that verifies against it', async () => {
    const ca = await loadOrCreateCa(join(dir, 'ca.pem'));
    const leaf = await leafFor(ca, '127.0.0.1');
    const cert = new X509Certificate(leaf.cert);
    expect(cert.verify(new X509Certificate(ca.cert).publicKey)).toBe(true);
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
  });

  it('refuses a key file readable by others, saying the chmod', async () => {
    const certFile = join(dir, 'ca.pem');
    await loadOrCreateCa(certFile);
    chmodSync(caKeyFile(certFile), 0o644);
    expect(await refused(certFile)).toBe(
      `proxy CA: ${caKeyFile(certFile)} has mode 0644, readable by others than its owner; run 'chmod 600 ${caKeyFile(certFile)}'`,
    );
  });

  it('refuses a garbled certificate and a garbled key', async () => {
    const certFile = join(dir, 'ca.pem');
    const made = await loadOrCreateCa(certFile);
    writeFileSync(certFile, made.cert.replace(/[A-Za-z]{20}/, 'garbled'));
    expect(await refused(certFile)).toMatch(/^proxy CA: .*ca\.pem holds no PEM certificate; delete it and/);
    writeFileSync(certFile, made.cert);
    writeFileSync(caKeyFile(certFile), 'not a key\n', { mode: 0o600 });
    expect(await refused(certFile)).toMatch(/^proxy CA: .*ca-key\.pem holds no PEM private key/);
  });

  it('refuses a key of another CA, and one file of the pair alone', async () => {
    const certFile = join(dir, 'ca.pem');
    await loadOrCreateCa(certFile);
    const other = await loadOrCreateCa(join(dir, 'other.pem'));
    copyFileSync(other.keyFile, caKeyFile(certFile));
    expect(await refused(certFile)).toBe(
      `proxy CA: ${caKeyFile(certFile)} is not the key of ${certFile}; delete both to make a new CA`,
    );
    rmSync(caKeyFile(certFile));
    expect(await refused(certFile)).toBe(
      `proxy CA: ${certFile} is there but ${caKeyFile(certFile)} is not; restore it, or delete ${certFile} and a new CA is made`,
    );
  });
});
