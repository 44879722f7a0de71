// The machine-readable report: the RunResult as it is, under a format name and version. Fields are copied one by one
// so the file keeps the documented shape (schemas/report.schema.json, docs/json-report.md) even if the runner's
// objects grow fields of their own.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Exchange, RecordedMessage } from '../http/exchange.js';
import type { CheckResult, RunInfo, RunOptionsInfo, RunResult, Totals, Verdict } from '../engine/index.js';
import type { Reporter } from '../engine/index.js';

export const JSON_REPORT_FORMAT = 'conformance-report';
/** Bumped on any change a reader could trip over (a field removed, renamed or retyped); new optional fields do not bump it. */
export const JSON_REPORT_FORMAT_VERSION = 2;

export interface JsonReport {
  format: typeof JSON_REPORT_FORMAT;
  formatVersion: typeof JSON_REPORT_FORMAT_VERSION;
  run: RunInfo;
  totals: Totals;
  verdict: Verdict;
  checks: CheckResult[];
  sessionExchanges: Exchange[];
  exitCode: RunResult['exitCode'];
}

/** A JSON report read back from a file, of any format version: only what every version has is typed. */
export interface ReadReport {
  format: typeof JSON_REPORT_FORMAT;
  formatVersion?: unknown;
  run?: unknown;
  checks: Array<{ id: string; outcome: string }>;
}

/** TEXT as a conformance JSON report, or undefined when it is none (not JSON, another format, checks without id or outcome). */
export function readJsonReport(text: string): ReadReport | undefined {
  let doc: { format?: unknown; checks?: unknown } | null;
  try {
    doc = JSON.parse(text) as typeof doc;
  } catch {
    return undefined;
  }
  const checks = doc?.checks;
  if (
    doc?.format !== JSON_REPORT_FORMAT ||
    !Array.isArray(checks) ||
    !checks.every((c) => typeof c?.id === 'string' && typeof c?.outcome === 'string')
  )
    return undefined;
  return doc as ReadReport;
}

export class JsonReporter implements Reporter {
  readonly name: string;

  constructor(private readonly filePath: string) {
    this.name = `JSON report ${filePath}`;
  }

  async onRunEnd(result: RunResult): Promise<void> {
    await mkdir(dirname(this.filePath), { recursive: true });
    await writeFile(this.filePath, jsonReportText(result), 'utf8');
  }
}

/**
 * The JSON report exactly as written: the HTML report's footer digest and the evidence manifest hash these bytes.
 * Written compact, one line: indentation was a third of a full run's 2.3 MB, and the file is read by programs (`jq .`
 * indents it for a person). Whitespace is no change of shape: the format version stays (bench/RESULTS.md, sizes).
 */
export function jsonReportText(result: RunResult): string {
  return `${JSON.stringify(toJsonReport(result))}\n`;
}

export function toJsonReport(result: RunResult): JsonReport {
  return {
    format: JSON_REPORT_FORMAT,
    formatVersion: JSON_REPORT_FORMAT_VERSION,
    run: runInfo(result.run),
    totals: pick(result.totals, ['passed', 'failed', 'warned', 'skipped', 'errored', 'total']),
    verdict: verdict(result.verdict),
    checks: result.checks.map(checkResult),
    sessionExchanges: result.sessionExchanges.map(exchange),
    exitCode: result.exitCode,
  };
}

function runInfo(run: RunInfo): RunInfo {
  return {
    ...pick(run, [
      'target',
      'baseUrl',
      'suiteVersion',
      'specVersion',
      'startedAt',
      'finishedAt',
      'durationMs',
      'failOn',
      'failOnIncomplete',
      'concurrency',
    ]),
    ...(run.suites ? { suites: run.suites.map((t) => pick(t, ['suite', 'checks', 'wallMs', 'checkMs'])) } : {}),
    selection: {
      suites: [...run.selection.suites],
      ...(run.selection.grep !== undefined ? { grep: run.selection.grep } : {}),
      ...(run.selection.ids !== undefined ? { ids: [...run.selection.ids] } : {}),
    },
    ...(run.cleanup ? { cleanup: [...run.cleanup] } : {}),
    ...(run.interrupted
      ? {
          interrupted: {
            ...(run.interrupted.signal !== undefined ? { signal: run.interrupted.signal } : {}),
            putBack: [...run.interrupted.putBack],
            notPutBack: [...run.interrupted.notPutBack],
          },
        }
      : {}),
    ...(run.setupProblems
      ? {
          setupProblems: run.setupProblems.map((p) => ({
            ...pick(p, ['suite', 'problem', 'fix']),
            checks: [...p.checks],
          })),
        }
      : {}),
    // What the run met that no check owns (choices, token renewals): the schema has it, and matrices read it here.
    ...(run.notes ? { notes: [...run.notes] } : {}),
    ...(run.catalogSha256 !== undefined ? { catalogSha256: run.catalogSha256 } : {}),
    ...(run.options ? { options: runOptions(run.options) } : {}),
    // What `conformance replay` and the replay lines need to aim at the run's target again.
    ...(run.replay
      ? {
          replay: {
            targetArgs: [...run.replay.targetArgs],
            clientId: run.replay.clientId,
            keyId: run.replay.keyId,
            ...(run.replay.signing
              ? { signing: { ...run.replay.signing, components: [...run.replay.signing.components] } }
              : {}),
          },
        }
      : {}),
  };
}

function runOptions(o: RunOptionsInfo): RunOptionsInfo {
  return {
    ...pick(o, ['long', 'allowMutations', 'requestTimeoutMs', 'maxBodyBytes', 'budgetMs']),
    ...(o.suites ? { suites: [...o.suites] } : {}),
    ...(o.expectedFailures ? { expectedFailures: pick(o.expectedFailures, ['file', 'sha256', 'entries']) } : {}),
    ...(o.rerunFailed ? { rerunFailed: pick(o.rerunFailed, ['report', 'sha256']) } : {}),
    ...(o.ussd ? { ussd: pick(o.ussd, ['maxViews', 'maxDepth']) } : {}),
    ...(o.local
      ? {
          local: {
            ...pick(o.local, ['variant']),
            choices: { ...o.local.choices },
            faults: [...o.local.faults],
          },
        }
      : {}),
    ...(o.client ? { client: { command: [...o.client.command], scenarios: [...o.client.scenarios] } } : {}),
  };
}

function checkResult(check: CheckResult): CheckResult {
  return {
    ...pick(check, ['id', 'title', 'suite', 'level', 'outcome', 'startMs', 'durationMs', 'failsRun']),
    requirements: check.requirements.map((r) => pick(r, ['id', 'level', 'section', 'quote', 'note'])),
    ...(check.note !== undefined ? { note: check.note } : {}),
    ...(check.finding
      ? {
          finding: pick(check.finding, [
            'message',
            'expected',
            'observed',
            'exchangeSeq',
            'cleanup',
            'requirements',
            'code',
            'cause',
          ]),
        }
      : {}),
    ...(check.skipReason !== undefined ? { skipReason: check.skipReason } : {}),
    ...(check.skipRemedy !== undefined ? { skipRemedy: { ...check.skipRemedy } } : {}),
    ...(check.budgetSpent !== undefined ? { budgetSpent: check.budgetSpent } : {}),
    ...(check.judged !== undefined ? { judged: { count: check.judged.count, names: [...check.judged.names] } } : {}),
    observations: [...check.observations],
    ...(check.alsoSeen !== undefined
      ? { alsoSeen: check.alsoSeen.map((a) => pick(a, ['requirements', 'ownedBy', 'message', 'exchangeSeq'])) }
      : {}),
    ...(check.expected ? { expected: pick(check.expected, ['reason', 'expires', 'status']) } : {}),
    ...(check.sharedExchanges !== undefined
      ? { sharedExchanges: check.sharedExchanges.map((s) => pick(s, ['seq', 'sentBy'])) }
      : {}),
    exchanges: check.exchanges.map(exchange),
  };
}

function verdict(v: Verdict): Verdict {
  return {
    ...pick(v, ['status', 'mustRequirements', 'exercised']),
    failed: [...v.failed],
    failedChecks: [...v.failedChecks],
    notExercised: v.notExercised.map((r) => ({
      ...pick(r, ['id', 'section', 'quote']),
      checks: r.checks.map((c) => pick(c, ['id', 'outcome', 'reason', 'remedy'])),
      remedy: r.remedy,
    })),
    outOfReach: v.outOfReach,
    ...(v.outOfReachRequirements
      ? { outOfReachRequirements: v.outOfReachRequirements.map((r) => pick(r, ['id', 'section', 'quote', 'why'])) }
      : {}),
  };
}

function exchange(ex: Exchange): Exchange {
  return {
    ...pick(ex, ['seq', 'checkId', 'startedAt', 'durationMs']),
    request: { ...pick(ex.request, ['method', 'url']), ...body(ex.request) },
    ...(ex.response ? { response: { status: ex.response.status, ...body(ex.response) } } : {}),
    ...(ex.error !== undefined ? { error: ex.error } : {}),
  };
}

function body(m: RecordedMessage): RecordedMessage {
  return {
    headers: m.headers.map(([name, value]) => [name, value] as [string, string]),
    ...pick(m, ['bodyExcerpt', 'bodySize', 'bodyTruncated']),
  };
}

/** The listed fields that are present (undefined ones are left out, as JSON would). */
function pick<T extends object, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) if (from[key] !== undefined) out[key] = from[key];
  return out;
}
