// The pagination suite takes each walk and each first page once per run (issue 29): whichever check asks first sends
// it, the others judge the same answers and record where the requests are (sharedExchanges). The verdicts must not
// depend on which check asked first, so the suite runs one check at a time (the first in declaration order sends
// every walk) and many at once (any order).
import { describe, expect, it } from 'vitest';
import { suites } from '../../../suites/index.js';
import { type RunResult } from '../../../src/engine/index.js';
import { runSuites } from '../../helpers/suite-runs.js';

const run = (concurrency: number, faults: string[] = []): Promise<RunResult> =>
  runSuites(suites, { only: 'pagination', faults, concurrency });

const outcomes = (r: RunResult) => Object.fromEntries(r.checks.map((c) => [c.id, c.outcome]));
const requestOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

describe.each([1, 8])('the pagination suite, %i check(s) at once', (concurrency) => {
  it('passes, sends each page of a walk and each first page once, and every check that judged one it did not send names it', async () => {
    const r = await run(concurrency);
    expect(r.checks.filter((c) => c.outcome !== 'pass').map((c) => c.id)).toEqual([]);
    // Every GET of a list with a valid limit or none (a first page, a page of a walk) is asked for by one check only;
    // the out-of-domain values (limit=0, page=-1, sort=UP…) are each check's own.
    const VALID = /^(?:[1-9]\d{0,2}|1000)?$/;
    const reads = r.checks.flatMap((c) =>
      c.exchanges
        .filter((e) => e.request.method === 'GET' && e.checkId === c.id)
        .map((e) => new URL(e.request.url))
        .filter((u) => VALID.test(u.searchParams.get('limit') ?? '') && !u.searchParams.has('sort'))
        .filter((u) => /^(?:0|[1-9]\d*)?$/.test(u.searchParams.get('page') ?? '') && u.searchParams.get('page') !== '0')
        .map((u) => `${u.pathname}${u.search}`),
    );
    expect(reads.length).toBeGreaterThan(10);
    expect(reads.filter((p, i) => reads.indexOf(p) !== i)).toEqual([]);
    // Those that judged what another check sent record each exchange and its sender, and the sender holds it.
    const sentBy = new Map(
      r.checks.flatMap((c) => c.exchanges.map((e) => [e.seq, { check: c.id, url: e.request.url }])),
    );
    const shared = r.checks.flatMap((c) => (c.sharedExchanges ?? []).map((s) => ({ by: c.id, ...s })));
    expect(shared.length).toBeGreaterThan(20);
    for (const s of shared) {
      expect(s.sentBy).not.toBe(s.by);
      expect(sentBy.get(s.seq)?.check).toBe(s.sentBy);
    }
    // The first pages of the three lists among them: each judged by several checks that did not send it.
    const firstPages = new Set(
      shared.map((s) => requestOf(sentBy.get(s.seq)!.url)).filter((p) => !p.includes('page=')),
    );
    expect([...firstPages].filter((p) => !p.includes('limit='))).toHaveLength(3);
  });
});

describe('a fault fails the same checks whichever check sent the walks', () => {
  it.each(['pagination.total-count-remaining', 'pagination.tie-order-unstable', 'pagination.last-page-next-null'])(
    '%s',
    async (fault) => {
      const [one, many] = [await run(1, [fault]), await run(8, [fault])];
      expect(outcomes(many)).toEqual(outcomes(one));
      expect(one.checks.some((c) => c.outcome === 'fail' || c.outcome === 'warn')).toBe(true);
    },
  );
});
