// The certification report a partner hands to a reviewer who did not see the run: one HTML file that opens offline in
// any browser and reads without JavaScript. The evidence of each failure is the same text the terminal and JUnit
// reports show (exchange-text.ts); here it is only laid out and HTML-escaped.
import { alsoSeenLine, seenByLine } from './also-seen.js';
import { requirementLine, sectionsOf } from './requirement-text.js';
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  suiteTimesOf,
  type CheckResult,
  type Outcome,
  type RunResult,
  type SetupProblem,
  type SuiteTime,
  type Verdict,
  type VerdictStatus,
} from '../engine/index.js';
import type { Reporter } from '../engine/index.js';
import {
  concurrencyNote,
  exchangeSections,
  findingSections,
  formatDuration,
  replayContextOf,
  visible,
  visibleLine,
  type Labelled,
  type ReplayContext,
} from './exchange-text.js';
import { bySuite } from './by-suite.js';
import { jsonReportText } from './json.js';
import { failOnText, gapText, outOfReachNote, verdictSummary } from './verdict-text.js';

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

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text safe inside an element or a quoted attribute. Every string a server could have influenced goes through here:
 * markup is escaped, and control and bidi characters are shown as \u escapes so nothing on the page is hidden or reordered.
 */
export function escapeHtml(text: string): string {
  return visible(text).replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}

/** Like escapeHtml, for text that must stay on one line. */
function escapeLine(text: string): string {
  return visibleLine(text).replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}

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

/** The whole page. Deterministic for a given result (no clock, no randomness), so an evidence package hashes stably. */
export function htmlReport(result: RunResult): string {
  const { run } = result;
  const verdict = result.verdict.status;
  // A failure the server team listed as known (--expected-failures) is shown apart: it does not fail the run.
  const isKnown = (c: CheckResult) => c.expected?.status === 'expected';
  const findings = result.checks.filter((c) => needsAttention(c) && !isKnown(c));
  const known = result.checks.filter((c) => needsAttention(c) && isKnown(c));
  const times = new Map(suiteTimesOf(result).map((t) => [t.suite, t]));
  const info = result.checks.filter((c) => c.level === 'INFO');
  const replay = replayContextOf(run);
  const finding = (check: CheckResult) => findingBlock(check, replay, seenByLine(check, result.checks));
  const body = [
    header(result, verdict),
    cleanup(run.cleanup ?? []),
    interrupted(run.interrupted),
    setupProblems(run.setupProblems ?? []),
    runNotes(run.notes ?? []),
    section('verdict', 'Verdict', verdictDetails(result)),
    findings.length > 0
      ? section('findings', `Failures and warnings (${findings.length})`, findings.map(finding).join('\n'))
      : section('findings', 'Failures and warnings', '<p class="none">No check failed, warned or errored.</p>'),
    ...(known.length > 0
      ? [
          section(
            'expected',
            `Expected failures (${known.length}): known deviations listed by the server team`,
            known.map(finding).join('\n'),
          ),
        ]
      : []),
    section(
      'suites',
      'Results by suite',
      [...bySuite(result.checks)].map(([suite, checks]) => suiteTable(suite, checks, times.get(suite))).join('\n'),
    ),
    section('choices', INFO_SECTION_TITLE, choices(info)),
    footer(result),
  ].join('\n');
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

/** The verdict in full: its line, the failed requirements, and each one not exercised with why and what to do. */
function verdictDetails(result: RunResult): string {
  const v: Verdict = result.verdict;
  const failed =
    v.failed.length > 0
      ? `<p>Failed MUST requirements: ${v.failed.map((id) => `<code>${escapeLine(id)}</code>`).join(', ')}. The findings below show each failure.</p>`
      : '';
  const rows = v.notExercised.map(
    (r) =>
      `<tr class="skip"><td><code>${escapeLine(r.id)}</code><div class="section">${escapeLine(r.section)}</div></td><td><blockquote>${escapeHtml(r.quote)}</blockquote></td><td><ul>${r.checks
        .map((c) => `<li><code>${escapeLine(c.id)}</code> ${escapeHtml(gapText(c))}</li>`)
        .join('')}</ul></td><td>${escapeHtml(r.remedy)}</td></tr>`,
  );
  const table =
    rows.length === 0
      ? ''
      : `<h3>Not exercised (${rows.length}): MUST requirements this run did not test</h3>
<p class="intro">A requirement is exercised when every MUST check citing it ran to a pass or a fail. These were not: a check was not selected, was skipped or errored.</p>
<table class="unexercised">
<thead><tr><th>requirement</th><th>the spec</th><th>checks and why</th><th>what to do</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`;
  return `<p class="verdict-line ${VERDICT_CLASS[v.status]}">${escapeLine(verdictSummary(v))}</p>
${failed}${table}${v.outOfReach > 0 ? `\n<p class="note">${escapeLine(outOfReachNote(v))}.</p>` : ''}`;
}

function header(result: RunResult, verdict: VerdictStatus): string {
  const { run, totals } = result;
  const selection =
    run.selection.suites.join(', ') + (run.selection.grep !== undefined ? `; grep ${run.selection.grep}` : '');
  const counts: Array<[number, string, string]> = [
    [totals.passed, 'passed', 'pass'],
    [totals.failed, 'failed', 'fail'],
    [totals.warned, 'warned', 'warn'],
    [totals.skipped, 'skipped', 'skip'],
    [totals.errored, 'errored', 'error'],
  ];
  const rows: Array<[string, string]> = [
    ['Target', escapeLine(run.target)],
    ['Base URL', `<code>${escapeLine(run.baseUrl)}</code>`],
    ['Suite version', `conformance ${escapeLine(run.suiteVersion)}`],
    ['Spec version', escapeLine(run.specVersion)],
    ['Date', escapeLine(displayDate(run.startedAt))],
    ['Duration', escapeLine(`${formatDuration(run.durationMs)}${concurrencyNote(run.concurrency)}`)],
    ['Suites', escapeLine(selection)],
    [
      'Checks',
      `${totals.total}: ${counts.map(([n, word, cls]) => `<span class="${n > 0 ? cls : 'zero'}">${n} ${word}</span>`).join(', ')}`,
    ],
  ];
  return `<header>
<div class="title">
<h1>Conformance report</h1>
<p class="subtitle">Investment Service Interface ${escapeLine(run.specVersion)} · ${escapeLine(run.target)}</p>
</div>
<div class="verdict-box ${VERDICT_CLASS[verdict]}"><p class="verdict">${verdict}</p><p class="because">${escapeLine(because(result))}</p></div>
</header>
<dl class="summary">
${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('\n')}
</dl>`;
}

function displayDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

function runNotes(notes: string[]): string {
  if (notes.length === 0) return '';
  return `<div class="run-notes"><h2>What the run met</h2><ul>${notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul></div>`;
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

function findingBlock(check: CheckResult, replay: ReplayContext, seenBy: string | undefined): string {
  const shown = findingSections(check, { replay, ...(seenBy !== undefined ? { seenBy } : {}) });
  const named = check.exchanges.find((e) => e.seq === check.finding?.exchangeSeq) ?? check.exchanges.at(-1);
  // The verdict's exchange is shown in full above; the set-up exchanges before it stay folded away.
  const others = check.exchanges.filter((e) => e !== named);
  const more =
    others.length === 0
      ? ''
      : `<details class="more"><summary>${others.length} other exchange${others.length === 1 ? '' : 's'} of this check</summary>${others
          .map((e) => `<h4>exchange #${e.seq}</h4>${evidence(exchangeSections(e, undefined, replay))}`)
          .join('')}</details>`;
  return `<details class="finding ${tone(check)}" id="${anchor(check)}" open>
<summary>${checkHeading(check)}</summary>
${knownReason(check)}${evidence(shown)}${observations(check.observations)}${alsoSeen(check)}${more}
</details>`;
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

function evidence(sections: Labelled[]): string {
  const rows = sections.map(({ label, lines }) => {
    const cls = LABEL_CLASS[label] ?? 'exchange';
    const text = lines.map(escapeHtml).join('\n');
    const content =
      label === 'replay'
        ? `<div class="curl-box"><pre class="curl">${text}</pre></div>`
        : cls === 'exchange'
          ? `<pre class="message"><span class="start-line">${escapeHtml(lines[0] ?? '')}</span>${lines.length > 1 ? `\n${lines.slice(1).map(escapeHtml).join('\n')}` : ''}</pre>`
          : `<pre>${text}</pre>`;
    return `<dt>${escapeLine(label)}</dt><dd class="${cls}">${content}</dd>`;
  });
  return `<dl class="evidence">\n${rows.join('\n')}\n</dl>`;
}

function observations(list: string[]): string {
  if (list.length === 0) return '';
  return `<ul class="observations">${list.map((o) => `<li>${escapeHtml(o)}</li>`).join('')}</ul>`;
}

/** The defects a check saw that other checks own (one cause, one failure): never its failure. */
function alsoSeen(check: CheckResult): string {
  const seen = check.alsoSeen ?? [];
  if (seen.length === 0) return '';
  return `<ul class="also-seen">${seen.map((a) => `<li>${escapeHtml(alsoSeenLine(a))}</li>`).join('')}</ul>`;
}

function suiteTable(suite: string, checks: CheckResult[], time: SuiteTime | undefined): string {
  const count = (pred: (c: CheckResult) => boolean) => checks.filter(pred).length;
  const failed = count((c) => needsAttention(c));
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
  return `<h3 id="suite-${escapeLine(suite)}">${escapeLine(suite)} <span class="count">${summary}</span></h3>
<table>
<thead><tr><th>outcome</th><th>id</th><th>level</th><th>title</th><th>spec section</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`;
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
          ? observations(check.observations)
          : `<p class="note">nothing recorded${check.finding ? `: ${escapeHtml(check.finding.message)}` : ''}</p>`;
    return `<li><div><code class="check-id">${escapeLine(check.id)}</code> <span class="check-title">${escapeLine(check.title)}</span> <span class="section">${escapeLine(sectionsOf(check))}</span></div><blockquote>${check.requirements.map((r) => escapeHtml(requirementLine(r))).join('<br>')}</blockquote>${recorded}</li>`;
  });
  return `${intro}\n<ul class="choices">\n${items.join('\n')}\n</ul>`;
}

function footer(result: RunResult): string {
  return `<footer>
<p>SHA-256 of the JSON report of this run: <code class="digest">${jsonReportDigest(result)}</code></p>
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

const STYLE = `
:root { color-scheme: light; --fail: #b42318; --fail-bg: #fef3f2; --warn: #a15c07; --warn-bg: #fffaeb; --pass: #067647; --pass-bg: #ecfdf3;
  --error: #862e9c; --error-bg: #f8f0fc; --skip: #667085; --skip-bg: #f2f4f7; --line: #d0d5dd; --muted: #475467; --code-bg: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; color: #101828; background: #fff; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 28px 48px; }
code, pre { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: 13px; }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
h1 { margin: 0; font-size: 26px; }
h2 { font-size: 20px; margin: 36px 0 12px; padding-bottom: 6px; border-bottom: 2px solid #eaecf0; }
h3 { font-size: 16px; margin: 24px 0 8px; }
h4 { margin: 14px 0 6px; font-size: 13px; color: var(--muted); }
header { display: flex; justify-content: space-between; align-items: center; gap: 24px; flex-wrap: wrap; }
.subtitle { margin: 4px 0 0; color: var(--muted); }
.verdict-box { border-radius: 10px; padding: 10px 22px; text-align: center; border: 2px solid; }
.verdict-box.conformant { color: var(--pass); background: var(--pass-bg); }
.verdict-box.not-conformant { color: var(--fail); background: var(--fail-bg); }
.verdict-box.incomplete { color: var(--warn); background: var(--warn-bg); }
.verdict { margin: 0; font-size: 30px; font-weight: 800; letter-spacing: 0.06em; }
.verdict-line { font-weight: 700; } .verdict-line.conformant { color: var(--pass); } .verdict-line.not-conformant { color: var(--fail); } .verdict-line.incomplete { color: var(--warn); }
table.unexercised ul { margin: 0; padding-left: 18px; } table.unexercised td:nth-child(4) { min-width: 15em; }
.because { margin: 0; font-size: 13px; }
dl.summary { display: grid; grid-template-columns: max-content minmax(0, 1fr) max-content minmax(0, 1fr); gap: 4px 18px; margin: 20px 0 0; padding: 14px 18px; background: #f9fafb; border: 1px solid #eaecf0; border-radius: 8px; }
dl.summary dt { color: var(--muted); }
dl.summary dd { margin: 0; overflow-wrap: anywhere; }
@media (max-width: 760px) { dl.summary { grid-template-columns: max-content minmax(0, 1fr); } }
span.fail { color: var(--fail); font-weight: 600; } span.warn { color: var(--warn); font-weight: 600; } span.error { color: var(--error); font-weight: 600; }
span.pass { color: var(--pass); } span.skip, span.zero { color: var(--skip); }
.cleanup { margin-top: 20px; padding: 12px 18px; border: 2px solid var(--fail); background: var(--fail-bg); color: var(--fail); border-radius: 8px; }
.cleanup h2 { margin: 0 0 6px; border: 0; font-size: 17px; }
.setup-problems { margin-top: 20px; padding: 12px 18px; border: 2px solid #dc6803; background: var(--warn-bg); border-radius: 8px; }
.setup-problems h2 { margin: 0 0 6px; border: 0; font-size: 17px; color: var(--warn); }
.setup-problems ul { margin: 0; padding-left: 18px; } .setup-problems p { margin: 2px 0; } .setup-problems .fix { font-weight: 600; }
.pill { display: inline-block; min-width: 62px; text-align: center; padding: 1px 8px; border-radius: 999px; font-size: 12px; font-weight: 700; text-transform: uppercase; letter-spacing: 0.03em; }
.pill.pass { color: var(--pass); background: var(--pass-bg); } .pill.fail { color: #fff; background: var(--fail); }
.pill.warn { color: #fff; background: #dc6803; } .pill.error { color: #fff; background: var(--error); } .pill.skip { color: var(--skip); background: var(--skip-bg); }
.check-id { font-weight: 700; font-size: 14px; }
.level { font-size: 12px; font-weight: 700; color: var(--muted); border: 1px solid var(--line); border-radius: 4px; padding: 0 5px; }
.section { color: var(--muted); font-size: 13px; }
.section::before { content: "§ "; }
details.finding { border: 1px solid var(--line); border-left: 6px solid; border-radius: 8px; margin: 14px 0; padding: 0 16px 12px; background: #fff; }
details.finding.fail { border-left-color: var(--fail); } details.finding.warn { border-left-color: #dc6803; } details.finding.error { border-left-color: var(--error); }
details.finding > summary { cursor: pointer; padding: 12px 0 8px; list-style-position: outside; margin-left: 14px; }
details.finding.fail > summary { color: var(--fail); } details.finding.fail > summary .check-title { color: #101828; }
dl.evidence { display: grid; grid-template-columns: 86px 1fr; gap: 6px 12px; margin: 4px 0 0; }
dl.evidence dt { font: 600 12px/1.9 ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace; color: var(--muted); text-transform: uppercase; text-align: right; }
dl.evidence dd { margin: 0; min-width: 0; }
dd > pre, dd > .curl-box > pre { padding: 6px 10px; border-radius: 6px; background: var(--code-bg); border: 1px solid #eaecf0; }
dd.spec > pre { font-family: inherit; font-size: 14px; font-style: italic; background: #f5f8ff; border-color: #c7d7fe; border-left: 4px solid #444ce7; }
dd.expected > pre { background: var(--pass-bg); border-color: #abefc6; border-left: 4px solid var(--pass); }
dd.observed > pre { background: var(--fail-bg); border-color: #fecdca; border-left: 4px solid var(--fail); }
details.warn dd.observed > pre { background: var(--warn-bg); border-color: #fedf89; border-left-color: #dc6803; }
dd.seen-by > pre { color: var(--muted); font-style: italic; }
pre.message { max-height: 26em; overflow: auto; }
.start-line { font-weight: 700; }
.curl-box { position: relative; }
dd > .curl-box > pre.curl { background: #101828; color: #f2f4f7; border-color: #101828; user-select: all; padding-right: 70px; }
button.copy { position: absolute; top: 5px; right: 6px; font: 600 12px system-ui, sans-serif; padding: 2px 10px; border-radius: 5px; border: 1px solid #98a2b3; background: #fff; cursor: pointer; }
ul.observations { margin: 8px 0 0; padding-left: 20px; color: var(--muted); font-size: 13px; }
ul.also-seen { margin: 4px 0 0; padding-left: 20px; color: var(--muted); font-size: 13px; font-style: italic; }
details.more { margin-top: 10px; } details.more > summary { cursor: pointer; color: var(--muted); font-size: 13px; }
table { width: 100%; border-collapse: collapse; font-size: 14px; }
th { text-align: left; font-size: 12px; text-transform: uppercase; letter-spacing: 0.04em; color: var(--muted); border-bottom: 2px solid #eaecf0; padding: 6px 8px; }
td { border-bottom: 1px solid #eaecf0; padding: 6px 8px; vertical-align: top; }
td:nth-child(2) code { white-space: nowrap; }
tr.fail td { background: var(--fail-bg); } tr.warn td { background: var(--warn-bg); } tr.error td { background: var(--error-bg); }
tr.fail a, tr.error a { color: var(--fail); font-weight: 700; }
td ul.observations { margin-top: 2px; }
.note { color: var(--muted); font-size: 13px; margin: 2px 0 0; }
.count { font-weight: 400; font-size: 13px; color: var(--muted); margin-left: 8px; }
.intro, .none { color: var(--muted); }
.known { margin: .4rem 0; padding: .3rem .6rem; background: var(--warn-bg, #fffaeb); border-left: 4px solid var(--warn, #dc6803); }
ul.choices { list-style: none; padding: 0; }
ul.choices > li { border: 1px solid #eaecf0; border-left: 4px solid #444ce7; border-radius: 6px; padding: 10px 14px; margin: 10px 0; }
blockquote { margin: 6px 0; padding-left: 10px; border-left: 3px solid var(--line); color: var(--muted); font-style: italic; }
footer { margin-top: 40px; padding-top: 12px; border-top: 1px solid #eaecf0; color: var(--muted); font-size: 13px; }
.digest { font-size: 13px; color: #101828; background: var(--code-bg); padding: 1px 5px; border-radius: 4px; overflow-wrap: anywhere; }
@media print { details.more { display: none; } pre.message { max-height: none; } button.copy { display: none; } }
`;

const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
// Nothing but this page's own style and script may run or load: an escaping mistake could then not fetch or execute
// anything, and the file provably needs no network.
const CSP = `default-src 'none'; style-src ${hash(STYLE)}; script-src ${hash(SCRIPT)}; img-src data:; base-uri 'none'; form-action 'none'`;
