// One cause, one failure in every file report: the seer's line names the requirement and its owner, the owner's
// finding names the checks that saw its defect too, and the JSON report carries both as data (schema-valid).
import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { toJsonReport } from '../../src/report/json.js';
import { buildJunitXml } from '../../src/report/junit.js';
import { htmlReport } from '../../src/report/html.js';
import type { CheckResult } from '../../src/engine/index.js';
import { sampleChecks, sampleRunResult } from '../helpers/run-result.js';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

const SEEN = {
  requirements: ['REQ-ENV-03'],
  ownedBy: 'signing.reject.expired',
  message: 'the envelope of GET /v1/accounts/5001 has code 200, not "200" (and in 2 more answers)',
  exchangeSeq: 1,
};
const LINE =
  'also seen in this answer: REQ-ENV-03 (owned by signing.reject.expired): the envelope of GET /v1/accounts/5001 has code 200, not "200" (and in 2 more answers)';

/** The sample run with auth.token.issue (a pass) having seen a defect that signing.reject.expired (a failure) owns. */
function result() {
  const checks: CheckResult[] = sampleChecks().map((c) =>
    c.id === 'auth.token.issue' ? { ...c, alsoSeen: [SEEN] } : c,
  );
  expect(checks.find((c) => c.id === 'signing.reject.expired')?.outcome).toBe('fail');
  return sampleRunResult(checks);
}

describe('also seen, in the reports', () => {
  it('JSON: alsoSeen on the seer, schema-valid', async () => {
    const report = toJsonReport(result());
    expect(report.checks.find((c) => c.id === 'auth.token.issue')?.alsoSeen).toEqual([SEEN]);
    const schema = JSON.parse(
      await readFile(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8'),
    ) as object;
    const ajv = addFormats(new Ajv2020({ allErrors: true, strict: true }));
    const validate = ajv.compile(schema);
    expect(validate(JSON.parse(JSON.stringify(report))), JSON.stringify(validate.errors)).toBe(true);
  });

  it("JUnit: the seer's line in its system-out, the owner's `seen by` in its failure", () => {
    const xml = buildJunitXml(result());
    expect(xml).toContain(LINE);
    expect(xml).toMatch(/seen by\s+1 other check, which do not fail for it: auth\.token\.issue/);
  });

  it("HTML: the seer's line under it, the owner's `seen by` in its finding", () => {
    const html = htmlReport(result());
    expect(html).toContain('<ul class="also-seen"><li>also seen in this answer: REQ-ENV-03 (owned by');
    expect(html).toMatch(
      /seen by<\/dt><dd class="seen-by"><pre>1 other check, which do not fail for it: auth\.token\.issue/,
    );
  });
});
