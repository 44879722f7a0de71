// Webhooks as a whole: the configurations, and the bridge from domain events to deliveries. Routes emit events and
// never call delivery themselves (see events.ts); only the test event, which is no domain event, is queued directly.
import { randomUUID } from 'node:crypto';
import type { DomainEvent, EventBus } from '../events.js';
import { WEBHOOK_FAULT, type FaultFlags } from '../faults/flags.js';
import { Deliverer, type DeliveryAttempt, type WebhookCa } from './delivery.js';
import type { Choices } from '../choices/index.js';
import { batched, signedDelivery, type DeliveryPayload } from './message.js';
import { inTimestampUnit, timestampInUnit } from '../views.js';
import { CreationHolds } from './creation-hold.js';
import { WebhookRegistry, type Webhook } from './registry.js';
import type { WebhookSigningKey } from './signing-key.js';
import { isSubscribed, TEST_EVENT } from './subscriptions.js';

const DEFAULT_DELIVERY_RETRIES = 2;
const DEFAULT_DELIVERY_BACKOFF_MS = 200;
const DEFAULT_DELIVERY_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_PENDING_DELIVERIES = 100;
/**
 * eventPayload=batch, cloudevents-batch: how long an event waits for the next event of the same webhook, with which it
 * goes as one request. What a batch holds depends on timing, as on a real server: no check may depend on it.
 */
const BATCH_HOLD_MS = 200;
/** webhookDeactivation=after-failures: failed deliveries in a row that deactivate a webhook. */
const FAILURES_TO_DEACTIVATE = 3;

export interface WebhookServiceOptions {
  events: EventBus;
  /** Milliseconds since the epoch: the server clock, which also dates signatures. */
  clock: () => number;
  faults: FaultFlags;
  /** The open points of delivery as the server makes them (choices/webhooks.ts); the defaults when absent. */
  choices?: Pick<
    Choices,
    'eventPayload' | 'deliveryHeaders' | 'deliverySignature' | 'deliveryOrder' | 'webhookDeactivation' | 'timestampUnit'
  >;
  /** Extra CA trusted for delivery, besides the system roots. */
  ca?: WebhookCa;
  /** One key for every client instead of a key per client. */
  key?: WebhookSigningKey;
  retries?: number;
  backoffMs?: number;
  timeoutMs?: number;
  maxPending?: number;
  onAttempt?: (attempt: DeliveryAttempt) => void;
}

export class WebhookService {
  readonly registry: WebhookRegistry;
  private readonly deliverer: Deliverer;
  private readonly unsubscribe: () => void;
  /** Deliveries the unsubscribed-delivered-late fault holds back, per client. */
  private readonly held = new Map<string, Array<() => void>>();
  /** deliveryOrder=any-order: AUTH.CREATED deliveries waiting for the next event about their token. */
  private readonly delayed: CreationHolds;
  /** webhookDeactivation=after-failures: failed deliveries in a row, per client. */
  private readonly failures = new Map<string, number>();
  /** eventPayload=batch, cloudevents-batch: the event waiting for the next one, per client and URL. */
  private readonly batches = new Map<
    string,
    { clientId: string; url: string; events: DeliveryPayload[]; copies: number; timer: NodeJS.Timeout }
  >();
  /** Callers of settled() waiting for a delivery held on a timer (a batch, an AUTH.CREATED) to be let go. */
  private readonly holdWaiters: Array<() => void> = [];

  constructor(private readonly options: WebhookServiceOptions) {
    this.registry = new WebhookRegistry(options.key);
    this.delayed = new CreationHolds(options.clock, () => this.letGo());
    this.deliverer = new Deliverer({
      ...(options.ca !== undefined ? { ca: options.ca } : {}),
      retries: count('deliveryRetries', options.retries ?? DEFAULT_DELIVERY_RETRIES, 0),
      backoffMs: count('deliveryBackoffMs', options.backoffMs ?? DEFAULT_DELIVERY_BACKOFF_MS, 0),
      timeoutMs: count('deliveryTimeoutMs', options.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS, 1),
      maxPending: count('maxPendingDeliveries', options.maxPending ?? DEFAULT_MAX_PENDING_DELIVERIES, 0),
      onAttempt: (attempt) => {
        this.countFailures(attempt);
        options.onAttempt?.(attempt);
      },
    });
    this.unsubscribe = options.events.on((event) => this.onEvent(event));
  }

  /** Queues the test event whatever the subscriptions: the client asked for it by name. Undefined without a webhook. */
  sendTest(clientId: string): { eventId: string; event: string; webhook: Webhook } | undefined {
    const webhook = this.registry.get(clientId);
    if (webhook === undefined) return undefined;
    const occurredAt = Math.floor(this.options.clock() / 1000);
    const data = { webhookId: webhook.webhookId, message: 'Webhook test' };
    const eventId = this.options.faults.has(WEBHOOK_FAULT.testNotDelivered)
      ? randomUUID()
      : this.queue(clientId, webhook, TEST_EVENT, occurredAt, data);
    return { eventId, event: TEST_EVENT, webhook };
  }

  /**
   * Resolves once every delivery caused so far has had its last attempt: none held on a timer (a batch, an
   * AUTH.CREATED under deliveryOrder=any-order), none queued, in flight or waiting for a retry. Lets a harness end a
   * session when the server has nothing more to send for what happened (the proxy matrix's webhooks rows), without
   * guessing a time. Deliveries the unsubscribed-delivered-late fault holds until a later event are not waited for.
   */
  async settled(): Promise<void> {
    for (;;) {
      if (this.batches.size > 0 || this.delayed.size > 0)
        await new Promise<void>((resolve) => this.holdWaiters.push(resolve));
      else if (!this.deliverer.isIdle) await this.deliverer.idle();
      else return;
    }
  }

  /** The rate limit answered the client 429 until `until`: what deliveryOrder=any-order holds waits that long too. */
  throttled(clientId: string, until: number): void {
    this.delayed.throttled(clientId, until);
  }

  close(): Promise<void> {
    this.unsubscribe();
    this.delayed.clear();
    for (const batch of this.batches.values()) clearTimeout(batch.timer);
    this.batches.clear();
    this.letGo();
    return this.deliverer.close();
  }

  /** A held delivery went to the deliverer (or was cancelled): settled() looks again. */
  private letGo(): void {
    for (const wake of this.holdWaiters.splice(0)) wake();
  }

  private onEvent(event: DomainEvent): void {
    const webhook = this.registry.get(event.clientId);
    if (webhook === undefined || webhook.status !== 'ACTIVE') return;
    const faults = this.options.faults;
    if (event.name === 'AUTH.CREATED' && faults.has(WEBHOOK_FAULT.noAuthCreatedEvent)) return;
    const deliver = () => this.queueAsChosen(event.clientId, webhook, event.name, event.occurredAt, event.data);
    if (subscribedUnder(webhook.subscriptions, event.name, faults)) {
      deliver();
      this.releaseHeld(event.clientId);
    } else if (faults.has(WEBHOOK_FAULT.unsubscribedDelivered)) deliver();
    else if (faults.has(WEBHOOK_FAULT.unsubscribedDeliveredLate)) this.hold(event.clientId, deliver);
  }

  /** The late fault's second queue: bounded like the deliverer's, the oldest dropped past it. */
  private hold(clientId: string, deliver: () => void): void {
    let held = this.held.get(clientId);
    if (held === undefined) this.held.set(clientId, (held = []));
    held.push(deliver);
    if (held.length > DEFAULT_MAX_PENDING_DELIVERIES) held.shift();
  }

  private releaseHeld(clientId: string): void {
    const held = this.held.get(clientId);
    this.held.delete(clientId);
    for (const deliver of held ?? []) deliver();
  }

  /** Delivery order and count as the deliveryOrder choice makes them ("Delivery retries and ordering: not shown"). */
  private queueAsChosen(
    clientId: string,
    webhook: Webhook,
    name: string,
    occurredAt: number,
    data: Record<string, unknown>,
  ): void {
    const order = this.options.choices?.deliveryOrder ?? 'in-order';
    const tokenId = typeof data.tokenId === 'string' ? data.tokenId : undefined;
    if (order === 'any-order' && name === 'AUTH.CREATED' && tokenId !== undefined) {
      this.delayed.hold(tokenId, clientId, () => this.queue(clientId, webhook, name, occurredAt, data));
      return;
    }
    // At-least-once: the same event (same eventId, same body) once more; in a batch, the same batch twice.
    this.queue(clientId, webhook, name, occurredAt, data, order === 'duplicates' ? 2 : 1);
    if (tokenId !== undefined) this.delayed.release(tokenId);
  }

  /** A server that gives up on a URL whose deliveries keep failing; any success starts the count again. */
  private countFailures(attempt: DeliveryAttempt): void {
    if (this.options.choices?.webhookDeactivation !== 'after-failures') return;
    if (attempt.outcome === 'delivered') this.failures.delete(attempt.clientId);
    if (attempt.outcome !== 'failed') return;
    const n = (this.failures.get(attempt.clientId) ?? 0) + 1;
    this.failures.set(attempt.clientId, n);
    if (n >= FAILURES_TO_DEACTIVATE) {
      this.registry.deactivate(attempt.clientId);
      this.failures.delete(attempt.clientId);
    }
  }

  /** Queues an event for delivery, `copies` times (the same body each time); in a batch where the server batches. */
  private queue(
    clientId: string,
    webhook: Webhook,
    name: string,
    occurredAt: number,
    data: Record<string, unknown>,
    copies = 1,
  ): string {
    // A bearer token must never leave in a delivery, whatever an emitter put in its event.
    const { token: _secret, ...safe } = data;
    // Times in the unit the server shows everywhere (timestampUnit): the event's own and those of the records it carries.
    const unit = { timestampUnit: this.options.choices?.timestampUnit ?? 'seconds' };
    const payload: DeliveryPayload = {
      eventId: randomUUID(),
      event: name,
      webhookId: webhook.webhookId,
      occurredAt: timestampInUnit(occurredAt, unit),
      data: inTimestampUnit(safe, unit),
    };
    if (batched(this.options.choices?.eventPayload)) this.addToBatch(clientId, webhook.url, payload, copies);
    else for (let i = 0; i < copies; i++) this.send(clientId, webhook.url, [payload]);
    return payload.eventId;
  }

  /**
   * An event waits for the next event of the same client and URL, at most BATCH_HOLD_MS, and goes with it as one
   * request: batches of one or two events, in the order they were queued (Upvest: "ordered by the created_at field").
   */
  private addToBatch(clientId: string, url: string, payload: DeliveryPayload, copies: number): void {
    const name = `${clientId}\n${url}`;
    const waiting = this.batches.get(name);
    if (waiting !== undefined) {
      clearTimeout(waiting.timer);
      this.batches.delete(name);
      for (let i = 0; i < Math.max(copies, waiting.copies); i++)
        this.send(clientId, url, [...waiting.events, payload], waiting.events[0]!.eventId);
      this.letGo();
      return;
    }
    const timer = setTimeout(() => {
      this.batches.delete(name);
      for (let i = 0; i < copies; i++) this.send(clientId, url, [payload], payload.eventId);
      this.letGo();
    }, BATCH_HOLD_MS);
    this.batches.set(name, { clientId, url, events: [payload], copies, timer });
  }

  /** Hands one request to the deliverer: one event, or (with `batchId`, stable across attempts) a batch. */
  private send(clientId: string, url: string, events: DeliveryPayload[], batchId?: string): void {
    const [first] = events;
    const sent = batchId === undefined ? first! : { batchId: `batch-${batchId}`, events };
    this.deliverer.enqueue({
      clientId,
      eventId: events.map((e) => e.eventId).join(','),
      event: events.map((e) => e.event).join(','),
      url,
      prepare: (attempt) => {
        const key = this.registry.keyOf(clientId);
        if (key === undefined) throw new Error('a webhook without a signing key');
        return signedDelivery(
          url,
          sent,
          key,
          Math.floor(this.options.clock() / 1000),
          this.options.faults,
          this.options.choices,
          undefined,
          attempt,
        );
      },
    });
  }
}

/** Whether the subscriptions select the event, as the server does or as one of its subscription faults does. */
function subscribedUnder(subscriptions: readonly string[], eventName: string, faults: FaultFlags): boolean {
  const domainOf = (name: string) => name.split('.')[0]!;
  if (faults.has(WEBHOOK_FAULT.exactNamesIgnored))
    return subscriptions.includes('ALL') || subscriptions.includes(domainOf(eventName));
  if (faults.has(WEBHOOK_FAULT.domainNamesIgnored))
    return subscriptions.includes('ALL') || subscriptions.includes(eventName);
  if (faults.has(WEBHOOK_FAULT.exactNameAsDomain)) return isSubscribed(subscriptions.map(domainOf), eventName);
  return isSubscribed(subscriptions, eventName);
}

/** A wrong option fails the start with its name, instead of a delivery loop that never retries or never waits. */
function count(name: string, value: number, min: number): number {
  if (!Number.isSafeInteger(value) || value < min)
    throw new RangeError(`${name} must be an integer >= ${min}, got ${value}`);
  return value;
}
