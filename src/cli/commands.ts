// The commands of `conformance`, one declaration each: its name, its commander definition (description, arguments,
// options) and its typed action, which imports the command's module only when that command runs, so that
// `conformance --version` and `--help` load next to nothing. main.ts adds them to the program in this order (the order
// `--help` lists them in). A new command: its module `src/cli/<name>.ts` exporting one function that returns the exit
// code, and its declaration here.
import { Command, Option } from 'commander';
import { UserError } from '../errors.js';
// The budget's parser alone, not the engine's face: the face loads the whole engine (the HTTP client, the catalog), which
// `conformance --version` and `--help` must not wait for.
import { DEFAULT_BUDGET_MS, parseDuration } from '../engine/budget.js';
import { HUMAN_STYLES } from '../report/human-style.js';
import { parseFailOn, type FailOnPolicy } from './fail-on.js';
// The variants' names alone: the open points' table (choices/index.ts) is loaded only for a command that takes --choice.
import { VARIANT_NAMES } from '../reference/choices/variants.js';
import type * as ChoiceTable from '../reference/choices/index.js';
import type { Choices } from '../reference/choices/index.js';
import type { ActionSummaryOptions } from './action-summary.js';
import type { ClientCommandOptions } from './client.js';
import type { CoverageOptions } from './coverage.js';
import type { CurlCommandOptions } from './curl.js';
import type { ExplainOptions } from './explain.js';
import type { InitOptions } from './init.js';
import type { JudgeCommandOptions } from './judge.js';
import type { KeygenOptions } from './keygen.js';
import type { ListOptions } from './list.js';
import type { ProxyCommandOptions } from './proxy.js';
import type { ReplayCommandOptions } from './replay.js';
import type { RestoreCommandOptions } from './restore.js';
import type { RunCommandOptions } from './run.js';
import type { ServeOptions } from './serve.js';
import type { VerifyEvidenceOptions } from './verify-evidence.js';

/** One command of the program. */
export interface CommandDeclaration {
  /** Adds the command to the program: its definition, and its action setting the exit code. */
  addTo(program: Command): void;
}

/**
 * A command: its name, its definition, and its action, given the arguments commander parsed (its `<arguments>`, then
 * its options) and returning the exit code. `parsesChoices`: the command takes --choice, whose parser needs the open
 * points' table, loaded before the command parses its options (a preSubcommand hook of the program).
 */
function defineCommand<A extends unknown[]>(
  name: string,
  define: (command: Command) => Command,
  action: (...args: A) => Promise<number>,
  options: { hidden?: true; parsesChoices?: true } = {},
): CommandDeclaration {
  return {
    addTo(program) {
      define(program.command(name, options.hidden ? { hidden: true } : {})).action(async (...args: A) => {
        process.exitCode = await action(...args);
      });
      if (options.parsesChoices)
        program.hook('preSubcommand', async (_program, command) => {
          if (command.name() === name) await loadChoiceTable();
        });
    },
  };
}

export const COMMANDS: readonly CommandDeclaration[] = [
  defineCommand(
    'run',
    (command) =>
      addReportOptions(
        command
          .description('run the suites against a target (default: the embedded reference server) and report')
          .option(
            '-t, --target <name>',
            'target name from the config file; "local" is the embedded reference server',
            'local',
          )
          .option('-c, --config <file>', 'config file (default: ./conformance.config.json)')
          .option('-s, --suite <names>', 'comma-separated suites to run (their names: conformance list)')
          .option('-g, --grep <pattern>', 'run only checks whose id or title matches this regular expression')
          .option(
            '--expected-failures <file>',
            'known deviations (JSON: {"expectedFailures": [{"id", "reason", "expires"}]}): listed failures do not fail the run, listed passes do',
          )
          .option(
            '--rerun-failed <report>',
            'run only the checks that failed, warned or errored in this JSON report of an earlier run',
          )
          .option('--long', 'also run checks that take long (token expiry after 60 minutes)', false)
          .option(
            '--allow-mutations',
            'let the USSD crawler follow links that place (amount) or cancel (cancelMode=true) an order',
            false,
          )
          .option(
            '--ussd-max-views <n>',
            'cap on the views the USSD crawler visits (default 500)',
            positiveInt('--ussd-max-views'),
          )
          .option(
            '--ussd-max-depth <n>',
            'cap on the options pressed from a USSD start menu (default 12)',
            positiveInt('--ussd-max-depth'),
          )
          .addOption(variantOption())
          .addOption(choiceOption())
          .addOption(faultOption())
          .option('--timeout <ms>', 'time limit of one request in milliseconds', positiveInt('--timeout'), 10_000)
          .option('--max-body <bytes>', 'cap on one response body in bytes', positiveInt('--max-body'), 4 * 1024 * 1024)
          .addOption(
            // The default shown as a duration, once: commander would print the milliseconds beside it.
            new Option(
              '--budget <duration>',
              'time for the whole run, e.g. 90s, 10m, 1h; past it the checks left are reported as errors',
            )
              .argParser(parseDurationOption('--budget'))
              .default(DEFAULT_BUDGET_MS, '30m'),
          )
          .option(
            '-j, --concurrency <n>',
            'most checks running at once (default: the target\'s "concurrency", else 6; under it the run follows the server\'s answers); checks over shared state still run one at a time, in order',
            positiveInt('--concurrency'),
          ),
        "signed with the target's key",
      ),
    async (opts: RunCommandOptions) => {
      // Before the run's modules load (the engine, the suites, the reference server): a typo fails at once.
      const early = await import('./early-checks.js');
      early.checkReportFiles(opts);
      await early.checkTarget(opts);
      early.checkSelectionWords(opts.suite, opts.grep);
      // A failure is left to the run's own request for the certificate, which reports it.
      (await import('./early-certificate.js')).startEarlyCertificate(opts.target, opts.suite).catch(() => undefined);
      return (await import('./run.js')).runCommand(opts);
    },
    { parsesChoices: true },
  ),
  defineCommand(
    'client',
    (command) =>
      addReportOptions(
        command
          .usage('[options] -- <command...>')
          .description(
            'grade a client application: run COMMAND once per scenario against a fresh sandbox and judge the requests it makes (and its webhook receiver)',
          )
          .argument('[command...]', 'the client program and its arguments, after --')
          .option('--scenario <names>', 'comma-separated scenarios to run (default all; --list names them)')
          .option('--list', 'list the scenarios: name, time limit, what the client must do; run nothing')
          .option(
            '-c, --config <file>',
            'JSON: {"timeLimitSeconds": {"read": 30}, "webhookCa": "extra-ca.pem", "env": {"NAME": "value"}}',
          ),
        'signed',
      ),
    async (command: string[], opts: ClientCommandOptions) => (await import('./client.js')).clientCommand(command, opts),
  ),
  defineCommand(
    'judge',
    (command) =>
      addReportOptions(
        command
          .description(
            "grade recorded traffic: judge the server's answers in a HAR file (devtools, a proxy, conformance run --har) by the checks that can judge an answer alone, and with --side the client's requests; every other check is listed as not exercised",
          )
          .argument('<file.har>', 'the HAR 1.2 file')
          .option('-t, --target <name>', 'target name from the config file: its baseUrl scopes the traffic')
          .option('-c, --config <file>', 'config file (default: ./conformance.config.json)')
          .option(
            '--base-url <url>',
            'the API base URL that scopes the traffic (e.g. https://api.example.com/v1); default: the one the HAR shows, if it shows exactly one',
          )
          .option(
            '--side <side>',
            'whose side to judge: server, client or both (client and both judge the client --target names: its clientId, keyId and key)',
            'server',
          ),
        'signed with a key made for the package',
      ),
    async (file: string, opts: JudgeCommandOptions) => (await import('./judge.js')).judgeCommand(file, opts),
  ),
  defineCommand(
    'proxy',
    (command) =>
      addReportOptions(
        command
          .description(
            "grade real traffic: an intercepting HTTPS proxy in front of the target; a client sent through it (HTTPS_PROXY, trusting the proxy's CA) is seen exchange by exchange, and on Ctrl-C or --duration the server's answers and the client's requests are judged as by judge",
          )
          .requiredOption('-t, --target <name>', 'target name from the config file: the server whose traffic is judged')
          .option('-c, --config <file>', 'config file (default: ./conformance.config.json)')
          .option('--port <n>', 'the loopback port to listen on (0: a free one)', parsePort, 0)
          .option(
            '--ca-out <file>',
            "the proxy's CA certificate, made on first use and kept (its key beside it, mode 0600) (default: .conformance/proxy-ca.pem beside the config)",
          )
          .option(
            '--duration <duration>',
            'end the session after this long, e.g. 30s, 10m (default: at Ctrl-C)',
            parseDurationOption('--duration'),
          )
          .option(
            '--side <side>',
            'whose side to judge: server, client or both; the client is the one the target names (its clientId, keyId and key) (default: both when the target names the client, else server)',
          )
          .option(
            '--receiver <url>',
            "the client's webhook receiver: the proxy fronts it on a second loopback HTTPS address (printed), which the client registers instead; the server's deliveries are verified and forwarded",
            parseReceiverUrl,
          ),
        "signed with the target's key",
      ),
    async (opts: ProxyCommandOptions) => {
      // Its report paths and its target, in the order the command checks them, before the judge and the proxy load.
      const early = await import('./early-checks.js');
      early.checkReportFiles(opts);
      await early.checkTarget(opts);
      return (await import('./proxy.js')).proxyCommand(opts);
    },
  ),
  defineCommand(
    'curl',
    (command) =>
      command
        .description(
          "send one request as a correct client does: a fresh token, signed with the target's key; print the answer, revoke the token (every failure's replay line is one)",
        )
        .argument(
          '<url>',
          "a path under the target's baseUrl (e.g. /instruments?investmentType=INTERNATIONAL_STOCKS), or a URL",
        )
        .option('-X, --request <method>', 'the method (default GET, or POST with -d)')
        .option(
          '-H, --header <header>',
          "'Name: value' sends it (replacing the one conformance would make; covered by the signature when the profile covers it); 'Name:' sends the request without it (repeatable)",
          collect,
          [],
        )
        .option('-d, --data <data>', 'the body, sent byte for byte; @FILE reads it from a file')
        .option(
          '-t, --target <name>',
          'target name from the config file; "local" is the embedded reference server, started for this command only',
          'local',
        )
        .option('-c, --config <file>', 'config file (default: ./conformance.config.json)')
        .addOption(variantOption())
        .addOption(choiceOption())
        .addOption(faultOption())
        .option(
          '--components <list>',
          "the covered components, comma-separated, in order (default: the target's signing profile's, for the headers the request carries)",
        )
        .option(
          '--created <seconds>',
          'the signature\'s created, in seconds from now (default 0); "none" leaves it out',
        )
        .option(
          '--expires <seconds>',
          'the signature\'s expires, in seconds from now (default: the target\'s signing window, 60 unless its token request learnt or its config sets another); "none" leaves it out',
        )
        .option('--keyid <id>', 'the signature\'s keyid (default: the target\'s); "none" leaves it out')
        .option('--label <label>', "the signature's label (default: the target's signing profile's, sig1)")
        .option(
          '--param <name=value>',
          'one more signature parameter after keyid, created and expires, e.g. alg="ed25519" (repeatable)',
          collect,
          [],
        )
        .option('--no-sign', 'send it without Signature and Signature-Input')
        .option(
          '--print-headers',
          'print the headers (Authorization, X-Client-Id, Signature-Input, Signature, Content-Digest…) to paste elsewhere; send nothing',
        )
        .option('-v, --verbose', 'also print the request as sent and the signature base, on stderr')
        .option('--timeout <ms>', 'time limit of the request in milliseconds', positiveInt('--timeout'), 10_000),
    async (url: string, opts: CurlCommandOptions) => (await import('./curl.js')).curlCommand(url, opts),
    { parsesChoices: true },
  ),
  defineCommand(
    'replay',
    (command) =>
      command
        .description(
          "run one check of an earlier run's JSON report again, with a fresh token and fresh signatures, and say per exchange what changed: FIXED, STILL FAILING or CHANGED",
        )
        .argument('<report>', 'the JSON report of the earlier run (conformance run --json FILE)')
        .argument('<id>', 'the check id')
        .option(
          '-t, --target <name>',
          "target name from the config file (default: the report's target; for local, with the report's variant, choices and faults)",
        )
        .option('-c, --config <file>', "config file (default: the report's, else ./conformance.config.json)")
        .addOption(variantOption())
        .addOption(choiceOption())
        .addOption(faultOption())
        .option('--long', 'let a check that takes long run (token expiry after 60 minutes)', false)
        .option('--allow-mutations', 'let the USSD crawler follow order and cancel links', false)
        .option('--timeout <ms>', 'time limit of one request in milliseconds', positiveInt('--timeout'), 10_000),
    async (report: string, id: string, opts: ReplayCommandOptions) =>
      (await import('./replay.js')).replayCommand(report, id, opts),
    { parsesChoices: true },
  ),
  defineCommand(
    'restore',
    (command) =>
      command
        .description(
          "put back what runs against the target left on it when they were killed before their restores (the mutable customer, the webhook configuration), from the target's restore journal; nothing else is sent",
        )
        .requiredOption('-t, --target <name>', 'target name from the config file')
        .option('-c, --config <file>', 'config file (default: ./conformance.config.json)')
        .option('--timeout <ms>', 'time limit of one request in milliseconds', positiveInt('--timeout'), 10_000),
    async (opts: RestoreCommandOptions) => (await import('./restore.js')).restoreCommand(opts),
  ),
  defineCommand(
    'list',
    (command) =>
      command
        .description('list the checks: id, level, suite, spec section and title')
        .option('-s, --suite <names>', 'comma-separated suites')
        .option('-g, --grep <pattern>', 'only checks whose id or title matches')
        .option('--json', 'machine-readable output, with the spec sentence of each check')
        .option('--client', "the checks of a client application ('conformance client') instead of a server's"),
    async (opts: ListOptions) => (await import('./list.js')).listCommand(opts),
  ),
  defineCommand(
    'explain',
    (command) =>
      command
        .description(
          'one check in full: its spec sentence, what it sends, what passes and fails, the faults that prove it',
        )
        .argument('<id>', 'a check id, as conformance list prints it')
        .option('--json', 'machine-readable output'),
    async (id: string, opts: ExplainOptions) => (await import('./explain.js')).explainCommand(id, opts),
  ),
  defineCommand(
    'coverage',
    (command) =>
      command
        .description(
          'each requirement of the spec (its quote, level and whose duty its words state) against the checks that cover it, and what is not covered and why',
        )
        .option('--json', 'machine-readable output'),
    async (opts: CoverageOptions) => (await import('./coverage.js')).coverageCommand(opts),
  ),
  defineCommand(
    'vectors',
    (command) =>
      command
        .description(
          'write signing vectors for SDK authors: each request shape signed with the published TEST key, and negative cases with their rejection codes',
        )
        .option('-o, --out <dir>', 'folder for signing-vectors.json (default: the current folder)'),
    async (opts: { out?: string }) => (await import('./vectors.js')).vectorsCommand(opts),
  ),
  defineCommand(
    'keygen',
    (command) =>
      command
        .description(
          "make an Ed25519 request-signing key (the private key to a 0600 file, the public key as PEM and JWK to register), and the webhook receiver's certificate beside the config when it has none",
        )
        .option('-o, --out <dir>', 'folder for conformance-ed25519.pem (default: the current folder)')
        .option(
          '-c, --config <file>',
          "config beside which the receiver's certificate goes, for the hosts of its webhook settings (default: ./conformance.config.json)",
        ),
    async (opts: KeygenOptions) => (await import('./keygen.js')).keygenCommand(opts),
  ),
  defineCommand(
    'init',
    (command) =>
      command
        .description('write a starter conformance.config.json, with a note per part and secrets as ${ENV} references')
        .option('-t, --target <name>', 'name of the target to set up', 'staging')
        .option(
          '-o, --out <file>',
          'where to write it (default: ./conformance.config.json); an existing file is never replaced',
        ),
    async (opts: InitOptions) => (await import('./init.js')).initCommand(opts),
  ),
  defineCommand(
    'verify-evidence',
    (command) =>
      command
        .description(
          "check an evidence package: the manifest's signature with the partner's public key, then every file's digest",
        )
        .argument('<dir>', 'the package directory (conformance run --evidence DIR)')
        .requiredOption(
          '--public-key <file>',
          "the partner's Ed25519 public key: SPKI PEM, JWK, or the raw 32 bytes in base64",
        ),
    async (dir: string, opts: VerifyEvidenceOptions) =>
      (await import('./verify-evidence.js')).verifyEvidenceCommand(dir, opts),
  ),
  defineCommand(
    'serve',
    (command) =>
      command
        .description('start the reference server as a sandbox (Ctrl-C stops it)')
        .option('-p, --port <n>', 'port to listen on (0: any free port)', parsePort, 0)
        .option('-H, --host <host>', 'address to bind', '127.0.0.1')
        .addOption(
          new Option('--variant <name>', 'a named bundle of choices (strict: every open point at its default)')
            .choices(VARIANT_NAMES)
            .default('strict'),
        )
        .option(
          '--choice <name=value>',
          'how the server reads one open point of the spec (repeatable; over the variant)',
          collectChoice,
          {},
        )
        .option(
          '--list-choices',
          'list the open points of the spec the server can read either way, with their readings, and exit',
        )
        .option('--fault <names>', 'comma-separated faults to switch on')
        .option('--list-faults', 'list the faults and exit')
        .option('--config-out <file>', 'write a target config (client id, secret, key, fixtures) for this server')
        .option(
          '--webhook-ca <file>',
          'extra CA certificates (PEM) to trust when delivering webhooks, e.g. a self-signed receiver',
        )
        .option('--tls', 'serve https, with a self-signed certificate (--config-out writes it as the caFile)')
        .option(
          '--client-ca <file>',
          'require a client certificate issued by the CA(s) of this PEM file (mutual TLS); implies --tls',
        )
        .option(
          '--latency <ms>',
          'hold every answer back this long, like a server across a network',
          positiveInt('--latency'),
        )
        .option('-q, --quiet', 'do not log the requests (by default one line each, with the reason of a rejection)'),
    async (opts: ServeOptions) => (await import('./serve.js')).serveCommand(opts),
    { parsesChoices: true },
  ),
  defineCommand(
    'action-summary',
    (command) =>
      command
        .description("append the run's job summary (Markdown) to the file $GITHUB_STEP_SUMMARY names, or print it")
        .requiredOption(
          '--report <file>',
          'the JSON report the run was to write (missing: the run ended before writing one)',
        )
        .option('--exit-code <n>', "the run's exit code"),
    async (opts: ActionSummaryOptions) => (await import('./action-summary.js')).actionSummaryCommand(opts),
    { hidden: true },
  ),
];

// How `run`, `curl` and `replay` aim the built-in target's reference server: one declaration of each option, so the
// three commands take and describe them alike.
function variantOption(): Option {
  return new Option(
    '--variant <name>',
    'target local only: a named bundle of choices for the reference server',
  ).choices(VARIANT_NAMES);
}

function choiceOption(): Option {
  return new Option(
    '--choice <name=value>',
    'target local only: how the reference server reads one open point of the spec (repeatable; see serve --list-choices)',
  )
    .argParser(collectChoice)
    .default({});
}

function faultOption(): Option {
  return new Option(
    '--fault <names>',
    'target local only: comma-separated faults for the reference server (see serve --list-faults)',
  );
}

/** The reports and the fail-on policy, as `run` and `client` both take them (cli/report-options.ts ReportCommandOptions). */
function addReportOptions(command: Command, signed: string): Command {
  return command
    .option('--junit <file>', 'write a JUnit XML report')
    .addOption(
      new Option(
        '--junit-exchanges <which>',
        "whose exchanges the JUnit report lists: failing (failing, warning and erroring testcases') or all",
      )
        .choices(['failing', 'all'])
        .default('failing'),
    )
    .option('--json <file>', 'write a JSON report')
    .option('--html <file>', 'write a self-contained HTML report for a reviewer')
    .option('--pdf <file>', 'write the HTML report as a PDF to sign, printed by headless Chromium')
    .option(
      '--chromium <path>',
      'the browser that prints --pdf (default: $CONFORMANCE_CHROMIUM, /usr/bin/chromium, chromium or google-chrome on PATH)',
    )
    .option('--har <file>', 'write every exchange as HAR 1.2 (opens in browser devtools)')
    .option('--evidence <dir>', `write a certification package: the reports, a manifest of digests, ${signed}`)
    .addOption(
      new Option(
        '--fail-on <levels>',
        'comma-separated, what fails the run: must (a MUST failure; always), should (SHOULD warnings too), incomplete (an INCOMPLETE verdict too)',
      )
        .argParser(parseFailOn)
        .default({ failOn: 'must', failOnIncomplete: false } satisfies FailOnPolicy, 'must'),
    )
    .addOption(
      new Option(
        '--reporter <style>',
        'what the terminal shows: default (a line per check, each failure in full), verbose (every observation, note and suite time too), dot (a character per check, then the failures); the file reports hold everything',
      )
        .choices(HUMAN_STYLES)
        .default('default'),
    )
    .addOption(new Option('-v, --verbose', 'the same as --reporter verbose').conflicts('reporter'));
}

/** A parser for an option whose value is a whole number of at least 1; its error names the option. */
function positiveInt(option: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0)
      throw new UserError(`${option}: "${value}" is not a positive whole number; give one like 4`, 2);
    return n;
  };
}

/** A repeatable option: the values so far with this one after them. */
function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

// The open points' table --choice is parsed against: eight modules of readings, quotes and patterns that the program's
// other commands, --help and --version do without.
let choiceTable: typeof ChoiceTable | undefined;

async function loadChoiceTable(): Promise<void> {
  choiceTable ??= await import('../reference/choices/index.js');
}

/** `--choice name=value`, repeatable: the choices so far with this one over them. */
function collectChoice(value: string, previous: Partial<Choices>): Partial<Choices> {
  if (choiceTable === undefined) throw new Error('--choice was parsed before the table of choices was loaded');
  try {
    return { ...previous, ...choiceTable.parseChoice(value) };
  } catch (e) {
    if (e instanceof choiceTable.ChoiceError) throw new UserError(`--choice: ${e.message}`, 2);
    throw e;
  }
}

/** A parser for an option whose value is a duration (90s, 10m, 1h); its error names the option. */
function parseDurationOption(option: string): (value: string) => number {
  return (value) => {
    const ms = parseDuration(value);
    if (ms === undefined)
      throw new UserError(`${option}: "${value}" is not a duration; write it like 90s, 10m or 1h`, 2);
    return ms;
  };
}

/** `--receiver`: an http(s) URL, else one line and exit 2. */
function parseReceiverUrl(value: string): URL {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    throw new UserError(`--receiver: "${value}" is not an http(s) URL; give the client's webhook receiver URL`, 2);
  return url;
}

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UserError(`"${value}" is not a port (0 to 65535)`, 2);
  return n;
}
