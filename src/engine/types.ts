import type { Exchange } from '../http/exchange.js';
import type { RequirementRef } from '../catalog/requirements.js';

export type { RequirementRef } from '../catalog/requirements.js';

/** MUST: the spec states it, a failure fails the run. SHOULD: a failure warns. INFO: an observation, never fails. */
export type Level = 'MUST' | 'SHOULD' | 'INFO';

export type Outcome = 'pass' | 'fail' | 'warn' | 'skip' | 'error';

/** What a run allows beyond the default: checks that take long, changes whose reach is not known. */
export interface RunFlags {
  /** Run checks that take long (token expiry after 60 minutes). */
  long: boolean;
  /** Let checks make changes whose reach is not known (an order placed or cancelled through USSD). */
  allowMutations: boolean;
}

/** A suite's name: the pack decides which exist. */
export type SuiteName = string;

/** Static description of a check: what reports, `list` and `explain` show. */
export interface CheckInfo {
  id: string;
  title: string;
  suite: SuiteName;
  level: Level;
  /** The requirements of the catalog (spec/requirements.json) the check enforces, with their quotes. */
  requirements: RequirementRef[];
  /** Our commentary on how the check reads its requirements (never part of a quote). */
  note?: string;
}

/** What a failed (or warned) check shows a reviewer: the expectation, what happened, and the evidence. */
export interface Finding {
  /** One line: why the check did not pass. */
  message: string;
  expected?: string;
  observed?: string;
  /** The exchange that shows it (its seq); reporters fall back to the check's last exchange. */
  exchangeSeq?: number;
  /** The check could not undo a change it made on the target: the run lists it with its clean-up problems too. */
  cleanup?: boolean;
  /** The ids of the check's requirements this failure breaks, when not all of them: reports quote these. */
  requirements?: string[];
  /** For a finding made of an error (a timeout, the budget spent, a check that broke, no usable response): its code (src/errors.ts). */
  code?: string;
  /**
   * One cause, one failure: the failure follows from a defect another check owns (an answer without `meta`, say, keeps a
   * sort check from reading meta.sort). When that owner fails for one of these requirements the check is not failed
   * for it: it ends skipped, the defect recorded as also seen. Otherwise the failure stands.
   */
  cause?: { ownedBy: string; requirements: string[] };
}

export interface CheckResult extends CheckInfo {
  outcome: Outcome;
  /** Present for fail, warn, error: the reason in one line plus details. */
  finding?: Finding;
  /** Present for skip. */
  skipReason?: string;
  /**
   * Present for a skip whose way round the runner knows (a fixture to set, a flag to give): the verdict says what to do
   * from it, never from the reason's text.
   */
  skipRemedy?: SkipRemedy;
  /** The run's budget (--budget) ran out before this check could run or finish: an error, and the verdict says raise it. */
  budgetSpent?: boolean;
  /**
   * Present for pass: how many subjects the check judged (answers, records, pages, deliveries, links, views: at least
   * one, or it would not have passed) and the first few by name. Absent in reports of versions before it.
   */
  judged?: { count: number; names: string[] };
  /** INFO observations and notes a passing check wants on record. */
  observations: string[];
  /** The exchanges this check made, in order. */
  exchanges: Exchange[];
  /** When the check started, in ms after the run started; absent for a check that never started (budget spent). */
  startMs?: number;
  durationMs: number;
  /** Whether this result makes the run fail under the run's --fail-on policy. */
  failsRun: boolean;
  /** Present when the check is listed in --expected-failures (src/engine/expected-failures.ts). */
  expected?: ExpectedFailureMark;
  /**
   * One cause, one failure: defects this check met in an answer but does not judge, because another check owns the
   * requirement they break. Never a failure of this check. Absent when there is none, and in reports of versions before it.
   */
  alsoSeen?: AlsoSeen[];
  /**
   * Exchanges the check judged that another check of the run sent: work several checks need (a walk of a list, a
   * fixture read) is done once per run and judged by each. Absent when none, and in reports of versions before it.
   */
  sharedExchanges?: SharedExchange[];
}

/** An exchange a check judged that another check sent for the run (see CheckResult.sharedExchanges). */
export interface SharedExchange {
  seq: number;
  /** The id of the check whose exchanges hold it. */
  sentBy: string;
}

/** A defect a check saw on its way, recorded for the check that owns the requirement it breaks. */
export interface AlsoSeen {
  /** The requirements the defect breaks, e.g. ["REQ-ENV-03"]. */
  requirements: string[];
  /** The id of the check that owns (judges and fails for) them. */
  ownedBy: string;
  /** One line: what was seen, and in which answer. */
  message: string;
  /** The exchange that shows it (its seq). */
  exchangeSeq?: number;
}

/**
 * Something about the run's set-up, not the server, kept requirements from being exercised: e.g. the server refused the
 * webhook receiver's certificate, so no delivery arrived. The checks it stopped are skipped with remedy `setup`; the
 * verdict counts their requirements not exercised (INCOMPLETE), never failed.
 */
export interface SetupProblem {
  /** The suite whose set-up it is. */
  suite: string;
  /** One line: what went wrong, as observed. */
  problem: string;
  /** One line: the exact step that fixes it. */
  fix: string;
  /** The checks it kept from running or judging. */
  checks: string[];
}

/** What lets a skipped check run: set `fixtures.<fixture>` in the target's config, or give --long / --allow-mutations. */
export type SkipRemedy =
  | { kind: 'fixture'; fixture: string }
  | { kind: 'long' }
  | { kind: 'allow-mutations' }
  /** A set-up problem of the run (RunInfo.setupProblems names it and its fix). */
  | { kind: 'setup'; suite: string };

/**
 * A check listed as a known deviation. expected: it failed as listed and does not fail the run. stale: it passed, so
 * it fails the run until the entry is removed. expired: past its date, it counts as if unlisted.
 */
export interface ExpectedFailureMark {
  reason: string;
  expires?: string;
  status: 'expected' | 'stale' | 'expired';
}

/**
 * The options that changed what a run tested or how it judged, as the run took them (defaults filled in): what a
 * reviewer signing the report must know besides the target. Files are named as given and tied to their bytes by a
 * SHA-256, so a changed list or report after the run shows. The run's concurrency is RunInfo.concurrency, its
 * --grep and the checks of --rerun-failed RunInfo.selection.
 */
export interface RunOptionsInfo {
  /** --long: the checks that take long (token expiry after 60 minutes) ran. */
  long: boolean;
  /** --allow-mutations: the USSD crawler could follow order and cancel links. */
  allowMutations: boolean;
  /** --timeout: the time limit of one request, in ms. */
  requestTimeoutMs: number;
  /** --max-body: the cap on one response body, in bytes. */
  maxBodyBytes: number;
  /** --budget: the time for the whole run, in ms. */
  budgetMs: number;
  /** --suite as given; absent: every suite was asked for. */
  suites?: string[];
  /** --expected-failures: the file as given (absent when a library caller passed the entries), its SHA-256, its entries. */
  expectedFailures?: { file?: string; sha256?: string; entries: number };
  /** --rerun-failed: the earlier run's JSON report as given, and its SHA-256. */
  rerunFailed?: { report: string; sha256: string };
  /** --ussd-max-views and --ussd-max-depth, when given. */
  ussd?: { maxViews?: number; maxDepth?: number };
  /** The built-in target only: the reference server's variant, the choices given (--choice NAME=VALUE) and its faults. */
  local?: { variant?: string; choices: Record<string, string>; faults: string[] };
  /** `conformance client`: the client program run and the scenarios it ran. */
  client?: { command: string[]; scenarios: string[] };
}

export interface RunInfo {
  target: string;
  baseUrl: string;
  suiteVersion: string;
  specVersion: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** Which warnings fail the run: `must` (MUST failures only) or `should` (SHOULD warnings too). */
  failOn: 'must' | 'should';
  /**
   * Whether an INCOMPLETE verdict fails the run too (`--fail-on incomplete`). Beside `failOn`, not in it, so readers of
   * reports before it still read `failOn`. Absent in reports of versions before it.
   */
  failOnIncomplete?: boolean;
  /** How many checks could run at once (--concurrency). Absent in reports of versions before it. */
  concurrency?: number;
  /** Time per suite, in report order. Absent in reports of versions before it. */
  suites?: SuiteTime[];
  /** ids: the checks of `--rerun-failed`, when the run was limited to them. */
  selection: { suites: string[]; grep?: string; ids?: string[] };
  /** Clean-up that did not succeed (e.g. the run's token could not be revoked), for a person to finish by hand. */
  cleanup?: string[];
  /**
   * The run was interrupted (SIGINT, SIGTERM, a library caller's AbortSignal): no check started after it, the checks
   * it cut short put back what they changed, the suites' clean-up ran. `signal` names it when a signal did;
   * `putBack` says what was put back (or found as it was), `notPutBack` what was not, each with the request that puts
   * it back by hand (the restore journal keeps it for the next run or `conformance restore`). Absent when the run ended
   * by itself, and in reports of versions before it.
   */
  interrupted?: { signal?: string; putBack: string[]; notPutBack: string[] };
  /** Set-up problems that kept requirements from being exercised; absent when there were none. */
  setupProblems?: SetupProblem[];
  /**
   * What the run met that no check owns, as observations: the embedded server's choices, token renewals, throttling,
   * reconnects. Never a failure. Absent when there is nothing to say, and in reports of versions before it.
   */
  notes?: string[];
  /**
   * SHA-256 (hex) of the requirement catalog the run judged by (spec/requirements.json, its bytes): the quotes, levels
   * and exclusions behind every verdict. Absent in reports of versions before it.
   */
  catalogSha256?: string;
  /** The options that changed what was tested (RunOptionsInfo). Absent in reports of versions before it. */
  options?: RunOptionsInfo;
  /**
   * What a replay of the run's requests needs (`conformance curl`, `conformance replay`, the replay line of every
   * failure): the command-line arguments that aim a command at the run's target again, and the client id and keyid the
   * run's own requests carried (a replay line names them only where a check sent others). Absent in reports of versions
   * before it.
   */
  replay?: {
    /** E.g. `["--target", "local", "--fault", "signing.keyid-ignored"]` or `["--target", "staging", "--config", "c.json"]`. */
    targetArgs: string[];
    clientId: string;
    keyId: string;
    /**
     * The signing profile the run's own requests were signed with (learnt when the run opened, or set by the target's
     * config): its window in seconds, the derived components covering the target, the label. Absent in reports of
     * versions before it.
     */
    signing?: { windowSeconds: number; components: string[]; label: string };
  };
}

/** A suite's time in a run: from its first check's start to its last check's end, and its checks' time added up. */
export interface SuiteTime {
  suite: string;
  checks: number;
  wallMs: number;
  checkMs: number;
}

export interface Totals {
  passed: number;
  failed: number;
  warned: number;
  skipped: number;
  errored: number;
  total: number;
}

export interface RunResult {
  run: RunInfo;
  totals: Totals;
  /** Every selected check in stable (declaration) order, whatever order they ran in. */
  checks: CheckResult[];
  /** Exchanges not tied to a check (the shared session's token). */
  sessionExchanges: Exchange[];
  /**
   * The webhook deliveries the run's receiver got, each with the receiver's answer, recorded for the HAR alone
   * (src/report/har.ts; src/traffic/delivery.ts says what is kept); absent when none arrived, or no suite had a receiver.
   */
  deliveries?: Exchange[];
  /** What the run shows of the server's conformance, and what it did not test (src/engine/verdict.ts). */
  verdict: Verdict;
  /**
   * 1 when a check that fails the run failed, the run's budget was spent, or the verdict is INCOMPLETE under
   * `--fail-on incomplete`; 0 otherwise. It follows failsRun, so a listed expected failure leaves it 0 even though the
   * verdict is NOT CONFORMANT. An interrupted run: 130 (SIGINT, or an AbortSignal) or 143 (SIGTERM), whatever else.
   */
  exitCode: 0 | 1 | 130 | 143;
}

/**
 * CONFORMANT: no MUST check failed and every MUST requirement was exercised. NOT CONFORMANT: a MUST check failed
 * (listed in --expected-failures or not). INCOMPLETE: none failed, but some MUST requirements were not exercised.
 * INTERRUPTED: the run was stopped before its end (RunInfo.interrupted), whatever its checks found until then: never
 * CONFORMANT, and a failure it saw is listed in `failed` all the same.
 */
export type VerdictStatus = 'CONFORMANT' | 'NOT CONFORMANT' | 'INCOMPLETE' | 'INTERRUPTED';

export interface Verdict {
  status: VerdictStatus;
  /** The MUST requirements the verdict speaks for: every one a MUST check of the suites cites, selected or not. */
  mustRequirements: number;
  /** How many of them every citing check ran to a pass or fail for. */
  exercised: number;
  /**
   * The MUST requirements a MUST check failed on, in catalog order: those its finding names, else all the check cites
   * (a check that does not say which of its requirements broke is taken at its word for all of them).
   */
  failed: string[];
  /** The MUST checks that failed (an expected failure too; a stale entry's check passed), in report order. */
  failedChecks: string[];
  /** The MUST requirements not exercised (and not failed), in catalog order, each with why and what to do. */
  notExercised: UnexercisedRequirement[];
  /** MUST requirements of the catalog no check can test black-box (an exclusion, no check): `conformance coverage` lists them. */
  outOfReach: number;
  /**
   * Those requirements, in catalog order, each with why no black-box check can test it (the catalog's exclusion).
   * Absent in reports of versions before it.
   */
  outOfReachRequirements?: OutOfReachRequirement[];
}

/** A MUST requirement of the catalog no check can test black-box, and why. */
export interface OutOfReachRequirement {
  id: string;
  section: string;
  quote: string;
  why: string;
}

export interface UnexercisedRequirement {
  id: string;
  section: string;
  quote: string;
  /** The MUST checks citing it that did not run to a pass or fail. */
  checks: UnexercisedCheck[];
  /** What to do, each step once, in the checks' order. */
  remedy: string;
}

export interface UnexercisedCheck {
  id: string;
  /** skip or error as the run reported it; not-selected when --suite, --grep or --rerun-failed left it out. */
  outcome: 'skip' | 'error' | 'not-selected';
  reason: string;
  remedy: string;
}
