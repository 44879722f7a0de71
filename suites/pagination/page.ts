// pagination.page.*: page=0, the first page, and the values of page outside its domain.
import { defineCheck } from '../../src/engine/index.js';
import { idKey } from '../kit/index.js';
import { fail, num, show } from './helpers/findings.js';
import { asListPage, onEveryList } from './helpers/lists.js';
import { outOf, expectRefused } from './helpers/out-of-domain.js';

function idsOf(items: readonly unknown[], idField: string): string[] {
  return items.map((item) => idKey(item, idField) ?? JSON.stringify(item));
}

function listIds(ids: readonly string[]): string {
  return `[${ids.slice(0, 4).join(', ')}${ids.length > 4 ? `, … (${ids.length})` : ''}]`;
}

const INVALID_PAGES = outOf('page', ['-1', 'x', '1.5']);

export const pageChecks = [
  defineCheck({
    id: 'pagination.page.zero',
    title: 'page=0 is a valid page on every list: 200 with the same items as without page, and meta.currentPage 0',
    level: 'MUST',
    requirements: ['REQ-PAGE-01', 'REQ-LIM-02', 'REQ-META-03'],
    explain: {
      failsInFull: true,
      sends: 'GET of each list with page=0, after the same list without page',
      passes:
        'page=0 answers 200 with the items of the page without page (0 is the first page whether page counts pages or items), and meta.currentPage is 0',
      fails: 'page=0 refused or answered with other items (pages numbered from 1), or a currentPage other than 0',
    },
    async run(ctx) {
      await onEveryList(ctx, async (list) => {
        const res = await ctx.send({ method: 'GET', path: list.path, query: { ...list.query, page: 0 } });
        const zero = asListPage(ctx, res);
        if (zero === undefined) {
          fail(
            ctx,
            res,
            `${list.label}&page=0 answered ${res.status}${res.status === 200 ? ' without a list' : ''}`,
            'page=0 is a valid page (page is an integer >= 0): 200 with the first page',
            ['REQ-PAGE-01', 'REQ-LIM-02'],
          );
        }
        const want = idsOf(list.first.items, list.idField);
        const got = idsOf(zero.items, list.idField);
        if (got.join() !== want.join()) {
          fail(
            ctx,
            res,
            `${list.label}&page=0 returned ${listIds(got)}, but without page the list begins ${listIds(want)}`,
            'page=0 is the first page in both readings of page (a page index and an item offset): the same items as without page',
            ['REQ-PAGE-01', 'REQ-LIM-02'],
          );
        }
        const current = num(zero.meta, 'currentPage');
        if (current !== undefined && current !== 0)
          fail(
            ctx,
            res,
            `${list.label}&page=0 answered with meta.currentPage ${current}`,
            'meta.currentPage 0, the page asked for',
            ['REQ-META-03'],
          );
        return {
          note: `page=0 served the first ${got.length} item(s), meta.currentPage ${show(zero.meta?.currentPage)}`,
          judged: true,
        };
      });
    },
  }),
  defineCheck({
    id: 'pagination.page.invalid-rejected',
    title: `a page below 0 or not an integer (${INVALID_PAGES.map((v) => v.value).join(', ')}) is refused (4xx), on every list`,
    level: 'MUST',
    requirements: ['REQ-PAGE-02', 'REQ-LIM-02'],
    note: 'page is "integer", ">= 0": a closed domain, so a value outside it is refused, whatever the status (any 4xx). Clamped to 0 or ignored, it would be served as a page the client did not ask for; a 5xx is no refusal.',
    explain: {
      sends: `the first page of each list (the transactions of fixtures.paginationCustomerId, the accounts of fixtures.customerId, the INTERNATIONAL_STOCKS instruments) with page=${INVALID_PAGES.map((v) => v.value).join(', ')}, one at a time`,
      passes: 'each is refused (any 4xx): page is an integer >= 0',
      fails:
        'a 2xx (the value was clamped or ignored), a redirect, or a 5xx (the server crashed instead of refusing): the check fails',
    },
    async run(ctx) {
      await onEveryList(ctx, async (list) => ({ note: await expectRefused(ctx, list, INVALID_PAGES), judged: true }));
    },
  }),
];
