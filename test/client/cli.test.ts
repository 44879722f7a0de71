// `conformance client` through the compiled CLI, as a client developer runs it: a broken client fails its own check,
// with the exit code, the reports and the evidence of `run` and no replay line (its sandbox is gone); `list --client`
// and `explain` know the client checks.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';

const ROOT = new URL('../../', import.meta.url).pathname;

describe('conformance client (the CLI)', () => {
  it('fails a client that pages by index at client.paging.next-page: exit 1, NOT CONFORMANT, JSON and JUnit written (--reporter dot)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'conformance-client-cli-'));
    const json = path.join(dir, 'r.json');
    const junit = path.join(dir, 'j.xml');
    const res = await runCli(
      [
        'client',
        '--scenario',
        'read',
        '--json',
        json,
        '--junit',
        junit,
        '--reporter',
        'dot',
        '--',
        'node',
        'dist/examples/clients/ts/broken.js',
        'page-index',
      ],
      { cwd: ROOT },
    );
    expect(res.code, res.stderr).toBe(1);
    expect(res.stdout).toContain('✗ client.paging.next-page');
    expect(res.stdout).not.toMatch(/^\s+replay\s/m);
    // --reporter dot: a character per check, the failure in full, no line for a passing check; the reports at the end.
    expect(res.stdout).toMatch(/^[·✗!E-]*✗[·✗!E-]*$/m);
    expect(res.stdout).not.toMatch(/^ {2}✓ /m);
    expect(res.stdout.trimEnd().split('\n').at(-1)).toBe(`reports: JSON ${json} · JUnit ${junit}`);
    expect(res.stderr).toMatch(/scenario read: the command exited 0/);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(report.verdict.status).toBe('NOT CONFORMANT');
    const failed = report.checks.filter((c: { outcome: string }) => c.outcome === 'fail' || c.outcome === 'warn');
    expect(failed.map((c: { id: string }) => c.id)).toEqual(['client.paging.next-page']);
    expect(failed[0].finding.message).toMatch(/page=1/);
    expect(report.run.notes).toEqual(expect.arrayContaining([expect.stringMatching(/^command: node /)]));
    expect(report.run.notes.join('\n')).not.toMatch(/throttling|connections:/);
    expect(existsSync(junit) && readFileSync(junit, 'utf8')).toContain('client.paging.next-page');
  });

  it('lists the client checks with list --client, and explains one with the example client that proves it', async () => {
    const list = await runCli(['list', '--client']);
    const ids = list.stdout.split('\n').filter((l) => l.startsWith('client.'));
    expect(ids.length).toBeGreaterThan(20);
    expect(list.stdout).toMatch(/^\d+ checks$/m);
    const explained = await runCli(['explain', 'client.webhooks.discards-forged']);
    expect(explained.code).toBe(0);
    expect(explained.stdout).toContain('REQ-AUTH-12');
    expect(explained.stdout).toMatch(/skips-signature-check: /);
  });
});
