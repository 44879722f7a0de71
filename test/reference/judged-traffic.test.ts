// The choices matrix judges each run's own HAR as `conformance judge` would (src/matrix/judged-traffic.ts): a correct
// server read any way the spec leaves open shows no finding there, and one the judge makes is a problem of the row.
import { describe, expect, it } from 'vitest';
import { judgedTrafficProblems } from '../../src/matrix/judged-traffic.js';
import type { CheckResult } from '../../src/engine/index.js';
import { BASE_URL, exchange, jsonResponse, request, sampleRunResult } from '../helpers/run-result.js';

function runWith(res: ReturnType<typeof jsonResponse>) {
  const read = exchange('resources.customers.get', request({ url: `${BASE_URL}/customers/1042` }), res);
  const checks: CheckResult[] = [
    {
      id: 'resources.customers.get',
      title: 'a customer read',
      suite: 'resources',
      level: 'MUST',
      outcome: 'pass',
      startMs: 0,
      durationMs: 1,
      failsRun: true,
      requirements: [],
      observations: [],
      exchanges: [read],
    },
  ];
  // The sample's session token answer is a made-up shape: this run holds the read alone.
  return { ...sampleRunResult(checks), sessionExchanges: [] };
}

describe("the choices matrix's judge of each run's traffic", () => {
  it('finds nothing in the traffic of a correct answer', async () => {
    const body = '{"data":{"customerId":1042},"code":"200","message":"Success"}';
    expect(await judgedTrafficProblems(runWith(jsonResponse(200, body)))).toEqual([]);
  });

  it("names the check and its finding where the judge fails or warns on an answer of the run's traffic", async () => {
    const body = '{"data":{"customerId":1042},"code":"200","message":"Success"}';
    const problems = await judgedTrafficProblems(
      runWith(jsonResponse(200, body, { headers: [['content-type', 'text/plain']] })),
    );
    expect(problems).toEqual([
      expect.stringMatching(
        /^judged from the run's HAR: resources\.responses\.json-type warn: 1 of 1 JSON answer\(s\) are labelled otherwise/,
      ),
    ]);
  });
});
