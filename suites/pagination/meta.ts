// pagination.meta.*: the paging meta of every page of every list, and its currentCount.
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import { readEnvelope, validateAgainst, type HttpResponse } from '../kit/index.js';
import { fail, num, show } from './helpers/findings.js';
import { listEndpoints, metaOf, observedListPages, withFirstPage, onEveryList } from './helpers/lists.js';
import { SHARED_PAGES, SHARED_WALKS, inOrder, sharedListPage, walk, walkSeveral, served } from './helpers/walks.js';

/** The paging meta of one page against the "Paging meta" table. */
function expectPagingMeta(ctx: CheckContext, label: string, res: HttpResponse, meta: unknown): void {
  const problems =
    meta === undefined ? [{ path: 'meta', message: 'is absent' }] : validateAgainst('paging-meta', meta, 'meta');
  if (problems.length === 0) return;
  const listed = problems
    .slice(0, 5)
    .map((p) => `${p.path} ${p.message}`)
    .join('; ');
  fail(
    ctx,
    res,
    `${label}: Paging meta: ${listed}${problems.length > 5 ? ` (+${problems.length - 5} more)` : ''}`,
    'a list response carries meta with previousPage, currentPage, nextPage (integers >= 0), limit (1 to 1000), currentCount, totalCount (integers) and sort (ASC or DESC)',
  );
}

/** currentCount is the number of items on the page, and at most limit. */
function judgeCurrentCount(
  ctx: CheckContext,
  label: string,
  res: HttpResponse,
  items: readonly unknown[],
  meta: Record<string, unknown> | undefined,
): void {
  const count = num(meta, 'currentCount');
  if (count !== items.length) {
    fail(
      ctx,
      res,
      `${label}: meta.currentCount is ${show(meta?.currentCount)} but data has ${items.length} items`,
      'currentCount equals the number of items returned',
      ['REQ-META-06'],
    );
  }
  const limit = num(meta, 'limit');
  if (limit !== undefined && count > limit) {
    fail(
      ctx,
      res,
      `${label}: meta.currentCount ${count} exceeds meta.limit ${limit}`,
      'at most meta.limit items: limit is the maximum items returned',
      ['REQ-META-05'],
    );
  }
}

export const metaChecks = [
  defineCheck({
    id: 'pagination.meta.present',
    title: 'every page of every list carries meta with all seven fields and their types',
    level: 'MUST',
    requirements: [
      'REQ-ENV-05',
      'REQ-META-01',
      'REQ-META-02',
      'REQ-META-03',
      'REQ-META-04',
      'REQ-META-05',
      'REQ-META-06',
      'REQ-META-07',
      'REQ-META-08',
      'REQ-ACCTEP-03',
      'REQ-INSTEP-04',
      'REQ-TXNEP-02',
    ],
    explain: {
      sends: `the first page of each list (the transactions of fixtures.paginationCustomerId, the accounts of fixtures.customerId, the INTERNATIONAL_STOCKS instruments), then a walk of it at a limit that gives it several pages, following meta.nextPage${SHARED_PAGES}${SHARED_WALKS}`,
      passes:
        'every page served carries meta with previousPage, currentPage and nextPage (integers >= 0), limit (1 to 1000), currentCount and totalCount (integers) and sort (ASC or DESC)',
      fails:
        'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
    },
    async run(ctx) {
      const seen: string[] = [];
      // The lists side by side, taken in list order: the first failure in that order is the one reported.
      const walks = await inOrder(
        listEndpoints(ctx).map(async (list) => {
          const first = await sharedListPage(ctx, list.path, list.query);
          expectPagingMeta(ctx, list.label, first.res, first.meta ?? first.env.meta);
          // The last page too: a server may end its list with a nextPage the table does not allow (null, -1).
          const walked = await walkSeveral(ctx, withFirstPage(list, first));
          for (const p of served(walked))
            expectPagingMeta(ctx, list.label, p.response, p.meta ?? readEnvelope(ctx, p.response).meta);
          return { list, walked };
        }),
      );
      for (const { list, walked } of walks) {
        ctx.judged(`the meta of ${list.label}`, 1 + served(walked).length);
        seen.push(`${list.label}: the first page and ${walked.pages.length} page(s) of a walk`);
      }
      ctx.observe(seen.join('; '));
    },
    // Observed traffic: every page of a list the traffic holds.
    async observe(ctx) {
      const pages = observedListPages(ctx);
      if (pages.length === 0) ctx.skip('the traffic holds no 200 answer of a list endpoint with a list in data');
      for (const p of pages) expectPagingMeta(ctx, p.label, p.response, p.meta);
      ctx.judged('the meta of a page', pages.length);
    },
  }),
  defineCheck({
    id: 'pagination.meta.current-count',
    title: 'meta.currentCount equals the number of items on every page, and is at most meta.limit',
    level: 'MUST',
    requirements: ['REQ-META-06', 'REQ-META-05'],
    explain: {
      sends: `walks of each list (the transactions of fixtures.paginationCustomerId, the accounts of fixtures.customerId, the INTERNATIONAL_STOCKS instruments), with the default limit and at a limit that gives it several pages, following meta.nextPage${SHARED_WALKS}`,
      passes:
        "the server's answers show that meta.currentCount equals the number of items on every page, and is at most meta.limit",
      fails:
        'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
    },
    async run(ctx) {
      await onEveryList(ctx, async (list) => {
        // The default pages end on a partial page on a long list; the several-pages walk has pages past the first.
        const walks = await inOrder([walk(ctx, list), ...(list.size >= 2 ? [walkSeveral(ctx, list)] : [])]);
        const pages = walks.flatMap(served);
        for (const p of pages) judgeCurrentCount(ctx, list.label, p.response, p.items, p.meta);
        return { note: `${pages.length} pages compared`, judged: true };
      });
    },
    // Observed traffic: every page of a list the traffic holds.
    async observe(ctx) {
      const pages = observedListPages(ctx);
      if (pages.length === 0) ctx.skip('the traffic holds no 200 answer of a list endpoint with a list in data');
      for (const p of pages) judgeCurrentCount(ctx, p.label, p.response, p.items, metaOf(p));
      ctx.judged('a page', pages.length);
    },
  }),
];
