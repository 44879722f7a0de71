// `conformance client [options] -- COMMAND [ARGS…]`: grades a client application against the sandbox, one scenario at a
// time, and reports like `run`. `--list` describes the scenarios.
import { UserError } from '../errors.js';
import { humanReporterForStdout } from '../report/human.js';
import { endNote, runClient } from '../client-api.js';
import { parseScenarioList, SCENARIO_TABLE } from '../client/scenarios.js';
import { humanStyleOf, reportSettings, type ReportCommandOptions } from './report-options.js';
import { writeReportsLine } from './reports-written.js';

export interface ClientCommandOptions extends ReportCommandOptions {
  scenario?: string;
  config?: string;
  list?: boolean;
}

/** Returns the exit code: 0 pass, 1 a check that fails the run failed (or INCOMPLETE under --fail-on incomplete). */
export async function clientCommand(command: string[], opts: ClientCommandOptions): Promise<number> {
  if (opts.list) {
    const width = Math.max(...SCENARIO_TABLE.map((s) => s.name.length));
    for (const s of SCENARIO_TABLE)
      process.stdout.write(`${s.name.padEnd(width)}  ${String(s.timeLimitSeconds).padStart(2)} s  ${s.description}\n`);
    return 0;
  }
  const scenarios = opts.scenario !== undefined ? parseScenarioList(opts.scenario) : undefined;
  if (command.length === 0)
    throw new UserError(
      'no client command given; run it as conformance client [options] -- COMMAND [ARGS…] (or --list for the scenarios)',
      2,
    );
  const result = await runClient({
    command,
    ...(scenarios ? { scenarios } : {}),
    ...(opts.config !== undefined ? { config: opts.config } : {}),
    ...reportSettings(opts),
    reporters: [humanReporterForStdout({ style: humanStyleOf(opts) })],
    // The scenarios run before any check is judged: a line each, so a long run is not silent.
    onScenarioEnd: (record) => process.stderr.write(`conformance: ${endNote(record)}\n`),
  });
  writeReportsLine(opts);
  return result.exitCode;
}
