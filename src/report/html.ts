// The certification report a partner hands to a reviewer who did not see the run: one HTML file that opens offline in
// any browser, reads without JavaScript and prints (or `--pdf`) as a document to sign. It reads by severity: the
// verdict and the run's identity, then MUST failures, SHOULD warnings, what was not exercised and what no black-box test
// can reach, and only then the run's notes and every check. The evidence of each failure is the same text the
// terminal and JUnit reports show (exchange-text.ts); here it is laid out, HTML-escaped, and folded where it is long.
import { alsoSeenLine, seenByLine } from './also-seen.js';
import { sectionsOf, specRequirements } from './requirement-text.js';
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  suiteTimesOf,
  type CheckResult,
  type Outcome,
  type OutOfReachRequirement,
  type RequirementRef,
  type RunResult,
  type SetupProblem,
  type SuiteTime,
  type UnexercisedRequirement,
  type VerdictStatus,
} from '../engine/index.js';
import type { Reporter } from '../engine/index.js';
import {
  exchangeSections,
  findingSections,
  formatDuration,
  replayContextOf,
  type Labelled,
  type ReplayContext,
} from './exchange-text.js';
import { bySuite } from './by-suite.js';
import { jsonReportText } from './json.js';
import { failOnText, gapText, verdictSummary } from './verdict-text.js';
import { escapeHtml, escapeLine } from './html-escape.js';
import { displayDate, identityBlock } from './html-identity.js';
import { inlineMarkdown, markdownQuote } from './inline-markdown.js';
import { STYLE } from './html-style.js';

export { escapeHtml } from './html-escape.js';

export class HtmlReporter implements Reporter {
  readonly name: string;

  constructor(private readonly filePath: string) {
    this.name = `HTML report ${filePath}`;
  }

  async onRunEnd(result: RunResult): Promise<void> {
    await mkdir(dirname(this.filePath), { recursive: true });
    await writeFile(this.filePath, htmlReport(result), 'utf8');
  }
}

export const INFO_SECTION_TITLE = 'Choices this server made where the spec is open';

/** SHA-256 (hex) of the JSON report's exact text, so a reviewer can tie this page to the JSON file it summarises. */
export function jsonReportDigest(result: RunResult): string {
  return createHash('sha256').update(jsonReportText(result), 'utf8').digest('hex');
}

const OUTCOME_WORD: Record<Outcome, string> = {
  pass: 'pass',
  fail: 'FAIL',
  warn: 'warning',
  skip: 'skipped',
  error: 'error',
};

/** The class that colours a result: a warning that fails the run under --fail-on should is shown as a failure. */
function tone(check: CheckResult): string {
  if (check.outcome === 'warn') return check.failsRun ? 'fail' : 'warn';
  return check.outcome;
}

function needsAttention(check: CheckResult): boolean {
  return check.outcome === 'fail' || check.outcome === 'warn' || check.outcome === 'error';
}

function anchor(check: CheckResult): string {
  return `check-${check.id.replace(/[^A-Za-z0-9._-]/g, '-')}`;
}

/**
 * The checks a reviewer must read, by severity: failures (a MUST check failed, or any check errored: its requirement
 * was not judged), then warnings (SHOULD), then the failures the server team listed as known (--expected-failures),
 * which do not fail the run. Within a group, report order.
 */
export function bySeverity(checks: readonly CheckResult[]): {
  failures: CheckResult[];
  warnings: CheckResult[];
  known: CheckResult[];
} {
  const isKnown = (c: CheckResult) => c.expected?.status === 'expected';
  const open = checks.filter((c) => needsAttention(c) && !isKnown(c));
  return {
    failures: [...open.filter((c) => c.outcome === 'fail'), ...open.filter((c) => c.outcome === 'error')],
    warnings: open.filter((c) => c.outcome === 'warn'),
    known: checks.filter((c) => needsAttention(c) && isKnown(c)),
  };
}

/** One section of the page after the identity, with its name in the navigation. */
type Part = { id: string; title: string; content: string; nav?: string };

/** The whole page. Deterministic for a given result (no clock, no randomness), so an evidence package hashes stably. */
export function htmlReport(result: RunResult): string {
  const { run } = result;
  const verdict = result.verdict.status;
  // Once: the JSON report of a whole run is megabytes of text to hash.
  const digest = jsonReportDigest(result);
  const parts: Part[] = [...findingParts(result), ...reachParts(result), ...runParts(result)];
  const body = [
    header(result, verdict),
    cleanup(run.cleanup ?? []),
    interrupted(run.interrupted),
    setupProblems(run.setupProblems ?? []),
    section('verdict', 'Verdict', verdictDetails(result)),
    section('identity', 'The run', identityBlock(result, digest)),
    nav(parts),
    ...parts.map((p) => section(p.id, p.title, p.content)),
    signOff(result),
    footer(result, digest),
  ].join('\n');
  return htmlPage(run, verdict, body);
}

/** The checks a reviewer must read, by severity: failures, warnings, and the expected failures when there are any. */
function findingParts(result: RunResult): Part[] {
  const { failures, warnings, known } = bySeverity(result.checks);
  const replay = replayContextOf(result.run);
  const finding = (check: CheckResult) => findingBlock(check, replay, seenByLine(check, result.checks));
  return [
    {
      id: 'failures',
      title: `Failures (${failures.length}): MUST checks failed, checks that errored`,
      nav: `Failures (${failures.length})`,
      content:
        failures.length > 0
          ? failures.map(finding).join('\n')
          : '<p class="none">No MUST check failed and no check errored.</p>',
    },
    {
      id: 'warnings',
      title: `Warnings (${warnings.length}): SHOULD checks not met`,
      nav: `Warnings (${warnings.length})`,
      content: warnings.length > 0 ? warnings.map(finding).join('\n') : '<p class="none">No SHOULD check warned.</p>',
    },
    ...(known.length > 0
      ? [
          {
            id: 'expected',
            title: `Expected failures (${known.length}): known deviations listed by the server team`,
            nav: `Expected (${known.length})`,
            content: known.map(finding).join('\n'),
          },
        ]
      : []),
  ];
}

/** The MUST requirements the verdict did not judge: not exercised by this run, or out of any black-box test's reach. */
function reachParts(result: RunResult): Part[] {
  const notExercised = result.verdict.notExercised;
  const outOfReach = result.verdict.outOfReachRequirements;
  return [
    {
      id: 'not-exercised',
      title: `Not exercised (${notExercised.length}): MUST requirements this run did not test`,
      nav: `Not exercised (${notExercised.length})`,
      content: notExercisedGroups(notExercised),
    },
    {
      id: 'out-of-reach',
      title: `Out of reach (${result.verdict.outOfReach}): MUST requirements no black-box test can check`,
      nav: `Out of reach (${result.verdict.outOfReach})`,
      content: outOfReachList(result.verdict.outOfReach, outOfReach),
    },
  ];
}

/** What the run met, every check by suite, and the choices the server made where the spec is open. */
function runParts(result: RunResult): Part[] {
  const times = new Map(suiteTimesOf(result).map((t) => [t.suite, t]));
  const info = result.checks.filter((c) => c.level === 'INFO');
  return [
    { id: 'notes', title: 'What the run met', nav: 'Run notes', content: runNotes(result.run.notes ?? []) },
    {
      id: 'suites',
      title: 'Results by suite',
      nav: 'By suite',
      content: suiteResults(result, times),
    },
    { id: 'choices', title: INFO_SECTION_TITLE, nav: 'Open points', content: choices(info) },
  ];
}

/** The document around the body: the head (its policy, style and title) and the script that folds. */
function htmlPage(run: RunResult['run'], verdict: VerdictStatus, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="generator" content="conformance ${escapeLine(run.suiteVersion)}">
<title>Conformance report: ${escapeLine(run.target)} — ${verdict}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

function section(id: string, title: string, content: string): string {
  return `<section id="${id}">\n<h2>${escapeLine(title)}</h2>\n${content}\n</section>`;
}

/** Where each part is: a phone reader jumps rather than scrolls. Not printed. */
function nav(parts: ReadonlyArray<{ id: string; nav?: string }>): string {
  return `<nav class="contents">${parts.map((p) => `<a href="#${p.id}">${escapeLine(p.nav ?? p.id)}</a>`).join(' ')}</nav>`;
}

/** A table that scrolls sideways inside its box on a narrow screen, so the page itself never does. */
function scrollTable(table: string): string {
  return `<div class="table-scroll">${table}</div>`;
}

const VERDICT_CLASS: Record<VerdictStatus, string> = {
  CONFORMANT: 'conformant',
  'NOT CONFORMANT': 'not-conformant',
  INCOMPLETE: 'incomplete',
  INTERRUPTED: 'incomplete',
};

/** Under the verdict word: why, in a few words, and the exit code the run's fail-on policy gave. */
function because(result: RunResult): string {
  const v = result.verdict;
  const plural = (n: number) => `${n} MUST requirement${n === 1 ? '' : 's'}`;
  const why =
    v.status === 'INTERRUPTED'
      ? `stopped before its end${result.run.interrupted?.signal !== undefined ? ` by ${result.run.interrupted.signal}` : ''}, ${v.exercised} of ${plural(v.mustRequirements)} exercised, ${v.failed.length} failed`
      : v.status === 'CONFORMANT'
        ? `all ${plural(v.mustRequirements)} exercised, none failed`
        : v.status === 'NOT CONFORMANT'
          ? `${v.failedChecks.length} MUST check${v.failedChecks.length === 1 ? '' : 's'} failed, on ${plural(v.failed.length)}`
          : `${v.notExercised.length} of ${plural(v.mustRequirements)} not exercised, none failed`;
  return `${why}; exit code ${result.exitCode} (fail-on ${failOnText(result.run)})`;
}

/** The verdict in full: its line, the counts behind it, and where the failures and gaps are listed. */
function verdictDetails(result: RunResult): string {
  const v = result.verdict;
  const { totals } = result;
  const failed =
    v.failed.length > 0
      ? `<p>Failed MUST requirements: ${v.failed.map((id) => `<code>${escapeLine(id)}</code>`).join(', ')}. <a href="#failures">Failures</a> shows each.</p>`
      : '';
  const counts: Array<[number, string, string]> = [
    [totals.passed, 'passed', 'pass'],
    [totals.failed, 'failed', 'fail'],
    [totals.warned, 'warned', 'warn'],
    [totals.skipped, 'skipped', 'skip'],
    [totals.errored, 'errored', 'error'],
  ];
  const gaps = [
    ...(v.notExercised.length > 0
      ? [
          `<a href="#not-exercised">${v.notExercised.length} MUST requirement${v.notExercised.length === 1 ? '' : 's'} not exercised</a>`,
        ]
      : []),
    ...(v.outOfReach > 0
      ? [
          `<a href="#out-of-reach">${v.outOfReach} MUST requirement${v.outOfReach === 1 ? '' : 's'} out of reach of a black-box test</a>, not part of the verdict`,
        ]
      : []),
  ];
  return `<p class="verdict-line ${VERDICT_CLASS[v.status]}">${escapeLine(verdictSummary(v))}</p>
${failed}<p>${escapeLine(`${v.exercised} of ${v.mustRequirements} MUST requirements exercised. Checks: ${totals.total}`)}: ${counts.map(([n, word, cls]) => `<span class="${n > 0 ? cls : 'zero'}">${n} ${word}</span>`).join(', ')}.</p>${gaps.length > 0 ? `\n<p class="note">${gaps.join('; ')}.</p>` : ''}`;
}

/** What was not tested, grouped by what to do about it: one cause (a flag, a fixture, the selection) covers many. */
function notExercisedGroups(rows: readonly UnexercisedRequirement[]): string {
  if (rows.length === 0) return '<p class="none">Every MUST requirement the checks cite was exercised.</p>';
  const groups = new Map<string, UnexercisedRequirement[]>();
  for (const r of rows) groups.set(r.remedy, [...(groups.get(r.remedy) ?? []), r]);
  const intro =
    '<p class="intro">A requirement is exercised when every MUST check citing it ran to a pass or a fail. These were not: a check was not selected, was skipped or errored. They are not failed; the verdict cannot be CONFORMANT until they are run.</p>';
  const blocks = [...groups].map(([remedy, reqs]) => {
    const table = scrollTable(`<table class="unexercised">
<thead><tr><th>requirement</th><th>the spec</th><th>checks and why</th></tr></thead>
<tbody>
${reqs
  .map(
    (r) =>
      `<tr class="skip"><td><code>${escapeLine(r.id)}</code><div class="section">${escapeLine(r.section)}</div></td><td><blockquote>${markdownQuote(r.quote)}</blockquote></td><td><ul>${r.checks
        .map((c) => `<li><code>${escapeLine(c.id)}</code> ${escapeHtml(gapText(c))}</li>`)
        .join('')}</ul></td></tr>`,
  )
  .join('\n')}
</tbody>
</table>`);
    // A long group (a --suite run leaves most requirements unselected) is folded; a short one is read at once.
    return `<details class="group"${reqs.length <= 10 ? ' open' : ''}><summary><strong>${reqs.length} requirement${reqs.length === 1 ? '' : 's'}</strong>: what to do: ${escapeHtml(remedy)}</summary>${table}</details>`;
  });
  return `${intro}\n${blocks.join('\n')}`;
}

/** The requirements the verdict leaves out by design, each with why (the catalog's exclusion). */
function outOfReachList(count: number, list: readonly OutOfReachRequirement[] | undefined): string {
  if (count === 0) return '<p class="none">None: every MUST requirement of the spec is within reach of this run.</p>';
  if (list === undefined)
    return `<p class="note">${escapeLine(count === 1 ? '1 MUST requirement is' : `${count} MUST requirements are`)} out of reach; this report's version does not name them: <code>conformance coverage</code> lists them with why.</p>`;
  return `<p class="intro">The verdict does not speak for these: no request from outside the server can show whether it keeps them. <code>conformance coverage</code> lists them too.</p>
<ul class="out-of-reach">
${list
  .map(
    (r) =>
      `<li><div><code class="check-id">${escapeLine(r.id)}</code> <span class="section">${escapeLine(r.section)}</span></div><blockquote>${markdownQuote(r.quote)}</blockquote><p class="why">why: ${inlineMarkdown(r.why)}</p></li>`,
  )
  .join('\n')}
</ul>`;
}

function header(result: RunResult, verdict: VerdictStatus): string {
  const { run } = result;
  return `<header>
<div class="title">
<h1>Conformance report</h1>
<p class="subtitle">Investment Service Interface ${escapeLine(run.specVersion)} · ${escapeLine(run.target)} · ${escapeLine(displayDate(run.startedAt))}</p>
</div>
<div class="verdict-box ${VERDICT_CLASS[verdict]}"><p class="verdict">${verdict}</p><p class="because">${escapeLine(because(result))}</p></div>
</header>`;
}

function runNotes(notes: string[]): string {
  if (notes.length === 0) return '<p class="none">Nothing to note.</p>';
  return `<ul class="run-notes">${notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>`;
}

/** Above the checks: what kept checks from running that is the run's set-up, not the server, and how to fix it. */
function setupProblems(problems: readonly SetupProblem[]): string {
  if (problems.length === 0) return '';
  const items = problems.map(
    (p) =>
      `<li><p><strong>${escapeLine(p.suite)}</strong>: ${escapeHtml(p.problem)}</p><p class="fix">fix: ${escapeHtml(p.fix)}</p><p class="note">kept from running: ${p.checks.length} check${p.checks.length === 1 ? '' : 's'} (${p.checks.map((id) => `<code>${escapeLine(id)}</code>`).join(', ')}); their requirements are not exercised, not failed</p></li>`,
  );
  return `<div class="setup-problems" role="alert"><h2>Set-up problem${problems.length === 1 ? '' : 's'} of the run, not of the server</h2><ul>${items.join('')}</ul></div>`;
}

/** An interrupted run: what it put back, and what it could not, with the request to send by hand. */
function interrupted(stopped: RunResult['run']['interrupted']): string {
  if (stopped === undefined) return '';
  const by = stopped.signal !== undefined ? ` by ${escapeLine(stopped.signal)}` : '';
  const put =
    stopped.putBack.length > 0
      ? stopped.putBack.map((p) => `<li>${escapeHtml(p)}</li>`).join('')
      : '<li>nothing: nothing was changed</li>';
  const left =
    stopped.notPutBack.length > 0
      ? `<h3>Not put back: restore by hand</h3><ul>${stopped.notPutBack.map((p) => `<li>${escapeHtml(p)}</li>`).join('')}</ul>`
      : '';
  return `<div class="${stopped.notPutBack.length > 0 ? 'cleanup' : 'run-notes'}" role="status"><h2>Interrupted${by}: what was put back</h2><ul>${put}</ul>${left}</div>`;
}

function cleanup(problems: string[]): string {
  if (problems.length === 0) return '';
  return `<div class="cleanup" role="alert"><h2>Clean-up failed: restore by hand</h2><ul>${problems.map((p) => `<li>${escapeHtml(p)}</li>`).join('')}</ul></div>`;
}

/** The check's line: outcome, id, level, title, spec section. */
function checkHeading(check: CheckResult): string {
  return `<span class="pill ${tone(check)}">${OUTCOME_WORD[check.outcome]}</span> <code class="check-id">${escapeLine(check.id)}</code> <span class="level">${check.level}</span> <span class="check-title">${escapeLine(check.title)}</span> <span class="section">${escapeLine(sectionsOf(check))}</span>`;
}

/** The labels of a finding's own words (what the spec says, what was expected and seen); the rest is its exchange. */
const FINDING_LABELS = new Set(['spec', 'expected', 'observed', 'seen by']);

/**
 * One check that needs attention. Its own words are always shown; the exchange the verdict was drawn from is open for a
 * failure and folded for a warning, and the check's other exchanges and long observations are folded, so the page
 * stays a few screens long whatever the server sent.
 */
function findingBlock(check: CheckResult, replay: ReplayContext, seenBy: string | undefined): string {
  const shown = findingSections(check, { replay, ...(seenBy !== undefined ? { seenBy } : {}) });
  // An error's message is its finding, not part of the exchange (the exchange's own error follows its response).
  const words = shown.filter((s, i) => FINDING_LABELS.has(s.label) || (s.label === 'error' && i === 1));
  const exchange = shown.filter((s) => !words.includes(s));
  const named = check.exchanges.find((e) => e.seq === check.finding?.exchangeSeq) ?? check.exchanges.at(-1);
  const others = check.exchanges.filter((e) => e !== named);
  const replayLine = exchange.filter((s) => s.label === 'replay');
  const messages = exchange.filter((s) => s.label !== 'replay');
  const exchangeBlock =
    messages.length === 0
      ? ''
      : `<details class="exchange"${check.outcome === 'warn' ? '' : ' open'}><summary>${escapeLine(exchangeSummary(messages))}</summary>${evidence(messages, check)}</details>`;
  const more =
    others.length === 0
      ? ''
      : `<details class="more"><summary>${others.length} other exchange${others.length === 1 ? '' : 's'} of this check</summary>${others
          .map((e) => `<h4>exchange #${e.seq}</h4>${evidence(exchangeSections(e, undefined, replay), check)}`)
          .join('')}</details>`;
  return `<article class="finding ${tone(check)}" id="${anchor(check)}">
<h3 class="finding-head">${checkHeading(check)}</h3>
${knownReason(check)}${evidence([...words, ...replayLine], check)}${exchangeBlock}${observations(check.observations)}${alsoSeen(check)}${sharedLine(check)}${more}
</article>`;
}

/** The folded exchange's line: its request line and the response's status. */
function exchangeSummary(sections: Labelled[]): string {
  const request = sections.find((s) => s.label === 'request')?.lines[0] ?? 'the request';
  const response = sections.find((s) => s.label === 'response')?.lines[0]?.split('  ')[0] ?? 'no response';
  return `the exchange: ${request} → ${response}`;
}

function knownReason(check: CheckResult): string {
  const mark = check.expected;
  if (!mark) return '';
  const until = mark.expires ? `, listed until ${escapeLine(mark.expires)}` : '';
  return `<p class="known">expected failure (${escapeLine(mark.status)}${until}): ${escapeLine(mark.reason)}</p>`;
}

const LABEL_CLASS: Record<string, string> = {
  spec: 'spec',
  expected: 'expected',
  observed: 'observed',
  error: 'observed',
  'seen by': 'seen-by',
  replay: 'replay',
};

/** Lines of an observation shown before the rest is folded: a USSD crawl may report one line per option. */
const LINES_SHOWN = 12;

function evidence(sections: Labelled[], check: CheckResult): string {
  const rows = sections.map(({ label, lines }) => {
    const cls = LABEL_CLASS[label] ?? 'exchange';
    const content =
      label === 'spec'
        ? specQuotes(check)
        : label === 'replay'
          ? `<div class="curl-box"><pre class="curl">${lines.map(escapeHtml).join('\n')}</pre></div>`
          : cls === 'exchange'
            ? `<pre class="message"><span class="start-line">${escapeHtml(lines[0] ?? '')}</span>${lines.length > 1 ? `\n${lines.slice(1).map(escapeHtml).join('\n')}` : ''}</pre>`
            : folded(lines);
    return `<dt>${escapeLine(label)}</dt><dd class="${cls}">${content}</dd>`;
  });
  return `<dl class="evidence">\n${rows.join('\n')}\n</dl>`;
}

/** Text lines as a block, the lines past LINES_SHOWN folded behind a count. */
function folded(lines: string[]): string {
  if (lines.length <= LINES_SHOWN + 2) return `<pre>${lines.map(escapeHtml).join('\n')}</pre>`;
  const rest = lines.length - LINES_SHOWN;
  return `<pre>${lines.slice(0, LINES_SHOWN).map(escapeHtml).join('\n')}</pre><details class="fold"><summary>${rest} more lines</summary><pre>${lines.slice(LINES_SHOWN).map(escapeHtml).join('\n')}</pre></details>`;
}

/** The spec's words the finding is about, as the spec renders them (code, bold, table cells), never raw Markdown. */
function specQuotes(check: CheckResult): string {
  const { shown, more } = specRequirements(check, check.finding);
  return `<ul class="quotes">${shown.map(quoteItem).join('')}${more !== undefined ? `<li class="note">${escapeHtml(more)}</li>` : ''}</ul>`;
}

function quoteItem(r: RequirementRef): string {
  return `<li><code>${escapeLine(r.id)}</code> <span class="section">${escapeLine(r.section)}</span><blockquote class="quote">${markdownQuote(r.quote)}</blockquote></li>`;
}

/** A check's observations: a few are shown, a long list is folded behind its count. */
function observations(list: string[]): string {
  if (list.length === 0) return '';
  const items = (l: string[]) => l.map((o) => `<li>${escapeHtml(o)}</li>`).join('');
  if (list.length <= 3) return `<ul class="observations">${items(list)}</ul>`;
  return `<details class="fold"><summary>${list.length} observations</summary><ul class="observations">${items(list)}</ul></details>`;
}

/** The defects a check saw that other checks own (one cause, one failure): never its failure. */
function alsoSeen(check: CheckResult): string {
  const seen = check.alsoSeen ?? [];
  if (seen.length === 0) return '';
  return `<ul class="also-seen">${seen.map((a) => `<li>${escapeHtml(alsoSeenLine(a))}</li>`).join('')}</ul>`;
}

/** The exchanges of other checks this check judged (work sent once for the run), by sender: their evidence is there. */
function sharedLine(check: CheckResult): string {
  const shared = check.sharedExchanges ?? [];
  if (shared.length === 0) return '';
  const bySender = new Map<string, string[]>();
  for (const s of shared) bySender.set(s.sentBy, [...(bySender.get(s.sentBy) ?? []), `#${s.seq}`]);
  const parts = [...bySender].map(([by, seqs]) => `${seqs.join(', ')} (sent by ${by})`);
  return `<p class="shared">also judged exchanges another check sent for the run: ${escapeLine(parts.join('; '))}</p>`;
}

/** A summary table of the suites (always shown, and printed), then each suite's checks folded. */
function suiteResults(result: RunResult, times: Map<string, SuiteTime>): string {
  const suites = [...bySuite(result.checks)];
  const count = (checks: CheckResult[], outcome: Outcome) => checks.filter((c) => c.outcome === outcome).length;
  const cell = (n: number, cls: string) => `<td class="num"><span class="${n > 0 ? cls : 'zero'}">${n}</span></td>`;
  const summary = scrollTable(`<table class="suite-summary">
<thead><tr><th>suite</th><th>checks</th><th>passed</th><th>failed</th><th>warned</th><th>skipped</th><th>errored</th><th>time</th></tr></thead>
<tbody>
${suites
  .map(([suite, checks]) => {
    const time = times.get(suite);
    return `<tr><td><a href="#suite-${escapeLine(suite)}">${escapeLine(suite)}</a></td><td class="num">${checks.length}</td>${cell(count(checks, 'pass'), 'pass')}${cell(count(checks, 'fail'), 'fail')}${cell(count(checks, 'warn'), 'warn')}${cell(count(checks, 'skip'), 'skip')}${cell(count(checks, 'error'), 'error')}<td class="num">${time ? escapeLine(formatDuration(time.wallMs)) : ''}</td></tr>`;
  })
  .join('\n')}
</tbody>
</table>`);
  return `${summary}\n${suites.map(([suite, checks]) => suiteTable(suite, checks, times.get(suite))).join('\n')}`;
}

function suiteTable(suite: string, checks: CheckResult[], time: SuiteTime | undefined): string {
  const failed = checks.filter((c) => needsAttention(c)).length;
  const rows = checks.map((check) => {
    const id = needsAttention(check)
      ? `<a href="#${anchor(check)}"><code>${escapeLine(check.id)}</code></a>`
      : `<code>${escapeLine(check.id)}</code>`;
    const skip =
      check.outcome === 'skip'
        ? `<div class="note">skipped: ${escapeHtml(check.skipReason ?? 'no reason given')}</div>`
        : '';
    const notes = check.level === 'INFO' ? '' : `${observations(check.observations)}${alsoSeen(check)}`;
    return `<tr class="${tone(check)}"><td><span class="pill ${tone(check)}">${OUTCOME_WORD[check.outcome]}</span></td><td>${id}</td><td>${check.level}</td><td>${escapeLine(check.title)}${skip}${notes}</td><td>${escapeLine(sectionsOf(check))}</td></tr>`;
  });
  const took = time ? `, ${escapeLine(formatDuration(time.wallMs))}` : '';
  const summary = `${checks.length} check${checks.length === 1 ? '' : 's'}${failed > 0 ? `, <span class="fail">${failed} not passed</span>` : ''}${took}`;
  return `<details class="suite" id="suite-${escapeLine(suite)}"><summary><strong>${escapeLine(suite)}</strong> <span class="count">${summary}</span></summary>
${scrollTable(`<table>
<thead><tr><th>outcome</th><th>id</th><th>level</th><th>title</th><th>spec section</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`)}
</details>`;
}

function choices(info: CheckResult[]): string {
  if (info.length === 0) return '<p class="none">No INFO check ran.</p>';
  const intro =
    '<p class="intro">Where the spec leaves a point open ("not shown", "unresolved"), every reasonable variant passes; these checks record which one this server chose. They never fail a run.</p>';
  const items = info.map((check) => {
    const recorded =
      check.outcome === 'skip'
        ? `<p class="note">skipped: ${escapeHtml(check.skipReason ?? 'no reason given')}</p>`
        : check.observations.length > 0
          ? `<ul class="observations">${check.observations.map((o) => `<li>${escapeHtml(o)}</li>`).join('')}</ul>`
          : `<p class="note">nothing recorded${check.finding ? `: ${escapeHtml(check.finding.message)}` : ''}</p>`;
    return `<li><div><code class="check-id">${escapeLine(check.id)}</code> <span class="check-title">${escapeLine(check.title)}</span> <span class="section">${escapeLine(sectionsOf(check))}</span></div><ul class="quotes">${check.requirements.map(quoteItem).join('')}</ul>${recorded}</li>`;
  });
  return `${intro}\n<details class="group"><summary><strong>${info.length} open point${info.length === 1 ? '' : 's'} recorded</strong></summary>\n<ul class="choices">\n${items.join('\n')}\n</ul></details>`;
}

/** Printed only: the lines a reviewer fills in to sign the document for the verdict above. */
function signOff(result: RunResult): string {
  return `<section id="sign-off" class="print-only">
<h2>Review</h2>
<p>I have read this report of the run of ${escapeLine(displayDate(result.run.startedAt))} against ${escapeLine(result.run.target)} (JSON report SHA-256 above) and its verdict, ${escapeLine(result.verdict.status)}.</p>
<div class="sign-lines"><p>Reviewed by (name, role)</p><p>Date</p><p>Signature</p></div>
</section>`;
}

function footer(result: RunResult, digest: string): string {
  return `<footer>
<p>SHA-256 of the JSON report of this run: <code class="digest">${digest}</code></p>
<p>That is the digest of the file <code>conformance run --json</code> writes (<code>report.json</code> in an evidence package): <code>sha256sum report.json</code> prints the same.
Secrets (client secret, private key, bearer tokens, signatures) are shown as <code>[redacted]</code>. A replay line (<code>npx conformance curl …</code>) sends its request again with a fresh token and a fresh signature; masked values it names as <code>{{clientSecret}}</code> and <code>{{token}}</code> are filled with the target's own.</p>
<p>conformance ${escapeLine(result.run.suiteVersion)} · spec ${escapeLine(result.run.specVersion)} · started ${escapeLine(result.run.startedAt)}, finished ${escapeLine(result.run.finishedAt)}</p>
</footer>`;
}

// Only the copy buttons need script; the page reads the same without it (the curl text is selectable on its own).
const SCRIPT = `
for (const box of document.querySelectorAll('.curl-box')) {
  const pre = box.querySelector('pre');
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'copy';
  button.textContent = 'copy';
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(pre.textContent);
      button.textContent = 'copied';
    } catch {
      const range = document.createRange();
      range.selectNodeContents(pre);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      button.textContent = 'selected: Ctrl-C';
    }
    setTimeout(() => { button.textContent = 'copy'; }, 1500);
  });
  box.append(button);
}
`;

const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
// Nothing but this page's own style and script may run or load: an escaping mistake could then not fetch or execute
// anything, and the file provably needs no network.
const CSP = `default-src 'none'; style-src ${hash(STYLE)}; script-src ${hash(SCRIPT)}; img-src data:; base-uri 'none'; form-action 'none'`;
