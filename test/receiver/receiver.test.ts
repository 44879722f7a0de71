// The webhook receiver on its own: TLS, recording, verification (digest, signature, coverage, times), discarding with a
// reason and the rule each reason breaks, the caps, waiting by event with a deadline, and a clean stop.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMPONENTS, publicKey, serverKey, stoppedAfterEach } from '../helpers/receiver-setup.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, createSecureContext, rootCertificates } from 'node:tls';
import { X509Certificate, createPublicKey } from 'node:crypto';
import { Agent, request } from 'undici';
import { contentDigest } from '../../src/http/digest.js';
import { generateEd25519 } from '../../src/http/keys.js';
import { signRequest, nowSeconds } from '../../src/http/signature.js';
import type { WebhookConfig } from '../../src/config/types.js';
import { certificateNames, makeCertificate, selfSignedCertificate } from '../../src/receiver/certificate.js';
import {
  describeDelivery,
  startReceiver,
  type Delivery,
  type ReceiverOptions,
  type WebhookReceiver,
} from '../../src/receiver/receiver.js';
import { WAIT_MS } from '../helpers/waits.js';

const { running, agents } = stoppedAfterEach();
afterEach(() => vi.useRealTimers());

async function receiver(webhook: Partial<WebhookConfig> = {}, options: ReceiverOptions = {}): Promise<WebhookReceiver> {
  const r = await startReceiver({ listen: '127.0.0.1:0', tls: 'self-signed', ...webhook }, options);
  running.push(r);
  return r;
}

interface DeliveryOptions {
  event?: string;
  body?: string;
  /** Sign with this seed instead of the server's key. */
  seed?: Uint8Array;
  components?: string[];
  created?: number;
  expires?: number;
  digestOf?: string;
  unsigned?: boolean;
  /** Where to send it, when not the receiver's URL (e.g. the listen address behind a public URL). */
  to?: string;
  /** The URL signed and sent to, when not the receiver's URL (e.g. its alternate URL). */
  url?: string;
  contentType?: string;
}

/** A delivery the way a server sends one: JSON body, Content-Digest, RFC 9421 signature over the delivery components. */
async function deliver(r: WebhookReceiver, o: DeliveryOptions = {}): Promise<number> {
  const body = o.body ?? JSON.stringify({ id: 'evt-1', type: o.event ?? 'AUTH.CREATED', data: { tokenId: 't-1' } });
  const headers: Array<[string, string]> = [
    ['content-type', o.contentType ?? 'application/json'],
    ['content-length', String(Buffer.byteLength(body))],
    ['content-digest', contentDigest(o.digestOf ?? body)],
  ];
  const url = o.url ?? r.url;
  if (!o.unsigned) {
    const created = o.created ?? nowSeconds();
    const signed = signRequest(
      { method: 'POST', url, headers },
      {
        keyId: 'server-key',
        privateKey: o.seed ?? serverKey.seed,
        components: o.components ?? COMPONENTS,
        created,
        expires: o.expires ?? created + 300,
      },
    );
    headers.push(['signature-input', signed.signatureInput], ['signature', signed.signature]);
  }
  const agent = new Agent({ connect: r.certificatePem ? { ca: r.certificatePem } : {} });
  agents.push(agent);
  const res = await request(o.to ?? url, { method: 'POST', headers: headers.flat(), body, dispatcher: agent });
  await res.body.dump();
  return res.statusCode;
}

describe('webhook receiver', () => {
  it('serves https with a self-signed EC P-256 certificate naming the listen host and localhost', async () => {
    const r = await receiver();
    expect(r.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/conformance\/webhook$/);
    const cert = new X509Certificate(r.certificatePem!);
    expect(cert.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(cert.subjectAltName).toContain('DNS:localhost');
    expect(cert.publicKey.asymmetricKeyType).toBe('ec');
    expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(cert.checkHost('localhost')).toBe('localhost');
    // The same names give the same certificate in one process: the built-in target trusts what the receiver presents.
    expect((await selfSignedCertificate(certificateNames({ listen: '127.0.0.1:0', tls: 'self-signed' }))).cert).toBe(
      r.certificatePem,
    );
  });

  it('gives each certificate it makes a subject of its own, so trusting two for the same names trusts both', async () => {
    const [a, b] = [await makeCertificate(['127.0.0.1']), await makeCertificate(['127.0.0.1'])];
    expect(new X509Certificate(a.cert).subject).not.toBe(new X509Certificate(b.cert).subject);
    // What `serve --webhook-ca` gives the sandbox: another certificate first, then its own. Both must verify.
    const trusted = createSecureContext({ ca: [...rootCertificates, `${a.cert}\n${b.cert}`] });
    for (const presented of [a, b]) {
      const dir = mkdtempSync(join(tmpdir(), 'receiver-'));
      writeFileSync(join(dir, 'cert.pem'), presented.cert);
      writeFileSync(join(dir, 'key.pem'), presented.key);
      const r = await receiver({ tls: { certFile: join(dir, 'cert.pem'), keyFile: join(dir, 'key.pem') } });
      const agent = new Agent({ connect: { secureContext: trusted } });
      agents.push(agent);
      const res = await request(r.url, { method: 'POST', body: '{}', dispatcher: agent });
      await res.body.dump();
      expect(res.statusCode).toBe(200);
    }
  });

  it('records a delivery, answers 200 at once, holds it until the key is known, then verifies it', async () => {
    const r = await receiver();
    const sent = Date.now();
    expect(await deliver(r)).toBe(200);
    expect(r.counts).toMatchObject({ received: 1, pending: 1, verified: 0 });
    const waiting = r.waitFor((d) => d.seq === 1, WAIT_MS);
    r.useKey(publicKey);
    const d = (await waiting)!;
    expect(d.state).toBe('verified');
    expect(d.reason).toBeUndefined();
    expect(d.payload).toEqual({ id: 'evt-1', type: 'AUTH.CREATED', data: { tokenId: 't-1' } });
    expect(d.targetUri).toBe(r.url);
    expect(d.signature).toMatchObject({ ok: true, label: 'sig1', keyId: 'server-key', components: COMPONENTS });
    expect(d.headers.some(([n]) => n.toLowerCase() === 'content-digest')).toBe(true);
    // When it arrived, in ms since the epoch: between sending it and now.
    expect(d.arrivedAt).toBeGreaterThanOrEqual(sent);
    expect(d.arrivedAt).toBeLessThanOrEqual(Date.now());
  });

  it('verifies deliveries that arrive after the key, whatever the label and component order', async () => {
    const r = await receiver();
    r.useKey(publicKey);
    await deliver(r, { components: ['content-type', 'content-digest', '@target-uri', 'content-length', '@method'] });
    expect((await r.waitFor(() => true, WAIT_MS))!.state).toBe('verified');
  });

  it('discards a forged delivery (valid JSON, signed by another key) and reports why', async () => {
    const r = await receiver();
    r.useKey(publicKey);
    const forger = generateEd25519();
    expect(await deliver(r, { event: 'AUTH.DELETED', seed: forger.seed })).toBe(200);
    const d = (await r.waitFor(() => true, WAIT_MS))!;
    expect(d.state).toBe('rejected');
    expect(d.reason).toBe('signature: the signature does not verify against the signature base');
    expect(r.counts).toMatchObject({ received: 1, verified: 0, rejected: 1 });
    expect(describeDelivery(d)).toMatch(
      /^delivery #1 at .*: POST https:\/\/127\.0\.0\.1:\d+\/conformance\/webhook; .*signature: \[redacted\]; body \(\d+ B\) \{"id":"evt-1","type":"AUTH.DELETED".* — discarded: signature: the signature does not verify/,
    );
  });

  it('discards a delivery whose digest does not match, that is unsigned, that leaves content-digest uncovered, or whose signature expired', async () => {
    const r = await receiver();
    r.useKey(publicKey);
    const now = nowSeconds();
    await deliver(r, { digestOf: 'another body' });
    await deliver(r, { unsigned: true });
    await deliver(r, { components: ['@method', '@target-uri', 'content-length', 'content-type'] });
    await deliver(r, { created: now - 900, expires: now - 600 });
    await deliver(r, { created: now + 900, expires: now + 1200 });
    await r.settled();
    expect(r.arrivals.map((d) => [d.state, d.reason])).toEqual([
      ['rejected', 'Content-Digest sha-512 does not match the body'],
      ['rejected', 'signature: no Signature-Input header'],
      ['rejected', 'signature: the signature does not cover "content-digest"'],
      ['rejected', expect.stringMatching(/^signature: expired at \d+ \(now \d+\)$/)],
      ['rejected', expect.stringMatching(/^signature: created \(\d+\) is in the future/)],
    ]);
    // Each names the rule it breaks, so that the check owning that rule judges it (one cause, one failure).
    expect(r.arrivals.map((d) => d.problems.map((p) => p.kind))).toEqual([
      ['digest'],
      ['signature'],
      ['coverage'],
      ['window'],
      ['window'],
    ]);
    // Signed by the published key all the same, but for the unsigned one: webhooks.key.published passes them.
    expect(r.arrivals.map((d) => d.signedBy)).toEqual([
      'published-key',
      'unsigned',
      'published-key',
      'published-key',
      'published-key',
    ]);
  });

  it('discards what arrives while no usable key exists, and verifies it once a key is given', async () => {
    const r = await receiver();
    await deliver(r);
    r.keyUnusable('GET /webhooks/key answered 404');
    expect(r.arrivals[0]).toMatchObject({
      state: 'rejected',
      reason: 'no key to verify with: GET /webhooks/key answered 404',
      problems: [{ kind: 'key', reason: 'no key to verify with: GET /webhooks/key answered 404' }],
    });
    r.useKey(publicKey);
    await r.settled();
    expect(r.arrivals[0]!.state).toBe('verified');
  });

  it('verifies under any key it was given, and again what an earlier key could not verify', async () => {
    const r = await receiver();
    const other = createPublicKey(generateEd25519().publicKeyPem);
    expect(r.useKey(other)).toBe(true);
    await deliver(r);
    expect((await r.waitFor(() => true, WAIT_MS))!.state).toBe('rejected');
    // A server that generated a new key when the webhook was configured again: the delivery was signed with it.
    expect(r.useKey(publicKey)).toBe(true);
    await r.settled();
    expect(r.arrivals[0]).toMatchObject({ state: 'verified', signature: { ok: true } });
    expect(r.useKey(createPublicKey(serverKey.publicKeyPem))).toBe(false);
    await deliver(r);
    await r.settled();
    expect(r.arrivals[1]!.state).toBe('verified');
  });

  it('records the path a delivery came to: its URL, or the alternate URL with -2 on the path', async () => {
    const r = await receiver();
    r.useKey(publicKey);
    expect(r.alternateUrl).toBe(`${r.url}?conformance-url=2`);
    await deliver(r);
    await deliver(r, { url: r.alternateUrl });
    await r.settled();
    expect(r.arrivals.map((d) => [d.path, d.state])).toEqual([
      ['/conformance/webhook', 'verified'],
      ['/conformance/webhook?conformance-url=2', 'verified'],
    ]);
  });

  it('reads a body that is not JSON leniently: form fields (JSON text in a field parsed), and says it is not JSON', async () => {
    const r = await receiver();
    r.useKey(publicKey);
    const form = new URLSearchParams({ event: 'AUTH.CREATED', data: JSON.stringify({ tokenId: 't-1' }) }).toString();
    await deliver(r, { body: form, contentType: 'application/x-www-form-urlencoded' });
    await deliver(r, { body: 'AUTH.CREATED happened', contentType: 'text/plain' });
    await deliver(r);
    await r.settled();
    expect(r.arrivals.map((d) => [d.json, d.payload, d.state])).toEqual([
      [false, { event: 'AUTH.CREATED', data: { tokenId: 't-1' } }, 'verified'],
      [false, undefined, 'verified'],
      [true, { id: 'evt-1', type: 'AUTH.CREATED', data: { tokenId: 't-1' } }, 'verified'],
    ]);
  });

  it('waits by event: resolves on the first match, already arrived or to come, and undefined at the deadline or on abort', async () => {
    const r = await receiver();
    r.useKey(publicKey);
    const later = r.waitFor((d) => (d.payload as { type?: string }).type === 'WEBHOOK.UPDATED', WAIT_MS);
    await deliver(r, { event: 'AUTH.CREATED' });
    await deliver(r, { event: 'WEBHOOK.UPDATED' });
    expect((await later)!.seq).toBe(2);
    expect((await r.waitFor((d) => d.seq === 1, 10))!.seq).toBe(1);
    // Undefined at its deadline, not before: on a clock the test moves, so the machine's load cannot tell.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let ended: Delivery | undefined | 'waiting' = 'waiting';
    const none = r.waitFor(() => false, 50).then((d) => (ended = d));
    await vi.advanceTimersByTimeAsync(49);
    expect(ended).toBe('waiting');
    await vi.advanceTimersByTimeAsync(1);
    await none;
    expect(ended).toBeUndefined();
    vi.useRealTimers();
    const abort = new AbortController();
    const aborted = r.waitFor(() => false, 60_000, abort.signal);
    abort.abort();
    expect(await aborted).toBeUndefined();
    expect(r.cursor()).toBe(2);
  });

  it('tells of the next arrival whatever becomes of it: a delivery still waiting for its key, one over the cap, a stray request', async () => {
    const r = await receiver({}, { maxBodyBytes: 1024 });
    // No key yet: the delivery stays pending (waitFor does not see it), and has reached the receiver all the same.
    const first = r.nextArrival(WAIT_MS);
    await deliver(r);
    expect(await first).toBe(true);
    expect(r.counts).toMatchObject({ received: 1, pending: 1 });
    const oversized = r.nextArrival(WAIT_MS);
    expect(await deliver(r, { body: JSON.stringify({ type: 'AUTH.CREATED', pad: 'x'.repeat(2048) }) })).toBe(413);
    expect(await oversized).toBe(true);
    const stray = r.nextArrival(WAIT_MS);
    const agent = new Agent({ connect: { ca: r.certificatePem! } });
    agents.push(agent);
    await (await request(r.url, { method: 'GET', dispatcher: agent })).body.dump();
    expect(await stray).toBe(true);
    // False at its deadline, not before, on a clock the test moves; false on abort and when the receiver stops.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let ended: boolean | 'waiting' = 'waiting';
    const none = r.nextArrival(50).then((came) => (ended = came));
    await vi.advanceTimersByTimeAsync(49);
    expect(ended).toBe('waiting');
    await vi.advanceTimersByTimeAsync(1);
    await none;
    expect(ended).toBe(false);
    vi.useRealTimers();
    const abort = new AbortController();
    const aborted = r.nextArrival(60_000, abort.signal);
    abort.abort();
    expect(await aborted).toBe(false);
    const stopped = r.nextArrival(60_000);
    await r.stop();
    expect(await stopped).toBe(false);
  });

  it('ends every wait when it stops', async () => {
    const r = await receiver();
    const waiting = r.waitFor(() => true, 60_000);
    await r.stop();
    expect(await waiting).toBeUndefined();
  });

  it('refuses a body over the cap with 413 and counts it, and keeps no more deliveries than its cap', async () => {
    const r = await receiver({}, { maxBodyBytes: 1024, maxDeliveries: 2 });
    r.useKey(publicKey);
    expect(await deliver(r, { body: JSON.stringify({ type: 'AUTH.CREATED', pad: 'x'.repeat(2048) }) })).toBe(413);
    for (let i = 0; i < 4; i++) expect(await deliver(r)).toBe(200);
    await r.settled();
    expect(r.counts).toMatchObject({ received: 2, verified: 2, oversized: 1, dropped: 2 });
  });

  it('answers a request that is not POST with 405 and does not record it', async () => {
    const r = await receiver();
    const agent = new Agent({ connect: { ca: r.certificatePem! } });
    agents.push(agent);
    const res = await request(r.url, { method: 'GET', dispatcher: agent });
    await res.body.dump();
    expect(res.statusCode).toBe(405);
    expect(r.counts).toMatchObject({ received: 0, stray: 1 });
  });

  it('counts TLS handshakes a client refuses (a server that does not trust the certificate)', async () => {
    const r = await receiver();
    const { port } = new URL(r.url);
    await new Promise<void>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port: Number(port), rejectUnauthorized: true });
      socket.on('error', () => resolve());
      socket.on('secureConnect', () => resolve());
    });
    await expect.poll(() => r.counts.tlsFailures, { timeout: WAIT_MS }).toBe(1);
    expect(r.tlsError).toBeTruthy();
  });

  it('serves plain HTTP for tls "none" behind a public https URL, verifying against the public URL', async () => {
    const publicUrl = 'https://hooks.example.com/conformance/in';
    const r = await receiver({ tls: 'none', publicUrl });
    expect(r.url).toBe(publicUrl);
    expect(r.certificatePem).toBeUndefined();
    r.useKey(publicKey);
    // What a TLS-terminating proxy forwards: the same path, to the listen address.
    expect(r.listening).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(await deliver(r, { to: `http://${r.listening}/conformance/in` })).toBe(200);
    const d = (await r.waitFor(() => true, WAIT_MS))!;
    expect(d.targetUri).toBe(publicUrl);
    expect(d.state).toBe('verified');
  });

  it('presents given certificate and key files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'receiver-'));
    const material = await selfSignedCertificate(['127.0.0.1', 'given.test']);
    writeFileSync(join(dir, 'cert.pem'), material.cert);
    writeFileSync(join(dir, 'key.pem'), material.key);
    const r = await receiver({ tls: { certFile: join(dir, 'cert.pem'), keyFile: join(dir, 'key.pem') } });
    expect(r.certificatePem).toBe(material.cert);
    r.useKey(publicKey);
    expect(await deliver(r)).toBe(200);
    expect((await r.waitFor(() => true, WAIT_MS))!.state).toBe('verified');
  });

  it('fails to start with a ConfigError naming the setting when it cannot listen or read its files', async () => {
    const r = await receiver();
    const { port } = new URL(r.url);
    await expect(startReceiver({ listen: `127.0.0.1:${port}`, tls: 'none' })).rejects.toThrow(
      /^webhook\.listen: the receiver cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\); free that port or set webhook\.listen to another/,
    );
    await expect(
      startReceiver({ listen: '127.0.0.1:0', tls: { certFile: '/nonexistent/c.pem', keyFile: '/nonexistent/k.pem' } }),
    ).rejects.toThrow(/^webhook\.tls\.certFile: cannot read/);
  });
});
