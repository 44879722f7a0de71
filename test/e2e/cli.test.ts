// End to end: the compiled CLI (`npm test` builds it) against the real reference server on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { validateXML } from 'xmllint-wasm';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js';
import { defaultFixtures } from '../../src/reference/store.js';
import { suites } from '../../suites/index.js';
import { generateEd25519 } from '../../src/http/keys.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { WAIT_MS } from '../helpers/waits.js';

const xsd = readFileSync(new URL('../fixtures/schemas/junit-10.xsd', import.meta.url), 'utf8');
const reportSchema = JSON.parse(
  readFileSync(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8'),
) as object;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  a: Ajv2020,
) => Ajv2020;
const SUMMARY = /^(\d+) passed, (\d+) failed, (\d+) warned, (\d+) skipped$/m;

const tmp = () => mkdtempSync(join(tmpdir(), 'conformance-e2e-'));

async function expectValidJunit(file: string): Promise<string> {
  const xml = readFileSync(file, 'utf8');
  const result = await validateXML({
    xml: [{ fileName: 'report.xml', contents: xml }],
    schema: [{ fileName: 'junit-10.xsd', contents: xsd }],
  });
  expect(result.errors).toEqual([]);
  expect(result.valid).toBe(true);
  return xml;
}

function expectValidJsonReport(file: string): Record<string, any> {
  const report = JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>;
  const validate = addFormats(new Ajv2020({ allErrors: true, strict: false })).compile(reportSchema);
  expect((validate.errors ?? validate(report)) ? [] : validate.errors).toEqual([]);
  return report;
}

/** A loopback port with nothing listening: bind one, note it, release it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * One whole clean run of the built-in target with both file reports, read by the tests of its output and of its verdict
 * (a whole run costs seconds of CPU: each test spawning its own made the same run twice).
 */
let clean: { dir: string; res: CliResult };
beforeAll(async () => {
  const dir = tmp();
  const res = await runCli(['run', '--junit', join(dir, 'out.xml'), '--json', join(dir, 'out.json')], { cwd: dir });
  clean = { dir, res };
});

describe('conformance run against the embedded reference server (target local)', () => {
  it('exits 0, prints the summary line, and writes a JUnit file that validates and a JSON report of the documented shape', async () => {
    const { dir, res } = clean;
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    const [, passed, failed] = SUMMARY.exec(lines.find((l) => SUMMARY.test(l))!)!;
    // The report ends with the run's time, then where the reports are.
    expect(lines.slice(-2)).toEqual([
      expect.stringMatching(/^time [\d.]+ m?s, up to \d+ checks at once$/),
      `reports: JSON ${join(dir, 'out.json')} · JUnit ${join(dir, 'out.xml')}`,
    ]);
    // One line per check, piped as on a terminal; no suite times, notes or observations of passing checks.
    const checks = suites.flatMap((s) => s.checks).length;
    expect(lines.filter((l) => /^ {2}[✓✗!E-] \S+ /.test(l))).toHaveLength(checks);
    expect(lines.length).toBeLessThan(checks + 15);
    expect(res.stdout).not.toMatch(/^ {4}· /m);
    expect(res.stdout).not.toContain('check time');
    expect(Number(passed)).toBeGreaterThanOrEqual(3);
    expect(failed).toBe('0');
    expect(res.stdout).toMatch(/✓ auth\.token\.issued +MUST/);
    expect(res.stdout).toMatch(/✓ resources\.customers\.get +MUST/);
    expect(res.stdout).toMatch(/✓ resources\.customers\.no-token +MUST/);
    expect(res.stdout).not.toMatch(/\u001b\[/);

    const xml = await expectValidJunit(join(dir, 'out.xml'));
    expect(xml).toMatch(/<testcase name="auth\.token\.issued [^"]*" classname="conformance\.auth"/);
    expect(xml).toContain('<property name="auth.token.issued.level" value="MUST"/>');
    const report = expectValidJsonReport(join(dir, 'out.json'));
    expect(report.run.target).toBe('local');
    expect(report.run.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(report.run.specVersion).toBe('0.0.1');
    // Every suite's checks run; the clean server passes all of them but those that need --long (or --allow-mutations).
    const outcomes = report.checks.map((c: { id: string; outcome: string }) => [c.id, c.outcome]);
    expect(outcomes).toEqual(
      expect.arrayContaining([
        ['auth.token.issued', 'pass'],
        ['resources.customers.get', 'pass'],
        ['resources.customers.no-token', 'pass'],
      ]),
    );
    expect(outcomes.filter(([, outcome]: [string, string]) => outcome !== 'pass' && outcome !== 'skip')).toEqual([]);
    // Exactly those: any other skip on the clean server is a check that judged nothing where it should have (its reason
    // shows in the failure).
    const skips = report.checks
      .filter((c: { outcome: string }) => c.outcome === 'skip')
      .map((c: { id: string; skipReason?: string }) => `${c.id}: ${c.skipReason ?? ''}`);
    expect(skips).toEqual([
      expect.stringMatching(/^auth\.expiry\.after-60-minutes: runs only with --long/),
      expect.stringMatching(/^ussd\.flow\.order-cancel: .*--allow-mutations/),
    ]);
    expect(report.exitCode).toBe(0);
  });

  it('prints with -v (--reporter verbose) what the default leaves out: observations, notes, a line per requirement, suite times', async () => {
    // The two suites whose lines the test reads (auth's observations and requirement, resources' note on timestamps):
    // what the verbose report prints is per check, per suite and per run, none of it needs every suite's checks.
    const shown = ['auth', 'resources'];
    const res = await runCli(['run', '-v', '--suite', shown.join(',')]);
    expect(res.code).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    // The report as it was before issue 27: suites under their names, ending with the time per suite, the whole run last.
    const checks = suites.filter((s) => shown.includes(s.name)).flatMap((s) => s.checks).length;
    expect(lines.at(-1)).toMatch(new RegExp(`^ {2}run +${checks} +[\\d.]+ m?s +[\\d.]+ m?s$`));
    for (const suite of shown) expect(res.stdout).toMatch(new RegExp(`^ {2}${suite} +\\d+ +[\\d.]+ m?s`, 'm'));
    expect(res.stdout).toMatch(/^ {2}suite +checks +wall +check time$/m);
    expect(lines).toContain('auth');
    expect(lines).toContain(
      "    · the token record's createdAt and updatedAt count seconds, as the server's instruments do",
    );
    expect(res.stdout).toMatch(/^· timestamps: Unix timestamps count seconds/m);
    expect(res.stdout).toMatch(
      /^ {4}REQ-LIFE-04 ".*" — auth\.expiry\.after-60-minutes skipped: runs only with --long: .* → run with --long$/m,
    );
    const both = await runCli(['run', '-v', '--reporter', 'dot']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--verbose.*cannot be used with.*--reporter/);
  });

  it('prints with --reporter dot a character per check, then the summary', async () => {
    const res = await runCli(['run', '--suite', 'resources', '--reporter', 'dot']);
    expect(res.code).toBe(0);
    const lines = res.stdout.split('\n');
    const checks = suites.find((s) => s.name === 'resources')!.checks.length;
    expect(lines[2]).toMatch(new RegExp(`^[·-]{${checks}}$`));
    expect(lines[3]).toBe('');
    expect(res.stdout).toMatch(/^\d+ passed, 0 failed, 0 warned, \d+ skipped$/m);
    expect(res.stdout).not.toMatch(/^ {2}[✓-] /m);
  });

  it('selects with --suite and --grep, and rejects an unknown suite with exit 2', async () => {
    const only = await runCli(['run', '--suite', 'resources', '--grep', 'customers.no-token']);
    expect(only.code).toBe(0);
    expect(only.stdout).toMatch(/^1 passed, 0 failed, 0 warned, 0 skipped$/m);
    const bad = await runCli(['run', '--suite', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toEqual([
      'conformance: --suite: unknown suite "nope"; choose from auth, signing, pagination, resources, ussd, webhooks [CONFORMANCE_ERR_USAGE]',
    ]);
  });

  it('prints the version fast, without loading the engine', async () => {
    const res = await runCli(['--version']);
    expect(res.code).toBe(0);
    expect(res.stdout.trim()).toBe(
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version,
    );
  });
});

describe('the verdict of a clean run of the built-in target', () => {
  // Moved from test/e2e/verdict.test.ts, where it spawned a run of its own (`run`, no file reports): it reads the clean
  // run above, whose terminal output is the same but for the line naming the reports.
  it('is INCOMPLETE, naming REQ-LIFE-04 and --long, never PASS, and exits 0', () => {
    const { res } = clean;
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(
      /^\d+ passed, 0 failed, 0 warned, \d+ skipped\nINCOMPLETE: \d+ MUST requirements? not exercised \(of \d+\), none failed: .*REQ-LIFE-04/m,
    );
    // One line for the cause, naming every requirement it keeps from the verdict (--reporter verbose: one per requirement).
    expect(res.stdout).toMatch(
      /^ {4}\d+ MUST requirements: auth\.expiry\.after-60-minutes skipped: runs only with --long: .* → run with --long \(.*REQ-LIFE-04.*\)$/m,
    );
    expect(res.stdout.match(/runs only with --long: it waits/g)).toHaveLength(2);
    expect(res.stdout).toMatch(
      /^\d+ MUST requirements of the spec are out of reach of a black-box test and not part of the verdict: 'conformance coverage' lists them with why$/m,
    );
    expect(res.stdout).not.toMatch(/\bPASS\b|^CONFORMANT/m);
  });
});

describe('conformance run against a configured target', () => {
  const SECRET = 'e2e-client-secret-5b1f0c9e7d';
  const key = generateEd25519();
  const issuedTokens: string[] = [];
  let server: ReferenceServer;
  let dir: string;

  beforeAll(async () => {
    server = await startReferenceServer({
      clients: [{ clientId: 'partner', clientSecret: SECRET, keyId: 'partner-2026', publicKey: key.publicKey }],
      // Captures every token the server hands out, to prove none reaches a report; and, like a hostile server, echoes
      // the caller's Authorization header in a customer that breaks the schema, so the failure's exchange is printed.
      middleware: [
        async (ctx, _state, route, next) => {
          const reply = await next();
          if (route.path === '/customers/:customerId' && reply.status === 200) {
            const echoed = ctx.headers.find(([n]) => n.toLowerCase() === 'authorization')?.[1];
            return {
              ...reply,
              body: {
                data: { customerId: Number(ctx.params.customerId), status: 'BOGUS', note: `you sent ${echoed}` },
                code: '200',
                message: 'Success',
              },
            };
          }
          const token = (reply.body as { data?: { token?: unknown } } | undefined)?.data?.token;
          if (route.path === '/oauth/token' && typeof token === 'string') issuedTokens.push(token);
          return reply;
        },
      ],
    });
    dir = tmp();
    writeFileSync(join(dir, 'partner.pem'), key.privateKeyPem, { mode: 0o600 });
    writeFileSync(
      join(dir, 'conformance.config.json'),
      JSON.stringify({
        targets: {
          partner: {
            baseUrl: server.baseUrl,
            clientId: 'partner',
            clientSecret: '${PARTNER_SECRET}',
            keyId: 'partner-2026',
            privateKeyFile: './partner.pem',
            fixtures: defaultFixtures(),
          },
          wrongsecret: {
            baseUrl: server.baseUrl,
            clientId: 'partner',
            clientSecret: 'not-the-secret',
            keyId: 'partner-2026',
            privateKeyFile: './partner.pem',
          },
        },
      }),
    );
  });
  afterAll(() => server.close());

  it('keeps the client secret, the private key and every bearer token out of all three reports', async () => {
    // Every suite but webhooks: this server was not told to trust the receiver's certificate, so its checks would only
    // wait out their deadlines; the secrets at stake here travel in the other suites' exchanges.
    const res = await runCli(
      [
        'run',
        '--target',
        'partner',
        '--suite',
        'auth,signing,pagination,resources,ussd',
        '--junit',
        'r.xml',
        // Every exchange, the passing checks' too: the lean default would leave most of them out of this search.
        '--junit-exchanges',
        'all',
        '--json',
        'r.json',
      ],
      { cwd: dir, env: { PARTNER_SECRET: SECRET } },
    );
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/✗ resources\.customers\.get +MUST/);
    expect(res.stdout).toContain('Customer: data.status must be one of "ACTIVE", "SUSPENDED", "CLOSED"');
    expect(res.stdout).toContain('you sent Bearer [redacted]');
    expect(issuedTokens.length).toBeGreaterThanOrEqual(2);
    const reports = {
      human: res.stdout + res.stderr,
      junit: readFileSync(join(dir, 'r.xml'), 'utf8'),
      json: readFileSync(join(dir, 'r.json'), 'utf8'),
    };
    const keyLines = key.privateKeyPem.split('\n').filter((l) => l && !l.startsWith('-----'));
    for (const [name, text] of Object.entries(reports)) {
      expect(text, name).toContain('[redacted]');
      for (const secret of [
        SECRET,
        encodeURIComponent(SECRET),
        ...keyLines,
        Buffer.from(key.seed).toString('base64'),
        ...issuedTokens,
      ]) {
        expect(
          text.includes(secret),
          `${name} contains a secret: ${secret.slice(0, 6)}… at ${text.slice(Math.max(0, text.indexOf(secret) - 80), text.indexOf(secret) + 10)}`,
        ).toBe(false);
      }
    }
  });

  it('exits 2 with one line naming baseUrl when the target has none', async () => {
    // The whole file is validated, so the broken target lives in a file of its own.
    writeFileSync(
      join(dir, 'nobase.json'),
      JSON.stringify({
        targets: { nobase: { clientId: 'partner', clientSecret: 'x', keyId: 'k', privateKeyFile: './partner.pem' } },
      }),
    );
    const res = await runCli(['run', '--target', 'nobase', '--config', 'nobase.json'], { cwd: dir });
    expect(res.code).toBe(2);
    const lines = res.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^conformance: config: targets\.nobase\.baseUrl is missing.* \[CONFORMANCE_ERR_CONFIG\]$/);
    expect(res.stdout).toBe('');
  });

  it('exits 3 with one line when no token can be obtained', async () => {
    const res = await runCli(['run', '--target', 'wrongsecret'], { cwd: dir });
    expect(res.code).toBe(3);
    expect(res.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^conformance: no token: POST http:\/\/127\.0\.0\.1:\d+\/v1\/oauth\/token answered 401 \(the server said: code "[A-Z_0-9]+", message "Unauthorized"\); check clientId, clientSecret.* \[CONFORMANCE_ERR_NO_TOKEN\]$/,
      ),
    ]);
    expect(res.stderr).not.toContain('not-the-secret');
    expect(res.stdout).toBe('');
  });

  it('exits 3 at once when the base URL is unreachable (refused, not waited for), without a stack trace', async () => {
    const port = await closedPort();
    const cfg = join(dir, 'unreachable.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        targets: {
          gone: {
            baseUrl: `http://127.0.0.1:${port}/v1`,
            clientId: 'c',
            clientSecret: 's',
            keyId: 'k',
            privateKeyFile: './partner.pem',
          },
        },
      }),
    );
    // A request timeout the refusal cannot lose to: ECONNREFUSED in the message shows the run did not wait for it.
    const res = await runCli(['run', '--target', 'gone', '--config', cfg, '--timeout', String(WAIT_MS)], { cwd: dir });
    expect(res.code).toBe(3);
    const lines = res.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^conformance: target unreachable: POST http:\/\/127\.0\.0\.1:(\d+)\/v1\/oauth\/token: nothing listens at 127\.0\.0\.1:\1 \(ECONNREFUSED\); check baseUrl, and that the server is running there \[CONFORMANCE_ERR_TARGET_UNREACHABLE\]$/,
    );
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(res.stdout).toBe('');
  });

  it('exits 2 for an unknown option or target', async () => {
    const opt = await runCli(['run', '--no-such-flag'], { cwd: dir });
    expect(opt.code).toBe(2);
    expect(opt.stderr).toMatch(/^conformance: unknown option '--no-such-flag' \[CONFORMANCE_ERR_USAGE\]$/m);
    const target = await runCli(['run', '--target', 'staging'], { cwd: dir });
    expect(target.code).toBe(2);
    expect(target.stderr.trim().split('\n')).toHaveLength(1);
    expect(target.stderr).toMatch(
      /^conformance: config: no target named "staging".* \[CONFORMANCE_ERR_UNKNOWN_TARGET\]$/m,
    );
  });

  it('exits 2 with one line naming the option for a number that is not a positive whole number', async () => {
    const res = await runCli(['run', '--concurrency', '0'], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr.trim().split('\n')).toEqual([
      'conformance: --concurrency: "0" is not a positive whole number; give one like 4 [CONFORMANCE_ERR_USAGE]',
    ]);
    expect(res.stdout).toBe('');
  });
});
