// The contract every report writer keeps. The engine calls it; writers live in src/report/ and see results only.
import type { CheckInfo, CheckResult, RunInfo, RunResult } from './types.js';

/**
 * What a reporter knows when the run starts: the checks in declaration order, and what a replay line needs (the same as
 * RunInfo.replay will hold), so that a streamed failure reads as the one at the end would.
 */
export interface RunStartInfo extends Pick<RunInfo, 'target' | 'baseUrl' | 'replay'> {
  checks: CheckInfo[];
}

/** A report writer. The runner calls these in order; reporters see results only, never the suites or the client. */
export interface Reporter {
  /** How a failure of this reporter is named to the user, e.g. `JSON report r.json`. */
  readonly name?: string;
  onRunStart?(info: RunStartInfo): void;
  onCheckStart?(check: CheckInfo): void;
  /**
   * A check stopped running, in the order checks stop. Its result may come later (onCheckEnd): for a live count of what
   * is done and what still runs, never for outcomes.
   */
  onCheckFinished?(check: CheckInfo): void;
  /**
   * A check's result as the run counts it, in declaration order: each once every check declared before it has ended and
   * the owners of the defects it saw have finished, so a report streamed from here reads the same whatever finished first.
   */
  onCheckEnd?(result: CheckResult): void;
  /** Called once with the whole run; file reporters write here. */
  onRunEnd?(result: RunResult): Promise<void> | void;
}
