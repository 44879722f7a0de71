// A client given a CA (caFile) reads it and the system's roots once, into one TLS context every connection uses: given
// as `ca`, each new connection parsed some 150 certificates again, and behind a proxy that ends connections often
// (nginx keepalive_requests, a one-second keepalive) a whole run took minutes instead of seconds (issue 26, set-up b).
import { createServer } from 'node:https';
import * as tls from 'node:tls';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generate } from 'selfsigned';

vi.mock('node:tls', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:tls')>();
  return { ...original, createSecureContext: vi.fn(original.createSecureContext) };
});

const { SignedClient } = await import('../../src/http/client.js');
const { generateEd25519 } = await import('../../src/http/keys.js');

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe('SignedClient with a CA', () => {
  it('builds one TLS context for all its connections, and every connection trusts the CA by it', async () => {
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    const connections = new Set<unknown>();
    // Every answer ends its connection, as nginx does at keepalive_requests: each request needs a new one.
    const server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
      connections.add(req.socket);
      res.setHeader('connection', 'close');
      res.end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const created = vi.mocked(tls.createSecureContext);
    created.mockClear();
    const client = new SignedClient({
      baseUrl: `https://127.0.0.1:${(server.address() as { port: number }).port}/v1`,
      clientId: 'acme',
      keyId: 'k',
      privateKey: generateEd25519().seed,
      ca: pems.cert,
    });
    cleanup.push(() => client.close());
    for (let i = 0; i < 5; i++) expect((await client.send({ method: 'GET', path: '/x', token: 't' })).status).toBe(200);
    expect(connections.size).toBe(5);
    expect(created).toHaveBeenCalledTimes(1);
    expect(created.mock.calls[0]![0]!.ca).toEqual([...tls.rootCertificates, pems.cert]);
  });
});
