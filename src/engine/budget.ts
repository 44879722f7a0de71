// The whole-run budget (`--budget 10m`): a hostile server can make every request wait out its timeout, and a run of
// a hundred checks times several requests each would then take hours. Past the budget, the checks left are reported
// as errors naming it and the run ends, so a CI job gets a verdict within a time it can plan for.
import { ConformanceError } from '../errors.js';

/** Long enough for every suite against a slow staging server (a normal run takes seconds), short of a CI job's limit. */
export const DEFAULT_BUDGET_MS = 30 * 60 * 1000;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** "90s", "10m", "1h", "1h30m", "500ms" → milliseconds; undefined when the text is not such a duration (or is 0). */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(trimmed)) return undefined;
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g))
    total += Number(amount) * UNIT_MS[unit!]!;
  return total > 0 && Number.isFinite(total) ? Math.round(total) : undefined;
}

/** In the largest unit that divides it exactly: 600000 → "10m", 90000 → "90s", 5400000 → "90m", 250 → "250ms". */
export function formatBudget(ms: number): string {
  for (const [unit, size] of [
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

/** The reason a check did not run, or was stopped: the budget of the whole run is used up. */
export class BudgetSpent extends ConformanceError {
  constructor(readonly budgetMs: number) {
    super(`run budget of ${formatBudget(budgetMs)} spent`, 'CONFORMANCE_ERR_BUDGET_SPENT');
  }
}
