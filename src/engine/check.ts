import type { CheckInfo, Level, RunFlags } from './types.js';
import { checkLevelOf, requirementRefs } from '../catalog/requirements.js';
import type { CheckContext } from './context.js';
import type { SuiteRun } from './session.js';

/**
 * What `conformance explain` says about a check, for a reader who has not seen its code, written with the check: never
 * derived from its title. Optional to the engine, which runs checks without it (a test's); every check a pack ships
 * has it (test/cli/explain-fields.test.ts), and `explain` refuses one that does not.
 */
interface CheckExplanation {
  /** The request(s) the check sends, in a sentence. */
  sends: string;
  /** What the server must answer for the check to pass. */
  passes: string;
  /**
   * What makes it fail (or warn, for a SHOULD), in the check's own words; `explainFails` adds what every check shares
   * (a MUST or SHOULD check: no usable answer fails it too; an INFO check that says nothing: it never fails the run).
   */
  fails?: string;
  /** `fails` already says what no usable answer does, or why it does not apply: `explainFails` adds nothing. */
  failsInFull?: true;
}

/** What every MUST and SHOULD check does with an answer it cannot read: said once here, not in each declaration. */
const NO_USABLE_ANSWER = 'no usable answer (refused, reset, timed out, a body over the cap) fails it too';
const INFO_NEVER_FAILS =
  'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning)';

/**
 * What makes a check fail, as `explain` states it: its own words and the clause every check of its level shares. A
 * check of a pack that only observes (the client pack: it sends nothing, so it has no answer to miss) gets nothing added.
 */
export function explainFails(
  check: Pick<CheckDefinition, 'level' | 'explain'>,
  observesOnly = false,
): string | undefined {
  const own = check.explain?.fails;
  if (check.explain === undefined || check.explain.failsInFull || observesOnly) return own;
  if (check.level === 'INFO') return own ?? INFO_NEVER_FAILS;
  return own === undefined ? undefined : `${own}; ${NO_USABLE_ANSWER}`;
}

export interface CheckDefinition extends CheckInfo {
  /** Per-check time limit in ms; the runner's default applies when absent. */
  timeoutMs?: number;
  /**
   * Shared state this check changes or must see unchanged (names the pack declares); none means it may run alongside
   * any other check.
   */
  uses?: readonly string[];
  /**
   * Runs with no other check beside it (given the run's flags): for a change whose reach on the target is not known,
   * such as an order placed through USSD. It runs last, after every other check of the run has finished (checks alone
   * one after another, in declaration order), so no other check sees what it may change.
   */
  alone?: (flags: RunFlags) => boolean;
  explain?: CheckExplanation;
  run(ctx: CheckContext): Promise<void>;
  /**
   * Judges traffic the check did not send (a pack made to judge observed traffic, issue 30: `conformance judge`,
   * `conformance proxy`): the same rule as `run`, over the answers the pack's session holds, sending nothing. A check
   * without it is not exercised by such a pack.
   */
  observe?(ctx: CheckContext): Promise<void>;
}

/** A check as results and reporters name it: its info, without its code. */
export function checkInfo(c: CheckDefinition): CheckInfo {
  return {
    id: c.id,
    title: c.title,
    suite: c.suite,
    level: c.level,
    requirements: c.requirements,
    ...(c.note ? { note: c.note } : {}),
  };
}

/** A setting of one suite (`--ussd-max-views`…): its default, and what it does. */
interface SuiteOption {
  default: number;
  description: string;
}

/**
 * A suite's life in one run. `setup` runs before the run's first check (only when one of the suite's checks is
 * selected), after the run's credentials are open and what killed runs left is put back, so it may read the target
 * (`run.send`); it returns the suite's state for the run, which its checks read as `ctx.state`; `teardown` runs after the
 * last check, whatever happened, and returns what it could not put back, for a person to finish by hand: the run's
 * report lists those lines with its clean-up problems.
 */
interface SuiteLifecycle<S = unknown> {
  setup?(run: SuiteRun): Promise<S> | S;
  teardown?(state: S, run: SuiteRun): Promise<string[]> | string[];
}

export interface SuiteDefinition extends SuiteLifecycle {
  name: string;
  title: string;
  checks: CheckDefinition[];
  /** The suite's own settings with their defaults; a run may set them (RunChecksOptions.suiteOptions). */
  options?: Readonly<Record<string, SuiteOption>>;
  /** Its setup starts the webhook receiver (see SuiteDeclaration.receiver). */
  receiver?: boolean;
}

/** What a check's author writes: the requirements it enforces by id; the suite resolves them against the catalog. */
export interface CheckDeclaration {
  id: string;
  title: string;
  level: Level;
  /** Ids of the catalog (REQ-…), all of one level: MUST or SHOULD for a check of that level, OPEN for an INFO check. */
  requirements: readonly string[];
  note?: string;
  timeoutMs?: number;
  uses?: readonly string[];
  alone?: (flags: RunFlags) => boolean;
  explain?: CheckExplanation;
  run(ctx: CheckContext): Promise<void>;
  /**
   * Judges traffic the check did not send (a pack made to judge observed traffic, issue 30: `conformance judge`,
   * `conformance proxy`): the same rule as `run`, over the answers the pack's session holds, sending nothing. A check
   * without it is not exercised by such a pack.
   */
  observe?(ctx: CheckContext): Promise<void>;
}

/** What a suite's author writes. */
export interface SuiteDeclaration<S = unknown> extends SuiteLifecycle<S> {
  name: string;
  title: string;
  checks: CheckDeclaration[];
  /** State every check of the suite shares (added to each check's own `uses`). */
  uses?: readonly string[];
  /** For every check without its own `alone`. */
  alone?: (flags: RunFlags) => boolean;
  options?: Readonly<Record<string, SuiteOption>>;
  /**
   * Its setup starts the webhook receiver: a run that selects one of its checks has the built-in target's receiver
   * certificate made from the start, on the other core (src/api.ts; the CLI's list by name: src/cli/early-checks.ts).
   */
  receiver?: boolean;
}

/** Declares a check; the id must start with its suite name (`<suite>.<area>.<what>`). */
export function defineCheck(def: CheckDeclaration): CheckDeclaration {
  return def;
}

/**
 * A check's level follows from the requirements it enforces, not from taste: all of one level, and that level is the
 * check's (OPEN points make INFO checks). A check that breaks this is a mistake of ours, refused when its suite loads.
 */
function resolveRequirements(c: CheckDeclaration): Pick<CheckInfo, 'requirements'> {
  if (c.requirements.length === 0) throw new Error(`check ${c.id} cites no requirement of spec/requirements.json`);
  const requirements = requirementRefs(c.requirements, `check ${c.id}`);
  const levels = [...new Set(requirements.map((r) => checkLevelOf(r.level)))];
  if (levels.length !== 1 || levels[0] !== c.level) {
    throw new Error(
      `check ${c.id} is ${c.level} but cites requirements of level ${requirements.map((r) => `${r.id} ${r.level}`).join(', ')}: a check enforces requirements of its own level only`,
    );
  }
  return { requirements };
}

export function defineSuite<S>(def: SuiteDeclaration<S>): SuiteDefinition {
  const { name, title, checks, uses: shared = [], alone: sharedAlone, options, receiver, setup, teardown } = def;
  for (const c of checks) {
    if (!c.id.startsWith(`${name}.`)) throw new Error(`check id ${c.id} does not start with its suite name "${name}."`);
  }
  return {
    name,
    title,
    ...(options ? { options } : {}),
    ...(receiver ? { receiver } : {}),
    // The state's type is the suite's own: its checks read it back through their suite's accessor.
    ...(setup ? { setup: setup as SuiteLifecycle['setup'] } : {}),
    ...(teardown ? { teardown: teardown as SuiteLifecycle['teardown'] } : {}),
    checks: checks.map((c) => {
      const uses = [...new Set([...shared, ...(c.uses ?? [])])];
      const alone = c.alone ?? sharedAlone;
      const { requirements: _ids, ...rest } = c;
      return {
        ...rest,
        ...resolveRequirements(c),
        suite: name,
        ...(uses.length > 0 ? { uses } : {}),
        ...(alone ? { alone } : {}),
      };
    }),
  };
}
