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
/** A name the server stores: one of SUBSCRIPTIONS, or any string where unknown names are kept (the unknownSubscription choice). */
export type Subscription = string;

/** "WEBHOOK.CREATED — this subscription is created automatically". */
const AUTOMATIC_SUBSCRIPTION: Subscription = 'WEBHOOK.CREATED';

/** The event POST /webhooks/test delivers; not a subscription name, since the spec lists none for it. */
export const TEST_EVENT = 'WEBHOOK.TEST';

function isSubscription(value: unknown): boolean {
  return typeof value === 'string' && (SUBSCRIPTIONS as readonly string[]).includes(value);
}

/**
 * What the server does with a name it does not know ("Event kinds of other domains …: not shown"): refuses it (400),
 * accepts it and leaves it out of the stored list, or accepts it and keeps it.
 */
export type UnknownSubscriptions = 'refused' | 'ignored' | 'kept';

/**
 * An array of strings, known names case-sensitive; duplicates are folded (they mean the same subscription). A name
 * that is not a string is refused whatever the server does with unknown names ("array of strings").
 */
export function parseSubscriptions(value: unknown, unknownNames: UnknownSubscriptions = 'refused'): Subscription[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw badRequest('subscriptions must be an array of strings');
  const unknown = value.filter((v) => !isSubscription(v));
  if (unknown.length > 0 && unknownNames === 'refused') {
    const shown = unknown.slice(0, 3).map((v) => JSON.stringify(v).slice(0, 40));
    throw badRequest(`unknown subscription ${shown.join(', ')}: each must be one of ${SUBSCRIPTIONS.join(', ')}`);
  }
  const kept = unknownNames === 'ignored' ? value.filter(isSubscription) : value;
  return [...new Set(kept as string[])];
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
