// The library entry point behind `conformance run`: resolve the target, run the selected suites, write the reports.
import { loadConfig, selectTarget, BUILTIN_TARGET } from './config/load.js';
import type { LoadedConfig, ResolvedTarget } from './config/types.js';
import {
  clientFor,
  loadExpectedFailures,
  runChecks,
  selectChecks,
  type RunSession,
  type Selection,
  type ExpectedFailure,
  type RunResult,
  type RunOptionsInfo,
  type RunSettings,
} from './engine/index.js';
import { fileSha256 } from './hash.js';
import { startLocalCertificate } from './targets/local-webhook.js';
import { prepareReports, type ReportOptions } from './reports.js';
import { choiceName, type Choices, type VariantName } from './reference/choices/index.js';
import { ConfigError, RestoreFailed } from './errors.js';
import { fileJournal, memoryJournal, type Replayed, type RunJournal } from './journal/journal.js';
import { dirname, join, resolve } from 'node:path';
import { NothingToRerun, rerunSelection } from './report/rerun.js';
import { pack } from '../suites/index.js';
import type { RequestSpec, SignedClient } from './http/client.js';

/** The settings the engine takes as they are: one name, one type, one meaning from the CLI to the engine. */
type PassedThrough = Pick<
  RunSettings,
  | 'failOn'
  | 'failOnIncomplete'
  | 'checkTimeoutMs'
  | 'requestTimeoutMs'
  | 'maxBodyBytes'
  | 'budgetMs'
  | 'concurrency'
  | 'signal'
  | 'interruptGraceMs'
>;
const PASSED_THROUGH = [
  'failOn',
  'failOnIncomplete',
  'checkTimeoutMs',
  'requestTimeoutMs',
  'maxBodyBytes',
  'budgetMs',
  'concurrency',
  'signal',
  'interruptGraceMs',
] as const satisfies ReadonlyArray<keyof PassedThrough>;

export interface RunOptions extends PassedThrough, ReportOptions {
  /** A loaded config, or the path of a config file; by default conformance.config.json in `cwd` when present. */
  config?: LoadedConfig | string;
  cwd?: string;
  /** Target name; `local` (the embedded reference server) when absent. */
  target?: string;
  suites?: string[];
  grep?: string;
  long?: boolean;
  /** Let the USSD crawler follow order (amount) and cancel (cancelMode=true) links. */
  allowMutations?: boolean;
  /** Caps of the USSD crawl (the ussd suite's settings maxViews and maxDepth; defaults in suites/ussd/helpers/shared-crawl.ts). */
  ussdMaxViews?: number;
  ussdMaxDepth?: number;
  /** For the built-in target only: how the embedded reference server makes the spec's open choices, and which faults it has. */
  local?: { variant?: VariantName; choices?: Partial<Choices>; faults?: readonly string[] };
  /** Known deviations: the path of a JSON file (schemas/expected-failures.schema.json, relative to cwd), or the entries. */
  expectedFailures?: string | readonly ExpectedFailure[];
  /** Run only the checks that failed, warned or errored in this JSON report of an earlier run (relative to cwd). */
  rerunFailed?: string;
  /** Run only these check ids (with suites and grep, a check must match all). */
  checkIds?: string[];
  /**
   * Told of what the user should know but that does not stop the run (checks of a rerun report that no longer exist;
   * what the restore journal put back that a killed run had left). On stderr by default.
   */
  onWarning?: (line: string) => void;
  /**
   * The folder of the target's restore journal (src/journal/journal.ts), or false for none on disk. By default
   * `.conformance/restore/<target>/` in the config file's folder (journalFolder); none for the built-in `local`, whose
   * server ends with the run.
   */
  journal?: string | false;
  /** Hears the run's journal once the run has one: what it changed and has not put back yet (the CLI's last words). */
  onJournal?: (journal: RunJournal) => void;
}

export async function run(options: RunOptions = {}): Promise<RunResult> {
  const reports = await prepareReports(options);
  // Files the selection depends on are read first too: a typo in them is a usage error before any request.
  const knownIds = pack.suites.flatMap((s) => s.checks.map((c) => c.id));
  const expectedFailures =
    typeof options.expectedFailures === 'string'
      ? await loadExpectedFailures(options.expectedFailures, knownIds, options.cwd)
      : options.expectedFailures;
  let ids = options.checkIds;
  if (options.rerunFailed !== undefined) {
    const selection = await rerunSelection(options.rerunFailed, knownIds, {
      ...(options.cwd ? { cwd: options.cwd } : {}),
      ...(ids ? { within: ids } : {}),
    });
    if (selection.gone.length > 0)
      (options.onWarning ?? warnOnStderr)(
        `--rerun-failed: ${selection.gone.length} check(s) of the report no longer exist in this version and are left out: ${selection.gone.join(', ')}`,
      );
    if (selection.ids.length === 0) throw new NothingToRerun(options.rerunFailed);
    ids = selection.ids;
  }

  const recordedOptions = {
    ...(options.suites !== undefined ? { suites: [...options.suites] } : {}),
    ...(expectedFailures !== undefined
      ? {
          expectedFailures: {
            ...(typeof options.expectedFailures === 'string'
              ? { file: options.expectedFailures, sha256: await fileSha256(options.expectedFailures, options.cwd) }
              : {}),
            entries: expectedFailures.length,
          },
        }
      : {}),
    ...(options.rerunFailed !== undefined
      ? { rerunFailed: { report: options.rerunFailed, sha256: await fileSha256(options.rerunFailed, options.cwd) } }
      : {}),
    ...(options.ussdMaxViews !== undefined || options.ussdMaxDepth !== undefined
      ? {
          ussd: {
            ...(options.ussdMaxViews !== undefined ? { maxViews: options.ussdMaxViews } : {}),
            ...(options.ussdMaxDepth !== undefined ? { maxDepth: options.ussdMaxDepth } : {}),
          },
        }
      : {}),
  };

  const selection = { suites: options.suites, grep: options.grep, ...(ids ? { ids } : {}) };
  const { target, stop, local, targetArgs, journalFolder: folder } = await resolveTarget(options, selection);
  const notes = local !== undefined ? [`target: ${local}`] : [];
  const journal = journalOf(options, target, folder);
  options.onJournal?.(journal);
  try {
    const ussd = {
      ...(options.ussdMaxViews !== undefined ? { maxViews: options.ussdMaxViews } : {}),
      ...(options.ussdMaxDepth !== undefined ? { maxDepth: options.ussdMaxDepth } : {}),
    };
    return await runChecks({
      ...passedThrough(options),
      target,
      pack,
      selection,
      reporter: reports.reporter({ keyId: target.keyId, privateKey: target.privateKey }),
      flags: { long: options.long ?? false, allowMutations: options.allowMutations ?? false },
      suiteOptions: { ussd },
      ...(expectedFailures ? { expectedFailures } : {}),
      notes,
      targetArgs,
      journal,
      recordedOptions: {
        ...recordedOptions,
        ...(local !== undefined ? { local: localRecord(options.local) } : {}),
      },
    });
  } finally {
    await stop?.();
  }
}

/** The run's restore journal: on disk in the target's folder, or in memory (the built-in target, `journal: false`). */
function journalOf(
  options: Pick<RunOptions, 'journal' | 'onWarning'>,
  target: ResolvedTarget,
  folder?: string,
): RunJournal {
  const where = options.journal === false ? undefined : (options.journal ?? folder);
  if (where === undefined) return memoryJournal();
  return fileJournal(
    where,
    { target: target.name, baseUrl: target.baseUrl, clientId: target.clientId },
    options.onWarning ?? warnOnStderr,
  );
}

/**
 * Where a target's restore journal lives: `.conformance/restore/<target>/` in the folder of the config file that
 * defines it (the current folder when the config has no file). The target's name is escaped for a file name.
 */
function journalFolder(config: Pick<LoadedConfig, 'path'>, targetName: string, cwd?: string): string {
  const base = config.path !== undefined ? dirname(config.path) : resolve(cwd ?? '.');
  const name = encodeURIComponent(targetName).replace(/^\.+/, (dots) => '%2E'.repeat(dots.length));
  return join(base, '.conformance', 'restore', name);
}

/** The error a restore that could not put everything back ends in: one line, each failure with the request by hand. */
export function restoreFailure(r: RestoreResult): RestoreFailed {
  return new RestoreFailed(
    r.failed
      .map(
        (f) =>
          `restore: ${f.what} could not be put back (${f.problem}); restore it by hand: ${f.byHand}; the journal (${r.folder}) keeps it for the next try`,
      )
      .join('; '),
  );
}

/** What `restore` did: what it put back, what it could not (each with the request by hand), files of live runs. */
export interface RestoreResult extends Replayed {
  target: string;
  /** The journal's folder; undefined for the built-in target, which keeps nothing between runs. */
  folder: string | undefined;
}

/**
 * `conformance restore`: puts back what runs against the target left in its restore journal (killed before their
 * restores), and nothing else. No request is sent when nothing is left. What could not be put back is in `failed`
 * (the journal keeps it); the CLI ends that with restoreFailure (exit 3).
 */
export async function restore(
  options: TargetSelection & Pick<RunOptions, 'requestTimeoutMs' | 'maxBodyBytes' | 'journal'> = {},
): Promise<RestoreResult> {
  if ((options.target ?? BUILTIN_TARGET) === BUILTIN_TARGET)
    return { target: BUILTIN_TARGET, folder: undefined, putBack: [], failed: [], busy: [] };
  const opened = await openTarget(options);
  try {
    const { target } = opened;
    const folder = options.journal === false ? undefined : (options.journal ?? opened.journalFolder);
    if (folder === undefined) return { target: target.name, folder, putBack: [], failed: [], busy: [] };
    const journal = fileJournal(folder, { target: target.name, baseUrl: target.baseUrl, clientId: target.clientId });
    let sessionOpen = false;
    const send: Parameters<NonNullable<typeof pack.putBack>>[1]['send'] = async (spec) => {
      if (!sessionOpen) {
        await opened.session.open();
        sessionOpen = true;
      }
      return opened.session.withToken(
        (token) => opened.client.send({ ...spec, token }, () => undefined),
        () => undefined,
      );
    };
    try {
      // As another client of the config (the webhook client): the request as given, its own token and key.
      const sendBare = (spec: RequestSpec) => opened.client.send(spec, () => undefined);
      const replayed = await journal.replay((entry) =>
        pack.putBack!(entry, { send, journal, config: target, sendBare }),
      );
      return { target: target.name, folder, ...replayed };
    } finally {
      if (sessionOpen) await opened.session.close().catch(() => undefined);
    }
  } finally {
    await opened.close();
  }
}

/** Which target a command aims at: a name of the config file, or the built-in `local` with its server's settings. */
export type TargetSelection = Pick<RunOptions, 'target' | 'config' | 'cwd' | 'local'>;

interface Resolved {
  target: ResolvedTarget;
  /** Stops the embedded server (the built-in target only). */
  stop?: () => Promise<void>;
  /** The built-in target only: what its server is (variant, choices that differ from the defaults, faults). */
  local?: string;
  /** The command-line arguments that aim a command at this target again (RunInfo.replay). */
  targetArgs: string[];
  /** Where the target's restore journal lives (journalFolder); undefined for the built-in target. */
  journalFolder?: string;
}

/** Whether a check of a suite that starts the webhook receiver is selected (a selection that fails is the run's to report). */
function startsReceiver(selection: Selection): boolean {
  const receiverSuites = new Set(pack.suites.filter((s) => s.receiver).map((s) => s.name));
  try {
    return selectChecks(pack.suites, selection).some((c) => receiverSuites.has(c.suite));
  } catch {
    return true;
  }
}

/** `selection`: the checks a run selects; none for a command that starts no receiver (see startsReceiver). */
async function resolveTarget(options: TargetSelection, selection?: Selection): Promise<Resolved> {
  const name = options.target ?? BUILTIN_TARGET;
  if (name === BUILTIN_TARGET) {
    // Its receiver's certificate is made in a worker thread: asked for first, it is made while this thread loads the
    // reference server. A run that starts no receiver never asks for it (the server asks at its first delivery).
    if (selection !== undefined && startsReceiver(selection)) startLocalCertificate();
    const { startLocalTarget } = await import('./targets/local.js');
    const local = await startLocalTarget(options.local);
    return { target: local.target, stop: local.stop, local: local.describe, targetArgs: localArgs(options.local) };
  }
  if (options.local?.faults?.length || options.local?.variant || Object.keys(options.local?.choices ?? {}).length > 0) {
    throw new ConfigError(
      '--fault, --variant and --choice apply to the built-in target "local" only',
      'CONFORMANCE_ERR_USAGE',
    );
  }
  const config =
    typeof options.config === 'object'
      ? options.config
      : await loadConfig({ configPath: options.config, cwd: options.cwd, target: name });
  // The config as the user named it (relative to where the run was started), or the file a library caller loaded.
  const configArg = typeof options.config === 'string' ? options.config : options.config?.path;
  return {
    target: selectTarget(config, name),
    targetArgs: ['--target', name, ...(configArg !== undefined ? ['--config', configArg] : [])],
    journalFolder: journalFolder(config, name, options.cwd),
  };
}

/** The built-in server as the report names it: its variant, the choices given by their command-line names, its faults. */
function localRecord(local: RunOptions['local']): NonNullable<RunOptionsInfo['local']> {
  return {
    ...(local?.variant ? { variant: local.variant } : {}),
    choices: Object.fromEntries(Object.entries(local?.choices ?? {}).map(([k, v]) => [choiceName(k), String(v)])),
    faults: [...(local?.faults ?? [])],
  };
}

/** `--target local` with the embedded server's variant, choices and faults, as `run` and `curl` take them. */
function localArgs(local: RunOptions['local']): string[] {
  return [
    '--target',
    BUILTIN_TARGET,
    ...(local?.variant ? ['--variant', local.variant] : []),
    ...Object.entries(local?.choices ?? {}).flatMap(([k, v]) => ['--choice', `${choiceName(k)}=${String(v)}`]),
    ...(local?.faults?.length ? ['--fault', local.faults.join(',')] : []),
  ];
}

/**
 * A target opened for single requests (`conformance curl`, `conformance replay`): resolved (the built-in one started),
 * with a signed client and the pack's token session over it. The caller opens the session (the token request) and
 * closes it (the revocation), then calls `close`.
 */
export interface OpenedTarget {
  target: ResolvedTarget;
  /** Where the target's restore journal lives; undefined for the built-in target. */
  journalFolder?: string;
  /** The built-in target only: what its server is (variant, choices, faults). */
  local?: string;
  client: SignedClient;
  session: RunSession;
  /** Closes the client's connections and stops the embedded server. */
  close(): Promise<void>;
}

export async function openTarget(
  options: TargetSelection & Pick<RunOptions, 'requestTimeoutMs' | 'maxBodyBytes'>,
): Promise<OpenedTarget> {
  // It starts no receiver: a delivery its requests cause asks the built-in target for the certificate then.
  const { target, stop, local, journalFolder: folder } = await resolveTarget(options);
  const client = clientFor(target, options);
  return {
    target,
    ...(folder !== undefined ? { journalFolder: folder } : {}),
    ...(local !== undefined ? { local } : {}),
    client,
    // The run's own session: the same token request (and revocation) a run makes, recorded nowhere.
    session: pack.openSession(client, target, () => undefined),
    async close() {
      await client.close();
      await stop?.();
    },
  };
}

function passedThrough(options: RunOptions): PassedThrough {
  return Object.fromEntries(
    PASSED_THROUGH.filter((k) => options[k] !== undefined).map((k) => [k, options[k]]),
  ) as PassedThrough;
}

function warnOnStderr(line: string): void {
  process.stderr.write(`conformance: ${line}\n`);
}
