// `conformance serve` as a client developer uses it, and `run --fault` on the built-in target.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, runCli, waitForOutput } from '../helpers/cli.js';

describe('conformance serve', () => {
  it('writes a target config that `run --config` passes against, and stops cleanly on Ctrl-C', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-serve-'));
    const child = spawn(process.execPath, [BIN, 'serve', '--config-out', 't.json'], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
    });
    try {
      const banner = await waitForOutput(child, /Press Ctrl-C to stop\./, 15_000);
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

describe('conformance run --fault on the built-in target', () => {
  it('fails the check that catches the fault, with exit 1', async () => {
    const res = await runCli(['run', '--fault', 'auth.token-type-lowercase']);
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/✗ auth\.token\.type-bearer +MUST/);
    expect(res.stdout).toContain('tokenType is "bearer", not "Bearer"');
    // One cause, one failure: the check of the whole record notes it, the check of tokenType fails on it.
    expect(res.stdout).toMatch(/✓ auth\.token\.issued +MUST/);
  });

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
