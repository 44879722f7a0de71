// The open points of webhook configuration, events and deliveries (spec "Webhooks", "Events", "Authentication" 8):
// what the endpoints answer, which body fields they need, whether a webhook is ever deactivated, when the key is
// generated, what a payload looks like and where it names its event, unknown subscription names, ACCOUNT events, order
// and duplicates, header names, and how a delivery is signed and digested within RFC 9421/9530. The receiver and
// suites/webhooks/index.ts accept every value and record it.
//
// Not a switch: "*" as a synonym of ALL (Stripe's ['*'], GitHub's wildcard). The suite never sends "*" (its unknown-name
// probe is CONFORMANCE.NO-SUCH-EVENT), so no run could tell a server that takes it from one that refuses it.
import type { ChoiceDef } from './types.js';

export const WEBHOOK_CHOICES = {
  webhookAnswer: {
    requirements: ['REQ-WHKEP-08'],
    values: [
      {
        value: 'envelope',
        says: 'every webhook endpoint answers {data, code, message}, the Webhook in data',
        realizes: ['the Webhook in {data, code, message}'],
        recorded: 'POST /webhooks answered 20[01] with the Webhook at data',
      },
      {
        value: 'bare',
        says: 'every webhook endpoint answers the bare object (the Webhook, the key) as the body',
        realizes: ['the bare Webhook'],
        recorded: 'POST /webhooks answered 20[01] with the bare Webhook as the body',
      },
      {
        value: 'partial',
        says: 'POST and PUT /webhooks answer only webhookId and status (in the envelope); GET /webhooks gives the whole Webhook',
        realizes: ['fewer fields than a Webhook (e.g. webhookId and status)'],
        recorded: 'POST /webhooks answered 20[01] with some fields of a Webhook at data',
      },
      {
        value: 'empty',
        says: 'POST, PUT /webhooks and POST /webhooks/test answer with no body; GET /webhooks gives the Webhook',
        realizes: ['no body'],
        recorded: 'POST /webhooks answered 20[01] with an empty body',
      },
      {
        value: 'list',
        says: 'GET /webhooks answers data = [Webhook], a list holding the one webhook (Upvest); POST and PUT answer the Webhook in the envelope',
        realizes: ['the Webhook as the one item of a list in data'],
        recorded: 'GET /webhooks answered 200 with the Webhook at data\\[0\\]',
      },
    ],
  },
  webhookFields: {
    requirements: ['REQ-WHKEP-09'],
    values: [
      {
        value: 'put-either',
        says: 'POST /webhooks needs url and subscriptions; PUT takes either (the other is kept)',
        realizes: ['subscriptions optional'],
        recorded: 'with the url alone was accepted',
      },
      {
        value: 'both-required',
        says: 'POST and PUT /webhooks both need url and subscriptions (400 otherwise)',
        realizes: ['url and subscriptions both required'],
        recorded: 'with the url alone was refused',
      },
    ],
  },
  webhookDeactivation: {
    requirements: ['REQ-STATE-08'],
    values: [
      {
        value: 'never',
        says: 'a configured webhook stays ACTIVE',
        realizes: ['a configured webhook stays ACTIVE'],
        recorded: 'deactivate.*not probed',
      },
      {
        value: 'after-failures',
        says: 'a webhook whose last 3 deliveries failed is DEACTIVED until it is configured again',
        realizes: ['a webhook is deactivated after failed deliveries'],
        recorded: 'deactivate.*not probed',
      },
    ],
  },
  webhookKeyRotation: {
    requirements: ['REQ-WHKEP-05'],
    basis:
      'REQ-WHKEP-05: "the key is generated when the webhook is configured": once, or at each configuration (create and update).',
    values: [
      {
        value: 'once',
        says: 'the key is generated when the webhook is created and kept across updates',
        realizes: [],
        recorded: 'the published key did not change',
      },
      {
        value: 'every-configuration',
        says: 'a new key is generated at every POST and PUT /webhooks',
        realizes: [],
        recorded: 'GET /webhooks/key gave another key',
      },
    ],
  },
  eventPayload: {
    requirements: ['REQ-EVT-15', 'REQ-EVT-18'],
    values: [
      {
        value: 'event',
        says: '{eventId, event, webhookId, occurredAt, data}: the name at `event`, the token or webhook in data',
        realizes: ['the event name in any member (event, type, …)', 'the token or webhook named by id, or not'],
        recorded: 'event name at payload\\.event\\b',
      },
      {
        value: 'type',
        says: '{id, type, createdAt, data}: the name at `type`',
        realizes: ['the event name in any member (event, type, …)'],
        recorded: 'event name at payload\\.type\\b',
      },
      {
        value: 'nested',
        says: '{meta: {id, eventType, timestamp}, payload: data}: the name nested',
        realizes: ['the event name in any member (event, type, …)'],
        recorded: 'event name at .*payload\\.meta\\.eventType',
      },
      {
        value: 'anonymous',
        says: '{event, occurredAt}: the name only, no token, webhook or other data',
        realizes: ['the token or webhook named by id, or not'],
        recorded: 'the payload does not name the tokenId',
      },
      {
        value: 'in-header',
        says: "{id, webhookId, occurredAt, data} with no event name: the X-Event-Type header names it (as GitHub's X-GitHub-Event, Shopify's X-Shopify-Topic)",
        realizes: ['the event name only in a header (X-Event-Type, ce-type), not in the payload', 'other names'],
        recorded: 'event name at header x-event-type',
      },
      {
        value: 'cloudevents',
        says: 'CloudEvents 1.0 binary mode: the data as the body, ce-specversion, ce-id, ce-source, ce-type (com.example.investment.auth.created…) and ce-time headers',
        realizes: ['the event name only in a header (X-Event-Type, ce-type), not in the payload', 'other names'],
        recorded: 'event name at .*header ce-type \\(as "com\\.example\\.investment\\.[a-z]+\\.[a-z]+"\\)',
      },
      {
        value: 'cloudevents-structured',
        says: 'CloudEvents 1.0 structured mode: the body {specversion, id, source, type (com.example.investment.auth.created…), time, datacontenttype, data}, Content-Type application/cloudevents+json',
        realizes: ['the event name in any member (event, type, …)'],
        recorded: 'every body JSON; Content-Type application/cloudevents\\+json',
      },
      {
        value: 'batch',
        says: 'every body a batch {"events": [{eventId, event, occurredAt, data}, …]}, oldest first (Upvest): an event waits for the next event of the same webhook, at most 200 ms, and goes with it',
        realizes: ['several events in one delivery (a list, oldest first)'],
        recorded: 'carry a list of events at payload\\.events ',
      },
      {
        value: 'cloudevents-batch',
        says: 'CloudEvents 1.0 batched mode: every body a JSON array of structured events, Content-Type application/cloudevents-batch+json, bundled as batch bundles them',
        realizes: [
          'several events in one delivery (a list, oldest first)',
          'the event name in any member (event, type, …)',
        ],
        recorded: 'carry a list of events at payload \\(',
      },
    ],
  },
  unknownSubscription: {
    requirements: ['REQ-EVT-04'],
    values: [
      {
        value: 'refused',
        says: 'POST and PUT /webhooks refuse a subscription name outside the Events table, ALL and ACCOUNT (400)',
        realizes: ['an unknown name refused'],
        recorded: 'an unknown name refused',
      },
      {
        value: 'ignored',
        says: 'an unknown subscription name is accepted and left out of the stored list',
        realizes: ['accepted and ignored'],
        recorded: 'an unknown name accepted and ignored',
      },
      {
        value: 'kept',
        says: 'an unknown subscription name is accepted and stored (listed by GET /webhooks; no event selects it)',
        realizes: ['accepted and kept'],
        recorded: 'an unknown name accepted and kept',
      },
    ],
  },
  accountEvents: {
    requirements: ['REQ-EVT-16'],
    values: [
      { value: 'none', says: 'no ACCOUNT events', realizes: ['no ACCOUNT events'], recorded: 'no ACCOUNT event' },
      {
        value: 'on-customer-update',
        says: 'PUT /customers delivers ACCOUNT.UPDATED to webhooks subscribed to ACCOUNT or ALL',
        realizes: ['ACCOUNT events on account changes'],
        recorded: 'ACCOUNT event delivered',
      },
    ],
  },
  deliveryOrder: {
    requirements: ['REQ-EVT-17'],
    values: [
      {
        value: 'in-order',
        says: 'one queue per webhook: events arrive in the order they occurred; failed attempts are retried',
        realizes: ['in order of the requests', 'retries on failure or not'],
        recorded: 'in the order of the requests',
      },
      {
        value: 'any-order',
        says: "AUTH.CREATED waits for its token's next event (1 s at most, or 1 s past the end of a 429 the client got meanwhile), so a revoke is delivered before the creation",
        realizes: ['any order'],
        recorded: 'any order',
      },
      {
        value: 'duplicates',
        says: 'at-least-once: every event is delivered twice, the same body each time',
        realizes: ['retries on failure or not'],
        recorded: 'repeated a body already delivered',
      },
    ],
  },
  deliveryHeaders: {
    requirements: ['REQ-EVT-18'],
    values: [
      {
        value: 'rfc',
        says: 'deliveries carry Content-Type, Content-Length, Content-Digest, Signature-Input and Signature only',
        realizes: ['Signature, Signature-Input, Content-Digest as on requests'],
        recorded: 'header names: (?!.*x-event-id)',
      },
      {
        value: 'extra',
        says: 'deliveries also carry X-Event-Id, X-Event-Type (not for a batch) and X-Event-Timestamp (signed)',
        realizes: ['other names'],
        recorded: 'header names: .*x-event-id',
      },
      {
        value: 'standard-webhooks',
        says: "deliveries also carry Standard Webhooks' webhook-id and webhook-timestamp (Unix seconds) and an attempt counter X-Delivery-Attempt (1, 2, …), none of them signed",
        realizes: [
          'other names',
          'unsigned headers beside the signed ones (webhook-id, webhook-timestamp, an attempt counter)',
        ],
        recorded: 'header names: .*webhook-id, webhook-timestamp, x-delivery-attempt',
      },
    ],
  },
  deliverySignature: {
    requirements: ['REQ-AUTH-13', 'REQ-AUTH-12', 'REQ-EVT-14'],
    basis:
      'How deliveries are signed and digested is "as described under Authentication", whose signature base and parameters are "not shown": any RFC 9421 Ed25519 signature and RFC 9530 digest.',
    values: [
      {
        value: 'profile',
        says: "sig1, keyid/created/expires, the profile's component order, sha-512: as the client signs requests",
        realizes: ['RFC 9421 with Ed25519 (the signing profile)'],
        recorded:
          'signature label sig1 \\(1 signature\\) covering \\["@method","@target-uri","content-digest","content-length","content-type"\\].*digest sha-512',
      },
      {
        value: 'variant',
        says: 'label wh; created, keyid, alg="ed25519", nonce, tag and no expires; another component order with @authority and @path',
        realizes: ['RFC 9421 with Ed25519 (the signing profile)'],
        recorded: 'signature label wh ',
      },
      {
        value: 'sha-256',
        says: "the profile's signature over a Content-Digest with sha-256 only",
        realizes: ['RFC 9421 with Ed25519 (the signing profile)'],
        recorded: 'digest sha-256',
      },
      {
        value: 'two-signatures',
        says: 'two signatures: "retired" by a key no longer published, then sig1 by the published key',
        realizes: ['RFC 9421 with Ed25519 (the signing profile)'],
        recorded: '\\(2 signatures\\)',
      },
      {
        value: 'long-window',
        says: "the profile's signature with expires = created + 3 days, so that a body retried for days stays valid",
        realizes: [
          'RFC 9421 with Ed25519 (the signing profile)',
          'deliveries signed for days (expires = created + 3 days)',
        ],
        recorded: 'expires - created 259200 s',
      },
    ],
  },
} as const satisfies Record<string, ChoiceDef>;
