// The terminal report of `conformance judge` (issue 30): the checks that judged the traffic one line each, the hundred
// and more that traffic cannot exercise counted in ONE line (which says -v lists them); -v lists each, and the JSON
// report holds every check. A finding over many answers names the first five and counts the rest, citing each exchange.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NOT_EXERCISED_FOLD, judge } from '../../src/judge-api.js';
import { HumanReporter } from '../../src/report/human.js';
import type { HumanStyle } from '../../src/report/human-style.js';

const BASE = 'https://api.example.test/v1';
/** How a skipped check's own line ends. */
const SKIP_NOTE = `(skipped: ${NOT_EXERCISED_FOLD.reason})`;
const ERROR_BODY = '{"code":"NOT_FOUND","message":"Not Found"}';

/** A HAR entry: GET path answered with status, a JSON body labelled contentType. */
function entry(path: string, status: number, contentType: string, text: string) {
  return {
    startedDateTime: '2026-11-28T10:00:00.000Z',
    time: 3,
    request: {
      method: 'GET',
      url: `${BASE}${path}`,
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'Authorization', value: 'Bearer t' }],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'Content-Type', value: contentType }],
      cookies: [],
      content: { size: text.length, mimeType: contentType, text },
      redirectURL: '',
      headersSize: -1,
      bodySize: text.length,
    },
    cache: {},
    timings: { send: 0, wait: 3, receive: 0 },
  };
}

let dir: string;
let har: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'conformance-judge-terminal-'));
  har = join(dir, 'seven.har');
  // Seven 404 answers with a JSON body labelled text/plain: json-type warns on each; the error-body checks pass.
  const entries = Array.from({ length: 7 }, (_, i) => entry(`/customers/${900 + i}`, 404, 'text/plain', ERROR_BODY));
  await writeFile(har, JSON.stringify({ log: { version: '1.2', creator: { name: 'test' }, entries } }));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function judged(style: HumanStyle, json?: string) {
  let out = '';
  const reporter = new HumanReporter({
    out: { write: (t: string) => (out += t) },
    color: false,
    progress: false,
    style,
    foldedSkips: NOT_EXERCISED_FOLD,
  });
  const result = await judge({ file: har, reporters: [reporter], onNote: () => undefined, ...(json ? { json } : {}) });
  return { out, result };
}

describe('conformance judge, terminal report', () => {
  it('lists the judged checks one line each and counts the not-exercised ones in one line that says -v lists them', async () => {
    const { out, result } = await judged('default');
    const notExercised = result.checks.filter((c) => c.skipReason === NOT_EXERCISED_FOLD.reason);
    expect(notExercised.length).toBeGreaterThan(100);
    const lines = out.split('\n');
    // No not-exercised check has a line of its own; one line counts them all.
    expect(lines.filter((l) => l.includes(SKIP_NOTE))).toEqual([]);
    expect(lines.filter((l) => /checks? not exercised: /.test(l))).toEqual([
      `  - ${notExercised.length} checks not exercised: each needs requests of its own, which observed traffic does not hold (-v lists them)`,
    ]);
    // Every other check has its line: the judged ones, and those skipped for another reason (no token answer here).
    for (const c of result.checks.filter((x) => x.skipReason !== NOT_EXERCISED_FOLD.reason))
      expect(
        lines.some((l) =>
          l.startsWith(`  ${{ pass: '✓', warn: '!', skip: '-', fail: '✗', error: 'E' }[c.outcome]} ${c.id} `),
        ),
      ).toBe(true);
    // The judged checks, a line each, and the verdict's lines: some 50 observing checks, never the 175.
    expect(lines.length).toBeLessThan(100);
  });

  it('-v (verbose) lists every check, the not-exercised ones too; the JSON report holds them all', async () => {
    const json = join(dir, 'r.json');
    const { out, result } = await judged('verbose', json);
    const notExercised = result.checks.filter((c) => c.skipReason === NOT_EXERCISED_FOLD.reason);
    expect(out.split('\n').filter((l) => l.includes(SKIP_NOTE)).length).toBe(notExercised.length);
    expect(out).not.toMatch(/checks not exercised: each needs/);
    const report = JSON.parse(await readFile(json, 'utf8')) as { checks: Array<{ id: string }> };
    expect(report.checks.map((c) => c.id)).toEqual(result.checks.map((c) => c.id));
  });

  it('the dot style counts them in the same one line, and writes no dot for them', async () => {
    const { out, result } = await judged('dot');
    const notExercised = result.checks.filter((c) => c.skipReason === NOT_EXERCISED_FOLD.reason).length;
    const dots = out.split('\n')[2]!;
    expect([...dots].length).toBe(result.checks.length - notExercised);
    expect(out).toContain(`  - ${notExercised} checks not exercised: `);
  });

  it('json-type names the first five mislabelled answers, counts the rest, and cites every exchange', async () => {
    const { result } = await judged('default');
    const check = result.checks.find((c) => c.id === 'resources.responses.json-type');
    expect(check?.outcome).toBe('warn');
    expect(check?.finding?.message).toBe(
      `7 of 7 JSON answer(s) are labelled otherwise: ${[900, 901, 902, 903, 904].map((id) => `GET /v1/customers/${id} → 404 text/plain`).join('; ')}; and 2 more (each exchange cited)`,
    );
    expect(check?.exchanges.map((e) => e.request.url)).toEqual(
      Array.from({ length: 7 }, (_, i) => `${BASE}/customers/${900 + i}`),
    );
  });
});
