// One reporter's failure must not lose the run: the others still hear every event and write, the result is unchanged,
// and the failure is named. A report that cannot be written is refused before the first request (exit 2, one line).
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReporterMux, type ReporterFailure } from '../../src/report/reporter.js';
import type { Reporter } from '../../src/engine/index.js';
import { checkOutputPaths } from '../../src/report/output-paths.js';
import { JsonReporter } from '../../src/report/json.js';
import { run } from '../../src/api.js';
import { ConfigError } from '../../src/errors.js';
import { sampleRunResult } from '../helpers/run-result.js';
import { runCli } from '../helpers/cli.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'conformance-report-'));

function throwing(hook: keyof Reporter): Reporter {
  const boom = () => {
    throw new Error(`${hook} broke`);
  };
  return { name: 'broken reporter', [hook]: boom } as Reporter;
}

describe('ReporterMux', () => {
  it.each(['onRunStart', 'onCheckStart', 'onCheckFinished', 'onCheckEnd', 'onRunEnd'] as const)(
    'keeps the others going when one throws in %s, and names it once',
    async (hook) => {
      const result = sampleRunResult();
      const seen: string[] = [];
      const witness: Reporter = {
        onRunStart: () => void seen.push('start'),
        onCheckStart: (c) => void seen.push(`begin ${c.id}`),
        onCheckFinished: (c) => void seen.push(`finished ${c.id}`),
        onCheckEnd: (c) => void seen.push(`end ${c.id}`),
        onRunEnd: () => void seen.push('done'),
      };
      const failures: ReporterFailure[] = [];
      const mux = new ReporterMux([throwing(hook), witness], (f) => failures.push(f));
      mux.onRunStart({ target: 't', baseUrl: 'http://x', checks: result.checks });
      for (const c of result.checks) {
        mux.onCheckStart(c);
        mux.onCheckFinished(c);
        mux.onCheckEnd(c);
      }
      await mux.onRunEnd(result);
      expect(seen).toEqual([
        'start',
        ...result.checks.flatMap((c) => [`begin ${c.id}`, `finished ${c.id}`, `end ${c.id}`]),
        'done',
      ]);
      expect(failures.map((f) => [f.reporter, f.hook, (f.error as Error).message])).toEqual([
        ['broken reporter', hook, `${hook} broke`],
      ]);
    },
  );

  it('writes the JSON report although a reporter before it fails to write', async () => {
    const dir = tmp();
    const file = join(dir, 'r.json');
    const failures: ReporterFailure[] = [];
    await new ReporterMux([throwing('onRunEnd'), new JsonReporter(file)], (f) => failures.push(f)).onRunEnd(
      sampleRunResult(),
    );
    expect(JSON.parse(readFileSync(file, 'utf8')).checks.length).toBe(sampleRunResult().checks.length);
    expect(failures).toHaveLength(1);
  });

  it('leaves the run result as it was when a reporter throws', async () => {
    const dir = tmp();
    const failures: ReporterFailure[] = [];
    const result = await run({
      grep: '^auth\\.token\\.issued$',
      json: join(dir, 'r.json'),
      reporters: [throwing('onRunEnd'), throwing('onCheckEnd')],
      onReporterFailure: (f) => failures.push(f),
    });
    expect(result.totals).toMatchObject({ passed: 1, failed: 0 });
    expect(result.exitCode).toBe(0);
    expect(existsSync(join(dir, 'r.json'))).toBe(true);
    expect(failures.map((f) => f.hook).sort()).toEqual(['onCheckEnd', 'onRunEnd']);
  });
});

describe('report paths, checked before the first request', () => {
  it('refuses a folder missing with its parent, a path that is a folder, and a folder that is a file', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'file'), '');
    expect(() => checkOutputPaths([{ option: '--junit', path: '/no/such/dir/j.xml' }])).toThrow(
      new ConfigError(
        '--junit: the folder /no/such/dir does not exist; create it or write the report elsewhere',
        'CONFORMANCE_ERR_OUTPUT_PATH',
      ),
    );
    expect(() => checkOutputPaths([{ option: '--json', path: dir }])).toThrow(
      /^--json: .+ is a folder; give the path of a file to write$/,
    );
    expect(() => checkOutputPaths([{ option: '--html', path: join(dir, 'file', 'r.html') }])).toThrow(
      /^--html: .+file is a file, not a folder; write the report elsewhere$/,
    );
    // One missing folder is made when the report is written; two are a typo.
    expect(() =>
      checkOutputPaths([
        { option: '--har', path: join(dir, 'r.har') },
        { option: '--json', path: undefined },
      ]),
    ).not.toThrow();
    expect(() => checkOutputPaths([{ option: '--har', path: join(dir, 'reports', 'r.har') }])).not.toThrow();
    expect(() => checkOutputPaths([{ option: '--har', path: join(dir, 'a', 'b', 'r.har') }])).toThrow(
      /^--har: the folder .+a\/b does not exist/,
    );
  });

  it('makes `conformance run --junit /no/such/dir/j.xml --json r.json` exit 2 in one line, before any request and any report', async () => {
    const dir = tmp();
    const res = await runCli(['run', '--junit', '/no/such/dir/j.xml', '--json', 'r.json'], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr.trim()).toBe(
      'conformance: --junit: the folder /no/such/dir does not exist; create it or write the report elsewhere [CONFORMANCE_ERR_OUTPUT_PATH]',
    );
    expect(res.stdout).toBe('');
    expect(existsSync(join(dir, 'r.json'))).toBe(false);
  });
});
