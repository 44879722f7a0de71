// The terminal report. Results are written as the engine hands them over (onCheckEnd: in declaration order, settled),
// so the output reads the same whatever order checks finished in and whether it streamed or not. On a terminal a live
// progress line sits below them and long lines wrap to its width; anywhere else the text is plain, one record a line,
// the same on every machine. Three styles, as test runners have: `default` one line per check and each failure in
// full, `verbose` every observation and note too (grouped by suite), `dot` a character per check and the failures.
import { Chalk, type ChalkInstance } from 'chalk';
import {
  suiteTimesOf,
  type CheckInfo,
  type CheckResult,
  type Outcome,
  type Reporter,
  type RunResult,
  type RunStartInfo,
  type SetupProblem,
  type Totals,
  type Verdict,
  type VerdictStatus,
} from '../engine/index.js';
import {
  LABEL_WIDTH,
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
import { alsoSeenLine, checksThatSaw } from './also-seen.js';
import { checkReason } from './reason.js';
import { outOfReachNote, unexercisedLine, verdictSummary } from './verdict-text.js';
import { unexercisedCauseLines } from './unexercised-causes.js';
import { foldRepeats } from './fold.js';
import type { HumanStyle } from './human-style.js';
import { displayWidth, fitText, wrapCommand, wrapText } from './wrap.js';

/** Where the report goes: process.stdout, or anything with write() (tests pass a string sink). */
export interface HumanOutput {
  write(chunk: string): unknown;
  /** Terminal width, read at each write so a resize is honoured. */
  columns?: number;
}

export interface HumanReporterOptions {
  out: HumanOutput;
  color: boolean;
  /** A live progress line at the bottom, rewritten in place: only for a terminal. */
  progress: boolean;
  /** Long lines wrapped to the terminal's width (out.columns, 80 when it does not say): only for a terminal. */
  wrap?: boolean;
  /** How much it says (--reporter); `default` when not given. */
  style?: HumanStyle;
  /** Every exchange of a failing check instead of the last one. */
  allExchanges?: boolean;
  /**
   * Skips counted in one line rather than listed one by one (but in the verbose style, which lists every check); several:
   * a line each, in their order, for the skips of each reason.
   */
  foldedSkips?: FoldedSkips | readonly FoldedSkips[];
}

/**
 * Skipped checks that share one reason, shown as one line: `conformance judge` and `proxy` fold the checks traffic
 * cannot exercise (a hundred and more) into `- N checks not exercised…`, so the checks that judged something stand out.
 */
export interface FoldedSkips {
  /** The skip reason, exactly, of the checks folded. */
  reason: string;
  /** The line that counts them (after the mark): e.g. `160 checks not exercised: …; -v lists them`. */
  line(count: number): string;
}

const SYMBOL: Record<Outcome, string> = { pass: '✓', fail: '✗', warn: '!', skip: '-', error: 'E' };
/** The dot style's characters: a pass is the quietest, as in vitest's and Playwright's dot reporters. */
const DOT: Record<Outcome, string> = { ...SYMBOL, pass: '·' };
// Carriage return, then erase the whole line: the progress line is redrawn in place and leaves nothing behind.
const CLEAR_LINE = '\r\u001b[2K';
const INDENT = '    ';
/** A terminal that says it has no width (a pseudo-terminal may say 0) is taken as 80 columns wide. */
const DEFAULT_COLUMNS = 80;
/** Below this many columns for a check's title, the id column is not padded: the title follows the level directly. */
const MIN_TITLE = 40;
/** The same for the one-line reason of an entry in the list of failures at the end. */
const MIN_REASON = 30;
/** `  ✓ ` before an id, then two spaces, the level padded to 6, two spaces. */
const MARK_WIDTH = 4;
const LEVEL_COLUMN = 10;

/** A line of the report and the column its wrapped rows continue at; `command` for a line to paste into a shell. */
interface Line {
  text: string;
  hang: number;
  command?: boolean;
}

function line(text: string, hang = 2, command = false): Line {
  return command ? { text, hang, command } : { text, hang };
}

const BLANK: Line = { text: '', hang: 0 };

/** What the lines of a run are drawn with. */
interface Look {
  c: ChalkInstance;
  style: HumanStyle;
  allExchanges: boolean;
  replay: ReplayContext;
  /** The longest id of the run: the id column's width. */
  idWidth: number;
  /** Skips counted in one line per reason (not in the verbose style). */
  foldedSkips?: readonly FoldedSkips[];
  /** The terminal's width now; undefined when not wrapping. */
  width(): number | undefined;
}

export class HumanReporter implements Reporter {
  readonly name = 'terminal report';
  private readonly c: ChalkInstance;
  private readonly style: HumanStyle;
  private listing: Listing | undefined;
  private total: number | undefined;
  /** Started and still running, in the order they started. */
  private readonly running = new Set<string>();
  /** Stopped running, their results not handed over yet (they wait for the checks declared before them). */
  private readonly unlisted = new Set<string>();
  private readonly tally: Totals = { passed: 0, failed: 0, warned: 0, skipped: 0, errored: 0, total: 0 };
  /** Dots written on the current row (dot style). */
  private dots = 0;

  constructor(private readonly options: HumanReporterOptions) {
    // A Chalk of our own, so colour follows this reporter's options and not chalk's global detection.
    this.c = new Chalk({ level: options.color ? 1 : 0 });
    this.style = options.style ?? 'default';
  }

  onRunStart(info: RunStartInfo): void {
    this.total = info.checks.length;
    this.listing = new Listing(this.look(replayContextOf(info), info.checks));
    this.write(headerLines(info.target, info.baseUrl, info.checks.length, this.c));
  }

  onCheckStart(check: CheckInfo): void {
    this.running.add(check.id);
    this.write([]);
  }

  onCheckFinished(check: CheckInfo): void {
    this.running.delete(check.id);
    this.unlisted.add(check.id);
    this.write([]);
  }

  onCheckEnd(result: CheckResult): void {
    this.running.delete(result.id);
    this.unlisted.delete(result.id);
    this.count(result);
    // Without onRunStart there is no replay context yet: the result waits for onRunEnd.
    const lines = this.listing?.add(result) ?? [];
    if (this.style === 'dot' && this.listing && this.listing.folds(result) === undefined) this.dot(result);
    else this.write(lines);
  }

  onRunEnd(result: RunResult): void {
    const lines: Line[] = [];
    if (this.dots > 0) this.options.out.write('\n');
    if (!this.listing) {
      this.listing = new Listing(this.look(replayContextOf(result.run), result.checks));
      lines.push(...headerLines(result.run.target, result.run.baseUrl, result.checks.length, this.c));
    }
    lines.push(...this.listing.end(result));
    this.write(lines, { last: true });
  }

  private look(replay: ReplayContext, checks: readonly CheckInfo[]): Look {
    return {
      c: this.c,
      style: this.style,
      allExchanges: this.options.allExchanges ?? false,
      replay,
      idWidth: Math.max(0, ...checks.map((check) => check.id.length)),
      width: () => this.width(),
      ...(this.options.foldedSkips !== undefined && this.style !== 'verbose'
        ? { foldedSkips: [this.options.foldedSkips].flat() }
        : {}),
    };
  }

  private width(): number | undefined {
    return this.options.wrap ? this.columns() : undefined;
  }

  private columns(): number {
    return this.options.out.columns || DEFAULT_COLUMNS;
  }

  private count(result: CheckResult): void {
    const key = { pass: 'passed', fail: 'failed', warn: 'warned', skip: 'skipped', error: 'errored' } as const;
    this.tally[key[result.outcome]] += 1;
    this.tally.total += 1;
  }

  /** A check's character, in rows as wide as the terminal (80 columns when not one): the dots are the progress. */
  private dot(result: CheckResult): void {
    const width = this.width() ?? DEFAULT_COLUMNS;
    const mark = colourFor(result, this.c)(DOT[result.outcome]);
    this.options.out.write(`${this.dots >= width ? '\n' : ''}${mark}`);
    this.dots = this.dots >= width ? 1 : this.dots + 1;
  }

  /** One write per event: the progress line erased, the new lines, the progress line drawn again below them. */
  private write(lines: Line[], { last = false } = {}): void {
    const width = this.width();
    // The dots are the dot style's progress.
    const progress = this.options.progress && this.style !== 'dot';
    let text = '';
    // On a terminal every write starts at the start of a clean row: the progress line, if drawn, is gone.
    if (progress) text += CLEAR_LINE;
    for (const l of lines) {
      const rows =
        width === undefined
          ? [l.text]
          : l.command
            ? wrapCommand(l.text, width, l.hang)
            : wrapText(l.text, width, l.hang);
      text += `${rows.join('\n')}\n`;
    }
    if (progress && !last) {
      text += this.progressLine();
    }
    if (text !== '') this.options.out.write(text);
  }

  /**
   * `[47/172] ✓ 40  ✗ 2  ! 1  - 4 · 3 more done · running a, b +2`: the results listed of total and their outcomes,
   * which add up to it; the checks done whose results wait for those declared before them; as many running checks named
   * as fit (else their number); cut so that it never wraps.
   */
  private progressLine(): string {
    const c = this.c;
    // A line as wide as the terminal wraps on some, and \r would then redraw only its last row.
    const width = Math.max(this.columns() - 1, 10);
    const listed = this.tally.total;
    const done = this.total === undefined ? `[${listed}]` : `[${listed}/${this.total}]`;
    // The report's own marks, not words: at 80 columns words leave no room to name a running check.
    const t = this.tally;
    const counts: Array<[Outcome, number]> = [
      ['pass', t.passed],
      ['fail', t.failed],
      ['warn', t.warned],
      ['skip', t.skipped],
      ...(t.errored > 0 ? [['error', t.errored] as [Outcome, number]] : []),
    ];
    const marks = counts.map(
      ([outcome, n]) => `${n > 0 ? MARK_COLOUR[outcome](c)(SYMBOL[outcome]) : SYMBOL[outcome]} ${n}`,
    );
    const head = `${c.dim(done)} ${marks.join('  ')}`;
    const waiting = this.unlisted.size > 0 ? ` · ${this.unlisted.size} more done` : '';
    const ids = [...this.running];
    const tails = ids.map((_, i) => {
      const shown = ids.length - i;
      return ` · running ${ids.slice(0, shown).join(', ')}${shown < ids.length ? ` +${ids.length - shown}` : ''}`;
    });
    if (ids.length > 0) tails.push(` · ${ids.length} running`);
    const fits = [...tails, '']
      .map((tail) => `${head}${c.dim(waiting + tail)}`)
      .find((text) => displayWidth(text) <= width);
    return fits ?? fitText(head, width);
  }
}

/** Colour on only for a terminal, and never when NO_COLOR is set to anything but "" (https://no-color.org). */
export function shouldUseColor(stream: { isTTY?: boolean }, env: Record<string, string | undefined>): boolean {
  return stream.isTTY === true && !noColor(env);
}

function noColor(env: Record<string, string | undefined>): boolean {
  return env.NO_COLOR !== undefined && env.NO_COLOR !== '';
}

/** CI services set CI (GitHub Actions, GitLab, CircleCI…); some give the job a pseudo-terminal of no fixed width. */
function onCi(env: Record<string, string | undefined>): boolean {
  return env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI !== 'false';
}

/**
 * The terminal report on stdout. A person at a terminal gets lines wrapped to its width and, unless NO_COLOR or
 * TERM=dumb asks for plain output, the live progress line. A pipe, a file or a CI job gets plain text with no
 * wrapping: such output has no width of its own, the viewer wraps it, and one record a line keeps it the same on
 * every machine, greppable, and its replay lines one command each.
 */
export function humanReporterForStdout(
  options: {
    style?: HumanStyle;
    stream?: HumanOutput & { isTTY?: boolean };
    env?: Record<string, string | undefined>;
    foldedSkips?: FoldedSkips | readonly FoldedSkips[];
  } = {},
): HumanReporter {
  const stream = options.stream ?? process.stdout;
  const env = options.env ?? process.env;
  const terminal = stream.isTTY === true && !onCi(env);
  return new HumanReporter({
    out: stream,
    color: shouldUseColor(stream, env),
    progress: terminal && !noColor(env) && env.TERM !== 'dumb',
    wrap: terminal,
    style: options.style ?? 'default',
    ...(options.foldedSkips !== undefined ? { foldedSkips: options.foldedSkips } : {}),
  });
}

/** The report lines (without the header), in the RunResult's order: what the reporter writes, when not a terminal. */
export function renderResults(result: RunResult, c: ChalkInstance, style: HumanStyle): string[] {
  const listing = new Listing({
    c,
    style,
    allExchanges: false,
    replay: replayContextOf(result.run),
    idWidth: Math.max(0, ...result.checks.map((check) => check.id.length)),
    width: () => undefined,
  });
  return listing.end(result).map((l) => l.text);
}

/**
 * The body of the report, built a result at a time: each suite's checks under its name, a blank line between suites;
 * known deviations held back and shown apart after the suites, so the suites show only what counts for the verdict.
 */
class Listing {
  private suite: string | undefined;
  private endsBlank = false;
  private readonly shown = new Set<string>();
  private readonly expected: CheckResult[] = [];
  /** The dot style's failures, shown in full after the dots. */
  private readonly held: Line[] = [];
  /** The skips counted in one line (look.foldedSkips), per fold. */
  private readonly folded = new Map<FoldedSkips, number>();

  constructor(private readonly look: Look) {}

  /** The fold that counts the check in one line rather than showing it, if any. */
  folds(check: CheckResult): FoldedSkips | undefined {
    if (check.outcome !== 'skip') return undefined;
    return this.look.foldedSkips?.find((fold) => fold.reason === check.skipReason);
  }

  add(check: CheckResult): Line[] {
    this.shown.add(check.id);
    const fold = this.folds(check);
    if (fold !== undefined) {
      this.folded.set(fold, (this.folded.get(fold) ?? 0) + 1);
      return [];
    }
    if (check.expected?.status === 'expected') {
      this.expected.push(check);
      return [];
    }
    const lines: Line[] = [];
    // A check's one line needs no suite heading: its id starts with the suite.
    if (check.suite !== this.suite && this.look.style === 'verbose') {
      if (this.suite !== undefined && !this.endsBlank) lines.push(BLANK);
      lines.push(line(this.look.c.bold(check.suite)));
    }
    this.suite = check.suite;
    lines.push(...checkLines(check, this.look));
    if (this.look.style === 'dot') {
      this.held.push(...lines);
      return [];
    }
    // A failure's details already end with a blank line.
    this.endsBlank = lines.at(-1)!.text === '';
    return lines;
  }

  /** The results not added yet, then what follows the suites: known deviations, the run's notes, the summary. */
  end(result: RunResult): Line[] {
    const lines = result.checks.filter((check) => !this.shown.has(check.id)).flatMap((check) => this.add(check));
    if (this.look.style === 'dot') lines.push(BLANK, ...this.held);
    const folds = (this.look.foldedSkips ?? []).filter((fold) => this.folded.has(fold));
    if (folds.length > 0) {
      // Under the checks' lines, in their column: a mark and the count, as one more line of the list, per fold.
      if (this.look.style === 'dot' && this.held.length > 0 && this.held.at(-1)!.text !== '') lines.push(BLANK);
      for (const fold of folds)
        lines.push(
          line(`  ${this.look.c.gray(SYMBOL.skip)} ${visibleLine(fold.line(this.folded.get(fold)!))}`, MARK_WIDTH),
        );
      this.endsBlank = false;
    }
    if (this.look.style !== 'dot' && (this.suite !== undefined || folds.length > 0) && !this.endsBlank)
      lines.push(BLANK);
    return [...lines, ...closingLines(result, this.expected, this.look)];
  }
}

function headerLines(target: string, baseUrl: string, count: number, c: ChalkInstance): Line[] {
  const what = `${count} check${count === 1 ? '' : 's'}`;
  return [
    line(`${c.bold('conformance')} ${what} against ${c.bold(visibleLine(target))} (${visibleLine(baseUrl)})`),
    BLANK,
  ];
}

/**
 * A check's first line: mark, id, level, then its title. Ids are padded into a column when the title keeps room beside
 * it; in a narrow terminal the title follows the level, and wraps under the id.
 */
function headLine(mark: string, check: CheckResult, title: string, look: Look): Line {
  const { c, idWidth } = look;
  const width = look.width();
  if (width === undefined || width - (MARK_WIDTH + idWidth + LEVEL_COLUMN) >= MIN_TITLE)
    return line(
      `  ${mark} ${check.id.padEnd(idWidth)}  ${c.dim(check.level.padEnd(6))}  ${title}`,
      MARK_WIDTH + idWidth + LEVEL_COLUMN,
    );
  return line(`  ${mark} ${check.id}  ${c.dim(check.level)}  ${title}`, MARK_WIDTH);
}

/** The head line of a check shown in full: its title after the spec sections it stands under. */
function fullHeadLine(mark: string, check: CheckResult, note: string, look: Look): Line {
  return headLine(mark, check, `${visibleLine(sectionsOf(check))} — ${visibleLine(check.title)}${note}`, look);
}

/** Checks shown in full in every style: what they found is what the reader came for. */
const SHOWN_IN_FULL: ReadonlySet<Outcome> = new Set(['fail', 'warn', 'error']);

function checkLines(check: CheckResult, look: Look): Line[] {
  if (look.style === 'verbose') return fullLines(check, look);
  if (SHOWN_IN_FULL.has(check.outcome)) return fullLines(check, look, foldRepeats);
  return look.style === 'dot' ? [] : [oneLine(check, look)];
}

/** Mark, id, level, title (and a skip's reason), cut to the terminal's width: one row, whatever the title. */
function oneLine(check: CheckResult, look: Look): Line {
  const head = headLine(
    colourFor(check, look.c)(SYMBOL[check.outcome]),
    check,
    visibleLine(check.title) + skipNote(check, look.c),
    look,
  );
  const width = look.width();
  return width === undefined ? head : line(fitText(head.text, width));
}

function skipNote(check: CheckResult, c: ChalkInstance): string {
  return check.outcome === 'skip' ? c.gray(`  (skipped: ${visibleLine(check.skipReason ?? 'no reason given')})`) : '';
}

/** A check with everything it put on record; `fold` shortens runs of alike lines in its observations and finding. */
function fullLines(check: CheckResult, look: Look, fold: (lines: string[]) => string[] = (l) => l): Line[] {
  const { c } = look;
  const lines = [fullHeadLine(colourFor(check, c)(SYMBOL[check.outcome]), check, skipNote(check, c), look)];
  // Observations are what a check put on record (the crawl it made, the choice a server took).
  for (const observation of fold(check.observations))
    lines.push(
      ...textLines(observation).map((l, i) => line(`${INDENT}${i === 0 ? '· ' : '  '}${l}`, INDENT.length + 2)),
    );
  // One cause, one failure: what this check saw that another check owns and fails for, on record here, never counted.
  for (const seen of check.alsoSeen ?? [])
    lines.push(line(c.dim(`${INDENT}${visibleLine(alsoSeenLine(seen))}`), INDENT.length + 2));
  if (SHOWN_IN_FULL.has(check.outcome)) {
    const sections = findingSections(check, { allExchanges: look.allExchanges, replay: look.replay }).map((section) =>
      section.label === 'observed' ? { ...section, lines: fold(section.lines) } : section,
    );
    lines.push(...labelledLines(sections, look), BLANK);
  }
  return lines;
}

/** Evidence in its label column; wrapped under the column after it, the replay line as a command that still pastes. */
function labelledLines(sections: ReturnType<typeof findingSections>, look: Look): Line[] {
  return sections.flatMap((section) =>
    renderLabelled([section], { indent: INDENT, styleLabel: look.c.cyan }).map((text) =>
      text === '' ? BLANK : line(text, INDENT.length + LABEL_WIDTH, section.label === 'replay'),
    ),
  );
}

function expectedLines(check: CheckResult, look: Look): Line[] {
  const expires = check.expected?.expires ? `   (until ${check.expected.expires})` : '';
  const sections = [
    { label: 'reason', lines: textLines(`${check.expected?.reason ?? ''}${expires}`) },
    { label: 'observed', lines: textLines(check.finding?.message ?? check.outcome) },
  ];
  return [fullHeadLine(look.c.yellow(SYMBOL[check.outcome]), check, '', look), ...labelledLines(sections, look)];
}

function closingLines(result: RunResult, expected: CheckResult[], look: Look): Line[] {
  const { c } = look;
  const lines: Line[] = [];
  if (expected.length > 0) {
    lines.push(
      line(c.bold('expected failures') + c.dim(' (listed in --expected-failures; they do not fail the run)')),
      ...expected.flatMap((check) => expectedLines(check, look)),
      BLANK,
    );
  }
  // Clean-up that failed leaves state on the target: say so loudly, with what to do by hand.
  for (const problem of result.run.cleanup ?? [])
    lines.push(line(c.red.bold(`CLEAN-UP FAILED: ${visibleLine(problem)}`)));
  // An interrupted run: what it put back, and (loudly) what it could not, with the request to send by hand.
  const stopped = result.run.interrupted;
  if (stopped) {
    const by = stopped.signal !== undefined ? ` by ${stopped.signal}` : '';
    lines.push(
      line(
        c.yellow.bold(
          `interrupted${by}: put back ${stopped.putBack.length > 0 ? visibleLine(stopped.putBack.join('; ')) : 'nothing (nothing was changed)'}`,
        ),
      ),
    );
    for (const left of stopped.notPutBack) lines.push(line(c.red.bold(`NOT PUT BACK: ${visibleLine(left)}`)));
  }
  // What the run met that no check owns (the server's choices, throttling, token renewals): on record, never a failure.
  if (look.style === 'verbose')
    for (const note of result.run.notes ?? []) lines.push(line(c.dim(`· ${visibleLine(note)}`)));
  else lines.push(...unshownLines(result, c));
  const setup = (result.run.setupProblems ?? []).flatMap((problem) =>
    setupLines(problem, c, result.run.failOnIncomplete === true),
  );
  const again = failuresAgain(result, look);
  for (const block of [setup, again]) {
    if (block.length === 0) continue;
    if (lines.length > 0 && lines.at(-1)!.text !== '') lines.push(BLANK);
    lines.push(...block);
  }
  if (setup.length + again.length > 0) lines.push(BLANK);
  const listed =
    expected.length > 0 ? c.dim(`; ${expected.length} of them expected (listed), not failing the run`) : '';
  lines.push(line(summaryLine(result.totals, c) + listed));
  lines.push(...verdictLines(result.verdict, look));
  const times = timeLines(result, c);
  lines.push(...(look.style === 'verbose' ? times : times.slice(0, 1)));
  return lines;
}

/** What only verbose shows (notes, what passing checks observed), counted in one line that says where it is. */
function unshownLines(result: RunResult, c: ChalkInstance): Line[] {
  const notes = result.run.notes?.length ?? 0;
  const observations = result.checks
    .filter((check) => !SHOWN_IN_FULL.has(check.outcome))
    .reduce((sum, check) => sum + check.observations.length + (check.alsoSeen?.length ?? 0), 0);
  if (notes + observations === 0) return [];
  const parts = [
    ...(notes > 0 ? [`${notes} run note${notes === 1 ? '' : 's'}`] : []),
    ...(observations > 0 ? [`${observations} observation${observations === 1 ? '' : 's'}`] : []),
  ];
  return [line(c.dim(`· ${parts.join(' and ')}: in --verbose and the JSON/HTML reports`))];
}

/**
 * A set-up problem, stated once above the verdict: what went wrong, the step that fixes it, and how many checks it kept
 * from running (they are listed as skipped in their suite). A CI gate that does not fail on INCOMPLETE would pass such a
 * run, so the block says so.
 */
function setupLines(problem: SetupProblem, c: ChalkInstance, failsOnIncomplete: boolean): Line[] {
  const head = `set-up problem (${visibleLine(problem.suite)}): `;
  const kept = problem.checks.length;
  return [
    line(c.yellow.bold(head) + visibleLine(problem.problem), head.length),
    line(`  ${c.cyan('fix:')} ${visibleLine(problem.fix)}`, 7),
    line(
      `  kept from running: ${kept} check${kept === 1 ? '' : 's'}, not exercised, not failed${failsOnIncomplete ? '' : ': the run exits 0 for this unless --fail-on incomplete'}`,
      2,
    ),
  ];
}

/**
 * The checks that did not pass, once more just above the totals, one line each (mark, id, level, the one-line reason;
 * cut to the terminal's width), so that a long run's failures need no scrolling back to find. An owner's line says how
 * many other checks saw its defect too.
 */
function failuresAgain(result: RunResult, look: Look): Line[] {
  const { c } = look;
  // A known deviation is listed apart, with its reason; it does not count.
  const listed = result.checks.filter(
    (check) => ['fail', 'warn', 'error'].includes(check.outcome) && check.expected?.status !== 'expected',
  );
  if (listed.length === 0) return [];
  const kinds = (['fail', 'warn', 'error'] as const)
    .filter((outcome) => listed.some((check) => check.outcome === outcome))
    .map((outcome) => ({ fail: 'failed', warn: 'warned', error: 'errored' })[outcome]);
  const what = kinds.length === 1 ? kinds[0] : `${kinds.slice(0, -1).join(', ')} and ${kinds.at(-1)}`;
  // An owner says how many other checks saw its defect (each shows it, dim, under its own line).
  const seen = (check: CheckResult) => {
    const saw = checksThatSaw(check, result.checks).length;
    return saw > 0 ? `; seen by ${saw} other${saw === 1 ? '' : 's'}` : '';
  };
  const idWidth = Math.max(...listed.map((check) => check.id.length));
  const seenWidth = Math.max(...listed.map((check) => seen(check).length));
  const width = look.width();
  const aligned = width === undefined || width - (MARK_WIDTH + idWidth + LEVEL_COLUMN) - seenWidth >= MIN_REASON;
  const entries = listed.map((check) => {
    const mark = colourFor(check, c)(SYMBOL[check.outcome]);
    const head = aligned
      ? `  ${mark} ${check.id.padEnd(idWidth)}  ${c.dim(check.level.padEnd(6))}  `
      : `  ${mark} ${check.id}  ${c.dim(check.level)}  `;
    const reason = checkReason(check);
    const also = c.dim(seen(check));
    if (width === undefined) return line(`${head}${reason}${also}`);
    // The reason is cut, not the count after it, as long as 10 columns of reason are left.
    const room = width - displayWidth(head) - displayWidth(also);
    return line(fitText(room >= 10 ? `${head}${fitText(reason, room)}${also}` : `${head}${reason}${also}`, width));
  });
  return [line(c.bold(`${what} checks`) + c.dim(' (details above)')), ...entries];
}

const MARK_COLOUR: Record<Outcome, (c: ChalkInstance) => (text: string) => string> = {
  pass: (c) => c.green,
  fail: (c) => c.red,
  warn: (c) => c.yellow,
  skip: (c) => c.gray,
  error: (c) => c.magenta,
};

/** A warning that fails the run (--fail-on should) is marked red, as a failure. */
function colourFor(check: CheckResult, c: ChalkInstance): (text: string) => string {
  return check.outcome === 'warn' && check.failsRun ? c.red : MARK_COLOUR[check.outcome](c);
}

/**
 * The verdict after the totals, so a skipped MUST check never reads as a pass: the verdict line, then why MUST
 * requirements were not exercised and what to do (a line per cause; verbose: per requirement), then what no black-box
 * test can reach.
 */
function verdictLines(verdict: Verdict, look: Look): Line[] {
  const { c } = look;
  const colour: Record<VerdictStatus, (text: string) => string> = {
    CONFORMANT: c.green.bold,
    'NOT CONFORMANT': c.red.bold,
    INCOMPLETE: c.yellow.bold,
    INTERRUPTED: c.yellow.bold,
  };
  // An interrupted run left most requirements unexercised for one reason, said once: the JSON report lists them.
  const unexercised = verdict.status === 'INTERRUPTED' ? [] : verdict.notExercised;
  // Verbose: a line per requirement; else a line per cause, which the requirements of a skipped check or a suite share.
  const texts = look.style === 'verbose' ? unexercised.map(unexercisedLine) : unexercisedCauseLines(unexercised);
  return [
    line(colour[verdict.status](visibleLine(verdictSummary(verdict)))),
    ...texts.map((text) => line(`${INDENT}${visibleLine(text)}`, INDENT.length + 2)),
    ...(verdict.outOfReach > 0 ? [line(c.dim(outOfReachNote(verdict)))] : []),
  ];
}

/**
 * The report's last lines: time per suite. Wall time runs from a suite's first check's start to its last check's end;
 * with checks running concurrently suites overlap, so walls need not add up to the run's and check time exceeds them.
 */
function timeLines(result: RunResult, c: ChalkInstance): Line[] {
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
  const cells = (row: string[]) =>
    `  ${row[0]!.padEnd(widths[0]!)}  ${row
      .slice(1)
      .map((cell, i) => cell.padStart(widths[i + 1]!))
      .join('  ')}`;
  return [
    line(c.dim(`time ${formatDuration(result.run.durationMs)}${concurrencyNote(result.run.concurrency)}`)),
    ...table.map((row) => line(c.dim(cells(row)))),
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
