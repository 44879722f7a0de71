// The contract every report writer keeps. The engine calls it; writers live in src/report/ and see results only.
import type { CheckInfo, CheckResult, RunResult } from './types.js';

/** A report writer. The runner calls these in order; reporters see results only, never the suites or the client. */
export interface Reporter {
  /** How a failure of this reporter is named to the user, e.g. `JSON report r.json`. */
  readonly name?: string;
  onRunStart?(info: { target: string; baseUrl: string; checks: CheckInfo[] }): void;
  onCheckStart?(check: CheckInfo): void;
  onCheckEnd?(result: CheckResult): void;
  /** Called once with the whole run; file reporters write here. */
  onRunEnd?(result: RunResult): Promise<void> | void;
}
