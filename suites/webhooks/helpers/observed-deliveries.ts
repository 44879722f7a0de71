// The webhook deliveries of a proxy session (`conformance proxy --receiver`, issue 30), verified as the run's receiver
// verifies one (src/receiver/receiver.ts) with the keys the server published in the traffic: what the delivery checks
// (../delivery.ts) and the key check (../key.ts, which key signed) judge of observed traffic.
import type { KeyObject } from 'node:crypto';
import {
  SECURE_DIGEST_ALGORITHMS,
  SIGNATURE_MISMATCH,
  headerValue,
  signatureLabels,
  verifyContentDigest,
  verifySignatureAsync,
  type ObservedDelivery,
  type SignatureVerdict,
} from '../../kit/index.js';
import { type CheckContext } from '../../../src/engine/index.js';
import { keyOfAnswer } from './endpoints.js';
import { observedWebhookReads } from './observed.js';

/** An observed delivery verified: what it breaks of webhooks.delivery.verified's rule, and the signature that verifies. */
export interface ObservedVerdict {
  d: ObservedDelivery;
  problems: string[];
  signature?: SignatureVerdict;
  /**
   * Which key signed, as the run's receiver tells it: a published one (`signature` verifies), another (a signature
   * that could be read and checked, but does not verify under any published key), or none could be read (`unsigned`).
   */
  signedBy: 'published-key' | 'other-key' | 'unsigned';
}

/** How a finding names an observed delivery: its number, method and path. */
export function deliveryLine(d: ObservedDelivery): string {
  return `#${d.exchange.seq} ${d.method} ${URL.canParse(d.url) ? new URL(d.url).pathname : d.url}`;
}

/**
 * The keys the server published in the traffic, newest first: every 2xx GET /webhooks/key that holds one, as the run's
 * receiver takes every key published in the run (a server may make a new one each time the webhook is configured). A
 * skip when the traffic holds no 2xx answer of GET /webhooks/key.
 */
export function observedKeys(ctx: CheckContext): KeyObject[] {
  return observedWebhookReads(ctx, '/webhooks/key')
    .map((r) => keyOfAnswer(r.res))
    .flatMap((got) => ('key' in got ? [got.key.key] : []))
    .reverse();
}

/**
 * An observed delivery verified: a Content-Digest of the body (any secure algorithm), and a signature (any label) by one
 * of `keys` over the components it lists, with the URL it was sent to; no time is judged here. Its window and coverage
 * are the other checks' rules (`signature` for them).
 */
export async function verifyObserved(d: ObservedDelivery, keys: readonly KeyObject[]): Promise<ObservedVerdict> {
  const problems: string[] = [];
  const digest = verifyContentDigest(headerValue(d.headers, 'content-digest'), d.body, {
    algorithms: SECURE_DIGEST_ALGORITHMS,
  });
  if (!digest.ok) problems.push(digest.reason ?? 'the Content-Digest does not verify');
  const labels = signatureLabels(headerValue(d.headers, 'signature-input'));
  const message = { method: d.method, url: d.url, headers: [...d.headers] };
  let reason: string | undefined;
  let signedBy: ObservedVerdict['signedBy'] = 'unsigned';
  for (const label of labels.length > 0 ? labels : [undefined])
    for (const key of keys) {
      const verdict = await verifySignatureAsync(message, {
        key,
        ...(label !== undefined ? { label } : {}),
        skewSeconds: Number.POSITIVE_INFINITY,
      });
      if (verdict.ok) return { d, problems, signature: verdict, signedBy: 'published-key' };
      reason ??= verdict.reason;
      if (verdict.base !== undefined && verdict.reason === SIGNATURE_MISMATCH) signedBy = 'other-key';
    }
  return { d, problems: [...problems, `signature: ${reason ?? 'invalid'}`], signedBy };
}
