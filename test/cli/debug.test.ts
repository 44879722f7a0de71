// CONFORMANCE_DEBUG=1: the exchanges of the command on stderr, masked as the reports are, above the one line that says
// why the run stopped; without it, that one line alone.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateEd25519 } from '../../src/http/keys.js';
import { startEchoServer } from '../helpers/echo-server.js';
import { runCli } from '../helpers/cli.js';

const SECRET = 'partner-secret-4f9a2c';
let dir: string;
let server: Awaited<ReturnType<typeof startEchoServer>>;

beforeAll(async () => {
  // Refuses the token request in the server's words, and echoes the credentials it was sent.
  server = await startEchoServer((req, res) => {
    res.statusCode = 400;
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({ code: '400', message: 'X-Idempotency-Key is required on POST', echo: req.body.toString() }),
    );
  });
  dir = await mkdtemp(join(tmpdir(), 'conformance-debug-'));
  await writeFile(join(dir, 'partner.pem'), generateEd25519().privateKeyPem, { mode: 0o600 });
  await writeFile(
    join(dir, 'conformance.config.json'),
    JSON.stringify({
      targets: {
        staging: {
          baseUrl: `${server.origin}/v1`,
          clientId: 'acme',
          clientSecret: SECRET,
          keyId: 'acme-key',
          privateKeyFile: './partner.pem',
        },
      },
    }),
  );
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('CONFORMANCE_DEBUG=1', () => {
  it('prints the token request and its answer, masked, above the one-line error', async () => {
    const res = await runCli(['run', '--target', 'staging'], { cwd: dir, env: { CONFORMANCE_DEBUG: '1' } });
    expect(res.code).toBe(3);
    expect(res.stdout).toBe('');
    const lines = res.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('conformance debug: exchange 1 (session)');
    expect(lines[1]).toBe(`request   POST ${server.origin}/v1/oauth/token`);
    expect(lines).toContain('          Signature: sig1=:[redacted]:');
    expect(lines).toContain('          clientId=acme&clientSecret=[redacted]');
    expect(lines).toContainEqual(expect.stringMatching(/^response {2}400 {2}\(\d+ B, \d+ ms\)$/));
    expect(res.stderr).toContain('"message":"X-Idempotency-Key is required on POST"');
    expect(lines).toContainEqual(expect.stringMatching(/^replay {4}npx conformance curl /));
    expect(lines.at(-1)).toMatch(
      /^conformance: no token: POST .* answered 400 \(the server said: code "400", message "X-Idempotency-Key is required on POST"\); .* \[CONFORMANCE_ERR_NO_TOKEN\]$/,
    );
    expect(res.stderr).not.toContain(SECRET);
  });

  it('is silent without it: the one line alone', async () => {
    const res = await runCli(['run', '--target', 'staging'], { cwd: dir, env: { CONFORMANCE_DEBUG: undefined } });
    expect(res.code).toBe(3);
    expect(res.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^conformance: no token: .*\[CONFORMANCE_ERR_NO_TOKEN\]$/),
    ]);
  });

  it("prints every request of a run, each check's too, while the report goes to stdout unchanged", async () => {
    const res = await runCli(['run', '--suite', 'auth', '--grep', 'auth.token.issued'], {
      cwd: dir,
      env: { CONFORMANCE_DEBUG: '1' },
    });
    expect(res.code).toBe(0);
    const headers = res.stderr.split('\n').filter((l) => l.startsWith('conformance debug: exchange '));
    expect(headers).toContainEqual(expect.stringMatching(/^conformance debug: exchange \d+ \(session\)$/));
    expect(headers).toContainEqual(expect.stringMatching(/^conformance debug: exchange \d+ \(auth\.token\.issued\)$/));
    expect(res.stdout).toMatch(/✓ auth\.token\.issued/);
    expect(res.stdout).not.toContain('conformance debug');
  });
});
