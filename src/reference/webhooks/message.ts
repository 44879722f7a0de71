// One delivery as it goes on the wire: the JSON payload, its Content-Digest, and an RFC 9421 signature by the server's
// webhook key — the same profile the spec sets for requests (Authentication 4–5), so receivers verify both alike.
import { contentDigest, contentDigestWith } from '../../http/digest.js';
import { DEFAULT_SIGNATURE_TTL_SECONDS, signRequest } from '../../http/signature.js';
import type { SignatureParam } from '../../http/signature-base.js';
import type { Choices } from '../choices/index.js';
import { WEBHOOK_FAULT, type FaultFlags } from '../faults/flags.js';
import { generateWebhookKey, type WebhookSigningKey } from './signing-key.js';

/** The payload fields are "not shown"; these name the event and carry what a receiver needs to deduplicate retries. */
export interface DeliveryPayload {
  /** The same on every attempt of one event. */
  eventId: string;
  event: string;
  webhookId: string;
  /** A Unix time in the unit the server shows (choice timestampUnit: seconds by default). */
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
const DELIVERY_COMPONENTS = ['@method', '@target-uri', 'content-digest', 'content-length', 'content-type'] as const;
/** The deliverySignature=variant server's components: its own order, @authority and @path instead of @target-uri. */
const VARIANT_COMPONENTS = ['content-type', 'content-digest', 'content-length', '@path', '@authority', '@method'];

/** How a delivery is shaped where the spec is silent (see choices/webhooks.ts). */
export type DeliveryChoices = Pick<Choices, 'eventPayload' | 'deliveryHeaders' | 'deliverySignature'>;
const PROFILE_DELIVERY: DeliveryChoices = {
  eventPayload: 'event',
  deliveryHeaders: 'rfc',
  deliverySignature: 'profile',
};

let decoyKey: WebhookSigningKey | undefined;
let retiredKey: WebhookSigningKey | undefined;

/** The payload as the eventPayload choice lays it out ("Payload fields of event messages: not shown"). */
function payloadOf(p: DeliveryPayload, shape: Choices['eventPayload']): Record<string, unknown> {
  switch (shape) {
    case 'type':
      return { id: p.eventId, type: p.event, createdAt: p.occurredAt, data: p.data };
    case 'nested':
      return { meta: { id: p.eventId, eventType: p.event, timestamp: p.occurredAt }, payload: p.data };
    case 'anonymous':
      return { event: p.event, occurredAt: p.occurredAt };
    case 'in-header':
      return { id: p.eventId, webhookId: p.webhookId, occurredAt: p.occurredAt, data: p.data };
    case 'cloudevents':
      return p.data;
    default:
      return { ...p };
  }
}

/** The CloudEvents type of an event: a reverse-DNS prefix and the name in lower case (AUTH.CREATED → com.example.investment.auth.created). */
const CLOUDEVENTS_PREFIX = 'com.example.investment';

/**
 * The headers that name the event where the payload does not (eventPayload in-header, cloudevents): X-Event-Type, as
 * GitHub's X-GitHub-Event or Shopify's X-Shopify-Topic; or the CloudEvents 1.0 HTTP binding's binary mode, the
 * attributes as ce- headers and the data as the body (CloudEvents HTTP Protocol Binding §3.1).
 */
function eventHeaders(p: DeliveryPayload, shape: Choices['eventPayload']): Array<[string, string]> {
  switch (shape) {
    case 'in-header':
      return [['X-Event-Type', p.event]];
    case 'cloudevents':
      return [
        ['ce-specversion', '1.0'],
        ['ce-id', p.eventId],
        ['ce-source', `/webhooks/${p.webhookId}`],
        ['ce-type', `${CLOUDEVENTS_PREFIX}.${p.event.toLowerCase()}`],
        ['ce-time', new Date(p.occurredAt * 1000).toISOString()],
      ];
    default:
      return [];
  }
}

/**
 * `created` comes from the server clock, so a test clock governs deliveries as it governs requests. `windowSeconds`
 * (expires - created) is shorter only where a delivery must go stale soon: the client mode's replay of a valid one.
 */
export function signedDelivery(
  url: string,
  payload: DeliveryPayload,
  key: WebhookSigningKey,
  createdSeconds: number,
  faults: FaultFlags,
  choices: DeliveryChoices = PROFILE_DELIVERY,
  windowSeconds: number = DEFAULT_SIGNATURE_TTL_SECONDS,
): SignedDelivery {
  const target = new URL(url);
  target.hash = '';
  const form = faults.has(WEBHOOK_FAULT.formEncodedDelivery);
  const body = Buffer.from(
    form ? formEncoded(payload) : JSON.stringify(payloadOf(payload, choices.eventPayload)),
    'utf8',
  );
  const digested = faults.has(WEBHOOK_FAULT.digestMismatch) ? Buffer.concat([body, Buffer.from('\n')]) : body;
  const headers: Array<[string, string]> = [
    ['content-type', form ? 'application/x-www-form-urlencoded' : 'application/json'],
    ['content-length', String(body.length)],
    [
      'content-digest',
      choices.deliverySignature === 'sha-256' ? contentDigestWith(digested, ['sha-256']) : contentDigest(digested),
    ],
  ];
  const extra: Array<[string, string]> =
    choices.deliveryHeaders === 'extra'
      ? [
          ['x-event-id', payload.eventId],
          ['x-event-type', payload.event],
          ['x-event-timestamp', String(payload.occurredAt)],
        ]
      : [];
  // The headers that name the event, unless deliveryHeaders=extra already carries one of that name.
  if (!form)
    for (const h of eventHeaders(payload, choices.eventPayload))
      if (!extra.some(([n]) => n === h[0].toLowerCase())) extra.push(h);
  headers.push(...extra);
  if (faults.has(WEBHOOK_FAULT.unsignedDelivery)) return { url: target.href, body, headers };

  const signingKey = faults.has(WEBHOOK_FAULT.wrongSigningKey) ? (decoyKey ??= generateWebhookKey()) : key;
  const variant = choices.deliverySignature === 'variant';
  const listed = [
    ...(variant ? VARIANT_COMPONENTS : DELIVERY_COMPONENTS),
    ...extra.map(([name]) => name.toLowerCase()),
  ];
  const components = faults.has(WEBHOOK_FAULT.digestNotCovered) ? listed.filter((c) => c !== 'content-digest') : listed;
  const created = faults.has(WEBHOOK_FAULT.expiredSignature)
    ? createdSeconds - 2 * DEFAULT_SIGNATURE_TTL_SECONDS
    : createdSeconds;
  const expires = created + windowSeconds;
  const message = { method: 'POST', url: target.href, headers };
  // RFC 9421 leaves the label and the parameters to the signer; expires is optional (then the receiver's own window counts).
  const params: SignatureParam[] = variant
    ? [
        ['created', created],
        ['keyid', key.keyId],
        ['alg', 'ed25519'],
        ['nonce', payload.eventId],
        ['tag', 'investment-webhook'],
      ]
    : [
        ['keyid', key.keyId],
        ['created', created],
        ['expires', expires],
      ];
  const signed = [
    signRequest(message, {
      keyId: key.keyId,
      privateKey: signingKey.seed,
      label: variant ? 'wh' : 'sig1',
      components,
      params,
    }),
  ];
  if (choices.deliverySignature === 'two-signatures') {
    // A server rotating keys signs with the old key too; the receiver accepts the delivery when one signature verifies.
    retiredKey ??= generateWebhookKey();
    const old = signRequest(message, {
      keyId: retiredKey.keyId,
      privateKey: retiredKey.seed,
      label: 'retired',
      components,
      created,
      expires,
    });
    signed.unshift(old);
  }
  headers.push(
    ['signature-input', signed.map((s) => s.signatureInput).join(', ')],
    ['signature', signed.map((s) => s.signature).join(', ')],
  );
  return { url: target.href, body, headers };
}

/** The faulty server's encoding: the form encoder of its token endpoint, with the nested data as JSON text. */
function formEncoded(payload: DeliveryPayload): string {
  const { data, ...flat } = payload;
  return new URLSearchParams({
    ...Object.fromEntries(Object.entries(flat).map(([k, v]) => [k, String(v)])),
    data: JSON.stringify(data),
  }).toString();
}
