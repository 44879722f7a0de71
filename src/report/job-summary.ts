// The GitHub Action's job summary ($GITHUB_STEP_SUMMARY): the verdict, the totals and every check that did not pass,
// with its one-line reason, in Markdown. Read from the run's JSON report, since the action's step runs after the run;
// a run that ended before writing one (exit 2 or 3) gets one line saying so and where to look.
import type { CheckResult, RunInfo, Totals, Verdict } from '../engine/index.js';
import { formatDuration } from './exchange-text.js';
import { readJsonReport } from './json.js';
import { checkReason } from './reason.js';
import { unexercisedLine, verdictSummary } from './verdict-text.js';
import { visibleLine } from './visible.js';

const TITLE = 'Investment API conformance';
const ICON: Record<Verdict['status'], string> = {
  CONFORMANT: '✅',
  'NOT CONFORMANT': '❌',
  INCOMPLETE: '⚠️',
  INTERRUPTED: '⏹️',
};
/** Requirements not exercised listed one by one; a run narrowed by --suite has a hundred or more. */
const NOT_EXERCISED_SHOWN = 20;
/** What each exit code of a run that wrote no report means (the README's table of exit codes). */
const NO_REPORT_BECAUSE: Record<number, string> = {
  2: 'a usage or configuration error',
  3: 'the target is unreachable, or no token could be obtained',
  4: 'an internal error of conformance',
  130: 'interrupted (SIGINT): the job was cancelled',
  143: 'interrupted (SIGTERM): the job was cancelled',
};

/** The report's members the summary reads, present from format version 2 on. */
interface SummarisedReport {
  run: Pick<
    RunInfo,
    'target' | 'baseUrl' | 'suiteVersion' | 'specVersion' | 'durationMs' | 'failOn' | 'setupProblems' | 'interrupted'
  >;
  totals: Totals;
  verdict: Verdict;
  checks: Array<Pick<CheckResult, 'id' | 'level' | 'outcome' | 'finding' | 'failsRun' | 'expected'>>;
}

/**
 * The summary of the report in TEXT (undefined: the run wrote none), for a run that exited with EXITCODE. Never
 * throws: a report it cannot read is said in one line too, so the summary step never hides the run's own outcome.
 */
export function jobSummary(text: string | undefined, exitCode: number | undefined, reportPath: string): string {
  const exited = exitCode === undefined ? '' : ` (exit code ${exitCode}${because(exitCode)})`;
  if (text === undefined)
    return `**${TITLE}:** no report, the run ended before writing ${code(reportPath)}${exited}; the step's log says why.\n`;
  const report = readJsonReport(text) as (ReturnType<typeof readJsonReport> & Partial<SummarisedReport>) | undefined;
  if (!report?.verdict || !report.totals || !report.run)
    return `**${TITLE}:** no summary, ${code(reportPath)} is not a JSON report of this conformance version${exited}; the step's log says how the run ended.\n`;
  return summaryOf(report as SummarisedReport, exitCode);
}

function summaryOf(report: SummarisedReport, exitCode: number | undefined): string {
  const { run, totals, verdict, checks } = report;
  const listed = (c: SummarisedReport['checks'][number]) => c.expected?.status === 'expected';
  const out = [
    `### ${ICON[verdict.status]} ${TITLE}: ${verdict.status}`,
    '',
    `**Verdict:** ${text(verdictSummary(verdict))}`,
    '',
    [
      `target ${code(run.target)} (${text(run.baseUrl)})`,
      `conformance ${text(run.suiteVersion)}, spec ${text(run.specVersion)}`,
      formatDuration(run.durationMs),
      ...(exitCode === undefined ? [] : [`exit code ${exitCode}`]),
    ].join(' · '),
    '',
    '| passed | failed | warned | skipped | errored | total |',
    '|---:|---:|---:|---:|---:|---:|',
    `| ${totals.passed} | ${totals.failed} | ${totals.warned} | ${totals.skipped} | ${totals.errored} | ${totals.total} |`,
  ];
  // An interrupted run (a cancelled job): what it put back, and what must be put back by hand.
  if (run.interrupted) {
    const by = run.interrupted.signal !== undefined ? ` by ${text(run.interrupted.signal)}` : '';
    out.push(
      '',
      `**Interrupted${by}:** put back ${run.interrupted.putBack.length > 0 ? text(run.interrupted.putBack.join('; ')) : 'nothing (nothing was changed)'}`,
      ...run.interrupted.notPutBack.map((n) => `- **Not put back:** ${text(n)}`),
    );
  }
  for (const p of run.setupProblems ?? [])
    out.push(
      '',
      `**Set-up problem (${text(p.suite)}):** ${text(p.problem)}; fix: ${text(p.fix)} (kept ${p.checks.length} check${p.checks.length === 1 ? '' : 's'} from running)`,
    );
  const warnedFail = run.failOn === 'should' ? ' (they fail the run: --fail-on should)' : '';
  out.push(
    ...checkTable(
      'Failed',
      checks.filter((c) => c.outcome === 'fail' && !listed(c)),
    ),
    ...checkTable(
      'Warned',
      checks.filter((c) => c.outcome === 'warn' && !listed(c)),
      warnedFail,
    ),
    ...checkTable(
      'Errored',
      checks.filter((c) => c.outcome === 'error'),
    ),
    ...checkTable(
      'Expected failures',
      checks.filter(listed),
      ' (listed in --expected-failures: they do not fail the run)',
      (c) => c.expected!.reason,
    ),
  );
  if (verdict.notExercised.length > 0)
    out.push(
      '',
      `<details><summary>MUST requirements not exercised: ${verdict.notExercised.length}</summary>`,
      '',
      ...verdict.notExercised.slice(0, NOT_EXERCISED_SHOWN).map((r) => `- ${text(unexercisedLine(r))}`),
      ...(verdict.notExercised.length > NOT_EXERCISED_SHOWN
        ? [`- and ${verdict.notExercised.length - NOT_EXERCISED_SHOWN} more: the JSON report lists each`]
        : []),
      '',
      '</details>',
    );
  return `${out.join('\n')}\n`;
}

function checkTable(
  title: string,
  checks: SummarisedReport['checks'],
  note = '',
  reason: (c: SummarisedReport['checks'][number]) => string = checkReason,
): string[] {
  if (checks.length === 0) return [];
  return [
    '',
    `#### ${title} (${checks.length})${note}`,
    '',
    '| check | level | reason |',
    '|---|---|---|',
    ...checks.map((c) => `| ${code(c.id)} | ${c.level} | ${text(visibleLine(reason(c).replace(/\s+/g, ' ')))} |`),
  ];
}

function because(exitCode: number): string {
  const why = NO_REPORT_BECAUSE[exitCode];
  return why === undefined ? '' : `: ${why}`;
}

/**
 * Text as inert Markdown: every character that could start markup (a link or image a server's words could smuggle in,
 * emphasis, HTML, a table cell's `|`) is backslash-escaped, so it reads as written and stays in its table cell.
 */
function text(s: string): string {
  return s.replace(/[\\`*_[\]<>|~&#!]/g, (ch) => `\\${ch}`);
}

/** An id or path in code style; backticks inside cannot end it early. */
function code(s: string): string {
  return `\`${s.replace(/`/g, "'").replace(/\|/g, '\\|')}\``;
}
