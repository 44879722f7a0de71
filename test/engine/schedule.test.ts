import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { runScheduled, type ScheduledTask } from '../../src/engine/schedule.js';

/** Tasks that finish only when the test says so, with a log of what started and ended. */
function controlled(tasks: ScheduledTask[], limit: number) {
  const log: string[] = [];
  const finishers = new Map<number, () => void>();
  let running = 0;
  let maxRunning = 0;
  let notify: (() => void) | undefined;
  const done = runScheduled(tasks, limit, (i) => {
    running += 1;
    maxRunning = Math.max(maxRunning, running);
    log.push(`start ${i}`);
    notify?.();
    return new Promise<void>((resolve) =>
      finishers.set(i, () => {
        running -= 1;
        log.push(`end ${i}`);
        resolve();
      }),
    );
  });
  /** Resolves once task `i` has started (or at once if it has). */
  const started = async (i: number): Promise<void> => {
    while (!finishers.has(i)) await new Promise<void>((resolve) => (notify = resolve));
  };
  const finish = async (i: number) => {
    finishers.get(i)!();
    // Let the scheduler react to the end before the test looks.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { log, done, started, finish, maxRunning: () => maxRunning, isStarted: (i: number) => finishers.has(i) };
}

describe('runScheduled', () => {
  it('never runs more tasks than the limit, starts them in declaration order, and runs each once', async () => {
    const s = controlled(
      Array.from({ length: 6 }, () => ({})),
      2,
    );
    await s.started(1);
    expect(s.log).toEqual(['start 0', 'start 1']);
    await s.finish(1);
    expect(s.log.at(-1)).toBe('start 2');
    for (const i of [0, 2, 3, 4, 5]) {
      await s.started(i);
      await s.finish(i);
    }
    await s.done;
    expect(s.maxRunning()).toBe(2);
    expect(s.log.filter((l) => l.startsWith('start'))).toEqual([
      'start 0',
      'start 1',
      'start 2',
      'start 3',
      'start 4',
      'start 5',
    ]);
  });

  it('runs tasks over one shared state one at a time and in order, while the others go ahead', async () => {
    const s = controlled([{ uses: ['x'] }, {}, { uses: ['x'] }, {}], 4);
    await s.started(3);
    expect(s.isStarted(2)).toBe(false);
    expect(s.log).toEqual(['start 0', 'start 1', 'start 3']);
    await s.finish(0);
    expect(s.log.slice(-2)).toEqual(['end 0', 'start 2']);
    for (const i of [1, 2, 3]) await s.finish(i);
    await s.done;
  });

  it('keeps declaration order across states: a task waits for an earlier one that shares any of its states', async () => {
    // 2 shares y with 1, which shares x with 0: 2 may not overtake 1 although nothing running holds y.
    const s = controlled([{ uses: ['x'] }, { uses: ['x', 'y'] }, { uses: ['y'] }, { uses: ['z'] }], 4);
    await s.started(3);
    expect(s.log).toEqual(['start 0', 'start 3']);
    await s.finish(0);
    expect(s.log.at(-1)).toBe('start 1');
    expect(s.isStarted(2)).toBe(false);
    await s.finish(1);
    expect(s.log.at(-1)).toBe('start 2');
    await s.finish(2);
    await s.finish(3);
    await s.done;
  });

  it('runs a task alone last: after every other task has finished, with nothing beside it', async () => {
    const s = controlled([{}, { uses: ['x'] }, { alone: true }, {}, { alone: true }], 4);
    await s.started(3);
    expect(s.log).toEqual(['start 0', 'start 1', 'start 3']);
    await s.finish(0);
    await s.finish(1);
    expect(s.isStarted(2)).toBe(false);
    await s.finish(3);
    expect(s.log.at(-1)).toBe('start 2');
    expect(s.isStarted(4)).toBe(false);
    await s.finish(2);
    expect(s.log.at(-1)).toBe('start 4');
    await s.finish(4);
    await s.done;
  });

  it('starts the head of the longest chain of conflicting tasks first, the rest in declaration order', async () => {
    // 2, 4 and 5 share x: a chain of three that would end the run late if 2 waited behind 0 and 1.
    const s = controlled([{}, {}, { uses: ['x'] }, {}, { uses: ['x'] }, { uses: ['x'] }], 2);
    await s.started(0);
    expect(s.log).toEqual(['start 2', 'start 0']);
    await s.finish(2);
    // The chain's next task goes first again, ahead of 1 and 3.
    expect(s.log.at(-1)).toBe('start 4');
    for (const i of [0, 4, 1, 3, 5]) {
      await s.started(i);
      await s.finish(i);
    }
    await s.done;
    expect(s.log.filter((l) => l.startsWith('start'))).toEqual([
      'start 2',
      'start 0',
      'start 4',
      'start 1',
      'start 3',
      'start 5',
    ]);
  });

  it('lets tasks that take turns over a state go in any order, never two at once', async () => {
    // 1 takes its turn before 0: it heads a chain (2 waits for it over x), and turns keep no declaration order.
    const s = controlled([{ turns: ['t'] }, { uses: ['x'], turns: ['t'] }, { uses: ['x'] }, {}], 4);
    await s.started(3);
    expect(s.log).toEqual(['start 1', 'start 3']);
    // 0 waits for the turn, not for 1's place in the order.
    expect(s.isStarted(0)).toBe(false);
    await s.finish(1);
    expect(s.log.slice(-2)).toEqual(['start 0', 'start 2']);
    for (const i of [0, 2, 3]) await s.finish(i);
    await s.done;
  });

  it('never holds a turn for a task that cannot start yet: a later task takes it meanwhile', async () => {
    // 1 follows 0 over x and takes turns over t; 2 takes turns over t too. While 0 runs, t goes to 2: held for 1 instead,
    // t would stand idle, and where t bounds the run (token-revocation against a distant server) the run ends later.
    const s = controlled([{ uses: ['x'] }, { uses: ['x'], turns: ['t'] }, { turns: ['t'] }], 4);
    await s.started(2);
    expect(s.log).toEqual(['start 0', 'start 2']);
    await s.finish(0);
    expect(s.isStarted(1)).toBe(false);
    await s.finish(2);
    expect(s.log.slice(-2)).toEqual(['end 2', 'start 1']);
    await s.finish(1);
    await s.done;
  });

  it('keeps a group-ordered state in declaration order within a group, and in turns between groups', async () => {
    // Group a: 0 then 2 over m. Group b: 1 then 3 over m; 3 also heads a chain over x (4 waits for it).
    const s = controlled(
      [
        { group: 'a', groupUses: ['m'] },
        { group: 'b', groupUses: ['m'] },
        { group: 'a', groupUses: ['m'] },
        { group: 'b', groupUses: ['m'], uses: ['x'] },
        { group: 'c', uses: ['x'] },
      ],
      4,
    );
    await s.started(1);
    // 1 heads the longest chain (3, then 4): of another group than 0, it goes first although declared after it.
    expect(s.log).toEqual(['start 1']);
    await s.finish(1);
    // 0 and 3 tie (chains of two): declaration order; 3 waits for 0's turn.
    expect(s.log.slice(-2)).toEqual(['end 1', 'start 0']);
    await s.finish(0);
    // 2 follows 0 in its group, but it is 3's turn (the longer chain): never two over m at once.
    expect(s.log.slice(-2)).toEqual(['end 0', 'start 3']);
    expect(s.isStarted(2)).toBe(false);
    await s.finish(3);
    expect(s.log.slice(-3)).toEqual(['end 3', 'start 2', 'start 4']);
    for (const i of [2, 4]) await s.finish(i);
    await s.done;
  });

  it('takes turns between groups where one names the state in `uses` and the other in `groupUses`', async () => {
    // 0 (group a, uses m) and 1 (group b, groupUses m): never at once, in any order; 2 (group a) follows 0.
    const s = controlled(
      [
        { group: 'a', uses: ['m'] },
        { group: 'b', groupUses: ['m'], uses: ['x'] },
        { group: 'a', groupUses: ['m'] },
        { group: 'c', uses: ['x'] },
        { group: 'c', uses: ['x'] },
      ],
      4,
    );
    await s.started(1);
    // 1 heads the longest chain (3 and 4 follow it over x): it goes first, and 0 waits for its turn.
    expect(s.log).toEqual(['start 1']);
    await s.finish(1);
    expect(s.log.slice(-3)).toEqual(['end 1', 'start 0', 'start 3']);
    expect(s.isStarted(2)).toBe(false);
    await s.finish(0);
    expect(s.log.slice(-2)).toEqual(['end 0', 'start 2']);
    for (const i of [3, 4, 2]) {
      await s.started(i);
      await s.finish(i);
    }
    await s.done;
  });

  it("gives an idle task's slot to the next task for the wait, and reads a limit function before each start", async () => {
    let limit = 1;
    const log: string[] = [];
    const gate = () => {
      let open: () => void = () => undefined;
      const shut = new Promise<void>((resolve) => (open = resolve));
      return { shut, open };
    };
    const wait0 = gate();
    const hold1 = gate();
    const began1 = gate();
    const done = runScheduled(
      [{}, {}, {}],
      () => limit,
      async (i, slot) => {
        log.push(`start ${i}`);
        // Task 0 waits on something that sends nothing: task 1 takes the slot meanwhile.
        if (i === 0) await slot.idle(wait0.shut).then(() => log.push('0 back'));
        if (i === 1) {
          began1.open();
          await hold1.shut;
        }
      },
    );
    await began1.shut;
    expect(log).toEqual(['start 0', 'start 1']);
    // Read again when task 0 ends: 2 may now run beside 1.
    limit = 2;
    wait0.open();
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['start 0', 'start 1', '0 back', 'start 2']);
    hold1.open();
    await done;
  });

  it('starts a task in its own context, not in that of the task whose wait made room for it', async () => {
    const turn = new AsyncLocalStorage<string>();
    const seen: Array<string | undefined> = [];
    let release: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => (release = resolve));
    const done = runScheduled([{}, {}], 1, async (i, slot) => {
      if (i === 0)
        await turn.run('task 0', async () => {
          await slot.idle(waiting);
        });
      else {
        seen.push(turn.getStore());
        release();
      }
    });
    await done;
    expect(seen).toEqual([undefined]);
  });

  it('resolves at once for no task, refuses a limit below 1, and rejects when a task rejects', async () => {
    await expect(runScheduled([], 4, () => Promise.resolve())).resolves.toBeUndefined();
    expect(() => runScheduled([{}], 0, () => Promise.resolve())).toThrow(RangeError);
    expect(() => runScheduled([{}], 1.5, () => Promise.resolve())).toThrow(/whole number of at least 1/);
    await expect(
      runScheduled([{}, {}], 1, (i) => (i === 0 ? Promise.reject(new Error('bug')) : Promise.resolve())),
    ).rejects.toThrow('bug');
  });
});
