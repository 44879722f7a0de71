// The target config's corporate-network fields (issue 26): `proxy` (a URL or "none"), and the client certificate of
// mutual TLS (`clientCertFile`, `clientKeyFile`, `clientKeyPassphrase` from the environment only). Each problem is one
// line naming the field and what to do (exit 2); no line quotes a password, a passphrase or a key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, selectTarget } from '../../src/config/load.js';
import { ConfigError } from '../../src/errors.js';
import type { ResolvedTarget } from '../../src/config/types.js';
import { makeClientCa, makeClientCertificate, type Pem } from '../helpers/client-certificates.js';

const root = mkdtempSync(path.join(tmpdir(), 'conformance-config-net-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const edPem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const PASSPHRASE = 'test-passphrase-9c1e';
let client: Pem;
let other: Pem;
let encrypted: Pem;
beforeAll(async () => {
  const ca = await makeClientCa();
  client = await makeClientCertificate({ ca });
  other = await makeClientCertificate({ ca, name: 'another client' });
  encrypted = await makeClientCertificate({ ca, passphrase: PASSPHRASE });
});

let counter = 0;
/** A fresh folder with the signing key, the test client certificates, and a config of one target `staging`. */
function project(fields: Record<string, unknown>): string {
  const dir = path.join(root, `p${++counter}`);
  mkdirSync(path.join(dir, 'tls'), { recursive: true });
  const files: Record<string, string> = {
    'client.pem': edPem,
    'tls/client.pem': client.cert,
    'tls/client-key.pem': client.key,
    'tls/both.pem': `${client.cert}${client.key}`,
    'tls/other-key.pem': other.key,
    'tls/encrypted.pem': encrypted.cert,
    'tls/encrypted-key.pem': encrypted.key,
    'tls/not-pem.pem': 'not a certificate',
    'tls/client.p12': 'binary',
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text, { mode: 0o600 });
  const target = {
    baseUrl: 'https://staging.example.com/v1',
    clientId: 'acme',
    clientSecret: 'x-secret',
    keyId: 'acme-2026',
    privateKeyFile: 'client.pem',
    ...fields,
  };
  writeFileSync(path.join(dir, 'conformance.config.json'), JSON.stringify({ targets: { staging: target } }));
  return dir;
}

async function loaded(fields: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): Promise<ResolvedTarget> {
  return selectTarget(await loadConfig({ cwd: project(fields), env, warn: () => undefined }), 'staging');
}

async function refused(fields: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): Promise<ConfigError> {
  const err = await loaded(fields, env).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  const e = err as ConfigError;
  expect(e.exitCode).toBe(2);
  expect(e.message).not.toContain('\n');
  for (const secret of [PASSPHRASE, 'pr0xy-pw', client.key.split('\n')[1]!]) expect(e.message).not.toContain(secret);
  return e;
}

describe('proxy', () => {
  it('takes a proxy URL (credentials from the environment) or "none"', async () => {
    expect((await loaded({ proxy: 'http://proxy.corp:3128' })).proxy).toBe('http://proxy.corp:3128');
    expect((await loaded({ proxy: 'none' })).proxy).toBe('none');
    expect(
      (await loaded({ proxy: 'http://u:${PROXY_PASSWORD}@proxy:3128' }, { PROXY_PASSWORD: 'pr0xy-pw' })).proxy,
    ).toBe('http://u:pr0xy-pw@proxy:3128');
    expect((await loaded({})).proxy).toBeUndefined();
  });

  it('refuses another scheme, and never quotes the URL', async () => {
    const e = await refused({ proxy: 'socks5://u:pr0xy-pw@proxy:1080' });
    expect(e.message).toBe(
      'config: targets.staging.proxy is a socks5 proxy: only http:// and https:// proxies are supported, e.g. http://proxy.example.com:3128, or "none" to reach the target directly',
    );
  });
});

describe('client certificate', () => {
  it('reads the certificate and its key, from two files or one', async () => {
    const t = await loaded({ clientCertFile: 'tls/client.pem', clientKeyFile: 'tls/client-key.pem' });
    expect(t.clientCertificate).toMatchObject({ cert: `${client.cert.trim()}\n`, key: `${client.key.trim()}\n` });
    expect(t.clientCertificate?.label).toMatch(
      /^tls\/client\.pem \(subject CN=conformance test client, issuer CN=conformance test client CA, valid until \d{4}-\d\d-\d\d\)$/,
    );
    const both = await loaded({ clientCertFile: 'tls/both.pem' });
    expect(both.clientCertificate?.key).toContain('PRIVATE KEY');
  });

  it('opens an encrypted key with the passphrase from the environment', async () => {
    const t = await loaded(
      {
        clientCertFile: 'tls/encrypted.pem',
        clientKeyFile: 'tls/encrypted-key.pem',
        clientKeyPassphrase: '${CLIENT_KEY_PASSPHRASE}',
      },
      { CLIENT_KEY_PASSPHRASE: PASSPHRASE },
    );
    expect(t.clientCertificate?.passphrase).toBe(PASSPHRASE);
  });

  const cases: Array<[string, Record<string, unknown>, NodeJS.ProcessEnv, string]> = [
    [
      'a missing file',
      { clientCertFile: 'tls/nope.pem', clientKeyFile: 'tls/client-key.pem' },
      {},
      "config: targets.staging.clientCertFile (tls/nope.pem) does not exist (looked at DIR/tls/nope.pem): check the path; a relative path starts from the config file's folder",
    ],
    [
      'a file that is not PEM',
      { clientCertFile: 'tls/not-pem.pem', clientKeyFile: 'tls/client-key.pem' },
      {},
      'config: targets.staging.clientCertFile (tls/not-pem.pem) holds no PEM certificate ("-----BEGIN CERTIFICATE-----"): give the client certificate the provider issued, in PEM form',
    ],
    [
      'a PKCS#12 file',
      { clientCertFile: 'tls/client.p12', clientKeyFile: 'tls/client-key.pem' },
      {},
      'config: targets.staging.clientCertFile (tls/client.p12) holds no PEM certificate ("-----BEGIN CERTIFICATE-----") (a .p12/.pfx file is not PEM: convert it with \'openssl pkcs12 -in tls/client.p12 -out client.pem -nodes\'): give the client certificate the provider issued, in PEM form',
    ],
    [
      'no key anywhere',
      { clientCertFile: 'tls/client.pem' },
      {},
      'config: targets.staging.clientCertFile (tls/client.pem) holds no private key, and no clientKeyFile is given: add "clientKeyFile", the path of the certificate\'s PEM private key',
    ],
    [
      'a key file without a key',
      { clientCertFile: 'tls/client.pem', clientKeyFile: 'tls/client.pem' },
      {},
      'config: targets.staging.clientKeyFile (tls/client.pem) holds no PEM private key ("-----BEGIN … PRIVATE KEY-----"): give the private key of clientCertFile, in PEM form',
    ],
    [
      'the key of another certificate',
      { clientCertFile: 'tls/client.pem', clientKeyFile: 'tls/other-key.pem' },
      {},
      'config: targets.staging.clientKeyFile (tls/other-key.pem) is not the key of targets.staging.clientCertFile (tls/client.pem) (subject CN=conformance test client): give the key that belongs to that certificate',
    ],
    [
      'an encrypted key without a passphrase',
      { clientCertFile: 'tls/encrypted.pem', clientKeyFile: 'tls/encrypted-key.pem' },
      {},
      'config: targets.staging.clientKeyFile (tls/encrypted-key.pem) is encrypted and no passphrase is given: add "clientKeyPassphrase": "${CONFORMANCE_CLIENT_KEY_PASSPHRASE}" and export that variable',
    ],
    [
      'a wrong passphrase',
      { clientCertFile: 'tls/encrypted.pem', clientKeyFile: 'tls/encrypted-key.pem', clientKeyPassphrase: '${P}' },
      { P: 'not-it' },
      'config: targets.staging.clientKeyFile (tls/encrypted-key.pem) cannot be opened with clientKeyPassphrase (wrong passphrase?): check the variable it names',
    ],
    [
      'a passphrase written in the file',
      { clientCertFile: 'tls/encrypted.pem', clientKeyFile: 'tls/encrypted-key.pem', clientKeyPassphrase: PASSPHRASE },
      {},
      'config: targets.staging.clientKeyPassphrase must name an environment variable, e.g. "${CONFORMANCE_CLIENT_KEY_PASSPHRASE}": a passphrase written in the file is a secret in plain text; move it to the environment',
    ],
    [
      'a key without its certificate',
      { clientKeyFile: 'tls/client-key.pem' },
      {},
      'config: targets.staging.clientKeyFile is given without targets.staging.clientCertFile: add clientCertFile, the PEM certificate the key belongs to, or remove clientKeyFile',
    ],
  ];
  for (const [what, fields, env, line] of cases)
    it(`refuses ${what} in one line`, async () => {
      const e = await refused(fields, env);
      expect(e.message.replace(/\(looked at [^)]*\/(tls\/[^)]*)\)/, '(looked at DIR/$1)')).toBe(line);
    });

  it('warns of a client key others can read', async () => {
    const warned: string[] = [];
    const dir = project({ clientCertFile: 'tls/client.pem', clientKeyFile: 'tls/client-key.pem' });
    const { chmodSync } = await import('node:fs');
    chmodSync(path.join(dir, 'tls', 'client-key.pem'), 0o644);
    await loadConfig({ cwd: dir, env: {}, warn: (l) => warned.push(l) });
    expect(warned).toEqual([
      expect.stringMatching(
        /^conformance: warning: targets\.staging\.clientKeyFile \(tls\/client-key\.pem\) is readable by others \(mode 0644\)/,
      ),
    ]);
  });
});
