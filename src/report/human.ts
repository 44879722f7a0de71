// The terminal report. Results are printed from the RunResult at the end, in its stable order, so the output does not
// depend on the order checks happened to finish in; only the progress line is live.
import { Chalk, type ChalkInstance } from 'chalk';
import {
  suiteTimesOf,
  type CheckInfo,
  type CheckResult,
  type Outcome,
  type RunResult,
  type Totals,
  type Verdict,
  type VerdictStatus,
} from '../engine/index.js';
import type { Reporter } from '../engine/index.js';
import {
  concurrencyNote,
  findingSections,
  formatDuration,
  renderLabelled,
  replayContextOf,
  textLines,
  visibleLine,
  type ReplayContext,
} from './exchange-text.js';
import { sectionsOf } from './requirement-text.js';
import { bySuite } from './by-suite.js';
import { outOfReachNote, unexercisedLine, verdictSummary } from './verdict-text.js';

/** Where the report goes: process.stdout, or anything with write() (tests pass a string sink). */
export interface HumanOutput {
  write(chunk: string): unknown;
  /** Terminal width, read each time the progress line is drawn so a resize is honoured. */
  columns?: number;
}

export interface HumanReporterOptions {
  out: HumanOutput;
  color: boolean;
  /** A live `[n/total] check-id` line, rewritten in place: only for a terminal. */
  progress: boolean;
  /** Observations of every check, and every exchange of a failing check instead of the last one. */
  verbose?: boolean;
}

const SYMBOL: Record<Outcome, string> = { pass: '✓', fail: '✗', warn: '!', skip: '-', error: 'E' };
// Carriage return, then erase the whole line: the progress line is redrawn in place and leaves nothing behind.
const CLEAR_LINE = '\r\u001b[2K';
const INDENT = '    ';

export class HumanReporter implements Reporter {
  readonly name = 'terminal report';
  private readonly c: ChalkInstance;
  private total: number | undefined;
  private started = 0;
  private progressShown = false;
  private headerShown = false;

  constructor(private readonly options: HumanReporterOptions) {
    // A Chalk of our own, so colour follows this reporter's options and not chalk's global detection.
    this.c = new Chalk({ level: options.color ? 1 : 0 });
  }

  onRunStart(info: { target: string; baseUrl: string; checks: CheckInfo[] }): void {
    this.total = info.checks.length;
    this.options.out.write(this.header(info.target, info.baseUrl, info.checks.length));
    this.headerShown = true;
  }

  onCheckStart(check: CheckInfo): void {
    this.started += 1;
    if (!this.options.progress) return;
    const count = this.total === undefined ? `[${this.started}]` : `[${this.started}/${this.total}]`;
    // A line longer than the terminal wraps, and \r would then only redraw its last row.
    // A pseudo-terminal may report 0 columns: fall back to 80 rather than cutting the line to nothing.
    const columns = this.options.out.columns || 80;
    const width = Math.max(columns - 1, 10);
    const text = `${count} ${visibleLine(check.id)}`.slice(0, width);
    this.options.out.write(`${CLEAR_LINE}${this.c.dim(text)}`);
    this.progressShown = true;
  }

  onRunEnd(result: RunResult): void {
    let text = '';
    if (this.progressShown) {
      text += CLEAR_LINE;
      this.progressShown = false;
    }
    if (!this.headerShown) text += this.header(result.run.target, result.run.baseUrl, result.checks.length);
    text += renderResults(result, this.c, this.options.verbose ?? false).join('\n') + '\n';
    this.options.out.write(text);
  }

  private header(target: string, baseUrl: string, count: number): string {
    const what = `${count} check${count === 1 ? '' : 's'}`;
    return `${this.c.bold('conformance')} ${what} against ${this.c.bold(visibleLine(target))} (${visibleLine(baseUrl)})\n\n`;
  }
}

/** Colour on only for a terminal, and never when NO_COLOR is set to anything but "" (https://no-color.org). */
export function shouldUseColor(stream: { isTTY?: boolean }, env: Record<string, string | undefined>): boolean {
  return stream.isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === '');
}

export function humanReporterForStdout(
  options: {
    verbose?: boolean;
    stream?: HumanOutput & { isTTY?: boolean };
    env?: Record<string, string | undefined>;
  } = {},
): HumanReporter {
  const stream = options.stream ?? process.stdout;
  return new HumanReporter({
    out: stream,
    color: shouldUseColor(stream, options.env ?? process.env),
    progress: stream.isTTY === true,
    verbose: options.verbose ?? false,
  });
}

/** The report lines (without the header), in the RunResult's order. */
export function renderResults(result: RunResult, c: ChalkInstance, verbose: boolean): string[] {
  const replay = replayContextOf(result.run);
  const idWidth = Math.max(0, ...result.checks.map((r) => r.id.length));
  const lines: string[] = [];
  // Known deviations are shown apart, after the suites, so the suites show only what counts for the verdict.
  const expected = result.checks.filter((r) => r.expected?.status === 'expected');
  for (const [suite, checks] of bySuite(result.checks.filter((r) => !expected.includes(r)))) {
    lines.push(c.bold(suite));
    for (const check of checks) lines.push(...renderCheck(check, c, idWidth, verbose, replay));
    // A failure's details already end with a blank line.
    if (lines.at(-1) !== '') lines.push('');
  }
  if (expected.length > 0) {
    lines.push(c.bold('expected failures') + c.dim(' (listed in --expected-failures; they do not fail the run)'));
    for (const check of expected) lines.push(...renderExpected(check, c, idWidth));
    lines.push('');
  }
  // Clean-up that failed leaves state on the target: say so loudly, with what to do by hand.
  for (const problem of result.run.cleanup ?? []) lines.push(c.red.bold(`CLEAN-UP FAILED: ${visibleLine(problem)}`));
  // What the run met that no check owns (the server's choices, throttling, token renewals): on record, never a failure.
  for (const note of result.run.notes ?? []) lines.push(c.dim(`· ${visibleLine(note)}`));
  const listed =
    expected.length > 0 ? c.dim(`; ${expected.length} of them expected (listed), not failing the run`) : '';
  lines.push(summaryLine(result.totals, c) + listed);
  lines.push(...verdictLines(result.verdict, c));
  lines.push(...timeLines(result, c));
  return lines;
}

function renderExpected(check: CheckResult, c: ChalkInstance, idWidth: number): string[] {
  const lines = [
    `  ${c.yellow(SYMBOL[check.outcome])} ${check.id.padEnd(idWidth)}  ${c.dim(check.level.padEnd(6))}  ${visibleLine(sectionsOf(check))} — ${visibleLine(check.title)}`,
  ];
  const expires = check.expected?.expires ? `   (until ${check.expected.expires})` : '';
  const sections = [
    { label: 'reason', lines: textLines(`${check.expected?.reason ?? ''}${expires}`) },
    { label: 'observed', lines: textLines(check.finding?.message ?? check.outcome) },
  ];
  lines.push(...renderLabelled(sections, { indent: INDENT, styleLabel: c.cyan }));
  return lines;
}

function renderCheck(
  check: CheckResult,
  c: ChalkInstance,
  idWidth: number,
  verbose: boolean,
  replay: ReplayContext,
): string[] {
  const symbol = colourFor(check, c)(SYMBOL[check.outcome]);
  const title = `${visibleLine(sectionsOf(check))} — ${visibleLine(check.title)}`;
  const skip =
    check.outcome === 'skip' ? c.gray(`  (skipped: ${visibleLine(check.skipReason ?? 'no reason given')})`) : '';
  const lines = [`  ${symbol} ${check.id.padEnd(idWidth)}  ${c.dim(check.level.padEnd(6))}  ${title}${skip}`];
  // Observations are what a check put on record (the crawl it made, the choice a server took): always shown.
  for (const observation of check.observations)
    lines.push(...textLines(observation).map((l, i) => `${INDENT}${i === 0 ? '· ' : '  '}${l}`));
  if (check.outcome === 'fail' || check.outcome === 'warn' || check.outcome === 'error') {
    lines.push(
      ...renderLabelled(findingSections(check, { allExchanges: verbose, replay }), {
        indent: INDENT,
        styleLabel: c.cyan,
      }),
      '',
    );
  }
  return lines;
}

function colourFor(check: CheckResult, c: ChalkInstance): (text: string) => string {
  switch (check.outcome) {
    case 'pass':
      return c.green;
    case 'fail':
      return c.red;
    case 'warn':
      return check.failsRun ? c.red : c.yellow;
    case 'skip':
      return c.gray;
    case 'error':
      return c.magenta;
  }
}

/**
 * The verdict after the totals, so a skipped MUST check never reads as a pass: the verdict line, then each MUST
 * requirement the run did not exercise with why and what to do, then what no black-box test can reach.
 */
function verdictLines(verdict: Verdict, c: ChalkInstance): string[] {
  const colour: Record<VerdictStatus, (text: string) => string> = {
    CONFORMANT: c.green.bold,
    'NOT CONFORMANT': c.red.bold,
    INCOMPLETE: c.yellow.bold,
  };
  return [
    colour[verdict.status](visibleLine(verdictSummary(verdict))),
    ...verdict.notExercised.map((r) => `${INDENT}${visibleLine(unexercisedLine(r))}`),
    c.dim(outOfReachNote(verdict)),
  ];
}

/**
 * The report's last lines: time per suite. Wall time runs from a suite's first check's start to its last check's end;
 * with checks running concurrently suites overlap, so walls need not add up to the run's and check time exceeds them.
 */
function timeLines(result: RunResult, c: ChalkInstance): string[] {
  const suites = suiteTimesOf(result);
  const rows = suites.map((t) => [t.suite, String(t.checks), formatDuration(t.wallMs), formatDuration(t.checkMs)]);
  const total = [
    'run',
    String(result.checks.length),
    formatDuration(result.run.durationMs),
    formatDuration(suites.reduce((sum, t) => sum + t.checkMs, 0)),
  ];
  const table = [['suite', 'checks', 'wall', 'check time'], ...rows, total];
  const widths = table[0]!.map((_, col) => Math.max(...table.map((row) => row[col]!.length)));
  const line = (row: string[]) =>
    `  ${row[0]!.padEnd(widths[0]!)}  ${row
      .slice(1)
      .map((cell, i) => cell.padStart(widths[i + 1]!))
      .join('  ')}`;
  return [
    c.dim(`time ${formatDuration(result.run.durationMs)}${concurrencyNote(result.run.concurrency)}`),
    ...table.map((row) => c.dim(line(row))),
  ];
}

/** `N passed, N failed, N warned, N skipped`, plus `, N errored` only when something errored. */
function summaryLine(totals: Totals, c: ChalkInstance): string {
  const part = (n: number, word: string, colour: (s: string) => string) =>
    n > 0 ? colour(`${n} ${word}`) : `${n} ${word}`;
  const parts = [
    part(totals.passed, 'passed', c.green),
    part(totals.failed, 'failed', c.red),
    part(totals.warned, 'warned', c.yellow),
    part(totals.skipped, 'skipped', c.gray),
  ];
  if (totals.errored > 0) parts.push(part(totals.errored, 'errored', c.magenta));
  return parts.join(', ');
}
