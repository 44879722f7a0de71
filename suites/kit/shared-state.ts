// State on the target that some checks change, or read twice and compare. Checks naming the same state never overlap,
// whatever the run's concurrency (src/engine/schedule.ts): over `webhook-config` they run in declaration order; over
// `mutable-customer` in declaration order within a suite, in turns between suites (SUITE_ORDER_STATES); over
// `token-revocation` they take turns in any order (TURN_STATES). A check that sends a request
// changing such state must name it: CheckContext refuses the request otherwise, so a forgotten declaration shows up as
// an error on every run instead of as a failure that comes and goes with timing.

/**
 * - `mutable-customer`: fixtures.mutableCustomerId, changed by PUT /customers.
 * - `webhook-config`: the client's webhook configuration (POST/PUT /webhooks) and the deliveries it brings.
 * - `token-revocation`: tokens of a check's own (obtained, judged, revoked with POST /oauth/revoke). A server may end
 *   every token of the client on a revocation, or the older ones on a new token (REQ-LIFE-03, REQ-LIFE-05): run
 *   beside each other, such checks would take each other's tokens away mid-check, so they take turns; and each runs in
 *   the session's exclusive turn (Session.hold), so renewing the run's token for another check cannot end them either.
 */
export const SHARED_STATES = ['mutable-customer', 'webhook-config', 'token-revocation'] as const;
export type SharedState = (typeof SHARED_STATES)[number];

/**
 * The states whose checks need no order, only turns: a check over `token-revocation` obtains the tokens it judges and
 * revokes them itself, so none depends on another having run before it; taking them in any order lets the webhooks
 * suite's token checks go between the auth suite's instead of after all of them.
 */
export const TURN_STATES: readonly SharedState[] = ['token-revocation'];

/**
 * The states whose checks keep declaration order within their suite, and take turns between suites. Every check over
 * `mutable-customer` reads the customer as it finds it and puts back what it changed (withCustomerRestored, or a PUT
 * of the customer's own values), so none depends on another suite's having run before it: the resources suite's
 * changes need not wait for the signing and auth suites' PUTs of unchanged values, nor hold up what waits on them.
 *
 * Not `webhook-config`: the webhooks suite's checks share one configuration, saved by its setup and put back only by
 * its last check, each leaving it as the next expects; a check of another suite in between (signing.reject.post-body-
 * tampered, resources.errors.no-token) would see the suite's receiver configured, and a delivery it caused on a
 * server that wrongly took its request would land in the suite's waits. Those checks stay before the suite, as
 * declared; they are the first over the state in their own suites, so they start at once and delay it little.
 */
export const SUITE_ORDER_STATES: readonly SharedState[] = ['mutable-customer'];

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The shared state a request may change: `path` relative to the base URL (a query may follow). */
export function stateChangedBy(method: string, path: string): SharedState | undefined {
  if (READS.has(method.toUpperCase())) return undefined;
  if (/^\/oauth\/revoke\/?(?:[?#]|$)/.test(path)) return 'token-revocation';
  if (/^\/customers\/?(?:[?#]|$)/.test(path)) return 'mutable-customer';
  if (/^\/webhooks(?:[/?#]|$)/.test(path)) return 'webhook-config';
  return undefined;
}
