// The commander program. Each command's implementation is imported only when that command runs, so
// `conformance --version` loads next to nothing.
import { Command, CommanderError, Option } from 'commander';
import { UserError } from '../errors.js';
import { suiteVersion } from '../version.js';

export async function main(argv: string[]): Promise<void> {
  const program = new Command('conformance')
    .description('Checks an Investment Service Interface implementation against its specification.')
    .version(suiteVersion(), '-V, --version')
    .showHelpAfterError('(add --help for usage)')
    .exitOverride();

  program
    .command('run')
    .description('run the suites against a target (default: the embedded reference server) and report')
    .option('-t, --target <name>', 'target name from the config file; "local" is the embedded reference server', 'local')
    .option('-c, --config <file>', 'config file (default: ./conformance.config.json)')
    .option('-s, --suite <names>', 'comma-separated suites to run (auth, signing, pagination, resources, ussd, webhooks)')
    .option('-g, --grep <pattern>', 'run only checks whose id or title matches this regular expression')
    .option('--junit <file>', 'write a JUnit XML report')
    .option('--json <file>', 'write a JSON report')
    .addOption(new Option('--fail-on <level>', 'which failures fail the run: must, or should (warnings too)').choices(['must', 'should']).default('must'))
    .option('--long', 'also run checks that take long (token expiry after 60 minutes)', false)
    .option('--allow-mutations', 'let the USSD crawler follow links that place (amount) or cancel (cancelMode=true) an order', false)
    .option('--ussd-max-views <n>', 'cap on the views the USSD crawler visits (default 500)', parsePositiveInt)
    .option('--ussd-max-depth <n>', 'cap on the options pressed from a USSD start menu (default 12)', parsePositiveInt)
    .addOption(new Option('--variant <name>', 'target local only: how the reference server makes the spec\'s open choices').choices(['strict', 'alt']))
    .option('--fault <names>', 'target local only: comma-separated faults for the reference server (see serve --list-faults)')
    .option('--timeout <ms>', 'time limit of one request in milliseconds', parsePositiveInt, 10_000)
    .option('--max-body <bytes>', 'cap on one response body in bytes', parsePositiveInt, 4 * 1024 * 1024)
    .action(async (opts: Record<string, unknown>) => {
      const { runCommand } = await import('./run.js');
      process.exitCode = await runCommand(opts as never);
    });

  program
    .command('list')
    .description('list the checks: id, level, suite, spec section and title')
    .option('-s, --suite <names>', 'comma-separated suites')
    .option('-g, --grep <pattern>', 'only checks whose id or title matches')
    .option('--json', 'machine-readable output, with the spec sentence of each check')
    .action(async (opts: Record<string, unknown>) => {
      const { listCommand } = await import('./list.js');
      process.exitCode = listCommand(opts as never);
    });

  program
    .command('serve')
    .description('start the reference server as a sandbox (Ctrl-C stops it)')
    .option('-p, --port <n>', 'port to listen on (0: any free port)', parsePort, 0)
    .option('-H, --host <host>', 'address to bind', '127.0.0.1')
    .addOption(new Option('--variant <name>', 'how the spec\'s open choices are made').choices(['strict', 'alt']).default('strict'))
    .option('--fault <names>', 'comma-separated faults to switch on')
    .option('--list-faults', 'list the faults and exit')
    .option('--config-out <file>', 'write a target config (client id, secret, key, fixtures) for this server')
    .option('--webhook-ca <file>', 'extra CA certificates (PEM) to trust when delivering webhooks, e.g. a self-signed receiver')
    .action(async (opts: Record<string, unknown>) => {
      const { serveCommand } = await import('./serve.js');
      process.exitCode = await serveCommand(opts as never);
    });

  try {
    await program.parseAsync(argv);
  } catch (err) {
    process.exitCode = exitCodeFor(err);
  }
}

function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UserError(`"${value}" is not a positive whole number`, 2);
  return n;
}

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UserError(`"${value}" is not a port (0 to 65535)`, 2);
  return n;
}

function exitCodeFor(err: unknown): number {
  if (err instanceof CommanderError) {
    // Help and version are not errors; commander has already printed everything else.
    return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help' ? 0 : 2;
  }
  if (err instanceof UserError) {
    process.stderr.write(`conformance: ${err.message}\n`);
    return err.exitCode;
  }
  const e = err as Error;
  process.stderr.write(`conformance: internal error: ${e?.message ?? String(err)} (set CONFORMANCE_DEBUG=1 for details, and please report it)\n`);
  if (process.env.CONFORMANCE_DEBUG) process.stderr.write(`${e?.stack ?? ''}\n`);
  return 4;
}
