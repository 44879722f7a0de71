// The GitHub Action's job summary (action.yml runs `conformance action-summary`): run as the action runs it, with a fake
// $GITHUB_STEP_SUMMARY file, on the JSON report of a real run of the built-in target with one MUST and one SHOULD
// fault, and with no report at all (a run that ended with exit 2 or 3).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const FAULTS = 'auth.token-type-lowercase,auth.organization-client-id-wrong';

interface ReportedCheck {
  id: string;
  level: string;
  outcome: string;
  finding?: { message: string };
}

let dir: string;
let reportFile: string;
let report: {
  totals: Record<string, number>;
  verdict: { status: string };
  checks: ReportedCheck[];
};
let runExit: number | null;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'action-summary-'));
  reportFile = join(dir, 'conformance.json');
  const run = await runCli(['run', '--suite', 'auth', '--fault', FAULTS, '--json', reportFile]);
  runExit = run.code;
  report = JSON.parse(readFileSync(reportFile, 'utf8'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the summary as action.yml does, appending to a summary file that already holds an earlier step's text. */
async function summarise(
  file: string,
  exitCode: string,
  name: string,
): Promise<{ code: number | null; written: string; stdout: string }> {
  const summary = join(dir, `${name}.md`);
  writeFileSync(summary, 'an earlier step\n');
  const r = await runCli(['action-summary', '--report', file, '--exit-code', exitCode], {
    env: { GITHUB_STEP_SUMMARY: summary },
  });
  const text = readFileSync(summary, 'utf8');
  expect(text.startsWith('an earlier step\n'), 'appends, never replaces').toBe(true);
  return { code: r.code, written: text.slice('an earlier step\n'.length), stdout: r.stdout };
}

/** The cells of a Markdown table row, split on the `|` that are not escaped. */
function cells(row: string): string[] {
  return row
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

describe('conformance action-summary', () => {
  it('writes the verdict, the totals and each failed and warned check with its one-line reason', async () => {
    expect(runExit).toBe(1);
    const failed = report.checks.filter((c) => c.outcome === 'fail');
    const warned = report.checks.filter((c) => c.outcome === 'warn');
    expect(failed.map((c) => c.id)).toEqual(['auth.token.type-bearer']);
    expect(warned.map((c) => c.id)).toEqual(['auth.token.organization']);

    const { code, written, stdout } = await summarise(reportFile, '1', 'faults');
    expect(code).toBe(0);
    expect(stdout).toBe('');
    const lines = written.split('\n');
    expect(lines[0]).toBe('### ❌ Investment API conformance: NOT CONFORMANT');
    expect(written).toMatch(/^\*\*Verdict:\*\* NOT CONFORMANT: 1 MUST check failed, on 2 MUST requirements: REQ-/m);
    expect(written).toMatch(/^target `local` \(http:\/\/127\.0\.0\.1:\d+\/v1\) · .* · exit code 1$/m);

    const header = lines.indexOf('| passed | failed | warned | skipped | errored | total |');
    expect(header).toBeGreaterThan(0);
    const t = report.totals;
    expect(lines[header + 2]).toBe(
      `| ${t.passed} | ${t.failed} | ${t.warned} | ${t.skipped} | ${t.errored} | ${t.total} |`,
    );
    expect([t.failed, t.warned]).toEqual([1, 1]);

    const section = (title: string) =>
      written
        .slice(written.indexOf(`#### ${title}`))
        .split('\n\n')[1]!
        .split('\n');
    for (const [title, checks] of [
      ['Failed (1)', failed],
      ['Warned (1)', warned],
    ] as const) {
      const rows = section(title);
      expect(rows.slice(0, 2)).toEqual(['| check | level | reason |', '|---|---|---|']);
      expect(rows.slice(2).map(cells)).toEqual(checks.map((c) => [`\`${c.id}\``, c.level, c.finding!.message]));
    }
    // The reasons as the run found them, not a paraphrase.
    expect(written).toContain('| `auth.token.type-bearer` | MUST | tokenType is "bearer", not "Bearer" |');
    // Skipped and passed checks are counted, not listed; nothing errored here, so no such section.
    expect(written).not.toContain('auth.expiry.after-60-minutes`');
    expect(written).not.toContain('#### Errored');
    // A run narrowed to one suite leaves most MUST requirements not exercised: listed, folded, and cut short.
    expect(written).toMatch(/<details><summary>MUST requirements not exercised: \d+<\/summary>/);
    expect(written).toMatch(/^- and \d+ more: the JSON report lists each$/m);
  });

  it('escapes Markdown in a reason, so a `|` stays in its cell and a server cannot add links, images or HTML', async () => {
    const tampered = structuredClone(report);
    const check = tampered.checks.find((c) => c.outcome === 'fail')!;
    check.finding!.message = 'code | 42 <img src=x> ![i](http://x/i.png) [a](http://x) `t` *em* _u_ ~s~\nsecond line';
    const file = join(dir, 'tampered.json');
    writeFileSync(file, JSON.stringify(tampered));
    const { written } = await summarise(file, '1', 'tampered');
    const row = written.split('\n').find((l) => l.startsWith('| `auth.token.type-bearer`'))!;
    expect(row).toBe(
      '| `auth.token.type-bearer` | MUST | code \\| 42 \\<img src=x\\> \\!\\[i\\](http://x/i.png) \\[a\\](http://x) \\`t\\` \\*em\\* \\_u\\_ \\~s\\~ second line |',
    );
    expect(cells(row)).toHaveLength(3);
  });

  it('states a set-up problem of the run once, with its fix', async () => {
    const withProblem = {
      ...structuredClone(report),
      run: {
        ...(report as unknown as { run: object }).run,
        setupProblems: [
          {
            suite: 'webhooks',
            problem: "no delivery arrived: the server refused the receiver's certificate",
            fix: 'register conformance-receiver.pem with the provider',
            checks: ['webhooks.delivery.verified', 'webhooks.events.auth-created'],
          },
        ],
      },
    };
    const file = join(dir, 'setup-problem.json');
    writeFileSync(file, JSON.stringify(withProblem));
    const { written } = await summarise(file, '0', 'setup');
    expect(written.split('\n').filter((l) => l.startsWith('**Set-up problem'))).toEqual([
      "**Set-up problem (webhooks):** no delivery arrived: the server refused the receiver's certificate; fix: register conformance-receiver.pem with the provider (kept 2 checks from running)",
    ]);
  });

  it('says in one line that the run wrote no report, with the exit code and what it means', async () => {
    const { code, written } = await summarise(join(dir, 'never-written.json'), '3', 'none');
    expect(code).toBe(0);
    expect(written).toBe(
      `**Investment API conformance:** no report, the run ended before writing \`${join(dir, 'never-written.json')}\` (exit code 3: the target is unreachable, or no token could be obtained); the step's log says why.\n`,
    );
  });

  it('says in one line that a file is not a report it can read', async () => {
    const file = join(dir, 'not-a-report.json');
    writeFileSync(file, '{"hello": "world"}');
    const { written } = await summarise(file, '2', 'bad');
    expect(written.trimEnd().split('\n')).toHaveLength(1);
    expect(written).toContain(
      'is not a JSON report of this conformance version (exit code 2: a usage or configuration error)',
    );
  });

  it('prints the summary when GITHUB_STEP_SUMMARY is not set', async () => {
    const r = await runCli(['action-summary', '--report', reportFile], { env: { GITHUB_STEP_SUMMARY: undefined } });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('### ❌ Investment API conformance: NOT CONFORMANT');
    expect(r.stdout).not.toContain('exit code');
  });
});
