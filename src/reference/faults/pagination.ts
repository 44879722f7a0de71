// Faults of paging on the list endpoints (GET /accounts, /instruments, /transactions): the meta, the limit, the walk
// by nextPage, and the order. All are middleware: some rewrite the finished page, some change the query the route sees
// (the way a server that parses or defaults a parameter wrongly would), so paging.ts stays the strict implementation.
import type { Middleware, RequestContext, RouteDef, ServerState } from '../context.js';
import { fail, type PageMeta, type Reply } from '../respond.js';
import type { FaultDefinition } from './types.js';
import { rewriteSuccess, without } from './reply-rewrites.js';

const ID_FIELD: Record<string, string> = { '/accounts': 'accountId', '/instruments': 'instrumentId', '/transactions': 'transactionId' };
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
 * Serves list requests with one query parameter replaced (as a server that parses it wrongly would), then lets
 * `after` adjust what the page reports.
 */
function alterQuery(
  alter: (query: URLSearchParams, state: ServerState) => ((body: ListBody) => ListBody) | undefined,
): Middleware {
  return async (ctx: RequestContext, state, route, next) => {
    if (!isList(route, ctx.method)) return next();
    const after = alter(ctx.query, state);
    const reply = await next();
    const body = reply.status === 200 ? listBody(reply) : undefined;
    return after && body ? { ...reply, body: after(body) } : reply;
  };
}

function integerParam(query: URLSearchParams, name: string): number | undefined {
  const v = query.get(name);
  return v !== null && INTEGER.test(v) ? Number(v) : undefined;
}

export const paginationFaults: FaultDefinition[] = [
  {
    name: 'pagination.meta-missing',
    suite: 'pagination',
    breaks: ['REQ-ENV-05', 'REQ-META-01'],
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
    breaks: ['REQ-PAGE-04'],
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
      body.data.length > 0 && body.data.length === body.meta.limit ? { ...withMeta(body, { currentCount: body.data.length - 1 }), data: body.data.slice(0, -1) } : body,
    ),
  },
  {
    name: 'pagination.default-limit-50',
    suite: 'pagination',
    breaks: ['REQ-PAGE-04', 'REQ-LIM-01'],
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
      return reply.status === 200 && isList(route, ctx.method) && ctx.query.get('limit') === '1000' ? fail(400, 'limit must be less than 1000') : reply;
    },
  },
  {
    name: 'pagination.limit-over-max-accepted',
    suite: 'pagination',
    breaks: ['REQ-PAGE-05', 'REQ-META-05', 'REQ-PAGE-04'],
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
    breaks: ['REQ-PAGE-04', 'REQ-LIM-01', 'REQ-PAGE-05'],
    description: 'limit=0 answers 500 (a division by zero)',
    async middleware(ctx, _state, route, next) {
      const reply = await next();
      return reply.status === 400 && isList(route, ctx.method) && ctx.query.get('limit') === '0' ? fail(500) : reply;
    },
  },
  {
    name: 'pagination.negative-page-accepted',
    suite: 'pagination',
    breaks: ['REQ-PAGE-01', 'REQ-LIM-02', 'REQ-META-03', 'REQ-PAGE-02'],
    description: 'a negative page is served as the first page and echoed in meta.currentPage',
    middleware: alterQuery((query) => {
      const asked = integerParam(query, 'page');
      if (asked === undefined || asked >= 0) return undefined;
      query.set('page', '0');
      return (body) => withMeta(body, { currentPage: asked });
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
    description: "without sort, lists come in the order opposite to the server's default, while meta.sort names the default",
    middleware: alterQuery((query, state) => {
      if (query.has('sort')) return undefined;
      const declared = state.variant.defaultSort;
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
    description: 'every page after the first starts with the last item of the page before (and loses its own last item)',
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
      const start = state.variant.pageMode === 'index' ? body.meta.currentPage * body.meta.limit : body.meta.currentPage;
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
];
