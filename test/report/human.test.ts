import { describe, expect, it } from 'vitest';
import {
  HumanReporter,
  humanReporterForStdout,
  shouldUseColor,
  type HumanReporterOptions,
} from '../../src/report/human.js';
import type { RunResult } from '../../src/engine/index.js';
import { sampleChecks, sampleRunResult } from '../helpers/run-result.js';
import { displayWidth } from '../../src/report/wrap.js';

class Sink {
  chunks: string[] = [];
  columns?: number;
  isTTY?: boolean;
  write(chunk: string): boolean {
    this.chunks.push(chunk);
    return true;
  }
  get text(): string {
    return this.chunks.join('');
  }
}

/** What the runner tells a reporter when the run starts. */
function startOf(result: RunResult) {
  const { target, baseUrl, replay } = result.run;
  return { target, baseUrl, replay, checks: result.checks };
}

/**
 * Drives a reporter (by default one with `options`, in the verbose style the tests before issue 27 describe) through a
 * whole run the way the runner does (results in declaration order), and returns what it wrote. `stream: false` hands
 * every result over at the end only.
 */
function report(
  result: RunResult,
  options: Partial<HumanReporterOptions> = {},
  {
    stream = true,
    sink = new Sink(),
    reporter = new HumanReporter({ out: sink, color: false, progress: false, style: 'verbose', ...options }),
  } = {},
): { sink: Sink; text: string } {
  reporter.onRunStart(startOf(result));
  for (const check of result.checks) {
    reporter.onCheckStart(check);
    reporter.onCheckFinished(check);
    if (stream) reporter.onCheckEnd(check);
  }
  void reporter.onRunEnd(result);
  return { sink, text: sink.text };
}

/** A terminal `columns` wide, as process.stdout shows one. */
function terminal(columns?: number): Sink {
  const sink = new Sink();
  sink.isTTY = true;
  if (columns !== undefined) sink.columns = columns;
  return sink;
}

/** The sample run's report in a terminal `columns` wide, as rows, each checked to fit. */
function terminalRows(columns: number, options: Partial<HumanReporterOptions> = {}): string[] {
  const rows = screen(report(sampleRunResult(), { wrap: true, ...options }, { sink: terminal(columns) }).text);
  for (const row of rows) expect(displayWidth(row), row).toBeLessThanOrEqual(columns);
  return rows;
}

/** The rows a terminal shows of the text: escapes gone, a row rewritten after a carriage return as rewritten. */
function screen(text: string): string[] {
  return text.split('\n').map((row) =>
    row
      .split('\r')
      .at(-1)!
      .replace(/\u001b\[[0-9;]*[A-Za-z]/g, ''),
  );
}

describe('HumanReporter', () => {
  it('ends with the exact totals line, errored included when something errored, the verdict, then the time per suite', () => {
    const lines = report(sampleRunResult()).text.split('\n');
    expect(lines.slice(-12)).toEqual([
      '3 passed, 1 failed, 2 warned, 1 skipped, 1 errored',
      'NOT CONFORMANT: 1 MUST check failed, on 1 MUST requirement: REQ-AUTH-08; 1 more not exercised',
      '    REQ-SVC-01 "A client exchanges its client identifier and client secret for a shor…" — resources.accounts.list skipped: fixtures.customerId is not set; webhooks.delivery.verify errored: request to https://staging.example/v1/webhooks timed out after 10000 ms → see the skip reason; see the check\'s error',
      "5 MUST requirements of the spec are out of reach of a black-box test and not part of the verdict: 'conformance coverage' lists them with why",
      'time 4.2 s, up to 4 checks at once',
      '  suite      checks   wall  check time',
      '  auth            2  22 ms       24 ms',
      '  signing         2  1.2 s       1.2 s',
      '  resources       2  12 ms       12 ms',
      '  webhooks        2  22 ms       24 ms',
      '  run             8  4.2 s       1.3 s',
      '',
    ]);
  });

  it('leaves errored out of the totals line when nothing errored', () => {
    const checks = sampleChecks().filter((c) => c.outcome !== 'error');
    const lines = report(sampleRunResult(checks)).text.trimEnd().split('\n');
    expect(lines).toContain('3 passed, 1 failed, 2 warned, 1 skipped');
    expect(lines.at(-1)).toMatch(/^ {2}run +7 /);
  });

  it('says when checks ran one at a time, and a report of an older version (no suite times) still gets its table', () => {
    const result = sampleRunResult();
    const older = { ...result, run: { ...result.run, concurrency: 1, suites: undefined } };
    const lines = report(older).text.trimEnd().split('\n');
    expect(lines).toContain('time 4.2 s, one check at a time');
    expect(lines.at(-1)).toBe('  run             8  4.2 s       1.3 s');
  });

  it('writes no escape sequence at all with colour and progress off, even for a hostile body', () => {
    const { text } = report(sampleRunResult());
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u0007');
    expect(text).toContain('\\u001b[31mred');
  });

  it('starts with the target and base URL, then one group per suite in order', () => {
    const lines = report(sampleRunResult()).text.split('\n');
    expect(lines[0]).toBe('conformance 8 checks against staging (https://staging.example/v1)');
    expect(lines.filter((l) => /^[a-z]+$/.test(l))).toEqual(['auth', 'signing', 'resources', 'webhooks']);
  });

  it('lays a failure out as the GUIDE does: check line, spec, expected, observed, request, response, replay', () => {
    const lines = report(sampleRunResult()).text.split('\n');
    const at = lines.findIndex((l) => l.startsWith('  ✗ signing.reject.expired'));
    expect(at).toBeGreaterThan(0);
    expect(lines[at]).toMatch(
      /^ {2}✗ signing\.reject\.expired +MUST +Authentication — A request with an expired signature is rejected$/,
    );
    // The details run until the next check line (blank lines separate headers from bodies inside them).
    const end = lines.findIndex((l, i) => i > at && /^ {0,2}\S/.test(l));
    const block = lines.slice(at + 1, end);
    const labels = block.map((l) => /^ {4}(\S+)/.exec(l)?.[1]).filter((l) => l !== undefined);
    expect(labels).toEqual(['spec', 'expected', 'observed', 'request', 'response', 'replay']);
    expect(block[0]).toBe(
      '    spec      REQ-AUTH-08 (Authentication): "The signature covers the ordered components listed in Signature-Input, and `created` and `expires` are Unix times."',
    );
    expect(block[1]).toBe('    expected  a request signed with expires 120 s in the past is rejected (any 4xx)');
    expect(block[2]).toBe('    observed  an expired signature was accepted');
    expect(block[3]).toBe('              200 — the server served it');
    expect(block[4]).toBe('    request   GET https://staging.example/v1/accounts?customerId=1042');
    expect(block[5]).toBe('              authorization: Bearer [redacted]');
    const response = lines.slice(at).find((l) => l.startsWith('    response'));
    expect(response).toBe('    response  200  (3.8 KiB, 14 ms)');
    expect(lines.slice(at).some((l) => l === '              … (first 1.0 KiB of 3.8 KiB)')).toBe(true);
    const replay = lines.slice(at).find((l) => l.startsWith('    replay'));
    // The line conformance curl runs: by its path on the run's target, signed again as old as the recorded signature.
    expect(replay).toBe(
      `    replay    npx conformance curl '/accounts?customerId=1042' -H 'x-note: it'\\''s "quoted"' --created=-180 --expires=-120 --target staging`,
    );
  });

  it('shows only the last exchange of a failing check, all of them when verbose', () => {
    const count = (text: string) => text.split('\n').filter((l) => l.startsWith('    request ')).length;
    // expired (last of 2), stale-created, customer.update, delivery.verify
    expect(count(report(sampleRunResult()).text)).toBe(4);
    expect(count(report(sampleRunResult(), { allExchanges: true }).text)).toBe(5);
  });

  it('marks each outcome with its symbol, gives the skip reason, and indents INFO observations', () => {
    const lines = report(sampleRunResult()).text.split('\n');
    const line = (id: string) => lines.find((l) => l.slice(4).startsWith(`${id} `));
    expect(line('auth.token.issue')).toMatch(/^ {2}✓ /);
    expect(line('signing.reject.stale-created')).toMatch(/^ {2}! signing\.reject\.stale-created +SHOULD +/);
    expect(line('resources.customer.update')).toMatch(/^ {2}! /);
    expect(line('resources.accounts.list')).toMatch(
      /^ {2}- resources\.accounts\.list +MUST .*\(skipped: fixtures\.customerId is not set\)$/,
    );
    expect(line('webhooks.delivery.verify')).toMatch(/^ {2}E /);
    const info = lines.indexOf(line('auth.token.envelope') ?? '');
    expect(lines.slice(info + 1, info + 3)).toEqual([
      '    · the token response uses the {data, code, message} envelope',
      '    · creation answered with 201',
    ]);
    expect(lines.indexOf(line('webhooks.key.format') ?? '')).toBe(
      lines.indexOf('    · key served as JWK (OKP/Ed25519) at data.key') - 1,
    );
  });

  it('shows the observations of a passing MUST check too (a crawl summary, a choice the server made)', () => {
    const result = sampleRunResult();
    const check = result.checks.find((c) => c.id === 'auth.token.issue')!;
    check.observations = ['crawled 42 views from stocks, assets, requests'];
    const lines = report(result).text.split('\n');
    const at = lines.findIndex((l) => l.slice(4).startsWith('auth.token.issue '));
    expect(lines[at + 1]).toBe('    · crawled 42 views from stocks, assets, requests');
  });

  it('shows an errored check with its error and the transport failure', () => {
    const text = report(sampleRunResult()).text;
    expect(text).toContain(
      '    error     request to https://staging.example/v1/webhooks timed out\n              after 10000 ms',
    );
    expect(text).toContain('    response  none: timeout after 10000 ms  (after 14 ms)');
  });

  it('writes each result as the runner hands it over, under its suite, and the stream reads as the whole report', () => {
    const result = sampleRunResult();
    const sink = new Sink();
    const reporter = new HumanReporter({ out: sink, color: false, progress: false, style: 'verbose' });
    reporter.onRunStart(startOf(result));
    expect(sink.text).toBe('conformance 8 checks against staging (https://staging.example/v1)\n\n');
    reporter.onCheckStart(result.checks[0]!);
    reporter.onCheckStart(result.checks[1]!);
    reporter.onCheckFinished(result.checks[1]!);
    expect(sink.chunks).toHaveLength(1);
    reporter.onCheckEnd(result.checks[0]!);
    expect(sink.chunks[1]).toMatch(/^auth\n {2}✓ auth\.token\.issue +MUST +.*\n$/);
    reporter.onCheckEnd(result.checks[1]!);
    reporter.onCheckEnd(result.checks[2]!);
    // The next suite starts after a blank line, under its name; a failure comes whole, with its evidence.
    expect(sink.chunks[3]).toMatch(
      /^\nsigning\n {2}✗ signing\.reject\.expired[^]*\n {4}replay {4}npx conformance curl .*\n\n$/,
    );
    for (const check of result.checks.slice(3)) reporter.onCheckEnd(check);
    void reporter.onRunEnd(result);
    expect(sink.text).toBe(report(result, {}, { stream: false }).text);
    const ids = sink.text.split('\n').flatMap((l) => /^ {2}[✓✗!E-] (\S+) /.exec(l)?.[1] ?? []);
    expect(ids.slice(0, 8)).toEqual(result.checks.map((c) => c.id));
  });

  it('lists the failed, warned and errored checks again above the totals, one line each', () => {
    const lines = report(sampleRunResult()).text.split('\n');
    const at = lines.indexOf('failed, warned and errored checks (details above)');
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at, at + 7)).toEqual([
      'failed, warned and errored checks (details above)',
      '  ✗ signing.reject.expired        MUST    an expired signature was accepted',
      '  ! signing.reject.stale-created  SHOULD  a signature created 1 h ago was accepted',
      '  ! resources.customer.update     SHOULD  the response did not echo the new e-mail',
      '  E webhooks.delivery.verify      MUST    request to https://staging.example/v1/webhooks timed out after 10000 ms',
      '',
      '3 passed, 1 failed, 2 warned, 1 skipped, 1 errored',
    ]);
    const clean = sampleChecks().filter((c) => c.outcome === 'pass');
    expect(report(sampleRunResult(clean)).text).not.toContain('details above');
  });

  it('shows what a check saw that another owns under it, dim, and counts it on the owner in the list at the end', () => {
    const checks = sampleChecks();
    const owner = checks.find((c) => c.id === 'signing.reject.expired')!;
    const seer = checks.find((c) => c.id === 'auth.token.envelope')!;
    seer.alsoSeen = [
      {
        requirements: ['REQ-ENV-03'],
        ownedBy: owner.id,
        message: 'code is the number 200 in GET /accounts',
        exchangeSeq: 1,
      },
    ];
    const lines = report(sampleRunResult(checks)).text.split('\n');
    const at = lines.findIndex((l) => l.startsWith('  ✓ auth.token.envelope'));
    expect(lines.slice(at + 1, at + 4)).toEqual([
      '    · the token response uses the {data, code, message} envelope',
      '    · creation answered with 201',
      '    also seen in this answer: REQ-ENV-03 (owned by signing.reject.expired): code is the number 200 in GET /accounts',
    ]);
    expect(lines).toContain(
      '  ✗ signing.reject.expired        MUST    an expired signature was accepted; seen by 1 other',
    );
    // In a terminal the ids go unpadded when padding would leave the reason under 30 columns; cut, the reason gives
    // way, not the count.
    const narrow = screen(report(sampleRunResult(checks), { wrap: true }, { sink: terminal(80) }).text);
    expect(narrow).toContain('  ✗ signing.reject.expired  MUST  an expired signature was acc…; seen by 1 other');
    const coloured = report(sampleRunResult(checks), { color: true }).text;
    expect(coloured).toContain('\u001b[2m    also seen in this answer: REQ-ENV-03');
  });

  it('states each set-up problem once, above the verdict, with its fix and how many checks it kept from running', () => {
    const result = sampleRunResult();
    result.run.setupProblems = [
      {
        suite: 'webhooks',
        problem: "no delivery arrived: the server refused the receiver's certificate (unknown CA)",
        fix: 'give the provider receiver.pem (fingerprint AB:CD) and run again',
        checks: ['webhooks.delivery.verify', 'webhooks.key.format'],
      },
    ];
    const lines = report(result).text.split('\n');
    const at = lines.indexOf(
      "set-up problem (webhooks): no delivery arrived: the server refused the receiver's certificate (unknown CA)",
    );
    expect(at).toBeGreaterThan(0);
    expect(lines[at - 1]).toBe('');
    expect(lines.slice(at + 1, at + 4)).toEqual([
      '  fix: give the provider receiver.pem (fingerprint AB:CD) and run again',
      '  kept from running: 2 checks, not exercised, not failed: the run exits 0 for this unless --fail-on incomplete',
      '',
    ]);
    result.run.failOnIncomplete = true;
    expect(report(result).text).toContain('\n  kept from running: 2 checks, not exercised, not failed\n');
    expect(at).toBeLessThan(lines.indexOf('3 passed, 1 failed, 2 warned, 1 skipped, 1 errored'));
  });

  it('draws a progress line on a terminal: done of total, outcomes so far, what runs; erased before results', () => {
    const result = sampleRunResult();
    const sink = terminal(120);
    const reporter = new HumanReporter({ out: sink, color: false, progress: true, wrap: true, style: 'verbose' });
    reporter.onRunStart(startOf(result));
    const [first, second, third] = result.checks;
    reporter.onCheckStart(first!);
    reporter.onCheckStart(second!);
    expect(sink.chunks.at(-1)).toBe(
      '\r\u001b[2K[0/8] ✓ 0  ✗ 0  ! 0  - 0 · running auth.token.issue, auth.token.envelope',
    );
    // The second finished first: it no longer runs, but its result waits for the first's, so it is not counted yet.
    reporter.onCheckFinished(second!);
    expect(sink.chunks.at(-1)).toBe('\r\u001b[2K[0/8] ✓ 0  ✗ 0  ! 0  - 0 · 1 more done · running auth.token.issue');
    reporter.onCheckStart(third!);
    reporter.onCheckFinished(first!);
    reporter.onCheckEnd(first!);
    expect(sink.chunks.at(-1)!.startsWith('\r\u001b[2Kauth\n  ✓ auth.token.issue ')).toBe(true);
    reporter.onCheckEnd(second!);
    const chunk = sink.chunks.at(-1)!;
    expect(chunk.startsWith('\r\u001b[2K  ✓ auth.token.envelope ')).toBe(true);
    expect(chunk.endsWith('\n[2/8] ✓ 2  ✗ 0  ! 0  - 0 · running signing.reject.expired')).toBe(true);
    reporter.onCheckFinished(third!);
    reporter.onCheckEnd(third!);
    expect(sink.chunks.at(-1)).toMatch(/\n\[3\/8\] ✓ 2 {2}✗ 1 {2}! 0 {2}- 0$/);
    void reporter.onRunEnd(result);
    const last = sink.chunks.at(-1)!;
    expect(last.startsWith('\r\u001b[2K')).toBe(true);
    expect(last.slice(4)).not.toContain('\r');
    expect(last.endsWith('  run             8  4.2 s       1.3 s\n')).toBe(true);
  });

  it('cuts the progress line to the terminal width, naming as many running checks as fit, else their number', () => {
    const sink = terminal(80);
    const reporter = new HumanReporter({ out: sink, color: false, progress: true });
    const checks = sampleChecks();
    for (const check of checks.slice(0, 3)) reporter.onCheckStart(check);
    expect(sink.chunks.at(-1)).toBe(
      '\r\u001b[2K[0] ✓ 0  ✗ 0  ! 0  - 0 · running auth.token.issue, auth.token.envelope +1',
    );
    sink.columns = 40;
    reporter.onCheckStart(checks[3]!);
    expect(sink.chunks.at(-1)).toBe('\r\u001b[2K[0] ✓ 0  ✗ 0  ! 0  - 0 · 4 running');
    sink.columns = 20;
    reporter.onCheckFinished(checks[4]!);
    reporter.onCheckEnd(checks[6]!);
    // One result listed (checks[4] is done, its result not handed over): the count is of the outcomes it shows.
    expect(sink.chunks.at(-1)).toBe('\r\u001b[2K[1] ✓ 0  ✗ 0  ! 0 …');
    const coloured = new Sink();
    coloured.columns = 80;
    const withColour = new HumanReporter({ out: coloured, color: true, progress: true });
    withColour.onCheckEnd(checks[2]!);
    expect(coloured.chunks.at(-1)).toContain('\u001b[31m✗\u001b[39m 1');
  });

  it('wraps every line to an 80-column terminal, under its column, breaking at spaces', () => {
    const rows = terminalRows(80, { progress: true });
    // Padded ids would leave a title under 40 columns: it follows the level, and wraps under the id.
    const at = rows.findIndex((r) => r.startsWith('  ✗ signing.reject.expired'));
    expect(rows.slice(at, at + 2)).toEqual([
      '  ✗ signing.reject.expired  MUST  Authentication — A request with an expired',
      '    signature is rejected',
    ]);
    // Evidence wraps under the column after its label; a word wider than a row (a JSON body) is cut after a comma.
    expect(rows.slice(at + 2, at + 5)).toEqual([
      '    spec      REQ-AUTH-08 (Authentication): "The signature covers the ordered',
      '              components listed in Signature-Input, and `created` and `expires`',
      '              are Unix times."',
    ]);
    const body = rows.findIndex((r) => r.startsWith('              {"code":"200"'));
    expect(rows[body]).toBe('              {"code":"200","message":"Success","data":[{"accountId":5000},');
    expect(rows[body + 1]).toBe('              {"accountId":5001},{"accountId":5002},{"accountId":5003},');
    // The replay line stays one command: each row but the last ends in a backslash; no option parts from its value.
    const replay = rows.findIndex((r, i) => i > at && r.startsWith('    replay    '));
    expect(rows.slice(replay, replay + 3)).toEqual([
      "    replay    npx conformance curl '/accounts?customerId=1042' \\",
      `              -H 'x-note: it'\\''s "quoted"' --created=-180 --expires=-120 \\`,
      '              --target staging',
    ]);
    // The list at the end: one row each, cut to the width.
    expect(rows).toContain('  ! signing.reject.stale-created  SHOULD  a signature created 1 h ago was accep…');
    expect(rows.at(-2)).toBe('  run             8  4.2 s       1.3 s');
  });

  it('keeps the id column in a terminal wide enough, and wraps a title under the title column', () => {
    const rows = terminalRows(100);
    const at = rows.findIndex((r) => r.startsWith('  ✗ signing.reject.expired'));
    expect(rows.slice(at, at + 2)).toEqual([
      '  ✗ signing.reject.expired        MUST    Authentication — A request with an expired signature is',
      '                                          rejected',
    ]);
  });

  it('writes plain unwrapped lines when not wrapping, however wide they are', () => {
    const { text } = report(sampleRunResult(), {}, { sink: terminal(40) });
    expect(text.split('\n')).toContain(
      '  ✗ signing.reject.expired        MUST    Authentication — A request with an expired signature is rejected',
    );
  });

  it('colours only when asked, per instance', () => {
    expect(report(sampleRunResult(), { color: true }).text).toMatch(/\u001b\[3\dm✗\u001b\[39m/);
    expect(report(sampleRunResult(), { color: false }).text).not.toContain('\u001b[');
  });
});

describe('humanReporterForStdout', () => {
  it('turns colour on only for a terminal without NO_COLOR (an empty NO_COLOR does not count)', () => {
    expect(shouldUseColor({ isTTY: true }, {})).toBe(true);
    expect(shouldUseColor({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(shouldUseColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(shouldUseColor({ isTTY: false }, {})).toBe(false);
    expect(shouldUseColor({}, {})).toBe(false);
  });

  it('draws no progress line and no colour when stdout is not a terminal', () => {
    const sink = new Sink();
    sink.isTTY = false;
    const reporter = humanReporterForStdout({ stream: sink, env: {} });
    const result = sampleRunResult();
    reporter.onRunStart({ target: 'staging', baseUrl: result.run.baseUrl, checks: result.checks });
    reporter.onCheckStart(result.checks[0]!);
    void reporter.onRunEnd(result);
    expect(sink.chunks).toHaveLength(2);
    expect(sink.text).not.toContain('\u001b');
  });

  it('on a terminal wraps to its width (80 when it says 0) and draws progress, but not in CI, and NO_COLOR or TERM=dumb draw none', () => {
    const long = sampleRunResult();
    const drawn = (env: Record<string, string>, columns = 0) => {
      const sink = terminal(columns);
      const reporter = humanReporterForStdout({ stream: sink, env });
      reporter.onRunStart(startOf(long));
      reporter.onCheckStart(long.checks[0]!);
      void reporter.onRunEnd(long);
      const rows = screen(sink.text);
      const widest = Math.max(...rows.map(displayWidth));
      return { progress: sink.text.includes('\r\u001b[2K'), width: widest > 100 ? 'none' : widest > 80 ? 100 : 80 };
    };
    expect(drawn({})).toEqual({ progress: true, width: 80 });
    expect(drawn({}, 100)).toEqual({ progress: true, width: 100 });
    expect(drawn({ NO_COLOR: '1' })).toEqual({ progress: false, width: 80 });
    expect(drawn({ TERM: 'dumb' })).toEqual({ progress: false, width: 80 });
    expect(drawn({ CI: 'true' })).toEqual({ progress: false, width: 'none' });
    expect(drawn({ CI: 'false' })).toEqual({ progress: true, width: 80 });
  });

  it('writes the style asked for (--reporter), default when none is', () => {
    const written = (style?: HumanReporterOptions['style']) => {
      const sink = new Sink();
      report(sampleRunResult(), {}, { sink, reporter: humanReporterForStdout({ stream: sink, env: {}, style }) });
      return sink.text;
    };
    expect(written()).toBe(written('default'));
    expect(written()).not.toContain('creation answered with 201');
    expect(written('verbose')).toContain('    · creation answered with 201');
    expect(written('dot')).toContain('\n··✗!!-E·\n');
  });

  it('draws progress and colour on a terminal', () => {
    const sink = new Sink();
    sink.isTTY = true;
    const reporter = humanReporterForStdout({ stream: sink, env: {} });
    reporter.onCheckStart(sampleChecks()[0]!);
    expect(sink.chunks[0]).toContain('\r\u001b[2K');
    void reporter.onRunEnd(sampleRunResult());
    expect(sink.text).toMatch(/\u001b\[32m✓/);
  });
});

/** The sample run with a failure whose observation repeats: one line per option, differing in the symbol. */
function repeatingRunResult(): RunResult {
  const checks = sampleChecks();
  const symbols = ['AAPL', 'MSFT', 'GOOGL', 'AMZN', 'NVDA', 'TSLA', 'META', 'NFLX'];
  const failing = checks.find((c) => c.id === 'signing.reject.expired')!;
  failing.finding = {
    ...failing.finding!,
    observed: [
      'every requestUrl is on http://10.0.0.12:8080:',
      ...symbols.map((s) => `- "http://10.0.0.12:8080/v1/ussd/stocks?symbol=${s}"`),
    ].join('\n'),
  };
  failing.observations = ['crawled 42 menus'];
  return sampleRunResult(checks);
}

describe('HumanReporter, default style', () => {
  const run = (result = sampleRunResult(), options: Partial<HumanReporterOptions> = {}) =>
    report(result, { style: 'default', ...options }).text.split('\n');

  it('gives a passing, skipped or INFO check one line (mark, id, level, title) and none of its observations', () => {
    const lines = run();
    expect(lines).toContain('  ✓ auth.token.envelope           INFO    Token response envelope');
    expect(lines.filter((l) => l.includes('auth.token.envelope'))).toHaveLength(1);
    expect(lines.join('\n')).not.toContain('creation answered with 201');
    expect(lines.join('\n')).not.toContain('key served as JWK');
    expect(lines.find((l) => l.includes('resources.accounts.list'))).toMatch(
      /^ {2}- resources\.accounts\.list .*\(skipped: /,
    );
    // No suite headings: each id starts with its suite.
    expect(lines).not.toContain('auth');
    expect(lines).not.toContain('signing');
  });

  it('shows each failing, warning and erroring check in full, as verbose does', () => {
    const verbose = report(sampleRunResult()).text;
    const text = run().join('\n');
    for (const id of ['signing.reject.expired', 'signing.reject.stale-created', 'webhooks.delivery.verify']) {
      const block = (t: string) => new RegExp(`\\n {2}[✗!E] ${id.replace(/\./g, '\\.')} [^]*?\\n\\n`).exec(t)?.[0];
      expect(block(text), id).toBeDefined();
      expect(block(text)).toBe(block(verbose));
    }
  });

  it('folds what a failure repeats, keeping its first line and what the others change; verbose keeps every line', () => {
    const text = run(repeatingRunResult()).join('\n');
    expect(text).toContain(
      [
        '    observed  an expired signature was accepted',
        '              every requestUrl is on http://10.0.0.12:8080:',
        '              - "http://10.0.0.12:8080/v1/ussd/stocks?symbol=AAPL"',
        '              … 7 more like it, differing only in: MSFT, GOOGL, AMZN, NVDA, TSLA, META, and 1 more',
        '    request   GET',
      ].join('\n'),
    );
    // A failing check's own observations stay.
    expect(text).toContain('    · crawled 42 menus');
    const verbose = report(repeatingRunResult()).text;
    expect(verbose).toContain('- "http://10.0.0.12:8080/v1/ussd/stocks?symbol=NFLX"');
    expect(verbose).not.toContain('more like it');
  });

  it('ends with the notes counted in one line, the totals, the verdict with a line per cause, and the time alone', () => {
    const result = sampleRunResult();
    result.run.notes = ['throttling: none', 'tokens: one served the run'];
    const lines = run(result);
    const at = lines.indexOf('3 passed, 1 failed, 2 warned, 1 skipped, 1 errored');
    expect(lines.slice(at)).toEqual([
      '3 passed, 1 failed, 2 warned, 1 skipped, 1 errored',
      'NOT CONFORMANT: 1 MUST check failed, on 1 MUST requirement: REQ-AUTH-08; 1 more not exercised',
      '    1 MUST requirement: resources.accounts.list skipped: fixtures.customerId is not set → see the skip reason (REQ-SVC-01)',
      expect.stringMatching(
        /^ {4}1 MUST requirement: webhooks\.delivery\.verify errored: request to .* \(REQ-SVC-01\)$/,
      ),
      expect.stringMatching(/^5 MUST requirements of the spec are out of reach/),
      'time 4.2 s, up to 4 checks at once',
      '',
    ]);
    expect(lines).toContain('· 2 run notes and 3 observations: in --verbose and the JSON/HTML reports');
    expect(lines.join('\n')).not.toContain('throttling: none');
    expect(lines.join('\n')).not.toContain('check time');
  });

  it('cuts each check line to the terminal width with …, and writes it whole when not a terminal', () => {
    const long = sampleChecks();
    long[0]!.title = `valid credentials give a token ${'and more words '.repeat(10)}`;
    const rows = screen(report(sampleRunResult(long), { style: 'default', wrap: true }, { sink: terminal(80) }).text);
    const row = rows.find((r) => r.includes('auth.token.issue '))!;
    expect(displayWidth(row)).toBe(80);
    expect(row.endsWith('…')).toBe(true);
    expect(rows.filter((r) => r.includes('and more words'))).toHaveLength(1);
    const piped = run(sampleRunResult(long)).find((l) => l.includes('auth.token.issue '))!;
    expect(piped.endsWith('and more words ')).toBe(true);
  });
});

describe('HumanReporter, dot style', () => {
  it('writes a character per check as its result comes, then the failures in full and the summary', () => {
    const result = sampleRunResult();
    const { sink, text } = report(result, { style: 'dot' });
    // The header, then one chunk per result: its character alone.
    expect(sink.chunks.slice(1, 9)).toEqual(['·', '·', '✗', '!', '!', '-', 'E', '·']);
    const lines = text.split('\n');
    expect(lines[2]).toBe('··✗!!-E·');
    expect(lines[3]).toBe('');
    expect(lines[4]).toMatch(/^ {2}✗ signing\.reject\.expired /);
    expect(lines.filter((l) => /^ {2}✓ /.test(l))).toEqual([]);
    expect(text).toContain('    replay    npx conformance curl');
    expect(text).toContain('3 passed, 1 failed, 2 warned, 1 skipped, 1 errored');
  });

  it('breaks the dots at the terminal width, and draws no progress line: the dots are the progress', () => {
    const checks = Array.from({ length: 25 }, () => sampleChecks())
      .flat()
      .map((c, i) => ({ ...c, id: `${c.id}.${i}` }));
    const { text } = report(
      sampleRunResult(checks),
      { style: 'dot', progress: true, wrap: true },
      { sink: terminal(60) },
    );
    const rows = screen(text);
    const first = rows.findIndex((r) => r.startsWith('··✗'));
    expect(rows.slice(first, first + 5).map((r) => r.length)).toEqual([60, 60, 60, 20, 0]);
    expect(text).not.toContain('\r');
  });
});

describe('the progress line', () => {
  it('counts what it shows: its outcomes add up to its counter, whatever order checks finish in', () => {
    const result = sampleRunResult();
    const sink = terminal(200);
    const reporter = new HumanReporter({ out: sink, color: false, progress: true, wrap: true });
    reporter.onRunStart(startOf(result));
    const checks = result.checks;
    for (const check of checks) reporter.onCheckStart(check);
    // They finish last to first: every result waits for the first's, then all come at once.
    for (const check of [...checks].reverse()) reporter.onCheckFinished(check);
    for (const check of checks) reporter.onCheckEnd(check);
    const progress = sink.chunks.map((chunk) => chunk.split('\n').at(-1)!.replace('\r\u001b[2K', '')).filter(Boolean);
    expect(progress.length).toBeGreaterThan(checks.length);
    for (const line of progress) {
      const m = /^\[(\d+)\/8\] ✓ (\d+) {2}✗ (\d+) {2}! (\d+) {2}- (\d+)(?: {2}E (\d+))?/.exec(line);
      expect(m, line).not.toBeNull();
      const [, done, ...counts] = m!;
      expect(
        counts.reduce((sum, n) => sum + Number(n ?? 0), 0),
        line,
      ).toBe(Number(done));
    }
    expect(progress).toContain('[0/8] ✓ 0  ✗ 0  ! 0  - 0 · 8 more done');
    expect(progress.at(-1)).toBe('[8/8] ✓ 3  ✗ 1  ! 2  - 1  E 1');
  });
});
