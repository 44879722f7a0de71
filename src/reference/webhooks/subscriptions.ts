// Subscription names ("Events") and the rule deciding whether an event reaches a webhook.
import { badRequest } from '../respond.js';

/** The names of the Events table, plus ALL and ACCOUNT, which "appear as subscription values in webhook requests". */
const SUBSCRIPTIONS = [
  'AUTH',
  'AUTH.CREATED',
  'AUTH.DELETED',
  'WEBHOOK',
  'WEBHOOK.CREATED',
  'WEBHOOK.UPDATED',
  'ALL',
  'ACCOUNT',
] as const;
export type Subscription = (typeof SUBSCRIPTIONS)[number];

/** "WEBHOOK.CREATED — this subscription is created automatically". */
const AUTOMATIC_SUBSCRIPTION: Subscription = 'WEBHOOK.CREATED';

/** The event POST /webhooks/test delivers; not a subscription name, since the spec lists none for it. */
export const TEST_EVENT = 'WEBHOOK.TEST';

function isSubscription(value: unknown): value is Subscription {
  return typeof value === 'string' && (SUBSCRIPTIONS as readonly string[]).includes(value);
}

/** An array of known names, case-sensitive; duplicates are folded (they mean the same subscription). */
export function parseSubscriptions(value: unknown): Subscription[] {
  if (!Array.isArray(value)) throw badRequest('subscriptions must be an array of strings');
  const unknown = value.filter((v) => !isSubscription(v));
  if (unknown.length > 0) {
    const shown = unknown.slice(0, 3).map((v) => JSON.stringify(v)?.slice(0, 40) ?? String(v));
    throw badRequest(`unknown subscription ${shown.join(', ')}: each must be one of ${SUBSCRIPTIONS.join(', ')}`);
  }
  return [...new Set(value as Subscription[])];
}

export function withAutomatic(subscriptions: readonly Subscription[]): Subscription[] {
  return subscriptions.includes(AUTOMATIC_SUBSCRIPTION)
    ? [...subscriptions]
    : [...subscriptions, AUTOMATIC_SUBSCRIPTION];
}

/** Subscribed by its exact name, by its domain (AUTH for AUTH.CREATED…), or by ALL. */
export function isSubscribed(subscriptions: readonly string[], eventName: string): boolean {
  const domain = eventName.split('.')[0]!;
  return subscriptions.includes(eventName) || subscriptions.includes(domain) || subscriptions.includes('ALL');
}
