// How long tests wait, so that `npm test` passes on a busy machine (issue 18 item 8). No test asserts how long something
// took: a 2-core CI runner shared with another job can make a loopback answer that takes a millisecond take seconds.
// A test waits for the event itself, with one of these deadlines, which only decide how a broken test fails.

/**
 * For what takes milliseconds on an idle machine (an answer, a delivery, a banner, a child process starting or a short
 * run): the wait ends at the event, so the deadline costs nothing when all is well.
 */
export const WAIT_MS = 60_000;

/**
 * How long a test lets a whole CLI run take before it kills it (test/helpers/cli.ts runCli): a whole run is seconds of
 * CPU, and on 2 cores loaded twenty times over it took more than WAIT_MS (stop 39), killed mid-run.
 */
export const RUN_LIMIT_MS = 300_000;

/**
 * A time limit a test waits out on purpose (a check's, a run's budget, a request's to a server that never answers)
 * while other answers must come within it: far beyond a loopback answer on a loaded machine, and each test that waits
 * it out pays it once. A test proving that a limit fires, where nothing else must beat it, may use a shorter one.
 */
export const LIMIT_MS = 10_000;

/**
 * The webhooks suite's delivery deadline (suite option deadlineMs) where a test sets one: a delivery on loopback takes
 * milliseconds and ends the wait, and a check that waits twice for one that never comes still ends within its own
 * time limit (60 s), failed rather than timed out.
 */
export const DELIVERY_DEADLINE_MS = 20_000;
