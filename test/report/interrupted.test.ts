// The verdict INTERRUPTED in every report: the JSON report (valid against its schema, with run.interrupted), the
// terminal, HTML, JUnit, the job summary and the evidence manifest's one line say the same, and what was not put back
// is shown with the request that puts it back by hand.
import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { computeVerdict, type RunResult } from '../../src/engine/index.js';
import { toJsonReport, jsonReportText } from '../../src/report/json.js';
import { HumanReporter } from '../../src/report/human.js';
import { htmlReport } from '../../src/report/html.js';
import { buildJunitXml } from '../../src/report/junit.js';
import { jobSummary } from '../../src/report/job-summary.js';
import { verdictSummary } from '../../src/report/verdict-text.js';
import { sampleChecks, sampleRunResult } from '../helpers/run-result.js';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

const NOT_PUT_BACK = 'customer 7: restore it by hand: PUT /customers {"customerId":7,"status":"ACTIVE"}';

/** The sample run, stopped by SIGTERM: one thing put back, one not. */
function interruptedResult(): RunResult {
  const base = sampleRunResult();
  const checks = sampleChecks().filter((c) => c.outcome === 'pass');
  return {
    ...base,
    run: {
      ...base.run,
      interrupted: {
        signal: 'SIGTERM',
        putBack: ['the webhook configuration (url "https://hooks.example/in", subscriptions ["AUTH"])'],
        notPutBack: [NOT_PUT_BACK],
      },
    },
    checks,
    verdict: computeVerdict({ pack: sampleChecks(), results: checks, interrupted: true }),
    exitCode: 143,
  };
}

describe('the verdict INTERRUPTED', () => {
  const result = interruptedResult();

  it('is never CONFORMANT, whatever passed, and says how much was exercised', () => {
    expect(result.verdict.status).toBe('INTERRUPTED');
    expect(verdictSummary(result.verdict)).toMatch(
      /^INTERRUPTED: the run was stopped before its end, \d+ of \d+ MUST requirements exercised, none failed before it; run it again to the end for a verdict$/,
    );
  });

  it('is a JSON report of the schema, with run.interrupted and the exit code of the signal', async () => {
    const schema = JSON.parse(
      await readFile(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8'),
    ) as object;
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    const doc = toJsonReport(result);
    expect(validate(JSON.parse(jsonReportText(result))), JSON.stringify(validate.errors)).toBe(true);
    expect(doc.run.interrupted).toEqual(result.run.interrupted);
    expect(doc.exitCode).toBe(143);
    expect(toJsonReport(sampleRunResult()).run).not.toHaveProperty('interrupted');
  });

  it('reads the same in the terminal, HTML, JUnit and the job summary, with what to put back by hand', () => {
    const out: string[] = [];
    const human = new HumanReporter({ out: { write: (t: string) => out.push(t) > 0 }, color: false, progress: false });
    void human.onRunEnd(result);
    const text = out.join('');
    expect(text).toContain(
      'interrupted by SIGTERM: put back the webhook configuration (url "https://hooks.example/in", subscriptions ["AUTH"])\n',
    );
    expect(text).toContain(`NOT PUT BACK: ${NOT_PUT_BACK}\n`);
    expect(text).toContain(`${verdictSummary(result.verdict)}\n`);

    const html = htmlReport(result);
    expect(html).toContain('<title>Conformance report: staging — INTERRUPTED</title>');
    expect(html).toContain('<h2>Interrupted by SIGTERM: what was put back</h2>');
    expect(html).toContain('<h3>Not put back: restore by hand</h3>');

    expect(buildJunitXml(result)).toContain('<property name="verdict" value="INTERRUPTED"/>');

    const summary = jobSummary(jsonReportText(result), 143, 'r.json');
    expect(summary).toMatch(/^### ⏹️ Investment API conformance: INTERRUPTED$/m);
    expect(summary).toContain('**Interrupted by SIGTERM:** put back the webhook configuration');
    expect(summary).toContain('- **Not put back:** customer 7: restore it by hand:');
    expect(jobSummary(undefined, 130, 'r.json')).toContain(
      '(exit code 130: interrupted (SIGINT): the job was cancelled)',
    );
  });
});
