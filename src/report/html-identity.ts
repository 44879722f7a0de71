// The run's identity in the certification report: what a reviewer who did not see the run must know to sign for it:
// which server (target, base URL, the client and key it was tested as), with which tool, spec and catalog, and every
// option that changed what was tested. A report of a version before RunInfo.options says so rather than guess.
import type { RunInfo, RunOptionsInfo, RunResult } from '../engine/index.js';
import { formatBudget } from '../engine/budget.js';
import { concurrencyNote, formatDuration } from './exchange-text.js';
import { escapeLine } from './html-escape.js';
import { failOnText } from './verdict-text.js';

/** One row of the identity block: a label and its value, already HTML. */
type Row = [label: string, html: string];

const code = (text: string) => `<code>${escapeLine(text)}</code>`;
const digest = (hex: string) => `<code class="digest">${escapeLine(hex)}</code>`;

/** The identity block: the server, the tool and its data, then what the run was asked to do. */
export function identityBlock(result: RunResult, jsonDigest: string): string {
  const { run } = result;
  const rows: Row[] = [
    ['Target', escapeLine(run.target)],
    ['Base URL', code(run.baseUrl)],
    ['Client id', run.replay ? code(run.replay.clientId) : NOT_RECORDED],
    ['Key id', run.replay ? code(run.replay.keyId) : NOT_RECORDED],
    ...(run.replay?.signing
      ? ([
          [
            'Signed with',
            escapeLine(
              `${run.replay.signing.label}, ${run.replay.signing.components.join(' ')} and the headers each request carries, valid ${run.replay.signing.windowSeconds} s`,
            ),
          ],
        ] satisfies Row[])
      : []),
    ['Date', escapeLine(displayDate(run.startedAt))],
    ['Duration', escapeLine(`${formatDuration(run.durationMs)}${concurrencyNote(run.concurrency)}`)],
    ['Tool', escapeLine(`conformance ${run.suiteVersion}`)],
    ['Spec version', escapeLine(run.specVersion)],
    ['Catalog SHA-256', run.catalogSha256 !== undefined ? digest(run.catalogSha256) : NOT_RECORDED],
    ['JSON report SHA-256', digest(jsonDigest)],
  ];
  return `<dl class="identity">
${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('\n')}
</dl>
<h3>What the run was asked to test</h3>
<dl class="identity options">
${optionRows(run)
  .map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`)
  .join('\n')}
</dl>`;
}

const NOT_RECORDED = '<span class="note">not recorded (a report of a version before it)</span>';

/** Each option that changed what was tested, with its value; defaults are shown too, as what a reviewer signs for. */
function optionRows(run: RunInfo): Row[] {
  const o: RunOptionsInfo | undefined = run.options;
  const asked = [...selectionRows(run, o), ...judgedRows(o, run)];
  if (!o) return [...asked, ['Other options', NOT_RECORDED]];
  // `conformance client` sends nothing of its own: the server's limits and flags did not shape what it judged.
  if (o.client)
    return [
      ...asked,
      budgetRow(o),
      ['Client command', code(o.client.command.join(' '))],
      ['Scenarios', escapeLine(o.client.scenarios.join(', '))],
    ];
  return [...asked, ...SERVER_RUN_ROWS.map((row) => row(o, run)).filter((row): row is Row => row !== undefined)];
}

/** Which checks ran: the suites, --grep, and --rerun-failed or the ids a caller gave. */
function selectionRows(run: RunInfo, o: RunOptionsInfo | undefined): Row[] {
  const suites: Row = [
    'Suites',
    escapeLine(
      o?.suites !== undefined ? `${o.suites.join(', ')} (--suite)` : `all: ${run.selection.suites.join(', ')}`,
    ),
  ];
  const grep: Row[] = run.selection.grep !== undefined ? [['--grep', code(run.selection.grep)]] : [];
  const ids: Row[] = o?.rerunFailed
    ? [
        [
          '--rerun-failed',
          `${code(o.rerunFailed.report)} (SHA-256 ${digest(o.rerunFailed.sha256)}): ${escapeLine(`${run.selection.ids?.length ?? 0} checks`)}`,
        ],
      ]
    : run.selection.ids !== undefined
      ? [['Checks', escapeLine(`only ${run.selection.ids.join(', ')}`)]]
      : [];
  return [suites, ...grep, ...ids];
}

/** How the results were judged: --fail-on and the expected failures. */
function judgedRows(o: RunOptionsInfo | undefined, run: RunInfo): Row[] {
  const expected = o?.expectedFailures
    ? `${o.expectedFailures.file !== undefined ? code(o.expectedFailures.file) : 'given by the library caller'}${o.expectedFailures.sha256 !== undefined ? ` (SHA-256 ${digest(o.expectedFailures.sha256)})` : ''}: ${escapeLine(`${o.expectedFailures.entries} entr${o.expectedFailures.entries === 1 ? 'y' : 'ies'}`)}`
    : o
      ? 'none'
      : NOT_RECORDED;
  return [
    ['--fail-on', escapeLine(failOnText(run))],
    ['--expected-failures', expected],
  ];
}

function budgetRow(o: RunOptionsInfo): Row {
  return ['--budget', escapeLine(`${formatBudget(o.budgetMs)} for the run`)];
}

const yesNo = (on: boolean, yes: string, no: string) => escapeLine(on ? `yes: ${yes}` : `no: ${no}`);

/** The rows of a run against a server, in the order they are shown; a row that does not apply gives undefined. */
const SERVER_RUN_ROWS: Array<(o: RunOptionsInfo, run: RunInfo) => Row | undefined> = [
  (o) => [
    '--long',
    yesNo(
      o.long,
      'the checks that take long (token expiry after 60 minutes) ran',
      'the checks that take long (token expiry after 60 minutes) did not run',
    ),
  ],
  (o) => [
    '--allow-mutations',
    yesNo(
      o.allowMutations,
      'the USSD crawler could follow links that place or cancel an order',
      'the USSD crawler did not follow links that place or cancel an order',
    ),
  ],
  (o) => ['--timeout', escapeLine(`${formatDuration(o.requestTimeoutMs)} per request`)],
  (o) => ['--max-body', escapeLine(`${formatBytes(o.maxBodyBytes)} per response`)],
  budgetRow,
  (_o, run) => (run.concurrency !== undefined ? ['--concurrency', escapeLine(String(run.concurrency))] : undefined),
  (o) =>
    o.ussd
      ? [
          'USSD crawl',
          escapeLine(
            [
              ...(o.ussd.maxViews !== undefined ? [`--ussd-max-views ${o.ussd.maxViews}`] : []),
              ...(o.ussd.maxDepth !== undefined ? [`--ussd-max-depth ${o.ussd.maxDepth}`] : []),
            ].join(', '),
          ),
        ]
      : undefined,
  (o) => (o.local ? ['Reference server', localText(o.local)] : undefined),
];

/** The built-in server as tested: its variant, the choices given, its faults (a run meant to fail names them here). */
function localText(local: NonNullable<RunOptionsInfo['local']>): string {
  const choices = Object.entries(local.choices).map(([k, v]) => `${k}=${v}`);
  return [
    `variant ${code(local.variant ?? 'strict')}`,
    `choices ${choices.length > 0 ? choices.map(code).join(', ') : 'the variant’s'}`,
    `faults ${local.faults.length > 0 ? local.faults.map(code).join(', ') : 'none'}`,
  ].join('; ');
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

export function displayDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
