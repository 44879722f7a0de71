import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonReporter, toJsonReport } from '../../src/report/json.js';
import type { CheckResult, Verdict } from '../../src/engine/index.js';
import { NASTY_TEXT, SETUP_PROBLEM, sampleRunResult, setupProblemRunResult } from '../helpers/run-result.js';

// ajv-formats is CommonJS; its default export arrives as the module object under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

async function validator() {
  const schema = JSON.parse(
    await readFile(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8'),
  ) as object;
  // strict: a keyword the schema misspells or misuses is an error, not a silently ignored constraint.
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

describe('JsonReporter', () => {
  let dir: string;
  let report: Record<string, unknown> & { checks: CheckResult[]; verdict: Verdict };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'conformance-json-'));
    const file = join(dir, 'out', 'report.json');
    await new JsonReporter(file).onRunEnd(sampleRunResult());
    report = JSON.parse(await readFile(file, 'utf8')) as typeof report;
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('validates against schemas/report.schema.json', async () => {
    const validate = await validator();
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
  });

  it('carries the format, the run, the totals, the verdict and the exit code', () => {
    expect(report.format).toBe('conformance-report');
    expect(report.formatVersion).toBe(2);
    expect(report.run).toMatchObject({
      target: 'staging',
      baseUrl: 'https://staging.example/v1',
      suiteVersion: '0.1.0',
      specVersion: '0.0.1',
      failOn: 'must',
    });
    expect(report.totals).toEqual({ passed: 3, failed: 1, warned: 2, skipped: 1, errored: 1, total: 8 });
    expect(report.exitCode).toBe(1);
    expect(report.sessionExchanges).toHaveLength(1);
    expect(Object.keys(report)).toEqual([
      'format',
      'formatVersion',
      'run',
      'totals',
      'verdict',
      'checks',
      'sessionExchanges',
      'exitCode',
    ]);
    expect(report.verdict).toMatchObject({
      status: 'NOT CONFORMANT',
      failed: ['REQ-AUTH-08'],
      failedChecks: ['signing.reject.expired'],
      outOfReach: 5,
    });
    expect(report.verdict.notExercised).toEqual([
      {
        id: 'REQ-SVC-01',
        section: 'What the service does',
        quote: expect.stringMatching(/^A client exchanges its client identifier/),
        checks: [
          {
            id: 'resources.accounts.list',
            outcome: 'skip',
            reason: 'fixtures.customerId is not set',
            remedy: 'see the skip reason',
          },
          {
            id: 'webhooks.delivery.verify',
            outcome: 'error',
            reason: 'request to https://staging.example/v1/webhooks timed out\nafter 10000 ms',
            remedy: "see the check's error",
          },
        ],
        remedy: "see the skip reason; see the check's error",
      },
    ]);
  });

  it('keeps every check in order with its outcome, finding, skip reason, observations and exchanges', () => {
    const byId = new Map(report.checks.map((c) => [c.id, c]));
    expect(report.checks.map((c) => c.outcome)).toEqual([
      'pass',
      'pass',
      'fail',
      'warn',
      'warn',
      'skip',
      'error',
      'pass',
    ]);
    expect(byId.get('signing.reject.expired')).toMatchObject({
      level: 'MUST',
      failsRun: true,
      requirements: [
        {
          id: 'REQ-AUTH-08',
          level: 'MUST',
          section: 'Authentication',
          quote:
            'The signature covers the ordered components listed in Signature-Input, and `created` and `expires` are Unix times.',
        },
      ],
      finding: { message: 'an expired signature was accepted', observed: '200 — the server served it' },
    });
    expect(byId.get('signing.reject.expired')?.exchanges).toHaveLength(2);
    expect(byId.get('signing.reject.stale-created')?.failsRun).toBe(false);
    expect(byId.get('resources.accounts.list')?.skipReason).toBe('fixtures.customerId is not set');
    expect(byId.get('auth.token.envelope')?.observations).toEqual([
      'the token response uses the {data, code, message} envelope',
      'creation answered with 201',
    ]);
    const timedOut = byId.get('webhooks.delivery.verify')?.exchanges[0];
    expect(timedOut?.error).toBe('timeout after 10000 ms');
    expect(timedOut && 'response' in timedOut).toBe(false);
  });

  it('keeps bodies exactly as recorded, control characters included', () => {
    const body = report.checks.find((c) => c.id === 'signing.reject.stale-created')?.exchanges[0]?.response
      ?.bodyExcerpt;
    expect(body).toBe(NASTY_TEXT);
  });

  it('leaves out fields the runner may add beyond the documented shape', () => {
    const result = sampleRunResult();
    const extra = { ...result.checks[0]!, internal: 'x' } as CheckResult;
    const json = toJsonReport({ ...result, checks: [extra] });
    expect(json.checks[0]).not.toHaveProperty('internal');
  });
});

describe('schemas/report.schema.json', () => {
  it('rejects an unknown outcome or level and a missing format', async () => {
    const validate = await validator();
    const good = JSON.parse(JSON.stringify(toJsonReport(sampleRunResult()))) as {
      format?: string;
      checks: Array<Record<string, unknown>>;
    };
    expect(validate(good)).toBe(true);
    const badOutcome = structuredClone(good);
    badOutcome.checks[0]!.outcome = 'passed';
    expect(validate(badOutcome)).toBe(false);
    const badLevel = structuredClone(good);
    badLevel.checks[0]!.level = 'MAY';
    expect(validate(badLevel)).toBe(false);
    const noFormat = structuredClone(good);
    delete noFormat.format;
    expect(validate(noFormat)).toBe(false);
  });

  it('accepts the example in docs/json-report.md', async () => {
    const doc = await readFile(new URL('../../docs/json-report.md', import.meta.url), 'utf8');
    const example = /```json\n([\s\S]*?)\n```/.exec(doc)?.[1];
    expect(example).toBeDefined();
    const validate = await validator();
    expect(validate(JSON.parse(example ?? '')), JSON.stringify(validate.errors)).toBe(true);
  });

  it("states a set-up problem once under run, with its fix, and the checks it stopped carry remedy 'setup'", async () => {
    const doc = toJsonReport(setupProblemRunResult());
    const validate = await validator();
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(doc.run.setupProblems).toEqual([{ ...SETUP_PROBLEM, checks: ['webhooks.events.auth-created'] }]);
    const stopped = doc.checks.find((c) => c.id === 'webhooks.events.auth-created')!;
    expect(stopped).toMatchObject({
      outcome: 'skip',
      skipReason: `set-up problem: ${SETUP_PROBLEM.problem}`,
      skipRemedy: { kind: 'setup', suite: 'webhooks' },
    });
    // Not exercised, never failed, and what to do is the fix.
    expect(doc.verdict.notExercised.find((r) => r.id === 'REQ-EVT-06')?.remedy).toBe(
      `fix the webhooks set-up: ${SETUP_PROBLEM.fix}`,
    );
    expect(toJsonReport(sampleRunResult()).run).not.toHaveProperty('setupProblems');
  });
});
