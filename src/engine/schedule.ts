// Runs tasks up to `limit` at a time. A task that names shared state waits for every earlier task naming any of the
// same state to finish, so tasks over one state run one at a time and in declaration order; tasks naming none start as
// soon as a slot is free. Waits of one task (a webhook delivery, a clean-up grace period) thus overlap with others.
// A task `alone` waits for every earlier task, and every later one waits for it.

export interface ScheduledTask {
  /** Names of the state this task changes or must see unchanged (see SharedState in shared-state.ts). */
  readonly uses?: readonly string[];
  /** Runs with no other task beside it. */
  readonly alone?: boolean;
}

/** Calls `start(i)` for every task, honouring `limit` and shared state; resolves when every task has settled. */
export function runScheduled(
  tasks: readonly ScheduledTask[],
  limit: number,
  start: (index: number) => Promise<void>,
): Promise<void> {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`concurrency must be a whole number of at least 1, not ${limit}`);
  const state: Array<'waiting' | 'running' | 'done'> = tasks.map(() => 'waiting');
  let running = 0;
  let settled = 0;
  return new Promise<void>((resolve, reject) => {
    if (tasks.length === 0) return resolve();
    const blocked = (i: number): boolean => {
      const task = tasks[i]!;
      const uses = task.uses ?? [];
      for (let j = 0; j < i; j++) {
        if (state[j] === 'done') continue;
        if (task.alone || tasks[j]!.alone || (tasks[j]!.uses ?? []).some((s) => uses.includes(s))) return true;
      }
      return false;
    };
    const fill = (): void => {
      for (let i = 0; i < tasks.length && running < limit; i++) {
        if (state[i] !== 'waiting' || blocked(i)) continue;
        state[i] = 'running';
        running += 1;
        // A task that throws synchronously or rejects is a bug of the caller's: stop scheduling and say so.
        Promise.resolve()
          .then(() => start(i))
          .then(() => {
            state[i] = 'done';
            running -= 1;
            settled += 1;
            if (settled === tasks.length) resolve();
            else fill();
          }, reject);
      }
    };
    fill();
  });
}
