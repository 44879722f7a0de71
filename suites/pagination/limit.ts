// pagination.limit.*: the limit asked for, the default, the bounds and the values outside them.
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import { SPEC_DEFAULT_LIMIT, SPEC_MAX_LIMIT, ODD_LIMIT } from './helpers/limits.js';
import { fail, num, show } from './helpers/findings.js';
import { askedOf, asListPage, metaOf, observedListPages, onEveryList, type ObservedPage } from './helpers/lists.js';
import { outOf, expectRefused } from './helpers/out-of-domain.js';
import { SHARED_PAGES, sharedFirstPage, sharedListPage } from './helpers/walks.js';

const SMALL_LIMIT = 10;
/** Limits a page must honour and meta.limit must echo. */
const ASKED_LIMITS = [SMALL_LIMIT, ODD_LIMIT, 1];
/** Below, above (at once and far), negative, not a number, not a whole number. */
const INVALID_LIMITS = outOf('limit', ['0', '-1', '1001', '5000', 'ten', '2.5']);

/**
 * The observed pages asked for with a limit in the domain (an integer from 1 to 1000), with it: a page asked for with
 * another is pagination.limit.invalid-rejected's, which needs requests of its own. A skip when there are none.
 */
function pagesWithLimit(ctx: CheckContext): Array<{ page: ObservedPage; limit: number }> {
  const pages = observedListPages(ctx).flatMap((page) => {
    const raw = askedOf(page, 'limit');
    const limit = raw !== null && /^\d+$/.test(raw) ? Number(raw) : undefined;
    return limit !== undefined && limit >= 1 && limit <= SPEC_MAX_LIMIT ? [{ page, limit }] : [];
  });
  if (pages.length === 0)
    ctx.skip(`the traffic holds no page of a list asked for with a limit from 1 to ${SPEC_MAX_LIMIT}`);
  return pages;
}

export const limitChecks = [
  defineCheck({
    id: 'pagination.limit.respected',
    title: `a page never holds more items than the limit asked for (limit=${ASKED_LIMITS.join(', ')}) on every list`,
    level: 'MUST',
    requirements: ['REQ-PAGE-04'],
    explain: {
      sends: `the first page of each list (the transactions of fixtures.paginationCustomerId, the accounts of fixtures.customerId, the INTERNATIONAL_STOCKS instruments) with limit=${ASKED_LIMITS.join(', limit=')}${SHARED_PAGES}`,
      passes: 'no page holds more items than the limit asked for (judged where the list is longer than the limit)',
      fails:
        'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
    },
    async run(ctx) {
      await onEveryList(ctx, async (list) => {
        const binding: number[] = [];
        for (const limit of ASKED_LIMITS) {
          const page = await sharedListPage(ctx, list.path, { ...list.query, limit });
          if (page.items.length > limit)
            fail(
              ctx,
              page.res,
              `${list.label}&limit=${limit} returned ${page.items.length} items`,
              `at most ${limit} items`,
            );
          if (list.size > limit) binding.push(limit);
        }
        return binding.length > 0
          ? { note: `limit=${binding.join(', ')} held (the list has ${list.size} items)`, judged: true }
          : { note: `the list has ${list.size} items: no limit asked was below it`, judged: false };
      });
    },
    // Observed traffic: every page of a list asked for with a limit in the domain.
    async observe(ctx) {
      const pages = pagesWithLimit(ctx);
      for (const { page, limit } of pages)
        if (page.items.length > limit)
          fail(ctx, page.response, `${page.label} returned ${page.items.length} items`, `at most ${limit} items`);
      ctx.judged('a page asked for with a limit', pages.length);
    },
  }),
  defineCheck({
    id: 'pagination.limit.echo',
    title: `meta.limit is the limit asked for (limit=${[...ASKED_LIMITS, SPEC_MAX_LIMIT].join(', ')}) on every list`,
    level: 'MUST',
    requirements: ['REQ-META-05', 'REQ-PAGE-04'],
    explain: {
      sends: `the first page of each list (the transactions of fixtures.paginationCustomerId, the accounts of fixtures.customerId, the INTERNATIONAL_STOCKS instruments) with limit=${[...ASKED_LIMITS, SPEC_MAX_LIMIT].join(', limit=')}${SHARED_PAGES}`,
      passes: 'meta.limit is the limit asked for, each time',
      fails:
        'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
    },
    async run(ctx) {
      await onEveryList(ctx, async (list) => {
        for (const limit of [...ASKED_LIMITS, SPEC_MAX_LIMIT]) {
          const page = await sharedListPage(ctx, list.path, { ...list.query, limit });
          if (num(page.meta, 'limit') !== limit) {
            fail(
              ctx,
              page.res,
              `${list.label}&limit=${limit} answered with meta.limit ${show(page.meta?.limit)}`,
              `meta.limit ${limit}: the maximum items returned, as asked`,
            );
          }
        }
        return { note: 'meta.limit as asked', judged: true };
      });
    },
    // Observed traffic: every page of a list asked for with a limit in the domain.
    async observe(ctx) {
      const pages = pagesWithLimit(ctx);
      for (const { page, limit } of pages)
        if (num(metaOf(page), 'limit') !== limit)
          fail(
            ctx,
            page.response,
            `${page.label} answered with meta.limit ${show(metaOf(page)?.limit)}`,
            `meta.limit ${limit}: the maximum items returned, as asked`,
          );
      ctx.judged('the meta.limit of a page asked for with a limit', pages.length);
    },
  }),
  defineCheck({
    id: 'pagination.limit.full-page',
    title: `a first page holds min(limit, totalCount) items (limit=${SMALL_LIMIT}, limit=1 and the default) on every list`,
    level: 'SHOULD',
    requirements: ['REQ-PAGE-05'],
    explain: {
      sends: `the first page of each list (the transactions of fixtures.paginationCustomerId, the accounts of fixtures.customerId, the INTERNATIONAL_STOCKS instruments) with limit=${SMALL_LIMIT}, with limit=1 and without limit${SHARED_PAGES}`,
      passes: `each first page holds min(limit, totalCount) items (the default limit is ${SPEC_DEFAULT_LIMIT}): a page is filled while more items remain; a list without an integer totalCount is not judged`,
      fails:
        'any answer that does not (the check warns); the report names the field, status or item that differs and shows the exchange',
    },
    async run(ctx) {
      await onEveryList(ctx, async (list) => {
        if (list.total === undefined || list.total <= 0)
          return {
            note: `totalCount ${show(list.first.meta?.totalCount)}: the fill could not be judged`,
            judged: false,
          };
        const seen: string[] = [];
        for (const limit of [SMALL_LIMIT, 1, undefined]) {
          const asked = limit === undefined ? 'without limit' : `limit=${limit}`;
          const res =
            limit === undefined ? list.first.res : await sharedFirstPage(ctx, list.path, { ...list.query, limit });
          const page = limit === undefined ? list.first : asListPage(ctx, res);
          // Refusing a valid limit, or a page over the limit, is judged by the MUST limit checks.
          if (page === undefined) {
            seen.push(`${asked}: ${res.status}, not judged here`);
            continue;
          }
          const want = Math.min(limit ?? SPEC_DEFAULT_LIMIT, list.total);
          if (page.items.length < want) {
            fail(
              ctx,
              page.res,
              `${list.label} ${asked} returned ${page.items.length} items while totalCount is ${list.total}`,
              `a first page holds min(limit, totalCount) = ${want} items: a page is filled while more items remain`,
            );
          }
          seen.push(
            `${asked}: ${page.items.length}${page.items.length > want ? ` (more than ${want}: judged by pagination.limit.respected)` : ''}`,
          );
        }
        return { note: `${seen.join(', ')} of ${list.total}`, judged: true };
      });
    },
    // Observed traffic: every first page (asked for without page) of a list whose meta.totalCount is a positive
    // integer, asked for with a limit from 1 to 1000 or none (the default): it holds min(limit, totalCount) items.
    async observe(ctx) {
      const pages = observedListPages(ctx).flatMap((page) => {
        const raw = askedOf(page, 'limit');
        const limit = raw === null ? SPEC_DEFAULT_LIMIT : /^\d+$/.test(raw) ? Number(raw) : 0;
        const total = metaOf(page)?.totalCount;
        return askedOf(page, 'page') === null &&
          limit >= 1 &&
          limit <= SPEC_MAX_LIMIT &&
          typeof total === 'number' &&
          Number.isSafeInteger(total) &&
          total > 0
          ? [{ page, want: Math.min(limit, total), total }]
          : [];
      });
      if (pages.length === 0)
        ctx.skip('the traffic holds no first page of a list (asked for without page) with a positive totalCount');
      for (const { page, want, total } of pages)
        if (page.items.length < want)
          fail(
            ctx,
            page.response,
            `${page.label} returned ${page.items.length} items while totalCount is ${total}`,
            `a first page holds min(limit, totalCount) = ${want} items: a page is filled while more items remain`,
          );
      ctx.judged('a first page with a positive totalCount', pages.length);
    },
  }),
  defineCheck({
    id: 'pagination.limit.default',
    title: 'without limit, meta.limit is 100 and a page holds at most 100 items, on every list',
    level: 'MUST',
    requirements: ['REQ-PAGE-04', 'REQ-LIM-01'],
    explain: {
      sends:
        'the first page of each list (the transactions of fixtures.paginationCustomerId, the accounts of fixtures.customerId, the INTERNATIONAL_STOCKS instruments), without limit',
      passes: `meta.limit is ${SPEC_DEFAULT_LIMIT}, the default limit, and the page holds at most ${SPEC_DEFAULT_LIMIT} items`,
      fails:
        'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
    },
    async run(ctx) {
      await onEveryList(ctx, async (list) => {
        const { res, items, meta } = list.first;
        if (items.length > SPEC_DEFAULT_LIMIT)
          fail(
            ctx,
            res,
            `${list.label} returned ${items.length} items without limit`,
            `at most the default limit, ${SPEC_DEFAULT_LIMIT} items`,
          );
        const limit = num(meta, 'limit');
        if (limit !== undefined && limit !== SPEC_DEFAULT_LIMIT)
          fail(
            ctx,
            res,
            `${list.label}: without limit, meta.limit is ${limit}`,
            `the default limit, ${SPEC_DEFAULT_LIMIT}`,
          );
        const seen =
          limit === undefined
            ? `meta.limit ${show(meta?.limit)} (judged by pagination.meta.present)`
            : `meta.limit ${limit}`;
        // Without meta.limit, only the items are judged here: an empty page shows nothing of the default.
        return {
          note: `${seen}, ${items.length} items of ${list.size}`,
          judged: limit !== undefined || items.length > 0,
        };
      });
    },
    // Observed traffic: every page of a list asked for without limit.
    async observe(ctx) {
      const pages = observedListPages(ctx).filter((p) => askedOf(p, 'limit') === null);
      if (pages.length === 0) ctx.skip('the traffic holds no page of a list asked for without limit');
      for (const page of pages) {
        if (page.items.length > SPEC_DEFAULT_LIMIT)
          fail(
            ctx,
            page.response,
            `${page.label} returned ${page.items.length} items without limit`,
            `at most the default limit, ${SPEC_DEFAULT_LIMIT} items`,
          );
        const limit = num(metaOf(page), 'limit');
        if (limit !== undefined && limit !== SPEC_DEFAULT_LIMIT)
          fail(
            ctx,
            page.response,
            `${page.label}: without limit, meta.limit is ${limit}`,
            `the default limit, ${SPEC_DEFAULT_LIMIT}`,
          );
      }
      ctx.judged('a page asked for without limit', pages.length);
    },
  }),
  defineCheck({
    id: 'pagination.limit.bounds',
    title: 'limit=1 and limit=1000, the ends of the range, are accepted and honoured on every list',
    level: 'MUST',
    requirements: ['REQ-PAGE-04', 'REQ-LIM-01'],
    explain: {
      sends: `the first page of each list (the transactions of fixtures.paginationCustomerId, the accounts of fixtures.customerId, the INTERNATIONAL_STOCKS instruments), with limit=1 and with limit=1000${SHARED_PAGES}`,
      passes: 'both are served as lists, with at most 1 and at most 1000 items',
      fails:
        'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
    },
    async run(ctx) {
      await onEveryList(ctx, async (list) => {
        for (const limit of [1, SPEC_MAX_LIMIT]) {
          const page = await sharedListPage(ctx, list.path, { ...list.query, limit });
          if (page.items.length > limit)
            fail(
              ctx,
              page.res,
              `${list.label}&limit=${limit} returned ${page.items.length} items`,
              `at most ${limit} items`,
            );
        }
        return { note: 'limit=1 and 1000 served', judged: true };
      });
    },
  }),
  defineCheck({
    id: 'pagination.limit.invalid-rejected',
    title: `a limit outside 1 to 1000 or not an integer (${INVALID_LIMITS.map((v) => v.value).join(', ')}) is refused (4xx), on every list`,
    level: 'MUST',
    requirements: ['REQ-PAGE-04', 'REQ-LIM-01'],
    note: 'limit is "integer", "1 to 1000": a closed domain, so a value outside it is refused, whatever the status (any 4xx). Clamped to 1000, taken as the default or ignored, it would be served as a request the client did not send; a 5xx is no refusal.',
    explain: {
      sends: `the first page of each list (the transactions of fixtures.paginationCustomerId, the accounts of fixtures.customerId, the INTERNATIONAL_STOCKS instruments) with limit=${INVALID_LIMITS.map((v) => v.value).join(', ')}, one at a time`,
      passes: 'each is refused (any 4xx): limit is an integer from 1 to 1000',
      fails:
        'a 2xx (the value was clamped, ignored or taken as the default), a redirect, or a 5xx (the server crashed instead of refusing): the check fails',
    },
    async run(ctx) {
      await onEveryList(ctx, async (list) => ({
        note: await expectRefused(ctx, list, INVALID_LIMITS),
        judged: true,
      }));
    },
  }),
];
