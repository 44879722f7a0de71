// action.yml (the composite GitHub Action) and the README example that uses it must agree with each other and with the
// CLI: every input the example sets exists, every input reaches the run step, every flag the step passes exists.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { runCli } from '../helpers/cli.js';

const action = readFileSync(new URL('../../action.yml', import.meta.url), 'utf8');
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** Names of the members of a top-level YAML mapping (`inputs:`, `outputs:`), read by indentation. */
function membersOf(section: string): string[] {
  const block = new RegExp(`^${section}:\\n((?:  .*\\n|\\n)*)`, 'm').exec(action)?.[1] ?? '';
  return [...block.matchAll(/^ {2}([\w-]+):/gm)].map((m) => m[1]!);
}

describe('action.yml', () => {
  it('is a composite action on Node 20 with the inputs target, config, suites, expected-failures, reports, fail-on', () => {
    expect(action).toMatch(/^runs:\n {2}using: composite$/m);
    expect(action).toMatch(/uses: actions\/setup-node@v4\n\s+with:\n\s+node-version: 20/);
    expect(membersOf('inputs')).toEqual(['target', 'config', 'suites', 'expected-failures', 'reports', 'fail-on']);
    expect(membersOf('outputs')).toEqual(['junit', 'json', 'exit-code', 'verdict']);
    // Each input reaches the run step through env, never spliced into the script.
    for (const input of membersOf('inputs')) expect(action).toContain(`: \${{ inputs.${input} }}`);
    const scripts = [...action.matchAll(/run: \|\n((?: {8}.*\n|\n)*)/g)].map((m) => m[1]!);
    expect(scripts.length).toBe(2);
    for (const script of scripts) expect(script).not.toContain('${{');
  });

  it('passes only flags that conformance run and action-summary have', async () => {
    const [runHelp, summaryHelp] = await Promise.all([runCli(['run', '--help']), runCli(['action-summary', '--help'])]);
    expect(runHelp.code).toBe(0);
    expect(summaryHelp.code).toBe(0);
    /** The conformance flags of the action's lines that mention (or do not mention) action-summary. */
    const flagsOf = (summaryLines: boolean) =>
      new Set(
        action
          .split('\n')
          .filter((line) => line.includes('action-summary') === summaryLines)
          .flatMap((line) => [...line.matchAll(/(--[a-z][a-z-]+)/g)].map((m) => m[1]!))
          .filter(
            (f) => !['--no-audit', '--no-fund', '--silent', '--pack-destination', '--no', '--prefix'].includes(f),
          ),
      );
    const runFlags = flagsOf(false);
    expect([...runFlags].sort()).toEqual([
      '--config',
      '--expected-failures',
      '--fail-on',
      '--json',
      '--junit',
      '--suite',
      '--target',
    ]);
    for (const flag of runFlags) expect(runHelp.stdout, flag).toContain(flag);
    const summaryFlags = flagsOf(true);
    expect([...summaryFlags].sort()).toEqual(['--exit-code', '--report']);
    for (const flag of summaryFlags) expect(summaryHelp.stdout, flag).toContain(flag);
  });

  it('writes the job summary from the JSON report the run step writes, with the run exit code', () => {
    const script = /- name: Run conformance\n[\s\S]*?run: \|\n((?: {8}.*\n|\n)*)/.exec(action)![1]!;
    expect(script).toContain('--json "$INPUT_REPORTS/conformance.json"');
    expect(script).toMatch(
      /conformance action-summary --report "\$INPUT_REPORTS\/conformance\.json" --exit-code "\$code" \|\|\n/,
    );
    // After the run and before the step ends with the run's own exit code.
    expect(script.indexOf('action-summary')).toBeGreaterThan(script.indexOf('code=$?'));
    expect(script.trimEnd().endsWith('exit "$code"')).toBe(true);
  });

  it('is shown in the README in a short example that sets only its inputs and publishes the JUnit file', () => {
    const section = readme.slice(readme.indexOf('## Use in GitHub Actions'));
    const example = /```yaml\n([\s\S]*?)```/.exec(section)![1]!;
    const withs = [...example.matchAll(/with: \{([^}]*)\}/g)];
    const actionInputs = withs[0]![1]!.split(',').map((pair) => pair.split(':')[0]!.trim());
    for (const name of actionInputs) expect(membersOf('inputs'), name).toContain(name);
    expect(example).toMatch(/uses: mikepenz\/action-junit-report@v\d+/);
    expect(example).toContain('report_paths: conformance-reports/junit.xml');
    expect(action).toMatch(/reports:\n(?: {4}.*\n)*? {4}default: conformance-reports\n/);
  });
});
