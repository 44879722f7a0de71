import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { JunitReporter, buildJunitXml } from '../../src/report/junit.js';
import { run } from '../../src/api.js';
import type { RunResult } from '../../src/engine/index.js';
import { runCli } from '../helpers/cli.js';
import { SETUP_PROBLEM, sampleChecks, sampleRunResult, setupProblemRunResult } from '../helpers/run-result.js';

const XSD = new URL('../fixtures/schemas/junit-10.xsd', import.meta.url);

async function validate(xml: string) {
  return validateXML({
    xml: { fileName: 'report.xml', contents: xml },
    schema: { fileName: 'junit-10.xsd', contents: await readFile(XSD, 'utf8') },
  });
}

/** The XML of one testcase, found by its check id (the testcase name starts with it). */
function testcase(xml: string, id: string): string {
  const start = xml.indexOf(`<testcase name="${id} `);
  if (start < 0) throw new Error(`no testcase for ${id}`);
  const end = xml.indexOf('</testcase>', start);
  return xml.slice(start, end + '</testcase>'.length);
}

describe('JunitReporter', () => {
  let dir: string;
  let xml: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'conformance-junit-'));
    // A folder that does not exist yet: the reporter creates it.
    const file = join(dir, 'reports', 'ci', 'junit.xml');
    await new JunitReporter(file).onRunEnd(sampleRunResult());
    xml = await readFile(file, 'utf8');
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes a file that validates against junit-10.xsd', async () => {
    const result = await validate(xml);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('writes one testsuite per suite, in order, with counts on the root', () => {
    expect([...xml.matchAll(/<testsuite name="([^"]+)"/g)].map((m) => m[1])).toEqual([
      'auth',
      'signing',
      'resources',
      'webhooks',
    ]);
    expect(xml).toMatch(/<testsuites name="conformance staging" tests="8" failures="2" errors="1" time="4.21">/);
    expect(xml).toMatch(/<testsuite name="resources" [^>]*tests="2" failures="1" errors="0" skipped="1"/);
  });

  it("gives each testsuite its wall time (checks of several suites run at once), not its checks' times added up", () => {
    const result = sampleRunResult();
    const wall = result.run.suites!.find((t) => t.suite === 'webhooks')!.wallMs;
    const sum = result.checks.filter((c) => c.suite === 'webhooks').reduce((s, c) => s + c.durationMs, 0);
    expect(wall).not.toBe(sum);
    expect(xml).toMatch(new RegExp(`<testsuite name="webhooks" timestamp="[^"]+" time="${wall / 1000}"`));
  });

  it('names each testcase after its check id and title, with classname conformance.<suite> and time in seconds', () => {
    const names = [...xml.matchAll(/<testcase name="([^"]+)" classname="([^"]+)" time="([^"]+)"/g)].map((m) => [
      m[1],
      m[2],
      m[3],
    ]);
    expect(names).toHaveLength(8);
    expect(names[2]).toEqual([
      'signing.reject.expired A request with an expired signature is rejected',
      'conformance.signing',
      '1.235',
    ]);
    for (const [name, classname] of names)
      expect(name?.split(' ')[0]?.startsWith(`${classname?.replace('conformance.', '')}.`)).toBe(true);
  });

  it('reports a MUST failure as <failure> with a one-line message, the level as type, and the evidence', () => {
    const tc = testcase(xml, 'signing.reject.expired');
    expect(tc).toContain(
      '<failure message="an expired signature was accepted" type="MUST"><![CDATA[spec      REQ-AUTH-08 (Authentication): "The signature covers the ordered components listed in Signature-Input, and `created` and `expires` are Unix times."',
    );
    expect(tc).toContain('expected  a request signed with expires 120 s in the past is rejected (any 4xx)');
    expect(tc).toContain('observed  an expired signature was accepted\n          200 — the server served it');
    expect(tc).toContain(
      `replay    npx conformance curl '/accounts?customerId=1042' -H 'x-note: it'\\''s "quoted"' --created=-180 --expires=-120 --target staging`,
    );
    expect(tc).toContain('<system-out>');
    expect(tc).toContain('exchange 2 of 2');
  });

  it('keeps a SHOULD warning that does not fail the run a passing testcase, the warning in system-out', () => {
    const tc = testcase(xml, 'signing.reject.stale-created');
    expect(tc).not.toContain('<failure');
    expect(tc).not.toContain('<error');
    expect(tc).toContain(
      '<system-out><![CDATA[warning (SHOULD, does not fail the run): a signature created 1 h ago was accepted',
    );
  });

  it('reports a warning that fails the run (--fail-on should) as <failure type="SHOULD">', () => {
    expect(testcase(xml, 'resources.customer.update')).toContain(
      '<failure message="the response did not echo the new e-mail" type="SHOULD">',
    );
  });

  it('reports a skip as <skipped/> with the reason in system-out (junit-report-builder 5 has no skipped message)', () => {
    const tc = testcase(xml, 'resources.accounts.list');
    expect(tc).toContain('<skipped/>');
    expect(tc).toContain('<system-out><![CDATA[skipped: fixtures.customerId is not set]]></system-out>');
  });

  it('reports an error as <error> with its message on one line', () => {
    const tc = testcase(xml, 'webhooks.delivery.verify');
    expect(tc).toContain(
      '<error message="request to https://staging.example/v1/webhooks timed out after 10000 ms" type="error">',
    );
    expect(tc).toContain('response  none: timeout after 10000 ms');
    expect(tc).not.toContain('<failure');
  });

  it('puts run and per-check properties on the testsuite', () => {
    const signing = xml.slice(
      xml.indexOf('<testsuite name="signing"'),
      xml.indexOf('</testsuite>', xml.indexOf('<testsuite name="signing"')),
    );
    const properties = signing.slice(signing.indexOf('<properties>'), signing.indexOf('</properties>'));
    expect(properties).toContain('<property name="suite.version" value="0.1.0"/>');
    expect(properties).toContain('<property name="spec.version" value="0.0.1"/>');
    expect(properties).toContain('<property name="target" value="staging"/>');
    expect(properties).toContain('<property name="baseUrl" value="https://staging.example/v1"/>');
    expect(properties).toContain('<property name="signing.reject.expired.level" value="MUST"/>');
    expect(properties).toContain(
      '<property name="signing.reject.expired.requirements" value="REQ-AUTH-08 (Authentication): &quot;The signature covers the ordered components listed in Signature-Input, and `created` and `expires` are Unix times.&quot;"/>',
    );
    expect(xml).not.toMatch(/<testcase[^>]*>\s*<properties>/);
  });

  it("puts the run's verdict on every testsuite, and each MUST requirement not exercised on the first (all: on every one)", () => {
    const unexercised =
      /<property name="verdict\.unexercised" value="REQ-SVC-01 &quot;A client exchanges[^"]*&quot; — resources\.accounts\.list skipped: fixtures\.customerId is not set; webhooks\.delivery\.verify errored: [^"]* → see the skip reason; see the check's error"\/>/;
    const all = buildJunitXml(sampleRunResult(), { exchanges: 'all' });
    for (const [file, everywhere] of [
      [xml, false],
      [all, true],
    ] as const) {
      const suites = file.split('<testsuite ').slice(1);
      expect(suites).toHaveLength(4);
      for (const [i, suite] of suites.entries()) {
        const properties = suite.slice(suite.indexOf('<properties>'), suite.indexOf('</properties>'));
        expect(properties).toContain('<property name="verdict" value="NOT CONFORMANT"/>');
        expect(properties).toContain(
          '<property name="verdict.summary" value="NOT CONFORMANT: 1 MUST check failed, on 1 MUST requirement: REQ-AUTH-08; 1 more not exercised"/>',
        );
        expect(properties).toContain('<property name="verdict.failed" value="REQ-AUTH-08"/>');
        if (everywhere || i === 0) expect(properties).toMatch(unexercised);
        else expect(properties).not.toContain('verdict.unexercised');
        expect(properties).toContain('<property name="failOn" value="must"/>');
      }
    }
    const clean = buildJunitXml(sampleRunResult(sampleChecks().filter((c) => c.outcome === 'pass')));
    expect(clean).toContain('<property name="verdict" value="CONFORMANT"/>');
    expect(clean).toContain('<property name="verdict.unexercised" value=""/>');
  });

  it('records INFO observations in system-out', () => {
    expect(testcase(xml, 'webhooks.key.format')).toContain(
      'observations:\n  · key served as JWK (OKP/Ed25519) at data.key',
    );
  });

  it('shows characters XML forbids as escapes, and keeps markup, quotes and non-ASCII text', async () => {
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    const tc = testcase(xml, 'signing.reject.stale-created');
    expect(tc).toContain(`a <b> & "c" 'd' Zürich — 日本 \\u001b[31mred\\u001b[0m bell\\u0007`);
    // Canonical XML turns every CDATA section into escaped text: both "]]>" come back whole.
    const c14n = await validateXML({ xml: { fileName: 'report.xml', contents: xml }, normalization: 'c14n' });
    expect(c14n.normalized).toContain('bell\\u0007 a]]&gt;b]]&gt;c');
    // The observation, the last exchange's body in the warning, and the body in the exchange listing.
    expect(c14n.normalized.split('a]]&gt;b]]&gt;c').length - 1).toBe(3);
  });

  it('validates with attribute values full of markup and control characters', async () => {
    const checks = sampleChecks();
    checks[0] = {
      ...checks[0]!,
      title: 'quote " amp & lt < esc \u001b nul \u0000 ]]> end',
      requirements: [{ id: 'REQ-SVC-01', level: 'MUST', section: 'S <1>', quote: 'a "b" & \u0001' }],
    };
    checks[2] = { ...checks[2]!, finding: { message: 'multi\nline <message> & "quotes" \u001b[0m' } };
    const result = sampleRunResult(checks);
    result.run.target = 'staging & "eu" <1>';
    const built = buildJunitXml(result);
    expect((await validate(built)).errors).toEqual([]);
    expect(built).toContain('<testsuites name="conformance staging &amp; &quot;eu&quot; &lt;1&gt;"');
    expect(built).toContain('message="multi line &lt;message> &amp; &quot;quotes&quot; \\u001b[0m"');
  });

  it('puts a set-up problem on every testsuite, and its fix under the reason of each check it stopped', async () => {
    const withProblem = buildJunitXml(setupProblemRunResult());
    expect((await validate(withProblem)).errors).toEqual([]);
    const suites = withProblem.split('<testsuite ').slice(1);
    for (const suite of suites) {
      expect(suite).toContain(`<property name="run.setupProblem.1" value="webhooks: ${SETUP_PROBLEM.problem}"/>`);
      expect(suite).toContain(`<property name="run.setupProblem.1.checks" value="webhooks.events.auth-created"/>`);
    }
    const tc = testcase(withProblem, 'webhooks.events.auth-created');
    expect(tc).toContain('<skipped/>');
    expect(tc).toContain(
      `<system-out><![CDATA[skipped: set-up problem: ${SETUP_PROBLEM.problem}\na set-up problem of the run (webhooks), not a failure of the server; fix: ${SETUP_PROBLEM.fix}]]></system-out>`,
    );
    expect(xml).not.toContain('run.setupProblem');
  });
});

describe('--junit-exchanges: the lean file (failing, the default) and the whole one (all)', () => {
  const lean = () => buildJunitXml(sampleRunResult());
  const all = () => buildJunitXml(sampleRunResult(), { exchanges: 'all' });

  it("lists the exchanges of failing, warning and erroring testcases only, and a passing one's level, not its quotes", async () => {
    const file = lean();
    expect((await validate(file)).errors).toEqual([]);
    // The passing check with an exchange: its level stays, its exchange and requirement quotes do not.
    expect(testcase(file, 'auth.token.issue')).not.toContain('exchange 1 of');
    expect(file).toContain('<property name="auth.token.issue.level" value="MUST"/>');
    expect(file).not.toContain('auth.token.issue.requirements');
    // Its observations stay (a passing check without exchanges).
    expect(testcase(file, 'auth.token.envelope')).toContain('· creation answered with 201');
    for (const id of ['signing.reject.expired', 'signing.reject.stale-created', 'resources.customer.update'])
      expect(testcase(file, id), id).toContain('exchange 1 of');
    expect(testcase(file, 'webhooks.delivery.verify')).toContain('exchange 1 of 1');
    expect(file).toContain('<property name="signing.reject.expired.requirements" value="REQ-AUTH-08 (Authentication)');
    // Each testsuite says what was left out and where it is.
    expect(file.match(/<property name="lean" value="/g)).toHaveLength(4);
    expect(file).toContain('--junit-exchanges all puts them here');
    expect(file).toContain(
      '<property name="lean" value="run notes and requirements not exercised: on testsuite auth"/>',
    );
  });

  it('all: every testcase lists its exchanges and requirements, every testsuite the run notes, and no "lean" note', async () => {
    const result = sampleRunResult();
    result.run.notes = ['timestamps: Unix timestamps count seconds'];
    const file = buildJunitXml(result, { exchanges: 'all' });
    expect((await validate(file)).errors).toEqual([]);
    expect(testcase(file, 'auth.token.issue')).toContain('exchange 1 of 1');
    expect(file).toContain('<property name="auth.token.issue.requirements" value="REQ-TOKEP-01 (');
    expect(file.match(/<property name="run\.note\.1" value="timestamps/g)).toHaveLength(4);
    expect(file).not.toContain('name="lean"');
    expect(buildJunitXml(result).match(/<property name="run\.note\.1" value="timestamps/g)).toHaveLength(1);
    expect(lean().length).toBeLessThan(all().length);
  });

  describe('against the reference server', () => {
    let clean: RunResult;
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'conformance-junit-run-'));
      clean = await run({ cwd: dir });
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it("a passing whole run's file is under 100 kB, valid, with no exchange; `all` lists every one", async () => {
      expect(clean.exitCode).toBe(0);
      const file = buildJunitXml(clean);
      expect(Buffer.byteLength(file)).toBeLessThan(100_000);
      expect((await validate(file)).errors).toEqual([]);
      expect(file).not.toMatch(/exchange 1 of \d+ \(#/);
      const whole = buildJunitXml(clean, { exchanges: 'all' });
      const listed = clean.checks.filter((c) => c.exchanges.length > 0);
      expect(listed.length).toBeGreaterThan(100);
      expect(whole.match(/exchange 1 of \d+ \(#/g)).toHaveLength(listed.length);
    });

    it("CLI: a failing check's exchange is in the default file, a passing neighbour's is not; a bad value exits 2", async () => {
      const res = await runCli(['run', '--suite', 'auth', '--fault', 'auth.token-type-lowercase', '--junit', 'r.xml'], {
        cwd: dir,
      });
      expect(res.code).toBe(1);
      const file = await readFile(join(dir, 'r.xml'), 'utf8');
      expect((await validate(file)).errors).toEqual([]);
      const failing = testcase(file, 'auth.token.type-bearer');
      expect(failing).toContain(
        '<failure message="tokenType is &quot;bearer&quot;, not &quot;Bearer&quot;" type="MUST">',
      );
      expect(failing).toMatch(
        /exchange 1 of \d+ \(#\d+\)\nrequest {3}POST http:\/\/127\.0\.0\.1:\d+\/v1\/oauth\/token/,
      );
      expect(testcase(file, 'auth.token.issued')).not.toContain('exchange 1 of');

      const bad = await runCli(['run', '--junit-exchanges', 'some'], { cwd: dir });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain(
        "option '--junit-exchanges <which>' argument 'some' is invalid. Allowed choices are failing, all.",
      );
    });
  });
});
