// `conformance replay REPORT.json CHECK_ID`: runs one check of an earlier run again and says what changed, like
// Schemathesis' `st replay`. The check itself runs again (the same code `run` runs, for that one id): its requests go
// anew with a fresh token and fresh signatures, and the changes a negative check makes on purpose (an expired or
// foreign signature, a dropped header, a body altered after signing) are made again. Sending the recorded requests as
// they were is not possible: their signatures expired a minute or so after the run, its tokens were revoked at its end,
// and the report masks both. Each new exchange is paired with the report's by its order and its status compared; the
// last line says FIXED, STILL FAILING or CHANGED.
import { run, type RunOptions } from '../api.js';
import { localOptionsOf, splitList } from './local-options.js';
import { ConfigError } from '../errors.js';
import { readOptionFile } from '../option-file.js';
import { JSON_REPORT_FORMAT, readJsonReport } from '../report/json.js';
import { visibleLine } from '../report/visible.js';
import { closestIds } from '../suggest.js';
import { pathAndQuery } from '../http/message.js';
import { suites } from '../../suites/index.js';
import { ChoiceError, parseChoice, VARIANT_NAMES, type Choices, type VariantName } from '../reference/choices/index.js';
import type { CheckResult, Outcome, RunResult } from '../engine/index.js';
import type { Exchange } from '../http/exchange.js';

export interface ReplayCommandOptions {
  target?: string;
  config?: string;
  variant?: VariantName;
  choice?: Partial<Choices>;
  fault?: string;
  long: boolean;
  allowMutations: boolean;
  timeout: number;
}

interface Output {
  write(text: string): unknown;
}

/** What a report holds of the run and of the check (the JSON report's shape, read defensively). */
interface ReportedRun {
  target: string;
  replay?: { targetArgs?: unknown };
}

type ReportedCheck = Pick<CheckResult, 'id' | 'outcome'> & Partial<Pick<CheckResult, 'finding' | 'exchanges'>>;

/** The verdict of a replay, and the exit code it ends in. */
export type ReplayVerdict = 'FIXED' | 'STILL FAILING' | 'STILL PASSING' | 'CHANGED';

/** Returns the exit code: 0 when the check passes now, 1 when it does not. */
export async function replayCommand(
  reportFile: string,
  checkId: string,
  opts: ReplayCommandOptions,
  io: { out: Output; err: Output; cwd?: string } = { out: process.stdout, err: process.stderr },
): Promise<number> {
  const cwd = io.cwd ?? process.cwd();
  const { resolved, run: reported, check: before } = await readReport(reportFile, checkId, cwd);
  const known = suites.flatMap((s) => s.checks.map((c) => c.id));
  if (!known.includes(checkId))
    throw new ConfigError(
      `${checkId}: this version of conformance has no such check (the report is of another version?); 'conformance list' lists them`,
      'CONFORMANCE_ERR_USAGE',
    );
  const aim = targetOf(opts, reported);
  const result = await run({
    ...aim,
    cwd,
    checkIds: [checkId],
    long: opts.long,
    allowMutations: opts.allowMutations,
    requestTimeoutMs: opts.timeout,
    onWarning: (line) => io.err.write(`conformance: ${line}\n`),
  });
  const after = result.checks.find((c) => c.id === checkId)!;
  io.out.write(`${replayText(resolved, before, after, result, aim.target ?? 'local').join('\n')}\n`);
  return after.outcome === 'pass' ? 0 : 1;
}

async function readReport(
  file: string,
  checkId: string,
  cwd: string,
): Promise<{ resolved: string; run: ReportedRun; check: ReportedCheck }> {
  const { resolved, text } = await readOptionFile(
    'replay',
    file,
    cwd,
    'give the JSON report of an earlier run (conformance run --json FILE)',
  );
  const report = readJsonReport(text);
  const runInfo = report?.run as ReportedRun | undefined;
  if (!report || typeof runInfo?.target !== 'string')
    throw new ConfigError(
      `replay: ${resolved} is not a conformance JSON report (format "${JSON_REPORT_FORMAT}"): give the file an earlier run wrote with --json FILE`,
      'CONFORMANCE_ERR_RERUN_REPORT',
    );
  const checks = report.checks as ReportedCheck[];
  const ids = checks.map((c) => c.id);
  const check = checks.find((c) => c.id === checkId);
  if (!check) {
    const near = closestIds(checkId, ids);
    throw new ConfigError(
      `replay: ${resolved} has no check "${checkId}"${near.length > 0 ? ` (did you mean ${near.join(', ')}?)` : ''}; it holds the ${ids.length} check(s) its run selected`,
      'CONFORMANCE_ERR_USAGE',
    );
  }
  return { resolved, run: runInfo, check };
}

type Aim = Pick<RunOptions, 'target' | 'config' | 'local'>;

/**
 * The target: the one given on the command line, else the report's own (its recorded --target, --config and, for the
 * built-in server, its variant, choices and faults), so that a replay meets the server the run met.
 */
export function targetOf(opts: ReplayCommandOptions, reported: ReportedRun): Aim {
  const given =
    opts.target !== undefined ||
    opts.config !== undefined ||
    opts.variant !== undefined ||
    opts.fault !== undefined ||
    Object.keys(opts.choice ?? {}).length > 0;
  if (given) return aim(opts.target ?? 'local', opts.config, localOptionsOf(opts));
  const args = reported.replay?.targetArgs;
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) return { target: reported.target };
  return fromArgs(args as string[]);
}

/** The recorded arguments (`--target local --fault a,b`) read back; anything else there makes the report unusable. */
function fromArgs(args: string[]): Aim {
  let target: string | undefined;
  let config: string | undefined;
  let variant: VariantName | undefined;
  let choices: Partial<Choices> = {};
  let faults: string[] = [];
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i], args[i + 1]];
    const bad = () =>
      new ConfigError(
        `replay: the report's run.replay.targetArgs cannot be read (${JSON.stringify(args)}); give the target with --target`,
        'CONFORMANCE_ERR_RERUN_REPORT',
      );
    if (value === undefined) throw bad();
    if (flag === '--target') target = value;
    else if (flag === '--config') config = value;
    else if (flag === '--variant' && (VARIANT_NAMES as string[]).includes(value)) variant = value as VariantName;
    else if (flag === '--fault') faults = [...faults, ...splitList(value)];
    else if (flag === '--choice') {
      try {
        choices = { ...choices, ...parseChoice(value) };
      } catch (e) {
        if (e instanceof ChoiceError) throw bad();
        throw e;
      }
    } else throw bad();
  }
  return aim(target ?? 'local', config, {
    ...(variant ? { variant } : {}),
    ...(Object.keys(choices).length > 0 ? { choices } : {}),
    ...(faults.length > 0 ? { faults } : {}),
  });
}

function aim(target: string, config: string | undefined, local: NonNullable<Aim['local']>): Aim {
  return { target, ...(config !== undefined ? { config } : {}), ...(Object.keys(local).length > 0 ? { local } : {}) };
}

/** FIXED: passes now, did not then. STILL FAILING: fails (or warns) now as then. CHANGED: anything else. */
export function replayVerdict(before: Outcome, after: Outcome): ReplayVerdict {
  const failing = (o: Outcome) => o === 'fail' || o === 'warn';
  if (after === 'pass') return before === 'pass' ? 'STILL PASSING' : 'FIXED';
  if (failing(after) && failing(before)) return 'STILL FAILING';
  return 'CHANGED';
}

function replayText(
  file: string,
  before: ReportedCheck,
  after: CheckResult,
  result: RunResult,
  target: string,
): string[] {
  const where = result.run.notes?.find((n) => n.startsWith('target: '))?.slice('target: '.length);
  const lines = [
    `replay ${after.id} (${before.outcome} in ${file})`,
    `against ${visibleLine(target)}${where ? `: ${visibleLine(where)}, started for this replay only` : ` (${visibleLine(result.run.baseUrl)})`}`,
    'The check ran again: its requests went anew, with a fresh token and fresh signatures, and the changes it makes on',
    'purpose (an expired or foreign signature, a dropped header, a body altered after signing) were made again. None is',
    'sent as recorded: its signature has expired and its token was revoked. Each exchange against the report’s, in order:',
    ...exchangeLines(before.exchanges ?? [], after.exchanges),
  ];
  const verdict = replayVerdict(before.outcome, after.outcome);
  const now = after.outcome === 'skip' ? `skipped (${after.skipReason ?? 'no reason given'})` : after.outcome;
  const why = after.finding?.message ? `: ${after.finding.message}` : '';
  const said: Record<ReplayVerdict, string> = {
    FIXED: `it passes now (it was ${before.outcome})`,
    'STILL FAILING': `${after.outcome === 'fail' ? 'it fails again' : 'it warns again'}${why}`,
    'STILL PASSING': 'it passes, as in the report',
    CHANGED: `it was ${before.outcome}, it is ${now} now${why}`,
  };
  lines.push(`${verdict}: ${visibleLine(said[verdict])}`);
  return lines;
}

function exchangeLines(before: readonly Exchange[], after: readonly Exchange[]): string[] {
  const lines: string[] = [];
  const count = Math.max(before.length, after.length);
  if (count === 0) lines.push('  (no exchange, then or now)');
  for (let i = 0; i < count; i++) {
    const then = before[i];
    const now = after[i];
    const request = (e: Exchange) => `${e.request.method} ${visibleLine(pathAndQuery(e.request.url))}`;
    if (then && now) {
      const same = answer(then) === answer(now);
      const other = request(then) === request(now) ? '' : ` (the report's was ${request(then)})`;
      lines.push(
        `  #${i + 1} ${request(now)}${other}: ${answer(then)} in the report, ${answer(now)} now — ${same ? 'unchanged' : 'CHANGED'}`,
      );
    } else if (now) lines.push(`  #${i + 1} ${request(now)}: not in the report, ${answer(now)} now`);
    else if (then) lines.push(`  #${i + 1} ${request(then)}: ${answer(then)} in the report, not sent now`);
  }
  return lines;
}

function answer(e: Exchange): string {
  return e.response ? String(e.response.status) : `no answer (${visibleLine(e.error ?? 'none recorded')})`;
}
