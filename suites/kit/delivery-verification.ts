// Verifying a webhook delivery observed in traffic (`conformance proxy --receiver`, issue 30) as the run's receiver
// verifies one (src/receiver/receiver.ts): shared by the server's delivery and key checks (suites/webhooks/) and the
// client's receiver check (suites/client/webhooks.ts, a 2xx to a delivery that does not verify).
import type { KeyObject } from 'node:crypto';
import { SECURE_DIGEST_ALGORITHMS, verifyContentDigest } from '../../src/http/digest.js';
import { headerValue } from '../../src/http/message.js';
import {
  SIGNATURE_MISMATCH,
  signatureLabels,
  verifySignatureAsync,
  type SignatureVerdict,
} from '../../src/http/signature.js';
import type { ObservedDelivery } from './judge.js';

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
