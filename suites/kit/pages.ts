// A bounded walk of a paged list that follows meta.nextPage. The spec calls every page value a "page offset", which
// reads as a page index or as an item offset (GUIDE), so the walk never computes a page number: it asks for what the
// server names as next, and stops at the end, on a loop, or at its caps, whichever comes first. A broken or hostile
// server gets a clear verdict, never an endless walk.

/** One page as the caller fetched it: the items of `data` and the `meta` object (undefined when there is none). */
export interface PageFetch<R> {
  response: R;
  items: unknown[];
  meta: Record<string, unknown> | undefined;
}

type StopReason =
  /** nextPage names the page just fetched (how a server says "no more"). */
  | 'last-page'
  /** A page came back with no items. */
  | 'empty-page'
  /** nextPage names a page fetched earlier in this walk: following it would loop. */
  | 'revisit'
  /** meta.nextPage is missing or not an integer >= 0: there is nothing to follow. */
  | 'no-next-page'
  /**
   * nextPage still advances after twice the pages totalCount needs (plus slack), at the page size of the first page:
   * meta.limit, or the items the first page holds when it holds fewer while more remain.
   */
  | 'overrun'
  /** The walk fetched as many pages as the caller allows (maxPages). */
  | 'page-cap'
  /** The walk collected as many items as it may. */
  | 'item-cap';

interface WalkedPage<R> {
  /** The page value sent; undefined for a first request without `page`. */
  requested: number | undefined;
  response: R;
  items: unknown[];
  meta: Record<string, unknown> | undefined;
}

interface Duplicate {
  id: string;
  /** Index in `pages` where the item was first seen, and where it came again. */
  firstPage: number;
  page: number;
}

export interface WalkResult<R> {
  pages: Array<WalkedPage<R>>;
  /** Every item, in the order the pages gave them (duplicates included). */
  items: unknown[];
  /** idOf of each item of `items` (undefined where there is none). */
  ids: Array<string | undefined>;
  duplicates: Duplicate[];
  stop: { reason: StopReason; detail: string };
  /** nextPage pointed back at a page already fetched (stop reason `revisit`). */
  loop: boolean;
  /** totalCount of the first page, when it is an integer. */
  totalCount: number | undefined;
  /** Pages a correct server needs for totalCount at the first page's limit (at least 1), when both are integers. */
  expectedPages: number | undefined;
  /** The walk stopped at the caller's caps (maxPages, maxItems): the server may have had more to give. */
  capped: boolean;
}

export interface WalkOptions {
  /** The first page to ask for; undefined sends no `page` (the server's first page). */
  start?: number;
  /** Most pages fetched; default 60. */
  maxPages?: number;
  /** Most items collected; default 10 000. */
  maxItems?: number;
  /**
   * Pages allowed beyond twice what totalCount and limit of the first page need; default 2. Twice, because "limit" is
   * a maximum and a server may fill pages less; the slack, because a server may end on an empty page.
   */
  slackPages?: number;
  /** The exact identity of an item (see idKey in http/json.ts), for finding duplicates. */
  idOf?: (item: unknown) => string | undefined;
}

const DEFAULT_MAX_PAGES = 60;
const DEFAULT_MAX_ITEMS = 10_000;
const DEFAULT_SLACK_PAGES = 2;

function pageValue(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined;
}

function positive(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : undefined;
}

function pagesFor(totalCount: number, pageSize: number): number {
  return Math.max(1, Math.ceil(Math.max(0, totalCount) / pageSize));
}

/**
 * The page size the walk is sized by: meta.limit, unless the first page holds fewer items while more remain. A server
 * whose meta.limit is not the limit it applies (a defect of meta.limit, judged elsewhere) must not make a complete
 * walk look endless.
 */
function servedPageSize(firstPageItems: number, limit: number, totalCount: number): number {
  return firstPageItems > 0 && firstPageItems < limit && firstPageItems < totalCount ? firstPageItems : limit;
}

export async function walkPages<R>(
  fetchPage: (page: number | undefined) => Promise<PageFetch<R>>,
  options: WalkOptions = {},
): Promise<WalkResult<R>> {
  const maxPages = Math.max(1, options.maxPages ?? DEFAULT_MAX_PAGES);
  const maxItems = Math.max(1, options.maxItems ?? DEFAULT_MAX_ITEMS);
  const slack = Math.max(0, options.slackPages ?? DEFAULT_SLACK_PAGES);
  const pages: Array<WalkedPage<R>> = [];
  const items: unknown[] = [];
  const ids: Array<string | undefined> = [];
  const duplicates: Duplicate[] = [];
  const firstSeen = new Map<string, number>();
  const visited = new Set<number>();
  let totalCount: number | undefined;
  let expectedPages: number | undefined;
  let pageSize: number | undefined;
  let budget = maxPages;
  let requested = options.start;

  const finish = (reason: StopReason, detail: string): WalkResult<R> => ({
    pages,
    items,
    ids,
    duplicates,
    stop: { reason, detail },
    loop: reason === 'revisit',
    totalCount,
    expectedPages,
    capped: reason === 'page-cap' || reason === 'item-cap',
  });

  for (;;) {
    const fetched = await fetchPage(requested);
    const index = pages.length;
    pages.push({ requested, response: fetched.response, items: fetched.items, meta: fetched.meta });
    for (const item of fetched.items) {
      const id = options.idOf?.(item);
      items.push(item);
      ids.push(id);
      if (id === undefined) continue;
      const seen = firstSeen.get(id);
      if (seen === undefined) firstSeen.set(id, index);
      else duplicates.push({ id, firstPage: seen, page: index });
    }
    const meta = fetched.meta;
    const current = pageValue(meta?.currentPage);
    if (requested !== undefined) visited.add(requested);
    if (current !== undefined) visited.add(current);
    if (index === 0) {
      totalCount =
        typeof meta?.totalCount === 'number' && Number.isSafeInteger(meta.totalCount) ? meta.totalCount : undefined;
      const limit = positive(meta?.limit);
      if (totalCount !== undefined && limit !== undefined) {
        expectedPages = pagesFor(totalCount, limit);
        pageSize = servedPageSize(fetched.items.length, limit, totalCount);
        budget = Math.min(maxPages, 2 * pagesFor(totalCount, pageSize) + slack);
      }
    }
    const where = `page ${pages.length} (page=${requested ?? '(none)'})`;
    if (fetched.items.length === 0) return finish('empty-page', `${where} has no items`);
    const next = pageValue(meta?.nextPage);
    if (next === undefined)
      return finish(
        'no-next-page',
        `${where}: meta.nextPage is ${meta === undefined ? 'absent (no meta)' : (JSON.stringify(meta.nextPage) ?? 'absent')}, not an integer >= 0`,
      );
    if (next === requested || next === current)
      return finish('last-page', `${where}: nextPage ${next} names the page itself`);
    if (visited.has(next)) return finish('revisit', `${where}: nextPage ${next} names a page already fetched`);
    if (items.length >= maxItems) return finish('item-cap', `${items.length} items collected (cap ${maxItems})`);
    if (pages.length >= budget) {
      if (budget < maxPages) {
        return finish(
          'overrun',
          `${pages.length} pages fetched and nextPage still advances, while totalCount ${totalCount} at ${pageSize} items a page needs ${pagesFor(totalCount ?? 0, pageSize ?? 1)} page(s)`,
        );
      }
      return finish('page-cap', `${pages.length} pages fetched, the cap`);
    }
    requested = next;
  }
}

/** One line for a finding: how the walk went and why it ended. */
export function describeWalk(walk: WalkResult<unknown>): string {
  const distinct = new Set(walk.ids.filter((id): id is string => id !== undefined)).size;
  const requested = walk.pages.map((p) => (p.requested === undefined ? '-' : String(p.requested)));
  const shown = requested.length > 12 ? [...requested.slice(0, 6), '…', ...requested.slice(-5)] : requested;
  return (
    `${walk.pages.length} page(s) [page=${shown.join(',')}], ${walk.items.length} item(s), ${distinct} distinct, ` +
    `totalCount ${walk.totalCount ?? 'unknown'}; stopped: ${walk.stop.reason} (${walk.stop.detail})`
  );
}
