// The keys the server published in observed traffic, with which the delivery checks (../delivery.ts) and the key check
// (../key.ts, which key signed) verify a proxy session's deliveries (suites/kit/delivery-verification.ts).
import type { KeyObject } from 'node:crypto';
import { type CheckContext } from '../../../src/engine/index.js';
import { keyOfAnswer } from './endpoints.js';
import { observedWebhookReads } from './observed.js';

/**
 * The keys the server published in the traffic, newest first: every 2xx GET /webhooks/key that holds one, as the run's
 * receiver takes every key published in the run (a server may make a new one each time the webhook is configured). A
 * skip when the traffic holds no 2xx answer of GET /webhooks/key.
 */
export function observedKeys(ctx: CheckContext): KeyObject[] {
  return observedWebhookReads(ctx, '/webhooks/key')
    .map((r) => keyOfAnswer(r.res))
    .flatMap((got) => ('key' in got ? [got.key.key] : []))
    .reverse();
}
