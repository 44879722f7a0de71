// An interrupted run (SIGINT, SIGTERM, a library caller's AbortSignal): from the moment it comes, no check starts;
// the running ones are told their time is up and their requests are cut, so that what they changed is put back (their
// restores send on requests of their own, suites/kit/clean-up.ts); the suites' teardowns run; and all of it within a
// grace period, after which the run writes its reports with what it has.
import { RunInterrupted } from '../errors.js';

/** How long an interrupted run may take to put back what it changed and end, by default. */
export const DEFAULT_INTERRUPT_GRACE_MS = 20_000;

export class Interruption {
  /** Why the run stops; undefined while it has not been interrupted. */
  reason: RunInterrupted | undefined;
  private deadline = Infinity;
  private readonly stops = new Set<(reason: RunInterrupted) => void>();
  private expire: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Resolves when the grace period after an interruption ends; never when the run is not interrupted. */
  readonly expired: Promise<'expired'>;
  private readonly onAbort: () => void;

  constructor(
    private readonly signal: AbortSignal | undefined,
    private readonly graceMs: number = DEFAULT_INTERRUPT_GRACE_MS,
  ) {
    this.expired = new Promise((resolve) => {
      this.expire = () => resolve('expired');
    });
    this.onAbort = () => this.fire(signal?.reason);
    if (signal?.aborted) this.fire(signal.reason);
    else signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  get interrupted(): boolean {
    return this.reason !== undefined;
  }

  /** Milliseconds left of the grace period (Infinity while not interrupted). */
  left(): number {
    return Math.max(0, this.deadline - Date.now());
  }

  /** A running check's way to be stopped; called at once when the run is interrupted already. Returns its removal. */
  onStop(stop: (reason: RunInterrupted) => void): () => void {
    if (this.reason) {
      stop(this.reason);
      return () => {};
    }
    this.stops.add(stop);
    return () => this.stops.delete(stop);
  }

  /** `work`, or 'expired' when the grace period after an interruption ends first (the work goes on unheard). */
  within<T>(work: Promise<T>): Promise<T | 'expired'> {
    return Promise.race([work, this.expired]);
  }

  dispose(): void {
    this.signal?.removeEventListener('abort', this.onAbort);
    clearTimeout(this.timer);
  }

  private fire(why: unknown): void {
    if (this.reason) return;
    this.reason = why instanceof RunInterrupted ? why : new RunInterrupted();
    this.deadline = Date.now() + this.graceMs;
    this.timer = setTimeout(() => this.expire?.(), this.graceMs);
    for (const stop of [...this.stops]) stop(this.reason);
    this.stops.clear();
  }
}
