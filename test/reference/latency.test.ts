import { afterEach, describe, expect, it, vi } from 'vitest';
import { latencyMiddleware } from '../../src/reference/latency.js';
import type { Reply } from '../../src/reference/respond.js';

afterEach(() => vi.useRealTimers());

describe('the reference server with latency', () => {
  it('holds a reply back exactly the given time after it is made, and changes nothing in it', async () => {
    vi.useFakeTimers();
    const reply: Reply = { status: 200, body: { code: '200', message: 'Success', data: {} } };
    let settled: Reply | undefined;
    const pending = latencyMiddleware(20)({} as never, {} as never, {} as never, async () => reply).then(
      (r) => (settled = r),
    );
    await vi.advanceTimersByTimeAsync(19);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(settled).toBe(reply);
  });
});
