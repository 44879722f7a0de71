// End to end: `conformance curl` and `conformance replay` (the compiled CLI) against the embedded reference server and a
// configured one, and the replay line of a failure run as a user pastes it into bash.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, runCli, type CliResult } from '../helpers/cli.js';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js';
import { defaultFixtures } from '../../src/reference/store.js';
import { generateEd25519 } from '../../src/http/keys.js';
import { verifySignature } from '../../src/http/signature.js';
import { WAIT_MS } from '../helpers/waits.js';

const INSTRUMENTS = '/instruments?investmentType=INTERNATIONAL_STOCKS';
/**
 * A signing fault of the embedded server, and the check it warns on (SHOULD: which key verifies is verifier policy, so
 * the run fails on it with --fail-on should): the keyid of a signature is not looked at.
 */
const FAULT = 'signing.keyid-ignored';
const CHECK = 'signing.reject.unknown-keyid';

const tmp = () => mkdtempSync(join(tmpdir(), 'conformance-curl-'));

/** Runs a line in bash as pasted, `npx conformance` being this build's CLI; a deadline fails a hang. */
function paste(line: string, cwd: string): Promise<CliResult> {
  const started = Date.now();
  const script = `npx() { [ "$1" = conformance ] && shift; "${process.execPath}" "${BIN}" "$@"; }\n${line}`;
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', script],
      { cwd, timeout: WAIT_MS, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr, ms: Date.now() - started });
      },
    );
  });
}

const statusLine = (stdout: string) => stdout.split('\n')[0];

/** A loopback port with nothing listening: bind one, note it, release it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('conformance curl against the embedded reference server', () => {
  it('obtains a token, signs, sends, prints the status line, headers and body, and says the server lives for this command only', async () => {
    const res = await runCli(['curl', INSTRUMENTS]);
    expect(res.code).toBe(0);
    expect(statusLine(res.stdout)).toBe('HTTP/1.1 200 OK');
    const [head, body] = res.stdout.split('\n\n');
    expect(head).toMatch(/^content-type: application\/json$/m);
    const parsed = JSON.parse(body!) as { code: string; data: Array<{ symbol: string }> };
    expect(parsed.code).toBe('200');
    expect(parsed.data.map((i) => i.symbol)).toContain('AAPL');
    expect(res.stderr).toBe(
      "conformance: target local: the embedded reference server, variant strict; every open point at its default reading; no faults; started for this command only, with the fixtures' starting data (nothing an earlier run changed), and stopped when it ends\n",
    );
  });

  it('--print-headers prints the headers to paste, Signature-Input among them, and sends nothing', async () => {
    const res = await runCli(['curl', '--print-headers', INSTRUMENTS]);
    expect(res.code).toBe(0);
    const names = res.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.slice(0, l.indexOf(':')));
    expect(names).toEqual(['Authorization', 'X-Client-Id', 'Signature-Input', 'Signature']);
    expect(res.stdout).toMatch(
      /^Signature-Input: sig1=\("@method" "@target-uri" "@path" "@query" "authorization" "x-client-id"\);keyid="local-[0-9a-f]{8}";created=\d+;expires=\d+$/m,
    );
    expect(res.stdout).not.toContain('HTTP/1.1');
    expect(res.stderr).toMatch(
      /^conformance: the headers of GET http:\/\/127\.0\.0\.1:\d+\/v1\/instruments\?investmentType=INTERNATIONAL_STOCKS \(not sent\)$/m,
    );
    expect(res.stderr).toContain('conformance:   "@method": GET\n');
  });

  it('ends a command line it cannot take in one line with its code and exit 2', async () => {
    const bad = await runCli(['curl', '-H', 'no colon', '/x']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe(
      `conformance: -H: "no colon" is not a header: write it as 'Name: value' (or 'Name:' to send the request without it) [CONFORMANCE_ERR_USAGE]\n`,
    );
    const fault = await runCli(['curl', '--fault', 'no.such-fault', '/x']);
    expect(fault.code).toBe(2);
    expect(fault.stderr).toMatch(/unknown fault "no\.such-fault".*\[CONFORMANCE_ERR_USAGE\]\n$/);
    const elsewhere = await runCli(['curl', 'https://elsewhere.example/v1/x']);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toMatch(/https:\/\/elsewhere\.example\/v1\/x is not on the target's origin/);
  });
});

describe('conformance curl against a configured target', () => {
  const key = generateEd25519();
  let server: ReferenceServer;
  let dir: string;

  beforeAll(async () => {
    server = await startReferenceServer({
      clients: [
        { clientId: 'partner', clientSecret: 'curl-e2e-secret-8c1d', keyId: 'partner-2026', publicKey: key.publicKey },
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
            clientSecret: 'curl-e2e-secret-8c1d',
            keyId: 'partner-2026',
            privateKeyFile: './partner.pem',
            fixtures: defaultFixtures(),
          },
        },
      }),
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  it("signs with the target's key: the printed headers verify with its public key, and the token they carry works", async () => {
    const res = await runCli(['curl', '--target', 'partner', '--print-headers', INSTRUMENTS], {
      cwd: dir,
    });
    expect(res.code).toBe(0);
    const headers = res.stdout
      .trimEnd()
      .split('\n')
      .map((l): [string, string] => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]);
    const verdict = verifySignature(
      { method: 'GET', url: `${server.baseUrl}${INSTRUMENTS}`, headers },
      { key: key.publicKey, requireCreated: true, requireExpires: true },
    );
    expect(verdict).toMatchObject({ ok: true, keyId: 'partner-2026' });
    // Not revoked: the headers are for sending elsewhere, and they work there.
    const again = await fetch(`${server.baseUrl}${INSTRUMENTS}`, { headers });
    expect(again.status).toBe(200);
    expect(res.stderr).toMatch(/the token is not revoked, or the headers would be of no use/);
  });

  it("revokes its token after the request; the status is the server's, the exit code 0; an unreachable target is exit 3", async () => {
    // Without a bearer token the revocation is refused: the status is the server's, the exit code 0 (as curl's).
    const refused = await runCli(
      ['curl', '--target', 'partner', '-X', 'POST', '/oauth/revoke', '-H', 'Authorization:'],
      {
        cwd: dir,
      },
    );
    expect(refused.code).toBe(0);
    expect(statusLine(refused.stdout)).toBe('HTTP/1.1 401 Unauthorized');
    expect(refused.stderr).toBe('');
    // A request that revokes the command's own token: the revocation after it finds the token ended (a 401, and a read
    // with it refused too), so no live token is left and nothing needs saying.
    const own = await runCli(['curl', '--target', 'partner', '-X', 'POST', '/oauth/revoke'], {
      cwd: dir,
    });
    expect(statusLine(own.stdout)).toBe('HTTP/1.1 200 OK');
    expect(own.stderr).toBe('');
    writeFileSync(
      join(dir, 'gone.json'),
      JSON.stringify({
        targets: {
          gone: {
            baseUrl: `http://127.0.0.1:${await closedPort()}/v1`,
            clientId: 'c',
            clientSecret: 's',
            keyId: 'k',
            privateKeyFile: './partner.pem',
          },
        },
      }),
    );
    const gone = await runCli(['curl', '--target', 'gone', '--config', 'gone.json', '--timeout', '2000', INSTRUMENTS], {
      cwd: dir,
    });
    expect(gone.code).toBe(3);
    expect(gone.stderr).toMatch(/^conformance: target unreachable: .*\[CONFORMANCE_ERR_TARGET_UNREACHABLE\]\n$/);
  });
});

describe('a failure of a run with a signing fault: its replay line, and conformance replay', () => {
  let dir: string;
  let run: CliResult;

  beforeAll(async () => {
    dir = tmp();
    run = await runCli(
      ['run', '--suite', 'signing', '--fault', FAULT, '--fail-on', 'should', '--json', 'r.json', '--junit', 'r.xml'],
      {
        cwd: dir,
      },
    );
  });

  /** The replay line the terminal report shows under the check's failure. */
  function replayLineOf(stdout: string): string {
    const lines = stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith(`  ! ${CHECK} `));
    expect(at).toBeGreaterThan(0);
    const replay = lines.slice(at).find((l) => l.startsWith('    replay    '));
    return replay!.slice('    replay    '.length);
  }

  it('shows a replay line that, pasted as it is, reproduces the failing status; without the fault, the rejection', async () => {
    expect(run.code).toBe(1);
    const line = replayLineOf(run.stdout);
    expect(line).toMatch(
      new RegExp(
        `^npx conformance curl /customers/1042 --keyid local-[0-9a-f]{8}-unknown-[0-9a-f]{8} --target local --fault ${FAULT}$`,
      ),
    );
    // The JUnit report carries the same line.
    expect(readFileSync(join(dir, 'r.xml'), 'utf8')).toContain(line);
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
    const failing = report.checks.find((c: { id: string }) => c.id === CHECK);
    expect(failing.outcome).toBe('warn');
    expect(failing.exchanges.at(-1).response.status).toBe(200);
    expect(report.run.replay.targetArgs).toEqual(['--target', 'local', '--fault', FAULT]);

    const pasted = await paste(line, dir);
    expect(pasted.code).toBe(0);
    expect(statusLine(pasted.stdout)).toBe('HTTP/1.1 200 OK');
    const clean = await paste(line.replace(` --fault ${FAULT}`, ''), dir);
    expect(statusLine(clean.stdout)).toBe('HTTP/1.1 401 Unauthorized');
  });

  it('conformance replay says STILL FAILING against the same faulty server, FIXED against a clean one', async () => {
    const still = await runCli(['replay', 'r.json', CHECK], { cwd: dir });
    expect(still.stderr).toBe('');
    expect(still.code).toBe(1);
    const lines = still.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`replay ${CHECK} (warn in ${join(dir, 'r.json')})`);
    expect(lines[1]).toContain(`faults ${FAULT}`);
    expect(lines).toContain('  #1 GET /v1/customers/1042: 200 in the report, 200 now — unchanged');
    expect(lines.at(-1)).toBe('STILL FAILING: it warns again: 200: the server accepted the request');

    const fixed = await runCli(['replay', 'r.json', CHECK, '--target', 'local'], { cwd: dir });
    expect(fixed.code).toBe(0);
    const after = fixed.stdout.trimEnd().split('\n');
    expect(after[1]).toContain('no faults');
    expect(after).toContain('  #1 GET /v1/customers/1042: 200 in the report, 401 now — CHANGED');
    expect(after.at(-1)).toBe('FIXED: it passes now (it was warn)');
  });
});
