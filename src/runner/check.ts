import type { CheckInfo, Level, SpecRef, SuiteName } from './types.js';
import type { CheckContext } from './context.js';

/**
 * What `conformance explain` says about a check, for a reader who has not seen its code. Optional: without it,
 * explain derives the three lines from the title, the level and the kind of check (see src/cli/explain.ts).
 */
export interface CheckExplanation {
  /** The request(s) the check sends, in a sentence. */
  sends: string;
  /** What the server must answer for the check to pass. */
  passes: string;
  /** What makes it fail (or warn, for a SHOULD). */
  fails: string;
}

export interface CheckDefinition extends CheckInfo {
  /** Per-check time limit in ms; the runner's default applies when absent. */
  timeoutMs?: number;
  explain?: CheckExplanation;
  run(ctx: CheckContext): Promise<void>;
}

export interface SuiteDefinition {
  name: SuiteName;
  title: string;
  checks: CheckDefinition[];
}

/** Declares a check; the id must start with its suite name (`<suite>.<area>.<what>`). */
export function defineCheck(def: {
  id: string;
  title: string;
  level: Level;
  spec: SpecRef;
  timeoutMs?: number;
  explain?: CheckExplanation;
  run(ctx: CheckContext): Promise<void>;
}): Omit<CheckDefinition, 'suite'> {
  return def;
}

export function defineSuite(name: SuiteName, title: string, checks: Array<Omit<CheckDefinition, 'suite'>>): SuiteDefinition {
  for (const c of checks) {
    if (!c.id.startsWith(`${name}.`)) throw new Error(`check id ${c.id} does not start with its suite name "${name}."`);
  }
  return { name, title, checks: checks.map((c) => ({ ...c, suite: name })) };
}
