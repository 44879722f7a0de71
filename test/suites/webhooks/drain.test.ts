// The drain before a negative scenario's watch (suites/webhooks/helpers/deliveries.ts): it waits for the late deliveries
// of events caused before the change for the negative bound counted from their cause, not from when it was called.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { drain } from '../../../suites/webhooks/helpers/deliveries.js';
import { initialState } from '../../../suites/webhooks/helpers/state.js';
import type { CheckContext } from '../../../src/engine/index.js';
import type { Delivery } from '../../../suites/kit/index.js';

const NOW = Date.UTC(2026, 10, 29, 12);
/** The bound with no latency measured yet: NEGATIVE_FLOOR_MS. */
const BOUND = 250;

/** A wait: how long it lasts, and the delivery that ends it (arriving then), if any. */
type Step = { after: number; delivery?: { seq: number; kind: string } };

/** A context over a receiver whose waits take `steps` in turn: each advances the clock, then yields its delivery. */
function harness(arrivals: Array<{ seq: number; arrivedAt: number; kind: string }>, steps: Step[]) {
  const waits: number[] = [];
  const list = [...arrivals];
  const receiver = {
    deadlineMs: 10_000,
    get arrivals() {
      return list;
    },
    cursor: () => list.at(-1)?.seq ?? 0,
    waitFor: async (match: (d: Delivery) => boolean, ms: number) => {
      waits.push(ms);
      const step = steps.shift() ?? { after: ms };
      vi.setSystemTime(Date.now() + Math.min(step.after, ms));
      if (step.delivery === undefined) return undefined;
      const d = { ...step.delivery, arrivedAt: Date.now() };
      list.push(d);
      return match(d as unknown as Delivery) ? (d as unknown as Delivery) : undefined;
    },
  };
  const st = initialState({ kind: 'none', reason: 'none before' } as never);
  const ctx = {
    state: { receiver, state: st },
    idle: <T>(p: Promise<T>) => p,
    signal: new AbortController().signal,
  } as unknown as CheckContext;
  return { ctx, st, waits };
}

const auth = (d: Delivery) => (d as unknown as { kind: string }).kind === 'AUTH.DELETED';

describe('drain', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => vi.useRealTimers());

  it('does not wait when the last request that could cause such an event is older than the bound', async () => {
    const { ctx, st, waits } = harness([], []);
    expect(await drain(ctx, st, auth, NOW - BOUND - 1)).toBe('');
    expect(waits).toEqual([]);
  });

  it('waits out what is left of the bound since that request', async () => {
    const { ctx, st, waits } = harness([], []);
    expect(await drain(ctx, st, auth, NOW - 100)).toBe('');
    expect(waits).toEqual([BOUND - 100]);
  });

  it('counts from a matching delivery that came after that request, before the drain began', async () => {
    const { ctx, st, waits } = harness([{ seq: 4, arrivedAt: NOW - 50, kind: 'AUTH.DELETED' }], []);
    await drain(ctx, st, auth, NOW - 1000);
    expect(waits).toEqual([BOUND - 50]);
  });

  it('waits the bound again after each matching delivery, and says which it let arrive', async () => {
    const { ctx, st, waits } = harness([], [{ after: 30, delivery: { seq: 7, kind: 'AUTH.DELETED' } }]);
    const said = await drain(ctx, st, auth, NOW - 200);
    expect(waits).toEqual([BOUND - 200, BOUND]);
    expect(said).toBe('; before watching, 1 delivery of events that occurred before the change (#7) were let arrive');
  });

  it('never waits past the receiver deadline, whatever keeps coming', async () => {
    const steps = Array.from({ length: 100 }, (_, i) => ({
      after: 200,
      delivery: { seq: 10 + i, kind: 'AUTH.DELETED' },
    }));
    const { ctx, st, waits } = harness([], steps);
    await drain(ctx, st, auth, NOW);
    // One every 200 ms: 50 of them fill the 10 s deadline, and the drain stops there.
    expect(waits).toHaveLength(50);
    expect(Date.now() - NOW).toBe(10_000);
  });
});
