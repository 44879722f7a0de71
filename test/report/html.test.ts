import { createHash } from 'node:crypto';
import { requirementRefs } from '../../src/catalog/requirements.js';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HtmlReporter, INFO_SECTION_TITLE, bySeverity, escapeHtml, htmlReport } from '../../src/report/html.js';
import { inlineMarkdown, markdownQuote } from '../../src/report/inline-markdown.js';
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

/** The <article> block of one finding. */
function findingBlock(html: string, id: string): string {
  const start = html.indexOf(`<article class="finding`, html.indexOf(`id="check-${id}"`) - 60);
  return html.slice(start, html.indexOf('</article>\n', start));
}

/** One <section> of the page, by id. */
function sectionOf(html: string, id: string): string {
  const start = html.indexOf(`<section id="${id}">`);
  return start < 0 ? '' : html.slice(start, html.indexOf('</section>', start));
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
    const known = sectionOf(html, 'expected');
    expect(known).toContain('Expected failures (1)');
    expect(known).toContain('signing.reject.expired');
    expect(known).toContain('expected failure (expected, listed until 2027-01-31): fix scheduled for release 4.2');
    const failures = sectionOf(html, 'failures');
    expect(failures).toContain('id="check-webhooks.delivery.verify"');
    expect(failures).not.toContain('id="check-signing.reject.expired"');
    // After the warnings: a known deviation does not fail the run.
    expect(html.indexOf('<section id="expected">')).toBeGreaterThan(html.indexOf('<section id="warnings">'));
  });

  it('shows the run summary and the verdict, with each MUST requirement not exercised', () => {
    const html = htmlReport(sampleRunResult());
    const page = text(html);
    expect(html).toContain(
      '<div class="verdict-box not-conformant"><p class="verdict">NOT CONFORMANT</p><p class="because">1 MUST check failed, on 1 MUST requirement; exit code 1 (fail-on must)</p></div>',
    );
    const verdict = sectionOf(html, 'verdict');
    expect(text(verdict)).toContain(
      'NOT CONFORMANT: 1 MUST check failed, on 1 MUST requirement: REQ-AUTH-08; 1 more not exercised',
    );
    expect(text(verdict)).toContain(
      '1 MUST requirement not exercised; 5 MUST requirements out of reach of a black-box test, not part of the verdict.',
    );
    const gaps = sectionOf(html, 'not-exercised');
    expect(gaps).toContain('Not exercised (1)');
    // Grouped by what to do: the group's line says it once, the rows say which check and why.
    expect(text(gaps)).toContain("1 requirement: what to do: see the skip reason; see the check's error");
    expect(gaps).toMatch(
      /<code>REQ-SVC-01<\/code>.*<code>resources\.accounts\.list<\/code> skipped: fixtures\.customerId is not set/,
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
    // Each suite's line carries its wall time.
    expect(html).toMatch(
      /<details class="suite" id="suite-signing"><summary><strong>signing<\/strong> <span class="count">2 checks, <span class="fail">2 not passed<\/span>, 1\.2 s<\/span><\/summary>/,
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
    expect(block).toMatch(/^<article class="finding fail" id="check-signing\.reject\.expired">/);
    const shown = text(block);
    // The quote as the spec renders it: code spans are code, no backtick left.
    expect(block).toContain(
      '<code>REQ-AUTH-08</code> <span class="section">Authentication</span><blockquote class="quote">The signature covers the ordered components listed in Signature-Input, and <code>created</code> and <code>expires</code> are Unix times.</blockquote>',
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
    // The verdict's exchange is open for a failure; the set-up exchange before it is kept, folded.
    expect(block).toContain(
      '<details class="exchange" open><summary>the exchange: GET https://staging.example/v1/accounts?customerId=1042 → 200</summary>',
    );
    expect(block).toContain('<details class="more"><summary>1 other exchange of this check</summary>');
    // A warning's exchange is folded, an error's open; a passing check has no block.
    const warning = findingBlock(html, 'signing.reject.stale-created');
    expect(warning).toMatch(/^<article class="finding warn" id="check-signing\.reject\.stale-created">/);
    expect(warning).toContain('<details class="exchange"><summary>');
    expect(findingBlock(html, 'webhooks.delivery.verify')).toContain('<details class="exchange" open>');
    expect(html).not.toContain('id="check-auth.token.issue"');
  });

  it('lists every check in a table per suite', () => {
    const html = htmlReport(sampleRunResult());
    for (const suite of ['auth', 'signing', 'resources', 'webhooks']) {
      expect(html).toContain(`<details class="suite" id="suite-${suite}"><summary><strong>${suite}</strong> `);
      expect(sectionOf(html, 'suites')).toContain(`<td><a href="#suite-${suite}">${suite}</a></td>`);
    }
    // Every table scrolls in its own box, so a phone never scrolls the page sideways.
    expect(html.match(/<table/g)!.length).toBe(html.match(/<div class="table-scroll"><table/g)!.length);
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
    expect(html.lastIndexOf(digest)).toBeGreaterThan(html.indexOf('<footer>'));
    // And in the run's identity, at the top.
    expect(html.indexOf(digest)).toBeLessThan(html.indexOf('<section id="failures">'));
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

  it('reads by severity: verdict and identity, then MUST failures and errors, SHOULD warnings, not exercised, out of reach, notes, suites', () => {
    // A SHOULD warning declared before the MUST failure: the page still puts the failure first.
    const checks = sampleChecks();
    const warn = checks.findIndex((c) => c.id === 'signing.reject.stale-created');
    const [warning] = checks.splice(warn, 1);
    checks.unshift(warning!);
    const result = sampleRunResult(checks);
    result.run.notes = ['target: the embedded reference server, variant strict'];
    const html = htmlReport(result);
    const order = [
      'verdict',
      'identity',
      'failures',
      'warnings',
      'not-exercised',
      'out-of-reach',
      'notes',
      'suites',
      'choices',
    ];
    const at = order.map((id) => html.indexOf(`<section id="${id}">`));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    // The verdict box is the first thing after the title.
    expect(html.indexOf('class="verdict-box')).toBeLessThan(at[0]!);
    expect(sectionOf(html, 'failures')).toContain('Failures (2): MUST checks failed, checks that errored');
    // A failure before an error, both above the first warning.
    const failures = sectionOf(html, 'failures');
    expect(failures.indexOf('id="check-signing.reject.expired"')).toBeLessThan(
      failures.indexOf('id="check-webhooks.delivery.verify"'),
    );
    expect(sectionOf(html, 'warnings')).toContain('id="check-signing.reject.stale-created"');
    expect(sectionOf(html, 'warnings')).toContain('id="check-resources.customer.update"');
    expect(text(sectionOf(html, 'notes'))).toContain('target: the embedded reference server, variant strict');
    const groups = bySeverity(checks);
    expect(groups.failures.map((c) => c.id)).toEqual(['signing.reject.expired', 'webhooks.delivery.verify']);
    expect(groups.warnings.map((c) => c.id)).toEqual(['signing.reject.stale-created', 'resources.customer.update']);
    expect(groups.known).toEqual([]);
  });

  it('names the run in full: target, base URL, client id, key id, tool, spec, catalog digest, and every option that changed what was tested', () => {
    const result = sampleRunResult();
    result.run.catalogSha256 = 'c'.repeat(64);
    result.run.selection = { suites: ['auth', 'signing'], grep: '^auth\\.' };
    result.run.options = {
      long: true,
      allowMutations: false,
      requestTimeoutMs: 20_000,
      maxBodyBytes: 1024 * 1024,
      budgetMs: 90_000,
      suites: ['auth', 'signing'],
      expectedFailures: { file: 'known.json', sha256: 'e'.repeat(64), entries: 2 },
      local: {
        variant: 'lenient',
        choices: { 'ussd-requests-menu': 'filters' },
        faults: ['auth.token-type-lowercase'],
      },
    };
    const identity = text(sectionOf(htmlReport(result), 'identity'));
    for (const line of [
      'Targetstaging',
      'Base URLhttps://staging.example/v1',
      'Client idacme',
      'Key idacme-2026',
      'Toolconformance 0.1.0',
      'Spec version0.0.1',
      `Catalog SHA-256${'c'.repeat(64)}`,
      'JSON report SHA-256',
      'Suitesauth, signing (--suite)',
      '--grep^auth\\.',
      '--fail-onmust',
      `--expected-failuresknown.json (SHA-256 ${'e'.repeat(64)}): 2 entries`,
      '--longyes: the checks that take long (token expiry after 60 minutes) ran',
      '--allow-mutationsno: the USSD crawler did not follow links that place or cancel an order',
      '--timeout20.0 s per request',
      '--max-body1 MiB per response',
      '--budget90s for the run',
      '--concurrency4',
      'Reference servervariant lenient; choices ussd-requests-menu=filters; faults auth.token-type-lowercase',
    ])
      expect(identity).toContain(line);
    // A run of `conformance client`: the client program and its scenarios, not the server's limits and flags.
    const client = sampleRunResult();
    const { long, allowMutations, requestTimeoutMs, maxBodyBytes, budgetMs } = result.run.options;
    client.run.options = {
      ...{ long, allowMutations, requestTimeoutMs, maxBodyBytes, budgetMs },
      client: { command: ['node', 'my client.js'], scenarios: ['read', 'webhooks'] },
    };
    const graded = text(sectionOf(htmlReport(client), 'identity'));
    expect(graded).toContain('Client commandnode my client.js');
    expect(graded).toContain('Scenariosread, webhooks');
    expect(graded).toContain('--budget90s for the run');
    expect(graded).not.toContain('--long');
    expect(graded).not.toContain('--timeout');
    // A report of a version before RunInfo.options says so rather than show defaults it does not know.
    const old = text(sectionOf(htmlReport(sampleRunResult()), 'identity'));
    expect(old).toContain('Catalog SHA-256not recorded (a report of a version before it)');
    expect(old).toContain('Other optionsnot recorded');
  });

  it('lists the MUST requirements out of black-box reach, each with why', () => {
    const html = htmlReport(sampleRunResult());
    const reach = sectionOf(html, 'out-of-reach');
    expect(reach).toContain('Out of reach (5): MUST requirements no black-box test can check');
    expect(text(reach)).toContain('REQ-SVC-10');
    expect(text(reach)).toContain('why: A run checks one environment (one target).');
    expect(reach.match(/<li>/g)).toHaveLength(5);
  });

  it('renders the spec quotes of the INFO section and the gaps as Markdown, never raw **', () => {
    const html = htmlReport(sampleRunResult());
    for (const id of ['choices', 'not-exercised', 'out-of-reach', 'failures', 'warnings'])
      expect(text(sectionOf(html, id))).not.toMatch(/\*\*|`/);
  });

  it('prints a sign-off block for the reviewer, hidden on screen', () => {
    const html = htmlReport(sampleRunResult());
    expect(html).toContain('<section id="sign-off" class="print-only">');
    expect(text(html.slice(html.indexOf('<section id="sign-off"')))).toContain('Reviewed by (name, role)DateSignature');
    expect(html).toMatch(/@media print \{[^]*#failures \{ break-before: page; \}/);
  });
});

describe("the spec's Markdown in a quote", () => {
  it('renders bold, code spans and http(s) links, escaping every character first', () => {
    expect(inlineMarkdown('**GET /instruments** lists available instruments')).toBe(
      '<strong>GET /instruments</strong> lists available instruments',
    );
    expect(inlineMarkdown('sent as `Authorization: Bearer <ACCESS_TOKEN>`; tokenType is always Bearer.')).toBe(
      'sent as <code>Authorization: Bearer &lt;ACCESS_TOKEN&gt;</code>; tokenType is always Bearer.',
    );
    expect(inlineMarkdown('**`GET /x`** and `a**b**c`')).toBe(
      '<strong><code>GET /x</code></strong> and <code>a**b**c</code>',
    );
    expect(inlineMarkdown('see [RFC 9421](https://www.rfc-editor.org/rfc/rfc9421)')).toBe(
      'see <a href="https://www.rfc-editor.org/rfc/rfc9421" rel="noreferrer">RFC 9421</a>',
    );
  });

  it('leaves what is not Markdown as text: an unpaired **, a lone backtick, a link that is not http(s), markup', () => {
    expect(inlineMarkdown('2 ** 3 and a ` alone')).toBe('2 ** 3 and a ` alone');
    expect(inlineMarkdown('[x](javascript:alert(1))')).toBe('[x](javascript:alert(1))');
    expect(inlineMarkdown('**<img src=x onerror=alert(1)>**')).toBe(
      '<strong>&lt;img src=x onerror=alert(1)&gt;</strong>',
    );
    expect(inlineMarkdown('[a"b](https://x.example/"onmouseover=1)')).not.toContain('"onmouseover');
    expect(inlineMarkdown('bidi \u202e and ESC \u001b')).toBe('bidi \\u202e and ESC \\u001b');
  });

  it('renders a table row as cells (a | inside a code span stays in its cell) and a bullet as a bullet', () => {
    expect(markdownQuote('| tokenType | Authorization type; always `Bearer` |')).toBe(
      '<span class="md-row"><span class="md-cell">tokenType</span><span class="md-cell">Authorization type; always <code>Bearer</code></span></span>',
    );
    expect(markdownQuote('| a | `x|y` |  |')).toBe(
      '<span class="md-row"><span class="md-cell">a</span><span class="md-cell"><code>x|y</code></span><span class="md-cell">&nbsp;</span></span>',
    );
    expect(markdownQuote('- Result: a **record**')).toBe('• Result: a <strong>record</strong>');
    expect(markdownQuote('3. The token lifetime is 60 minutes.')).toBe('3. The token lifetime is 60 minutes.');
  });
});
