// `conformance serve` as a client developer uses it, and `run --fault` on the built-in target.
import { describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, runCli, waitForOutput } from '../helpers/cli.js';
import { WAIT_MS } from '../helpers/waits.js';
import { signedFetch, type TestClient } from '../helpers/signed-fetch.js';
import { parsePrivateKeyPem } from '../../src/http/keys.js';
import { signRequest } from '../../src/http/signature.js';

describe('conformance serve', () => {
  it('writes a target config that `run --config` passes against, and stops cleanly on Ctrl-C', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-serve-'));
    const child = spawn(process.execPath, [BIN, 'serve', '--config-out', 't.json'], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
    });
    try {
      const banner = await waitForOutput(child, /Press Ctrl-C to stop\./);
      expect(banner).toMatch(/base URL +http:\/\/127\.0\.0\.1:\d+\/v1/);
      expect(statSync(join(dir, 't.json')).mode & 0o077).toBe(0);
      const config = JSON.parse(readFileSync(join(dir, 't.json'), 'utf8')) as {
        targets: Record<string, { privateKey: string; fixtures: object }>;
      };
      expect(Object.keys(config.targets)).toEqual(['sandbox']);
      expect(config.targets.sandbox!.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----/);

      const res = await runCli(['run', '--config', 't.json', '--target', 'sandbox'], { cwd: dir });
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(/against sandbox \(http:\/\/127\.0\.0\.1:\d+\/v1\)/);
      expect(res.stdout).toMatch(/^\d+ passed, 0 failed, 0 warned, \d+ skipped$/m);
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    }
  });

  it('lists its faults with suite and the requirements each breaks, quoted', async () => {
    const res = await runCli(['serve', '--list-faults']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^\d+ faults$/m);
    expect(res.stdout).toMatch(/^auth\.token-type-lowercase +auth +the token record says tokenType "bearer"$/m);
    expect(res.stdout).toMatch(
      /breaks: REQ-TOKEN-06 \(Auth token record\): "\| tokenType \| Authorization type; always `Bearer` \|"/,
    );
  });
});

/** `serve` in a fresh directory with `args`; resolves once the banner is out, with the client its config holds. */
async function startServe(
  args: string[],
): Promise<{ child: ChildProcess; banner: string; baseUrl: string; client: TestClient }> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-serve-log-'));
  const child = spawn(process.execPath, [BIN, 'serve', '--config-out', 't.json', ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1' },
  });
  const banner = await waitForOutput(child, /Press Ctrl-C to stop\./);
  const target = (
    JSON.parse(readFileSync(join(dir, 't.json'), 'utf8')) as {
      targets: Record<
        string,
        { baseUrl: string; clientId: string; clientSecret: string; keyId: string; privateKey: string }
      >;
    }
  ).targets.sandbox!;
  const client = { ...target, keys: { ...parsePrivateKeyPem(target.privateKey), privateKeyPem: target.privateKey } };
  return { child, banner, baseUrl: target.baseUrl, client };
}

/** Stops `serve` with Ctrl-C and resolves with the rest of its output, within a deadline. */
function stopServe(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let rest = '';
    const timer = setTimeout(() => reject(new Error(`serve did not stop within ${WAIT_MS} ms; got: ${rest}`)), WAIT_MS);
    child.stdout!.on('data', (chunk: Buffer) => (rest += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(rest);
      else reject(new Error(`serve exited with ${code}`));
    });
    child.kill('SIGINT');
  });
}

describe('conformance serve: the request log', () => {
  it('prints one line per request with status, method, path, code and reason, and the signature base of a bad signature', async () => {
    const { child, banner, baseUrl, client } = await startServe([]);
    try {
      expect(banner).toContain('  log        one line per request below');
      const origin = new URL(baseUrl).origin;

      const missing = waitForOutput(child, /^401 GET \/v1\/customers\/1042 TOKEN_MISSING .*$/m);
      const unsigned = await fetch(`${baseUrl}/customers/1042`, { signal: AbortSignal.timeout(WAIT_MS) });
      expect(unsigned.status).toBe(401);
      expect(await unsigned.json()).toEqual({ code: 'TOKEN_MISSING', message: 'Unauthorized' });
      expect(unsigned.headers.get('conformance-rejection')).toBe(
        'TOKEN_MISSING;reason="no Authorization header: send \\"Authorization: Bearer <token>\\""',
      );
      expect(await missing).toMatch(
        /^401 GET \/v1\/customers\/1042 TOKEN_MISSING no Authorization header: send "Authorization: Bearer <token>"$/m,
      );

      // A token, then a read signed for /customers/1043 but sent to /customers/1042.
      const served = waitForOutput(child, /^200 POST \/v1\/oauth\/token$/m);
      const token = (
        await signedFetch({
          method: 'POST',
          url: `${baseUrl}/oauth/token`,
          client,
          body: new URLSearchParams({ clientId: client.clientId, clientSecret: client.clientSecret }).toString(),
          contentType: 'application/x-www-form-urlencoded',
          sendClientId: false,
        })
      ).body.data.token as string;
      await served;
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'x-client-id': client.clientId };
      const signed = signRequest(
        { method: 'GET', url: `${baseUrl}/customers/1043`, headers: Object.entries(headers) },
        { keyId: client.keyId, privateKey: client.keys.seed },
      );
      const baseLogged = waitForOutput(child, /"@signature-params": [^\n]*\n/);
      const bad = await fetch(`${baseUrl}/customers/1042`, {
        headers: { ...headers, 'signature-input': signed.signatureInput, signature: signed.signature },
        signal: AbortSignal.timeout(WAIT_MS),
      });
      expect(bad.status).toBe(401);
      expect(((await bad.json()) as { code: string }).code).toBe('SIGNATURE_INVALID');
      const out = await baseLogged;
      const lines = out.split('\n');
      const at = lines.findIndex((l) => l.startsWith('401 GET /v1/customers/1042 SIGNATURE_INVALID '));
      expect(lines[at]).toBe(
        `401 GET /v1/customers/1042 SIGNATURE_INVALID the signature does not verify against the signature base (label sig1, keyid "${client.keyId}"); the log of conformance serve shows the base this server built`,
      );
      expect(lines[at + 1]).toBe('    the signature base this server built (diff it with the one your client signed):');
      // The client's base with the target it was sent to: what the server built, line for line, indented.
      const expected = signed.base.replaceAll('/v1/customers/1043', '/v1/customers/1042').split('\n');
      expect(lines.slice(at + 2, at + 2 + expected.length)).toEqual(expected.map((l) => `      ${l}`));
      expect(expected[1]).toBe(`"@target-uri": ${origin}/v1/customers/1042`);
    } finally {
      await stopServe(child);
    }
  });

  it('logs nothing with --quiet', async () => {
    const { child, banner, baseUrl } = await startServe(['--quiet']);
    let output = banner;
    try {
      expect(banner).toContain('  log        off (--quiet)');
      const res = await fetch(`${baseUrl}/customers/1042`, { signal: AbortSignal.timeout(WAIT_MS) });
      expect(res.status).toBe(401);
      expect(res.headers.get('conformance-rejection')).toMatch(/^TOKEN_MISSING;reason="/);
    } finally {
      output += await stopServe(child);
    }
    expect(output).not.toMatch(/^\d{3} [A-Z]+ \//m);
    expect(output).toMatch(/^stopped$/m);
  });

  it('logs nothing from the embedded target of `conformance run`', async () => {
    const res = await runCli(['run', '--suite', 'auth']);
    expect(res.code).toBe(0);
    // The auth suite is refused dozens of times on purpose; none of it reaches the run's output.
    expect(res.stdout).not.toMatch(/^\d{3} [A-Z]+ \/v1\//m);
    expect(res.stdout).not.toMatch(/TOKEN_MISSING|SIGNATURE_INVALID/);
  });
});

describe('conformance run --fault on the built-in target', () => {
  // Its run under a fault fails the check that catches it: test/e2e/verdict.test.ts, on the faulted run made there.
  it('rejects an unknown fault, or a fault for a configured target, with exit 2', async () => {
    const unknown = await runCli(['run', '--fault', 'no.such-fault']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim()).toBe(
      `conformance: --fault: unknown fault "no.such-fault"; 'conformance serve --list-faults' lists them [CONFORMANCE_ERR_USAGE]`,
    );
    const configured = await runCli(['run', '--target', 'staging', '--fault', 'auth.token-type-lowercase']);
    expect(configured.code).toBe(2);
    expect(configured.stderr.trim()).toBe(
      'conformance: --fault, --variant and --choice apply to the built-in target "local" only [CONFORMANCE_ERR_USAGE]',
    );
  });
});

describe('conformance list', () => {
  it('lists every check with id, level, suite and spec section, and as JSON with the requirements it enforces', async () => {
    const text = await runCli(['list']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /^auth\.token\.issued +MUST +auth +What the service does; Auth token record; Token lifecycle \(moves that are shown\); Authentication endpoints — /m,
    );
    expect(text.stdout).toMatch(/^\d+ checks$/m);
    const json = await runCli(['list', '--suite', 'resources', '--json']);
    const checks = JSON.parse(json.stdout) as Array<{
      id: string;
      suite: string;
      requirements: Array<{ id: string; quote: string }>;
    }>;
    expect(checks.length).toBeGreaterThan(0);
    expect(
      checks.every(
        (c) =>
          c.suite === 'resources' &&
          c.id.startsWith('resources.') &&
          c.requirements.length > 0 &&
          c.requirements.every((r) => r.quote.length > 0),
      ),
    ).toBe(true);
  });
});
