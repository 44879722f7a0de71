// `conformance run --rerun-failed REPORT.json`: only the checks that failed, warned or errored in that report run.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { toJsonReport } from '../../src/report/json.js';
import { failedIdsFromReport, NothingToRerun } from '../../src/report/rerun.js';
import { run } from '../../src/api.js';
import { sampleRunResult } from '../helpers/run-result.js';
import { UserError } from '../../src/errors.js';

describe('--rerun-failed', () => {
  it('runs only the one check that failed in the earlier report, and records the selection', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-rerun-'));
    // An earlier report: one check failed, the others passed or were skipped.
    const report = toJsonReport(sampleRunResult());
    report.checks = [
      { ...report.checks[0]!, id: 'auth.token.issued', suite: 'auth', outcome: 'pass', failsRun: false },
      { ...report.checks[0]!, id: 'resources.customers.get', suite: 'resources', outcome: 'fail', failsRun: true },
      { ...report.checks[0]!, id: 'signing.reject.expired', suite: 'signing', outcome: 'skip', failsRun: false },
    ];
    writeFileSync(join(dir, 'earlier.json'), JSON.stringify(report));
    const res = await runCli(['run', '--rerun-failed', join(dir, 'earlier.json'), '--json', join(dir, 'again.json')], {
      cwd: dir,
    });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/conformance 1 check against local/);
    const again = JSON.parse(readFileSync(join(dir, 'again.json'), 'utf8')) as ReturnType<typeof toJsonReport>;
    expect(again.checks.map((c) => c.id)).toEqual(['resources.customers.get']);
    expect(again.run.selection).toEqual({ suites: ['resources'], ids: ['resources.customers.get'] });

    // A file that is not a conformance report is a usage error.
    writeFileSync(join(dir, 'other.json'), JSON.stringify({ checks: [] }));
    const bad = await runCli(['run', '--rerun-failed', join(dir, 'other.json')], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/is not a conformance JSON report/);
  });

  it('says the same in the CLI and the API when nothing is left to rerun: exit 0 and one line; checks gone are named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-rerun-'));
    const report = toJsonReport(sampleRunResult());
    report.checks = [
      { ...report.checks[0]!, id: 'auth.token.issued', suite: 'auth', outcome: 'pass', failsRun: false },
      { ...report.checks[0]!, id: 'auth.no-such-check', suite: 'auth', outcome: 'fail', failsRun: true },
    ];
    writeFileSync(join(dir, 'earlier.json'), JSON.stringify(report));
    const res = await runCli(['run', '--rerun-failed', 'earlier.json'], { cwd: dir });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('conformance: earlier.json has no failed, warned or errored check to rerun\n');
    expect(res.stderr).toBe(
      'conformance: --rerun-failed: 1 check(s) of the report no longer exist in this version and are left out: auth.no-such-check\n',
    );
    const warnings: string[] = [];
    await expect(run({ rerunFailed: join(dir, 'earlier.json'), onWarning: (w) => warnings.push(w) })).rejects.toThrow(
      NothingToRerun,
    );
    expect(warnings).toEqual([
      '--rerun-failed: 1 check(s) of the report no longer exist in this version and are left out: auth.no-such-check',
    ]);
  });

  it('reads fail, warn and error outcomes from a report, and rejects what is not one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-rerun-'));
    writeFileSync(join(dir, 'r.json'), JSON.stringify(toJsonReport(sampleRunResult())));
    expect(await failedIdsFromReport(join(dir, 'r.json'))).toEqual([
      'signing.reject.expired',
      'signing.reject.stale-created',
      'resources.customer.update',
      'webhooks.delivery.verify',
    ]);
    writeFileSync(join(dir, 'x.json'), 'not json');
    await expect(failedIdsFromReport(join(dir, 'x.json'))).rejects.toThrow(UserError);
    await expect(failedIdsFromReport(join(dir, 'missing.json'))).rejects.toThrow(/does not exist/);
  });
});
