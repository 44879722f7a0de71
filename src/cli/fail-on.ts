// `--fail-on`: which outcomes fail the run. Apart from main.ts so that the run command can name the policy's type
// without importing the program that loads it.
import { UserError } from '../errors.js';

/** What `--fail-on` asks for: the check level whose failures fail the run, and whether an INCOMPLETE verdict does too. */
export interface FailOnPolicy {
  failOn: 'must' | 'should';
  failOnIncomplete: boolean;
}

const FAIL_ON_TERMS = ['must', 'should', 'incomplete'] as const;

/** "should,incomplete" → SHOULD warnings and an INCOMPLETE verdict fail the run; MUST failures always do. */
export function parseFailOn(value: string): FailOnPolicy {
  const terms = value.split(',').map((t) => t.trim().toLowerCase());
  const unknown = terms.find((t) => !(FAIL_ON_TERMS as readonly string[]).includes(t));
  if (unknown !== undefined) {
    const what =
      unknown === '' ? `"${value}" has an empty item` : `"${unknown}" is not one of must, should, incomplete`;
    throw new UserError(`--fail-on: ${what}; give a comma list of them, e.g. --fail-on should,incomplete`, 2);
  }
  return { failOn: terms.includes('should') ? 'should' : 'must', failOnIncomplete: terms.includes('incomplete') };
}
