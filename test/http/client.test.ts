import { afterEach, describe, expect, it } from 'vitest';
import { SignedClient, TransportError } from '../../src/http/client.js';
import { verifySignature } from '../../src/http/signature.js';
import { verifyContentDigest } from '../../src/http/digest.js';
import { generateEd25519 } from '../../src/http/keys.js';
import { Redactor } from '../../src/http/redact.js';
import { headerValue } from '../../src/http/message.js';
import type { Exchange } from '../../src/http/exchange.js';
import { wholeBodyOf } from '../../src/http/whole-bodies.js';
import { startEchoServer } from '../helpers/echo-server.js';

const key = generateEd25519();
const SECRET = 's3cret-client-secret';
const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789';
let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function setup(
  handler: Parameters<typeof startEchoServer>[0] = (_r, res) => res.end('{"ok":true}'),
  opts: { timeoutMs?: number; maxBodyBytes?: number } = {},
) {
  const server = await startEchoServer(handler);
  const client = new SignedClient({
    baseUrl: `${server.origin}/v1/`,
    clientId: 'acme',
    keyId: 'acme-key',
    privateKey: key.seed,
    redactor: new Redactor([SECRET]),
    ...opts,
  });
  cleanup.push(
    () => client.close(),
    () => server.close(),
  );
  return { server, client };
}

describe('SignedClient', () => {
  it('says when the run last sent a method to a path, whoever sent it, its query aside', async () => {
    const { client } = await setup();
    expect(client.lastSent('GET', '/accounts')).toBeUndefined();
    const before = Date.now();
    await client.send({ method: 'GET', path: '/accounts', query: { customerId: 1042 }, token: TOKEN });
    const after = Date.now();
    const at = client.lastSent('GET', '/accounts');
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(after);
    expect(client.lastSent('GET', '/accounts?customerId=7')).toBe(at);
    expect(client.lastSent('POST', '/accounts')).toBeUndefined();
    expect(client.lastSent('GET', '/accounts/1')).toBeUndefined();
    // A request sent as prepared (a negative probe's) counts as sent too.
    const req = client.prepare({ method: 'POST', path: '/oauth/revoke', json: { token: 'x' }, token: TOKEN });
    await client.sendPrepared(req, {});
    expect(client.lastSent('post', '/oauth/revoke')).toBeGreaterThanOrEqual(at!);
  });

  it('sends a GET with X-Client-Id, Authorization and a signature over exactly the headers it carries', async () => {
    const { server, client } = await setup();
    const res = await client.send({
      method: 'GET',
      path: '/accounts',
      query: { customerId: 1042, page: undefined },
      token: TOKEN,
    });
    expect(res.status).toBe(200);
    const got = server.received[0]!;
    expect(got.url).toBe('/v1/accounts?customerId=1042');
    expect(headerValue(got.headers, 'x-client-id')).toBe('acme');
    expect(headerValue(got.headers, 'authorization')).toBe(`Bearer ${TOKEN}`);
    expect(headerValue(got.headers, 'x-idempotency-key')).toBeUndefined();
    expect(headerValue(got.headers, 'content-digest')).toBeUndefined();
    const verdict = verifySignature(
      { method: got.method, url: `${server.origin}${got.url}`, headers: got.headers },
      { key: key.publicKeyPem, requireCreated: true, requireExpires: true },
    );
    expect(verdict).toMatchObject({
      ok: true,
      label: 'sig1',
      keyId: 'acme-key',
      components: ['@method', '@target-uri', '@path', '@query', 'authorization', 'x-client-id'],
    });
    // The default profile's window (DEFAULT_SIGNING_PROFILE): a server taking at most 60 s takes it.
    expect(Number(verdict.params!.expires) - Number(verdict.params!.created)).toBe(60);
  });

  it('adds an idempotency key, Content-Type, Content-Length and a matching Content-Digest to a PUT', async () => {
    const { server, client } = await setup();
    await client.send({ method: 'PUT', path: '/customers', json: { customerId: 7, firstName: 'Ada' }, token: TOKEN });
    await client.send({ method: 'PUT', path: '/customers', json: { customerId: 7 }, token: TOKEN });
    const [first, second] = server.received;
    expect(headerValue(first!.headers, 'content-type')).toBe('application/json');
    expect(headerValue(first!.headers, 'content-length')).toBe(String(first!.body.length));
    expect(verifyContentDigest(headerValue(first!.headers, 'content-digest'), first!.body)).toEqual({
      ok: true,
      algorithms: ['sha-512'],
    });
    expect(headerValue(first!.headers, 'x-idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(headerValue(first!.headers, 'x-idempotency-key')).not.toBe(
      headerValue(second!.headers, 'x-idempotency-key'),
    );
    const verdict = verifySignature(
      { method: 'PUT', url: `${server.origin}${first!.url}`, headers: first!.headers },
      { key: key.publicKey },
    );
    expect(verdict.components).toEqual([
      '@method',
      '@target-uri',
      '@path',
      'authorization',
      'content-digest',
      'content-length',
      'content-type',
      'x-client-id',
      'x-idempotency-key',
    ]);
    expect(verdict.ok).toBe(true);
  });

  it('lets a negative check drop a header, sign with another key, shift created and tamper the body after signing', async () => {
    const { server, client } = await setup();
    const other = generateEd25519();
    await client.send({
      method: 'POST',
      path: '/webhooks',
      json: { a: 1 },
      token: TOKEN,
      sign: { privateKey: other.seed, created: 1000, expires: 1060 },
      tamper: (req) => {
        req.body = new TextEncoder().encode('{"a":2}');
      },
    });
    await client.send({
      method: 'GET',
      path: '/x',
      token: TOKEN,
      tamper: (req) => {
        req.headers = req.headers.filter(([n]) => n !== 'X-Client-Id');
      },
    });
    await client.send({ method: 'GET', path: '/x', token: TOKEN, sign: false });
    const [tampered, dropped, unsigned] = server.received;
    expect(tampered!.body.toString()).toBe('{"a":2}');
    expect(verifyContentDigest(headerValue(tampered!.headers, 'content-digest'), tampered!.body).ok).toBe(false);
    expect(headerValue(tampered!.headers, 'signature-input')).toContain('created=1000;expires=1060');
    expect(
      verifySignature(
        { method: 'POST', url: `${server.origin}${tampered!.url}`, headers: tampered!.headers },
        { key: key.publicKey, now: 1010 },
      ).reason,
    ).toMatch(/does not verify/);
    expect(headerValue(dropped!.headers, 'x-client-id')).toBeUndefined();
    expect(headerValue(unsigned!.headers, 'signature')).toBeUndefined();
    expect(headerValue(unsigned!.headers, 'signature-input')).toBeUndefined();
  });

  it('records every exchange with the token, the secret and the signature redacted', async () => {
    const { client } = await setup((_r, res) =>
      res.end(JSON.stringify({ data: { token: 'issued-token-value-123', tokenType: 'Bearer' }, echo: SECRET })),
    );
    const seen: Exchange[] = [];
    await client.send(
      { method: 'POST', path: '/oauth/token', form: { clientId: 'acme', clientSecret: SECRET }, clientId: null },
      (e) => seen.push(e),
    );
    await client.send({ method: 'GET', path: '/customers/1', token: TOKEN }, (e) => seen.push(e));
    const text = JSON.stringify(seen);
    for (const secret of [SECRET, TOKEN, 'issued-token-value-123']) expect(text).not.toContain(secret);
    expect(seen[0]!.request.bodyExcerpt).toBe('clientId=acme&clientSecret=[redacted]');
    expect(headerValue(seen[1]!.request.headers, 'authorization')).toBe('Bearer [redacted]');
    expect(headerValue(seen[1]!.request.headers, 'signature')).toBe('sig1=:[redacted]:');
    expect(headerValue(seen[1]!.request.headers, 'signature-input')).toMatch(/^sig1=\("@method"/);
    expect(seen.map((e) => e.seq)).toEqual([1, 2]);
  });

  it('records the whole of a small body and the first 4 KiB of a large one, and masks a token learnt past the excerpt', async () => {
    const late = 'late-token-beyond-the-excerpt-0123';
    const big = JSON.stringify({ pad: 'x'.repeat(5000), data: { token: late } });
    const { client } = await setup((req, res) => res.end(req.url?.includes('big') ? big : `{"echo":"${late}","n":1}`));
    const seen: Exchange[] = [];
    const small = await client.send({ method: 'GET', path: '/small', token: TOKEN }, (e) => seen.push(e));
    expect(seen[0]!.response!.bodyExcerpt).toBe(small.text);
    expect(seen[0]!.response!.bodyTruncated).toBeUndefined();
    const large = await client.send({ method: 'GET', path: '/big', token: TOKEN }, (e) => seen.push(e));
    expect(large.text).toBe(big);
    expect(seen[1]!.response!.bodySize).toBe(big.length);
    expect(seen[1]!.response!.bodyExcerpt).toBe(big.slice(0, 4096));
    expect(seen[1]!.response!.bodyTruncated).toBe(true);
    await client.send({ method: 'GET', path: '/small', token: TOKEN }, (e) => seen.push(e));
    expect(seen[2]!.response!.bodyExcerpt).toBe('{"echo":"[redacted]","n":1}');
    // The HAR's copy: the large body whole, its token masked; none kept beside a body the excerpt holds whole.
    expect(wholeBodyOf(seen[1]!.response!)).toBe(big.replace(late, '[redacted]'));
    expect(wholeBodyOf(seen[0]!.response!)).toBeUndefined();
  });

  it('cuts off a body over the cap while streaming and reports it as a transport error', async () => {
    const { client } = await setup(
      (_r, res) => {
        res.write(Buffer.alloc(64 * 1024, 'a'));
        res.end(Buffer.alloc(64 * 1024, 'b'));
      },
      { maxBodyBytes: 32 * 1024 },
    );
    const err = await client.send({ method: 'GET', path: '/big', token: TOKEN }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).message).toMatch(
      /^response body passed the 32 KiB cap on one body \(--max-body\) after \d+ bytes, cut off while streaming$/,
    );
    expect((err as TransportError).exchange.error).toBe((err as TransportError).message);
    expect((err as TransportError).failure).toEqual({
      kind: 'bad-answer',
      advice: 'if answers that large are right, raise the cap with --max-body',
    });
  });

  it('gives up on a server that never answers within the request timeout', async () => {
    const { client } = await setup(() => undefined, { timeoutMs: 300 });
    const err = await client.send({ method: 'GET', path: '/hang', token: TOKEN }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    // The request's own limit ended it (the message names it), not the default of 10 s.
    expect((err as TransportError).message).toBe('no response within 300 ms');
  });

  it('reports a refused connection as a transport error naming the cause', async () => {
    const { server, client } = await setup();
    await server.close();
    const err = await client.send({ method: 'GET', path: '/x', token: TOKEN }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).message).toMatch(/^nothing listens at 127\.0\.0\.1:\d+ \(ECONNREFUSED\)$/);
    expect((err as TransportError).failure.kind).toBe('no-answer');
  });
});

describe('SignedClient over https with a private CA (caFile)', () => {
  it('trusts the configured CA in addition to the system roots, and refuses the server without it', async () => {
    const { generate } = await import('selfsigned');
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    const { createServer } = await import('node:https');
    const server = createServer({ key: pems.private, cert: pems.cert }, (_req, res) => res.end('{"ok":true}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
    cleanup.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    const identity = { baseUrl: `${origin}/v1`, clientId: 'acme', keyId: 'k', privateKey: key.seed };
    const trusting = new SignedClient({ ...identity, ca: pems.cert });
    const plain = new SignedClient(identity);
    cleanup.push(
      () => trusting.close(),
      () => plain.close(),
    );
    expect((await trusting.send({ method: 'GET', path: '/x', token: TOKEN })).status).toBe(200);
    const err = await plain.send({ method: 'GET', path: '/x', token: TOKEN }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).message).toMatch(/SELF_SIGNED|self-signed|certificate/i);
  });
});

describe('Redactor', () => {
  it('masks a secret added after earlier texts were masked, and a secret that contains another whole', () => {
    const r = new Redactor(['abcd-secret']);
    expect(r.text('x abcd-secret y')).toBe('x [redacted] y');
    expect(r.text('z abcd-secret-longer z')).toBe('z [redacted]-longer z');
    r.add('abcd-secret-longer');
    expect(r.text('z abcd-secret-longer z')).toBe('z [redacted] z');
    expect(r.text('nothing to mask')).toBe('nothing to mask');
  });
});
