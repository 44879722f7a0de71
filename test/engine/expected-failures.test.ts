// --expected-failures against the embedded reference server with a fault switched on: a listed failure passes the
// gate and is shown apart in every report; a listed check that passes fails it ("remove it from the list"); an expired
// entry fails again; an id no check has is a usage error. Runs are cut to two checks to stay fast.
import { requirementRefs } from '../../src/catalog/requirements.js';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportSchemaErrors } from '../helpers/report-schema.js';
import { run } from '../../src/api.js';
import { applyExpectedFailure, parseExpectedFailures } from '../../src/engine/index.js';
import { renderResults } from '../../src/report/human.js';
import { buildJunitXml } from '../../src/report/junit.js';
import { toJsonReport } from '../../src/report/json.js';
import { ConfigError } from '../../src/errors.js';
import { suites } from '../../suites/index.js';
import { runCli } from '../helpers/cli.js';
import { Chalk } from 'chalk';

const ids = suites.flatMap((s) => s.checks.map((c) => c.id));
const ID = 'signing.reject.missing-signature';
// Two checks of one suite: the listed one (MUST) and a neighbour that must stay unaffected.
const SELECTION = { suites: ['signing'], grep: '^signing\\.reject\\.(missing-signature|future-created)$' };
const FAULT = { faults: ['signing.signature-optional'] };

function file(content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-xfail-'));
  const path = join(dir, 'expected.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('--expected-failures against the reference server', () => {
  it('CLI: a listed failure exits 0 and is shown apart with its reason; an id no check has exits 2 naming it', async () => {
    const listed = file({
      expectedFailures: [
        { id: ID, reason: 'PLAT-9: signatures optional until the gateway lands', expires: '2999-12-31' },
      ],
    });
    const res = await runCli([
      'run',
      '--suite',
      'signing',
      '--grep',
      SELECTION.grep,
      '--fault',
      FAULT.faults[0]!,
      '--expected-failures',
      listed,
    ]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const apart = res.stdout.slice(res.stdout.indexOf('expected failures'));
    expect(res.stdout.indexOf('expected failures')).toBeGreaterThan(
      res.stdout.indexOf('signing.reject.future-created'),
    );
    expect(apart).toMatch(new RegExp(`✗ ${ID.replace(/\./g, '\\.')} +MUST`));
    expect(apart).toMatch(/reason +PLAT-9: signatures optional until the gateway lands +\(until 2999-12-31\)/);
    expect(res.stdout).toMatch(
      /1 passed, 1 failed, 0 warned, 0 skipped; 1 of them expected \(listed\), not failing the run/,
    );

    const unknown = file({ expectedFailures: [{ id: 'signing.reject.unknown-keyd', reason: 'typo' }] });
    const bad = await runCli(['run', '--suite', 'signing', '--expected-failures', unknown]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(
      /names a check that does not exist: "signing\.reject\.unknown-keyd" \(did you mean .*signing\.reject\.unknown-keyid/,
    );
  });

  it('in every report: JUnit <skipped> with the reason in system-out, JSON `expected` (schema-valid), failsRun false', async () => {
    const result = await run({ ...SELECTION, local: FAULT, expectedFailures: [{ id: ID, reason: 'PLAT-9 & <co>' }] });
    expect(result.exitCode).toBe(0);
    const check = result.checks.find((c) => c.id === ID)!;
    expect(check).toMatchObject({
      outcome: 'fail',
      failsRun: false,
      expected: { reason: 'PLAT-9 & <co>', status: 'expected' },
    });

    const xml = buildJunitXml(result);
    const testcase = xml.slice(
      xml.indexOf(`<testcase name="${ID}`),
      xml.indexOf('</testcase>', xml.indexOf(`<testcase name="${ID}`)),
    );
    expect(testcase).toContain('<skipped/>');
    expect(testcase).not.toContain('<failure');
    expect(testcase).toContain(
      'expected failure, listed in --expected-failures (does not fail the run): PLAT-9 & <co>',
    );

    const json = toJsonReport(result);
    expect(reportSchemaErrors(json)).toBeUndefined();
    expect(json.checks.find((c) => c.id === ID)!.expected).toEqual({ reason: 'PLAT-9 & <co>', status: 'expected' });
  });

  it('a listed check that now passes fails the run as a stale entry: "remove it from the list"', async () => {
    const result = await run({ ...SELECTION, expectedFailures: [{ id: ID, reason: 'was broken' }] });
    expect(result.exitCode).toBe(1);
    const check = result.checks.find((c) => c.id === ID)!;
    expect(check).toMatchObject({ outcome: 'fail', failsRun: true, expected: { status: 'stale' } });
    expect(check.finding!.message).toMatch(/passed: the server is fixed, remove it from the list/);
    const text = renderResults(result, new Chalk({ level: 0 }), 'default').join('\n');
    expect(text).toMatch(/✗ signing\.reject\.missing-signature .*\n.*\n.*\n.*remove it from the list/);
    expect(text).not.toContain('expected failures');
    expect(buildJunitXml(result)).toMatch(
      /<failure message="listed as an expected failure, but it passed: the server is fixed, remove it from the list"/,
    );
  });

  it('an expired entry fails again, and says that it expired', async () => {
    const result = await run({
      ...SELECTION,
      local: FAULT,
      expectedFailures: [{ id: ID, reason: 'until the release', expires: '2020-01-31' }],
    });
    expect(result.exitCode).toBe(1);
    const check = result.checks.find((c) => c.id === ID)!;
    expect(check).toMatchObject({
      outcome: 'fail',
      failsRun: true,
      expected: { status: 'expired', expires: '2020-01-31' },
    });
    expect(check.finding!.message).toMatch(/\(its expected-failures entry expired after 2020-01-31\)$/);
  });
});

describe('the expected-failures file and its rules', () => {
  it('validates the file: JSON only, id and reason required, a real date, each id once, ids that exist', () => {
    const parse = (text: string) => () => parseExpectedFailures(text, 'x.json', ids);
    expect(
      parseExpectedFailures(
        JSON.stringify({ $schema: 's', expectedFailures: [{ id: ID, reason: 'r', expires: '2026-02-28' }] }),
        'x.json',
        ids,
      ),
    ).toEqual([{ id: ID, reason: 'r', expires: '2026-02-28' }]);
    expect(parse('expectedFailures:\n  - id: x')).toThrow(/x\.json:1 is not valid JSON.*JSON only/);
    expect(parse('{"expectedFailures": [{"id": "signing.reject.expired"}]}')).toThrow(
      /expectedFailures\[0\] has no "reason"/,
    );
    expect(parse('{"expectedFailures": [{"id": "signing.reject.expired", "reason": "r", "until": "x"}]}')).toThrow(
      /unknown member "until"/,
    );
    expect(
      parse('{"expectedFailures": [{"id": "signing.reject.expired", "reason": "r", "expires": "2026-02-30"}]}'),
    ).toThrow(/"2026-02-30", which is not a date/);
    expect(
      parse('{"expectedFailures": [{"id": "signing.reject.expired", "reason": "r", "expires": "31/12/2026"}]}'),
    ).toThrow(/expires is not a date/);
    expect(parse(`{"expectedFailures": [{"id": "${ID}", "reason": "a"}, {"id": "${ID}", "reason": "b"}]}`)).toThrow(
      /listed twice/,
    );
    expect(parse('{"expectedFailures": [{"id": "nothing", "reason": "r"}]}')).toThrow(/is not a check id/);
    expect(parse('{"expectedFailures": [{"id": "auth.no.such", "reason": "r"}]}')).toThrow(ConfigError);
  });

  it('counts an entry through its expiry day (UTC) and leaves a skipped check alone', () => {
    const failed = {
      id: ID,
      title: 't',
      suite: 'signing' as const,
      level: 'MUST' as const,
      requirements: requirementRefs(['REQ-SVC-01'], 'a test check'),
      outcome: 'fail' as const,
      finding: { message: 'm' },
      observations: [],
      exchanges: [],
      durationMs: 1,
      failsRun: true,
    };
    const entry = { id: ID, reason: 'r', expires: '2026-06-30' };
    expect(applyExpectedFailure(failed, entry, '2026-06-30')).toMatchObject({
      failsRun: false,
      expected: { status: 'expected' },
    });
    expect(applyExpectedFailure(failed, entry, '2026-07-01')).toMatchObject({
      failsRun: true,
      expected: { status: 'expired' },
    });
    const skipped = { ...failed, outcome: 'skip' as const, failsRun: false, skipReason: 'no fixture' };
    expect(applyExpectedFailure(skipped, entry, '2026-06-30')).toBe(skipped);
    expect(applyExpectedFailure(failed, undefined, '2026-06-30')).toBe(failed);
  });
});
