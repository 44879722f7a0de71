// Walks of a list following meta.nextPage, and first pages, as the pagination checks take them: one walk per (list,
// query, caps) and one answer per first-page request per run, shared by every check that judges it (issue 29).
// Whichever check asks first sends it (its exchanges hold the requests); every other check awaits the same answers,
// judges them itself, and records where the requests are.
import type { CheckContext } from '../../../src/engine/index.js';
import {
  idKey,
  isObject,
  judgeObserved,
  listPageOf,
  parseJson,
  pool,
  readLabel,
  sharedGet,
  takeShared,
  walkPages,
  type HttpResponse,
  type ListPage,
  type Query,
  type SharedStore,
  type WalkResult,
} from '../../kit/index.js';
import { WALK_LIMIT } from './limits.js';
import type { ListEndpoint, ReadList } from './lists.js';

/** Bounds of one walk: the fixture's 250 transactions fit easily; a longer list is checked in part, never endlessly. */
const WALK_CAPS = { maxPages: 60, maxItems: 12_000 } as const;

/** What explain.sends says of a walk: one walk per run, sent by the first check that asks for it. */
export const SHARED_WALKS =
  '; each walk is taken once in a run and shared by the pagination checks that judge it: sent by whichever asks first (its exchanges hold the requests), the others judge its pages and name that check and the exchanges';

/** What explain.sends says of a first page: one answer per run, sent by the first check that asks for it. */
export const SHARED_PAGES =
  '; each first page is asked for once in a run and shared by the pagination checks that judge it: sent by whichever asks first, the others judge its answer and name that check and the exchange';

/** A limit that gives a list of `size` items several pages (three or more where it has three items). */
export function severalPagesLimit(size: number): number {
  return Math.max(1, Math.min(WALK_LIMIT, Math.floor(size / 3)));
}

/**
 * How a page of a shared walk was served: a list page; a 404 past the end once totalCount items are in (what a page
 * past the end gives is not shown, so it ends the walk and is not judged); or no list page (a status other than 200,
 * no JSON object, data no array), which ends the walk and fails each check that judges it, at that page.
 */
type PageKind = 'list' | 'past-end' | 'no-list';

interface SharedWalk {
  result: WalkResult<HttpResponse>;
  kinds: PageKind[];
}

/**
 * The pagination suite's state in one run: the walks and the first pages every check reads, each started by whichever
 * check asks first.
 */
interface PaginationState {
  walks: SharedStore<SharedWalk>;
  pages: SharedStore<HttpResponse>;
}

export const lifecycle = {
  setup: (): PaginationState => ({ walks: new Map(), pages: new Map() }),
};

const stateOf = (ctx: CheckContext) => ctx.state as PaginationState;

export function walk(
  ctx: CheckContext,
  list: ListEndpoint,
  extra: Query = {},
  caps: { maxPages?: number } = {},
): Promise<WalkResult<HttpResponse>> {
  return sharedWalk(ctx, list.path, { ...list.query, ...extra }, list.idField, { ...WALK_CAPS, ...caps });
}

/** A walk over several pages where the list has two items or more; the default first page otherwise. */
export function walkSeveral(ctx: CheckContext, list: ReadList, extra: Query = {}): Promise<WalkResult<HttpResponse>> {
  return walk(ctx, list, list.size >= 2 ? { limit: severalPagesLimit(list.size), ...extra } : extra);
}

/**
 * The run's walk of `path` with `query` at these caps, sent by whichever check asks first (see takeShared). Each check
 * judges every page of the walk itself (the status, the envelope, data an array), as a walk of its own would have, so
 * its findings and what it also saw stay its own.
 */
async function sharedWalk(
  ctx: CheckContext,
  path: string,
  query: Query,
  idField: string,
  caps: { maxPages: number; maxItems: number },
): Promise<WalkResult<HttpResponse>> {
  const key = `${readLabel(path, query)} id=${idField} pages<=${caps.maxPages} items<=${caps.maxItems}`;
  const { value: shared } = await takeShared(ctx, stateOf(ctx).walks, key, () =>
    runWalk(ctx, path, query, idField, caps),
  );
  judgePages(ctx, path, shared);
  // Its owner too: its first page may be another check's.
  recordShared(ctx, shared);
  return shared.result;
}

/** The run's answer to GET `path` with `query` (a first page: no page parameter), sent by whichever asks first. */
export function sharedFirstPage(ctx: CheckContext, path: string, query: Query): Promise<HttpResponse> {
  return sharedGet(ctx, stateOf(ctx).pages, path, query);
}

/**
 * The run's first page of `path` with `query` read as a list page (200, the envelope, data an array); a failure that
 * names an exchange another check sent joins it to this check's (see judgeObserved).
 */
export async function sharedListPage(ctx: CheckContext, path: string, query: Query): Promise<ListPage> {
  const res = await sharedFirstPage(ctx, path, query);
  return judgeObserved(ctx, res, () => listPageOf(ctx, res, path));
}

async function runWalk(
  ctx: CheckContext,
  path: string,
  query: Query,
  idField: string,
  caps: { maxPages: number; maxItems: number },
): Promise<SharedWalk> {
  const kinds: PageKind[] = [];
  let collected = 0;
  let total: number | undefined;
  const result = await walkPages<HttpResponse>(
    async (page) => {
      // The first page is the run's first page of that query, which other checks read alone too.
      const res =
        page === undefined
          ? await sharedFirstPage(ctx, path, query)
          : await ctx.send({ method: 'GET', path, query: { ...query, page } });
      if (res.status === 404 && page !== undefined && total !== undefined && collected >= total) {
        kinds.push('past-end');
        return { response: res, items: [], meta: undefined };
      }
      const parsed = parseJson(res.text);
      if (res.status !== 200 || !parsed.ok || !isObject(parsed.value) || !Array.isArray(parsed.value.data)) {
        kinds.push('no-list');
        return { response: res, items: [], meta: undefined };
      }
      kinds.push('list');
      const items = parsed.value.data as unknown[];
      const meta = isObject(parsed.value.meta) ? parsed.value.meta : undefined;
      collected += items.length;
      if (total === undefined && typeof meta?.totalCount === 'number') total = meta.totalCount;
      return { response: res, items, meta };
    },
    { ...caps, idOf: (item) => idKey(item, idField) },
  );
  return { result, kinds };
}

/** Every page as a walk of the check's own judges it while walking (walkList): 200, the envelope, data an array. */
function judgePages(ctx: CheckContext, path: string, shared: SharedWalk): void {
  shared.result.pages.forEach((p, i) => {
    // A page another check sent joins this check's exchanges when its failure names it.
    if (shared.kinds[i] !== 'past-end') judgeObserved(ctx, p.response, () => listPageOf(ctx, p.response, path));
  });
}

/** Where the requests of a walk another check sent are, so a reviewer finds the evidence. */
function recordShared(ctx: CheckContext, shared: SharedWalk): void {
  for (const p of shared.result.pages) ctx.judgedShared(p.response.exchange);
}

/**
 * Independent work (the lists of a check, the walks of a list) run side by side, then read in the order given: the
 * first failure in that order is the one reported, as when they ran one after another.
 */
export function inOrder<T>(work: ReadonlyArray<Promise<T>>): Promise<T[]> {
  return pool(work, work.length, (w) => w);
}

/**
 * The pages of a walk the server served as list pages: a walk whose last nextPage points past the end may end on a
 * 404 there (what a page past the end gives is open), which is no page and has no meta to judge.
 */
export const served = (walk: WalkResult<HttpResponse>): WalkResult<HttpResponse>['pages'] =>
  walk.pages.filter((p) => p.response.status === 200);
