// Sends deliveries: one queue per client and URL, one delivery in flight per queue (so a receiver sees a client's
// events in the order they occurred, and a URL the client has left behind, retried in vain, never holds up the one it
// uses now), bounded retries with exponential backoff, and nothing left running after close().
import { createSecureContext, rootCertificates } from 'node:tls';
import { Agent, request } from '../../http/undici.js';
import type { SignedDelivery } from './message.js';

export interface DeliveryAttempt {
  eventId: string;
  event: string;
  clientId: string;
  url: string;
  /** 1 for the first try; 0 when the delivery was dropped or cancelled before its first try; for a cancellation between tries, the tries made. */
  attempt: number;
  /**
   * delivered: a 2xx. retrying: a network error, 5xx or 429, and another attempt follows. failed: given up (attempts
   * exhausted, or another status, which a retry would not change). dropped: pushed out of a full queue. cancelled: the
   * server closed first.
   */
  outcome: 'delivered' | 'retrying' | 'failed' | 'dropped' | 'cancelled';
  status?: number;
  error?: string;
  durationMs: number;
}

export interface DeliveryJob {
  clientId: string;
  eventId: string;
  event: string;
  url: string;
  /** Called per attempt (1 for the first): each is signed afresh, so a retry never carries a stale created/expires. */
  prepare: (attempt: number) => SignedDelivery;
}

/**
 * An extra CA (PEM) trusted for delivery besides the system roots, or a function that gives it when the first delivery
 * is made: the built-in target's receiver certificate costs a worker thread half a second of CPU, which a run that
 * starts no receiver (no webhooks check selected) and so draws no delivery should not pay.
 */
export type WebhookCa = string | (() => Promise<string>);

export interface DelivererOptions {
  /** An extra trusted CA (PEM), added to the system roots; or what gives it, asked at the first delivery. */
  ca?: WebhookCa;
  /** Attempts after the first. */
  retries: number;
  /** Delay before the first retry; doubled for each further one. */
  backoffMs: number;
  /** Connect, response-headers and body timeout of one attempt. */
  timeoutMs: number;
  /** Queued deliveries per client and URL beyond the one in flight; the oldest are dropped past it. */
  maxPending: number;
  onAttempt: (attempt: DeliveryAttempt) => void;
}

/** A receiver's answer is read only to free the connection; more than this is not worth reading. */
const MAX_RESPONSE_BYTES = 64 * 1024;

type Outcome = { status: number } | { error: string };

export class Deliverer {
  private readonly queues = new Map<string, DeliveryJob[]>();
  private readonly draining = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private readonly sleeping = new Set<{ timer: NodeJS.Timeout; wake: () => void }>();
  private readonly abort = new AbortController();
  /** Callers of idle(), told when the last queue has drained. */
  private readonly idleWaiters: Array<() => void> = [];
  /** Made at the first delivery: a server that delivers nothing never asks for its CA (see WebhookCa). */
  private agent: Promise<Agent> | undefined;
  private closed = false;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: DelivererOptions) {}

  private dispatcher(): Promise<Agent> {
    return (this.agent ??= this.makeAgent());
  }

  private async makeAgent(): Promise<Agent> {
    const { ca, timeoutMs } = this.options;
    const extra = typeof ca === 'function' ? await ca() : ca;
    return new Agent({
      // One secure context for every connection: given `ca` instead, each new TLS connection parses the ~140 root
      // certificates again (some 30 ms of CPU each).
      connect: {
        timeout: timeoutMs,
        ...(extra ? { secureContext: createSecureContext({ ca: [...rootCertificates, extra] }) } : {}),
      },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      keepAliveTimeout: 1_000,
    });
  }

  /** Never waits: the request that caused the event is answered whatever becomes of its delivery. */
  enqueue(job: DeliveryJob): void {
    if (this.closed) return;
    const name = `${job.clientId}\n${job.url}`;
    let queue = this.queues.get(name);
    if (queue === undefined) this.queues.set(name, (queue = []));
    queue.push(job);
    while (queue.length > this.options.maxPending) {
      const dropped = queue.shift()!;
      this.report(
        dropped,
        0,
        'dropped',
        { error: `more than ${this.options.maxPending} deliveries pending for the client's URL` },
        0,
      );
    }
    if (this.draining.has(name)) return;
    this.draining.add(name);
    const run = this.drain(name, queue);
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  /** Whether nothing is queued, in flight or waiting for a retry. */
  get isIdle(): boolean {
    return this.draining.size === 0;
  }

  /**
   * Resolves once nothing is queued, in flight or waiting for a retry: every delivery enqueued so far has had its last
   * attempt (reported). At once when idle; a delivery enqueued later is not waited for by an earlier caller's promise
   * unless it is enqueued before the last queue drains.
   */
  idle(): Promise<void> {
    if (this.isIdle) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Cancels what is queued, waiting or in flight, and resolves once nothing of the deliverer runs any more. */
  close(): Promise<void> {
    // A second caller must wait for the same shutdown, not return while deliveries are still winding down.
    return (this.closing ??= this.shutdown());
  }

  private async shutdown(): Promise<void> {
    this.closed = true;
    this.abort.abort();
    for (const sleeper of this.sleeping) {
      clearTimeout(sleeper.timer);
      sleeper.wake();
    }
    this.sleeping.clear();
    for (const queue of this.queues.values()) {
      for (const job of queue.splice(0)) this.report(job, 0, 'cancelled', { error: 'the server closed' }, 0);
    }
    await Promise.allSettled([...this.running]);
    // An agent that could not be made (its CA was not given) has nothing to close.
    await (await this.agent?.catch(() => undefined))?.destroy();
  }

  private async drain(name: string, queue: DeliveryJob[]): Promise<void> {
    try {
      while (!this.closed && queue.length > 0) await this.deliver(queue.shift()!);
    } finally {
      // No await between the emptiness check above and this line, so an enqueue cannot fall in between unseen.
      this.draining.delete(name);
      if (queue.length === 0) this.queues.delete(name);
      if (this.isIdle) for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }

  private async deliver(job: DeliveryJob): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      const outcome = await this.send(job, attempt);
      const elapsed = performance.now() - started;
      if (this.closed) return this.report(job, attempt, 'cancelled', outcome, elapsed);
      if ('status' in outcome && outcome.status >= 200 && outcome.status <= 299)
        return this.report(job, attempt, 'delivered', outcome, elapsed);
      const retryable = 'error' in outcome || outcome.status >= 500 || outcome.status === 429;
      if (!retryable || attempt > this.options.retries) return this.report(job, attempt, 'failed', outcome, elapsed);
      this.report(job, attempt, 'retrying', outcome, elapsed);
      await this.sleep(this.options.backoffMs * 2 ** (attempt - 1));
      if (this.closed)
        return this.report(job, attempt, 'cancelled', { error: 'the server closed before the next attempt' }, 0);
    }
  }

  private async send(job: DeliveryJob, attempt: number): Promise<Outcome> {
    try {
      const d = job.prepare(attempt);
      const res = await request(d.url, {
        method: 'POST',
        headers: d.headers.flat(),
        body: d.body,
        dispatcher: await this.dispatcher(),
        signal: this.abort.signal,
      });
      await res.body.dump({ limit: MAX_RESPONSE_BYTES }).catch(() => undefined);
      return { status: res.statusCode };
    } catch (e) {
      return { error: describe(e) };
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const sleeper = {
        timer: setTimeout(() => {
          this.sleeping.delete(sleeper);
          resolve();
        }, ms),
        wake: resolve,
      };
      this.sleeping.add(sleeper);
    });
  }

  private report(
    job: DeliveryJob,
    attempt: number,
    outcome: DeliveryAttempt['outcome'],
    result: Partial<Outcome> & { error?: string },
    durationMs: number,
  ): void {
    const entry: DeliveryAttempt = {
      eventId: job.eventId,
      event: job.event,
      clientId: job.clientId,
      url: job.url,
      attempt,
      outcome,
      durationMs,
    };
    if ('status' in result && result.status !== undefined) entry.status = result.status;
    if (result.error !== undefined) entry.error = result.error;
    try {
      this.options.onAttempt(entry);
    } catch {
      /* an observer's failure must not stop deliveries */
    }
  }
}

/** undici wraps TLS and socket errors; the cause names what actually went wrong (e.g. an untrusted certificate). */
function describe(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const code = (e as { code?: unknown }).code;
  const head = `${typeof code === 'string' ? code : e.name}: ${e.message}`;
  const cause = e.cause instanceof Error ? describe(e.cause) : undefined;
  return cause ? `${head} (${cause})` : head;
}
