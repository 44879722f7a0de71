// src/pool.ts: work over items, a few at a time, results in item order; a failure waits for the rest.
import { describe, expect, it } from 'vitest';
import { pool } from '../../src/pool.js';

/** Resolves after the other queued callbacks have run `turns` times: an order of completion without the clock. */
const after = async (turns: number): Promise<void> => {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('pool', () => {
  it('runs at most `concurrency` at once and gives the results in item order, whatever order they end in', async () => {
    let running = 0;
    let most = 0;
    const results = await pool([5, 1, 3, 2, 4], 2, async (turns) => {
      running += 1;
      most = Math.max(most, running);
      await after(turns);
      running -= 1;
      return turns * 10;
    });
    expect(results).toEqual([50, 10, 30, 20, 40]);
    expect(most).toBe(2);
  });

  it('lets every item run to its end, then throws the first failure in item order, not the first in time', async () => {
    const ended: number[] = [];
    const failure = pool([0, 1, 2, 3], 4, async (i) => {
      // Item 3 fails first in time, item 1 later; item 2 ends last of all.
      await after(i === 3 ? 0 : i === 1 ? 2 : i === 2 ? 6 : 1);
      ended.push(i);
      if (i === 1 || i === 3) throw new Error(`item ${i}`);
      return i;
    });
    await expect(failure).rejects.toThrow('item 1');
    expect(ended.sort()).toEqual([0, 1, 2, 3]);
  });

  it('gives nothing for no items', async () => {
    expect(await pool([], 3, async () => 1)).toEqual([]);
  });
});
