// The JUnit XML report for CI servers. It must validate against Jenkins xUnit's junit-10.xsd, the strictest schema
// CI servers read (test/fixtures/schemas/junit-10.xsd); the notes below are where junit-report-builder alone would not.
import { requirementLine } from './requirement-text.js';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import builderModule, { type Builder, type TestCase, type TestSuite } from 'junit-report-builder';
import { setupProblemOf, type CheckResult, type RunInfo, type RunResult } from '../engine/index.js';
import type { Reporter } from '../engine/index.js';
import {
  findingSections,
  formatExchange,
  renderLabelled,
  replayContextOf,
  visible,
  type ReplayContext,
} from './exchange-text.js';
import { bySuite } from './by-suite.js';
import { alsoSeenLine, seenByLine } from './also-seen.js';
import { checkReason } from './reason.js';
import { failOnText, outOfReachNote, unexercisedLine, verdictSummary } from './verdict-text.js';

// junit-report-builder is CommonJS: under NodeNext its default import is module.exports itself, the builder, while its
// types describe an ES default export; take whichever is there.
const builder = ((builderModule as unknown as { default?: Builder }).default ?? builderModule) as unknown as Builder;

/**
 * Whose exchanges the file carries (`--junit-exchanges`). `failing` (the default), the lean file: those of failing,
 * warning and erroring testcases, the ones a reader of a CI page opens; a passing run's exchanges were 87 % of a 1 MB
 * file that CI viewers load whole, and the JSON and HAR reports keep every one. `all`: the file as it was before, every
 * testcase's exchanges and requirements, the run-wide properties on every testsuite.
 */
export type JunitExchanges = 'failing' | 'all';

export interface JunitOptions {
  exchanges?: JunitExchanges;
}

export class JunitReporter implements Reporter {
  readonly name: string;

  constructor(
    private readonly filePath: string,
    private readonly options: JunitOptions = {},
  ) {
    this.name = `JUnit report ${filePath}`;
  }

  async onRunEnd(result: RunResult): Promise<void> {
    await mkdir(dirname(this.filePath), { recursive: true });
    await writeFile(this.filePath, buildJunitXml(result, this.options), 'utf8');
  }
}

/** The whole JUnit document: one testsuite per suite, one testcase per check. */
export function buildJunitXml(result: RunResult, options: JunitOptions = {}): string {
  const all = bySuite(result.checks);
  const lean = (options.exchanges ?? 'failing') === 'failing' ? { first: [...all.keys()][0] ?? '' } : undefined;
  const b = builder.newBuilder();
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let errors = 0;
  for (const [name, checks] of all) {
    const suite = b.testSuite();
    fillSuite(suite, name, checks, result, lean);
    tests += suite.getTestCaseCount();
    failures += suite.getFailureCount();
    errors += suite.getErrorCount();
    // The builder's own <testsuites> root always carries a `skipped` attribute, which junit-10.xsd does not allow;
    // so each suite is built by the library (escaping, CDATA, character checks) and only the root is written here.
    suites.push(suite.build().toString({ pretty: true, indent: '  ', offset: 1 }).trimEnd());
  }
  const root = `<testsuites name="${xmlAttribute(`conformance ${result.run.target}`)}" tests="${tests}" failures="${failures}" errors="${errors}" time="${seconds(result.run.durationMs)}">`;
  return ['<?xml version="1.0" encoding="UTF-8"?>', root, ...suites, '</testsuites>', ''].join('\n');
}

/** `all`: every check of the run, for the owners' `seen by` lines across suites. */
function fillSuite(
  suite: TestSuite,
  name: string,
  checks: CheckResult[],
  result: RunResult,
  lean: { first: string } | undefined,
): void {
  const { run, verdict, checks: all } = result;
  // When the suite started and how long it took on the clock: checks of several suites run at once, so the suite's
  // wall time, not its checks' times added up (reports of versions without start times fall back to the sum).
  const starts = checks.flatMap((c) => (c.startMs === undefined ? [] : [c.startMs]));
  const wall = run.suites?.find((t) => t.suite === name)?.wallMs;
  suite
    .name(name)
    .timestamp(new Date(Date.parse(run.startedAt) + (starts.length > 0 ? Math.min(...starts) : 0)))
    .time(seconds(wall ?? checks.reduce((sum, c) => sum + c.durationMs, 0)))
    .property('suite.version', xmlText(run.suiteVersion))
    .property('spec.version', xmlText(run.specVersion))
    .property('target', xmlText(run.target))
    .property('baseUrl', xmlText(run.baseUrl));
  // The lean file says what is run-wide and long once, on its first testsuite: repeated on each, the notes and the list
  // of MUST requirements not exercised were a tenth of it. The verdict's short lines stay on every testsuite.
  const wide = lean === undefined || lean.first === name;
  if (wide) for (const [i, note] of (run.notes ?? []).entries()) suite.property(`run.note.${i + 1}`, xmlText(note));
  // A set-up problem of the run (not the server's) on every testsuite too: it is why checks of some suite were skipped.
  for (const [i, p] of (run.setupProblems ?? []).entries()) {
    suite
      .property(`run.setupProblem.${i + 1}`, xmlText(`${p.suite}: ${p.problem}`))
      .property(`run.setupProblem.${i + 1}.fix`, xmlText(p.fix))
      .property(`run.setupProblem.${i + 1}.checks`, p.checks.join(', '));
  }
  // The run's verdict on every testsuite (the only element junit-10.xsd gives properties), so a CI dashboard that shows
  // one suite still shows that passing testcases are not the whole story when something was not exercised.
  suite
    .property('verdict', verdict.status)
    .property('verdict.summary', xmlText(verdictSummary(verdict)))
    .property('verdict.failed', verdict.failed.join(', '));
  if (wide)
    suite
      .property('verdict.unexercised', xmlText(verdict.notExercised.map(unexercisedLine).join(' | ')))
      .property('verdict.outOfReach', xmlText(outOfReachNote(verdict)));
  suite.property('failOn', failOnText(run));
  // Said only in the lean file, so `--junit-exchanges all` writes the file it always wrote.
  if (lean !== undefined)
    suite.property(
      'lean',
      wide
        ? 'exchanges and requirements of failing, warning and erroring testcases only (the JSON report has all; --junit-exchanges all puts them here); run notes and requirements not exercised on this testsuite only'
        : `run notes and requirements not exercised: on testsuite ${lean.first}`,
    );
  // junit-10.xsd allows <properties> only on <testsuite>, so each check's own properties are kept here, keyed by its id.
  // In the lean file only a check that failed, warned or erred keeps its requirements (quoted) beside its evidence: once
  // the exchanges were gone, the passing checks' quotes were 40 % of the file, and the JSON and HTML reports hold them.
  const full = (check: CheckResult) => lean === undefined || isFailing(check);
  for (const check of checks) {
    suite.property(`${check.id}.level`, check.level);
    if (full(check))
      suite.property(`${check.id}.requirements`, xmlText(check.requirements.map(requirementLine).join(' | ')));
  }
  const replay = replayContextOf(run);
  for (const check of checks) fillTestCase(suite.testCase(), check, replay, run, seenByLine(check, all), full(check));
}

function fillTestCase(
  testCase: TestCase,
  check: CheckResult,
  replay: ReplayContext,
  run: RunInfo,
  seenBy: string | undefined,
  withExchanges: boolean,
): void {
  testCase
    .name(xmlText(`${check.id} ${check.title}`))
    .className(`conformance.${check.suite}`)
    .time(seconds(check.durationMs));
  const out: string[] = [];
  const message = checkReason(check);
  const details = () =>
    renderLabelled(findingSections(check, { replay, ...(seenBy !== undefined ? { seenBy } : {}) })).join('\n');
  if (check.expected?.status === 'expected') {
    // A known deviation is a <skipped>, the way pytest reports an xfail: CI dashboards count it apart from passes and
    // failures, and it does not fail the build. The builder writes no skip message, so the reason goes to system-out.
    testCase.skipped();
    const until = check.expected.expires ? ` (until ${check.expected.expires})` : '';
    out.push(
      `expected failure, listed in --expected-failures (does not fail the run): ${check.expected.reason}${until}`,
      `${check.outcome}: ${message}`,
      details(),
    );
  } else
    switch (check.outcome) {
      case 'skip':
        // junit-report-builder 5 writes a bare <skipped/> (no message attribute), so the reason goes to system-out.
        testCase.skipped();
        out.push(`skipped: ${check.skipReason ?? 'no reason given'}`, ...setupFix(check, run));
        break;
      case 'error':
        testCase.error(message, 'error', cdata(details()));
        break;
      case 'fail':
      case 'warn':
        if (check.failsRun) {
          testCase.failure(message, check.level).stacktrace(cdata(details()));
        } else {
          // A warning the run's --fail-on policy lets through: the testcase passes, the warning stays on record.
          out.push(`warning (${check.level}, does not fail the run): ${message}`, details());
        }
        break;
      case 'pass':
        break;
    }
  if (check.observations.length > 0) out.push('observations:', ...check.observations.map((o) => `  · ${o}`));
  for (const seen of check.alsoSeen ?? []) out.push(alsoSeenLine(seen));
  if (withExchanges)
    check.exchanges.forEach((exchange, i) =>
      out.push(
        `exchange ${i + 1} of ${check.exchanges.length} (#${exchange.seq})`,
        formatExchange(exchange, undefined, replay),
      ),
    );
  if (out.length > 0) testCase.standardOutput(cdata(out.join('\n')));
}

/**
 * A testcase whose exchanges a reader needs: a failure, a warning (also one the --fail-on policy lets through), an
 * error; an expected failure too, since it is a known deviation whose evidence stays with it.
 */
function isFailing(check: CheckResult): boolean {
  return check.outcome === 'fail' || check.outcome === 'warn' || check.outcome === 'error';
}

/** For a check a set-up problem stopped: the fix the run states for it, under its skip reason. */
function setupFix(check: CheckResult, run: RunInfo): string[] {
  const remedy = check.skipRemedy;
  if (remedy?.kind !== 'setup') return [];
  const found = setupProblemOf(check.id, remedy.suite, run.setupProblems ?? []);
  return found ? [`a set-up problem of the run (${found.suite}), not a failure of the server; fix: ${found.fix}`] : [];
}

/** Seconds with millisecond precision, never in exponent form (junit-10.xsd's SUREFIRE_TIME pattern). */
function seconds(ms: number): number {
  return Math.round(Math.max(0, ms)) / 1000;
}

/** Text with every character XML 1.0 forbids shown as an escape instead, so the file stays well-formed. */
function xmlText(text: string): string {
  return visible(text);
}

/**
 * Text for a CDATA section. junit-report-builder 5 splits only the first `]]>` (String.replace with a string), so the
 * later ones are split here; a fixed library would split them again, which the JUnit test would catch.
 */
function cdata(text: string): string {
  const safe = xmlText(text);
  const first = safe.indexOf(']]>');
  if (first < 0) return safe;
  const head = safe.slice(0, first + 3);
  return head + safe.slice(first + 3).replaceAll(']]>', ']]]]><![CDATA[>');
}

function xmlAttribute(text: string): string {
  return xmlText(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;');
}
