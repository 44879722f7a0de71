// A server team's list of known deviations (`--expected-failures FILE`). A listed check that fails is shown apart and
// does not fail the run; a listed check that passes fails it ("remove it from the list"), so the list can only shrink
// as the server is fixed; an entry past its expiry date counts no more. Same idea as pytest's strict xfail.
import type { ErrorObject } from 'ajv/dist/2020.js';
import { schemaValidator } from '../schemas.js';
import { ConfigError } from '../errors.js';
import { readOptionFile } from '../option-file.js';
import { closestIds } from '../suggest.js';
import { locateJsonError } from '../config/json-error.js';
import type { CheckResult, ExpectedFailureMark } from './types.js';

export interface ExpectedFailure {
  id: string;
  reason: string;
  /** Last day (UTC, YYYY-MM-DD) on which the entry counts. */
  expires?: string;
}

const EXPECTED_FAILURES_SCHEMA = 'expected-failures.schema.json';

function validate(doc: unknown): ErrorObject[] {
  const validator = schemaValidator('expected-failures');
  return validator(doc) ? [] : (validator.errors ?? []);
}

/** Reads and checks FILE; ids no check has are a ConfigError (exit 2) naming them. */
export async function loadExpectedFailures(
  file: string,
  knownIds: readonly string[],
  cwd: string = process.cwd(),
): Promise<ExpectedFailure[]> {
  const { resolved, text } = await readOptionFile('--expected-failures', file, cwd, 'check the path');
  return parseExpectedFailures(text, resolved, knownIds);
}

export function parseExpectedFailures(text: string, file: string, knownIds: readonly string[]): ExpectedFailure[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    const found = locateJsonError(body);
    const where = found ? `:${body.slice(0, found.offset).split('\n').length}` : '';
    throw new ConfigError(
      `--expected-failures: ${file}${where} is not valid JSON${found ? `: ${found.reason}` : ''} (the file is JSON only: {"expectedFailures": [{"id": "…", "reason": "…"}]})`,
      'CONFORMANCE_ERR_EXPECTED_FAILURES',
    );
  }
  const errors = validate(doc);
  if (errors.length > 0)
    throw new ConfigError(
      `--expected-failures: ${file}: ${describeSchemaError(errors)}`,
      'CONFORMANCE_ERR_EXPECTED_FAILURES',
    );
  const entries = (doc as { expectedFailures: ExpectedFailure[] }).expectedFailures.map((e) => ({
    id: e.id,
    reason: e.reason,
    ...(e.expires !== undefined ? { expires: e.expires } : {}),
  }));
  entries.forEach((e, i) => {
    if (e.expires !== undefined && !isCalendarDate(e.expires)) {
      throw new ConfigError(
        `--expected-failures: ${file}: expectedFailures[${i}].expires is "${e.expires}", which is not a date: write YYYY-MM-DD, e.g. "2026-12-31"`,
        'CONFORMANCE_ERR_EXPECTED_FAILURES',
      );
    }
    const first = entries.findIndex((other) => other.id === e.id);
    if (first !== i)
      throw new ConfigError(
        `--expected-failures: ${file}: "${e.id}" is listed twice (entries ${first} and ${i}): keep one`,
        'CONFORMANCE_ERR_EXPECTED_FAILURES',
      );
  });
  checkKnownIds(entries, knownIds, file);
  return entries;
}

/** An id no check has is a typo or a check that was renamed: either way the entry would silently do nothing. */
export function checkKnownIds(
  entries: readonly ExpectedFailure[],
  knownIds: readonly string[],
  file = 'the expected failures',
): void {
  const known = new Set(knownIds);
  const unknown = entries.filter((e) => !known.has(e.id)).map((e) => e.id);
  if (unknown.length === 0) return;
  const hints = unknown.map((id) => {
    const near = closestIds(id, knownIds, 3);
    return near.length > 0 ? `"${id}" (did you mean ${near.join(', ')}?)` : `"${id}"`;
  });
  throw new ConfigError(
    `--expected-failures: ${file} names ${unknown.length === 1 ? 'a check that does not exist' : 'checks that do not exist'}: ${hints.join('; ')}; 'conformance list' prints every id`,
    'CONFORMANCE_ERR_EXPECTED_FAILURES',
  );
}

/** Today's date in UTC as YYYY-MM-DD: expiry dates are compared as days, the same for every runner's time zone. */
export function utcDay(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * A result as the list makes it count. Skips are left alone: a check that did not run says nothing about the
 * deviation either way.
 */
export function applyExpectedFailure(
  result: CheckResult,
  entry: ExpectedFailure | undefined,
  today: string,
): CheckResult {
  if (!entry || result.outcome === 'skip') return result;
  const base = { reason: entry.reason, ...(entry.expires !== undefined ? { expires: entry.expires } : {}) };
  if (result.outcome === 'pass') {
    const mark: ExpectedFailureMark = { ...base, status: 'stale' };
    return {
      ...result,
      outcome: 'fail',
      failsRun: true,
      expected: mark,
      finding: {
        message: 'listed as an expected failure, but it passed: the server is fixed, remove it from the list',
        expected: `a failure, as the expected-failures entry says ("${entry.reason}")`,
        observed: 'the check passed',
      },
    };
  }
  if (entry.expires !== undefined && today > entry.expires) {
    // Counts as if unlisted; the mark says why it fails again.
    const mark: ExpectedFailureMark = { ...base, status: 'expired' };
    return {
      ...result,
      expected: mark,
      ...(result.finding
        ? {
            finding: {
              ...result.finding,
              message: `${result.finding.message} (its expected-failures entry expired after ${entry.expires})`,
            },
          }
        : {}),
    };
  }
  return { ...result, expected: { ...base, status: 'expected' }, failsRun: false };
}

function isCalendarDate(text: string): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

function describeSchemaError(errors: ErrorObject[]): string {
  const e = errors.find((x) => x.keyword === 'required' || x.keyword === 'additionalProperties') ?? errors[0]!;
  const where =
    e.instancePath === ''
      ? 'the top level'
      : e.instancePath
          .slice(1)
          .split('/')
          .map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : `${i === 0 ? '' : '.'}${p}`))
          .join('');
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `${where} has no "${String(params.missingProperty)}": each entry needs "id" (a check id) and "reason"; the file is {"expectedFailures": [...]}`;
    case 'additionalProperties':
      return `${where} has an unknown member "${String(params.additionalProperty)}": entries take id, reason and expires`;
    case 'pattern':
      return /expires$/.test(where)
        ? `${where} is not a date: write YYYY-MM-DD, e.g. "2026-12-31"`
        : `${where} is not a check id (<suite>.<area>.<what>, as 'conformance list' prints)`;
    case 'minLength':
      return `${where} is empty: say why the check is expected to fail`;
    default:
      return `${where} ${e.message ?? 'does not match the schema'} (see schemas/${EXPECTED_FAILURES_SCHEMA})`;
  }
}
