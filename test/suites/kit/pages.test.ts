// The page walker against simulated servers: page-index and item-offset paging (both readings of "page offset"), the
// ways a server may end a list, and servers whose nextPage never ends, loops, or repeats items.
import { describe, expect, it } from 'vitest';
import { describeWalk, walkPages, type PageFetch } from '../../../suites/kit/pages.js';

interface Item {
  id: number;
}

type Server = (page: number | undefined) => PageFetch<string>;

const items = (n: number, firstId = 810_000, step = 3): Item[] =>
  Array.from({ length: n }, (_, i) => ({ id: firstId + i * step }));
const idOf = (item: unknown) => String((item as Item).id);

/** Paging as the strict reference does it: page is a 0-based page index; the last page's nextPage is itself. */
function indexServer(all: Item[], limit: number, opts: { lastNext?: 'self' | 'beyond' | 'first' } = {}): Server {
  return (page = 0) => {
    const data = all.slice(page * limit, page * limit + limit);
    const hasNext = (page + 1) * limit < all.length;
    const lastNext = opts.lastNext === 'beyond' ? page + 1 : opts.lastNext === 'first' ? 0 : page;
    return {
      response: `page=${page}`,
      items: data,
      meta: {
        previousPage: Math.max(0, page - 1),
        currentPage: page,
        nextPage: hasNext ? page + 1 : lastNext,
        limit,
        currentCount: data.length,
        totalCount: all.length,
        sort: 'ASC',
      },
    };
  };
}

/** Paging as the alt reference does it: page is the offset of the first item. */
function offsetServer(all: Item[], limit: number): Server {
  return (page = 0) => {
    const data = all.slice(page, page + limit);
    const hasNext = page + limit < all.length;
    return {
      response: `offset=${page}`,
      items: data,
      meta: {
        previousPage: Math.max(0, page - limit),
        currentPage: page,
        nextPage: hasNext ? page + limit : page,
        limit,
        currentCount: data.length,
        totalCount: all.length,
        sort: 'DESC',
      },
    };
  };
}

const walk = (server: Server, options: Parameters<typeof walkPages>[1] = {}) =>
  walkPages(async (p) => server(p), { idOf, ...options });

describe('walkPages', () => {
  it('walks an index-style server to its end, each item once', async () => {
    const all = items(250);
    const result = await walk(indexServer(all, 100));
    expect(result.pages.map((p) => p.requested)).toEqual([undefined, 1, 2]);
    expect(result.ids).toEqual(all.map((i) => String(i.id)));
    expect(result.duplicates).toEqual([]);
    expect(result.stop.reason).toBe('last-page');
    expect(result).toMatchObject({ totalCount: 250, expectedPages: 3, loop: false, capped: false });
  });

  it('walks an offset-style server the same way, never computing a page number', async () => {
    const all = items(250);
    const result = await walk(offsetServer(all, 7));
    expect(result.pages.slice(0, 4).map((p) => p.requested)).toEqual([undefined, 7, 14, 21]);
    expect(result.pages).toHaveLength(36);
    expect(result.ids).toEqual(all.map((i) => String(i.id)));
    expect(result.stop.reason).toBe('last-page');
  });

  it('starts at an explicit page when asked', async () => {
    const result = await walk(indexServer(items(30), 10), { start: 1 });
    expect(result.pages.map((p) => p.requested)).toEqual([1, 2]);
    expect(result.items).toHaveLength(20);
  });

  it('ends on an empty page when the last nextPage points past the end', async () => {
    const result = await walk(indexServer(items(20), 10, { lastNext: 'beyond' }));
    expect(result.pages.map((p) => p.requested)).toEqual([undefined, 1, 2]);
    expect(result.items).toHaveLength(20);
    expect(result.stop.reason).toBe('empty-page');
  });

  it('ends an empty list at once', async () => {
    const result = await walk(indexServer([], 10));
    expect(result.pages).toHaveLength(1);
    expect(result.stop.reason).toBe('empty-page');
    expect(result.expectedPages).toBe(1);
  });

  it('detects a loop when the last nextPage points back to the first page', async () => {
    const result = await walk(indexServer(items(25), 10, { lastNext: 'first' }));
    expect(result.items).toHaveLength(25);
    expect(result.stop.reason).toBe('revisit');
    expect(result.loop).toBe(true);
  });

  it('stops at once on a server whose nextPage never advances', async () => {
    const stuck: Server = (page = 0) => ({
      response: '',
      items: items(10, page * 10),
      meta: { currentPage: page, nextPage: page, limit: 10, totalCount: 100 },
    });
    const result = await walk(stuck);
    expect(result.pages).toHaveLength(1);
    expect(result.stop.reason).toBe('last-page');
    expect(result.items.length).toBeLessThan(result.totalCount!);
  });

  it('stops a server whose nextPage never ends, at twice the pages totalCount needs', async () => {
    let calls = 0;
    const endless: Server = (page = 0) => {
      calls++;
      return {
        response: '',
        items: items(10, 1_000 + page * 100),
        meta: { currentPage: page, nextPage: page + 1, limit: 10, totalCount: 30 },
      };
    };
    const result = await walk(endless);
    expect(result.stop.reason).toBe('overrun');
    expect(result.pages).toHaveLength(2 * 3 + 2);
    expect(calls).toBe(8);
    expect(result.capped).toBe(false);
    expect(describeWalk(result)).toContain('stopped: overrun');
  });

  it('sizes the walk by the items of the first page when meta.limit claims more, so a complete walk is not cut short', async () => {
    const all = items(250);
    const served = indexServer(all, 7);
    // meta.limit says 100 (a defect of meta.limit, judged elsewhere) while pages hold 7: 36 pages, not 3.
    const lying: Server = (page) => {
      const p = served(page);
      return { ...p, meta: { ...p.meta, limit: 100 } };
    };
    const result = await walk(lying);
    expect(result.stop.reason).toBe('last-page');
    expect(result.pages).toHaveLength(36);
    expect(result.ids).toEqual(all.map((i) => String(i.id)));
    expect(result.expectedPages).toBe(3);
  });

  it('still stops a server that never ends at twice the pages its first page size needs', async () => {
    const endless: Server = (page = 0) => ({
      response: '',
      items: items(5, 1_000 + page * 100),
      meta: { currentPage: page, nextPage: page + 1, limit: 10, totalCount: 30 },
    });
    const result = await walk(endless);
    expect(result.stop.reason).toBe('overrun');
    expect(result.pages).toHaveLength(2 * 6 + 2);
    expect(result.stop.detail).toContain('totalCount 30 at 5 items a page needs 6 page(s)');
  });

  it('stops at the page cap when meta gives nothing to size the walk', async () => {
    const endless: Server = (page = 0) => ({ response: '', items: items(1, page * 10), meta: { nextPage: page + 1 } });
    const result = await walk(endless, { maxPages: 25 });
    expect(result.pages).toHaveLength(25);
    expect(result.stop.reason).toBe('page-cap');
    expect(result.capped).toBe(true);
  });

  it('stops at the item cap', async () => {
    const result = await walk(indexServer(items(500), 100), { maxItems: 250 });
    expect(result.items).toHaveLength(300);
    expect(result.stop.reason).toBe('item-cap');
    expect(result.capped).toBe(true);
  });

  it('reports items that come again on a later page', async () => {
    const all = items(30);
    // Each page starts with the last item of the page before.
    const overlapping: Server = (page = 0) => {
      const start = page * 9;
      return {
        response: '',
        items: all.slice(start, start + 10),
        meta: { currentPage: page, nextPage: start + 10 < all.length ? page + 1 : page, limit: 10, totalCount: 30 },
      };
    };
    const result = await walk(overlapping);
    expect(result.duplicates).toEqual([
      { id: String(all[9]!.id), firstPage: 0, page: 1 },
      { id: String(all[18]!.id), firstPage: 1, page: 2 },
      { id: String(all[27]!.id), firstPage: 2, page: 3 },
    ]);
    expect(result.stop.reason).toBe('last-page');
  });

  it('stops when meta or nextPage is missing or not an integer >= 0', async () => {
    for (const meta of [undefined, { nextPage: null }, { nextPage: -1 }, { nextPage: '2' }, { nextPage: 1.5 }]) {
      const result = await walkPages(
        async () => ({ response: '', items: items(3), meta: meta as Record<string, unknown> | undefined }),
        { idOf },
      );
      expect(result.stop.reason, JSON.stringify(meta)).toBe('no-next-page');
      expect(result.pages).toHaveLength(1);
    }
  });

  it('lets the fetch abort the walk by throwing', async () => {
    await expect(
      walkPages(async (p) =>
        p === undefined ? indexServer(items(30), 10)(p) : Promise.reject(new Error('500 on page 1')),
      ),
    ).rejects.toThrow('500 on page 1');
  });
});
