// Runs tasks up to a limit at a time. A task that names shared state (`uses`) waits for every earlier task naming any
// of the same state to finish, so tasks over one state run one at a time and in declaration order; a task that takes
// turns over a state (`turns`) waits only while another task over it runs, in any order. A state named in `groupUses`
// is between the two: ordered among the tasks of one group (a suite), taken in turns with the tasks of other groups
// (each puts back what it changed, so none depends on another group's having run first). A task `alone` runs last,
// after every other task has finished, with nothing beside it (tasks alone one after another, in declaration order):
// what it may change on the target, no other task sees. Only those conflicts keep tasks apart.
//
// Which ready task starts first: the one heading the longest chain of tasks that must follow it (its conflicts, one
// after another), ties in declaration order. A chain of tasks over one state is the run's floor: started late, the run
// ends when it does; started first, everything else fills the slots beside it. No task holds a state it takes in turns
// for another one not yet ready (measured: held for the next check of the webhooks chain, `token-revocation` stood idle
// while the auth checks waited, and against a server 150 ms away, where that state bounds the run, the run took longer).
//
// A task waiting on something that is not a request (a webhook delivery, an absence window) gives its slot back for
// that wait (`idle`): the limit bounds the requests a server sees at once, not the waits.

import { AsyncResource } from 'node:async_hooks';

export interface ScheduledTask {
  /** Names of the state this task changes or must see unchanged (see SharedState in shared-state.ts). */
  readonly uses?: readonly string[];
  /** Names of the state this task needs to itself while it runs, with no order among the tasks that name it. */
  readonly turns?: readonly string[];
  /**
   * Names of state as in `uses`, in declaration order among the tasks of the same `group` only: with a task of another
   * group over it, this task takes turns (never both at once, in any order).
   */
  readonly groupUses?: readonly string[];
  /** Which group the task belongs to (a suite), for `groupUses`; tasks without one are of one group. */
  readonly group?: string;
  /** Runs with no other task beside it. */
  readonly alone?: boolean;
}

/** What a running task can tell the scheduler. */
export interface TaskSlot {
  /** Gives the task's slot to another task while `wait` is pending (no request of its own in flight), then takes one again. */
  idle<T>(wait: Promise<T>): Promise<T>;
}

/**
 * How many tasks may run at once: a number, or a function read before each start (an adaptive limit, src/engine/
 * adaptive-concurrency.ts), each value a whole number of at least 1.
 */
export type Limit = number | (() => number);

/** Calls `start(i, slot)` for every task, honouring the limit and shared state; resolves when every task has settled. */
export function runScheduled(
  tasks: readonly ScheduledTask[],
  limit: Limit,
  start: (index: number, slot: TaskSlot) => Promise<void>,
): Promise<void> {
  const limitNow = typeof limit === 'number' ? () => limit : limit;
  checkLimit(limitNow());
  const state: Array<'waiting' | 'running' | 'done'> = tasks.map(() => 'waiting');
  const { after, apart, unfinished } = relations(tasks);
  // How many of the tasks each one never runs beside are running (counted up and down as they start and end).
  const beside = tasks.map(() => 0);
  const order = byChain(tasks, after);
  let running = 0;
  let settled = 0;
  return new Promise<void>((resolve, reject) => {
    if (tasks.length === 0) return resolve();
    const blocked = (i: number): boolean => {
      if (tasks[i]!.alone) return state.some((st, j) => j !== i && st !== 'done' && (j < i || !tasks[j]!.alone));
      return unfinished[i]! > 0 || beside[i]! > 0;
    };
    const slot: TaskSlot = {
      idle: async (wait) => {
        running -= 1;
        fill();
        try {
          return await wait;
        } finally {
          running += 1;
        }
      },
    };
    // A task starts in the context runScheduled was called in, never in that of the task whose wait or end made room
    // for it: what a task carries in its async context (a pack's exclusive turn, src/engine/session.ts) is its own.
    const fill = AsyncResource.bind((): void => {
      const cap = checkLimit(limitNow());
      for (const i of order) {
        if (running >= cap) return;
        if (state[i] !== 'waiting' || blocked(i)) continue;
        state[i] = 'running';
        running += 1;
        for (const k of apart[i]!) beside[k]! += 1;
        // A task that throws synchronously or rejects is a bug of the caller's: stop scheduling and say so.
        Promise.resolve()
          .then(() => start(i, slot))
          .then(() => {
            state[i] = 'done';
            running -= 1;
            for (const k of after[i]!) unfinished[k]! -= 1;
            for (const k of apart[i]!) beside[k]! -= 1;
            settled += 1;
            if (settled === tasks.length) resolve();
            else fill();
          }, reject);
      }
    });
    fill();
  });
}

function checkLimit(n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`concurrency must be a whole number of at least 1, not ${n}`);
  return n;
}

/** Whether the later of two tasks (neither alone: those wait for all) must wait for the earlier one. */
function conflict(earlier: ScheduledTask, later: ScheduledTask): boolean {
  if (earlier.alone || later.alone) return false;
  const uses = later.uses ?? [];
  if ((earlier.uses ?? []).some((s) => uses.includes(s))) return true;
  return sameGroup(earlier, later) && ordered(earlier).some((s) => ordered(later).includes(s));
}

/** Whether two tasks, in whatever order, may not run at once without one having to wait for the other. */
function exclusive(a: ScheduledTask, b: ScheduledTask): boolean {
  const turns = b.turns ?? [];
  if ((a.turns ?? []).some((t) => turns.includes(t))) return true;
  // Of different groups, a state either names in `groupUses` (and the other in either list) is taken in turns.
  if (sameGroup(a, b)) return false;
  const inTurn = (x: ScheduledTask, y: ScheduledTask) => (x.groupUses ?? []).some((s) => ordered(y).includes(s));
  return inTurn(a, b) || inTurn(b, a);
}

const ordered = (t: ScheduledTask): readonly string[] => [...(t.uses ?? []), ...(t.groupUses ?? [])];
const sameGroup = (a: ScheduledTask, b: ScheduledTask): boolean => (a.group ?? '') === (b.group ?? '');

/**
 * What never changes between two tasks, worked out once through the states they name (a run has some 170 tasks and a
 * few states): `after[j]`, the later tasks that must wait for task j; `apart[i]`, the tasks task i never runs beside;
 * and `unfinished[i]`, how many tasks task i waits for (counted down as they end).
 */
function relations(tasks: readonly ScheduledTask[]) {
  const names = (t: ScheduledTask) => new Set([...ordered(t), ...(t.turns ?? [])]);
  const naming = new Map<string, number[]>();
  tasks.forEach((t, i) => {
    for (const name of names(t)) {
      const named = naming.get(name);
      if (named) named.push(i);
      else naming.set(name, [i]);
    }
  });
  const others = (i: number): Set<number> => {
    const near = new Set([...names(tasks[i]!)].flatMap((name) => naming.get(name)!));
    near.delete(i);
    return near;
  };
  const after = tasks.map((): number[] => []);
  const apart = tasks.map((): number[] => []);
  const unfinished = tasks.map(() => 0);
  tasks.forEach((t, i) => {
    for (const j of others(i)) {
      if (j < i && conflict(tasks[j]!, t)) {
        after[j]!.push(i);
        unfinished[i]! += 1;
      }
      if (exclusive(tasks[j]!, t)) apart[i]!.push(j);
    }
  });
  return { after, apart, unfinished };
}

/**
 * The tasks' indices, the head of the longest chain first: a task's chain is itself and the longest chain among the
 * later tasks that must wait for it. Ties keep declaration order; tasks alone come last.
 */
function byChain(tasks: readonly ScheduledTask[], after: readonly number[][]): number[] {
  const chain = new Array<number>(tasks.length).fill(1);
  for (let i = tasks.length - 1; i >= 0; i--) for (const j of after[i]!) chain[i] = Math.max(chain[i]!, 1 + chain[j]!);
  const last = (i: number) => (tasks[i]!.alone ? 1 : 0);
  return tasks.map((_, i) => i).sort((a, b) => last(a) - last(b) || chain[b]! - chain[a]! || a - b);
}
