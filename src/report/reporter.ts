import type { CheckInfo, CheckResult, RunResult } from '../runner/types.js';

/** A report writer. The runner calls these in order; reporters see results only, never the suites or the client. */
export interface Reporter {
  onRunStart?(info: { target: string; baseUrl: string; checks: CheckInfo[] }): void;
  onCheckStart?(check: CheckInfo): void;
  onCheckEnd?(result: CheckResult): void;
  /** Called once with the whole run; file reporters write here. */
  onRunEnd(result: RunResult): Promise<void> | void;
}

/** Fans every event out to several reporters, the way vitest and Playwright multiplex theirs. */
export class ReporterMux implements Reporter {
  constructor(private readonly reporters: Reporter[]) {}

  onRunStart(info: { target: string; baseUrl: string; checks: CheckInfo[] }): void {
    for (const r of this.reporters) r.onRunStart?.(info);
  }

  onCheckStart(check: CheckInfo): void {
    for (const r of this.reporters) r.onCheckStart?.(check);
  }

  onCheckEnd(result: CheckResult): void {
    for (const r of this.reporters) r.onCheckEnd?.(result);
  }

  async onRunEnd(result: RunResult): Promise<void> {
    for (const r of this.reporters) await r.onRunEnd(result);
  }
}
