import type { CheckResult, RunResult, SuiteTime } from './types.js';

/**
 * Per suite, in report order: its wall time (first check's start to last check's end; suites overlap when checks run
 * concurrently) and the time its checks took added up.
 */
export function suiteTimes(results: readonly CheckResult[]): SuiteTime[] {
  const times = new Map<string, SuiteTime & { start: number; end: number }>();
  for (const r of results) {
    const t = times.get(r.suite) ?? {
      suite: r.suite,
      checks: 0,
      wallMs: 0,
      checkMs: 0,
      start: Infinity,
      end: -Infinity,
    };
    t.checks += 1;
    t.checkMs += r.durationMs;
    // A check the budget left no time for never started: it counts, but spans no time.
    if (r.startMs !== undefined) {
      t.start = Math.min(t.start, r.startMs);
      t.end = Math.max(t.end, r.startMs + r.durationMs);
    }
    times.set(r.suite, t);
  }
  return [...times.values()].map(({ start, end, ...t }) => ({ ...t, wallMs: end > start ? end - start : 0 }));
}

/** A run's suite times: as the runner recorded them, or worked out from its checks for a report of an older version. */
export function suiteTimesOf(result: RunResult): SuiteTime[] {
  return result.run.suites ?? suiteTimes(result.checks);
}
