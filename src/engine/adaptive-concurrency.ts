// How many checks run at once, adapted to the server as it answers: one more while its answers come back as fast as
// the fastest it has shown and without 429, one fewer when they slow to twice that, half as many after a 429. Never
// above the cap (`--concurrency`, the target's `concurrency`), never below one.

/** Checks at once before the server has shown how it answers. */
const START = 4;
/** Answers judged together: enough that one slow answer does not move the limit. */
const WINDOW = 8;
/** An answer this much slower than the fastest window's median, in ms, is noise (a busy client, a GC pause), not the server. */
const SLACK_MS = 20;

export class AdaptiveConcurrency {
  private current: number;
  private fastest = Infinity;
  private window: number[] = [];
  private throttledBefore: number;
  /** The lowest and highest limit the run used. */
  readonly range: { low: number; high: number };

  /** `throttled` counts the 429s the run has drawn so far (the transport's count). */
  constructor(
    readonly cap: number,
    private readonly throttled: () => number,
  ) {
    this.current = Math.min(cap, START);
    this.throttledBefore = throttled();
    this.range = { low: this.current, high: this.current };
  }

  /** How many checks may run at once now. */
  get limit(): number {
    return this.current;
  }

  /** The time each answer of a check that finished took, in ms; the limit moves once a window of them is in. */
  answered(durationsMs: readonly number[]): void {
    this.window.push(...durationsMs);
    const throttledNow = this.throttled();
    if (throttledNow > this.throttledBefore) {
      this.throttledBefore = throttledNow;
      this.window = [];
      return this.set(Math.floor(this.current / 2));
    }
    if (this.window.length < WINDOW) return;
    const median = medianOf(this.window);
    this.window = [];
    this.fastest = Math.min(this.fastest, median);
    if (median > 2 * this.fastest + SLACK_MS) this.set(this.current - 1);
    else if (median <= 1.25 * this.fastest + SLACK_MS / 2) this.set(this.current + 1);
  }

  private set(n: number): void {
    this.current = Math.max(1, Math.min(this.cap, n));
    this.range.low = Math.min(this.range.low, this.current);
    this.range.high = Math.max(this.range.high, this.current);
  }
}

function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
