// The dependency floor of issue 29 (bench/floor.mjs) over a small report made by hand: chains from the exchanges'
// timestamps, the session's turn and probe after a 401, waits and the client's own work, shared states and `alone`.
import { describe, expect, it } from 'vitest';
import { floorOf } from '../../bench/floor.mjs';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');

/** An exchange sent `from` ms after the run started and answered at `to`. */
function ex(seq: number, from: number, to: number, status = 200) {
  return { seq, startedAt: new Date(T0 + from).toISOString(), durationMs: to - from, response: { status } };
}

function check(id: string, startMs: number | undefined, durationMs: number, exchanges: ReturnType<typeof ex>[]) {
  return { id, suite: id.split('.')[0], ...(startMs === undefined ? {} : { startMs }), durationMs, exchanges };
}

// Times in ms after the run started. The session's token opens it (0–100) and its revocation closes it (1000–1100).
const report = {
  run: { startedAt: new Date(T0).toISOString(), durationMs: 1100, concurrency: 4 },
  sessionExchanges: [ex(1, 0, 100), ex(6, 450, 500), ex(10, 1000, 1100)],
  checks: [
    // Three requests one after another (300 ms), then 100 ms with no request: a wait (a delivery, an absence window).
    check('a.walk.lists', 100, 400, [ex(2, 100, 200), ex(3, 200, 300), ex(4, 300, 400)]),
    // Alone; the exchange it attached from before it started (200–250) is no link of its chain.
    check('e.alone.one', 900, 100, [ex(15, 200, 250), ex(13, 900, 1000)]),
    // A 401, then 300 ms of the session's turn and its probe (450–500, a session exchange): two round trips, 100 ms.
    check('b.reject.expired', 100, 400, [ex(5, 100, 150, 401)]),
    // Two requests side by side (one round trip), then one more.
    check('c.state.one', 500, 200, [ex(7, 500, 600), ex(8, 510, 600), ex(9, 600, 700)]),
    // Two requests with 10 ms of the client's own work between them.
    check('c.state.two', 700, 200, [ex(11, 700, 760), ex(12, 770, 900)]),
    // Never started (the budget): no chain.
    check('c.state.skipped', undefined, 0, []),
  ],
};

const declarations = new Map([
  ['a.walk.lists', { uses: [] }],
  ['e.alone.one', { alone: true }],
  ['b.reject.expired', { uses: [] }],
  ['c.state.one', { uses: ['state'] }],
  ['c.state.two', { uses: ['state'] }],
  ['c.state.skipped', { uses: ['state'] }],
]);

describe('the dependency floor of a run', () => {
  const floor = floorOf(report, declarations);
  const chain = (id: string) => floor.chains.find((c) => c.id === id)!;

  it('takes a check’s chain from its exchanges: one after another is a link, side by side is one', () => {
    expect(chain('a.walk.lists')).toMatchObject({ roundTrips: 3, requestMs: 300, waitMs: 100, ms: 400, turnMs: 0 });
    expect(chain('c.state.one')).toMatchObject({ roundTrips: 2, requestMs: 200, waitMs: 0, ms: 200 });
    expect(chain('c.state.two')).toMatchObject({ roundTrips: 2, requestMs: 190, localMs: 10, waitMs: 0, ms: 190 });
    expect(chain('e.alone.one')).toMatchObject({ roundTrips: 1, ms: 100, exchanges: 1 });
    expect(chain('c.state.skipped')).toMatchObject({ roundTrips: 0, ms: 0 });
  });

  it('counts the session’s probe after a 401 as a link, and the wait for the session’s turn as no part of it', () => {
    expect(chain('b.reject.expired')).toMatchObject({ roundTrips: 2, ms: 100, turnMs: 300, waitMs: 0, probes: 1 });
    expect(floor.turnMs).toBe(300);
  });

  it('adds up the checks of one shared state, puts the alone checks end to end, and opens and closes with the session', () => {
    expect(floor.open).toEqual({ roundTrips: 1, ms: 100 });
    expect(floor.close).toEqual({ roundTrips: 1, ms: 100 });
    expect(floor.alone).toEqual([{ id: 'e.alone.one', roundTrips: 1, ms: 100 }]);
    expect(floor.resources).toEqual([{ state: 'state', checks: 3, roundTrips: 4, ms: 390, waitMs: 0 }]);
    // The longest check (400 ms) outlasts the shared state's 390 ms: open 100 + alone 100 + 400 + close 100.
    expect(floor.bound).toBe('check a.walk.lists');
    expect(floor.floorMs).toBe(700);
    expect(floor.floorRoundTrips).toBe(6);
    expect(floor.floorWaitMs).toBe(100);
    expect(floor.workMs).toBe(990);
    expect(floor.slotFloorMs).toBe(247.5);
  });

  it('gives today’s scheduler its declaration order: every check after an alone one waits for it', () => {
    // a 0–400, e (alone) 400–500, b 500–600, c.state.one 500–700, c.state.two 700–890; plus open and close.
    expect(floor.orderedFloorMs).toBe(1090);
  });

  it('reports each suite’s span and the exchanges the report does not list', () => {
    expect(floor.suites).toEqual([
      { suite: 'a', startMs: 100, endMs: 500, checks: 1 },
      { suite: 'e', startMs: 900, endMs: 1000, checks: 1 },
      { suite: 'b', startMs: 100, endMs: 500, checks: 1 },
      { suite: 'c', startMs: 500, endMs: 900, checks: 2 },
    ]);
    expect(floor.unrecorded).toBe(1);
  });

  it('takes a shorter stretch of the client’s own work as a wait when told to', () => {
    const strict = floorOf(report, declarations, { localGapMs: 5 });
    expect(strict.chains.find((c) => c.id === 'c.state.two')).toMatchObject({ waitMs: 10, ms: 200 });
    expect(strict.resources[0]).toMatchObject({ ms: 400 });
  });
});
