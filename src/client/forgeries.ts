// STUB until helper "forge"'s src/client/forgeries.ts is merged (the integrator keeps forge's version): the harness
// (scenario.ts) calls sendDeliveries with this signature; this stub sends nothing.
import type { Redactor } from '../http/redact.js';
import type { WebhookSigningKey } from '../reference/webhooks/signing-key.js';
import type { SentDelivery } from './types.js';

export interface DeliveryPlan {
  /** The https URL the client registered (POST or PUT /webhooks). */
  url: string;
  /** The CA (PEM) the receiver's certificate is checked against. */
  receiverCa: string;
  /** The sandbox's webhook key, the one GET /webhooks/key published. */
  key: WebhookSigningKey;
  webhookId: string;
  /** The run's exchange numbering, shared with the client's requests. */
  nextSeq: () => number;
  redactor: Redactor;
  /** Bound on one delivery, connection to the end of the answer. */
  timeoutMs: number;
  /** Aborted: the delivery in flight ends with an error and no further one is sent. */
  signal?: AbortSignal;
}

export function sendDeliveries(_plan: DeliveryPlan): Promise<SentDelivery[]> {
  return Promise.resolve([]);
}
