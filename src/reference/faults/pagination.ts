// Faults of paging on the list endpoints (GET /accounts, /instruments, /transactions): the meta, the limit, the walk
// by nextPage, and the order. All are middleware: some rewrite the finished page, some change the query the route sees
// (the way a server that parses or defaults a parameter wrongly would), so paging.ts stays the strict implementation.
import type { Middleware, RequestContext, RouteDef, ServerState } from '../context.js';
import { MAX_LIMIT, paginate, parsePaging, type Paging } from '../paging.js';
import { fail, type PageMeta, type Reply } from '../respond.js';
import type { FaultDefinition } from './types.js';
import { rewriteSuccess, without } from './reply-rewrites.js';

const ID_FIELD: Record<string, string> = {
  '/accounts': 'accountId',
  '/instruments': 'instrumentId',
  '/transactions': 'transactionId',
};
const isList = (route: RouteDef, method: string) => method === 'GET' && route.path in ID_FIELD;
const INTEGER = /^-?(0|[1-9][0-9]*)$/;

type ListBody = { data: Array<Record<string, unknown>>; meta: PageMeta } & Record<string, unknown>;

function listBody(reply: Reply): ListBody | undefined {
  const body = reply.body as ListBody | undefined;
  return body && Array.isArray(body.data) && typeof body.meta === 'object' && body.meta !== null ? body : undefined;
}

/** Rewrites the page (data and meta) of successful list replies. */
function rewritePage(change: (body: ListBody, route: RouteDef) => ListBody): Middleware {
  return async (ctx, _state, route, next) => {
    const reply = await next();
    if (reply.status !== 200 || !isList(route, ctx.method)) return reply;
    const body = listBody(reply);
    return body ? { ...reply, body: change(body, route) } : reply;
  };
}

function withMeta(body: ListBody, change: Partial<Record<keyof PageMeta, unknown>>): ListBody {
  return { ...body, meta: { ...body.meta, ...change } as PageMeta };
}

/**
 * Serves list requests (of `only`, when given) with one query parameter replaced (as a server that parses it wrongly
 * would), then lets `after` adjust what the page reports.
 */
function alterQuery(
  alter: (query: URLSearchParams, state: ServerState) => ((body: ListBody) => ListBody) | undefined,
  only?: string,
): Middleware {
  return async (ctx: RequestContext, state, route, next) => {
    if (!isList(route, ctx.method) || (only !== undefined && route.path !== only)) return next();
    const after = alter(ctx.query, state);
    const reply = await next();
    const body = reply.status === 200 ? listBody(reply) : undefined;
    return after && body ? { ...reply, body: after(body) } : reply;
  };
}

/**
 * Serves list pages cut from the whole list put in another order: `reorder` gets the list ascending by createdAt (then
 * id), and the page asked for is cut from what it returns, as a server that orders by the wrong key would.
 */
function reorderedList(
  reorder: (
    ascending: Array<Record<string, unknown>>,
    paging: Paging,
    state: ServerState,
  ) => Array<Record<string, unknown>>,
): Middleware {
  return async (ctx, state, route, next) => {
    if (!isList(route, ctx.method)) return next();
    let paging: Paging;
    try {
      paging = parsePaging(ctx.query, state.choices);
    } catch {
      return next();
    }
    for (const [name, value] of [
      ['page', '0'],
      ['limit', String(MAX_LIMIT)],
      ['sort', 'ASC'],
    ] as const)
      ctx.query.set(name, value);
    const whole = await next();
    const body = whole.status === 200 ? listBody(whole) : undefined;
    if (!body) return whole;
    const page = paginate(reorder(body.data, paging, state), paging, state.choices);
    return { ...whole, body: { ...body, data: page.items, meta: page.meta } };
  };
}

const isSort = (v: string | null): v is 'ASC' | 'DESC' => v === 'ASC' || v === 'DESC';

function integerParam(query: URLSearchParams, name: string): number | undefined {
  const v = query.get(name);
  return v !== null && INTEGER.test(v) ? Number(v) : undefined;
}

export const paginationFaults: FaultDefinition[] = [
  {
    name: 'pagination.meta-missing',
    suite: 'pagination',
    // No meta breaks every row of the Paging meta table: each field is required and none is there.
    breaks: [
      'REQ-ENV-05',
      'REQ-META-01',
      'REQ-META-02',
      'REQ-META-03',
      'REQ-META-04',
      'REQ-META-05',
      'REQ-META-06',
      'REQ-META-07',
      'REQ-META-08',
    ],
    description: 'list responses carry no meta',
    middleware: rewriteSuccess(isList, (r) => ({ ...r, body: without(r.body as Record<string, unknown>, 'meta') })),
  },
  {
    name: 'pagination.previous-page-null',
    suite: 'pagination',
    breaks: ['REQ-META-02'],
    description: 'the first page has previousPage null',
    middleware: rewritePage((body) => (body.meta.currentPage === 0 ? withMeta(body, { previousPage: null }) : body)),
  },
  {
    name: 'pagination.limit-exceeded',
    suite: 'pagination',
    // meta.limit, "Maximum items returned", says limit while limit + 1 come.
    breaks: ['REQ-PAGE-04', 'REQ-META-05'],
    description: 'a page holds limit + 1 items (the item fetched to see whether there is a next page is not dropped)',
    middleware: alterQuery((query) => {
      const asked = query.has('limit') ? integerParam(query, 'limit') : 100;
      if (asked === undefined || asked < 1 || asked >= 1000) return undefined;
      query.set('limit', String(asked + 1));
      return (body) => withMeta(body, { limit: asked });
    }),
  },
  {
    name: 'pagination.page-short',
    suite: 'pagination',
    breaks: ['REQ-PAGE-05', 'REQ-META-07'],
    description: 'every full page loses its last item (an off-by-one slice), so a walk misses one item per page',
    middleware: rewritePage((body) =>
      body.data.length > 0 && body.data.length === body.meta.limit
        ? { ...withMeta(body, { currentCount: body.data.length - 1 }), data: body.data.slice(0, -1) }
        : body,
    ),
  },
  {
    name: 'pagination.default-limit-50',
    suite: 'pagination',
    // Half the default also leaves the first page half full while more items remain.
    breaks: ['REQ-PAGE-04', 'REQ-LIM-01', 'REQ-PAGE-05'],
    description: 'without limit, pages hold 50 items (meta.limit 50)',
    middleware: alterQuery((query) => {
      if (!query.has('limit')) query.set('limit', '50');
      return undefined;
    }),
  },
  {
    name: 'pagination.limit-max-rejected',
    suite: 'pagination',
    breaks: ['REQ-PAGE-04', 'REQ-LIM-01'],
    description: 'limit=1000 is rejected with 400 (the upper bound treated as exclusive)',
    async middleware(ctx, _state, route, next) {
      const reply = await next();
      return reply.status === 200 && isList(route, ctx.method) && ctx.query.get('limit') === '1000'
        ? fail(400, 'limit must be less than 1000')
        : reply;
    },
  },
  {
    name: 'pagination.limit-over-max-accepted',
    suite: 'pagination',
    // Served instead of refused (REQ-PAGE-04), and meta.limit reports a limit the table does not allow (REQ-META-05).
    breaks: ['REQ-PAGE-04', 'REQ-LIM-01', 'REQ-META-05'],
    description: 'a limit above 1000 is served (capped internally) and echoed in meta.limit',
    middleware: alterQuery((query) => {
      const asked = integerParam(query, 'limit');
      if (asked === undefined || asked <= 1000) return undefined;
      query.set('limit', '1000');
      return (body) => withMeta(body, { limit: asked });
    }),
  },
  {
    name: 'pagination.limit-zero-crash',
    suite: 'pagination',
    breaks: ['REQ-PAGE-04', 'REQ-LIM-01'],
    description: 'limit=0 answers 500 (a division by zero)',
    async middleware(ctx, _state, route, next) {
      const reply = await next();
      return reply.status === 400 && isList(route, ctx.method) && ctx.query.get('limit') === '0' ? fail(500) : reply;
    },
  },
  {
    name: 'pagination.negative-page-accepted',
    suite: 'pagination',
    // Served instead of refused (REQ-PAGE-02), and meta.currentPage reports a page the table does not allow (REQ-META-03).
    breaks: ['REQ-PAGE-02', 'REQ-LIM-02', 'REQ-META-03'],
    description: 'a negative page is served as the first page and echoed in meta.currentPage',
    middleware: alterQuery((query) => {
      const asked = integerParam(query, 'page');
      if (asked === undefined || asked >= 0) return undefined;
      query.set('page', '0');
      return (body) => withMeta(body, { currentPage: asked });
    }),
  },
  // Values outside the closed domains served as some valid request: clamped, taken as the default, or ignored.
  {
    name: 'pagination.limit-clamped',
    suite: 'pagination',
    breaks: ['REQ-PAGE-04', 'REQ-LIM-01'],
    description: 'a limit above 1000 (5000) is clamped to 1000 and served so (meta.limit 1000)',
    middleware: alterQuery((query) => {
      const asked = integerParam(query, 'limit');
      if (asked !== undefined && asked > MAX_LIMIT) query.set('limit', String(MAX_LIMIT));
      return undefined;
    }),
  },
  {
    name: 'pagination.limit-nonpositive-default',
    suite: 'pagination',
    breaks: ['REQ-PAGE-04', 'REQ-LIM-01'],
    description: 'limit=0 or a negative limit is taken as no limit: the default, 100 (a falsy check of the value)',
    middleware: alterQuery((query) => {
      const asked = integerParam(query, 'limit');
      if (asked !== undefined && asked < 1) query.delete('limit');
      return undefined;
    }),
  },
  {
    name: 'pagination.limit-malformed-ignored',
    suite: 'pagination',
    breaks: ['REQ-PAGE-04', 'REQ-LIM-01'],
    description: 'a limit that is not an integer ("ten", 2.5) is ignored: the page is served at the default limit',
    middleware: alterQuery((query) => {
      if (query.has('limit') && integerParam(query, 'limit') === undefined) query.delete('limit');
      return undefined;
    }),
  },
  {
    name: 'pagination.negative-page-clamped',
    suite: 'pagination',
    breaks: ['REQ-PAGE-02', 'REQ-LIM-02'],
    description: 'a negative page is clamped to 0 and served as the first page (meta.currentPage 0)',
    middleware: alterQuery((query) => {
      const asked = integerParam(query, 'page');
      if (asked !== undefined && asked < 0) query.set('page', '0');
      return undefined;
    }),
  },
  {
    name: 'pagination.page-malformed-ignored',
    suite: 'pagination',
    breaks: ['REQ-PAGE-02', 'REQ-LIM-02'],
    description: 'a page that is not an integer ("x", 1.5) is ignored: the first page is served',
    middleware: alterQuery((query) => {
      if (query.has('page') && integerParam(query, 'page') === undefined) query.delete('page');
      return undefined;
    }),
  },
  {
    name: 'pagination.sort-invalid-ignored',
    suite: 'pagination',
    breaks: ['REQ-PAGE-07'],
    description:
      'a sort outside ASC, DESC (UP) is ignored: the list is served in the default order, which meta.sort names',
    middleware: alterQuery((query) => {
      if (query.has('sort') && !isSort(query.get('sort'))) query.delete('sort');
      return undefined;
    }),
  },
  {
    name: 'pagination.sort-by-id',
    suite: 'pagination',
    breaks: ['REQ-PAGE-06', 'REQ-META-08'],
    description: "each page's items are ordered by their id instead of createdAt (in the requested direction)",
    middleware: rewritePage((body, route) => {
      const field = ID_FIELD[route.path]!;
      const dir = body.meta.sort === 'DESC' ? -1 : 1;
      return { ...body, data: [...body.data].sort((a, b) => dir * ((a[field] as number) - (b[field] as number))) };
    }),
  },
  {
    name: 'pagination.sort-echo-wrong',
    suite: 'pagination',
    breaks: ['REQ-META-08'],
    description: 'meta.sort is always ASC, whatever order the page has',
    middleware: rewritePage((body) => withMeta(body, { sort: 'ASC' })),
  },
  {
    name: 'pagination.default-sort-mislabelled',
    suite: 'pagination',
    breaks: ['REQ-META-08'],
    description:
      "without sort, lists come in the order opposite to the server's default, while meta.sort names the default",
    middleware: alterQuery((query, state) => {
      if (query.has('sort')) return undefined;
      const declared = state.choices.defaultSort;
      query.set('sort', declared === 'ASC' ? 'DESC' : 'ASC');
      return (body) => withMeta(body, { sort: declared });
    }),
  },
  {
    name: 'pagination.next-page-stuck',
    suite: 'pagination',
    breaks: ['REQ-META-04'],
    description: 'nextPage always equals currentPage, so a client following it never gets past the first page',
    middleware: rewritePage((body) => withMeta(body, { nextPage: body.meta.currentPage })),
  },
  {
    name: 'pagination.page-overlap',
    suite: 'pagination',
    breaks: ['REQ-META-04', 'REQ-META-07'],
    description:
      'every page after the first starts with the last item of the page before (and loses its own last item)',
    async middleware(ctx, state, route, next) {
      const reply = await next();
      const body = reply.status === 200 && isList(route, ctx.method) ? listBody(reply) : undefined;
      if (!body || body.meta.currentPage === body.meta.previousPage || body.data.length === 0) return reply;
      const page = ctx.query.get('page');
      ctx.query.set('page', String(body.meta.previousPage));
      let before: Reply | undefined;
      try {
        before = await route.handler(ctx, state);
      } catch {
        return reply;
      } finally {
        if (page === null) ctx.query.delete('page');
        else ctx.query.set('page', page);
      }
      const last = listBody(before)?.data.at(-1);
      return last === undefined ? reply : { ...reply, body: { ...body, data: [last, ...body.data.slice(0, -1)] } };
    },
  },
  {
    name: 'pagination.total-count-is-page-count',
    suite: 'pagination',
    breaks: ['REQ-META-07', 'REQ-META-09'],
    description: 'totalCount is the number of items on the page, not in the list',
    middleware: rewritePage((body) => withMeta(body, { totalCount: body.meta.currentCount })),
  },
  {
    name: 'pagination.total-count-remaining',
    suite: 'pagination',
    breaks: ['REQ-META-07', 'REQ-META-09'],
    description: 'totalCount counts the items from the current page on, so it shrinks page by page',
    async middleware(ctx, state, route, next) {
      const reply = await next();
      const body = reply.status === 200 && isList(route, ctx.method) ? listBody(reply) : undefined;
      if (!body) return reply;
      const start =
        state.choices.pageMode === 'index' ? body.meta.currentPage * body.meta.limit : body.meta.currentPage;
      return { ...reply, body: withMeta(body, { totalCount: Math.max(0, body.meta.totalCount - start) }) };
    },
  },
  {
    name: 'pagination.current-count-wrong',
    suite: 'pagination',
    breaks: ['REQ-META-06'],
    description: 'currentCount is always the limit, even on a page with fewer items',
    middleware: rewritePage((body) => withMeta(body, { currentCount: body.meta.limit })),
  },
  {
    name: 'pagination.previous-page-stuck',
    suite: 'pagination',
    breaks: ['REQ-META-02'],
    description: 'previousPage is always 0',
    middleware: rewritePage((body) => withMeta(body, { previousPage: 0 })),
  },
  {
    name: 'pagination.page-one-based',
    suite: 'pagination',
    breaks: ['REQ-PAGE-01', 'REQ-LIM-02'],
    description:
      'pages are numbered from 1: page=0 is refused with 400, page=n serves what page=n-1 should, and meta counts from 1',
    async middleware(ctx, _state, route, next) {
      if (!isList(route, ctx.method)) return next();
      const asked = integerParam(ctx.query, 'page');
      if (asked !== undefined && asked > 0) ctx.query.set('page', String(asked - 1));
      const reply = await next();
      const body = reply.status === 200 ? listBody(reply) : undefined;
      if (!body) return reply;
      if (asked === 0) return fail(400, 'page must be an integer >= 1');
      const { previousPage, currentPage, nextPage } = body.meta;
      return {
        ...reply,
        body: withMeta(body, { previousPage: previousPage + 1, currentPage: currentPage + 1, nextPage: nextPage + 1 }),
      };
    },
  },
  {
    name: 'pagination.limit-echo-default',
    suite: 'pagination',
    breaks: ['REQ-META-05'],
    description: 'meta.limit always reports the default, 100, whatever limit the page was served with',
    middleware: rewritePage((body) => withMeta(body, { limit: 100 })),
  },
  {
    name: 'pagination.instruments-limit-ignored',
    suite: 'pagination',
    breaks: ['REQ-PAGE-04', 'REQ-META-05'],
    description:
      'GET /instruments validates limit but serves pages of the default size, 100, while meta.limit echoes the limit asked for',
    middleware: alterQuery((query) => {
      const asked = integerParam(query, 'limit');
      if (asked === undefined || asked < 1 || asked > MAX_LIMIT) return undefined;
      query.delete('limit');
      return (body) => withMeta(body, { limit: asked });
    }, '/instruments'),
  },
  {
    name: 'pagination.sort-invalid-crash',
    suite: 'pagination',
    breaks: ['REQ-PAGE-07'],
    description: 'a sort outside ASC, DESC answers 500 (an unchecked enum lookup)',
    async middleware(ctx, _state, route, next) {
      const reply = await next();
      const sort = ctx.query.get('sort');
      return reply.status === 400 && isList(route, ctx.method) && sort !== null && !isSort(sort) ? fail(500) : reply;
    },
  },
  {
    name: 'pagination.sort-invalid-echoed',
    suite: 'pagination',
    breaks: ['REQ-PAGE-07', 'REQ-META-08'],
    description: 'a sort outside ASC, DESC is served in the default order, and meta.sort echoes the value sent',
    middleware: alterQuery((query) => {
      const asked = query.get('sort');
      if (asked === null || isSort(asked)) return undefined;
      query.delete('sort');
      return (body) => withMeta(body, { sort: asked });
    }),
  },
  {
    name: 'pagination.sort-by-updated-at',
    suite: 'pagination',
    breaks: ['REQ-PAGE-06', 'REQ-META-08'],
    description: 'lists are ordered by updatedAt instead of createdAt, while meta.sort names the direction asked for',
    middleware: reorderedList((items) => [...items].sort((a, b) => (a.updatedAt as number) - (b.updatedAt as number))),
  },
  {
    name: 'pagination.tie-order-unstable',
    suite: 'pagination',
    breaks: ['REQ-META-04', 'REQ-META-07'],
    description:
      'items with the same createdAt have no tie-breaker, so their order changes between requests (here: reversed on every other page), and a walk repeats some and misses others',
    middleware: reorderedList((items, paging, state) => {
      const index = state.choices.pageMode === 'index' ? paging.page : Math.floor(paging.page / paging.limit);
      // A stable sort of the reversed list keeps ties reversed.
      return index % 2 === 0
        ? items
        : [...items].reverse().sort((a, b) => (a.createdAt as number) - (b.createdAt as number));
    }),
  },
  {
    name: 'pagination.sort-per-page',
    suite: 'pagination',
    breaks: ['REQ-PAGE-06', 'REQ-META-08'],
    description: 'DESC is applied to each page only: pages are cut from the ascending list, then each is reversed',
    middleware: alterQuery((query, state) => {
      if ((query.get('sort') ?? state.choices.defaultSort) !== 'DESC') return undefined;
      query.set('sort', 'ASC');
      return (body) => ({ ...withMeta(body, { sort: 'DESC' }), data: [...body.data].reverse() });
    }),
  },
  {
    name: 'pagination.last-page-next-null',
    suite: 'pagination',
    breaks: ['REQ-META-04'],
    description: 'the last page of a list has nextPage null (there is no next page)',
    middleware: rewritePage((body) =>
      body.meta.nextPage === body.meta.currentPage ? withMeta(body, { nextPage: null }) : body,
    ),
  },
];
