import type { Exchange } from '../http/exchange.js';
import type { RequirementRef } from '../spec/requirements.js';

export type { RequirementRef } from '../spec/requirements.js';

/** MUST: the spec states it, a failure fails the run. SHOULD: a failure warns. INFO: an observation, never fails. */
export type Level = 'MUST' | 'SHOULD' | 'INFO';

export type Outcome = 'pass' | 'fail' | 'warn' | 'skip' | 'error';

export const SUITE_NAMES = ['auth', 'signing', 'pagination', 'resources', 'ussd', 'webhooks'] as const;
export type SuiteName = (typeof SUITE_NAMES)[number];

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
}

export interface CheckResult extends CheckInfo {
  outcome: Outcome;
  /** Present for fail, warn, error: the reason in one line plus details. */
  finding?: Finding;
  /** Present for skip. */
  skipReason?: string;
  /** INFO observations and notes a passing check wants on record. */
  observations: string[];
  /** The exchanges this check made, in order. */
  exchanges: Exchange[];
  /** When the check started, in ms after the run started; absent for a check that never started (budget spent). */
  startMs?: number;
  durationMs: number;
  /** Whether this result makes the run fail under the run's --fail-on policy. */
  failsRun: boolean;
  /** Present when the check is listed in --expected-failures (src/runner/expected-failures.ts). */
  expected?: ExpectedFailureMark;
}

/**
 * A check listed as a known deviation. expected: it failed as listed and does not fail the run. stale: it passed, so
 * it fails the run until the entry is removed. expired: past its date, it counts as if unlisted.
 */
export interface ExpectedFailureMark {
  reason: string;
  expires?: string;
  status: 'expected' | 'stale' | 'expired';
}

export interface RunInfo {
  target: string;
  baseUrl: string;
  suiteVersion: string;
  specVersion: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  failOn: 'must' | 'should';
  /** How many checks could run at once (--concurrency). Absent in reports of versions before it. */
  concurrency?: number;
  /** Time per suite, in report order. Absent in reports of versions before it. */
  suites?: SuiteTime[];
  /** ids: the checks of `--rerun-failed`, when the run was limited to them. */
  selection: { suites: string[]; grep?: string; ids?: string[] };
  /** Clean-up that did not succeed (e.g. the run's token could not be revoked), for a person to finish by hand. */
  cleanup?: string[];
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
  /** 0 when no check that fails the run failed, 1 otherwise. */
  exitCode: 0 | 1;
}
