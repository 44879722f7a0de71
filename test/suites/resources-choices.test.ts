// Every reading of the open points of resources, pagination, idempotency and limits (choices/resources.ts): the whole
// suite passes against a server that takes it (0 failures, 0 warnings, no skip beyond a clean run's), and an
// observation records which reading the server took. All the non-default readings at once pass too.
import { describe, expect, it } from 'vitest';
import { pack } from '../../suites/index.js';
import { RESOURCES_CHOICES } from '../../src/reference/choices/resources.js';
import type { ChoiceDef, Choices } from '../../src/reference/choices/index.js';
import { runChecks, type RunResult } from '../../src/engine/index.js';
import { startLocalTarget } from '../../src/targets/local.js';
import { IdempotencyCache, idempotencyKeyOf } from '../../src/reference/idempotency.js';
import { listReply } from '../../src/reference/paging.js';
import { HttpError } from '../../src/reference/respond.js';
import { assetView, customerView } from '../../src/reference/views.js';
import { suites } from '../../suites/index.js';
import { DELIVERY_DEADLINE_MS } from '../helpers/waits.js';

/** The skips of a clean run: the token's hour and the order flow that needs --allow-mutations. */
const CLEAN_SKIPS = ['auth.expiry.after-60-minutes', 'ussd.flow.order-cancel'];

async function run(choices: Partial<Choices>): Promise<RunResult> {
  const local = await startLocalTarget({ choices });
  try {
    return await runChecks({
      pack,
      target: local.target,
      suites,
      selection: {},
      failOn: 'should',
      suiteOptions: { webhooks: { deadlineMs: DELIVERY_DEADLINE_MS } },
    });
  } finally {
    await local.stop();
  }
}

const notClean = (r: RunResult) =>
  r.checks
    .filter((c) => c.outcome !== 'pass' && !(c.outcome === 'skip' && CLEAN_SKIPS.includes(c.id)))
    .map((c) => `${c.id}: ${c.outcome} ${c.finding?.message ?? c.skipReason ?? ''}`);
const observations = (r: RunResult) => [...r.checks.flatMap((c) => c.observations), ...(r.run.notes ?? [])];

// Each reading alone, with its record, is a run of the choices matrix (docs/choices-matrix.md, npm run matrix:check);
// here the resources readings that change most at once, with the records they must leave.
describe('the whole suite against a server that takes the last reading of every resources open point', () => {
  it('passes and records them', async () => {
    const last = Object.fromEntries(
      Object.entries(RESOURCES_CHOICES as Record<string, ChoiceDef>).map(([key, def]) => [
        key,
        def.values.at(-1)!.value,
      ]),
    ) as Partial<Choices>;
    const result = await run(last);
    expect(notClean(result)).toEqual([]);
    const seen = observations(result);
    expect(seen.some((o) => /customer 1043: null: firstName, lastName, referenceId/.test(o))).toBe(true);
    expect(seen.some((o) => /nextPage on the last page: back to the first page/.test(o))).toBe(true);
    expect(seen.some((o) => /validation failures answered 422/.test(o))).toBe(true);
  });
});

describe('the readings as the server shows them', () => {
  const paging = { page: 0, limit: 2, sort: 'ASC' as const };
  const base = { pageMode: 'index', pastEnd: 'empty', lastNextPage: 'current' } as const;
  const metaOf = (reply: { body?: unknown }) =>
    (reply.body as { meta: { nextPage: number; currentPage: number } }).meta;

  it('nextPage on the last page is the page itself, the page past the end, or the first page', () => {
    const items = [1, 2, 3];
    expect(metaOf(listReply(items, { ...paging, page: 1 }, base)).nextPage).toBe(1);
    expect(metaOf(listReply(items, { ...paging, page: 1 }, { ...base, lastNextPage: 'past' })).nextPage).toBe(2);
    expect(metaOf(listReply(items, { ...paging, page: 1 }, { ...base, lastNextPage: 'first' })).nextPage).toBe(0);
    expect(
      metaOf(listReply(items, { ...paging, page: 2 }, { ...base, pageMode: 'offset', lastNextPage: 'past' })).nextPage,
    ).toBe(4);
    // A page before the last keeps its next page whatever the reading.
    expect(metaOf(listReply(items, paging, { ...base, lastNextPage: 'first' })).nextPage).toBe(1);
  });

  it("a page past the end is an empty page or a 404; an empty list's first page is never a 404", () => {
    expect(listReply([1], { ...paging, page: 5 }, base).status).toBe(200);
    expect(() => listReply([1], { ...paging, page: 5 }, { ...base, pastEnd: '404' })).toThrow(HttpError);
    expect(listReply([], paging, { ...base, pastEnd: '404' }).status).toBe(200);
  });

  it('customer fields without a value are left out or null, and only those', () => {
    const c = {
      customerId: 1,
      firstName: 'A',
      lastName: 'B',
      status: 'ACTIVE' as const,
      referenceId: 7,
      createdAt: 1,
      updatedAt: 2,
    };
    const unset = new Set(['firstName', 'referenceId']);
    expect(customerView(c, { customerFields: 'all' }, unset)).toEqual(c);
    expect(customerView(c, { customerFields: 'absent' }, unset)).toEqual({
      customerId: 1,
      lastName: 'B',
      status: 'ACTIVE',
      createdAt: 1,
      updatedAt: 2,
    });
    expect(customerView(c, { customerFields: 'null' }, unset)).toEqual({ ...c, firstName: null, referenceId: null });
  });

  it('asset numbers as whole numbers, and available apart from position − locked', () => {
    const a = {
      assetId: 1,
      instrumentId: 2,
      customerId: 3,
      name: 'n',
      symbol: 's',
      investmentAmount: 1500.5,
      position: 8.5,
      locked: 1,
      available: 7.5,
      purchasePrice: 176.47,
      marketPrice: 189.12,
      currency: 'USD' as const,
      createdAt: 1,
      updatedAt: 1,
    };
    expect(assetView(a, { assetNumbers: 'decimals', assetRelation: 'derived' })).toMatchObject({
      position: 8.5,
      locked: 1,
      available: 7.5,
    });
    expect(assetView(a, { assetNumbers: 'integers', assetRelation: 'derived' })).toMatchObject({
      position: 8,
      locked: 1,
      available: 7,
      purchasePrice: 176,
    });
    expect(assetView(a, { assetNumbers: 'decimals', assetRelation: 'independent' })).toMatchObject({
      position: 8.5,
      locked: 1,
      available: 6.5,
    });
  });

  it('a repeated idempotency key is replayed, carried out again, or refused', async () => {
    for (const [repeat, statuses, runs] of [
      ['replay', [201, 201], 1],
      ['new', [201, 201], 2],
      ['refuse', [201, 409], 1],
    ] as const) {
      const cache = new IdempotencyCache(() => 0);
      let executed = 0;
      const execute = async () => {
        executed++;
        return { status: 201, body: { n: executed } };
      };
      const first = await cache.run('c', 'k', 'f', execute, repeat);
      const second = await cache.run('c', 'k', 'f', execute, repeat);
      expect([first.status, second.status], repeat).toEqual(statuses);
      expect(executed, repeat).toBe(runs);
    }
  });

  it('X-Idempotency-Id counts as the key only where the server accepts that spelling', () => {
    const headers: Array<[string, string]> = [['X-Idempotency-Id', 'k1']];
    expect(idempotencyKeyOf(headers)).toEqual({ kind: 'ok', key: 'k1' });
    expect(idempotencyKeyOf(headers, false)).toEqual({ kind: 'missing' });
  });
});
