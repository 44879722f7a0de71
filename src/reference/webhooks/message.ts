// One delivery as it goes on the wire: the JSON payload, its Content-Digest, and an RFC 9421 signature by the server's
// webhook key — the same profile the spec sets for requests (Authentication 4–5), so receivers verify both alike.
import { contentDigest } from '../../http/digest.js';
import { DEFAULT_SIGNATURE_TTL_SECONDS, signRequest } from '../../http/signature.js';
import { WEBHOOK_FAULT } from '../faults/webhooks.js';
import { generateWebhookKey, type WebhookSigningKey } from './signing-key.js';

/** The payload fields are "not shown"; these name the event and carry what a receiver needs to deduplicate retries. */
export interface DeliveryPayload {
  /** The same on every attempt of one event. */
  eventId: string;
  event: string;
  webhookId: string;
  /** Unix seconds. */
  occurredAt: number;
  data: Record<string, unknown>;
}

export interface SignedDelivery {
  /** The target URI that was signed (WHATWG-normalised, no fragment): what the request is sent to. */
  url: string;
  body: Buffer;
  headers: Array<[string, string]>;
}

/** The components of every delivery, in the order of the signing profile. */
export const DELIVERY_COMPONENTS = ['@method', '@target-uri', 'content-digest', 'content-length', 'content-type'] as const;

let decoyKey: WebhookSigningKey | undefined;

/** `created` comes from the server clock, so a test clock governs deliveries as it governs requests. */
export function signedDelivery(url: string, payload: DeliveryPayload, key: WebhookSigningKey, createdSeconds: number, faults: ReadonlySet<string>): SignedDelivery {
  const target = new URL(url);
  target.hash = '';
  const form = faults.has(WEBHOOK_FAULT.formEncodedDelivery);
  const body = Buffer.from(form ? formEncoded(payload) : JSON.stringify(payload), 'utf8');
  const digested = faults.has(WEBHOOK_FAULT.digestMismatch) ? Buffer.concat([body, Buffer.from('\n')]) : body;
  const headers: Array<[string, string]> = [
    ['content-type', form ? 'application/x-www-form-urlencoded' : 'application/json'],
    ['content-length', String(body.length)],
    ['content-digest', contentDigest(digested)],
  ];
  if (faults.has(WEBHOOK_FAULT.unsignedDelivery)) return { url: target.href, body, headers };

  const signingKey = faults.has(WEBHOOK_FAULT.wrongSigningKey) ? (decoyKey ??= generateWebhookKey()) : key;
  const components = faults.has(WEBHOOK_FAULT.digestNotCovered) ? DELIVERY_COMPONENTS.filter((c) => c !== 'content-digest') : DELIVERY_COMPONENTS;
  const created = faults.has(WEBHOOK_FAULT.expiredSignature) ? createdSeconds - 2 * DEFAULT_SIGNATURE_TTL_SECONDS : createdSeconds;
  const signed = signRequest(
    { method: 'POST', url: target.href, headers },
    { keyId: key.keyId, privateKey: signingKey.seed, components, created, expires: created + DEFAULT_SIGNATURE_TTL_SECONDS },
  );
  headers.push(['signature-input', signed.signatureInput], ['signature', signed.signature]);
  return { url: target.href, body, headers };
}

/** The faulty server's encoding: the form encoder of its token endpoint, with the nested data as JSON text. */
function formEncoded(payload: DeliveryPayload): string {
  const { data, ...flat } = payload;
  return new URLSearchParams({ ...Object.fromEntries(Object.entries(flat).map(([k, v]) => [k, String(v)])), data: JSON.stringify(data) }).toString();
}
