// Corporate networks (issue 26), in process and fast: a run through a forward proxy (a small CONNECT proxy; the field
// set-up test/field/proxy.test.ts runs Debian's squid), and a run against a server that requires a client certificate.
// What passes, what the notes say, and the one line a run stops with when the proxy or the TLS handshake refuses.
import { createServer as createHttpsServer } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pack } from '../../suites/index.js';
import { runChecks, type RunResult } from '../../src/engine/index.js';
import { startLocalTarget, type LocalTarget } from '../../src/targets/local.js';
import { makeCertificate } from '../../src/receiver/certificate.js';
import { harText } from '../../src/report/har.js';
import { jsonReportText } from '../../src/report/json.js';
import type { ResolvedTarget } from '../../src/config/types.js';
import { SignedClient } from '../../src/http/client.js';
import { generateEd25519 } from '../../src/http/keys.js';
import { startConnectProxy, type ConnectProxy } from '../helpers/connect-proxy.js';
import { startEchoServer } from '../helpers/echo-server.js';
import { makeClientCa, makeClientCertificate, type Pem } from '../helpers/client-certificates.js';

/** A token, two reads, a PUT put back: the route carries every kind of request, in a second or so. */
const SELECTION = {
  grep: '^auth\\.token\\.issued$|^resources\\.(customers|accounts)\\.get$|^resources\\.customers\\.update$',
};

async function run(target: ResolvedTarget): Promise<RunResult> {
  return runChecks({ pack, target, selection: SELECTION, failOn: 'should' });
}

/** The one line a run stops with before any check (exit 3). */
async function stopLine(target: ResolvedTarget): Promise<string> {
  const e = await run(target).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(Error);
  return (e as Error).message;
}

describe('a run through a forward proxy', () => {
  let local: LocalTarget;
  const proxies: ConnectProxy[] = [];
  beforeAll(async () => {
    local = await startLocalTarget();
  });
  afterAll(async () => {
    for (const p of proxies) await p.close();
    await local?.stop();
  });
  const proxy = async (options: Parameters<typeof startConnectProxy>[0] = {}) => {
    const p = await startConnectProxy(options);
    proxies.push(p);
    return p;
  };

  it('passes, every request in the tunnel, and the notes name the proxy', async () => {
    const p = await proxy();
    const result = await run({ ...local.target, proxy: p.url });
    expect(result.totals).toMatchObject({ passed: 4, failed: 0, warned: 0, errored: 0 });
    const port = new URL(local.target.baseUrl).port;
    expect(p.connects.length).toBeGreaterThan(0);
    expect(new Set(p.connects.map((c) => c.target))).toEqual(new Set([`127.0.0.1:${port}`]));
    expect(result.run.notes).toContain(
      `network: the target was reached through the proxy ${p.url} (the target's "proxy"), in a tunnel (CONNECT 127.0.0.1:${port}): the proxy passed the bytes on and saw none of them`,
    );
  });

  it('carries each request as the client made it: a field given twice goes twice, its values in order', async () => {
    const p = await proxy();
    const echo = await startEchoServer((_req, res) => res.end('{}'));
    const client = new SignedClient({
      baseUrl: `${echo.origin}/v1`,
      clientId: 'c',
      keyId: 'k',
      privateKey: generateEd25519().seed,
      proxy: p.url,
    });
    try {
      const res = await client.send({
        method: 'GET',
        path: '/x',
        headers: [
          ['X-Twice', 'one'],
          ['X-Once', 'a'],
          ['X-Twice', 'two'],
        ],
      });
      expect(res.status).toBe(200);
      const got = echo.received[0]!.headers.filter(([n]) => /^x-(twice|once)$/i.test(n));
      expect(got).toEqual([
        ['X-Twice', 'one'],
        ['X-Twice', 'two'],
        ['X-Once', 'a'],
      ]);
      expect(p.connects.map((c) => c.target)).toEqual([new URL(echo.origin).host]);
    } finally {
      await client.close();
      await echo.close();
    }
  });

  it('sends the user name and password of the proxy URL to the proxy, and no report holds the password', async () => {
    const password = 'pr0xy-Pa55word';
    const p = await proxy({ authorization: `Basic ${Buffer.from(`alice:${password}`).toString('base64')}` });
    const withAuth = p.url.replace('http://', `http://alice:${password}@`);
    const result = await run({ ...local.target, proxy: withAuth });
    expect(result.totals).toMatchObject({ failed: 0, errored: 0 });
    expect(result.run.notes?.some((n) => n.includes('the proxy http://[redacted]@127.0.0.1:'))).toBe(true);
    const reports = jsonReportText(result) + harText(result);
    expect(reports).not.toContain(password);
    expect(reports).not.toContain(Buffer.from(`alice:${password}`).toString('base64'));
  });

  it('stops with one line naming the proxy when it asks for credentials (407)', async () => {
    const p = await proxy({ authorization: 'Basic never' });
    expect(await stopLine({ ...local.target, proxy: p.url })).toBe(
      `target unreachable: POST ${local.target.baseUrl}/oauth/token: the proxy ${p.url} (the target's "proxy") asks for a user name and password (answered 407 Proxy Authentication Required); the target was not tried; give them in the target's "proxy": http://USER:PASSWORD@HOST:PORT (special characters percent-encoded)`,
    );
  });

  it('stops with one line naming the proxy when it refuses the tunnel (403) or cannot be reached', async () => {
    const p = await proxy({ refuse: 403 });
    const port = new URL(local.target.baseUrl).port;
    expect(await stopLine({ ...local.target, proxy: p.url })).toBe(
      `target unreachable: POST ${local.target.baseUrl}/oauth/token: the proxy ${p.url} (the target's "proxy") refused to open a tunnel to 127.0.0.1:${port} (answered 403 Forbidden); the target was not tried; ask the proxy's administrators to allow CONNECT to 127.0.0.1:${port} (many proxies allow port 443 only), or, if the target is reachable without a proxy, add its host to NO_PROXY or set the target's "proxy" to "none"`,
    );
    const gone = await proxy();
    await gone.close();
    expect(await stopLine({ ...local.target, proxy: gone.url })).toBe(
      `target unreachable: POST ${local.target.baseUrl}/oauth/token: the proxy ${gone.url} (the target's "proxy") cannot be reached: nothing listens there (ECONNREFUSED); the target was not tried; check the target's "proxy", or, if the target is reachable without a proxy, add its host to NO_PROXY or set the target's "proxy" to "none"`,
    );
  });
});

describe('a run against a server that requires a client certificate (mutual TLS)', () => {
  let local: LocalTarget;
  let ca: Pem;
  let client: Pem;
  beforeAll(async () => {
    ca = await makeClientCa();
    client = await makeClientCertificate({ ca });
    const server = await makeCertificate(['127.0.0.1', 'localhost']);
    local = await startLocalTarget({ tls: { ...server, clientCa: ca.cert } });
  });
  afterAll(async () => {
    await local?.stop();
  });
  const withCertificate = (pem: Pem): ResolvedTarget => ({
    ...local.target,
    clientCertificate: { ...pem, label: './client.pem (subject CN=conformance test client)' },
  });

  it('passes with the certificate, and the notes say which was presented', async () => {
    const result = await run(withCertificate(client));
    expect(result.totals).toMatchObject({ passed: 4, failed: 0, warned: 0, errored: 0 });
    expect(result.run.notes).toContain(
      'mutual TLS: the client certificate presented was ./client.pem (subject CN=conformance test client)',
    );
  });

  it('takes an encrypted key with its passphrase', async () => {
    const encrypted = await makeClientCertificate({ ca, passphrase: 'test-passphrase' });
    expect(encrypted.key).toContain('ENCRYPTED PRIVATE KEY');
    const target = withCertificate(encrypted);
    target.clientCertificate!.passphrase = 'test-passphrase';
    expect((await run(target)).totals).toMatchObject({ failed: 0, errored: 0 });
  });

  it('stops without one, in one line naming the alert and clientCertFile', async () => {
    expect(await stopLine(local.target)).toBe(
      `target unreachable: POST ${local.target.baseUrl}/oauth/token: TLS: the server requires a client certificate (mutual TLS), and none was presented (alert "certificate required", ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED); give the certificate and key the provider issued (or accepts) for your client in the target's clientCertFile and clientKeyFile (PEM files)`,
    );
  });

  it('stops with a certificate the server does not take, saying which certificate to ask for', async () => {
    const stranger = await makeClientCertificate({ name: 'stranger' });
    expect(await stopLine(withCertificate(stranger))).toBe(
      `target unreachable: POST ${local.target.baseUrl}/oauth/token: the server closed the connection without an answer, after a TLS handshake in which the client certificate of clientCertFile was presented (UND_ERR_SOCKET: other side closed); a server that does not accept that certificate closes so: ask the provider which certificate it accepts (its issuer, its subject) and give that one in clientCertFile and clientKeyFile`,
    );
  });

  it('passes through a proxy too: the certificate goes in the tunnel', async () => {
    const p = await startConnectProxy();
    try {
      const result = await run({ ...withCertificate(client), proxy: p.url });
      expect(result.totals).toMatchObject({ failed: 0, errored: 0 });
      expect(p.connects.length).toBeGreaterThan(0);
    } finally {
      await p.close();
    }
  });
});

describe('the TLS failures of the route, from a client alone', () => {
  /** One request of a signed client to a bare https server; the failure it ends in. */
  async function failure(
    serverOptions: Parameters<typeof createHttpsServer>[0],
    client: { ca?: string; proxy?: string },
  ): Promise<{ message: string; advice?: string }> {
    const server = createHttpsServer(serverOptions, (_req, res) => res.end('{}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const signed = new SignedClient({
      baseUrl: `https://127.0.0.1:${(server.address() as { port: number }).port}/v1`,
      clientId: 'c',
      keyId: 'k',
      privateKey: generateEd25519().seed,
      ...client,
    });
    try {
      const e = await signed.send({ method: 'GET', path: '/x' }).then(
        () => undefined,
        (err: unknown) => err as { message: string; failure: { advice?: string } },
      );
      expect(e).toBeDefined();
      return { message: e!.message, ...(e!.failure.advice !== undefined ? { advice: e!.failure.advice } : {}) };
    } finally {
      await signed.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  it('names a TLS 1.2 server that ends the handshake without the client certificate it requires', async () => {
    const ca = await makeClientCa();
    const server = await makeCertificate(['127.0.0.1']);
    expect(
      await failure(
        { ...server, requestCert: true, rejectUnauthorized: true, ca: ca.cert, maxVersion: 'TLSv1.2' },
        { ca: server.cert },
      ),
    ).toEqual({
      message:
        'TLS: the server refused the TLS handshake, as a server that requires a client certificate (mutual TLS) does when none is presented (alert "handshake failure", ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE)',
      advice:
        "give the certificate and key the provider issued (or accepts) for your client in the target's clientCertFile and clientKeyFile (PEM files)",
    });
  });

  it("says a certificate not trusted through a proxy may be the proxy's own (TLS inspection)", async () => {
    const p = await startConnectProxy();
    try {
      const server = await makeCertificate(['127.0.0.1']);
      const got = await failure(server, { proxy: p.url });
      expect(got.message).toMatch(
        /^TLS: the certificate presented for 127\.0\.0\.1:\d+ through the proxy http:\/\/127\.0\.0\.1:\d+ \(the target's "proxy"\) is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\)$/,
      );
      expect(got.advice).toBe(
        "a proxy that inspects TLS presents certificates of its own CA: give that CA (or the target's) in the target's caFile or in NODE_EXTRA_CA_CERTS",
      );
    } finally {
      await p.close();
    }
  });
});
