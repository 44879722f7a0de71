// Types of bench/floor.mjs for the tests that import it (test/bench/floor.test.ts).

interface Term {
  roundTrips: number;
  ms: number;
}

export interface Chain extends Term {
  id: string;
  suite: string;
  uses: string[];
  alone: boolean;
  turns: string[];
  suiteOrder: string[];
  durationMs: number;
  requestMs: number;
  waitMs: number;
  turnMs: number;
  localMs: number;
  exchanges: number;
  probes: number;
}

export interface Floor {
  runMs: number;
  concurrency: number;
  floorMs: number;
  floorRoundTrips: number;
  floorWaitMs: number;
  bound: string;
  open: Term;
  close: Term;
  alone: Array<Term & { id: string }>;
  longest: Term & { id: string };
  resources: Array<Term & { state: string; checks: number; waitMs: number }>;
  orderedFloorMs: number;
  slotFloorMs: number;
  workMs: number;
  turnMs: number;
  chains: Chain[];
  suites: Array<{ suite: string; startMs: number; endMs: number; checks: number }>;
  unrecorded: number;
}

export const LOCAL_GAP_MS: number;

export function floorOf(
  report: unknown,
  declarations?: Map<
    string,
    { uses?: readonly string[]; alone?: boolean; turns?: readonly string[]; suiteOrder?: readonly string[] }
  >,
  options?: { localGapMs?: number },
): Floor;
