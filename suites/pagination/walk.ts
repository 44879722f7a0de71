// pagination.walk.*: walks following meta.nextPage: every item once, a stable totalCount, linked pages.
import { defineCheck } from '../../src/engine/index.js';
import { describeWalk, type Query, type WalkResult } from '../kit/index.js';
import { ODD_LIMIT } from './helpers/limits.js';
import { fail, num, show } from './helpers/findings.js';
import { askedOf, followedPages, metaOf, observedListPages, onEveryList } from './helpers/lists.js';
import { SHARED_WALKS, inOrder, severalPagesLimit, walk, walkSeveral } from './helpers/walks.js';

/** The longest list walked one item a page. */
const ONE_A_PAGE_MAX = 40;

const filled = (walk: WalkResult<unknown>) => walk.pages.filter((p) => p.items.length > 0).length;

export const walkChecks = [
  defineCheck({
    id: 'pagination.walk.complete',
    title:
      'following meta.nextPage returns exactly totalCount distinct items, none twice, for several limits on every list',
    level: 'MUST',
    timeoutMs: 120_000,
    requirements: ['REQ-META-04', 'REQ-META-07', 'REQ-PAGE-01', 'REQ-ACCTEP-02', 'REQ-INSTEP-03', 'REQ-TXNEP-01'],
    explain: {
      failsInFull: true,
      sends: `page walks of each list, each following meta.nextPage from the first page (never computing page numbers itself): with the default limit, with a limit that gives the list several pages, with limit=${ODD_LIMIT} where the list is longer, and with limit=1 where it has at most ${ONE_A_PAGE_MAX} items${SHARED_WALKS}`,
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
        // The walks are independent: taken side by side, judged in the order above.
        const taken = await inOrder(
          walks.map((w) => walk(ctx, list, w.extra, w.maxPages ? { maxPages: w.maxPages } : {})),
        );
        for (const [i, w] of walks.entries()) {
          const walked = taken[i]!;
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
      sends: `walks of each list (the transactions of fixtures.paginationCustomerId, the accounts of fixtures.customerId, the INTERNATIONAL_STOCKS instruments), with the default limit and at a limit that gives it several pages, following meta.nextPage${SHARED_WALKS}`,
      passes:
        "the server's answers show that meta.totalCount is the same on every page of one walk, on every list with several pages",
      fails:
        'any answer that does not (the check warns); the report names the field, status or item that differs and shows the exchange',
    },
    async run(ctx) {
      await onEveryList(ctx, async (list) => {
        // The default limit leaves a short last page on a long list, so a totalCount that follows the page's size
        // shows; it is walked whatever totalCount says, since totalCount is what is in question.
        const walks = await inOrder([walk(ctx, list), ...(list.size >= 2 ? [walkSeveral(ctx, list)] : [])]);
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
      failsInFull: true,
      sends: `a walk of each list at a limit that gives it several pages, following meta.nextPage${SHARED_WALKS}`,
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
    // Observed traffic: every page with items asked for with a page value (an integer from 0): its currentPage echoes
    // it; and a page with items asked for as another's nextPage (a walk the traffic holds) names that page's
    // currentPage as its previousPage.
    async observe(ctx) {
      const pages = observedListPages(ctx).flatMap((page) => {
        const raw = askedOf(page, 'page');
        return raw !== null && /^\d+$/.test(raw) && page.items.length > 0 ? [{ page, asked: Number(raw) }] : [];
      });
      if (pages.length === 0) ctx.skip('the traffic holds no page of a list with items asked for with a page value');
      for (const { page, asked } of pages)
        if (num(metaOf(page), 'currentPage') !== asked)
          fail(
            ctx,
            page.response,
            `${page.label} answered with meta.currentPage ${show(metaOf(page)?.currentPage)}`,
            'currentPage is the page asked for',
            ['REQ-META-03'],
          );
      for (const [before, after] of followedPages(observedListPages(ctx))) {
        if (after.items.length === 0 || num(metaOf(after), 'previousPage') === num(metaOf(before), 'currentPage'))
          continue;
        fail(
          ctx,
          after.response,
          `${after.label} follows ${before.label} (its meta.nextPage) but has previousPage ${show(metaOf(after)?.previousPage)}, the page before had currentPage ${show(metaOf(before)?.currentPage)}`,
          "previousPage names the page before (that page's currentPage)",
          ['REQ-META-02'],
        );
      }
      ctx.judged('the currentPage of a page asked for with a page value', pages.length);
    },
  }),
];
