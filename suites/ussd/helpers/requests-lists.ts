// The requests lists as a phone user reads them: the requests menu, its status filters, and every page of one list.
import { type CheckContext } from '../../../src/engine/index.js';
import { parseJson, type HttpResponse } from '../../kit/index.js';
import { differsOnlyInPage, followLink, mutationOf, normaliseUrl, scopeOf } from './url.js';
import { ussdUrl } from './shared-crawl.js';

export const ORDER_STATUSES = ['PENDING', 'COMPLETED', 'CANCELED', 'ERROR'] as const;

/** How many pages of one requests list the status checks and the order flow read at most. */
export const MAX_LIST_PAGES = 20;

/** optionUrls, and how many options lead nowhere below `{base_url}` (no URL, or none naming a USSD view). */
export function optionLinks(ctx: CheckContext, text: string, base: string): { urls: URL[]; unplaced: number } {
  const parsed = parseJson(text);
  const options = parsed.ok
    ? (parsed.value as { data?: { ussdOptions?: unknown } } | null)?.data?.ussdOptions
    : undefined;
  if (!Array.isArray(options)) return { urls: [], unplaced: 0 };
  const scope = scopeOf(ctx.target.baseUrl);
  const placed = options.map((o) => followLink((o as { requestUrl?: unknown } | null)?.requestUrl, base, scope)?.url);
  const urls = placed.filter((u): u is URL => u !== undefined);
  return { urls, unplaced: placed.length - urls.length };
}

export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** What a requests list offers, read over its pages. */
export interface RequestsListing {
  /** requestId → the answer of the page that offered it. */
  ids: Map<string, HttpResponse>;
  /** Pages that did not answer 200. */
  failed: HttpResponse[];
  /** The page cap stopped the walk: more requests may follow. */
  capped: boolean;
  /**
   * The status filters the list offers: options to the same view with a `status` it does not carry (and no requestId,
   * nothing that places or cancels), by URL.
   */
  filters: URL[];
  /** Options of its pages that lead nowhere below `{base_url}`: what they list cannot be read. */
  unplaced: number;
}

/** requestIds offered by a requests list, over its pages (followed by their links, never by assuming what page means). */
async function requestIdsListed(ctx: CheckContext, firstUrl: string): Promise<RequestsListing> {
  const listing: RequestsListing = { ids: new Map(), failed: [], capped: false, filters: [], unplaced: 0 };
  const seen = new Set<string>([firstUrl]);
  const filters = new Set<string>();
  const queue = [firstUrl];
  for (let read = 0; queue.length > 0; read++) {
    if (read === MAX_LIST_PAGES) {
      listing.capped = true;
      break;
    }
    const url = queue.shift()!;
    const res = await ctx.send({ method: 'GET', path: url });
    if (res.status !== 200) {
      listing.failed.push(res);
      continue;
    }
    const here = new URL(url);
    const { urls, unplaced } = optionLinks(ctx, res.text, url);
    listing.unplaced += unplaced;
    for (const u of urls) {
      if (mutationOf(u)) continue;
      const id = u.searchParams.get('requestId');
      if (id !== null) {
        if (!listing.ids.has(id)) listing.ids.set(id, res);
      } else if (differsOnlyInPage(here, u)) {
        if (!seen.has(u.href)) {
          seen.add(u.href);
          queue.push(u.href);
        }
      } else if (isFilterOf(u, here) && !filters.has(normaliseUrl(u))) {
        filters.add(normaliseUrl(u));
        listing.filters.push(u);
      }
    }
  }
  return listing;
}

/** A link from the list at `list` to the same view narrowed by a `status` the list does not carry: a status filter. */
function isFilterOf(u: URL, list: URL): boolean {
  return (
    u.origin === list.origin &&
    u.pathname === list.pathname &&
    u.searchParams.has('status') &&
    !list.searchParams.has('status')
  );
}

/** The requests the requests menu lists, and how it was read. */
interface MenuRequests extends RequestsListing {
  /** The menu's own status filters, when it lists no request itself and they were read instead ("1) Pending … 4) Failed"). */
  through: URL[];
}

/**
 * The requests the unfiltered requests menu lists: on its pages or, when it lists none itself but offers status
 * filters (a menu of "1) Pending … 4) Failed", which the spec allows: what the menu shows is not given), under those
 * filters, each read over its pages, as a phone user would reach them.
 */
export async function requestsOfMenu(ctx: CheckContext, customerId: number): Promise<MenuRequests> {
  const own = await requestIdsListed(ctx, ussdUrl(ctx, 'requests', { customerId }));
  if (own.ids.size > 0 || own.filters.length === 0 || own.failed.length > 0 || own.capped)
    return { ...own, through: [] };
  const out: MenuRequests = {
    ids: new Map(),
    failed: [],
    capped: false,
    filters: own.filters,
    unplaced: own.unplaced,
    through: own.filters,
  };
  for (const filter of own.filters) {
    const l = await requestIdsListed(ctx, filter.href);
    for (const [id, res] of l.ids) if (!out.ids.has(id)) out.ids.set(id, res);
    out.failed.push(...l.failed);
    out.capped ||= l.capped;
    out.unplaced += l.unplaced;
  }
  return out;
}

export async function listingsByStatus(
  ctx: CheckContext,
  customerId: number,
  statuses: readonly OrderStatus[],
): Promise<Map<OrderStatus, RequestsListing>> {
  const out = new Map<OrderStatus, RequestsListing>();
  for (const status of statuses)
    out.set(status, await requestIdsListed(ctx, ussdUrl(ctx, 'requests', { customerId, status })));
  return out;
}
