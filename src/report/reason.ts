// Why a check did not pass, in one line: the JUnit failure message and the GitHub job summary's reason column.
import type { CheckResult } from '../engine/index.js';
import { visibleLine } from './visible.js';

export function checkReason(check: Pick<CheckResult, 'finding' | 'outcome'>): string {
  const text =
    check.finding?.message ?? (check.outcome === 'error' ? 'the check could not complete' : 'the check did not pass');
  return visibleLine(text.replace(/\s*[\r\n]+\s*/g, ' ').trim());
}
