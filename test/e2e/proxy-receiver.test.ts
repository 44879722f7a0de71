// `conformance proxy --receiver URL` end to end (issue 30, the webhook leg): the reference server over TLS in this
// process (trusting the proxy's CA for its deliveries, as `serve --webhook-ca` does), `conformance proxy` as a child in
// front of it and of a small receiver of this test that answers 200, and a signed client through the proxy that
// registers the proxy's printed receiver address (POST /webhooks) and reads GET /webhooks/key. A delivery goes through
// the proxy's receiver leg, unchanged, to the test's receiver; on SIGINT the session is judged: from a clean server the
// delivery verifies (no finding), and from a server whose deliveries carry a wrong Content-Digest,
// webhooks.delivery.verified fails citing the delivery, and the 2xx of the client's receiver to it is recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignedClient } from '../../src/http/client.js';
import { loadOrCreateCa, type ProxyCa } from '../../src/proxy/ca.js';
import { makeCertificate } from '../../src/receiver/certificate.js';
import { startLocalTarget, type LocalTarget } from '../../src/targets/local.js';
import { runCli } from '../helpers/cli.js';
import { deadline, proxyReport, startProxy as startProxyIn, writeStagingConfig } from '../helpers/proxy-session.js';

let dir: string;
let ca: ProxyCa;
const servers: LocalTarget[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'conformance-proxy-receiver-'));
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

/** `conformance proxy --receiver` as a child; resolves once it printed the proxy and the webhook URL to register. */
const startProxy = (args: string[]) => startProxyIn(dir, args);

/** A client through the proxy: a token, POST /webhooks with the proxy's receiver address, GET /webhooks/key. */
async function registerThroughProxy(local: LocalTarget, proxyUrl: string, webhookUrl: string) {
  const t = local.target;
  const client = new SignedClient({
    baseUrl: t.baseUrl,
    clientId: t.clientId,
    keyId: t.keyId,
    privateKey: t.privateKey,
    ca: ca.cert,
    proxy: proxyUrl,
  });
  try {
    const tokenRes = await client.send({
      method: 'POST',
      path: '/oauth/token',
      form: { clientId: t.clientId, clientSecret: t.clientSecret },
      clientId: null,
      token: null,
    });
    expect(tokenRes.status).toBe(200);
    const record = JSON.parse(tokenRes.text) as { token?: string; data?: { token: string } };
    const token = record.data?.token ?? record.token!;
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

const report = (file: string) => proxyReport(dir, file);

describe('conformance proxy --receiver', () => {
  it('forwards a delivery unchanged to the client receiver; from a clean server it verifies, no finding', async () => {
    const { local, config } = await serverAndConfig('clean');
    const receiver = await clientReceiver();
    try {
      const proxy = await startProxy([
        ...['--target', 'staging', '--config', config, '--ca-out', join(dir, 'ca.pem')],
        ...['--receiver', receiver.url, '--json', 'clean.json'],
      ]);
      // The address to register: the leg's, with the path and query of the client's receiver.
      expect(proxy.webhookUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/hooks\/investments\?tenant=7$/);
      expect(proxy.banner).toContain(`in place of ${receiver.url}`);
      await registerThroughProxy(local, proxy.url, proxy.webhookUrl!);
      await receiver.arrived();
      // Forwarded unchanged: its path and query, its signature fields, a JSON body.
      const first = receiver.got[0]!;
      expect(first.method).toBe('POST');
      expect(first.url).toBe('/hooks/investments?tenant=7');
      expect(first.headers['signature-input']).toBeDefined();
      expect(first.headers['content-digest']).toBeDefined();
      expect(() => JSON.parse(first.body) as unknown).not.toThrow();
      await proxy.printed(/^ {2}#\d+ delivery POST \/hooks\/investments\?tenant=7 → 200 from the client's receiver/m);
      const { code, stdout, stderr } = await proxy.end();
      expect(stderr).toBe('');
      expect(stdout).toMatch(/webhook deliver\(ies\) forwarded to http:\/\/127\.0\.0\.1:\d+\/hooks\/investments/);
      expect(code).toBe(0);
      const r = report('clean.json');
      const verified = r.checks.find((c) => c.id === 'webhooks.delivery.verified')!;
      expect(verified.outcome).toBe('pass');
      for (const id of ['webhooks.delivery.digest-covered', 'webhooks.delivery.in-window'])
        expect(r.checks.find((c) => c.id === id)?.outcome).toBe('pass');
      expect(verified.observations?.join('\n')).toMatch(/deliveries carry a matching digest and a signature/);
      expect(r.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn' || c.outcome === 'error')).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  const verified = 'webhooks.delivery.verified';
  // The client's receiver answered 200 to each: its side's failure (SHOULD), judged under --side both, the default here.
  const refuses = 'client.webhooks.refuses-forged';
  it.each([
    {
      fault: 'webhooks.digest-mismatch',
      owners: [
        [verified, 'fail'],
        [refuses, 'warn'],
      ],
      why: /do not verify: #\d+ POST \/hooks\/investments: Content-Digest sha-\d+ does not match the body/,
    },
    {
      // Which key signed is webhooks.key.published's too, as in a run (docs/detection-matrix.md).
      fault: 'webhooks.wrong-signing-key',
      owners: [
        ['webhooks.key.published', 'fail'],
        [verified, 'fail'],
        [refuses, 'warn'],
      ],
      why: /do not verify under the published key: #\d+ POST \/hooks\/investments: signature: the signature does not verify/,
    },
    {
      fault: 'webhooks.unsigned-delivery',
      owners: [
        [verified, 'fail'],
        [refuses, 'warn'],
      ],
      why: /do not verify: #\d+ POST \/hooks\/investments: signature: /,
    },
    {
      fault: 'webhooks.digest-not-covered',
      owners: [['webhooks.delivery.digest-covered', 'warn']],
      why: /does not cover content-digest \(#\d+ POST \/hooks\/investments covering/,
    },
    {
      fault: 'webhooks.expired-signature',
      owners: [['webhooks.delivery.in-window', 'warn']],
      why: /outside their signature's window: #\d+ POST \/hooks\/investments: signature: expired at/,
    },
  ])('from a server with fault $fault: the owning checks fail citing the delivery', async ({ fault, owners, why }) => {
    const { local, config } = await serverAndConfig(fault, [fault]);
    const receiver = await clientReceiver();
    try {
      const proxy = await startProxy([
        ...['--target', 'staging', '--config', config, '--ca-out', join(dir, 'ca.pem')],
        ...['--receiver', receiver.url, '--json', `${fault}.json`, '--fail-on', 'should'],
      ]);
      await registerThroughProxy(local, proxy.url, proxy.webhookUrl!);
      await receiver.arrived();
      await proxy.printed(/^ {2}#\d+ delivery POST /m);
      const { code } = await proxy.end();
      expect(code).toBe(1);
      const r = report(`${fault}.json`);
      const failed = r.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn' || c.outcome === 'error');
      expect(failed.map((c) => [c.id, c.outcome])).toEqual(owners);
      expect(failed[0]!.finding?.message).toMatch(why);
      // The delivery is cited as sent: to the proxy's receiver address, the URL the server signed.
      for (const check of failed)
        expect(check.exchanges.map((e) => [e.checkId, e.request.method, e.request.url])).toContainEqual([
          'observed',
          'POST',
          proxy.webhookUrl,
        ]);
      // The client's receiver answered 200 to a delivery that does not verify: recorded (its side is not judged yet).
      const check = failed.find((c) => c.id === verified);
      if (check !== undefined)
        expect(check.observations?.join('\n')).toMatch(
          /the client's receiver answered 2xx to a delivery that does not verify \(#\d+ POST \/hooks\/investments → 200\).*client\.webhooks\.refuses-forged/,
        );
    } finally {
      await receiver.close();
    }
  });

  it("says so when the server's deliveries fail at the leg's TLS handshake (it does not trust the proxy's CA)", async () => {
    const { local, config } = await serverAndConfig('untrusting', [], false);
    const receiver = await clientReceiver();
    try {
      const proxy = await startProxy([
        ...['--target', 'staging', '--config', config, '--ca-out', join(dir, 'ca.pem')],
        ...['--receiver', receiver.url, '--json', 'untrusting.json'],
      ]);
      await registerThroughProxy(local, proxy.url, proxy.webhookUrl!);
      await proxy.printed(
        /^ {2}webhooks: the server's TLS handshake with the webhook leg failed \(.+\): it must trust/m,
      );
      const { code, stdout } = await proxy.end();
      expect(code).toBe(0);
      expect(stdout).toMatch(
        /0 webhook deliver\(ies\) forwarded to \S+; \d+ TLS handshake\(s\) of the server with the webhook leg failed/,
      );
      expect(receiver.got).toEqual([]);
      const verified = report('untrusting.json').checks.find((c) => c.id === 'webhooks.delivery.verified')!;
      expect(verified.outcome).toBe('skip');
    } finally {
      await receiver.close();
    }
  });

  it('ends in one line and exit 2 for a --receiver that is not an http(s) URL', async () => {
    const { config } = await serverAndConfig('errors');
    const bad = await runCli(['proxy', '--target', 'staging', '--config', config, '--receiver', 'ftp://x/y'], {
      cwd: dir,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toEqual([expect.stringMatching(/--receiver: "ftp:\/\/x\/y" is not an http/)]);
  });
});
