import type { CheckInfo, CheckResult, Reporter, RunResult, RunStartInfo } from '../engine/index.js';

/** A reporter that threw: which, in which hook, and why. */
export interface ReporterFailure {
  reporter: string;
  hook: 'onRunStart' | 'onCheckStart' | 'onCheckFinished' | 'onCheckEnd' | 'onRunEnd';
  error: unknown;
}

/**
 * Fans every event out to several reporters, the way vitest and Playwright multiplex theirs, each isolated: one that
 * throws is named through `onFailure` (once per hook) and skipped for the rest of that hook's calls, and every other
 * reporter still hears every event and writes its report. A reporter's failure never changes the run's result.
 */
export class ReporterMux implements Reporter {
  private readonly failed = new Set<string>();

  constructor(
    private readonly reporters: Reporter[],
    private readonly onFailure: (failure: ReporterFailure) => void = () => {},
  ) {}

  onRunStart(info: RunStartInfo): void {
    for (const [i, r] of this.reporters.entries()) this.guard(i, r, 'onRunStart', () => r.onRunStart?.(info));
  }

  onCheckStart(check: CheckInfo): void {
    for (const [i, r] of this.reporters.entries()) this.guard(i, r, 'onCheckStart', () => r.onCheckStart?.(check));
  }

  onCheckFinished(check: CheckInfo): void {
    for (const [i, r] of this.reporters.entries())
      this.guard(i, r, 'onCheckFinished', () => r.onCheckFinished?.(check));
  }

  onCheckEnd(result: CheckResult): void {
    for (const [i, r] of this.reporters.entries()) this.guard(i, r, 'onCheckEnd', () => r.onCheckEnd?.(result));
  }

  /** Every reporter writes, each on its own: one that fails leaves the others' files written. */
  async onRunEnd(result: RunResult): Promise<void> {
    await Promise.all(
      this.reporters.map(async (r, i) => {
        try {
          await r.onRunEnd?.(result);
        } catch (error) {
          this.report(i, r, 'onRunEnd', error);
        }
      }),
    );
  }

  private guard(index: number, reporter: Reporter, hook: ReporterFailure['hook'], call: () => void): void {
    if (this.failed.has(`${index}:${hook}`)) return;
    try {
      call();
    } catch (error) {
      this.report(index, reporter, hook, error);
    }
  }

  private report(index: number, reporter: Reporter, hook: ReporterFailure['hook'], error: unknown): void {
    this.failed.add(`${index}:${hook}`);
    this.onFailure({ reporter: reporter.name ?? `reporter ${index + 1}`, hook, error });
  }
}
