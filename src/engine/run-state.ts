// What a run is asked (RunSettings, from the CLI, the library and the matrices alike) and what it holds while it goes
// (Run): the types runChecks and its parts share.
import type { SignedClient } from '../http/client.js';
import type { Exchange } from '../http/exchange.js';
import type { ResolvedTarget } from '../config/types.js';
import type { Reporter } from './reporter.js';
import type { CheckDefinition, SuiteDefinition } from './check.js';
import type { Pack } from './pack.js';
import type { RunSession } from './session.js';
import type { Selection } from './select.js';
import type { ExpectedFailure } from './expected-failures.js';
import type { RunFlags, RunOptionsInfo } from './types.js';
import type { Interruption } from './interrupt.js';
import type { RunJournal } from '../journal/journal.js';
import type { Lifecycles, SuiteSettings } from './lifecycles.js';
import type { FailOn } from './run-one.js';
import type { SetupFindings } from './setup-findings.js';
import type { AdaptiveConcurrency } from './adaptive-concurrency.js';
import type { TrafficExchange } from '../traffic/exchange.js';

/** How a run goes, whoever asks for it: the CLI, the library (src/api.ts) and the matrices pass these through as they are. */
export interface RunSettings {
  selection?: Selection;
  failOn?: FailOn;
  /** An INCOMPLETE verdict (MUST requirements not exercised) fails the run too (`--fail-on incomplete`). */
  failOnIncomplete?: boolean;
  flags?: Partial<RunFlags>;
  /** Settings of suites that declare some (SuiteDefinition.options), by suite name: `{ ussd: { maxViews: 100 } }`. */
  suiteOptions?: SuiteSettings;
  /** Time limit of one check, in ms (default 60 s). */
  checkTimeoutMs?: number;
  /** Time limit of one request, in ms. */
  requestTimeoutMs?: number;
  /** Cap on one response body, in bytes. */
  maxBodyBytes?: number;
  /** Time for the whole run, in ms (default 30 minutes): past it, the checks left are errors and the run ends. */
  budgetMs?: number;
  /** Known deviations (--expected-failures): listed failures do not fail the run, listed passes do. */
  expectedFailures?: readonly ExpectedFailure[];
  /** The day expiry dates are compared with (YYYY-MM-DD, UTC); today by default. */
  today?: string;
  /** Checks running at once (default: the target's `concurrency`, else DEFAULT_CONCURRENCY); 1 runs them one after the other. */
  concurrency?: number;
  /** What the run met that is not a check's to judge (the embedded server's choices…): every report shows them. */
  notes?: readonly string[];
  /**
   * The command-line arguments that aim a command at this target again (`--target local --fault …`): every report's
   * replay lines carry them (RunInfo.replay). By default `--target <name>`.
   */
  targetArgs?: readonly string[];
  /**
   * What the caller knows of the options that changed what was tested and the engine does not (the files given, the
   * suites asked for, the built-in server's faults): RunInfo.options, beside the limits and flags the engine fills in.
   */
  recordedOptions?: Omit<RunOptionsInfo, 'long' | 'allowMutations' | 'requestTimeoutMs' | 'maxBodyBytes' | 'budgetMs'>;
  /**
   * Aborted, the run stops (the CLI aborts it on SIGINT and SIGTERM, with a RunInterrupted naming the signal): no check
   * starts, the running ones put back what they changed, the suites' teardowns run, all within `interruptGraceMs`; the
   * result's verdict is INTERRUPTED and its exit code 130 (143 for SIGTERM).
   */
  signal?: AbortSignal;
  /** How long an interrupted run may take to put back what it changed and end, in ms (default 20 s). */
  interruptGraceMs?: number;
}

export interface RunChecksOptions extends RunSettings {
  target: ResolvedTarget;
  pack: Pack;
  /** The pack's suites to run, when not all of them (tests run one); the verdict still speaks for these only. */
  suites?: SuiteDefinition[];
  reporter?: Reporter;
  /**
   * Where the run writes each change it will put back before making it (src/journal/journal.ts), and where what killed
   * runs left is read and put back first (through `pack.putBack`). Kept in memory when absent.
   */
  journal?: RunJournal;
  /**
   * Traffic the run judges rather than sends (`conformance judge`, `conformance proxy`): recorded as the run's own
   * exchanges and deliveries are, so that its reports hold every exchange (the HAR the traffic itself), not only those
   * a finding cites.
   */
  observed?: { exchanges: readonly TrafficExchange[]; deliveries?: readonly TrafficExchange[] };
}

/** A run as it goes: what it was asked, what it holds open, and what it gathers for its report. */
export interface Run {
  options: RunChecksOptions;
  /** The pack's suites the run speaks for, and the checks selected of them, in declaration order. */
  suites: SuiteDefinition[];
  checks: CheckDefinition[];
  expected: Map<string, ExpectedFailure>;
  today: string;
  failOn: FailOn;
  started: number;
  client: SignedClient;
  session: RunSession;
  sessionExchanges: Exchange[];
  /** The webhook deliveries a suite's receiver got, as recorded (RunResult.deliveries). */
  deliveries: Exchange[];
  flags: RunFlags;
  cleanupProblems: string[];
  runNotes: string[];
  setupFindings: SetupFindings;
  journal: RunJournal;
  interruption: Interruption;
  lives: Lifecycles;
  budget: { budgetMs: number; deadline: number; spent: boolean };
  /** How many checks run at once: the limit that follows the server's answers, under its cap (RunInfo.concurrency). */
  adaptive: AdaptiveConcurrency;
}
