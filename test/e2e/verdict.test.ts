// The verdict as a user meets it: the compiled CLI against the embedded reference server. A run that skipped a MUST
// check says INCOMPLETE in every report, naming the requirements and what to do; it never says PASS.
import { spawn, type ChildProcess } from 'node:child_process';
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateAgainst } from '../../src/schemas.js';
import type { EvidenceManifest } from '../../src/evidence/package.js';
import type { Verdict } from '../../src/engine/index.js';
import { BIN, runCli, waitForOutput, type CliResult } from '../helpers/cli.js';

// The verdict of a clean run of the built-in target is asserted in test/e2e/cli.test.ts, on the clean run made there.
/** One whole run under a fault, read by the verdict test here and by the finding test after it. */
let faulted: CliResult;
beforeAll(async () => {
  faulted = await runCli(['run', '--fault', 'auth.token-type-lowercase']);
});

describe('the verdict of a run under a fault of the built-in target', () => {
  it('is NOT CONFORMANT under a fault, naming the requirement it breaks, and exits 1', () => {
    const res = faulted;
    expect(res.code).toBe(1);
    const line = /^NOT CONFORMANT: .*$/m.exec(res.stdout)?.[0];
    expect(line).toMatch(/^NOT CONFORMANT: 1 MUST check failed, on \d+ MUST requirements: .*REQ-TOKEN-06/);
  });
});

describe('conformance run --fault on the built-in target', () => {
  // Moved from test/e2e/serve.test.ts, where it spawned the same run (`run --fault auth.token-type-lowercase`) again.
  it('fails the check that catches the fault, with exit 1', () => {
    const res = faulted;
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/✗ auth\.token\.type-bearer +MUST/);
    expect(res.stdout).toContain('tokenType is "bearer", not "Bearer"');
    // One cause, one failure: the check of the whole record notes it, the check of tokenType fails on it.
    expect(res.stdout).toMatch(/✓ auth\.token\.issued +MUST/);
  });
});

describe('the verdict of a run whose config lacks a fixture', () => {
  let dir: string;
  let serve: ChildProcess;
  let run: Awaited<ReturnType<typeof runCli>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'conformance-verdict-'));
    serve = spawn(process.execPath, [BIN, 'serve', '--config-out', 't.json'], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
    });
    await waitForOutput(serve, /Press Ctrl-C to stop\./);
    const config = JSON.parse(readFileSync(join(dir, 't.json'), 'utf8')) as {
      targets: { sandbox: { fixtures: Record<string, number> } };
    };
    delete config.targets.sandbox.fixtures.assetId;
    writeFileSync(join(dir, 'no-asset.json'), JSON.stringify(config), { mode: 0o600 });
    run = await runCli(
      [
        'run',
        '--config',
        'no-asset.json',
        '--target',
        'sandbox',
        '--json',
        'r.json',
        '--junit',
        'r.xml',
        '--html',
        'r.html',
        '--evidence',
        'pkg',
      ],
      { cwd: dir },
    );
  });

  afterAll(async () => {
    if (serve.exitCode === null) {
      const exited = new Promise((resolve) => serve.once('exit', resolve));
      serve.kill('SIGINT');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('says INCOMPLETE in the terminal, naming the requirements and "set fixtures.assetId", and exits 0', () => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^INCOMPLETE: \d+ MUST requirements not exercised \(of \d+\), none failed: .*REQ-ASSET-01/m,
    );
    expect(run.stdout).toMatch(
      /^ {4}\d+ MUST requirements?: (\S+, )*resources\.assets\.get(,? \S+)* skipped: fixture "assetId" is not configured .* → set fixtures\.assetId in the target's config \(.*REQ-ASSET-01.*\)$/m,
    );
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(
      'reports: JSON r.json · JUnit r.xml · HTML r.html · evidence pkg/',
    );
  });

  it('says it in the JSON report, valid against its schema, with each requirement, its checks and the remedy', () => {
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as { verdict: Verdict; exitCode: number };
    expect(validateAgainst('report', report)).toEqual([]);
    expect(report.verdict.status).toBe('INCOMPLETE');
    expect(report.verdict.failed).toEqual([]);
    const asset = report.verdict.notExercised.find((r) => r.id === 'REQ-ASSET-01');
    expect(asset).toMatchObject({
      section: expect.any(String),
      quote: expect.stringContaining('assetId'),
      checks: [
        {
          id: 'resources.assets.get',
          outcome: 'skip',
          reason: expect.stringContaining('fixture "assetId"'),
          remedy: "set fixtures.assetId in the target's config",
        },
      ],
      remedy: "set fixtures.assetId in the target's config",
    });
  });

  it('says it in the JUnit properties and the HTML report', () => {
    const xml = readFileSync(join(dir, 'r.xml'), 'utf8');
    expect(xml.match(/<property name="verdict" value="INCOMPLETE"\/>/g)).toHaveLength(6);
    expect(xml).toMatch(
      /<property name="verdict\.unexercised" value="[^"]*REQ-ASSET-01 [^"]*set fixtures\.assetId in the target's config/,
    );
    const html = readFileSync(join(dir, 'r.html'), 'utf8');
    expect(html).toContain('<p class="verdict">INCOMPLETE</p>');
    // Grouped by what to do: the group's line names the fix once, its table the requirements it covers.
    expect(html).toMatch(
      /what to do: set fixtures\.assetId in the target&#39;s config[^]*?<code>REQ-ASSET-01<\/code>[^]*?<\/details>/,
    );
    expect(html).not.toMatch(/>PASS</);
  });

  it('records it in the signed evidence manifest with the fail-on policy, and verify-evidence prints it', async () => {
    const manifest = JSON.parse(readFileSync(join(dir, 'pkg', 'manifest.json'), 'utf8')) as EvidenceManifest;
    expect(manifest).toMatchObject({
      failOn: 'must',
      failOnIncomplete: false,
      verdict: { status: 'INCOMPLETE', failed: [] },
    });
    expect(manifest.verdict!.notExercised).toContainEqual({
      id: 'REQ-ASSET-01',
      remedy: "set fixtures.assetId in the target's config",
    });
    // The partner's public key, derived from the private key the sandbox config holds.
    const config = JSON.parse(readFileSync(join(dir, 't.json'), 'utf8')) as {
      targets: { sandbox: { privateKey: string } };
    };
    writeFileSync(
      join(dir, 'partner.pem'),
      createPublicKey(config.targets.sandbox.privateKey).export({ format: 'pem', type: 'spki' }),
    );
    const verified = await runCli(['verify-evidence', 'pkg', '--public-key', 'partner.pem'], { cwd: dir });
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(
      /^evidence verified: .*\nverdict: INCOMPLETE: \d+ MUST requirements not exercised \(of \d+\), none failed: .*REQ-ASSET-01.* \(fail-on must\)\n {2}to exercise the rest: set fixtures\.assetId in the target's config; run with --long\n(?![\s\S])/m,
    );
  });

  it('fails the run with --fail-on incomplete, exit 1', async () => {
    const res = await runCli(
      ['run', '--config', 'no-asset.json', '--target', 'sandbox', '--fail-on', 'incomplete', '--suite', 'resources'],
      { cwd: dir },
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/^INCOMPLETE: \d+ MUST requirements not exercised/m);
    expect(res.stdout).toMatch(
      /^ {4}\d+ MUST requirements?: .* → set fixtures\.assetId in the target's config \(.*REQ-ASSET-01/m,
    );
    expect(res.stdout).toMatch(/^\d+ passed, 0 failed, 0 warned, \d+ skipped$/m);
  });

  it('refuses a --fail-on it does not know, in one line, exit 2', async () => {
    const res = await runCli(['run', '--fail-on', 'must,sometimes'], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      'conformance: --fail-on: "sometimes" is not one of must, should, incomplete; give a comma list of them, e.g. --fail-on should,incomplete [CONFORMANCE_ERR_USAGE]\n',
    );
  });
});
