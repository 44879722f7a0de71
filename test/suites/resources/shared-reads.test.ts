// The resources suite reads each fixture record and list it only reads once per run (issue 29): whichever check asks
// first sends it, the others judge the same answer and record where it is (sharedExchanges). The mutable customer,
// which other checks change, is read afresh each time; a failure on an answer another check sent joins that exchange
// to the failing check's own, so the reports show it; and the verdicts do not depend on which check asked first.
import { describe, expect, it } from 'vitest';
import { suites } from '../../../suites/index.js';
import { type RunResult } from '../../../src/engine/index.js';
import { runSuites } from '../../helpers/suite-runs.js';

const run = (concurrency: number, faults: string[] = []): Promise<RunResult> =>
  runSuites(suites, { only: 'resources', faults, concurrency });

const outcomes = (r: RunResult) => Object.fromEntries(r.checks.map((c) => [c.id, c.outcome]));
const exchangeBySeq = (r: RunResult) =>
  new Map(r.checks.flatMap((c) => c.exchanges.filter((e) => e.checkId === c.id).map((e) => [e.seq, e])));

describe.each([1, 8])('the resources suite, %i check(s) at once', (concurrency) => {
  it('judges each fixture read several checks need from one answer, and reads the mutable customer afresh', async () => {
    const r = await run(concurrency);
    expect(r.checks.filter((c) => c.outcome !== 'pass').map((c) => c.id)).toEqual([]);
    const sent = exchangeBySeq(r);
    const shared = r.checks.flatMap((c) => (c.sharedExchanges ?? []).map((s) => ({ by: c.id, ...s })));
    const paths = new Set<string>();
    for (const s of shared) {
      const e = sent.get(s.seq)!;
      expect(e.checkId).toBe(s.sentBy);
      expect(s.sentBy).not.toBe(s.by);
      expect(e.request.method).toBe('GET');
      paths.add(new URL(e.request.url).pathname.replace(/^\/v1/, ''));
    }
    // The fixture records (the other customer's too) and the three lists, each judged by several checks from one answer.
    expect([...paths].sort()).toEqual([
      '/accounts',
      '/accounts/5001',
      '/assets/6001',
      '/customers/1042',
      '/customers/1043',
      '/instruments',
      '/transactions',
      '/transactions/90011',
    ]);
    // Those the timestamps and numbers checks judge: each sent once among the checks that share it.
    const numbers = r.checks.find((c) => c.id === 'resources.numbers.safe-integers')!;
    const ownAndShared = [...numbers.exchanges.map((e) => e.seq), ...(numbers.sharedExchanges ?? []).map((s) => s.seq)];
    const readBy = (seq: number) => sent.get(seq)!;
    const urls = ownAndShared.map((seq) => readBy(seq).request.url);
    expect(new Set(urls).size).toBe(urls.length);
    // The mutable customer is read afresh by every check that reads it: none judges another's read of it.
    const mutable = new Set(
      [...sent.values()].filter((e) => e.request.url.endsWith('/customers/2077')).map((e) => e.seq),
    );
    expect(mutable.size).toBeGreaterThan(3);
    expect(shared.filter((s) => mutable.has(s.seq))).toEqual([]);
  });
});

describe('a fault in an answer several checks judge', () => {
  it('fails the same checks whichever check sent it, and the failing check shows the exchange its finding names', async () => {
    const fault = 'resources.integer-beyond-2-53';
    const [one, many] = [await run(1, [fault]), await run(8, [fault])];
    expect(outcomes(many)).toEqual(outcomes(one));
    for (const r of [one, many]) {
      const failing = r.checks.filter((c) => c.finding?.exchangeSeq !== undefined);
      expect(failing.map((c) => c.id)).toContain('resources.numbers.safe-integers');
      for (const c of failing) expect(c.exchanges.map((e) => e.seq)).toContain(c.finding!.exchangeSeq);
    }
    // At one check at a time, the first check of the suite sends the fixture reads: the numbers check judges them.
    const numbers = one.checks.find((c) => c.id === 'resources.numbers.safe-integers')!;
    expect(numbers.outcome).toBe('warn');
    expect(numbers.sharedExchanges?.length ?? 0).toBeGreaterThan(0);
    expect(numbers.exchanges.find((e) => e.seq === numbers.finding!.exchangeSeq)!.checkId).not.toBe(numbers.id);
  });
});
