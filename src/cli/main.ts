// The commander program: the commands declared in commands.ts (each command's implementation is imported only when
// that command runs), and one format for every error line. `conformance --version` alone is answered before commander
// and the declarations are loaded: it runs nothing else, so it starts about as fast as Node itself.
import type { CommanderError } from 'commander';
import { UserError, withCode } from '../errors.js';
import { suiteVersion } from '../version.js';
import { processRedactor } from '../http/redact.js';
import { visible, visibleLine } from '../report/visible.js';

// commander's error class, once commander is loaded (no error of its own can come before).
let commanderError: typeof CommanderError | undefined;

export async function main(argv: string[]): Promise<void> {
  // An error that escapes every handler (an emitter with no error listener, say) still ends in one masked line, with
  // the documented exit code, not Node's stack trace.
  const crash = (err: unknown): void => {
    process.exitCode = exitCodeFor(err);
    process.exit();
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  if (process.env.CONFORMANCE_DEBUG) (await import('./debug.js')).printExchanges(process.stderr);
  // For the project's own tests: the peak memory of a run against a hostile server (test/e2e/hostile.sweep.test.ts).
  if (process.env.CONFORMANCE_REPORT_MAXRSS)
    process.on('exit', () => process.stderr.write(`conformance: maxrss ${process.resourceUsage().maxRSS} KiB\n`));
  const args = argv.slice(2);
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    // What commander prints for it, byte for byte.
    process.stdout.write(`${suiteVersion()}\n`);
    return;
  }
  const [{ Command, CommanderError: errorClass }, { COMMANDS }] = await Promise.all([
    import('commander'),
    import('./commands.js'),
  ]);
  commanderError = errorClass;
  const program = new Command('conformance')
    .description('Checks an Investment Service Interface implementation against its specification.')
    .version(suiteVersion(), '-V, --version')
    .showHelpAfterError('(add --help for usage)')
    // commander's own usage errors ("error: unknown option '--x'") in the one format of every error line, with its code.
    .configureOutput({ outputError: (text, write) => write(usageErrorLines(text)) })
    .exitOverride();

  for (const command of COMMANDS) command.addTo(program);

  try {
    await program.parseAsync(argv);
  } catch (err) {
    process.exitCode = exitCodeFor(err);
  }
}

/** commander's "error: MESSAGE" (a "(Did you mean …?)" line may follow) as `conformance: MESSAGE [CONFORMANCE_ERR_USAGE]`. */
function usageErrorLines(text: string): string {
  const [first = '', ...rest] = text
    .trim()
    .replace(/^error: /, '')
    .split('\n');
  return `${[`conformance: ${withCode(first, 'CONFORMANCE_ERR_USAGE')}`, ...rest].join('\n')}\n`;
}

function exitCodeFor(err: unknown): number {
  if (commanderError !== undefined && err instanceof commanderError) {
    // Help and version are not errors; commander has already printed everything else.
    return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help'
      ? 0
      : 2;
  }
  // Messages may quote a server (a TLS error, an HTTP parse error) or, in a crash, anything: secrets masked, escapes shown.
  const shown = (text: string): string => visibleLine(processRedactor.text(text));
  // One format for every error line: `conformance: <message> [<code>]` (src/errors.ts ERROR_CODES lists the codes).
  if (err instanceof UserError) {
    process.stderr.write(`conformance: ${withCode(shown(err.message), err.code)}\n`);
    return err.exitCode;
  }
  const e = err as Error;
  process.stderr.write(
    `conformance: ${withCode(`internal error: ${shown(e?.message ?? String(err))} (set CONFORMANCE_DEBUG=1 for details, and please report it)`, 'CONFORMANCE_ERR_INTERNAL')}\n`,
  );
  if (process.env.CONFORMANCE_DEBUG) process.stderr.write(`${visible(processRedactor.text(e?.stack ?? ''))}\n`);
  return 4;
}
