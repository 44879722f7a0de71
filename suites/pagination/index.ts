// Suite `pagination`: paging meta, limits, page walks and sorting on the list endpoints (spec "Paging meta (list
// responses)", "Pagination and sorting (list endpoints)", "Limits"). `page` may be a page index or an item offset
// (GUIDE), so every walk follows meta.nextPage and no check computes a page number.
//
// The rules hold for every list endpoint, and an implementation may get one of them wrong, so each check judges each
// list: the accounts of fixtures.customerId, the INTERNATIONAL_STOCKS instruments, and the transactions of
// fixtures.paginationCustomerId (the long one). A rule that needs several pages or several distinct createdAt values
// is judged where the list has them, and the check records where it could not judge. A list that does not answer its
// plain request with a list (a defect the resources checks judge) is not judged here: the check judges the others and
// ends skipped, naming it, since it could not judge the rule everywhere.
import { defineCheck, defineSuite, type CheckContext } from '../../src/engine/index.js';
import {
  describeWalk,
  expectRejection,
  isObject,
  orderBreak,
  orderOf,
  pageOfItem,
  parseJson,
  validateAgainst,
  type ListPage,
  type Query,
  type WalkResult,
} from '../kit/index.js';
import { WALK_LIMIT, ODD_LIMIT } from './helpers/limits.js';
import { fail, num, show } from './helpers/findings.js';
import { transactionsList, asListPage, onEveryList, createdAtOf, type ListEndpoint } from './helpers/lists.js';
import { severalPagesLimit, walk, walkSeveral, served } from './helpers/walks.js';
import { outOf, expectRefused, type OutOfDomain } from './helpers/out-of-domain.js';
import { metaChecks } from './meta.js';
import { limitChecks } from './limit.js';
import { pageChecks } from './page.js';

/** The longest list walked one item a page. */
const ONE_A_PAGE_MAX = 40;

const filled = (walk: WalkResult<unknown>) => walk.pages.filter((p) => p.items.length > 0).length;

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
      sends: `a walk of each list (the transactions of fixtures.paginationCustomerId, the accounts of fixtures.customerId, the INTERNATIONAL_STOCKS instruments) with sort=${sort}, at a limit that gives it several pages, following meta.nextPage`,
      passes: `every page says meta.sort ${sort}, and createdAt is ${nonMonotonic(sort)} across all the items of the walk (judged where at least two createdAt differ)`,
      fails:
        'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
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
  });
}

/** For an observation: the first page of a list, or a skip naming why the list could not be read. */
async function firstPageOrSkip(ctx: CheckContext, list: ListEndpoint, extra: Query): Promise<ListPage> {
  const res = await ctx.send({ method: 'GET', path: list.path, query: { ...list.query, ...extra } });
  return (
    asListPage(ctx, res) ??
    ctx.skip(
      `${list.label} answered ${res.status}${res.status === 200 ? ' without a list in data' : ''}: nothing to observe`,
    )
  );
}

export default defineSuite({
  name: 'pagination',
  title: 'Pagination: paging meta, limits, page walks, sorting',
  checks: [
    ...metaChecks,
    ...limitChecks,
    ...pageChecks,
    defineCheck({
      id: 'pagination.walk.complete',
      title:
        'following meta.nextPage returns exactly totalCount distinct items, none twice, for several limits on every list',
      level: 'MUST',
      timeoutMs: 120_000,
      requirements: ['REQ-META-04', 'REQ-META-07', 'REQ-PAGE-01', 'REQ-ACCTEP-02', 'REQ-INSTEP-03', 'REQ-TXNEP-01'],
      explain: {
        sends: `page walks of each list, each following meta.nextPage from the first page (never computing page numbers itself): with the default limit, with a limit that gives the list several pages, with limit=${ODD_LIMIT} where the list is longer, and with limit=1 where it has at most ${ONE_A_PAGE_MAX} items`,
        passes: 'every walk ends, and returns exactly meta.totalCount items, each id once',
        fails:
          'a nextPage that never ends the walk, an item on two pages, an item without its id, a missing totalCount, or fewer or more items than totalCount',
      },
      async run(ctx) {
        await onEveryList(ctx, async (list) => {
          const several = severalPagesLimit(list.size);
          const walks: Array<{ what: string; extra: Query; maxPages?: number }> = [
            { what: 'default limit', extra: {} },
            ...(list.size >= 2 ? [{ what: `limit=${several}`, extra: { limit: several } }] : []),
            ...(list.size > ODD_LIMIT && several !== ODD_LIMIT
              ? [{ what: `limit=${ODD_LIMIT}`, extra: { limit: ODD_LIMIT }, maxPages: 40 }]
              : []),
            // One item a page puts a page boundary between every two items, createdAt ties too: a tie order that
            // changes from request to request repeats or loses items there.
            ...(list.size >= 2 && list.size <= ONE_A_PAGE_MAX && several !== 1
              ? [{ what: 'limit=1', extra: { limit: 1 } }]
              : []),
          ];
          const done: string[] = [];
          let walkedItems = 0;
          for (const w of walks) {
            const walked = await walk(ctx, list, w.extra, w.maxPages ? { maxPages: w.maxPages } : {});
            const what = `${list.label}, ${w.what}`;
            const first = walked.pages[0]!.response;
            const last = walked.pages[walked.pages.length - 1]!.response;
            if (walked.stop.reason === 'overrun') {
              fail(
                ctx,
                last,
                `${what}: nextPage never ends (${describeWalk(walked)})`,
                'a walk following meta.nextPage ends once the list is returned',
              );
            }
            // An item twice within one page is a defect of the list's ids (resources.ids.unique judges it), not of paging.
            const across = walked.duplicates.filter((d) => d.page !== d.firstPage);
            const within = walked.duplicates.find((d) => d.page === d.firstPage);
            if (within) done.push(`also seen here: ${list.idField} ${within.id} twice on page ${within.page + 1}`);
            if (across.length) {
              const d = across[0]!;
              fail(
                ctx,
                walked.pages[d.page]!.response,
                `${what}: ${list.idField} ${d.id} comes on page ${d.firstPage + 1} and again on page ${d.page + 1} (${across.length} repeat(s); ${describeWalk(walked)})`,
                'every item exactly once across the walk',
              );
            }
            if (walked.ids.some((id) => id === undefined))
              fail(ctx, first, `${what}: an item has no ${list.idField}`, `every item carries ${list.idField}`);
            if (walked.totalCount === undefined)
              fail(
                ctx,
                first,
                `${what}: the first page has no integer meta.totalCount`,
                'meta.totalCount on every list page',
              );
            if (walked.capped && walked.items.length < walked.totalCount) {
              done.push(
                `${w.what}: walk capped after ${walked.items.length} of ${walked.totalCount} items; checked that part only`,
              );
              continue;
            }
            if (walked.items.length !== walked.totalCount) {
              fail(
                ctx,
                last,
                `${what}: the walk returned ${walked.items.length} items but totalCount is ${walked.totalCount} (${describeWalk(walked)})`,
                'a walk following nextPage visits totalCount items exactly once: none missing, none extra',
              );
            }
            done.push(
              `${w.what}: ${walked.items.length} items in ${walked.pages.length} page(s), ended by ${walked.stop.reason}${walked.loop ? ` (the last nextPage points back: ${walked.stop.detail})` : ''}`,
            );
            walkedItems += walked.items.length;
          }
          // An empty list, walked to its end, returns no item: it shows nothing of how a walk visits items.
          return { note: done.join(', '), judged: walkedItems > 0 };
        });
      },
    }),
    defineCheck({
      id: 'pagination.walk.total-stable',
      title: 'meta.totalCount is the same on every page of one walk, on every list with several pages',
      level: 'SHOULD',
      requirements: ['REQ-META-09'],
      explain: {
        sends:
          'walks of each list (the transactions of fixtures.paginationCustomerId, the accounts of fixtures.customerId, the INTERNATIONAL_STOCKS instruments), with the default limit and at a limit that gives it several pages, following meta.nextPage',
        passes:
          "the server's answers show that meta.totalCount is the same on every page of one walk, on every list with several pages",
        fails:
          'any answer that does not (the check warns); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        await onEveryList(ctx, async (list) => {
          // The default limit leaves a short last page on a long list, so a totalCount that follows the page's size
          // shows; it is walked whatever totalCount says, since totalCount is what is in question.
          const walks = [await walk(ctx, list), ...(list.size >= 2 ? [await walkSeveral(ctx, list)] : [])];
          for (const walked of walks) {
            const first = walked.pages[0]!.meta?.totalCount;
            const other = walked.pages.findIndex((p) => p.items.length > 0 && p.meta?.totalCount !== first);
            if (other >= 0) {
              fail(
                ctx,
                walked.pages[other]!.response,
                `${list.label}: totalCount is ${show(first)} on page 1 but ${show(walked.pages[other]!.meta?.totalCount)} on page ${other + 1}`,
                'the same totalCount on every page of the list',
              );
            }
          }
          const judged = walks.some((w) => filled(w) >= 2);
          return {
            note: judged
              ? `${walks.map((w) => `${filled(w)} pages`).join(' and ')} compared`
              : 'one page only: not judged',
            judged,
          };
        });
      },
    }),
    defineCheck({
      id: 'pagination.walk.page-links',
      title:
        'meta.currentPage echoes the page asked for, and previousPage of each page is the currentPage of the page before, on every list with several pages',
      level: 'MUST',
      requirements: ['REQ-META-02', 'REQ-META-03'],
      explain: {
        sends: 'a walk of each list at a limit that gives it several pages, following meta.nextPage',
        passes:
          "every page after the first reports the page value it was asked with as currentPage, and the previous page's currentPage as previousPage: whether page counts pages or items",
        fails: 'a currentPage other than the page asked for, or a previousPage that does not name the page before',
      },
      async run(ctx) {
        await onEveryList(ctx, async (list) => {
          if (list.size < 2) return { note: `${list.size} item(s): one page only, not judged`, judged: false };
          const walked = await walkSeveral(ctx, list);
          for (let i = 1; i < walked.pages.length; i++) {
            const p = walked.pages[i]!;
            const before = walked.pages[i - 1]!;
            if (p.items.length === 0) continue;
            if (num(p.meta, 'currentPage') !== p.requested) {
              fail(
                ctx,
                p.response,
                `${list.label}&page=${p.requested} answered with meta.currentPage ${show(p.meta?.currentPage)}`,
                'currentPage is the page asked for',
                ['REQ-META-03'],
              );
            }
            if (num(p.meta, 'previousPage') !== num(before.meta, 'currentPage')) {
              fail(
                ctx,
                p.response,
                `${list.label}: page ${i + 1} (page=${p.requested}) has previousPage ${show(p.meta?.previousPage)}, the page before had currentPage ${show(before.meta?.currentPage)}`,
                "previousPage names the page before (that page's currentPage)",
                ['REQ-META-02'],
              );
            }
          }
          const judged = filled(walked) >= 2;
          return {
            note: judged ? `${filled(walked)} pages linked` : `one page only (${describeWalk(walked)})`,
            judged,
          };
        });
      },
    }),
    sortOrderCheck('pagination.sort.asc', 'ASC'),
    sortOrderCheck('pagination.sort.desc', 'DESC'),
    defineCheck({
      id: 'pagination.sort.default-consistent',
      title: 'without sort, meta.sort names the order the items really come in, the same on every page, on every list',
      level: 'MUST',
      requirements: ['REQ-META-08'],
      explain: {
        sends:
          'a walk of each list (the transactions of fixtures.paginationCustomerId, the accounts of fixtures.customerId, the INTERNATIONAL_STOCKS instruments) without sort, at a limit that gives it several pages, following meta.nextPage',
        passes:
          'the first page says meta.sort ASC or DESC, every page of the walk says the same, and the items across the walk come in that order by createdAt',
        fails:
          'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
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
        fails: `a 2xx (the value was ignored), a redirect or a 5xx for ${INVALID_SORTS.map((v) => v.value).join(' or ')}; a 5xx for sort=${LOWERCASE_SORT.value}, or a list served for it in DESC order (the value ignored), or whose meta.sort is not ASC or DESC or names an order its items do not have: the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too`,
      },
      async run(ctx) {
        await onEveryList(ctx, async (list) => {
          const refused = await expectRefused(ctx, list, INVALID_SORTS);
          return { note: `${refused}, ${await lowercaseSort(ctx, list)}`, judged: true };
        });
      },
    }),
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
        fails:
          'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning)',
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
    }),
    defineCheck({
      id: 'pagination.info.page-mode',
      title: 'whether page is a page index or an item offset, as meta shows it',
      level: 'INFO',
      requirements: ['REQ-PAGE-03'],
      explain: {
        sends: `the first page of the transactions of fixtures.paginationCustomerId with limit=${WALK_LIMIT}`,
        passes:
          'once the answer could be read: the check records whether page is a page index or an item offset, from the currentPage and nextPage of that page; a list of one page shows neither, and the check skips',
        fails:
          'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning)',
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
    }),
    defineCheck({
      id: 'pagination.info.last-page',
      title:
        'what meta.nextPage names on the last page of a list (not stated): the page itself, the page past the end, or the first page',
      level: 'INFO',
      requirements: ['REQ-META-10'],
      explain: {
        sends: `a walk of the transactions of fixtures.paginationCustomerId with limit=${WALK_LIMIT}, following meta.nextPage`,
        passes:
          'once the answer could be read: the check records what meta.nextPage names on the last page: the page itself, the page past the end, or the first page; a list with no item, or a walk capped before its end, shows no last page, and the check skips',
        fails:
          'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning)',
      },
      async run(ctx) {
        const list = transactionsList(ctx);
        const walked = await walk(ctx, list, { limit: WALK_LIMIT });
        const last = walked.pages.filter((p) => p.items.length > 0).at(-1);
        if (!last) return ctx.skip(`no page with items was served (${describeWalk(walked)}): no last page to read`);
        if (walked.capped)
          return ctx.skip(`the last page was not reached: the walk was capped (${walked.stop.detail})`);
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
        sends: `the transactions of fixtures.paginationCustomerId with limit=${WALK_LIMIT} and a page 1000 past totalCount`,
        passes:
          'always, once the answer could be read: the check records the status, the number of items and the meta of that answer',
        fails:
          'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning)',
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
  ],
});
