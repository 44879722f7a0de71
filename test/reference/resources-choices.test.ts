// The readings of the open points of resources, pagination, idempotency and timestamps as the reference server shows
// them (src/reference/: paging, views, idempotency, events): each reading a choice may take, and nothing else changed.
// That the resources suite passes against a server taking them is test/suites/resources/choices.sweep.test.ts's.
import { describe, expect, it } from 'vitest';
import { IdempotencyCache, idempotencyKeyOf } from '../../src/reference/idempotency.js';
import { listReply } from '../../src/reference/paging.js';
import { HttpError } from '../../src/reference/respond.js';
import { assetView, customerView, inTimestampUnit } from '../../src/reference/views.js';
import { resolveChoices } from '../../src/reference/choices/index.js';
import { EventBus } from '../../src/reference/events.js';
import { WebhookService } from '../../src/reference/webhooks/service.js';
import type { DeliveryJob } from '../../src/reference/webhooks/delivery.js';

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
