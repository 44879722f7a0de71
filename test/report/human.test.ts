import { describe, expect, it } from 'vitest';
import {
  HumanReporter,
  humanReporterForStdout,
  shouldUseColor,
  type HumanReporterOptions,
} from '../../src/report/human.js';
import type { Reporter } from '../../src/engine/index.js';
import type { RunResult } from '../../src/engine/index.js';
import { sampleChecks, sampleRunResult } from '../helpers/run-result.js';

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

/** Drives a reporter through a whole run the way the runner does, and returns what it wrote. */
function report(result: RunResult, options: Partial<HumanReporterOptions> = {}): { sink: Sink; text: string } {
  const sink = new Sink();
  const reporter = new HumanReporter({ out: sink, color: false, progress: false, ...options });
  reporter.onRunStart({ target: result.run.target, baseUrl: result.run.baseUrl, checks: result.checks });
  for (const check of result.checks) {
    reporter.onCheckStart(check);
  }
  void reporter.onRunEnd(result);
  return { sink, text: sink.text };
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
    expect(count(report(sampleRunResult(), { verbose: true }).text)).toBe(5);
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

  it('prints results in the RunResult order whatever order checks ended in', () => {
    const result = sampleRunResult();
    const sink = new Sink();
    const reporter: Reporter = new HumanReporter({ out: sink, color: false, progress: false });
    for (const check of [...result.checks].reverse()) reporter.onCheckEnd?.(check);
    void reporter.onRunEnd?.(result);
    const ids = sink.text.split('\n').flatMap((l) => /^ {2}\S (\S+)/.exec(l)?.[1] ?? []);
    expect(ids).toEqual(result.checks.map((c) => c.id));
  });

  it('draws the progress line in place on a terminal and erases it before the results', () => {
    const { sink } = report(sampleRunResult(), { progress: true });
    expect(sink.chunks[1]).toBe('\r\u001b[2K[1/8] auth.token.issue');
    expect(sink.chunks[8]).toBe('\r\u001b[2K[8/8] webhooks.key.format');
    const last = sink.chunks.at(-1) ?? '';
    expect(last.startsWith('\r\u001b[2Kauth\n')).toBe(true);
    expect(last.slice(4)).not.toContain('\r');
  });

  it('cuts the progress line to the terminal width so it never wraps', () => {
    const sink = new Sink();
    sink.columns = 20;
    const reporter = new HumanReporter({ out: sink, color: false, progress: true });
    reporter.onCheckStart(sampleChecks()[2]!);
    expect(sink.chunks.at(-1)).toBe('\r\u001b[2K[1] signing.reject.');
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
