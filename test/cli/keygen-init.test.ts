// `conformance keygen` and `conformance init`: a key a provider can register and the run can sign with, and a starter
// config that loads once its variables are set. Neither ever replaces an existing file.
import { describe, expect, it } from 'vitest';
import { X509Certificate, createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { generateKeyFile, jwkThumbprint, KEY_FILE_NAME } from '../../src/cli/keygen.js';
import { INIT_ENV, writeStarterConfig } from '../../src/cli/init.js';
import { loadConfig } from '../../src/config/load.js';
import { parsePrivateKeyPem } from '../../src/http/keys.js';
import { ConfigError } from '../../src/errors.js';
import { RECEIVER_CERT_FILE, RECEIVER_KEY_FILE } from '../../src/cli/receiver-certificate.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'conformance-keygen-'));
const DAY_MS = 24 * 60 * 60 * 1000;

/** The receiver certificate in `dir`: its names, how long it is valid from now, and its fingerprint. */
function receiverCertificate(dir: string) {
  const pem = readFileSync(join(dir, RECEIVER_CERT_FILE), 'utf8');
  const x509 = new X509Certificate(pem);
  const key = createPrivateKey(readFileSync(join(dir, RECEIVER_KEY_FILE), 'utf8'));
  return {
    pem,
    san: x509.subjectAltName,
    validDays: Math.round((Date.parse(x509.validTo) - Date.now()) / DAY_MS),
    fingerprint: x509.fingerprint256,
    matchesKey: x509.checkPrivateKey(key),
    keyMode: statSync(join(dir, RECEIVER_KEY_FILE)).mode & 0o777,
  };
}

/** The receiver's certificate in `dir`: for these SANs, valid a year, its key 0600, printed with its fingerprint. */
function expectPrintedCertificate(dir: string, stdout: string, san: string): ReturnType<typeof receiverCertificate> {
  const cert = receiverCertificate(dir);
  expect(cert).toMatchObject({ san, validDays: 365, matchesKey: true });
  if (process.platform !== 'win32') expect(cert.keyMode).toBe(0o600);
  expect(stdout).toContain(`SHA-256 fingerprint ${cert.fingerprint}\n\n${cert.pem.trimEnd()}\n`);
  return cert;
}

describe('conformance keygen', () => {
  it('writes a PKCS8 Ed25519 key with mode 0600 and prints the public key as PEM and JWK, and the config lines', async () => {
    const dir = tmp();
    const res = await runCli(['keygen', '--out', 'keys'], { cwd: dir });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const file = join(dir, 'keys', KEY_FILE_NAME);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    const pem = readFileSync(file, 'utf8');
    expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    const pair = parsePrivateKeyPem(pem);
    // The private key never reaches the terminal.
    expect(res.stdout).not.toContain('PRIVATE KEY-----');
    expect(res.stdout).not.toContain(Buffer.from(pair.seed).toString('base64url'));
    expect(res.stdout).toContain(pair.publicKeyPem.trim());
    const jwk = JSON.parse(/\{\n[^{}]*"kty"[^{}]*\}/.exec(res.stdout)![0]) as {
      kty: string;
      crv: string;
      x: string;
      kid: string;
    };
    expect(jwk).toEqual({
      kty: 'OKP',
      crv: 'Ed25519',
      x: Buffer.from(pair.publicKey).toString('base64url'),
      kid: jwkThumbprint(jwk.x),
    });
    expect(createPublicKey({ key: jwk, format: 'jwk' }).export({ format: 'pem', type: 'spki' }).toString()).toBe(
      pair.publicKeyPem,
    );
    expect(res.stdout).toContain(`"keyId": "${jwk.kid}",`);
    expect(res.stdout).toContain(`"privateKeyFile": "./keys/${KEY_FILE_NAME}",`);
    // No config here: the receiver's certificate goes where the config would be, for loopback, a year, key 0600.
    const cert = expectPrintedCertificate(
      dir,
      res.stdout,
      'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1',
    );
    expect(res.stdout).toContain(
      `Webhook receiver certificate written to ./${RECEIVER_CERT_FILE}, its key to ./${RECEIVER_KEY_FILE} (mode 0600: never send the key).`,
    );
    expect(res.stdout).toContain(
      `      "tls": {"certFile":"./${RECEIVER_CERT_FILE}","keyFile":"./${RECEIVER_KEY_FILE}"}`,
    );
    expect(res.stdout.match(/PRIVATE KEY-----/g)).toBeNull();

    // Run again: the key (perhaps registered already) is kept, and the command says so.
    const again = await runCli(['keygen', '--out', 'keys'], { cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exists and is not overwritten/);
    expect(readFileSync(file, 'utf8')).toBe(pem);
    expect(receiverCertificate(dir).pem).toBe(cert.pem);
  });

  it("makes the receiver's certificate for the hosts of the config's webhook settings, and keeps one that exists", async () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 'ci.json'),
      JSON.stringify({
        targets: {
          staging: { webhook: { listen: '0.0.0.0:8443', publicUrl: 'https://hooks.example.com/conformance' } },
          partner: { webhook: { publicUrl: '${HOOKS_URL}' } },
        },
      }),
    );
    const res = await runCli(['keygen', '--config', 'ci.json'], { cwd: dir });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    // A public name only: nothing of loopback in a certificate a provider trusts for hooks.example.com.
    expect(receiverCertificate(dir).san).toBe('DNS:hooks.example.com');
    expect(res.stdout).toMatch(/Valid until \d{4}-\d\d-\d\d for hooks\.example\.com\. Hand it to the provider/);
    expect(res.stdout).not.toMatch(/reach this machine only/);

    // The signing key moved away: keygen makes another, and keeps the certificate the provider may trust already.
    const kept = receiverCertificate(dir);
    const again = await runCli(['keygen', '--config', 'ci.json', '--out', 'second'], { cwd: dir });
    expect(again.code).toBe(0);
    expect(receiverCertificate(dir).pem).toBe(kept.pem);
    // It says so in one line: the certificate was printed when it was made, and nothing of it changed.
    expect(again.stdout).toContain(
      `Webhook receiver certificate ./${RECEIVER_CERT_FILE} exists and is kept, with its key ./${RECEIVER_KEY_FILE}: unchanged (SHA-256 fingerprint ${kept.fingerprint}, valid until `,
    );
    expect(again.stdout).not.toContain('BEGIN CERTIFICATE');
    expect(again.stdout).not.toMatch(/Hand it to the provider/);
    // What is new is still there: the new key, and the config lines for it and for the certificate.
    expect(again.stdout).toContain(`"privateKeyFile": "./second/${KEY_FILE_NAME}",`);
    expect(again.stdout).toContain(
      `      "tls": {"certFile":"./${RECEIVER_CERT_FILE}","keyFile":"./${RECEIVER_KEY_FILE}"}`,
    );
  });

  it('refuses, before writing anything, a receiver key without its certificate', async () => {
    const dir = tmp();
    writeFileSync(join(dir, RECEIVER_KEY_FILE), 'a key the provider may know');
    const res = await runCli(['keygen'], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      `conformance: ${join(dir, RECEIVER_KEY_FILE)} exists but ${join(dir, RECEIVER_CERT_FILE)} does not: the webhook receiver needs both; restore ${RECEIVER_CERT_FILE}, or move ${RECEIVER_KEY_FILE} away to make a new pair [CONFORMANCE_ERR_OUTPUT_PATH]\n`,
    );
    expect(existsSync(join(dir, KEY_FILE_NAME))).toBe(false);
    expect(readFileSync(join(dir, RECEIVER_KEY_FILE), 'utf8')).toBe('a key the provider may know');
    const init = await runCli(['init'], { cwd: dir });
    expect(init.code).toBe(2);
    expect(existsSync(join(dir, 'conformance.config.json'))).toBe(false);
  });

  it('computes the RFC 7638 thumbprint of an OKP key as RFC 8037 appendix A.3 gives it', () => {
    expect(jwkThumbprint('11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo')).toBe(
      'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k',
    );
  });

  it('refuses to overwrite in-process too (exit 2), whatever the file holds', async () => {
    const dir = tmp();
    writeFileSync(join(dir, KEY_FILE_NAME), 'something');
    await expect(generateKeyFile({ cwd: dir })).rejects.toThrow(ConfigError);
    expect(readFileSync(join(dir, KEY_FILE_NAME), 'utf8')).toBe('something');
  });
});

describe('conformance init', () => {
  it('writes conformance.config.json that loads with loadConfig once its variables are set, and never overwrites', async () => {
    const dir = tmp();
    const res = await runCli(['init', '--target', 'partner-staging'], { cwd: dir });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('npx conformance run --target partner-staging');
    const text = readFileSync(join(dir, 'conformance.config.json'), 'utf8');
    const doc = JSON.parse(text) as {
      $schema: string;
      $comment: string;
      targets: Record<string, Record<string, unknown>>;
    };
    expect(doc.$schema).toBe('./node_modules/investment-api-conformance/schemas/config.schema.json');
    expect(doc.$comment).toMatch(/conformance init/);
    const target = doc.targets['partner-staging']!;
    expect(Object.keys(target)).toEqual([
      '$comment',
      'baseUrl',
      'clientId',
      'clientSecret',
      'keyId',
      'privateKey',
      'fixtures',
      'webhook',
    ]);
    expect(target).toMatchObject({
      clientSecret: `\${${INIT_ENV.clientSecret}}`,
      privateKey: `\${${INIT_ENV.privateKey}}`,
    });
    // The corporate-network fields are named, not written: their files would not exist yet.
    expect(target.$comment).toMatch(
      /HTTPS_PROXY and NO_PROXY are honoured; add "proxy".*"clientCertFile".*"clientKeyFile"/,
    );
    expect((target.fixtures as Record<string, unknown>).$comment).toBeTypeOf('string');
    expect((target.webhook as Record<string, unknown>).$comment).toBeTypeOf('string');

    const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const env = { [INIT_ENV.clientSecret]: 's3cret', [INIT_ENV.privateKey]: pem };
    const config = await loadConfig({ cwd: dir, env, target: 'partner-staging' });
    const loaded = config.targets['partner-staging']!;
    expect(loaded).toMatchObject({
      baseUrl: 'https://partner-staging.example.com/v1',
      clientId: 'your-client-id',
      clientSecret: 's3cret',
      keyId: 'your-key-id',
      fixtures: {},
    });
    expect(Buffer.from(loaded.privateKey)).toEqual(
      Buffer.from(createPrivateKey(pem).export({ format: 'jwk' }).d as string, 'base64url'),
    );
    // The receiver presents the certificate init made beside the config, for loopback, valid a year, its key 0600.
    expect(loaded.webhook).toEqual({
      listen: '127.0.0.1:0',
      tls: { certFile: join(dir, RECEIVER_CERT_FILE), keyFile: join(dir, RECEIVER_KEY_FILE) },
    });
    const cert = expectPrintedCertificate(
      dir,
      res.stdout,
      'IP Address:127.0.0.1, DNS:localhost, IP Address:0:0:0:0:0:0:0:1',
    );
    expect(res.stdout).toContain(
      "  3. hand the webhook receiver's certificate below to the provider, for their server to trust",
    );
    expect(res.stdout).toMatch(/Those names reach this machine only/);
    // keygen afterwards keeps it, and needs no config line for it: the config names it already. It prints only what is
    // new: the key; the certificate init printed a minute earlier is named in one line, not printed again.
    const keygen = await runCli(['keygen'], { cwd: dir });
    expect(keygen.code).toBe(0);
    expect(keygen.stdout).toMatch(
      new RegExp(
        `exists and is kept, with its key \\./${RECEIVER_KEY_FILE}: unchanged \\(SHA-256 fingerprint ${cert.fingerprint}, valid until \\d{4}-\\d\\d-\\d\\d\\), nothing new to hand to the provider\\.\\n`,
      ),
    );
    expect(keygen.stdout).not.toContain('BEGIN CERTIFICATE');
    expect(keygen.stdout).not.toMatch(/reach this machine only/);
    expect(keygen.stdout).toContain('BEGIN PUBLIC KEY');
    expect(keygen.stdout).not.toContain('"tls":');
    expect(receiverCertificate(dir).pem).toBe(cert.pem);
    // Without the variables, loading names the one to set.
    await expect(loadConfig({ cwd: dir, env: {}, target: 'partner-staging' })).rejects.toThrow(
      new RegExp(`uses \\$\\{${INIT_ENV.clientSecret}\\}, which is not set`),
    );

    const again = await runCli(['init'], { cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exists and is not overwritten/);
    expect(readFileSync(join(dir, 'conformance.config.json'), 'utf8')).toBe(text);
  });

  it('writes elsewhere with --out (into a folder that exists), and refuses the reserved target name', async () => {
    const dir = tmp();
    // A missing folder is reported, not created: the path may be mistyped.
    await expect(writeStarterConfig({ cwd: dir, out: 'ci/conformance.json', target: 'prod' })).rejects.toThrow(
      /check the folder exists/,
    );
    mkdirSync(join(dir, 'ci'));
    const { file } = await writeStarterConfig({ cwd: dir, out: 'ci/conformance.json', target: 'prod' });
    expect(file).toBe(join(dir, 'ci', 'conformance.json'));
    const config = await loadConfig({
      configPath: file,
      env: {
        [INIT_ENV.clientSecret]: 'x',
        [INIT_ENV.privateKey]: generateKeyPairSync('ed25519')
          .privateKey.export({ format: 'pem', type: 'pkcs8' })
          .toString(),
      },
    });
    expect(Object.keys(config.targets)).toEqual(['prod']);
    await expect(writeStarterConfig({ cwd: dir, out: 'x.json', target: 'local' })).rejects.toThrow(
      /"local" is the built-in target/,
    );
  });
});
