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
import { assetView, customerView, inTimestampUnit } from '../../src/reference/views.js';
import { resolveChoices } from '../../src/reference/choices/index.js';
import { EventBus } from '../../src/reference/events.js';
import { WebhookService } from '../../src/reference/webhooks/service.js';
import type { DeliveryJob } from '../../src/reference/webhooks/delivery.js';
import type { Middleware } from '../../src/reference/context.js';
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

describe('a server that counts Unix timestamps in milliseconds (open point REQ-CUST-09)', () => {
  it('passes the whole suite, and the unit is recorded by the INFO check, the token check and the run notes', async () => {
    const result = await run({ timestampUnit: 'milliseconds' });
    expect(notClean(result)).toEqual([]);
    const seen = observations(result);
    expect(seen).toContainEqual(expect.stringMatching(/^Unix timestamps count milliseconds \((\d+) of \1 timestamp/));
    expect(result.run.notes).toContainEqual(expect.stringMatching(/^timestamps: Unix timestamps count milliseconds /));
    expect(result.checks.find((c) => c.id === 'auth.token.timestamps')!.observations).toEqual([
      "the token record's createdAt and updatedAt count milliseconds, as the server's instruments do",
    ]);
  });

  it('fails a record in seconds on a server whose other timestamps count milliseconds: one server, one unit', async () => {
    // Runs inside the choice shaping: a record it divides by 1000 leaves the server in seconds.
    const assetInSeconds: Middleware = async (_ctx, _state, route, next) => {
      const reply = await next();
      const body = reply.body as { data?: Record<string, number> } | undefined;
      if (route.path !== '/assets/:assetId' || reply.status !== 200 || !body?.data) return reply;
      const { createdAt, updatedAt } = body.data;
      return {
        ...reply,
        body: {
          ...body,
          data: { ...body.data, createdAt: Math.floor(createdAt! / 1000), updatedAt: Math.floor(updatedAt! / 1000) },
        },
      };
    };
    const local = await startLocalTarget({ choices: { timestampUnit: 'milliseconds' }, middleware: [assetInSeconds] });
    try {
      const result = await runChecks({
        pack,
        target: local.target,
        suites,
        selection: { grep: '^resources\\.(timestamps\\.unix|info\\.timestamp-unit)$' },
        failOn: 'should',
      });
      const unix = result.checks.find((c) => c.id === 'resources.timestamps.unix')!;
      expect(unix.outcome).toBe('fail');
      expect(unix.finding!.message).toMatch(
        /^2 timestamp\(s\) count seconds, while the server's other \d+ count milliseconds: GET \/assets\/6001: data\.createdAt = \d{10}; /,
      );
      expect(unix.finding!.requirements).toEqual(['REQ-ASSET-13', 'REQ-ASSET-14']);
      expect(result.checks.find((c) => c.id === 'resources.info.timestamp-unit')!.observations[0]).toMatch(
        /^Unix timestamps count milliseconds \(\d+ of \d+ timestamp/,
      );
    } finally {
      await local.stop();
    }
  });

  it('still fails a record a thousand times too large: microseconds are no Unix time in either unit', async () => {
    for (const [fault, id, unit] of [
      [
        'resources.asset-timestamps-millis',
        'resources.timestamps.unix',
        /^2 timestamp\(s\) are no Unix time: GET \/assets\/6001/,
      ],
      [
        'auth.token-timestamps-milliseconds',
        'auth.token.timestamps',
        /^createdAt is \d{16}, not a Unix time near the moment/,
      ],
    ] as const) {
      const local = await startLocalTarget({ choices: { timestampUnit: 'milliseconds' }, faults: [fault] });
      try {
        const result = await runChecks({
          pack,
          target: local.target,
          suites,
          selection: { grep: id.replace(/\./g, '\\.') },
          failOn: 'should',
        });
        const c = result.checks.find((r) => r.id === id)!;
        expect(c.outcome, fault).toBe('fail');
        expect(c.finding!.message, fault).toMatch(unit);
      } finally {
        await local.stop();
      }
    }
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

  it('Unix timestamps in seconds or milliseconds, at any depth of an answer, and nothing else changed', () => {
    const body = {
      data: [{ createdAt: 1, updatedAt: 2, nested: { createdAt: 3 }, expiresIn: 4 }],
      meta: { currentPage: 5 },
      code: '200',
    };
    expect(inTimestampUnit(body, { timestampUnit: 'seconds' })).toBe(body);
    expect(inTimestampUnit(body, { timestampUnit: 'milliseconds' })).toEqual({
      data: [{ createdAt: 1000, updatedAt: 2000, nested: { createdAt: 3000 }, expiresIn: 4 }],
      meta: { currentPage: 5 },
      code: '200',
    });
    // A value that is no whole number (a fault's) is left as it is.
    expect(inTimestampUnit({ createdAt: '2024-01-01' }, { timestampUnit: 'milliseconds' })).toEqual({
      createdAt: '2024-01-01',
    });
  });

  it('event payloads count the same unit as the answers: the event time and the records it carries', async () => {
    const events = new EventBus();
    const service = new WebhookService({
      events,
      clock: () => 1_700_000_000_000,
      faults: new Set(),
      choices: resolveChoices('strict', { timestampUnit: 'milliseconds' }),
    });
    const jobs: DeliveryJob[] = [];
    (service as unknown as { deliverer: { enqueue(job: DeliveryJob): void } }).deliverer.enqueue = (job) =>
      jobs.push(job);
    try {
      service.registry.create('c', { url: 'https://127.0.0.1/hook', subscriptions: ['ALL'] }, 1_700_000_000);
      events.emit({
        name: 'AUTH.CREATED',
        clientId: 'c',
        occurredAt: 1_700_000_000,
        data: { tokenId: 't', createdAt: 1_700_000_000 },
      });
      expect(jobs).toHaveLength(1);
      expect(JSON.parse(jobs[0]!.prepare(1).body.toString('utf8'))).toMatchObject({
        occurredAt: 1_700_000_000_000,
        data: { tokenId: 't', createdAt: 1_700_000_000_000 },
      });
    } finally {
      await service.close();
    }
  });

  it('X-Idempotency-Id counts as the key only where the server accepts that spelling', () => {
    const headers: Array<[string, string]> = [['X-Idempotency-Id', 'k1']];
    expect(idempotencyKeyOf(headers)).toEqual({ kind: 'ok', key: 'k1' });
    expect(idempotencyKeyOf(headers, false)).toEqual({ kind: 'missing' });
  });
});
