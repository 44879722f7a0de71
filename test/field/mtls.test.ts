// Mutual TLS in front of a financial API (issue 26): `conformance serve --client-ca` requires a client certificate
// issued by a CA, as a partner's gateway does. With the certificate in the target's config (its key encrypted, the
// passphrase from the environment) a whole run passes; without it, or with one that CA did not issue, the run stops
// with one line naming clientCertFile. Test certificates are made at test time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, runCli, waitForOutput } from '../helpers/cli.js';
import { makeClientCa, makeClientCertificate } from '../helpers/client-certificates.js';
import { NO_PROXY_ENV, expectPassedWhole } from '../helpers/network-target.js';
import { WAIT_MS } from '../helpers/waits.js';

const PASSPHRASE = 'field-test-passphrase';

describe('a run against a server that requires a client certificate (serve --client-ca)', () => {
  let dir: string;
  let child: ChildProcess;
  let baseUrl: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'conformance-mtls-'));
    const ca = await makeClientCa();
    const client = await makeClientCertificate({ ca, passphrase: PASSPHRASE });
    const stranger = await makeClientCertificate({ name: 'stranger' });
    for (const [name, text] of Object.entries({
      'client-ca.pem': ca.cert,
      'client.pem': client.cert,
      'client-key.pem': client.key,
      'stranger.pem': stranger.cert,
      'stranger-key.pem': stranger.key,
    }))
      writeFileSync(join(dir, name), text, { mode: 0o600 });
    child = spawn(
      process.execPath,
      [BIN, 'serve', '--client-ca', 'client-ca.pem', '--config-out', 'sandbox.json', '-q'],
      {
        cwd: dir,
        env: { ...process.env, NO_COLOR: '1' },
      },
    );
    const banner = await waitForOutput(child, /Press Ctrl-C to stop\./);
    expect(banner).toMatch(
      /^ {2}tls {8}https with a self-signed certificate for 127\.0\.0\.1 and loopback; a client certificate issued by client-ca\.pem \(--client-ca\) is required/m,
    );
    // The sandbox's config, and beside it the same target with each client certificate.
    const config = JSON.parse(readFileSync(join(dir, 'sandbox.json'), 'utf8')) as {
      targets: { sandbox: Record<string, unknown> & { baseUrl: string } };
    };
    const sandbox = config.targets.sandbox;
    baseUrl = sandbox.baseUrl;
    expect(baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(sandbox.caFile).toBe('./sandbox.server-cert.pem');
    config.targets = {
      sandbox,
      certified: {
        ...sandbox,
        clientCertFile: './client.pem',
        clientKeyFile: './client-key.pem',
        clientKeyPassphrase: '${CLIENT_KEY_PASSPHRASE}',
      },
      stranger: { ...sandbox, clientCertFile: './stranger.pem', clientKeyFile: './stranger-key.pem' },
    } as never;
    writeFileSync(join(dir, 'mtls.json'), JSON.stringify(config), { mode: 0o600 });
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });
  const run = (target: string, ...args: string[]) =>
    runCli(['run', '--config', 'mtls.json', '--target', target, ...args], {
      cwd: dir,
      env: { ...NO_PROXY_ENV, CLIENT_KEY_PASSPHRASE: PASSPHRASE },
      limitMs: 5 * WAIT_MS,
    });

  it('passes whole with the certificate, and the notes say which was presented', async () => {
    const json = join(dir, 'whole.json');
    const res = await run('certified', '--json', json, '--fail-on', 'should');
    expect(res.stderr).toBe('');
    expectPassedWhole(res.stdout);
    expect(res.code).toBe(0);
    const notes = (JSON.parse(readFileSync(json, 'utf8')) as { run: { notes: string[] } }).run.notes;
    expect(notes).toContainEqual(
      expect.stringMatching(
        /^mutual TLS: the client certificate presented was \.\/client\.pem \(subject CN=conformance test client, issuer CN=conformance test client CA, valid until \d{4}-\d\d-\d\d\)$/,
      ),
    );
    // No report holds the key's passphrase.
    expect(readFileSync(json, 'utf8')).not.toContain(PASSPHRASE);
  });

  it('stops without a certificate, in one line naming the alert and clientCertFile', async () => {
    const res = await run('sandbox', '--suite', 'auth');
    expect(res.stderr).toBe(
      `conformance: target unreachable: POST ${baseUrl}/oauth/token: TLS: the server requires a client certificate (mutual TLS), and none was presented (alert "certificate required", ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED); give the certificate and key the provider issued (or accepts) for your client in the target's clientCertFile and clientKeyFile (PEM files) [CONFORMANCE_ERR_TARGET_UNREACHABLE]\n`,
    );
    expect(res.code).toBe(3);
  });

  it('stops with a certificate the server does not take, saying to ask which it accepts', async () => {
    const res = await run('stranger', '--suite', 'auth');
    expect(res.stderr).toBe(
      `conformance: target unreachable: POST ${baseUrl}/oauth/token: the server closed the connection without an answer, after a TLS handshake in which the client certificate of clientCertFile was presented (UND_ERR_SOCKET: other side closed); a server that does not accept that certificate closes so: ask the provider which certificate it accepts (its issuer, its subject) and give that one in clientCertFile and clientKeyFile [CONFORMANCE_ERR_TARGET_UNREACHABLE]\n`,
    );
    expect(res.code).toBe(3);
  });
});
