// The results of checks the run reported but did not start: interrupted before them, out of budget, or given up on a
// throttling server. Each says why; none judged anything.
import { BudgetSpent } from './budget.js';
import type { RunInterrupted } from '../errors.js';
import { checkInfo, type CheckDefinition } from './check.js';
import type { CheckResult } from './types.js';

/** A check the run's interruption came before: skipped, not run. */
export function notStartedResult(check: CheckDefinition, reason: RunInterrupted): CheckResult {
  return {
    ...checkInfo(check),
    outcome: 'skip',
    skipReason: `not run: ${reason.message} before the check started`,
    observations: [],
    exchanges: [],
    durationMs: 0,
    failsRun: false,
  };
}

/** A check the budget left no time for: reported, not run. */
export function budgetSpentResult(check: CheckDefinition, budget: { budgetMs: number; spent: boolean }): CheckResult {
  budget.spent = true;
  return {
    ...checkInfo(check),
    outcome: 'error',
    finding: { message: new BudgetSpent(budget.budgetMs).message, code: 'CONFORMANCE_ERR_BUDGET_SPENT' },
    budgetSpent: true,
    observations: [],
    exchanges: [],
    durationMs: 0,
    failsRun: false,
  };
}

/** A check left when the run gave up on a throttling server: reported, not run. */
export function throttledOutResult(check: CheckDefinition, reason: string): CheckResult {
  return {
    ...checkInfo(check),
    outcome: 'error',
    finding: { message: reason, code: 'CONFORMANCE_ERR_THROTTLED_OUT' },
    observations: [],
    exchanges: [],
    durationMs: 0,
    failsRun: false,
  };
}
