// The set-up of the tests of `conformance proxy --receiver` (test/e2e/proxy-receiver.test.ts and its sweep): the
// reference server over TLS trusting the proxy's CA for its deliveries (as `serve --webhook-ca` does), a config naming
// it target "staging", a receiver of the client's own that answers 200, and a signed client through the proxy that
// registers the proxy's receiver address. The files live in a folder of the test file's, removed after it.
import { afterAll, beforeAll, expect } from 'vitest';
import { createServer, type IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateCa, type ProxyCa } from '../../src/proxy/ca.js';
import { makeCertificate } from '../../src/receiver/certificate.js';
import { startLocalTarget, type LocalTarget } from '../../src/targets/local.js';
import {
  clientThroughProxy,
  deadline,
  proxyReport,
  startProxy as startProxyIn,
  writeStagingConfig,
} from './proxy-session.js';

/** Registers the folder, the CA and the servers' stop with the calling test file; `label` names the folder. */
export function receiverLeg(label: string) {
  let dir: string;
  let ca: ProxyCa;
  const servers: LocalTarget[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `conformance-${label}-`));
    // Made before the server starts, so that the server trusts it for its deliveries (the receiver leg's certificate).
    ca = await loadOrCreateCa(join(dir, 'ca.pem'));
  });
  afterAll(async () => {
    for (const s of servers) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The client's own receiver: answers 200 to everything, and tells each request it got. */
  async function clientReceiver() {
    const got: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }> = [];
    const waiters: Array<() => void> = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() });
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        for (const w of waiters.splice(0)) w();
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as { port: number }).port;
    return {
      url: `http://127.0.0.1:${port}/hooks/investments?tenant=7`,
      got,
      /** Resolves once a request has arrived. */
      arrived: () =>
        deadline(
          new Promise<void>((done) => {
            const check = () => (got.length > 0 ? done() : waiters.push(check));
            check();
          }),
          'delivery at the client receiver',
        ),
      close: () => new Promise<void>((done) => server.close(() => done())),
    };
  }

  async function serverAndConfig(name: string, faults: string[] = [], trustsProxyCa = true) {
    const local = await startLocalTarget({
      tls: await makeCertificate(['127.0.0.1']),
      faults,
      ...(trustsProxyCa ? { webhookCa: ca.cert } : {}),
    });
    servers.push(local);
    return { local, config: writeStagingConfig(dir, name, local) };
  }

  /** A client through the proxy: a token, POST /webhooks with the proxy's receiver address, GET /webhooks/key. */
  async function registerThroughProxy(local: LocalTarget, proxyUrl: string, webhookUrl: string) {
    const { client, token } = await clientThroughProxy(local, { url: proxyUrl, ca: ca.cert });
    try {
      const created = await client.send({
        method: 'POST',
        path: '/webhooks',
        json: { url: webhookUrl, subscriptions: ['ALL'] },
        token,
      });
      expect(created.status).toBeGreaterThanOrEqual(200);
      expect(created.status).toBeLessThan(300);
      const key = await client.send({ method: 'GET', path: '/webhooks/key', token });
      expect(key.status).toBe(200);
    } finally {
      await client.close();
    }
  }

  return {
    /** The test file's folder. */
    dir: () => dir,
    /** Where the proxy writes its CA (--ca-out): the one the server trusts. */
    caOut: () => join(dir, 'ca.pem'),
    clientReceiver,
    serverAndConfig,
    /** `conformance proxy --receiver` as a child; resolves once it printed the proxy and the webhook URL to register. */
    startProxy: (args: string[]) => startProxyIn(dir, args),
    registerThroughProxy,
    /** The proxy's JSON report `file`. */
    report: (file: string) => proxyReport(dir, file),
  };
}
