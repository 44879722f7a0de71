// The limit of checks at once follows the server's answers under the cap: up while they come back as fast as the
// fastest it showed, down when they slow to twice that, halved after a 429.
import { describe, expect, it } from 'vitest';
import { AdaptiveConcurrency } from '../../src/engine/adaptive-concurrency.js';

const answers = (ms: number, n = 8) => new Array<number>(n).fill(ms);

describe('AdaptiveConcurrency', () => {
  it('starts at 4 (or the cap, if lower) and rises one per fast window up to the cap', () => {
    expect(new AdaptiveConcurrency(2, () => 0).limit).toBe(2);
    const a = new AdaptiveConcurrency(6, () => 0);
    expect(a.limit).toBe(4);
    a.answered(answers(50, 7));
    // Fewer answers than a window: nothing moves yet.
    expect(a.limit).toBe(4);
    a.answered([50]);
    expect(a.limit).toBe(5);
    for (let i = 0; i < 5; i++) a.answered(answers(52));
    expect(a.limit).toBe(6);
    expect(a.range).toEqual({ low: 4, high: 6 });
  });

  it('takes one away when answers slow past twice the fastest, and holds in between', () => {
    const a = new AdaptiveConcurrency(6, () => 0);
    a.answered(answers(50));
    expect(a.limit).toBe(5);
    // 80 ms: slower than 1.25 × 50 + 10, faster than 2 × 50 + 20: held.
    a.answered(answers(80));
    expect(a.limit).toBe(5);
    a.answered(answers(130));
    expect(a.limit).toBe(4);
    expect(a.range).toEqual({ low: 4, high: 5 });
  });

  it('halves after a 429, never below one, whatever the answers took', () => {
    let throttled = 0;
    const a = new AdaptiveConcurrency(6, () => throttled);
    throttled = 1;
    a.answered([5]);
    expect(a.limit).toBe(2);
    throttled = 3;
    a.answered([5]);
    expect(a.limit).toBe(1);
    throttled = 4;
    a.answered([5]);
    expect(a.limit).toBe(1);
    expect(a.range.low).toBe(1);
  });

  it('keeps a cap of 1 at 1', () => {
    const a = new AdaptiveConcurrency(1, () => 0);
    for (let i = 0; i < 4; i++) a.answered(answers(1));
    expect(a.limit).toBe(1);
  });
});
