// Domain events ("Events" in the spec). Routes emit them at the emission ties the spec names; the webhook delivery
// subscribes here, so routes never know whether or where an event is delivered.

type EventName = 'AUTH.CREATED' | 'AUTH.DELETED' | 'WEBHOOK.CREATED' | 'WEBHOOK.UPDATED' | (string & {});

export interface DomainEvent {
  name: EventName;
  /** The client the event belongs to: deliveries go to that client's webhook only. */
  clientId: string;
  /** Unix seconds, from the server clock. */
  occurredAt: number;
  data: Record<string, unknown>;
}

export type EventListener = (event: DomainEvent) => void;

export class EventBus {
  private readonly listeners = new Set<EventListener>();

  /** Returns the unsubscribe function. */
  on(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: DomainEvent): void {
    for (const listener of this.listeners) {
      // A failing subscriber (a webhook that cannot be reached) must not turn the request that caused it into a 500.
      try {
        listener(event);
      } catch {
        /* the subscriber reports its own failures */
      }
    }
  }
}
