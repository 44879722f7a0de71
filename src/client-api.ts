// The library entry point behind `conformance client` (as src/api.ts is behind `conformance run`): run the command
// once per scenario, each against a fresh sandbox (src/client/), then judge the recorded traffic with the client pack
// (suites/client/) through the same engine and reports as `run`. It stands above both, so no arrow runs back up.
import { randomBytes } from 'node:crypto';
import type { ResolvedTarget } from './config/types.js';
import { runChecks, type RunResult, type RunSettings } from './engine/index.js';
import type { Exchange } from './http/exchange.js';
import { generateEd25519 } from './http/keys.js';
import { prepareReports, type ReportOptions } from './reports.js';
import { clientPack } from '../suites/client/index.js';
import { loadClientConfig, type ClientConfig } from './client/config.js';
import { checkCommand, runScenario } from './client/scenario.js';
import { SCENARIOS, type ClientRunRecord, type ScenarioName, type ScenarioRecord } from './client/types.js';

export interface ClientRunOptions extends ReportOptions, Pick<RunSettings, 'failOn' | 'failOnIncomplete' | 'budgetMs'> {
  /** The client: a program and its arguments, run once per scenario (no shell). */
  command: string[];
  /** The scenarios to run, in the table's order whatever the order given; all of them by default. */
  scenarios?: ScenarioName[];
  /** A client config (time limits, an extra receiver CA, environment), or the path of its JSON file (relative to cwd). */
  config?: ClientConfig | string;
  /** Where the command runs and relative paths start; the current folder by default. */
  cwd?: string;
  /** Told as each scenario ends, before any check is judged (the CLI prints a line). */
  onScenarioEnd?: (record: ScenarioRecord) => void;
}

export async function runClient(options: ClientRunOptions): Promise<RunResult> {
  // A command that cannot be started, like a report that cannot be written, costs nothing: no sandbox is started.
  await checkCommand(options.command, options.cwd);
  const reports = await prepareReports(options);
  const config =
    typeof options.config === 'string' ? await loadClientConfig(options.config, options.cwd) : (options.config ?? {});
  const selected = SCENARIOS.filter((s) => options.scenarios === undefined || options.scenarios.includes(s));
  const target = judgeTarget();
  // The engine reads the notes once the checks are done, so the scenarios' lines added while they run are reported.
  const notes = [
    `command: ${options.command.map(shellWord).join(' ')}`,
    'each scenario ran against a fresh sandbox on https://127.0.0.1 (an ephemeral port), with a fresh client and key',
  ];
  const runScenarios = async (keep: (exchange: Exchange) => void): Promise<ClientRunRecord> => {
    const record = await recordScenarios(options.command, selected, config, options);
    for (const r of Object.values(record.scenarios)) {
      notes.push(endNote(r));
      for (const e of [...r.requests, ...r.deliveries].map((x) => x.exchange).sort((a, b) => a.seq - b.seq)) keep(e);
    }
    return record;
  };
  return runChecks({
    ...(options.failOn !== undefined ? { failOn: options.failOn } : {}),
    ...(options.failOnIncomplete !== undefined ? { failOnIncomplete: options.failOnIncomplete } : {}),
    ...(options.budgetMs !== undefined ? { budgetMs: options.budgetMs } : {}),
    target,
    pack: clientPack(runScenarios),
    reporter: reports.reporter({ keyId: target.keyId, privateKey: target.privateKey }),
    notes,
    targetArgs: [],
    recordedOptions: { client: { command: [...options.command], scenarios: [...selected] } },
  });
}

/** Runs the scenarios one after the other, numbering every exchange of the run in one sequence. */
async function recordScenarios(
  command: string[],
  names: readonly ScenarioName[],
  config: ClientConfig,
  options: Pick<ClientRunOptions, 'cwd' | 'onScenarioEnd'>,
): Promise<ClientRunRecord> {
  let seq = 0;
  const nextSeq = () => ++seq;
  const record: ClientRunRecord = { command: [...command], scenarios: {} };
  for (const name of names) {
    const limit = config.timeLimitSeconds?.[name];
    const scenario = await runScenario(name, command, {
      nextSeq,
      ...(limit !== undefined ? { timeLimitMs: limit * 1000 } : {}),
      ...(config.webhookCa !== undefined ? { webhookCa: config.webhookCa } : {}),
      ...(config.env !== undefined ? { env: config.env } : {}),
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    });
    record.scenarios[name] = scenario;
    options.onScenarioEnd?.(scenario);
  }
  return record;
}

/**
 * The target the reports name: no server of the user's, one sandbox per scenario. Its key is fresh, made only to sign
 * an evidence package; the engine's own client over it sends nothing (the client checks judge recorded traffic).
 */
function judgeTarget(): ResolvedTarget {
  const key = generateEd25519();
  return {
    name: 'client',
    baseUrl: 'https://127.0.0.1/v1',
    clientId: 'conformance-client',
    clientSecret: randomBytes(24).toString('base64url'),
    keyId: `conformance-client-${randomBytes(4).toString('hex')}`,
    privateKeyPem: key.privateKeyPem,
    privateKey: key.seed,
    fixtures: {},
    webhook: { listen: '127.0.0.1:0', tls: 'none' },
  };
}

/** How the command ended in one scenario, for the report's notes and the terminal. */
export function endNote(r: ScenarioRecord): string {
  const how =
    r.end.endedBy === 'time-limit'
      ? `ended at its time limit (SIGTERM, then SIGKILL)`
      : r.end.endedBy === 'scenario-done'
        ? 'ended by the harness once every delivery was answered (SIGTERM)'
        : r.end.code !== null
          ? `exited ${r.end.code}`
          : `ended by ${r.end.signal ?? 'a signal'}`;
  const what = [
    `${r.requests.length} request${r.requests.length === 1 ? '' : 's'}`,
    ...(r.scenario === 'webhooks' ? [`${r.deliveries.length} deliveries sent`, `${r.accepted.length} accepted`] : []),
  ];
  return `scenario ${r.scenario}: the command ${how} after ${(r.end.durationMs / 1000).toFixed(1)} s; ${what.join(', ')}`;
}

/** A word of the command as a POSIX shell would need it, for the line that says what was run. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
