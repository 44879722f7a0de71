// The fault flags: the faults that the server's own code implements where the deviation lives (a USSD menu, a webhook
// delivery), because a middleware could not rewrite it into a finished reply. The fault definitions (ussd.ts,
// webhooks.ts) and that domain code both name a flag from here, so a misspelt flag is a type error. Imports nothing:
// domain code can import it without reaching the fault catalog.

export const USSD_FAULT = {
  deadLink: 'ussd.dead-link',
  optionNotInMessage: 'ussd.option-not-in-message',
  noBackOption: 'ussd.no-back-option',
  relativeUrl: 'ussd.relative-url',
  customerDropped: 'ussd.customer-dropped',
  pagingLoop: 'ussd.paging-loop',
  missingCustomerAccepted: 'ussd.missing-customer-accepted',
  statusFilterBroken: 'ussd.status-filter-broken',
  duplicateOptionNumbers: 'ussd.duplicate-option-numbers',
  emptyMessage: 'ussd.empty-message',
  requestTypeNotMethod: 'ussd.request-type-not-method',
  unknownCustomerServed: 'ussd.unknown-customer-served',
  endlessList: 'ussd.endless-list',
  backListedFirst: 'ussd.back-listed-first',
  optionsShifted: 'ussd.options-shifted',
  requestTypeLowercase: 'ussd.request-type-lowercase',
  customerIdChanged: 'ussd.customer-id-changed',
  customerIdNotIntegerServed: 'ussd.customer-id-not-integer-served',
  negativePageCrash: 'ussd.negative-page-crash',
  negativePageServed: 'ussd.negative-page-served',
  statusUnknownCrash: 'ussd.status-unknown-crash',
  booleansJsonParsed: 'ussd.booleans-json-parsed',
  requestsJsonParsed: 'ussd.requests-json-parsed',
  lenientBooleans: 'ussd.lenient-booleans',
  statusFilterIgnored: 'ussd.status-filter-ignored',
  statusFilterMissesCompleted: 'ussd.status-filter-misses-completed',
  optionsSelfLoop: 'ussd.options-self-loop',
  backCycle: 'ussd.back-cycle',
  statusUnknownIgnored: 'ussd.status-unknown-ignored',
  pageNegativeClamped: 'ussd.page-negative-clamped',
  pageNotIntegerIgnored: 'ussd.page-not-integer-ignored',
  requestIdIgnored: 'ussd.request-id-ignored',
  moreListedLast: 'ussd.more-listed-last',
} as const;

export const WEBHOOK_FAULT = {
  wrongSigningKey: 'webhooks.wrong-signing-key',
  digestMismatch: 'webhooks.digest-mismatch',
  unsignedDelivery: 'webhooks.unsigned-delivery',
  unsubscribedDelivered: 'webhooks.unsubscribed-delivered',
  noAuthCreatedEvent: 'webhooks.no-auth-created-event',
  subscriptionsAppended: 'webhooks.subscriptions-appended',
  httpUrlAccepted: 'webhooks.http-url-accepted',
  createdNotAutoSubscribed: 'webhooks.created-not-auto-subscribed',
  digestNotCovered: 'webhooks.digest-not-covered',
  expiredSignature: 'webhooks.expired-signature',
  unsubscribedDeliveredLate: 'webhooks.unsubscribed-delivered-late',
  exactNamesIgnored: 'webhooks.exact-names-ignored',
  exactNameAsDomain: 'webhooks.exact-name-as-domain',
  domainNamesIgnored: 'webhooks.domain-names-ignored',
  urlNotStored: 'webhooks.url-not-stored',
  accountRefused: 'webhooks.account-subscription-refused',
  formEncodedDelivery: 'webhooks.form-encoded-delivery',
  testEndpointMissing: 'webhooks.test-endpoint-missing',
  testNotDelivered: 'webhooks.test-not-delivered',
  noWebhookCreatedEvent: 'webhooks.no-webhook-created-event',
  noWebhookUpdatedEvent: 'webhooks.no-webhook-updated-event',
} as const;

export type FaultFlag =
  (typeof USSD_FAULT)[keyof typeof USSD_FAULT] | (typeof WEBHOOK_FAULT)[keyof typeof WEBHOOK_FAULT];

/** The flags switched on for one server (`ServerState.faults`); empty on a clean server. */
export type FaultFlags = ReadonlySet<FaultFlag>;
