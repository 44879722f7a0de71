// Verifying a webhook delivery observed in traffic (`conformance proxy --receiver`, a run's --har; issue 30) as the
// run's receiver verifies one (src/receiver/receiver.ts): shared by the server's delivery and key checks
// (suites/webhooks/) and the client's receiver check (suites/client/webhooks.ts, a 2xx to a delivery that does not
// verify). A delivery whose Signature the traffic masked (`[redacted]`) is read, not verified: its digest, and what its
// Signature-Input says (the components it covers, its times), are judged; whether its signature verifies is not.
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
import type { HttpResponse } from '../../src/http/client.js';

/** An observed delivery verified: what it breaks of webhooks.delivery.verified's rule, and the signature that verifies. */
export interface ObservedVerdict {
  d: ObservedDelivery;
  problems: string[];
  signature?: SignatureVerdict;
  /**
   * The Signature's bytes were masked: nothing says whether it verifies, or which key signed (`signedBy` unsigned), and
   * `signature` is its Signature-Input as read (components, parameters), never verified.
   */
  masked?: true;
  /**
   * Which key signed, as the run's receiver tells it: a published one (`signature` verifies), another (a signature
   * that could be read and checked, but does not verify under any published key), or none could be read (`unsigned`).
   */
  signedBy: 'published-key' | 'other-key' | 'unsigned';
  /**
   * Its signature verifies under no key the traffic holds, but it may be signed by one the traffic never read: the
   * configuration after which the server may have made that key. Its signature is then neither passed nor failed (its
   * `problems` leave it out), as a masked one.
   */
  keyUnread?: HttpResponse;
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
  if (d.masked) {
    const read = await readMasked(message, labels, keys);
    return typeof read === 'string'
      ? { d, problems: [...problems, `signature: ${read}`], signedBy: 'unsigned', masked: true }
      : { d, problems, signature: read, signedBy: 'unsigned', masked: true };
  }
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

/** 64 zero bytes: the bytes a masked signature is read with, so that all but its Ed25519 check is done. */
const PLACEHOLDER = `:${Buffer.alloc(64).toString('base64')}:`;

/**
 * A masked signature read as far as its bytes: its Signature-Input (each label; one covering content-digest first), the
 * signature base built over the URL. What fails before the bytes (no Signature-Input, a component that cannot be
 * built) is readable, and is its failure (the reason returned); the verdict of one that gets to its bytes is the
 * Signature-Input as read.
 */
async function readMasked(
  message: { method: string; url: string; headers: Array<[string, string]> },
  labels: readonly string[],
  keys: readonly KeyObject[],
): Promise<SignatureVerdict | string> {
  const read: SignatureVerdict[] = [];
  let reason: string | undefined;
  if (keys.length === 0) return 'no published key to read it with';
  for (const label of labels) {
    const verdict = await verifySignatureAsync(
      { ...message, signature: `${label}=${PLACEHOLDER}` },
      { key: keys[0]!, label, skewSeconds: Number.POSITIVE_INFINITY },
    );
    if (verdict.reason === SIGNATURE_MISMATCH) read.push(verdict);
    else reason ??= verdict.reason;
  }
  const covering = read.find((v) => (v.components ?? []).includes('content-digest'));
  return covering ?? read[0] ?? reason ?? 'no Signature-Input header';
}
