// The broken example clients (broken.ts): the correct client with ONE flaw each, the client check that flaw must fail,
// and the scenario that shows it. The client detection matrix runs each and expects exactly `fails` to fail. Data only:
// importing this module runs no client.

/** The scenario a flaw shows in (`conformance client --scenario`). */
type Scenario = 'token' | 'read' | 'update' | 'renew' | 'throttle' | 'ussd' | 'webhooks';

export interface Flaw {
  /** The client checks it must fail: one, but for the acceptance example (accepts-forged-deliveries). */
  fails: readonly string[];
  scenario: Scenario;
  /** What the client does wrong, in one line. */
  what: string;
}

export const FLAWS = {
  'bad-signature': {
    fails: ['client.requests.signed'],
    scenario: 'token',
    what: 'signs with a key of its own, not the registered one',
  },
  'uncovered-header': {
    fails: ['client.requests.covers-headers'],
    scenario: 'token',
    what: 'leaves x-client-id out of the signed components while sending it',
  },
  'stale-created': {
    fails: ['client.requests.signature-window'],
    scenario: 'token',
    what: 'signs with created 10 minutes ago (expired 5 minutes ago)',
  },
  'no-digest': {
    fails: ['client.requests.digest'],
    scenario: 'token',
    what: 'sends bodies without Content-Digest',
  },
  'no-client-id': {
    fails: ['client.requests.client-id'],
    scenario: 'token',
    what: 'sends no X-Client-Id',
  },
  'no-authorization': {
    fails: ['client.requests.authorization'],
    scenario: 'token',
    what: 'sends no Authorization header after obtaining its token',
  },
  'no-idempotency-key': {
    fails: ['client.requests.idempotency-key'],
    scenario: 'token',
    what: 'sends mutating requests without X-Idempotency-Key',
  },
  'reused-idempotency-key': {
    fails: ['client.requests.idempotency-unique'],
    scenario: 'token',
    what: 'sends one idempotency key with every mutating request (the token request and the revoke)',
  },
  'json-token-request': {
    fails: ['client.token.form'],
    scenario: 'token',
    what: 'asks for its token with a JSON body instead of a form-encoded one',
  },
  'no-revoke': {
    fails: ['client.token.revoked'],
    scenario: 'token',
    what: 'never revokes its token',
  },
  'page-index': {
    fails: ['client.paging.next-page'],
    scenario: 'read',
    what: 'asks for page=1, 2… (page indices) instead of meta.nextPage',
  },
  'first-page-only': {
    fails: ['client.paging.complete'],
    scenario: 'read',
    what: 'reads the first page of transactions and stops',
  },
  'no-renewal': {
    fails: ['client.renew.new-token'],
    scenario: 'renew',
    what: 'gives up on a 401 instead of obtaining a new token',
  },
  'stale-token-reused': {
    fails: ['client.renew.no-stale-token'],
    scenario: 'renew',
    what: 'retries once with the token just refused before obtaining a new one',
  },
  'ignores-retry-after': {
    fails: ['client.throttle.retry-after'],
    scenario: 'throttle',
    what: 'retries a 429 at once, without waiting Retry-After (still at most 3 times)',
  },
  'retries-forever': {
    fails: ['client.throttle.bounded'],
    scenario: 'throttle',
    what: 'waits as told but retries a 429 without bound, until it is killed',
  },
  'builds-ussd-urls': {
    fails: ['client.ussd.given-urls'],
    scenario: 'ussd',
    what: 'builds each follow-up URL itself (its own query order) instead of requesting the requestUrl given',
  },
  'ussd-option-as-string': {
    fails: ['client.ussd.route'],
    scenario: 'ussd',
    what: 'looks the choice up as typed ("4") among the integer ussdOptions[].option, finds none and gives up',
  },
  'accepts-forged-deliveries': {
    fails: ['client.webhooks.discards-forged', 'client.webhooks.discards-stale'],
    scenario: 'webhooks',
    what: 'the acceptance example: accepts and answers 2xx to every delivery, checking nothing',
  },
  'skips-digest-check': {
    fails: ['client.webhooks.discards-forged'],
    scenario: 'webhooks',
    what: 'verifies the signature but not the Content-Digest against the body',
  },
  'skips-signature-check': {
    fails: ['client.webhooks.discards-forged'],
    scenario: 'webhooks',
    what: 'verifies the digest and the created/expires window but not the signature bytes',
  },
  'skips-window-check': {
    fails: ['client.webhooks.discards-stale'],
    scenario: 'webhooks',
    what: 'verifies digest and signature but not created/expires',
  },
  'answers-200-to-forged': {
    fails: ['client.webhooks.refuses-forged'],
    scenario: 'webhooks',
    what: 'discards forged deliveries but answers them 200',
  },
  'rejects-all-deliveries': {
    fails: ['client.webhooks.accepts-valid'],
    scenario: 'webhooks',
    what: 'refuses every delivery, valid ones too',
  },
  'unregistered-receiver': {
    fails: ['client.webhooks.registered'],
    scenario: 'webhooks',
    what: 'starts its receiver but never registers it with POST /webhooks',
  },
} as const satisfies Record<string, Flaw>;

export type FlawName = keyof typeof FLAWS;
