// The proxy's webhook leg (issue 30, `receiver`): a second loopback listener, HTTPS with a leaf of the proxy's CA, in
// front of the client's receiver. A delivery is forwarded unchanged (method, path and query, header fields in their
// order with their names' case, Host as sent, body bytes) and the receiver's answer goes back as it came; the delivery
// is emitted with the URL the server was given (the leg's), numbered with the intercepted exchanges. A receiver that
// cannot be reached gives the server a 502 with one line, and the delivery is emitted with that line as its error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { X509Certificate } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { request } from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { startInterceptingProxy, type InterceptingProxy } from '../../src/proxy/proxy.js';
import type { TrafficExchange } from '../../src/traffic/exchange.js';
import { WAIT_MS } from '../helpers/waits.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'conformance-receiver-leg-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The client's receiver: records each request as it came, answers 202 with a field and a body of its own. */
async function receiver() {
  const got: Array<{ method: string; url: string; rawHeaders: string[]; body: Buffer }> = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ method: req.method!, url: req.url!, rawHeaders: req.rawHeaders, body: Buffer.concat(chunks) });
      res.writeHead(202, { 'X-Receiver': 'yes', 'Content-Type': 'text/plain' }).end('accepted');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, got, port: (server.address() as { port: number }).port };
}

/** POST to the leg's URL as a server delivers: over TLS trusting the proxy's CA, with fields in a given order. */
function deliver(proxy: InterceptingProxy, rawHeaders: string[], body: Buffer) {
  const url = new URL(proxy.receiverLeg!.url);
  return new Promise<{ status: number; headers: IncomingMessage['headers']; body: string }>((done, fail) => {
    const req = request(
      { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: 'POST', ca: proxy.ca.cert },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          done({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.on('error', fail);
    for (let i = 0; i < rawHeaders.length; i += 2) req.setHeader(rawHeaders[i]!, rawHeaders[i + 1]!);
    req.end(body);
  });
}

function nextDelivery(proxy: InterceptingProxy): Promise<TrafficExchange> {
  const timer = AbortSignal.timeout(WAIT_MS);
  return (once(proxy, 'delivery', { signal: timer }) as Promise<[TrafficExchange]>).then(([d]) => d);
}

describe('the webhook leg', () => {
  let proxy: InterceptingProxy | undefined;
  let client: { server: Server; got: Awaited<ReturnType<typeof receiver>>['got']; port: number };
  afterAll(async () => {
    await proxy?.close();
    client.server.close();
  });

  it('forwards a delivery unchanged and its answer back; emits it as sent to the leg', async () => {
    client = await receiver();
    proxy = await startInterceptingProxy({
      target: { baseUrl: 'https://127.0.0.1:1/v1' },
      caOut: join(dir, 'ca.pem'),
      receiver: new URL(`http://127.0.0.1:${client.port}/hooks/in?tenant=7`),
    });
    const leg = proxy.receiverLeg!;
    expect(leg.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/hooks\/in\?tenant=7$/);
    expect(leg.receiver.href).toBe(`http://127.0.0.1:${client.port}/hooks/in?tenant=7`);
    const body = Buffer.from('{"event":"WEBHOOK.CREATED","data":{"n":1}}');
    const fields = [
      'Content-Type',
      'application/json',
      'Content-Digest',
      'sha-512=:abc=:',
      'signature-input',
      'sig1=("@method" "@target-uri");keyid="k"',
      'Signature',
      'sig1=:AAAA:',
    ];
    const emitted = nextDelivery(proxy);
    const answer = await deliver(proxy, fields, body);
    // The receiver's answer, as it came.
    expect(answer.status).toBe(202);
    expect(answer.headers['x-receiver']).toBe('yes');
    expect(answer.body).toBe('accepted');
    // What reached the receiver: the same method, path, query, fields in order with their case, and body bytes.
    const got = client.got[0]!;
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/hooks/in?tenant=7');
    expect(got.body.equals(body)).toBe(true);
    const names = got.rawHeaders.filter((_, i) => i % 2 === 0);
    expect(names.filter((n) => fields.includes(n))).toEqual(fields.filter((_, i) => i % 2 === 0));
    // Host as the server wrote it: the leg's address, the URL it was given.
    expect(got.rawHeaders[names.indexOf('Host') * 2 + 1]).toBe(new URL(leg.url).host);
    const d = await emitted;
    expect(d.request.url).toBe(leg.url);
    expect(d.request.method).toBe('POST');
    expect(Buffer.from(d.request.body).equals(body)).toBe(true);
    expect(d.request.headers.filter(([n]) => fields.includes(n))).toEqual([
      ['Content-Type', 'application/json'],
      ['Content-Digest', 'sha-512=:abc=:'],
      ['signature-input', 'sig1=("@method" "@target-uri");keyid="k"'],
      ['Signature', 'sig1=:AAAA:'],
    ]);
    expect(d.response?.status).toBe(202);
    expect(d.index).toBe(0);
    // Deliveries are not the target's exchanges.
    expect(proxy.counts.intercepted).toBe(0);
  });

  it("presents a certificate for the loopback address signed by the proxy's CA", async () => {
    const url = new URL(proxy!.receiverLeg!.url);
    // The HEAD is a delivery too: forwarded and emitted like any.
    const emitted = nextDelivery(proxy!);
    const socket = await new Promise<TLSSocket>((done, fail) => {
      const req = request({ host: url.hostname, port: url.port, method: 'HEAD', ca: proxy!.ca.cert }, (res) => {
        done(res.socket as TLSSocket);
        res.resume();
      });
      req.on('error', fail);
      req.end();
    });
    const leaf = new X509Certificate(socket.getPeerCertificate().raw);
    expect(leaf.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(leaf.verify(new X509Certificate(proxy!.ca.cert).publicKey)).toBe(true);
    expect((await emitted).request.method).toBe('HEAD');
  });

  it("counts a server's TLS handshake that fails (a server that does not trust the proxy's CA), saying why", async () => {
    const url = new URL(proxy!.receiverLeg!.url);
    const failed = once(proxy!, 'receiverTlsFailure', { signal: AbortSignal.timeout(WAIT_MS) }) as Promise<[string]>;
    const refused = await new Promise<Error>((done) => {
      const req = request({ host: url.hostname, port: url.port, method: 'POST' }, () => undefined);
      req.on('error', done);
      req.end();
    });
    expect(refused.message).toMatch(/certificate/);
    const [reason] = await failed;
    // OpenSSL's reason ("tlsv1 alert unknown ca"), or under TLS 1.3 the connection the client closed: one line.
    expect(reason).toMatch(/^[^\n]+$/);
    expect(proxy!.receiverLeg!.tlsFailures).toEqual({ count: 1, last: reason });
  });

  it('a receiver that cannot be reached: the server gets a 502 with one line, the delivery its error', async () => {
    await new Promise<void>((done) => client.server.close(() => done()));
    const emitted = nextDelivery(proxy!);
    const answer = await deliver(proxy!, ['Content-Type', 'application/json'], Buffer.from('{}'));
    expect(answer.status).toBe(502);
    expect(answer.body.trim().split('\n')).toEqual([expect.stringMatching(/refused the connection \(ECONNREFUSED\)/)]);
    const d = await emitted;
    expect(d.response).toBeUndefined();
    expect(d.error).toMatch(/ECONNREFUSED/);
    // Numbered in one order with the session's other exchanges.
    expect(d.index).toBe(2);
  });
});
