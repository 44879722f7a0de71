// The webhooks scenario's deliveries, received by a real https receiver that verifies them with the project's own
// verifier: exactly the valid ones verify, each forgery fails for the reason it was made for, and the replay is the
// original's bytes sent after the original's window. A receiver that cannot be reached is recorded, never thrown.
import { createServer as createHttpsServer, type Server } from 'node:https';
import { freePort } from '../helpers/free-port.js';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'selfsigned';
import { sendDeliveries } from '../../src/client/forgeries.js';
import { FORGERIES, type SentDelivery } from '../../src/client/types.js';
import { verifyContentDigest, type DigestVerdict } from '../../src/http/digest.js';
import { headerValue } from '../../src/http/message.js';
import { Redactor } from '../../src/http/redact.js';
import { nowSeconds, verifySignature, type SignatureVerdict } from '../../src/http/signature.js';
import { generateWebhookKey } from '../../src/reference/webhooks/signing-key.js';
import { WAIT_MS } from '../helpers/waits.js';

interface Arrival {
  receivedAt: number;
  headers: Array<[string, string]>;
  body: Buffer;
  eventId: string;
  signature: SignatureVerdict;
  digest: DigestVerdict;
}

const key = generateWebhookKey();
const arrivals: Arrival[] = [];
let receiver: Server;
let receiverCa: string;
let url: string;

beforeAll(async () => {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  receiverCa = pems.cert;
  receiver = createHttpsServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const headers: Array<[string, string]> = [];
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
        headers.push([req.rawHeaders[i]!.toLowerCase(), req.rawHeaders[i + 1]!]);
      const message = { method: req.method ?? '', url: `https://${req.headers.host}${req.url}`, headers };
      // Verified the moment it arrives, as a receiver would: the window is judged against this clock.
      const signature = verifySignature(message, { key: key.publicKeyPem, now: nowSeconds() });
      const digest = verifyContentDigest(headerValue(headers, 'content-digest'), body);
      const eventId = String((JSON.parse(body.toString('utf8')) as { eventId?: unknown }).eventId);
      arrivals.push({ receivedAt: Date.now(), headers, body, eventId, signature, digest });
      res.writeHead(signature.ok && digest.ok ? 204 : 401).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/in?x=1`;
}, WAIT_MS);

afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

function plan(target: string) {
  let seq = 100;
  return {
    url: target,
    receiverCa,
    key,
    webhookId: 'wh-1',
    nextSeq: () => ++seq,
    redactor: new Redactor(),
    timeoutMs: WAIT_MS,
  };
}

describe('sendDeliveries', () => {
  it.concurrent(
    'sends 2 valid deliveries and each forgery; only the valid ones verify, each forgery fails for its own reason',
    async () => {
      const sent = await sendDeliveries(plan(url));
      expect(sent.map((d) => d.kind)).toEqual(['valid', 'valid', ...FORGERIES]);
      expect(arrivals).toHaveLength(sent.length);
      const byKind = new Map<string, { sent: SentDelivery; arrival: Arrival }>();
      sent.forEach((d, i) => {
        expect(arrivals[i]!.eventId).toBe(d.eventId);
        byKind.set(d.kind === 'valid' ? `valid${i}` : d.kind, { sent: d, arrival: arrivals[i]! });
      });
      const at = (kind: string) => byKind.get(kind)!.arrival;

      // Exactly the valid ones verify, and the receiver's answer is recorded for each.
      expect(sent.filter((_d, i) => arrivals[i]!.signature.ok && arrivals[i]!.digest.ok).map((d) => d.kind)).toEqual([
        'valid',
        'valid',
      ]);
      for (const [i, d] of sent.entries()) {
        expect(d.status).toBe(d.kind === 'valid' ? 204 : 401);
        expect(d.error).toBeUndefined();
        expect(d.exchange.seq).toBe(101 + i);
        expect(d.exchange.checkId).toBe('client:webhooks');
        expect(d.exchange.response?.status).toBe(d.status);
      }
      expect(new Set(sent.filter((d) => d.kind !== 'replayed').map((d) => d.eventId)).size).toBe(sent.length - 1);

      expect(at('body-altered').signature.ok).toBe(true);
      expect(at('body-altered').digest).toMatchObject({
        ok: false,
        reason: 'Content-Digest sha-512 does not match the body',
      });
      expect(at('digest-wrong').signature.ok).toBe(true);
      expect(at('digest-wrong').digest.ok).toBe(false);
      expect(at('signature-wrong')).toMatchObject({ digest: { ok: true }, signature: { code: 'SIGNATURE_INVALID' } });
      expect(at('other-key')).toMatchObject({
        digest: { ok: true },
        signature: { code: 'SIGNATURE_INVALID', keyId: key.keyId },
      });
      expect(at('headers-missing')).toMatchObject({ digest: { ok: true }, signature: { code: 'SIGNATURE_MISSING' } });
      expect(headerValue(at('headers-missing').headers, 'signature-input')).toBeUndefined();
      expect(at('expired')).toMatchObject({ digest: { ok: true }, signature: { code: 'SIGNATURE_EXPIRED' } });
      expect(at('created-in-future')).toMatchObject({
        digest: { ok: true },
        signature: { code: 'SIGNATURE_CREATED_FUTURE' },
      });

      // The replay: the second valid delivery's very bytes and headers, arriving once its window has passed.
      const original = at('valid1');
      const replay = at('replayed');
      expect(byKind.get('replayed')!.sent.eventId).toBe(byKind.get('valid1')!.sent.eventId);
      expect(replay.body.equals(original.body)).toBe(true);
      expect(replay.headers).toEqual(original.headers);
      const expires = Number(original.signature.params?.expires);
      expect(expires - Number(original.signature.params?.created)).toBe(2);
      expect(replay.receivedAt).toBeGreaterThan(expires * 1000);
      expect(replay.signature).toMatchObject({ code: 'SIGNATURE_EXPIRED' });
      expect(replay.digest.ok).toBe(true);

      // The report's copy hides the signatures: a report must not let anyone replay a delivery.
      const signatureHeader = byKind.get('valid0')!.sent.exchange.request.headers.find(([n]) => n === 'signature');
      expect(signatureHeader?.[1]).toBe('sig1=:[redacted]:');
    },
    WAIT_MS,
  );

  it.concurrent(
    'records a receiver that refuses the connection as deliveries with an error and no status, without throwing',
    async () => {
      const port = await freePort();

      const sent = await sendDeliveries(plan(`https://127.0.0.1:${port}/hook`));
      expect(sent).toHaveLength(10);
      for (const d of sent) {
        expect(d.status).toBeUndefined();
        expect(d.error).toMatch(/ECONNREFUSED/);
        expect(d.exchange.error).toBe(d.error);
        expect(d.exchange.response).toBeUndefined();
      }
    },
    WAIT_MS,
  );

  it('sends nothing more once the signal is aborted', async () => {
    const abort = new AbortController();
    abort.abort();
    expect(await sendDeliveries({ ...plan(url), signal: abort.signal })).toEqual([]);
  });
});
