// pagination.sort.*: sort=ASC and sort=DESC across pages, the default order, and the values outside the enum.
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import { expectRejection, orderBreak, orderOf, pageOfItem, type HttpResponse } from '../kit/index.js';
import { fail, show } from './helpers/findings.js';
import {
  askedOf,
  asListPage,
  metaOf,
  observedListPages,
  followedPages,
  onEveryList,
  createdAtOf,
  type ListEndpoint,
  type ObservedPage,
} from './helpers/lists.js';
import { SHARED_WALKS, walkSeveral, served } from './helpers/walks.js';
import { outOf, expectRefused, type OutOfDomain } from './helpers/out-of-domain.js';

const distinct = (values: readonly unknown[]) => new Set(values).size;

const INVALID_SORTS = outOf('sort', ['UP', 'createdAt']);
/**
 * Outside the enum as the spec writes it, but commonly read case-insensitively: recorded, not judged for refusal; a
 * list served for it must still say its order in meta.sort (REQ-META-08).
 */
const LOWERCASE_SORT: OutOfDomain = { param: 'sort', value: 'asc' };

/**
 * sort=asc: refused, or read case-insensitively as ASC and served as a list whose meta.sort names the order its items
 * have (REQ-META-08); served in DESC order, it was ignored (REQ-PAGE-07).
 */
async function lowercaseSort(ctx: CheckContext, list: ListEndpoint): Promise<string> {
  const what = `${list.label}&sort=${LOWERCASE_SORT.value}`;
  const res = await ctx.send({ method: 'GET', path: list.path, query: { ...list.query, sort: LOWERCASE_SORT.value } });
  if (res.status >= 400 && res.status <= 499) return `sort=${LOWERCASE_SORT.value}: ${res.status}`;
  const served = asListPage(ctx, res);
  if (served === undefined) {
    // Not a 4xx and not a list: a 5xx, a redirect or another 2xx, which expectRejection names.
    expectRejection(ctx, res, `${what} is refused (any 4xx), or served as a list that says its order in meta.sort`);
    return `sort=${LOWERCASE_SORT.value}: ${res.status}`;
  }
  const sort = served.meta?.sort;
  if (sort !== 'ASC' && sort !== 'DESC')
    fail(
      ctx,
      res,
      `${what} was served with meta.sort ${show(sort)}`,
      'a list served for sort=asc says which order it has: meta.sort ASC or DESC',
      ['REQ-META-08'],
    );
  // Served, sort=asc was read as ASC (a case-insensitive enum) or ignored: ignored, it is a value outside the domain
  // answered with an order the client did not ask for, which the closed domain rules out.
  if (sort === 'DESC')
    fail(
      ctx,
      res,
      `${what} was served in DESC order (meta.sort DESC): the value was ignored, not read as ASC`,
      'sort=asc refused (any 4xx), or read case-insensitively as ASC: not served in another order',
      ['REQ-PAGE-07'],
    );
  const order = orderOfItems(served.items, sort);
  if (order.at !== undefined)
    fail(
      ctx,
      res,
      `${what} was served with meta.sort ${sort}, but ${order.text}`,
      `the items in the order meta.sort names (${sort})`,
      ['REQ-META-08'],
    );
  return `sort=${LOWERCASE_SORT.value}: ${res.status}, served as ${sort}`;
}

/** Where items stop following `sort` by createdAt; not judged where fewer than two createdAt values differ. */
function orderOfItems(items: readonly unknown[], sort: 'ASC' | 'DESC'): { judged: boolean; at?: number; text: string } {
  const created = createdAtOf(items);
  if (distinct(created) < 2)
    return { judged: false, text: `${distinct(created)} distinct createdAt: the order could not be judged` };
  const at = orderBreak(created, sort);
  if (at === undefined) return { judged: true, text: `${distinct(created)} distinct createdAt` };
  return {
    judged: true,
    at,
    text: `item ${at + 1} has createdAt ${show(created[at])} after ${show(created[at - 1])} (the items are ${orderOf(created)})`,
  };
}

const nonMonotonic = (sort: 'ASC' | 'DESC') => (sort === 'ASC' ? 'non-decreasing' : 'non-increasing');

/** sort=ASC and sort=DESC: one check for each order, its id written out where it is made. */
function sortOrderCheck(id: string, sort: 'ASC' | 'DESC') {
  return defineCheck({
    id,
    title: `sort=${sort} orders createdAt ${sort === 'ASC' ? 'ascending' : 'descending'} within and across pages, and meta.sort says ${sort}, on every list`,
    level: 'MUST',
    requirements: ['REQ-META-08', 'REQ-PAGE-06'],
    explain: {
      sends: `a walk of each list (the transactions of fixtures.paginationCustomerId, the accounts of fixtures.customerId, the INTERNATIONAL_STOCKS instruments) with sort=${sort}, at a limit that gives it several pages, following meta.nextPage${SHARED_WALKS}`,
      passes: `every page says meta.sort ${sort}, and createdAt is ${nonMonotonic(sort)} across all the items of the walk (judged where at least two createdAt differ)`,
      fails:
        'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
    },
    async run(ctx) {
      await onEveryList(ctx, async (list) => {
        const walked = await walkSeveral(ctx, list, { sort });
        const wrong = served(walked).find((p) => p.meta?.sort !== sort);
        if (wrong)
          fail(
            ctx,
            wrong.response,
            `${list.label}&sort=${sort} answered with meta.sort ${show(wrong.meta?.sort)}`,
            `meta.sort ${sort}`,
            ['REQ-META-08'],
          );
        const order = orderOfItems(walked.items, sort);
        if (order.at !== undefined)
          fail(
            ctx,
            pageOfItem(walked, order.at),
            `${list.label}: sort=${sort}, but across the walk ${order.text}`,
            `createdAt ${nonMonotonic(sort)} across all pages`,
          );
        return {
          note: `${walked.items.length} items over ${walked.pages.length} page(s), ${order.text}`,
          judged: order.judged,
        };
      });
    },
    // Observed traffic: every page of a list asked for with sort=ASC (or DESC) by itself, and across pages where the
    // traffic holds a page asked for as the nextPage of another (a walk, even interleaved with other requests).
    async observe(ctx) {
      const pages = observedListPages(ctx).filter((p) => askedOf(p, 'sort') === sort);
      if (pages.length === 0) ctx.skip(`the traffic holds no page of a list asked for with sort=${sort}`);
      for (const page of pages) {
        if (metaOf(page)?.sort !== sort)
          fail(
            ctx,
            page.response,
            `${page.label} answered with meta.sort ${show(metaOf(page)?.sort)}`,
            `meta.sort ${sort}`,
            ['REQ-META-08'],
          );
        judgePageOrder(ctx, page.response, page.label, page.items, sort);
      }
      for (const [before, after] of followedPages(pages)) judgeAcrossPages(ctx, before, after, sort);
      ctx.judged('a page asked for with a sort', pages.length);
    },
  });
}

/**
 * Where a page asked for as another's nextPage goes on in the order `sort` names: the first item of the later page
 * that the earlier one did not already hold against the earlier page's last. Items seen again are left out: a list
 * that grew between the two requests shifts items of one page onto the next, which is no break of the order.
 */
function judgeAcrossPages(ctx: CheckContext, before: ObservedPage, after: ObservedPage, sort: 'ASC' | 'DESC'): void {
  const seen = new Set(before.items.map((item) => JSON.stringify(item)));
  const last = createdAtOf(before.items).at(-1);
  const next = createdAtOf(after.items.filter((item) => !seen.has(JSON.stringify(item))))[0];
  if (typeof last !== 'number' || typeof next !== 'number' || last === next) return;
  if (orderBreak([last, next], sort) !== undefined)
    fail(
      ctx,
      after.response,
      `${after.label} follows ${before.label} (its meta.nextPage) with meta.sort ${sort}, but its first new item has createdAt ${show(next)} after ${show(last)}, the last of the page before`,
      `createdAt ${nonMonotonic(sort)} across the pages of a walk`,
    );
}

/** The items of one observed page in the order `sort` names, by createdAt, where two of them differ. */
function judgePageOrder(
  ctx: CheckContext,
  res: HttpResponse,
  label: string,
  items: readonly unknown[],
  sort: 'ASC' | 'DESC',
): void {
  const order = orderOfItems(items, sort);
  if (order.at !== undefined)
    fail(
      ctx,
      res,
      `${label}: meta.sort says ${sort}, but within the page ${order.text}`,
      `the items in the order meta.sort names (${sort})`,
      ['REQ-META-08'],
    );
}

export const sortChecks = [
  sortOrderCheck('pagination.sort.asc', 'ASC'),
  sortOrderCheck('pagination.sort.desc', 'DESC'),
  defineCheck({
    id: 'pagination.sort.default-consistent',
    title: 'without sort, meta.sort names the order the items really come in, the same on every page, on every list',
    level: 'MUST',
    requirements: ['REQ-META-08'],
    explain: {
      sends: `a walk of each list (the transactions of fixtures.paginationCustomerId, the accounts of fixtures.customerId, the INTERNATIONAL_STOCKS instruments) without sort, at a limit that gives it several pages, following meta.nextPage${SHARED_WALKS}`,
      passes:
        'the first page says meta.sort ASC or DESC, every page of the walk says the same, and the items across the walk come in that order by createdAt',
      fails:
        'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
    },
    async run(ctx) {
      await onEveryList(ctx, async (list) => {
        const walked = await walkSeveral(ctx, list);
        const sort = walked.pages[0]!.meta?.sort;
        if (sort !== 'ASC' && sort !== 'DESC')
          fail(ctx, walked.pages[0]!.response, `${list.label}: meta.sort is ${show(sort)}`, 'meta.sort ASC or DESC');
        const changed = served(walked).find((p) => p.meta?.sort !== sort);
        if (changed)
          fail(
            ctx,
            changed.response,
            `${list.label}: meta.sort changes within one walk: ${show(sort)} then ${show(changed.meta?.sort)}`,
            'one order for the whole list',
          );
        const order = orderOfItems(walked.items, sort);
        if (order.at !== undefined)
          fail(
            ctx,
            pageOfItem(walked, order.at),
            `${list.label}: meta.sort says ${sort}, but across the walk ${order.text}`,
            `the items in the order meta.sort names (${sort})`,
          );
        return {
          note: `default order ${sort}; ${walked.items.length} items over ${walked.pages.length} page(s), ${order.text}`,
          judged: order.judged,
        };
      });
    },
    // Observed traffic: every page of a list asked for without sort by itself, and across the pages of a walk (a page
    // asked for as another's nextPage): one order for both, and the items going on in it.
    async observe(ctx) {
      const pages = observedListPages(ctx).filter((p) => askedOf(p, 'sort') === null);
      if (pages.length === 0) ctx.skip('the traffic holds no page of a list asked for without sort');
      for (const page of pages) {
        const sort = metaOf(page)?.sort;
        if (sort !== 'ASC' && sort !== 'DESC')
          fail(ctx, page.response, `${page.label}: meta.sort is ${show(sort)}`, 'meta.sort ASC or DESC');
        judgePageOrder(ctx, page.response, page.label, page.items, sort);
      }
      for (const [before, after] of followedPages(pages)) {
        const sort = metaOf(before)?.sort;
        if (sort !== 'ASC' && sort !== 'DESC') continue;
        if (metaOf(after)?.sort !== sort)
          fail(
            ctx,
            after.response,
            `${after.label} follows ${before.label} (its meta.nextPage), but meta.sort changes within the walk: ${show(sort)} then ${show(metaOf(after)?.sort)}`,
            'one order for the whole list',
          );
        else judgeAcrossPages(ctx, before, after, sort);
      }
      ctx.judged('a page asked for without sort', pages.length);
    },
  }),
  defineCheck({
    id: 'pagination.sort.invalid-rejected',
    title: `a sort outside the enum ASC, DESC (${INVALID_SORTS.map((v) => v.value).join(', ')}) is refused (4xx), on every list; sort=asc is refused or read as ASC, never ignored`,
    level: 'MUST',
    requirements: ['REQ-PAGE-07', 'REQ-META-08'],
    note: 'sort is "enum ASC, DESC": a closed domain, so a value outside it is refused, whatever the status (any 4xx); ignored, it would be served in an order the client did not ask for. The lowercase asc may be read case-insensitively as ASC (a common leniency), not ignored: a list served for it is in ASC order and says so in meta.sort.',
    explain: {
      sends: `GET of each list with sort=${INVALID_SORTS.map((v) => v.value).join(', then sort=')}, then sort=${LOWERCASE_SORT.value}`,
      passes: `${INVALID_SORTS.map((v) => v.value).join(' and ')} are refused (any 4xx); sort=${LOWERCASE_SORT.value} is refused, or served as ASC (read case-insensitively): meta.sort ASC and the items in that order`,
      fails: `a 2xx (the value was ignored), a redirect or a 5xx for ${INVALID_SORTS.map((v) => v.value).join(' or ')}; a 5xx for sort=${LOWERCASE_SORT.value}, or a list served for it in DESC order (the value ignored), or whose meta.sort is not ASC or DESC or names an order its items do not have: the check fails`,
    },
    async run(ctx) {
      await onEveryList(ctx, async (list) => {
        const refused = await expectRefused(ctx, list, INVALID_SORTS);
        return { note: `${refused}, ${await lowercaseSort(ctx, list)}`, judged: true };
      });
    },
  }),
];
