import { describe, expect, it } from 'vitest';
import { renderResults } from '../../src/report/human.js';
import { buildJunitXml } from '../../src/report/junit.js';
import { htmlReport } from '../../src/report/html.js';
import { jsonReportText, toJsonReport } from '../../src/report/json.js';
import { jobSummary } from '../../src/report/job-summary.js';
import { Chalk } from 'chalk';
import { SETUP_PROBLEM, UNMAPPED_PROBLEM, twoSetupProblemsRunResult } from '../helpers/run-result.js';

// Two different set-up problems of one suite (an untrusted receiver, then deliveries outside publicUrl's path): every
// report states each, with its own fix and the checks it stopped; neither hides the other.
describe('two set-up problems of one suite', () => {
  const result = twoSetupProblemsRunResult();
  const first = { ...SETUP_PROBLEM, checks: ['webhooks.events.auth-created'] };
  const second = { ...UNMAPPED_PROBLEM, checks: ['webhooks.delivery.verified'] };

  it('are both in the JSON report, in the order met, and each stopped check is remedied by its own fix', () => {
    expect(toJsonReport(result).run.setupProblems).toEqual([first, second]);
    const gaps = result.verdict.notExercised.flatMap((r) => r.checks.map((c) => [c.id, c.remedy]));
    expect(gaps).toContainEqual(['webhooks.events.auth-created', `fix the webhooks set-up: ${SETUP_PROBLEM.fix}`]);
    expect(gaps).toContainEqual(['webhooks.delivery.verified', `fix the webhooks set-up: ${UNMAPPED_PROBLEM.fix}`]);
  });

  it('are both in the terminal report', () => {
    const text = renderResults(result, new Chalk({ level: 0 }), 'default').join('\n');
    for (const p of [SETUP_PROBLEM, UNMAPPED_PROBLEM]) {
      expect(text).toContain(`set-up problem (webhooks): ${p.problem}`);
      expect(text).toContain(`  fix: ${p.fix}`);
    }
  });

  it('are both in JUnit, and each stopped check names its own fix', () => {
    const xml = buildJunitXml(result);
    expect(xml).toContain('<property name="run.setupProblem.1.checks" value="webhooks.events.auth-created"/>');
    expect(xml).toContain('<property name="run.setupProblem.2.checks" value="webhooks.delivery.verified"/>');
    // The testcase of a check (the testsuite's properties above name it too).
    const caseOf = (id: string) =>
      xml
        .split('<testcase ')
        .slice(1)
        .find((c) => c.startsWith(`name="${id} `)) ?? '';
    expect(caseOf('webhooks.delivery.verified')).toContain('fix: have the proxy keep the path');
    expect(caseOf('webhooks.events.auth-created')).toContain(`fix: ${SETUP_PROBLEM.fix}`);
  });

  it('are both in the HTML report', () => {
    const html = htmlReport(result);
    expect(html).toContain('Set-up problems of the run, not of the server');
    expect(html).toContain('<code>webhooks.events.auth-created</code>');
    expect(html).toContain('<code>webhooks.delivery.verified</code>');
    expect(html).toContain('fix: have the proxy keep the path');
  });

  it('are both in the action summary', () => {
    const md = jobSummary(jsonReportText(result), 0, 'report.json');
    expect(md.split('\n').filter((l) => l.startsWith('**Set-up problem'))).toHaveLength(2);
    expect(md).toContain('have the proxy keep the path');
  });
});
