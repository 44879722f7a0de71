// Exchanges a check judged that another check sent for the run (issue 29: work several checks need, sent once): the
// JSON report carries them as data (schema-valid), and the HTML report names them under a finding, by sender.
import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { toJsonReport } from '../../src/report/json.js';
import { htmlReport } from '../../src/report/html.js';
import type { CheckResult } from '../../src/engine/index.js';
import { sampleChecks, sampleRunResult } from '../helpers/run-result.js';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

const SHARED = [
  { seq: 1, sentBy: 'auth.token.issue' },
  { seq: 4, sentBy: 'auth.token.issue' },
  { seq: 7, sentBy: 'pagination.meta.present' },
];

/** The sample run with signing.reject.expired (a failure) having judged exchanges two other checks sent. */
function result() {
  const checks: CheckResult[] = sampleChecks().map((c) =>
    c.id === 'signing.reject.expired' ? { ...c, sharedExchanges: SHARED } : c,
  );
  expect(checks.find((c) => c.id === 'signing.reject.expired')?.outcome).toBe('fail');
  return sampleRunResult(checks);
}

describe('exchanges judged from another check, in the reports', () => {
  it('JSON: sharedExchanges on the check that judged them, absent elsewhere, schema-valid', async () => {
    const report = toJsonReport(result());
    expect(report.checks.find((c) => c.id === 'signing.reject.expired')?.sharedExchanges).toEqual(SHARED);
    expect(report.checks.filter((c) => c.sharedExchanges !== undefined)).toHaveLength(1);
    const schema = JSON.parse(
      await readFile(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8'),
    ) as object;
    const validate = addFormats(new Ajv2020({ allErrors: true, strict: true })).compile(schema);
    expect(validate(JSON.parse(JSON.stringify(report))), JSON.stringify(validate.errors)).toBe(true);
  });

  it('HTML: a line under the finding naming each exchange and the check that sent it', () => {
    expect(htmlReport(result())).toContain(
      '<p class="shared">also judged exchanges another check sent for the run: #1, #4 (sent by auth.token.issue); #7 (sent by pagination.meta.present)</p>',
    );
  });
});
