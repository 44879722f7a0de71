// "Pagination and sorting (list endpoints)". `page` is a 0-based page index (the spec's "page offset" reads either
// way; clients must follow meta.nextPage). The order is total: createdAt, then the resource id, so a page walk never
// skips or repeats an item even where createdAt ties.
//
// Lists are kept in that order by the store and a page is cut from them by position, DESC counting from the end: a
// request costs what its page holds, not what the list holds, so walking a list of n items is linear in n.
import type { PageMeta } from './respond.js';
import { badRequest, notFound, okList, type Reply } from './respond.js';
import { optionalQuery, parseInteger } from './params.js';
import type { Choices } from './choices/index.js';

const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

export interface Paging {
  page: number;
  limit: number;
  sort: 'ASC' | 'DESC';
}

export function parsePaging(query: URLSearchParams, choices: Pick<Choices, 'defaultSort'>): Paging {
  const pageText = optionalQuery(query, 'page');
  const limitText = optionalQuery(query, 'limit');
  const sortText = optionalQuery(query, 'sort');
  const page = pageText === undefined ? 0 : parseInteger(pageText, 'page');
  if (page < 0) throw badRequest('page must be an integer >= 0');
  const limit = limitText === undefined ? DEFAULT_LIMIT : parseInteger(limitText, 'limit');
  if (limit < 1 || limit > MAX_LIMIT) throw badRequest(`limit must be an integer from 1 to ${MAX_LIMIT}`);
  // Case-sensitive, as the spec writes the enum: a client sending "desc" learns it now, not from a strict server later.
  if (sortText !== undefined && sortText !== 'ASC' && sortText !== 'DESC') throw badRequest('sort must be ASC or DESC');
  return { page, limit, sort: sortText ?? choices.defaultSort };
}

export interface Page<T> {
  items: T[];
  meta: PageMeta;
}

/** Records in list order: createdAt, then the resource id, ascending. */
export function inListOrder<T extends { createdAt: number }>(records: Iterable<T>, idOf: (item: T) => number): T[] {
  return [...records].sort((a, b) => a.createdAt - b.createdAt || idOf(a) - idOf(b));
}

/**
 * One page of a list given in list order (see inListOrder), its items copied so a caller may edit them. In `index`
 * mode page is a 0-based page number; in `offset` mode it is the index of the first item. previousPage is 0 on the first
 * page; nextPage equals currentPage on the last page (and past it), since the spec wants integers >= 0 everywhere and
 * has no null. A page past the end is empty, not an error.
 */
export function paginate<T>(ascending: readonly T[], paging: Paging, choices: Pick<Choices, 'pageMode'>): Page<T> {
  const total = ascending.length;
  const step = choices.pageMode === 'index' ? 1 : paging.limit;
  const start = choices.pageMode === 'index' ? paging.page * paging.limit : paging.page;
  const items: T[] = [];
  for (let i = start; i < Math.min(total, start + paging.limit); i++) {
    items.push(structuredClone(ascending[paging.sort === 'ASC' ? i : total - 1 - i]!));
  }
  const hasNext = start + paging.limit < total;
  return {
    items,
    meta: {
      previousPage: Math.max(0, paging.page - step),
      currentPage: paging.page,
      nextPage: hasNext ? paging.page + step : paging.page,
      limit: paging.limit,
      currentCount: items.length,
      totalCount: total,
      sort: paging.sort,
    },
  };
}

/**
 * A page of a list endpoint as the server's choices show it (the USSD menus use `paginate` alone): what nextPage says
 * on the last page (`lastNextPage`: the page itself, the page past the end, or back to the first) and what a page
 * past the end is (`pastEnd`: an empty page, or a 404). Items are shown through `view`.
 */
export function listReply<T>(
  ascending: readonly T[],
  paging: Paging,
  choices: Pick<Choices, 'pageMode' | 'lastNextPage' | 'pastEnd'>,
  view: (item: T) => unknown = (x) => x,
): Reply {
  const page = paginate(ascending, paging, choices);
  if (choices.pastEnd === '404' && paging.page > 0 && page.items.length === 0) throw notFound();
  const meta = { ...page.meta };
  if (meta.nextPage === meta.currentPage) {
    const step = choices.pageMode === 'index' ? 1 : paging.limit;
    if (choices.lastNextPage === 'past') meta.nextPage = meta.currentPage + step;
    else if (choices.lastNextPage === 'first') meta.nextPage = 0;
  }
  return okList(page.items.map(view), meta);
}
