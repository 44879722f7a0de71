// The webhooks scenario's deliveries to the client's receiver: valid ones, signed as the sandbox signs its own
// (src/reference/webhooks/message.ts), then one of each forgery a receiver must discard (spec Authentication 8: "when
// either check fails, the webhook message must be discarded") or should refuse as stale. Each is recorded with the
// receiver's answer; the checks (suites/client/webhooks.ts) compare them with the eventIds the receiver accepted.
import { randomUUID } from 'node:crypto';
import { request } from 'node:https';
import { nowSeconds } from '../http/signature.js';
import type { Redactor } from '../http/redact.js';
import { WEBHOOK_FAULT, type FaultFlag } from '../reference/faults/flags.js';
import { signedDelivery, type DeliveryPayload, type SignedDelivery } from '../reference/webhooks/message.js';
import type { WebhookSigningKey } from '../reference/webhooks/signing-key.js';
import { recordedExchange } from './record.js';
import type { SentDelivery } from './types.js';

export interface DeliveryPlan {
  /** The https URL the client registered (POST or PUT /webhooks). */
  url: string;
  /** The CA (PEM) the receiver's certificate is checked against. */
  receiverCa: string;
  /** The sandbox's webhook key, the one GET /webhooks/key published. */
  key: WebhookSigningKey;
  webhookId: string;
  /** The run's exchange numbering, shared with the client's requests. */
  nextSeq: () => number;
  redactor: Redactor;
  /** Bound on one delivery, connection to the end of the answer. */
  timeoutMs: number;
  /** Aborted: the delivery in flight ends with an error and no further one is sent. */
  signal?: AbortSignal;
}

/** The replayed delivery's original is signed for this long only, so the replay can follow soon after it goes stale. */
const SHORT_WINDOW_SECONDS = 2;
/** Expired and created-in-future lie this far out: beyond any clock skew a receiver could reasonably allow. */
const FAR_SECONDS = 600;
/** A receiver's answer is kept only for the report. */
const MAX_ANSWER_BYTES = 64 * 1024;
const LABEL = 'client:webhooks';

interface Planned {
  kind: SentDelivery['kind'];
  eventId: string;
  delivery: SignedDelivery;
}

/**
 * Sends 2 valid deliveries, then each forgery, one at a time, and finally the replay of the second valid one once
 * its short window has passed (some 3 s after it was signed). Never throws for the receiver's sake: no answer, a
 * refused connection or a timeout is a SentDelivery with `error` and no status.
 */
export async function sendDeliveries(plan: DeliveryPlan): Promise<SentDelivery[]> {
  const sent: SentDelivery[] = [];
  const now = nowSeconds();
  const payload = (event: string, data: Record<string, unknown>): DeliveryPayload => ({
    eventId: randomUUID(),
    event,
    webhookId: plan.webhookId,
    occurredAt: now,
    data,
  });
  const tokenData = () => ({ tokenId: randomUUID(), createdAt: new Date(now * 1000).toISOString() });
  const sign = (p: DeliveryPayload, created: number, faults: FaultFlag[] = [], windowSeconds?: number) =>
    signedDelivery(plan.url, p, plan.key, created, new Set(faults), undefined, windowSeconds);
  const planned = (kind: Planned['kind'], p: DeliveryPayload, delivery: SignedDelivery): Planned => ({
    kind,
    eventId: p.eventId,
    delivery,
  });

  const first = payload('AUTH.CREATED', tokenData());
  const second = payload('WEBHOOK.UPDATED', { webhookId: plan.webhookId, url: plan.url, subscriptions: ['ALL'] });
  const replayed = planned('valid', second, sign(second, now, [], SHORT_WINDOW_SECONDS));
  const staleAfterMs = (now + SHORT_WINDOW_SECONDS + 1) * 1000;

  const altered = payload('AUTH.CREATED', tokenData());
  const alteredDelivery = sign(altered, now);
  const digestWrong = payload('AUTH.CREATED', tokenData());
  const sigWrong = payload('AUTH.CREATED', tokenData());
  const otherKey = payload('AUTH.CREATED', tokenData());
  const unsigned = payload('AUTH.CREATED', tokenData());
  const expired = payload('AUTH.DELETED', tokenData());
  const future = payload('AUTH.DELETED', tokenData());
  const queue: Planned[] = [
    planned('valid', first, sign(first, now)),
    replayed,
    planned('body-altered', altered, { ...alteredDelivery, body: alterBody(alteredDelivery.body) }),
    planned('digest-wrong', digestWrong, sign(digestWrong, now, [WEBHOOK_FAULT.digestMismatch])),
    planned('signature-wrong', sigWrong, flipSignature(sign(sigWrong, now))),
    planned('other-key', otherKey, sign(otherKey, now, [WEBHOOK_FAULT.wrongSigningKey])),
    planned('headers-missing', unsigned, sign(unsigned, now, [WEBHOOK_FAULT.unsignedDelivery])),
    planned('expired', expired, sign(expired, now - FAR_SECONDS, [], FAR_SECONDS / 10)),
    planned('created-in-future', future, sign(future, now + FAR_SECONDS)),
  ];

  for (const p of queue) {
    if (plan.signal?.aborted) return sent;
    sent.push(await deliver(plan, p));
  }
  if (!(await sleepUntil(staleAfterMs, plan.signal))) return sent;
  sent.push(await deliver(plan, { ...replayed, kind: 'replayed' }));
  return sent;
}

/** Same length, so Content-Length still holds and only the digest can tell: the event is turned into another. */
function alterBody(body: Buffer): Buffer {
  const text = body.toString('utf8');
  const altered = text.replace('"AUTH.CREATED"', '"AUTH.DELETED"');
  if (altered === text || altered.length !== text.length) throw new Error('the body to alter carries no AUTH.CREATED');
  return Buffer.from(altered, 'utf8');
}

/** The signature's bytes with their first bit flipped: well-formed, yet it verifies under no key. */
function flipSignature(d: SignedDelivery): SignedDelivery {
  const headers = d.headers.map(([name, value]): [string, string] => {
    if (name !== 'signature') return [name, value];
    return [
      name,
      value.replace(/:([A-Za-z0-9+/=]+):/, (_m, b64: string) => {
        const bytes = Buffer.from(b64, 'base64');
        bytes[0] = bytes[0]! ^ 0x80;
        return `:${bytes.toString('base64')}:`;
      }),
    ];
  });
  return { ...d, headers };
}

/** Waits on a timer until the epoch millisecond `at`; false when aborted first. */
function sleepUntil(at: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(ok);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), Math.max(0, at - Date.now()));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

interface Answer {
  status?: number;
  headers: Array<[string, string]>;
  body: Buffer;
  error?: string;
}

async function deliver(plan: DeliveryPlan, p: Planned): Promise<SentDelivery> {
  const seq = plan.nextSeq();
  const sentAt = Date.now();
  const started = performance.now();
  const answer = await post(plan, p.delivery);
  const exchange = recordedExchange(
    {
      seq,
      label: LABEL,
      startedAt: sentAt,
      durationMs: Math.round(performance.now() - started),
      request: { method: 'POST', url: p.delivery.url, headers: p.delivery.headers, body: p.delivery.body },
      ...(answer.status !== undefined
        ? { response: { status: answer.status, headers: answer.headers, body: answer.body } }
        : {}),
      ...(answer.error !== undefined ? { error: answer.error } : {}),
    },
    plan.redactor,
  );
  return {
    kind: p.kind,
    eventId: p.eventId,
    sentAt,
    ...(answer.status !== undefined ? { status: answer.status } : {}),
    ...(answer.error !== undefined ? { error: answer.error } : {}),
    exchange,
  };
}

/**
 * One POST over https, always to loopback (the receiver listens on 127.0.0.1), its certificate checked against the
 * receiver CA. Resolves with the status, or with the error when no whole answer came within the time limit.
 */
function post(plan: DeliveryPlan, d: SignedDelivery): Promise<Answer> {
  const target = new URL(d.url);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (a: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(a);
    };
    const req = request({
      host: '127.0.0.1',
      port: target.port === '' ? 443 : Number(target.port),
      path: `${target.pathname}${target.search}`,
      method: 'POST',
      ca: plan.receiverCa,
      // No SNI for an IP address (RFC 6066 §3); the certificate is still checked against it.
      ...(isIp(target.hostname) ? {} : { servername: target.hostname }),
      headers: [['host', target.host], ...d.headers].flat(),
      agent: false,
      ...(plan.signal ? { signal: plan.signal } : {}),
    });
    const failed = (error: string) => finish({ headers: [], body: Buffer.alloc(0), error });
    const timer = setTimeout(() => {
      failed(`no whole answer within ${plan.timeoutMs} ms`);
      req.destroy();
    }, plan.timeoutMs);
    req.on('error', (e) => failed(describe(e)));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < MAX_ANSWER_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      res.on('error', (e) => failed(describe(e)));
      // Closed before its end (the receiver hung up mid-answer, or the signal aborted): no whole answer.
      res.on('close', () => failed('the connection closed before the whole answer'));
      res.on('end', () => {
        const raw = res.rawHeaders;
        const headers: Array<[string, string]> = [];
        for (let i = 0; i + 1 < raw.length; i += 2) headers.push([raw[i]!.toLowerCase(), raw[i + 1]!]);
        finish({
          status: res.statusCode ?? 0,
          headers,
          body: Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES),
        });
      });
    });
    req.end(d.body);
  });
}

function isIp(hostname: string): boolean {
  return /^[\d.]+$/.test(hostname) || hostname.startsWith('[');
}

function describe(e: Error): string {
  const code = (e as { code?: unknown }).code;
  return `${typeof code === 'string' ? code : e.name}: ${e.message}`;
}
