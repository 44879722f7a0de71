// Webhook configurations, one per client ("register one webhook URL"), each with the key that signs its deliveries.
import { randomUUID } from 'node:crypto';
import type { Subscription } from './subscriptions.js';
import { generateWebhookKey, type WebhookSigningKey } from './signing-key.js';

/** The spec's "Webhook" resource. */
export interface Webhook {
  webhookId: string;
  /** DEACTIVED only under the webhookDeactivation choice after-failures: the spec shows no transition to it. */
  status: 'ACTIVE' | 'DEACTIVED';
  url: string;
  subscriptions: Subscription[];
  createdAt: number;
  updatedAt: number;
}

interface Entry {
  webhook: Webhook;
  key: WebhookSigningKey;
}

function copy(webhook: Webhook): Webhook {
  return { ...webhook, subscriptions: [...webhook.subscriptions] };
}

export class WebhookRegistry {
  private readonly byClient = new Map<string, Entry>();

  /** @param fixedKey signs for every client when given; otherwise each client gets its own key at first configuration. */
  constructor(private readonly fixedKey?: WebhookSigningKey) {}

  get(clientId: string): Webhook | undefined {
    const entry = this.byClient.get(clientId);
    return entry && copy(entry.webhook);
  }

  keyOf(clientId: string): WebhookSigningKey | undefined {
    return this.byClient.get(clientId)?.key;
  }

  /** Undefined when the client has one already (creation never overwrites). */
  create(
    clientId: string,
    config: { url: string; subscriptions: Subscription[] },
    nowSeconds: number,
  ): Webhook | undefined {
    if (this.byClient.has(clientId)) return undefined;
    const webhook: Webhook = {
      webhookId: randomUUID(),
      status: 'ACTIVE',
      url: config.url,
      subscriptions: [...config.subscriptions],
      createdAt: nowSeconds,
      updatedAt: nowSeconds,
    };
    // "The key is generated when the webhook is configured", and kept across updates so receivers need not refetch it.
    this.byClient.set(clientId, { webhook, key: this.fixedKey ?? generateWebhookKey() });
    return copy(webhook);
  }

  /**
   * A new key for the client's webhook, as a server does that reads "the key is generated when the webhook is
   * configured" as every configuration; a fixed key stays. False when the client has no webhook.
   */
  regenerateKey(clientId: string): boolean {
    const entry = this.byClient.get(clientId);
    if (entry === undefined) return false;
    if (this.fixedKey === undefined) entry.key = generateWebhookKey();
    return true;
  }

  /** DEACTIVED: what a server that gives up on a failing URL does (the webhookDeactivation choice). */
  deactivate(clientId: string): void {
    const entry = this.byClient.get(clientId);
    if (entry !== undefined) entry.webhook.status = 'DEACTIVED';
  }

  /** Live again: configuring a webhook makes it ACTIVE, whatever became of it. */
  activate(clientId: string): void {
    const entry = this.byClient.get(clientId);
    if (entry !== undefined) entry.webhook.status = 'ACTIVE';
  }

  /** Undefined when the client has none. */
  update(
    clientId: string,
    change: { url?: string; subscriptions?: Subscription[] },
    nowSeconds: number,
  ): Webhook | undefined {
    const entry = this.byClient.get(clientId);
    if (entry === undefined) return undefined;
    const { webhook } = entry;
    if (change.url !== undefined) webhook.url = change.url;
    if (change.subscriptions !== undefined) webhook.subscriptions = [...change.subscriptions];
    webhook.updatedAt = nowSeconds;
    return copy(webhook);
  }
}
