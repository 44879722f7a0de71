// A partner's webhook set-up from an empty folder (issue 18): `init` and `keygen` make the receiver's certificate, a
// server that trusts it (the reference server with `serve --webhook-ca`) delivers to it and the webhooks suite passes;
// a server that does not trust it gives one set-up problem, never MUST failures of the server. And `--webhook-ca` adds
// to what the sandbox trusts: its own `--config-out` config still passes.
import { describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, runCli, waitForOutput } from '../helpers/cli.js';
import { localTarget, stopsAfterEach } from '../helpers/webhook-targets.js';
import { RECEIVER_CERT_FILE } from '../../src/cli/receiver-certificate.js';
import { INIT_ENV } from '../../src/cli/init.js';
import { loadConfig } from '../../src/config/load.js';
import { runChecks, type CheckResult } from '../../src/engine/index.js';
import { pack } from '../../suites/index.js';

const stops = stopsAfterEach();

interface SandboxTarget {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  keyId: string;
  privateKey: string;
}

/** `init --target staging` then `keygen` in an empty folder, as the README has a partner do. */
async function partnerFolder(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-partner-'));
  const init = await runCli(['init', '--target', 'staging'], { cwd: dir });
  expect(init.stderr).toBe('');
  expect(init.code).toBe(0);
  const keygen = await runCli(['keygen'], { cwd: dir });
  expect(keygen.stderr).toBe('');
  expect(keygen.code).toBe(0);
  return dir;
}

/** Points the partner's "staging" target at a server: its base URL and client; the secrets stay ${ENV} references. */
function aimAt(dir: string, server: Pick<SandboxTarget, 'baseUrl' | 'clientId' | 'keyId'>): void {
  const file = join(dir, 'conformance.config.json');
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { targets: { staging: Record<string, unknown> } };
  Object.assign(doc.targets.staging, { baseUrl: server.baseUrl, clientId: server.clientId, keyId: server.keyId });
  writeFileSync(file, JSON.stringify(doc, null, 2));
}

/** `conformance serve` in `dir` until the test ends; its target config as --config-out wrote it. */
async function serve(dir: string, args: string[]): Promise<{ target: SandboxTarget; banner: string }> {
  const child: ChildProcess = spawn(
    process.execPath,
    [BIN, 'serve', '--quiet', '--config-out', 'sandbox.json', ...args],
    {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  stops.push(async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    await exited;
  });
  const banner = await waitForOutput(child, /Press Ctrl-C to stop\./);
  const config = JSON.parse(readFileSync(join(dir, 'sandbox.json'), 'utf8')) as {
    targets: { sandbox: SandboxTarget };
  };
  return { target: config.targets.sandbox, banner };
}

/** The webhooks checks of a JSON report that did not pass, with why. */
function notPassed(report: { checks: CheckResult[] }): string[] {
  return report.checks
    .filter((c) => c.suite === 'webhooks' && c.outcome !== 'pass')
    .map((c) => `${c.id}: ${c.outcome} ${c.finding?.message ?? c.skipReason ?? ''}`);
}

describe("the webhook receiver's certificate, from init to a passing run", () => {
  it('passes the webhooks suite against a server given the certificate init made; --webhook-ca adds to what the sandbox trusts', async () => {
    const dir = await partnerFolder();
    const { target: sandbox, banner } = await serve(dir, ['--webhook-ca', RECEIVER_CERT_FILE]);
    expect(banner).toContain(
      `  webhooks   the sandbox trusts the receiver certificate ./sandbox.receiver-cert.pem that this config gives the run's receiver, and those of ${RECEIVER_CERT_FILE} (--webhook-ca)\n`,
    );
    aimAt(dir, sandbox);
    const env = { [INIT_ENV.clientSecret]: sandbox.clientSecret, [INIT_ENV.privateKey]: sandbox.privateKey };

    const staging = await runCli(['run', '--target', 'staging', '--suite', 'webhooks', '--json', 'staging.json'], {
      cwd: dir,
      env,
    });
    expect(staging.stderr).toBe('');
    expect(staging.code).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'staging.json'), 'utf8')) as {
      run: { setupProblems?: unknown; notes?: string[] };
      checks: CheckResult[];
    };
    expect(notPassed(report)).toEqual([]);
    expect(report.run.setupProblems).toBeUndefined();
    // Every delivery came to the receiver presenting the certificate of the partner's folder.
    const saved = report.checks.find((c) => c.id === 'webhooks.config.saved')!;
    expect(saved.observations[0]).toMatch(
      /^receiver: https:\/\/127\.0\.0\.1:\d+\/conformance\/webhook \(TLS with the receiver's own certificate\)/,
    );

    // The sandbox's own config, its own receiver certificate: still trusted beside the one --webhook-ca added.
    const own = await runCli(
      [
        'run',
        '--config',
        'sandbox.json',
        '--target',
        'sandbox',
        '--suite',
        'webhooks',
        '--json',
        'sandbox-report.json',
      ],
      { cwd: dir },
    );
    expect(own.stderr).toBe('');
    expect(own.code).toBe(0);
    const ownReport = JSON.parse(readFileSync(join(dir, 'sandbox-report.json'), 'utf8')) as { checks: CheckResult[] };
    // The same client as the run before, under another target name of the same folder: its webhook exists, so nothing
    // is created; the creation the run before observed and recorded is carried forward, and everything passes.
    expect(notPassed(ownReport)).toEqual([]);
    for (const id of ['webhooks.create.auto-subscription', 'webhooks.events.webhook-created'])
      expect(ownReport.checks.find((c) => c.id === id)!.observations[0]).toMatch(
        /^not observed in this run: a webhook existed before the suite for client "conformance-local", and the interface has no DELETE; carried forward from the creation observed at \S+ \(POST \/webhooks by client "conformance-local", X-Idempotency-Key [\w-]+, answered 200\)/,
      );
    expect(ownReport.checks.filter((c) => c.suite === 'webhooks').length).toBe(
      pack.suites.find((s) => s.name === 'webhooks')!.checks.length,
    );
  });

  it('gives one set-up problem, no MUST failure, when the server does not trust that certificate', async () => {
    const dir = await partnerFolder();
    // The reference server trusts only the certificate of its own process, not the one init made.
    const l = await localTarget(stops);
    aimAt(dir, l.target);
    const config = await loadConfig({
      cwd: dir,
      target: 'staging',
      env: { [INIT_ENV.clientSecret]: l.target.clientSecret, [INIT_ENV.privateKey]: l.target.privateKeyPem },
    });
    const target = config.targets.staging!;
    expect(target.webhook.tls).toEqual({
      certFile: join(dir, RECEIVER_CERT_FILE),
      keyFile: join(dir, 'conformance-receiver-key.pem'),
    });
    // Nothing is due to arrive: the deadline only bounds how long the run waits before saying so.
    const result = await runChecks({
      pack,
      target,
      selection: { suites: ['webhooks'] },
      suiteOptions: { webhooks: { deadlineMs: 5_000 } },
    });
    const fingerprint = new X509Certificate(readFileSync(join(dir, RECEIVER_CERT_FILE))).fingerprint256;
    const stopped = result.checks.filter((c) => c.outcome === 'skip' && c.skipRemedy?.kind === 'setup');
    expect(result.run.setupProblems).toEqual([
      {
        suite: 'webhooks',
        problem: expect.stringMatching(/^the server did not trust the webhook receiver's certificate: /),
        fix: `hand the receiver's certificate (${join(dir, RECEIVER_CERT_FILE)}, SHA-256 ${fingerprint}) to the provider to trust, or see docs/webhook-receiver.md`,
        checks: stopped.map((c) => c.id),
      },
    ]);
    expect(stopped.length).toBeGreaterThan(0);
    for (const c of stopped) expect(c.skipRemedy, c.id).toEqual({ kind: 'setup', suite: 'webhooks' });
    // No MUST failure of the server: what needed a delivery is not exercised, everything else passed.
    expect(result.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn' || c.outcome === 'error')).toEqual(
      [],
    );
    expect(result.verdict.status).toBe('INCOMPLETE');
    expect(result.verdict.failed).toEqual([]);
    const events = result.verdict.notExercised.find((r) => r.id === 'REQ-EVT-12')!;
    expect(events.checks.filter((c) => c.outcome === 'skip').map((c) => c.remedy)).toEqual(
      [
        'webhooks.events.webhook-created',
        'webhooks.events.auth-created',
        'webhooks.events.auth-deleted',
        'webhooks.events.webhook-updated',
      ].map(() => `fix the webhooks set-up: ${result.run.setupProblems![0]!.fix}`),
    );
  });
});
