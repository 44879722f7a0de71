import { createHash } from 'node:crypto';
import { requirementRefs } from '../../src/spec/requirements.js';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HtmlReporter, INFO_SECTION_TITLE, escapeHtml, htmlReport } from '../../src/report/html.js';
import { JsonReporter, jsonReportText } from '../../src/report/json.js';
import { replayContextOf, replayLine } from '../../src/report/exchange-text.js';
import type { CheckResult } from '../../src/engine/index.js';
import {
  SETUP_PROBLEM,
  exchange,
  jsonResponse,
  request,
  sampleChecks,
  sampleRunResult,
  setupProblemRunResult,
  signedGet,
} from '../helpers/run-result.js';

const HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)> "quoted" \u001b[2J\u202eevil';

/** A run whose server answered with markup and terminal escapes wherever it could reach the report. */
function hostileRun() {
  const hostile: CheckResult = {
    id: 'resources.customers.get',
    title: 'GET /customers/{id} returns the customer',
    suite: 'resources',
    level: 'MUST',
    outcome: 'fail',
    failsRun: true,
    requirements: requirementRefs(['REQ-CUSTEP-02'], 'a test check'),
    finding: { message: `name is ${HOSTILE}`, expected: 'a string', observed: HOSTILE },
    observations: [`server said ${HOSTILE}`],
    exchanges: [
      exchange(
        'resources.customers.get',
        request({
          url: 'https://staging.example/v1/customers/7?q=%3Cscript%3E',
          headers: [['authorization', 'Bearer [redacted]']],
        }),
        jsonResponse(200, `{"name":"${HOSTILE}"}`, { headers: [['x-evil', HOSTILE]] }),
      ),
    ],
    durationMs: 5,
  };
  return sampleRunResult([...sampleChecks(), hostile]);
}

/** The visible text of an HTML fragment: tags dropped, entities decoded (enough for these assertions). */
function text(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The <details> block of one finding. */
function findingBlock(html: string, id: string): string {
  const start = html.indexOf(`<details class="finding`, html.indexOf(`id="check-${id}"`) - 60);
  return html.slice(start, html.indexOf('</details>\n', start));
}

describe('HtmlReporter', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('escapes server-supplied markup and makes control characters visible', () => {
    const html = htmlReport(hostileRun());
    // Exactly one script element (the page's own), no injected element or attribute, no raw ESC or bidi override.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain('<img');
    expect(html).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e]/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('\\u001b[2J');
    expect(html).toContain('\\u202eevil');
    expect(escapeHtml(`a & b <c> "d" 'e' \u0007`)).toBe('a &amp; b &lt;c&gt; &quot;d&quot; &#39;e&#39; \\u0007');
  });

  it('carries a Content-Security-Policy that lets nothing load or run but its own style and script', () => {
    const html = htmlReport(sampleRunResult());
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '';
    expect(csp).toContain("default-src 'none'");
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('base64');
    expect(csp).toContain(`script-src 'sha256-${sha(script)}'`);
    expect(csp).toContain(`style-src 'sha256-${sha(style)}'`);
    // Self-contained: no external stylesheet, script, image or font.
    expect(html).not.toMatch(/<link\b|\bsrc=|url\(/);
  });

  it("shows a listed (expected) failure apart from the failures, with the server team's reason", () => {
    const result = sampleRunResult();
    const failed = result.checks.find((c) => c.id === 'signing.reject.expired')!;
    failed.failsRun = false;
    failed.expected = { reason: 'fix scheduled for release 4.2', expires: '2027-01-31', status: 'expected' };
    const html = htmlReport(result);
    const known = html.slice(html.indexOf('<section id="expected">'), html.indexOf('<section id="suites">'));
    expect(known).toContain('Expected failures (1)');
    expect(known).toContain('signing.reject.expired');
    expect(known).toContain('expected failure (expected, listed until 2027-01-31): fix scheduled for release 4.2');
    const findings = html.slice(html.indexOf('<section id="findings">'), html.indexOf('<section id="expected">'));
    expect(findings).not.toContain('id="check-signing.reject.expired"');
  });

  it('shows the run summary and the verdict, with each MUST requirement not exercised', () => {
    const html = htmlReport(sampleRunResult());
    const page = text(html);
    expect(html).toContain(
      '<div class="verdict-box not-conformant"><p class="verdict">NOT CONFORMANT</p><p class="because">1 MUST check failed, on 1 MUST requirement; exit code 1 (fail-on must)</p></div>',
    );
    const verdict = html.slice(html.indexOf('<section id="verdict">'), html.indexOf('<section id="findings">'));
    expect(text(verdict)).toContain(
      'NOT CONFORMANT: 1 MUST check failed, on 1 MUST requirement: REQ-AUTH-08; 1 more not exercised',
    );
    expect(verdict).toContain('Not exercised (1)');
    expect(verdict).toMatch(
      /<code>REQ-SVC-01<\/code>.*<code>resources\.accounts\.list<\/code> skipped: fixtures\.customerId is not set.*<td>see the skip reason; see the check&#39;s error<\/td>/,
    );
    expect(text(verdict)).toContain(
      "5 MUST requirements of the spec are out of reach of a black-box test and not part of the verdict: 'conformance coverage' lists them with why",
    );
    for (const value of [
      'staging',
      'https://staging.example/v1',
      'conformance 0.1.0',
      '0.0.1',
      '2026-01-12 09:30:00 UTC',
      '4.2 s, up to 4 checks at once',
    ])
      expect(page).toContain(value);
    // Each suite's heading carries its wall time.
    expect(html).toMatch(
      /<h3 id="suite-signing">signing <span class="count">2 checks, <span class="fail">2 not passed<\/span>, 1\.2 s<\/span><\/h3>/,
    );
    const passing = sampleRunResult(sampleChecks().filter((c) => c.outcome === 'pass'));
    expect(htmlReport(passing)).toContain(
      '<div class="verdict-box conformant"><p class="verdict">CONFORMANT</p><p class="because">all 1 MUST requirement exercised, none failed; exit code 0 (fail-on must)</p></div>',
    );
    const skipped = sampleRunResult(sampleChecks().filter((c) => c.outcome === 'pass' || c.outcome === 'skip'));
    expect(htmlReport(skipped)).toContain(
      '<p class="verdict">INCOMPLETE</p><p class="because">1 of 2 MUST requirements not exercised, none failed; exit code 0 (fail-on must)</p>',
    );
    expect(htmlReport(skipped)).toContain('<title>Conformance report: staging — INCOMPLETE</title>');
  });

  it('expands a failure with the spec sentence, expected, observed, the exchange and a replay line', () => {
    const result = sampleRunResult();
    const html = htmlReport(result);
    const block = findingBlock(html, 'signing.reject.expired');
    expect(block).toMatch(/^<details class="finding fail" id="check-signing\.reject\.expired" open>/);
    const shown = text(block);
    expect(shown).toContain(
      'REQ-AUTH-08 (Authentication): "The signature covers the ordered components listed in Signature-Input, and `created` and `expires` are Unix times."',
    );
    expect(shown).toContain('a request signed with expires 120 s in the past is rejected (any 4xx)');
    expect(shown).toContain('an expired signature was accepted');
    expect(shown).toContain('200 — the server served it');
    expect(shown).toContain('GET https://staging.example/v1/accounts?customerId=1042');
    expect(shown).toContain('authorization: Bearer [redacted]');
    expect(shown).toContain('Authentication');
    // The replay line is the shared text, verbatim once unescaped: a conformance curl line on the run's target.
    const shown2 = result.checks.find((c) => c.id === 'signing.reject.expired')!.exchanges[1]!;
    const curl = replayLine(shown2.request, shown2.startedAt, replayContextOf(result.run));
    expect(curl).toMatch(/^npx conformance curl '\/accounts\?customerId=1042' .* --target staging$/);
    expect(block).toContain(`<pre class="curl">${escapeHtml(curl)}</pre>`);
    // The set-up exchange before the verdict's is kept, folded.
    expect(block).toContain('1 other exchange of this check');
    // Warnings and errors are expanded too; a passing check is not.
    expect(html).toContain('<details class="finding warn" id="check-signing.reject.stale-created" open>');
    expect(html).toContain('<details class="finding error" id="check-webhooks.delivery.verify" open>');
    expect(html).not.toContain('id="check-auth.token.issue"');
  });

  it('lists every check in a table per suite', () => {
    const html = htmlReport(sampleRunResult());
    for (const suite of ['auth', 'signing', 'resources', 'webhooks'])
      expect(html).toContain(`<h3 id="suite-${suite}">${suite} `);
    for (const check of sampleChecks())
      expect(html).toMatch(new RegExp(`<tr class="\\w+">.*<code>${check.id.replace(/\./g, '\\.')}</code>`));
    expect(html).toContain('skipped: fixtures.customerId is not set');
  });

  it('puts INFO observations in their own section', () => {
    const html = htmlReport(sampleRunResult());
    const start = html.indexOf('<section id="choices">');
    const choices = html.slice(start, html.indexOf('</section>', start));
    expect(choices).toContain(`<h2>${INFO_SECTION_TITLE}</h2>`);
    expect(INFO_SECTION_TITLE).toBe('Choices this server made where the spec is open');
    const shown = text(choices);
    expect(shown).toContain('auth.token.envelope');
    expect(shown).toContain('the token response uses the {data, code, message} envelope');
    expect(shown).toContain('webhooks.key.format');
    expect(shown).toContain('key served as JWK (OKP/Ed25519) at data.key');
    expect(shown).not.toContain('signing.reject.expired');
  });

  it('ends with the SHA-256 of the JSON report, byte for byte the file JsonReporter writes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'conformance-html-'));
    dirs.push(dir);
    const result = hostileRun();
    await new HtmlReporter(join(dir, 'out', 'report.html')).onRunEnd(result);
    await new JsonReporter(join(dir, 'report.json')).onRunEnd(result);
    const html = await readFile(join(dir, 'out', 'report.html'), 'utf8');
    const json = await readFile(join(dir, 'report.json'));
    expect(json.toString('utf8')).toBe(jsonReportText(result));
    const digest = createHash('sha256').update(json).digest('hex');
    expect(html).toContain(`<code class="digest">${digest}</code>`);
    expect(html.indexOf(digest)).toBeGreaterThan(html.indexOf('<footer>'));
  });

  it('is the same page for the same result (an evidence package hashes it)', () => {
    const result = sampleRunResult();
    expect(htmlReport(result)).toBe(htmlReport(structuredClone(result)));
  });

  it('says loudly when clean-up failed', () => {
    const result = sampleRunResult();
    result.run.cleanup = ['customer 7: restore email "ana@example.org" by hand'];
    const html = htmlReport(result);
    expect(html).toContain('<div class="cleanup" role="alert">');
    expect(text(html)).toContain('customer 7: restore email "ana@example.org" by hand');
  });

  it('shows a transport error where the response would be', () => {
    const html = htmlReport(
      sampleRunResult([
        {
          ...sampleChecks()[6]!,
          exchanges: [exchange('webhooks.delivery.verify', signedGet(), undefined, 'timeout after 10000 ms')],
        },
      ]),
    );
    expect(text(findingBlock(html, 'webhooks.delivery.verify'))).toContain('none: timeout after 10000 ms');
  });

  it('shows a set-up problem above the verdict and the checks, with its fix and the checks it stopped', () => {
    const html = htmlReport(setupProblemRunResult());
    const block = html.slice(
      html.indexOf('<div class="setup-problems"'),
      html.indexOf('</div>', html.indexOf('<div class="setup-problems"')),
    );
    expect(html.indexOf('<div class="setup-problems" role="alert">')).toBeLessThan(
      html.indexOf('<section id="verdict">'),
    );
    expect(text(block)).toBe(
      `Set-up problem of the run, not of the serverwebhooks: ${SETUP_PROBLEM.problem}fix: ${SETUP_PROBLEM.fix}kept from running: 1 check (webhooks.events.auth-created); their requirements are not exercised, not failed`,
    );
    expect(htmlReport(sampleRunResult())).not.toContain('<div class="setup-problems"');
  });
});
