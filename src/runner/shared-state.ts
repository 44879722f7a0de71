// State on the target that some checks change, or read twice and compare. Checks naming the same state never overlap
// and run in declaration order, whatever the run's concurrency (src/runner/schedule.ts). A check that sends a request
// changing such state must name it: CheckContext refuses the request otherwise, so a forgotten declaration shows up as
// an error on every run instead of as a failure that comes and goes with timing.

/**
 * - `mutable-customer`: fixtures.mutableCustomerId, changed by PUT /customers.
 * - `webhook-config`: the client's webhook configuration (POST/PUT /webhooks) and the deliveries it brings.
 * - `token-revocation`: POST /oauth/revoke. Correct servers revoke the one token presented, but a server that revokes
 *   more (every token of the client) would, run beside it, take the tokens of another check away mid-check; the checks
 *   that revoke take turns, so the one that proves "revoking one token leaves the others alone" sees only its own.
 */
export type SharedState = 'mutable-customer' | 'webhook-config' | 'token-revocation';

/** A check sent a request that may change shared state it did not declare: a bug of the check's, never the server's. */
export class UndeclaredSharedState extends Error {}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The shared state a request may change: `path` relative to the base URL (a query may follow). */
export function stateChangedBy(method: string, path: string): SharedState | undefined {
  if (READS.has(method.toUpperCase())) return undefined;
  if (/^\/oauth\/revoke\/?(?:[?#]|$)/.test(path)) return 'token-revocation';
  if (/^\/customers\/?(?:[?#]|$)/.test(path)) return 'mutable-customer';
  if (/^\/webhooks(?:[/?#]|$)/.test(path)) return 'webhook-config';
  return undefined;
}
