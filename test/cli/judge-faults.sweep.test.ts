// `conformance judge` on the HAR of a run against a faulted reference server finds the fault the run found, in the
// check the run failed (issue 30), where traffic alone shows it: a token record counting another unit than the server's
// lists (auth.token.timestamps), two customers sharing a referenceId though a PUT came between their reads
// (resources.ids.unique: the PUT's answer names the customer it updated), and what only the whole of a long page shows
// (its meta, its order past the first 4 KiB: the HAR keeps bodies whole, the other reports an excerpt). The clean
// run's HAR of the same suite passes the checks.
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/engine/index.js';
import { readFileSync } from 'node:fs';
import { judge } from '../../src/judge-api.js';
import type { Har } from '../../src/report/har.js';
import { judgedRuns } from '../helpers/judged-runs.js';

const CASES = [
  { suite: 'auth', fault: 'auth.token-timestamps-milliseconds', check: 'auth.token.timestamps' },
  { suite: 'resources', fault: 'resources.reference-id-duplicated', check: 'resources.ids.unique' },
] as const;

/** The suite's run against the reference server with `faults`, and the judge of its HAR. */
const runAndJudge = judgedRuns('judge-faults');

const failing = (r: RunResult) =>
  r.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn').map((c) => [c.id, c.finding?.message]);

describe('conformance judge on the HAR of a faulted run', () => {
  it('finds the token record counting milliseconds among lists counting seconds, in auth.token.timestamps', async () => {
    const { ran, judged } = await runAndJudge(CASES[0].suite, [CASES[0].fault]);
    expect(failing(ran)).toEqual([
      [CASES[0].check, expect.stringMatching(/count milliseconds, while the server's other timestamps count seconds/)],
    ]);
    expect(failing(judged)).toEqual([
      [
        CASES[0].check,
        expect.stringMatching(
          /^the token record's createdAt and updatedAt count milliseconds, while the server's other timestamps count seconds \(\d+ 200 answer\(s\) of a list endpoint in the traffic: Unix timestamps count seconds/,
        ),
      ],
    ]);
    expect(judged.checks.find((c) => c.id === CASES[0].check)?.exchanges.every((e) => e.checkId === 'observed')).toBe(
      true,
    );
  });

  it('finds two customers sharing a referenceId, in resources.ids.unique', async () => {
    const { ran, judged } = await runAndJudge(CASES[1].suite, [CASES[1].fault]);
    const message = 'customers 1042 and 1043 both have referenceId 88001042';
    expect(failing(ran)).toEqual([[CASES[1].check, message]]);
    expect(failing(judged)).toEqual([[CASES[1].check, message]]);
  });

  it.each([
    { fault: 'pagination.default-limit-50', checks: ['pagination.limit.default', 'pagination.limit.full-page'] },
    {
      fault: 'pagination.sort-by-id',
      checks: ['pagination.sort.asc', 'pagination.sort.default-consistent', 'pagination.sort.desc'],
    },
  ])('finds $fault from the whole long pages of the HAR, in the checks the run failed', async ({ fault, checks }) => {
    const { ran, judged } = await runAndJudge('pagination', [fault]);
    const ids = (r: RunResult) =>
      failing(r)
        .map(([id]) => id as string)
        .sort();
    expect(ids(ran)).toEqual(checks);
    expect(ids(judged)).toEqual(checks);
    const page = judged.checks.find((c) => c.id === checks[0])!.exchanges.find((e) => e.response!.bodySize > 4096);
    expect(page?.request.url).toMatch(/\/transactions/);
  });

  it("writes every exchange of the traffic it judged into its own --har, bodies whole, as the run's HAR holds them", async () => {
    const { har } = await runAndJudge('pagination', ['pagination.default-limit-50']);
    const again = `${har}.judged.har`;
    await judge({ file: har, har: again, onNote: () => undefined });
    const entries = (file: string) =>
      (JSON.parse(readFileSync(file, 'utf8')) as Har).log.entries.map((e) => [
        e.request.method,
        e.request.url,
        e.response.status,
        e.response.content.text,
        e.response.content.comment,
      ]);
    const [original, written] = [entries(har), entries(again)];
    expect(written).toEqual(original);
    expect(written.filter(([, , , text]) => String(text ?? '').length > 4096).length).toBeGreaterThan(3);
  });

  it.each(CASES)("passes $check on the clean run's HAR of $suite", async ({ suite, check }) => {
    const { ran, judged } = await runAndJudge(suite, []);
    expect(failing(ran)).toEqual([]);
    expect(failing(judged)).toEqual([]);
    expect(judged.checks.find((c) => c.id === check)?.outcome).toBe('pass');
  });
});
