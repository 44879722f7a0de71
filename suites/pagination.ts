// Suite `pagination`: paging meta, limits, page walks and sorting on the list endpoints (spec "Paging meta (list
// responses)", "Pagination and sorting (list endpoints)", "Limits"). `page` may be a page index or an item offset
// (GUIDE), so every walk follows meta.nextPage and no check computes a page number.
import type { HttpResponse } from '../src/http/client.js';
import { defineCheck, defineSuite } from '../src/runner/check.js';
import type { CheckContext } from '../src/runner/context.js';
import { describeResponse, expectRejection, readEnvelope } from '../src/runner/expect.js';
import { describeWalk, type WalkResult } from '../src/runner/pages.js';
import {
  expectListEnvelope,
  getList,
  isObject,
  orderBreak,
  orderOf,
  pageOfItem,
  walkList,
  type ListPage,
  type Query,
} from '../src/runner/resource-helpers.js';
import { parseJson } from '../src/http/json.js';
import { validateAgainst } from '../src/schemas.js';

const SPEC_DEFAULT_LIMIT = 100;
const SPEC_MAX_LIMIT = 1000;
/** Limit of the walks that need several pages of the pagination customer's transactions. */
const WALK_LIMIT = 50;
/** A limit that divides no round total, so the last page is a partial one. */
const ODD_LIMIT = 7;
const SMALL_LIMIT = 10;
/** Bounds of one walk: the fixture's 250 transactions fit easily; a longer list is checked in part, never endlessly. */
const WALK_CAPS = { maxPages: 60, maxItems: 12_000 } as const;


function fail(ctx: CheckContext, res: HttpResponse, message: string, expected: string): never {
  return ctx.fail(message, { expected, observed: describeResponse(res), exchange: res.exchange });
}

/** The pagination customer's transactions: the long list every walk uses. */
function transactionsQuery(ctx: CheckContext, extra: Query = {}): Query {
  return { customerId: ctx.fixture('paginationCustomerId'), ...extra };
}

function walkTransactions(ctx: CheckContext, extra: Query = {}): Promise<WalkResult<HttpResponse>> {
  return walkList(ctx, '/transactions', transactionsQuery(ctx, extra), { idField: 'transactionId', ...WALK_CAPS });
}

/** A page with valid meta (the list-envelope schema), or a failure naming the table. */
async function pageWithMeta(ctx: CheckContext, path: string, query: Query): Promise<ListPage & { meta: Record<string, unknown> }> {
  const page = await getList(ctx, path, query);
  expectListEnvelope(ctx, page.res, page.env);
  return page as ListPage & { meta: Record<string, unknown> };
}

function num(meta: Record<string, unknown> | undefined, field: string): number | undefined {
  const v = meta?.[field];
  return typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined;
}

/** Writes down values that are not integers, ids, etc. as the reviewer would: short. */
function show(v: unknown): string {
  return v === undefined ? 'absent' : JSON.stringify(v);
}

interface InvalidValue {
  param: 'limit' | 'page';
  value: string;
}

const INVALID_LIMITS: InvalidValue[] = ['0', '1001', '-1', 'ten', '2.5'].map((value) => ({ param: 'limit', value }));
const INVALID_PAGES: InvalidValue[] = ['-1', 'x', '1.5'].map((value) => ({ param: 'page', value }));

/** MUST part of an out-of-range value: never a 5xx; a 2xx is a valid list within the limits the spec sets. */
async function expectHandled(ctx: CheckContext, v: InvalidValue): Promise<string> {
  const res = await ctx.send({ method: 'GET', path: '/transactions', query: transactionsQuery(ctx, { [v.param]: v.value }) });
  if (res.status >= 500) fail(ctx, res, `${v.param}=${v.value} crashed the server (${res.status})`, `${v.param}=${v.value} is rejected (4xx) or served within the limits; never a 5xx`);
  if (res.status >= 400) return `${v.param}=${v.value}: ${res.status}`;
  if (res.status < 200 || res.status > 299) fail(ctx, res, `${v.param}=${v.value} answered ${res.status}`, 'a 4xx rejection or a valid list');
  const env = readEnvelope(ctx, res);
  expectListEnvelope(ctx, res, env);
  const meta = env.meta as Record<string, unknown>;
  const items = Array.isArray(env.data) ? env.data.length : 0;
  const limit = num(meta, 'limit')!;
  if (items > SPEC_MAX_LIMIT || items > limit) {
    fail(ctx, res, `${v.param}=${v.value} returned ${items} items with meta.limit ${limit}`, `never more than meta.limit items, and never more than ${SPEC_MAX_LIMIT}`);
  }
  return `${v.param}=${v.value}: ${res.status}, served as limit ${limit}, page ${show(meta.currentPage)}`;
}

export default defineSuite('pagination', 'Pagination: paging meta, limits, page walks, sorting', [
  defineCheck({
    id: 'pagination.meta.present',
    title: 'every list response carries meta with all seven fields and their types',
    level: 'MUST',
    requirements: ['REQ-ENV-05', 'REQ-META-01', 'REQ-META-02', 'REQ-META-03', 'REQ-META-04', 'REQ-META-05', 'REQ-META-06', 'REQ-META-07', 'REQ-META-08', 'REQ-ACCTEP-03', 'REQ-INSTEP-04', 'REQ-TXNEP-02'],
    async run(ctx) {
      const lists: Array<[string, Query]> = [
        ['/accounts', { customerId: ctx.fixture('customerId') }],
        ['/instruments', { investmentType: 'INTERNATIONAL_STOCKS' }],
        ['/transactions', transactionsQuery(ctx)],
      ];
      for (const [path, query] of lists) await pageWithMeta(ctx, path, query);
    },
  }),
  defineCheck({
    id: 'pagination.meta.current-count',
    title: 'meta.currentCount equals the number of items on every page, and is at most meta.limit',
    level: 'MUST',
    requirements: ['REQ-META-06'],
    async run(ctx) {
      const pages: Array<{ res: HttpResponse; items: unknown[]; meta: Record<string, unknown> | undefined }> = [];
      for (const [path, query] of [['/accounts', { customerId: ctx.fixture('customerId') }], ['/instruments', { investmentType: 'INTERNATIONAL_STOCKS' }]] as Array<[string, Query]>) {
        const p = await getList(ctx, path, query);
        pages.push({ res: p.res, items: p.items, meta: p.meta });
      }
      const walk = await walkTransactions(ctx);
      pages.push(...walk.pages.map((p) => ({ res: p.response, items: p.items, meta: p.meta })));
      for (const p of pages) {
        const count = num(p.meta, 'currentCount');
        if (count !== p.items.length) fail(ctx, p.res, `meta.currentCount is ${show(p.meta?.currentCount)} but data has ${p.items.length} items`, 'currentCount equals the number of items returned');
        const limit = num(p.meta, 'limit');
        if (limit !== undefined && count > limit) fail(ctx, p.res, `meta.currentCount ${count} exceeds meta.limit ${limit}`, 'at most limit items');
      }
      ctx.observe(`${pages.length} pages compared`);
    },
  }),
  defineCheck({
    id: 'pagination.limit.respected',
    title: `a page never holds more items than the limit asked for (limit=${SMALL_LIMIT} and ${ODD_LIMIT})`,
    level: 'MUST',
    requirements: ['REQ-PAGE-04'],
    async run(ctx) {
      for (const limit of [SMALL_LIMIT, ODD_LIMIT]) {
        const page = await getList(ctx, '/transactions', transactionsQuery(ctx, { limit }));
        if (page.items.length > limit) fail(ctx, page.res, `limit=${limit} returned ${page.items.length} items`, `at most ${limit} items`);
        const count = num(page.meta, 'currentCount');
        if (count !== undefined && count > limit) fail(ctx, page.res, `limit=${limit} reports currentCount ${count}`, `currentCount at most ${limit}`);
      }
    },
  }),
  defineCheck({
    id: 'pagination.limit.full-page',
    title: `limit=${SMALL_LIMIT} fills the first page when there are enough items, and meta.limit echoes it`,
    level: 'SHOULD',
    requirements: ['REQ-PAGE-05'],
    async run(ctx) {
      const page = await getList(ctx, '/transactions', transactionsQuery(ctx, { limit: SMALL_LIMIT }));
      const total = num(page.meta, 'totalCount');
      if (total === undefined) fail(ctx, page.res, `meta.totalCount is ${show(page.meta?.totalCount)}`, 'meta.totalCount, an integer');
      const want = Math.min(SMALL_LIMIT, total);
      if (page.items.length !== want) fail(ctx, page.res, `limit=${SMALL_LIMIT} with totalCount ${total} returned ${page.items.length} items`, `the first page holds min(limit, totalCount) = ${want} items`);
      if (num(page.meta, 'limit') !== SMALL_LIMIT) fail(ctx, page.res, `meta.limit is ${show(page.meta?.limit)} for limit=${SMALL_LIMIT}`, `meta.limit ${SMALL_LIMIT}`);
    },
  }),
  defineCheck({
    id: 'pagination.limit.default',
    title: 'without limit, a page holds 100 items (when there are more) and meta.limit is 100',
    level: 'MUST',
    requirements: ['REQ-PAGE-04', 'REQ-LIM-01'],
    async run(ctx) {
      const page = await getList(ctx, '/transactions', transactionsQuery(ctx));
      if (num(page.meta, 'limit') !== SPEC_DEFAULT_LIMIT) fail(ctx, page.res, `without limit, meta.limit is ${show(page.meta?.limit)}`, `the default limit, ${SPEC_DEFAULT_LIMIT}`);
      const total = num(page.meta, 'totalCount');
      if (total === undefined) fail(ctx, page.res, `meta.totalCount is ${show(page.meta?.totalCount)}`, 'meta.totalCount, an integer');
      const want = Math.min(SPEC_DEFAULT_LIMIT, total);
      if (page.items.length !== want) fail(ctx, page.res, `without limit, the first page has ${page.items.length} items (totalCount ${total})`, `min(${SPEC_DEFAULT_LIMIT}, totalCount) = ${want} items`);
      if (total <= SPEC_DEFAULT_LIMIT) ctx.observe(`totalCount is ${total}: the default could be checked only through meta.limit (fixtures.paginationCustomerId should have more than ${SPEC_DEFAULT_LIMIT} transactions)`);
    },
  }),
  defineCheck({
    id: 'pagination.limit.bounds',
    title: 'limit=1 and limit=1000, the ends of the range, are accepted and honoured',
    level: 'MUST',
    requirements: ['REQ-PAGE-04', 'REQ-LIM-01'],
    async run(ctx) {
      for (const limit of [1, SPEC_MAX_LIMIT]) {
        const page = await getList(ctx, '/transactions', transactionsQuery(ctx, { limit }));
        const total = num(page.meta, 'totalCount');
        if (page.items.length > limit || ((total === undefined || total > 0) && page.items.length === 0)) {
          fail(ctx, page.res, `limit=${limit} returned ${page.items.length} items (totalCount ${show(page.meta?.totalCount)})`, `between 1 and ${limit} items`);
        }
      }
    },
  }),
  defineCheck({
    id: 'pagination.limit.invalid-handled',
    title: 'limit 0, 1001, -1, "ten" or 2.5 never crashes the server nor yields more than 1000 items',
    level: 'MUST',
    requirements: ['REQ-PAGE-04', 'REQ-LIM-01'],
    async run(ctx) {
      const seen: string[] = [];
      for (const v of INVALID_LIMITS) seen.push(await expectHandled(ctx, v));
      ctx.observe(seen.join('; '));
    },
  }),
  defineCheck({
    id: 'pagination.limit.invalid-rejected',
    title: 'limit 0, 1001, -1, "ten" or 2.5 is rejected (4xx) rather than clamped',
    level: 'SHOULD',
    requirements: ['REQ-PAGE-05'],
    async run(ctx) {
      for (const v of INVALID_LIMITS) {
        const res = await ctx.send({ method: 'GET', path: '/transactions', query: transactionsQuery(ctx, { limit: v.value }) });
        expectRejection(ctx, res, `limit=${v.value} is rejected (any 4xx): limit is an integer from 1 to 1000`);
      }
    },
  }),
  defineCheck({
    id: 'pagination.page.invalid-handled',
    title: 'page -1, "x" or 1.5 never crashes the server, and a served page reports no negative page',
    level: 'MUST',
    requirements: ['REQ-PAGE-01', 'REQ-LIM-02'],
    async run(ctx) {
      const seen: string[] = [];
      for (const v of INVALID_PAGES) seen.push(await expectHandled(ctx, v));
      ctx.observe(seen.join('; '));
    },
  }),
  defineCheck({
    id: 'pagination.page.invalid-rejected',
    title: 'page -1, "x" or 1.5 is rejected (4xx)',
    level: 'SHOULD',
    requirements: ['REQ-PAGE-02'],
    async run(ctx) {
      for (const v of INVALID_PAGES) {
        const res = await ctx.send({ method: 'GET', path: '/transactions', query: transactionsQuery(ctx, { page: v.value }) });
        expectRejection(ctx, res, `page=${v.value} is rejected (any 4xx): page is an integer >= 0`);
      }
    },
  }),
  defineCheck({
    id: 'pagination.walk.complete',
    title: 'following meta.nextPage returns exactly totalCount distinct items, none twice, for several limits and lists',
    level: 'MUST',
    timeoutMs: 120_000,
    requirements: ['REQ-META-04', 'REQ-META-07', 'REQ-PAGE-01', 'REQ-ACCTEP-02', 'REQ-INSTEP-03', 'REQ-TXNEP-01'],
    explain: {
      sends: 'four page walks, each following meta.nextPage from the first page (never computing page numbers itself): GET /transactions with the default limit and with an odd limit, GET /accounts with limit=1, GET /instruments with limit=2',
      passes: 'every walk ends, and returns exactly meta.totalCount items, each id once',
      fails: 'a nextPage that never ends the walk, an item on two pages, an item without its id, a missing totalCount, or fewer or more items than totalCount',
    },
    async run(ctx) {
      const walks: Array<{ what: string; path: string; query: Query; idField: string; maxPages?: number }> = [
        { what: 'transactions, default limit', path: '/transactions', query: transactionsQuery(ctx), idField: 'transactionId' },
        { what: `transactions, limit=${ODD_LIMIT}`, path: '/transactions', query: transactionsQuery(ctx, { limit: ODD_LIMIT }), idField: 'transactionId', maxPages: 40 },
        { what: 'accounts, limit=1', path: '/accounts', query: { customerId: ctx.fixture('customerId'), limit: 1 }, idField: 'accountId' },
        { what: 'instruments, limit=2', path: '/instruments', query: { investmentType: 'INTERNATIONAL_STOCKS', limit: 2 }, idField: 'instrumentId' },
      ];
      const done: string[] = [];
      for (const w of walks) {
        const walk = await walkList(ctx, w.path, w.query, { idField: w.idField, ...WALK_CAPS, ...(w.maxPages ? { maxPages: w.maxPages } : {}) });
        const first = walk.pages[0]!.response;
        const last = walk.pages[walk.pages.length - 1]!.response;
        if (walk.stop.reason === 'overrun') {
          fail(ctx, last, `${w.what}: nextPage never ends (${describeWalk(walk)})`, 'a walk following meta.nextPage ends once the list is returned');
        }
        if (walk.duplicates.length) {
          const d = walk.duplicates[0]!;
          fail(ctx, walk.pages[d.page]!.response, `${w.what}: ${w.idField} ${d.id} comes on page ${d.firstPage + 1} and again on page ${d.page + 1} (${walk.duplicates.length} repeat(s); ${describeWalk(walk)})`, 'every item exactly once across the walk');
        }
        if (walk.ids.some((id) => id === undefined)) fail(ctx, first, `${w.what}: an item has no ${w.idField}`, `every item carries ${w.idField}`);
        if (walk.totalCount === undefined) fail(ctx, first, `${w.what}: the first page has no integer meta.totalCount`, 'meta.totalCount on every list page');
        if (walk.capped && walk.items.length < walk.totalCount) {
          ctx.observe(`${w.what}: walk capped after ${walk.items.length} of ${walk.totalCount} items; checked that part only`);
          continue;
        }
        if (walk.items.length !== walk.totalCount) {
          fail(ctx, last, `${w.what}: the walk returned ${walk.items.length} items but totalCount is ${walk.totalCount} (${describeWalk(walk)})`, 'a walk following nextPage visits totalCount items exactly once: none missing, none extra');
        }
        done.push(`${w.what}: ${walk.items.length} items in ${walk.pages.length} page(s), ended by ${walk.stop.reason}${walk.loop ? ` (the last nextPage points back: ${walk.stop.detail})` : ''}`);
      }
      ctx.observe(done.join('; '));
    },
  }),
  defineCheck({
    id: 'pagination.walk.total-stable',
    title: 'meta.totalCount is the same on every page of one walk',
    level: 'SHOULD',
    requirements: ['REQ-META-09'],
    async run(ctx) {
      // The default limit leaves a short last page, so a totalCount that follows the page's size shows.
      const walk = await walkTransactions(ctx);
      const first = walk.pages[0]!.meta?.totalCount;
      const other = walk.pages.findIndex((p) => p.items.length > 0 && p.meta?.totalCount !== first);
      if (other >= 0) {
        fail(ctx, walk.pages[other]!.response, `totalCount is ${show(first)} on page 1 but ${show(walk.pages[other]!.meta?.totalCount)} on page ${other + 1}`, 'the same totalCount on every page of the list');
      }
    },
  }),
  defineCheck({
    id: 'pagination.walk.page-links',
    title: 'meta.currentPage echoes the page asked for, and previousPage of each page is the currentPage of the page before',
    level: 'MUST',
    requirements: ['REQ-META-02', 'REQ-META-03'],
    async run(ctx) {
      const walk = await walkTransactions(ctx, { limit: WALK_LIMIT });
      for (let i = 1; i < walk.pages.length; i++) {
        const p = walk.pages[i]!;
        const before = walk.pages[i - 1]!;
        if (p.items.length === 0) continue;
        if (num(p.meta, 'currentPage') !== p.requested) fail(ctx, p.response, `page=${p.requested} answered with meta.currentPage ${show(p.meta?.currentPage)}`, 'currentPage is the page asked for');
        if (num(p.meta, 'previousPage') !== num(before.meta, 'currentPage')) {
          fail(ctx, p.response, `page ${i + 1} (page=${p.requested}) has previousPage ${show(p.meta?.previousPage)}, the page before had currentPage ${show(before.meta?.currentPage)}`, "previousPage names the page before (that page's currentPage)");
        }
      }
      if (walk.pages.length < 2) ctx.observe(`one page only (${describeWalk(walk)})`);
    },
  }),
  ...(['ASC', 'DESC'] as const).map((sort) =>
    defineCheck({
      id: `pagination.sort.${sort.toLowerCase()}`,
      title: `sort=${sort} orders createdAt ${sort === 'ASC' ? 'ascending' : 'descending'} within and across pages, and meta.sort says ${sort}`,
      level: 'MUST',
      requirements: ['REQ-META-08', 'REQ-PAGE-06'],
      async run(ctx) {
        const walk = await walkTransactions(ctx, { limit: WALK_LIMIT, sort });
        const wrong = walk.pages.find((p) => p.meta?.sort !== sort);
        if (wrong) fail(ctx, wrong.response, `sort=${sort} answered with meta.sort ${show(wrong.meta?.sort)}`, `meta.sort ${sort}`);
        const created = walk.items.map((t) => (isObject(t) ? t.createdAt : undefined));
        const at = orderBreak(created, sort);
        if (at !== undefined) {
          fail(ctx, pageOfItem(walk, at), `sort=${sort}: item ${at + 1} of the walk has createdAt ${show(created[at])} after ${show(created[at - 1])}`, `createdAt ${sort === 'ASC' ? 'non-decreasing' : 'non-increasing'} across all pages`);
        }
        ctx.observe(`${walk.items.length} items over ${walk.pages.length} page(s), ${new Set(created).size} distinct createdAt`);
      },
    }),
  ),
  defineCheck({
    id: 'pagination.sort.default-consistent',
    title: 'without sort, meta.sort names the order the items really come in, the same on every page',
    level: 'MUST',
    requirements: ['REQ-META-08'],
    async run(ctx) {
      const walk = await walkTransactions(ctx, { limit: WALK_LIMIT });
      const sort = walk.pages[0]!.meta?.sort;
      if (sort !== 'ASC' && sort !== 'DESC') fail(ctx, walk.pages[0]!.response, `meta.sort is ${show(sort)}`, 'meta.sort ASC or DESC');
      const changed = walk.pages.find((p) => p.meta?.sort !== sort);
      if (changed) fail(ctx, changed.response, `meta.sort changes within one walk: ${show(sort)} then ${show(changed.meta?.sort)}`, 'one order for the whole list');
      const created = walk.items.map((t) => (isObject(t) ? t.createdAt : undefined));
      const at = orderBreak(created, sort);
      if (at !== undefined) {
        fail(ctx, pageOfItem(walk, at), `meta.sort says ${sort} but item ${at + 1} has createdAt ${show(created[at])} after ${show(created[at - 1])} (the items are ${orderOf(created)})`, `the items in the order meta.sort names (${sort})`);
      }
      ctx.observe(`default order: ${sort}`);
    },
  }),
  defineCheck({
    id: 'pagination.info.default-sort',
    title: 'which order a list has when sort is not given (the spec states no default)',
    level: 'INFO',
    requirements: ['REQ-PAGE-08'],
    async run(ctx) {
      const page = await getList(ctx, '/transactions', transactionsQuery(ctx, { limit: WALK_LIMIT }));
      const created = page.items.map((t) => (isObject(t) ? t.createdAt : undefined));
      ctx.observe(`without sort: meta.sort ${show(page.meta?.sort)}, items ${orderOf(created)} by createdAt`);
    },
  }),
  defineCheck({
    id: 'pagination.info.page-mode',
    title: 'whether page is a page index or an item offset, as meta shows it',
    level: 'INFO',
    requirements: ['REQ-PAGE-03'],
    async run(ctx) {
      const page = await getList(ctx, '/transactions', transactionsQuery(ctx, { limit: WALK_LIMIT }));
      const current = num(page.meta, 'currentPage');
      const next = num(page.meta, 'nextPage');
      const total = num(page.meta, 'totalCount');
      let mode = 'not inferable from the first page';
      if (current !== undefined && next !== undefined && next !== current) {
        mode = next - current === 1 ? 'a page index' : next - current === WALK_LIMIT ? 'an item offset' : `neither (nextPage − currentPage = ${next - current} at limit ${WALK_LIMIT})`;
      } else if (total !== undefined && total <= WALK_LIMIT) mode = 'not inferable: one page only';
      ctx.observe(`page is ${mode}; the first page (no page parameter) reports currentPage ${show(page.meta?.currentPage)}, nextPage ${show(page.meta?.nextPage)}`);
    },
  }),
  defineCheck({
    id: 'pagination.info.past-end',
    title: 'what a page past the end of the list gives (not stated)',
    level: 'INFO',
    requirements: ['REQ-PAGE-09'],
    async run(ctx) {
      const first = await getList(ctx, '/transactions', transactionsQuery(ctx, { limit: WALK_LIMIT }));
      // Past the end whether page counts pages or items.
      const past = (num(first.meta, 'totalCount') ?? 0) + 1000;
      const res = await ctx.send({ method: 'GET', path: '/transactions', query: transactionsQuery(ctx, { limit: WALK_LIMIT, page: past }) });
      const parsed = parseJson(res.text);
      const body = parsed.ok && isObject(parsed.value) ? parsed.value : undefined;
      const data = body?.data;
      const metaOk = body && validateAgainst('paging-meta', body.meta).length === 0;
      ctx.observe(
        `page=${past}: ${res.status}${Array.isArray(data) ? `, ${data.length} items` : ''}${body?.meta !== undefined ? `, meta ${JSON.stringify(body.meta)}${metaOk ? '' : ' (not valid paging meta)'}` : ''}`,
      );
    },
  }),
]);
