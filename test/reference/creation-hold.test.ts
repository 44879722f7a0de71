import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CreationHolds, HOLD_MS, MAX_HOLD_MS } from '../../src/reference/webhooks/creation-hold.js';

const T0 = Date.UTC(2026, 10, 29, 10, 0, 0, 400);

describe('deliveryOrder=any-order: how long an AUTH.CREATED is held', () => {
  let sent: string[];
  let letGo: number;
  let holds: CreationHolds;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: T0 });
    sent = [];
    letGo = 0;
    holds = new CreationHolds(Date.now, () => letGo++);
  });
  afterEach(() => {
    holds.clear();
    vi.useRealTimers();
  });

  it("goes at once behind its token's next event, once", () => {
    holds.hold('t1', 'c1', () => sent.push('t1'));
    vi.advanceTimersByTime(HOLD_MS - 1);
    holds.release('t1');
    holds.release('t1');
    vi.advanceTimersByTime(MAX_HOLD_MS);
    expect(sent).toEqual(['t1']);
    expect(letGo).toBe(1);
    expect(holds.size).toBe(0);
  });

  it('goes alone after HOLD_MS when no event about its token comes', () => {
    holds.hold('t1', 'c1', () => sent.push('t1'));
    vi.advanceTimersByTime(HOLD_MS - 1);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(['t1']);
    expect(letGo).toBe(1);
  });

  it("waits HOLD_MS past the end of a 429 its client got, and only its client's", () => {
    holds.hold('t1', 'c1', () => sent.push('t1'));
    holds.hold('t2', 'c2', () => sent.push('t2'));
    vi.advanceTimersByTime(300);
    const windowEnd = T0 + 600;
    holds.throttled('c1', windowEnd);
    vi.advanceTimersByTime(HOLD_MS - 300);
    expect(sent).toEqual(['t2']);
    vi.advanceTimersByTime(windowEnd + HOLD_MS - Date.now() - 1);
    expect(sent).toEqual(['t2']);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(['t2', 't1']);
  });

  it('never past MAX_HOLD_MS, however many 429s', () => {
    holds.hold('t1', 'c1', () => sent.push('t1'));
    for (let i = 0; i < 10; i++) {
      holds.throttled('c1', Date.now() + 1000);
      vi.advanceTimersByTime(900);
    }
    expect(sent).toEqual(['t1']);
    expect(Date.now() - T0).toBeGreaterThanOrEqual(MAX_HOLD_MS);
    holds.hold('t3', 'c1', () => sent.push('t3'));
    holds.throttled('c1', Date.now() + 60_000);
    vi.advanceTimersByTime(MAX_HOLD_MS - 1);
    expect(sent).toEqual(['t1']);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(['t1', 't3']);
  });

  it('a 429 that ends earlier shortens nothing; clear() drops what is held', () => {
    holds.hold('t1', 'c1', () => sent.push('t1'));
    holds.throttled('c1', T0 - 5_000);
    vi.advanceTimersByTime(HOLD_MS - 1);
    expect(sent).toEqual([]);
    holds.clear();
    vi.advanceTimersByTime(MAX_HOLD_MS);
    expect(sent).toEqual([]);
    expect(holds.size).toBe(0);
  });
});
