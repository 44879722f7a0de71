// A client given a CA (caFile) reads it and the system's roots once, into one TLS context every connection uses: given
// as `ca`, each new connection parsed some 150 certificates again, and behind a proxy that ends connections often
// (nginx keepalive_requests, a one-second keepalive) a whole run took minutes instead of seconds (issue 26, set-up b).
import { createServer } from 'node:https';
import { syncBuiltinESMExports } from 'node:module';
import tls from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { generate } from 'selfsigned';
import { SignedClient } from '../../src/http/client.js';
import { generateEd25519 } from '../../src/http/keys.js';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/**
 * Counts the TLS contexts made from now on: tls.connect makes one of its own from `ca` when it is given no context, and
 * the client's own is made through the same function (its named import follows the module, syncBuiltinESMExports).
 */
function countContexts(): { readonly made: Array<tls.SecureContextOptions | undefined> } {
  const original = tls.createSecureContext;
  const made: Array<tls.SecureContextOptions | undefined> = [];
  tls.createSecureContext = (options) => {
    made.push(options);
    return original(options);
  };
  syncBuiltinESMExports();
  cleanup.push(() => {
    tls.createSecureContext = original;
    syncBuiltinESMExports();
  });
  return { made };
}

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
    const contexts = countContexts();
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
    expect(contexts.made).toHaveLength(1);
    expect(contexts.made[0]?.ca).toEqual([...tls.rootCertificates, pems.cert]);
  });
});
