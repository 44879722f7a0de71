// The run's verdict: one answer, computed once here and shown by every report, that never claims more than was tested.
//
// The MUST requirements that count are those of level MUST that at least one MUST check of the whole pack of suites
// given to the runner cites, whether this run selected the check or not: narrowing a run (--suite, --grep,
// --rerun-failed) narrows what it tested, never what conformance means. A requirement the catalog excludes (it cannot
// be tested black-box) has no check and is not part of the verdict: it is out of reach, counted, and named by
// `conformance coverage`.
//
// A MUST requirement is exercised when every MUST check citing it ran to a pass or a fail (a failure listed in
// --expected-failures ran too). One citing check not selected, skipped or errored (its own error, a time limit, the
// run's budget) leaves it not exercised: conservative on purpose, as the checks citing one requirement each test a
// different part of it.
//
// CONFORMANT: no MUST check failed, and every MUST requirement was exercised. NOT CONFORMANT: a MUST check failed,
// listed in --expected-failures or not (a known deviation is still a deviation; the exit code follows failsRun).
// INCOMPLETE: no MUST check failed, but some MUST requirement was not exercised; each is listed with why and what to do.
// INTERRUPTED: the run was stopped before its end (SIGINT, SIGTERM, an AbortSignal): never CONFORMANT, whatever its
// checks found until then; what failed and what was not exercised are listed as for the others.
import { loadCatalog, type Requirement } from '../catalog/requirements.js';
import type { Selection } from './select.js';
import type {
  CheckInfo,
  CheckResult,
  RequirementRef,
  SetupProblem,
  SkipRemedy,
  UnexercisedCheck,
  UnexercisedRequirement,
  Verdict,
} from './types.js';

export interface VerdictInput {
  /** Every check of the suites given to the runner, selected or not. */
  pack: readonly CheckInfo[];
  /** The run's results: one per selected check. */
  results: readonly CheckResult[];
  /** What the run was narrowed to, to say why a check was not selected. */
  selection?: Selection;
  /** The catalog's requirements: their order, and which are out of reach. The shipped catalog by default. */
  catalog?: readonly Requirement[];
  /** The run's set-up problems: a check they stopped names its fix as what to do. */
  setupProblems?: readonly SetupProblem[];
  /** false: the pack does not test the server, so no requirement of the catalog is counted out of its reach. */
  outOfReach?: false;
  /** The run was interrupted: the verdict is INTERRUPTED, whatever was found until then. */
  interrupted?: boolean;
}

export function computeVerdict(input: VerdictInput): Verdict {
  const catalog = input.catalog ?? loadCatalog().requirements;
  const results = new Map(input.results.map((r) => [r.id, r]));
  const citing = mustCitations(input.pack);
  const order = new Map(catalog.map((r, i) => [r.id, i]));
  const ids = [...citing.keys()].sort((a, b) => (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity));

  const failed: string[] = [];
  const notExercised: UnexercisedRequirement[] = [];
  for (const id of ids) {
    const { ref, checks } = citing.get(id)!;
    // A failure decides the requirement, whatever else was not run: it is listed as failed, not as not exercised.
    if (checks.some((c) => failedOn(results.get(c.id), id))) {
      failed.push(id);
      continue;
    }
    const missing = checks.flatMap(
      (c) => unexercised(c, results.get(c.id), input.selection ?? {}, input.setupProblems ?? []) ?? [],
    );
    if (missing.length > 0)
      notExercised.push({
        id,
        section: ref.section,
        quote: ref.quote,
        checks: missing,
        remedy: [...new Set(missing.map((m) => m.remedy))].join('; '),
      });
  }
  const cited = new Set(input.pack.flatMap((c) => c.requirements.map((r) => r.id)));
  const outOfReach =
    input.outOfReach === false
      ? []
      : catalog.filter((r) => r.level === 'MUST' && r.exclusion !== undefined && !cited.has(r.id));
  return {
    status: input.interrupted
      ? 'INTERRUPTED'
      : failed.length > 0
        ? 'NOT CONFORMANT'
        : notExercised.length > 0
          ? 'INCOMPLETE'
          : 'CONFORMANT',
    mustRequirements: ids.length,
    exercised: ids.filter((id) => citing.get(id)!.checks.every((c) => ranToVerdict(results.get(c.id)))).length,
    failed,
    failedChecks: input.results.filter((r) => r.level === 'MUST' && serverFailed(r)).map((r) => r.id),
    notExercised,
    outOfReach: outOfReach.length,
    outOfReachRequirements: outOfReach.map((r) => ({
      id: r.id,
      section: r.section,
      quote: r.quote,
      why: r.exclusion!,
    })),
  };
}

/** Each MUST requirement a MUST check of the pack cites, with those checks. */
function mustCitations(pack: readonly CheckInfo[]): Map<string, { ref: RequirementRef; checks: CheckInfo[] }> {
  const citing = new Map<string, { ref: RequirementRef; checks: CheckInfo[] }>();
  for (const check of pack) {
    if (check.level !== 'MUST') continue;
    for (const ref of check.requirements) {
      if (ref.level !== 'MUST') continue;
      const entry = citing.get(ref.id) ?? { ref, checks: [] };
      entry.checks.push(check);
      citing.set(ref.id, entry);
    }
  }
  return citing;
}

/**
 * Whether the server failed this check. A listed expected failure did; a stale entry (outcome fail because the check
 * passed) is a failure of the list, not of the server.
 */
function serverFailed(result: CheckResult): boolean {
  return result.outcome === 'fail' && result.expected?.status !== 'stale';
}

/** Whether the server failed this check on requirement `id`. */
function failedOn(result: CheckResult | undefined, id: string): boolean {
  return result !== undefined && serverFailed(result) && requirementsBroken(result).includes(id);
}

/**
 * The requirements a failed or warned result breaks: those its finding names (of the ones the check cites), else all
 * the check cites.
 */
export function requirementsBroken(result: CheckResult): string[] {
  const cited = result.requirements.map((r) => r.id);
  const named = result.finding?.requirements?.filter((r) => cited.includes(r)) ?? [];
  return named.length > 0 ? named : cited;
}

/** Selected, not skipped, not errored: the check ran to a pass or a fail. */
function ranToVerdict(result: CheckResult | undefined): boolean {
  return result !== undefined && result.outcome !== 'skip' && result.outcome !== 'error';
}

/** Why a citing check did not run to a pass or fail, and what would let it; undefined when it did. */
function unexercised(
  check: CheckInfo,
  result: CheckResult | undefined,
  selection: Selection,
  setupProblems: readonly SetupProblem[],
): UnexercisedCheck | undefined {
  if (ranToVerdict(result)) return undefined;
  if (result === undefined) return { id: check.id, outcome: 'not-selected', ...notSelected(check, selection) };
  if (result.outcome === 'skip')
    return {
      id: check.id,
      outcome: 'skip',
      // A set-up problem is stated once by the run (RunInfo.setupProblems), not again for every requirement it stopped.
      reason:
        result.skipRemedy?.kind === 'setup'
          ? `the run's set-up problem (${result.skipRemedy.suite})`
          : (result.skipReason ?? 'no reason given'),
      remedy: skipRemedyText(result.skipRemedy, setupProblems, check.id),
    };
  if (result.outcome === 'error') {
    return {
      id: check.id,
      outcome: 'error',
      reason: result.finding?.message ?? 'the check did not finish',
      remedy: result.budgetSpent ? 'raise --budget' : "see the check's error",
    };
  }
  return undefined;
}

function notSelected(check: CheckInfo, selection: Selection): { reason: string; remedy: string } {
  const suites = selection.suites?.map((s) => s.trim()).filter(Boolean);
  if (suites && suites.length > 0 && !suites.includes(check.suite)) {
    return {
      reason: `not selected: --suite left out its suite, ${check.suite}`,
      remedy: 'run without --suite (or with its suite named)',
    };
  }
  if (selection.ids && !selection.ids.includes(check.id))
    return {
      reason: 'not selected: --rerun-failed reran only the checks that did not pass before',
      remedy: 'run without --rerun-failed',
    };
  return {
    reason: selection.grep !== undefined ? `not selected: --grep ${selection.grep} did not match it` : 'not selected',
    remedy: 'run without --grep',
  };
}

function skipRemedyText(remedy: SkipRemedy | undefined, setupProblems: readonly SetupProblem[], id: string): string {
  switch (remedy?.kind) {
    case 'fixture':
      return `set fixtures.${remedy.fixture} in the target's config`;
    case 'long':
      return 'run with --long';
    case 'allow-mutations':
      return 'run with --allow-mutations';
    case 'setup': {
      const fix = setupProblemOf(id, remedy.suite, setupProblems)?.fix;
      return fix !== undefined
        ? `fix the ${remedy.suite} set-up: ${fix}`
        : `fix the ${remedy.suite} suite's set-up problem the run names`;
    }
    case undefined:
      return 'see the skip reason';
  }
}

/**
 * The set-up problem that stopped a check: the one listing it (a suite may have several), else its suite's first (a
 * report written before a suite could state more than one).
 */
export function setupProblemOf(
  id: string,
  suite: string,
  setupProblems: readonly SetupProblem[],
): SetupProblem | undefined {
  const ofSuite = setupProblems.filter((p) => p.suite === suite);
  return ofSuite.find((p) => p.checks.includes(id)) ?? ofSuite[0];
}
