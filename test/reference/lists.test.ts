// The reference server's lists: the store keeps each in list order (createdAt, then id) and a page is cut from it by
// position, ASC from the start and DESC from the end, so a page costs what it holds. These pin down that the order,
// the pages and the copies are what the sort-per-request code gave.
import { describe, expect, it } from 'vitest';
import { inListOrder, paginate } from '../../src/reference/paging.js';
import { loadSeed, ReferenceStore, type Seed } from '../../src/reference/store.js';

interface Item {
  id: number;
  createdAt: number;
}
const item = (id: number, createdAt: number): Item => ({ id, createdAt });

describe('inListOrder', () => {
  it('orders by createdAt, then by id where createdAt ties, without changing its input', () => {
    const input = [item(9, 20), item(3, 10), item(7, 20), item(1, 30), item(5, 10)];
    const copy = [...input];
    expect(inListOrder(input, (i) => i.id).map((i) => i.id)).toEqual([3, 5, 7, 9, 1]);
    expect(input).toEqual(copy);
  });
});

describe('paginate', () => {
  const ascending = inListOrder([item(1, 10), item(2, 20), item(3, 30), item(4, 40), item(5, 50)], (i) => i.id);
  const ids = (page: { items: Item[] }) => page.items.map((i) => i.id);

  it('cuts index pages from the start for ASC and from the end for DESC', () => {
    expect(ids(paginate(ascending, { page: 0, limit: 2, sort: 'ASC' }, { pageMode: 'index' }))).toEqual([1, 2]);
    expect(ids(paginate(ascending, { page: 2, limit: 2, sort: 'ASC' }, { pageMode: 'index' }))).toEqual([5]);
    expect(ids(paginate(ascending, { page: 0, limit: 2, sort: 'DESC' }, { pageMode: 'index' }))).toEqual([5, 4]);
    expect(ids(paginate(ascending, { page: 2, limit: 2, sort: 'DESC' }, { pageMode: 'index' }))).toEqual([1]);
  });

  it('reads page as an item offset in offset mode, with meta stepping by limit', () => {
    const page = paginate(ascending, { page: 1, limit: 2, sort: 'DESC' }, { pageMode: 'offset' });
    expect(ids(page)).toEqual([4, 3]);
    expect(page.meta).toEqual({
      previousPage: 0,
      currentPage: 1,
      nextPage: 3,
      limit: 2,
      currentCount: 2,
      totalCount: 5,
      sort: 'DESC',
    });
  });

  it('gives an empty page past the end, with nextPage equal to currentPage', () => {
    const page = paginate(ascending, { page: 9, limit: 2, sort: 'ASC' }, { pageMode: 'index' });
    expect(page.items).toEqual([]);
    expect(page.meta).toMatchObject({ currentPage: 9, nextPage: 9, previousPage: 8, currentCount: 0, totalCount: 5 });
  });

  it('hands out copies: editing a page item leaves the list as it was', () => {
    const page = paginate(ascending, { page: 0, limit: 1, sort: 'ASC' }, { pageMode: 'index' });
    page.items[0]!.createdAt = 999;
    expect(ascending[0]).toEqual(item(1, 10));
  });

  it('walks every item once in both orders, as the sort-per-page code did', () => {
    const many = inListOrder(
      Array.from({ length: 23 }, (_, i) => item(100 - i, Math.floor(i / 4))),
      (i) => i.id,
    );
    for (const sort of ['ASC', 'DESC'] as const) {
      const walked: number[] = [];
      for (let page = 0; page < 5; page++)
        walked.push(...ids(paginate(many, { page, limit: 5, sort }, { pageMode: 'index' })));
      const expected = [...many]
        .sort((a, b) => (sort === 'ASC' ? 1 : -1) * (a.createdAt - b.createdAt || a.id - b.id))
        .map((i) => i.id);
      expect(walked).toEqual(expected);
    }
  });
});

describe('ReferenceStore lists', () => {
  const seed = loadSeed();
  const customer = seed.fixtures.customerId;

  it("keeps each customer's transactions, accounts and assets in list order, theirs only", () => {
    const store = new ReferenceStore(seed);
    const paging = seed.fixtures.paginationCustomerId;
    const list = store.transactionList(paging);
    expect(list).toHaveLength(250);
    expect(list.every((t) => t.customerId === paging)).toBe(true);
    expect([...list]).toEqual(inListOrder(list, (t) => t.transactionId));
    expect(store.accountList(customer).map((a) => a.accountId)).toEqual(
      inListOrder(
        seed.accounts.filter((a) => a.customerId === customer),
        (a) => a.accountId,
      ).map((a) => a.accountId),
    );
    expect(store.assetList(customer).every((a) => a.customerId === customer)).toBe(true);
    expect(store.transactionList(seed.fixtures.unknownId)).toEqual([]);
  });

  it('still hands out copies from the *Of reads', () => {
    const store = new ReferenceStore(seed);
    const copy = store.transactionsOf(customer)[0]!;
    copy.amount = -1;
    expect(store.transactionList(customer)[0]!.amount).not.toBe(-1);
  });

  it('finds an instrument by symbol in any case, and lists the available ones in list order', () => {
    const store = new ReferenceStore(seed);
    const first = seed.instruments[0]!;
    expect(store.instrumentBySymbol(first.symbol.toLowerCase())?.instrumentId).toBe(first.instrumentId);
    expect(store.instrumentBySymbol('NO-SUCH-SYMBOL')).toBeUndefined();
    const available = store.availableInstruments();
    expect(available.every((i) => i.isAvailable)).toBe(true);
    expect(available.map((i) => i.instrumentId)).toEqual(
      inListOrder(
        seed.instruments.filter((i) => i.isAvailable),
        (i) => i.instrumentId,
      ).map((i) => i.instrumentId),
    );
  });

  it('lists a placed order request, and a canceled one under its new status, at once', () => {
    const store = new ReferenceStore(seed);
    const instrument = store.availableInstruments()[0]!;
    const pendingBefore = store.orderRequestList(customer, 'PENDING').length;
    const all = store.orderRequestList(customer).length;
    const placed = store.placeOrderRequest(
      { customerId: customer, instrumentId: instrument.instrumentId, amount: 10, currency: 'USD' },
      2_000_000_000,
    );
    expect(store.orderRequestList(customer)).toHaveLength(all + 1);
    expect(store.orderRequestList(customer).at(-1)!.requestId).toBe(placed.requestId);
    expect(store.orderRequestList(customer, 'PENDING')).toHaveLength(pendingBefore + 1);
    const canceledBefore = store.orderRequestList(customer, 'CANCELED').length;
    store.cancelOrderRequest(placed.requestId, 2_000_000_001);
    expect(store.orderRequestList(customer, 'PENDING')).toHaveLength(pendingBefore);
    expect(store.orderRequestList(customer, 'CANCELED')).toHaveLength(canceledBefore + 1);
    expect(store.orderRequestList(customer).find((r) => r.requestId === placed.requestId)?.status).toBe('CANCELED');
  });

  it("goes back to the seed's lists on reset", () => {
    const store = new ReferenceStore(seed);
    const all = store.orderRequestList(customer).length;
    store.placeOrderRequest(
      { customerId: customer, instrumentId: store.availableInstruments()[0]!.instrumentId, amount: 5, currency: 'USD' },
      2_000_000_000,
    );
    store.reset();
    expect(store.orderRequestList(customer)).toHaveLength(all);
  });

  it('lists transactions generated from the seed with the seeded ones, in one order', () => {
    const small: Seed = structuredClone(seed);
    const asset = small.assets.find((a) => a.customerId === customer)!;
    small.generated = {
      transactions: [
        {
          customerId: customer,
          assetId: asset.assetId,
          currency: asset.currency,
          count: 7,
          firstId: 3_000_000,
          idStride: 3,
          startAt: 0,
          stepSeconds: 1,
          requestTypes: ['BUY'],
          statuses: ['COMPLETED'],
          amounts: [1],
        },
      ],
    };
    const store = new ReferenceStore(small);
    const list = store.transactionList(customer);
    expect(list).toHaveLength(seed.transactions.filter((t) => t.customerId === customer).length + 7);
    expect(list.slice(0, 7).map((t) => t.createdAt)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});
