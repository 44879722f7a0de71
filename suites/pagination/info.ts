// pagination.info.*: what the spec leaves open, recorded: the default order, the page mode, the last page and a
// page past the end.
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import {
  describeWalk,
  isObject,
  orderOf,
  parseJson,
  validateAgainst,
  type ListPage,
  type Query,
} from '../kit/index.js';
import { SPEC_DEFAULT_LIMIT, WALK_LIMIT } from './helpers/limits.js';
import { num, show } from './helpers/findings.js';
import {
  askedOf,
  asListPage,
  createdAtOf,
  metaOf,
  observedListPages,
  onEveryList,
  transactionsList,
  type ListEndpoint,
  type ObservedPage,
} from './helpers/lists.js';
import { SHARED_PAGES, SHARED_WALKS, sharedFirstPage, walk } from './helpers/walks.js';

/** The path of an observed page's request: its list. */
const pathOf = (page: ObservedPage) => new URL(page.response.exchange.request.url).pathname;

/** For an observation: the first page of a list, or a skip naming why the list could not be read. */
async function firstPageOrSkip(ctx: CheckContext, list: ListEndpoint, extra: Query): Promise<ListPage> {
  const res = await sharedFirstPage(ctx, list.path, { ...list.query, ...extra });
  return (
    asListPage(ctx, res) ??
    ctx.skip(
      `${list.label} answered ${res.status}${res.status === 200 ? ' without a list in data' : ''}: nothing to observe`,
    )
  );
}

export const infoChecks = [
  defineCheck({
    id: 'pagination.info.default-sort',
    title: 'which order each list has when sort is not given (the spec states no default)',
    level: 'INFO',
    requirements: ['REQ-PAGE-08'],
    explain: {
      sends:
        'the first page of each list (the transactions of fixtures.paginationCustomerId, the accounts of fixtures.customerId, the INTERNATIONAL_STOCKS instruments), without sort',
      passes:
        'always, once the answer could be read: the check records meta.sort and the order of the items by createdAt, per list',
    },
    async run(ctx) {
      await onEveryList(ctx, async (list) => {
        const created = createdAtOf(list.first.items);
        return {
          note: `without sort: meta.sort ${show(list.first.meta?.sort)}, items ${orderOf(created)} by createdAt`,
          judged: true,
        };
      });
    },
    // Observed traffic: the first page of each list (by path) asked for without sort and without page, recorded.
    async observe(ctx) {
      const firsts = new Map<string, ObservedPage>();
      for (const page of observedListPages(ctx))
        if (askedOf(page, 'sort') === null && askedOf(page, 'page') === null)
          if (!firsts.has(pathOf(page))) firsts.set(pathOf(page), page);
      if (firsts.size === 0) ctx.skip('the traffic holds no first page of a list asked for without sort');
      for (const page of firsts.values())
        ctx.observe(
          `${page.label}: without sort: meta.sort ${show(metaOf(page)?.sort)}, items ${orderOf(createdAtOf(page.items))} by createdAt`,
        );
      ctx.judged('the first page of a list asked for without sort', firsts.size);
    },
  }),
  defineCheck({
    id: 'pagination.info.page-mode',
    title: 'whether page is a page index or an item offset, as meta shows it',
    level: 'INFO',
    requirements: ['REQ-PAGE-03'],
    explain: {
      sends: `the first page of the transactions of fixtures.paginationCustomerId with limit=${WALK_LIMIT}${SHARED_PAGES}`,
      passes:
        'once the answer could be read: the check records whether page is a page index or an item offset, from the currentPage and nextPage of that page; a list of one page shows neither, and the check skips',
    },
    async run(ctx) {
      const page = await firstPageOrSkip(ctx, transactionsList(ctx), { limit: WALK_LIMIT });
      const current = num(page.meta, 'currentPage');
      const next = num(page.meta, 'nextPage');
      const total = num(page.meta, 'totalCount');
      let mode = 'not inferable from the first page';
      if (current !== undefined && next !== undefined && next !== current) {
        mode =
          next - current === 1
            ? 'a page index'
            : next - current === WALK_LIMIT
              ? 'an item offset'
              : `neither (nextPage − currentPage = ${next - current} at limit ${WALK_LIMIT})`;
      } else if (total !== undefined && total <= WALK_LIMIT) mode = 'not inferable: one page only';
      const seen = `the first page (no page parameter) reports currentPage ${show(page.meta?.currentPage)}, nextPage ${show(page.meta?.nextPage)}`;
      if (mode.startsWith('not inferable')) return ctx.skip(`page is ${mode}: ${seen}`);
      ctx.observe(`page is ${mode}; ${seen}`);
      ctx.judged('the meta of the first page');
    },
    // Observed traffic: the first page (asked for without page) of a list whose nextPage moves on from currentPage, at
    // a limit other than 1 (where a page and an item are one step): the step tells a page index from an item offset.
    async observe(ctx) {
      const read = observedListPages(ctx).flatMap((page) => {
        const raw = askedOf(page, 'limit');
        const limit = raw === null ? SPEC_DEFAULT_LIMIT : /^\d+$/.test(raw) ? Number(raw) : undefined;
        const current = num(metaOf(page), 'currentPage');
        const next = num(metaOf(page), 'nextPage');
        if (askedOf(page, 'page') !== null || limit === undefined || limit < 2) return [];
        if (current === undefined || next === undefined || next <= current) return [];
        const step = next - current;
        const mode =
          step === 1
            ? 'a page index'
            : step === limit
              ? 'an item offset'
              : `neither (nextPage − currentPage = ${step} at limit ${limit})`;
        return [`page is ${mode}; ${page.label} reports currentPage ${current}, nextPage ${next}`];
      });
      if (read.length === 0)
        ctx.skip(
          'the traffic holds no first page of a list, at a limit over 1, whose nextPage moves on from currentPage',
        );
      for (const line of new Set(read.map((r) => r.split(';')[0])))
        ctx.observe(read.find((r) => r.startsWith(`${line};`))!);
      ctx.judged('the meta of a first page', read.length);
    },
  }),
  defineCheck({
    id: 'pagination.info.last-page',
    title:
      'what meta.nextPage names on the last page of a list (not stated): the page itself, the page past the end, or the first page',
    level: 'INFO',
    requirements: ['REQ-META-10'],
    explain: {
      sends: `a walk of the transactions of fixtures.paginationCustomerId with limit=${WALK_LIMIT}, following meta.nextPage${SHARED_WALKS}`,
      passes:
        'once the answer could be read: the check records what meta.nextPage names on the last page: the page itself, the page past the end, or the first page; a list with no item, or a walk capped before its end, shows no last page, and the check skips',
    },
    async run(ctx) {
      const list = transactionsList(ctx);
      const walked = await walk(ctx, list, { limit: WALK_LIMIT });
      const last = walked.pages.filter((p) => p.items.length > 0).at(-1);
      if (!last) return ctx.skip(`no page with items was served (${describeWalk(walked)}): no last page to read`);
      if (walked.capped) return ctx.skip(`the last page was not reached: the walk was capped (${walked.stop.detail})`);
      const current = num(last.meta, 'currentPage');
      const next = num(last.meta, 'nextPage');
      let reading = `neither (nextPage ${show(last.meta?.nextPage)}, currentPage ${show(last.meta?.currentPage)})`;
      if (current !== undefined && next === current) reading = 'the last page itself (nextPage = currentPage)';
      else if (current !== undefined && next !== undefined && next > current)
        reading = `the page past the end (nextPage ${next}, currentPage ${current})`;
      else if (next === 0 && current !== 0)
        reading = `back to the first page (nextPage 0, currentPage ${show(current)})`;
      ctx.observe(
        `${list.label}&limit=${WALK_LIMIT}: nextPage on the last page: ${reading}; the walk ${describeWalk(walked)}`,
      );
      ctx.judged('the meta of the last page');
    },
  }),
  defineCheck({
    id: 'pagination.info.past-end',
    title: 'what a page past the end of the list gives (not stated)',
    level: 'INFO',
    requirements: ['REQ-PAGE-09'],
    explain: {
      sends: `the first page of the transactions of fixtures.paginationCustomerId with limit=${WALK_LIMIT}, then a page 1000 past totalCount${SHARED_PAGES}`,
      passes:
        'always, once the answer could be read: the check records the status, the number of items and the meta of that answer',
    },
    async run(ctx) {
      const list = transactionsList(ctx);
      const first = await firstPageOrSkip(ctx, list, { limit: WALK_LIMIT });
      // Past the end whether page counts pages or items.
      const past = (num(first.meta, 'totalCount') ?? 0) + 1000;
      const res = await ctx.send({
        method: 'GET',
        path: list.path,
        query: { ...list.query, limit: WALK_LIMIT, page: past },
      });
      const parsed = parseJson(res.text);
      const body = parsed.ok && isObject(parsed.value) ? parsed.value : undefined;
      const data = body?.data;
      const metaOk = body && validateAgainst('paging-meta', body.meta).length === 0;
      ctx.judged(`the answer to page=${past}`);
      ctx.observe(
        `page=${past}: ${res.status}${Array.isArray(data) ? `, ${data.length} items` : ''}${body?.meta !== undefined ? `, meta ${JSON.stringify(body.meta)}${metaOk ? '' : ' (not valid paging meta)'}` : ''}`,
      );
    },
  }),
];
