// One delivery as it goes on the wire: the JSON payload, its Content-Digest, and an RFC 9421 signature by the server's
// webhook key — the same profile the spec sets for requests (Authentication 4–5), so receivers verify both alike.
import { contentDigest, contentDigestWith } from '../../http/digest.js';
import { DEFAULT_SIGNATURE_TTL_SECONDS, signRequest, type SignedHeaders } from '../../http/signature.js';
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

/**
 * Several events sent as one request (eventPayload batch, cloudevents-batch), in the order they were queued: the order
 * they occurred, unless deliveryOrder=any-order held one back. `batchId` names the request, the same on every attempt.
 */
export interface DeliveryBatch {
  batchId: string;
  events: DeliveryPayload[];
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

/** The eventPayload readings that bundle events: every body a list, of one event or more. */
const BATCHED: ReadonlyArray<Choices['eventPayload']> = ['batch', 'cloudevents-batch'];

/** Whether the server sends its events in batches (the service then bundles them, see service.ts). */
export function batched(shape: Choices['eventPayload'] | undefined): boolean {
  return shape !== undefined && BATCHED.includes(shape);
}

/** The body as the eventPayload choice lays it out ("Payload fields of event messages: not shown"). */
function bodyOf(events: readonly DeliveryPayload[], shape: Choices['eventPayload']): unknown {
  switch (shape) {
    // Upvest: "multiple events bundled into a single request … ordered by the created_at field".
    case 'batch':
      return { events: events.map(({ eventId, event, occurredAt, data }) => ({ eventId, event, occurredAt, data })) };
    // The CloudEvents HTTP binding's batched content mode: a JSON array of structured events.
    case 'cloudevents-batch':
      return events.map(cloudEvent);
    default:
      return payloadOf(events[0]!, shape);
  }
}

/** One event in CloudEvents 1.0 structured form (JSON event format). */
function cloudEvent(p: DeliveryPayload): Record<string, unknown> {
  return {
    specversion: '1.0',
    id: p.eventId,
    source: `/webhooks/${p.webhookId}`,
    type: `${CLOUDEVENTS_PREFIX}.${p.event.toLowerCase()}`,
    time: new Date(p.occurredAt * 1000).toISOString(),
    datacontenttype: 'application/json',
    data: p.data,
  };
}

/** The media type of the body: CloudEvents' own for its structured and batched modes (both JSON), JSON otherwise. */
function contentTypeOf(shape: Choices['eventPayload']): string {
  if (shape === 'cloudevents-structured') return 'application/cloudevents+json';
  if (shape === 'cloudevents-batch') return 'application/cloudevents-batch+json';
  return 'application/json';
}

/** The payload of one event as the eventPayload choice lays it out. */
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
    case 'cloudevents-structured':
      return cloudEvent(p);
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

/** deliverySignature=long-window: expires this long after created, so that a body retried for days stays valid. */
const LONG_WINDOW_SECONDS = 3 * 24 * 60 * 60;

/**
 * `created` comes from the server clock, so a test clock governs deliveries as it governs requests. `windowSeconds`
 * (expires - created) is shorter only where a delivery must go stale soon: the client mode's replay of a valid one;
 * deliverySignature=long-window makes it LONG_WINDOW_SECONDS. `attempt` (1 for the first try) is the
 * deliveryHeaders=standard-webhooks counter.
 */
export function signedDelivery(
  url: string,
  sent: DeliveryPayload | DeliveryBatch,
  key: WebhookSigningKey,
  createdSeconds: number,
  faults: FaultFlags,
  choices: DeliveryChoices = PROFILE_DELIVERY,
  windowSeconds: number = DEFAULT_SIGNATURE_TTL_SECONDS,
  attempt = 1,
): SignedDelivery {
  const target = new URL(url);
  target.hash = '';
  const form = faults.has(WEBHOOK_FAULT.formEncodedDelivery);
  const events = 'batchId' in sent ? sent.events : [sent];
  const payload = events[0]!;
  const shape = choices.eventPayload;
  const body = deliveryBody(events, shape, form);
  // What names the request: the event's id, or the batch's.
  const id = batched(shape) && 'batchId' in sent ? sent.batchId : payload.eventId;
  const headers = contentHeaders(body, form, faults, choices);
  const extra = namingHeaders(payload, id, form, choices);
  headers.push(...extra);
  // Standard Webhooks' id and timestamp, and an attempt counter (Yousign's X-Yousign-Retry), outside the signature: a
  // receiver verifies what the signature lists, and these headers are not among it.
  if (choices.deliveryHeaders === 'standard-webhooks')
    headers.push(
      ['webhook-id', id],
      ['webhook-timestamp', String(createdSeconds)],
      ['x-delivery-attempt', String(attempt)],
    );
  if (faults.has(WEBHOOK_FAULT.unsignedDelivery)) return { url: target.href, body, headers };
  const message = { method: 'POST', url: target.href, headers };
  const signed = deliverySignatures(message, extra, payload, { key, createdSeconds, windowSeconds, faults, choices });
  headers.push(
    ['signature-input', signed.map((s) => s.signatureInput).join(', ')],
    ['signature', signed.map((s) => s.signature).join(', ')],
  );
  return { url: target.href, body, headers };
}

/** The body: JSON in the payload's shape, or the faulty server's form encoding. */
function deliveryBody(events: DeliveryPayload[], shape: Choices['eventPayload'], form: boolean): Buffer {
  const payload = events[0]!;
  // A batch reading lays out even a single event as a list; another reading sends one event per request.
  const list = batched(shape) ? events : [payload];
  return Buffer.from(
    form
      ? list.length === 1
        ? formEncoded(payload)
        : new URLSearchParams({ events: JSON.stringify(list) }).toString()
      : JSON.stringify(bodyOf(list, shape)),
    'utf8',
  );
}

/** Content-Type, Content-Length and Content-Digest (of other bytes than the body's with the digest-mismatch fault). */
function contentHeaders(
  body: Buffer,
  form: boolean,
  faults: FaultFlags,
  choices: DeliveryChoices,
): Array<[string, string]> {
  const digested = faults.has(WEBHOOK_FAULT.digestMismatch) ? Buffer.concat([body, Buffer.from('\n')]) : body;
  return [
    ['content-type', form ? 'application/x-www-form-urlencoded' : contentTypeOf(choices.eventPayload)],
    ['content-length', String(body.length)],
    [
      'content-digest',
      choices.deliverySignature === 'sha-256' ? contentDigestWith(digested, ['sha-256']) : contentDigest(digested),
    ],
  ];
}

/** The headers that name the event (deliveryHeaders=extra, and eventHeaders); the signature covers them. */
function namingHeaders(
  payload: DeliveryPayload,
  id: string,
  form: boolean,
  choices: DeliveryChoices,
): Array<[string, string]> {
  // A batch carries several events: no one event's type names the request.
  const extra: Array<[string, string]> =
    choices.deliveryHeaders === 'extra'
      ? [
          ['x-event-id', id],
          ...(batched(choices.eventPayload) ? [] : [['x-event-type', payload.event] as [string, string]]),
          ['x-event-timestamp', String(payload.occurredAt)],
        ]
      : [];
  // The headers that name the event, unless deliveryHeaders=extra already carries one of that name.
  if (!form)
    for (const h of eventHeaders(payload, choices.eventPayload))
      if (!extra.some(([n]) => n === h[0].toLowerCase())) extra.push(h);
  return extra;
}

/** The delivery's signatures in Signature-Input order: the server's key, after the retired key's under two-signatures. */
function deliverySignatures(
  message: { method: string; url: string; headers: Array<[string, string]> },
  extra: Array<[string, string]>,
  payload: DeliveryPayload,
  signer: {
    key: WebhookSigningKey;
    createdSeconds: number;
    windowSeconds: number;
    faults: FaultFlags;
    choices: DeliveryChoices;
  },
): SignedHeaders[] {
  const { key, createdSeconds, windowSeconds, faults, choices } = signer;
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
  const expires = created + (choices.deliverySignature === 'long-window' ? LONG_WINDOW_SECONDS : windowSeconds);
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
  return signed;
}

/** The faulty server's encoding: the form encoder of its token endpoint, with the nested data as JSON text. */
function formEncoded(payload: DeliveryPayload): string {
  const { data, ...flat } = payload;
  return new URLSearchParams({
    ...Object.fromEntries(Object.entries(flat).map(([k, v]) => [k, String(v)])),
    data: JSON.stringify(data),
  }).toString();
}
