// The pagination suite takes each walk once per run (issue 29): whichever check asks first sends it, the others judge
// the same pages and name where the requests are. The verdicts must not depend on which check asked first, so the
// suite runs one check at a time (the first in declaration order sends every walk) and many at once (any order).
import { describe, expect, it } from 'vitest';
import { pack, suites } from '../../../suites/index.js';
import { runChecks, type RunResult } from '../../../src/engine/index.js';
import { startLocalTarget } from '../../../src/targets/local.js';

async function run(concurrency: number, faults: string[] = []): Promise<RunResult> {
  const local = await startLocalTarget({ faults });
  try {
    return await runChecks({
      pack,
      target: local.target,
      suites,
      selection: { suites: ['pagination'] },
      failOn: 'should',
      concurrency,
    });
  } finally {
    await local.stop();
  }
}

const outcomes = (r: RunResult) => Object.fromEntries(r.checks.map((c) => [c.id, c.outcome]));
const CITE = /the walk of (.+) was sent by (pagination\.[a-z.-]+): (\d+) page\(s\), exchanges? (.+)$/;

describe.each([1, 8])('the pagination suite, %i check(s) at once', (concurrency) => {
  it('passes, sends each page of a walk once, and every check that judged a walk it did not send names the sender', async () => {
    const r = await run(concurrency);
    expect(r.checks.filter((c) => c.outcome !== 'pass').map((c) => c.id)).toEqual([]);
    // A page past the first of a walk (page >= 1) is asked for by one check only.
    const pages = r.checks.flatMap((c) =>
      c.exchanges
        .map((e) => new URL(e.request.url))
        .filter((u) => /^[1-9]\d*$/.test(u.searchParams.get('page') ?? ''))
        .map((u) => `${u.pathname}${u.search}`),
    );
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.filter((p, i) => pages.indexOf(p) !== i)).toEqual([]);
    const cites = r.checks.flatMap((c) =>
      c.observations.flatMap((o) => {
        const m = CITE.exec(o);
        return m ? [{ by: c.id, owner: m[2]!, seqs: m[4]!.match(/#\d+/g)!.map((s) => Number(s.slice(1))) }] : [];
      }),
    );
    expect(cites.length).toBeGreaterThan(0);
    for (const cite of cites) {
      expect(cite.owner).not.toBe(cite.by);
      const sent = new Set(r.checks.find((c) => c.id === cite.owner)!.exchanges.map((e) => e.seq));
      expect(cite.seqs.filter((s) => !sent.has(s))).toEqual([]);
    }
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
