// The set-up problems the checks of one run state (ctx.setupProblem): one per suite and fix, the first words stating it
// kept, in the order first met, each with the checks it stopped (RunInfo.setupProblems).
import type { SetupFinding } from './context.js';
import type { CheckResult, SetupProblem } from './types.js';

export class SetupFindings {
  /** By suite and fix (a JSON key of both). */
  private readonly problems = new Map<string, SetupFinding & { suite: string }>();
  /** Which problem stopped each check (its last attempt's): the check's id → the problem's key. */
  private readonly byCheck = new Map<string, string>();

  /** A problem a check of `suite` stated, its words already redacted. */
  record(suite: string, checkId: string, found: SetupFinding): void {
    // One problem per suite and fix: the same fix stated again (in other words) is the same problem, a different one
    // is another problem of the suite, kept too, never hidden behind the first.
    const key = JSON.stringify([suite, found.fix]);
    if (!this.problems.has(key)) this.problems.set(key, { suite, problem: found.problem, fix: found.fix });
    this.byCheck.set(checkId, key);
  }

  /**
   * Each set-up problem, stated once, in the order first met, with the checks it stopped: those skipped with remedy
   * `setup` whose last set-up problem it was, in report order.
   */
  problemsOf(results: readonly CheckResult[]): SetupProblem[] {
    return [...this.problems].map(([key, { suite, problem, fix }]) => ({
      suite,
      problem,
      fix,
      checks: results
        .filter((r) => r.skipRemedy?.kind === 'setup' && r.skipRemedy.suite === suite && this.byCheck.get(r.id) === key)
        .map((r) => r.id),
    }));
  }
}
