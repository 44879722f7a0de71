// The engine's one face. Check authors use defineSuite, defineCheck and CheckContext; the library (src/api.ts) runs a
// pack with runChecks; reporters implement Reporter and read the result types. The engine knows no suite, endpoint,
// receiver or report format: a pack (suites/index.ts) brings its suites, its shared state and its session.
export { defineCheck, defineSuite, explainFails } from './check.js';
export type { CheckDeclaration, CheckDefinition, SuiteDefinition } from './check.js';
export { CheckContext } from './context.js';
export type { SetupFinding } from './context.js';
export { UndeclaredSharedState } from '../errors.js';
export { CheckFailed, CheckSkipped } from './outcomes.js';
export type { Pack, PutBackSender } from './pack.js';
export type { RunSession, SuiteRun } from './session.js';
export type { Reporter, RunStartInfo } from './reporter.js';
export { clientFor, runChecks, DEFAULT_CHECK_TIMEOUT_MS } from './run.js';
export type { RunSettings } from './run-state.js';
export { selectChecks, type Selection } from './select.js';
export { formatBudget, parseDuration } from './budget.js';
export { applyExpectedFailure, loadExpectedFailures, parseExpectedFailures } from './expected-failures.js';
export type { ExpectedFailure } from './expected-failures.js';
export { computeVerdict, setupProblemOf } from './verdict.js';
export { suiteTimes, suiteTimesOf } from './suite-times.js';
export type {
  AlsoSeen,
  CheckInfo,
  CheckResult,
  ExpectedFailureMark,
  Finding,
  Level,
  Outcome,
  RequirementRef,
  RunInfo,
  RunOptionsInfo,
  OutOfReachRequirement,
  RunFlags,
  RunResult,
  SetupProblem,
  SuiteName,
  SuiteTime,
  Totals,
  UnexercisedCheck,
  UnexercisedRequirement,
  Verdict,
  VerdictStatus,
} from './types.js';
