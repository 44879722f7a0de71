// Walks of a list following meta.nextPage, as the pagination checks take them.
import type { CheckContext } from '../../../src/engine/index.js';
import { walkList, type HttpResponse, type Query, type WalkResult } from '../../kit/index.js';
import { WALK_LIMIT } from './limits.js';
import type { ListEndpoint, ReadList } from './lists.js';

/** Bounds of one walk: the fixture's 250 transactions fit easily; a longer list is checked in part, never endlessly. */
const WALK_CAPS = { maxPages: 60, maxItems: 12_000 } as const;

/** A limit that gives a list of `size` items several pages (three or more where it has three items). */
export function severalPagesLimit(size: number): number {
  return Math.max(1, Math.min(WALK_LIMIT, Math.floor(size / 3)));
}

export function walk(
  ctx: CheckContext,
  list: ListEndpoint,
  extra: Query = {},
  caps: { maxPages?: number } = {},
): Promise<WalkResult<HttpResponse>> {
  return walkList(ctx, list.path, { ...list.query, ...extra }, { idField: list.idField, ...WALK_CAPS, ...caps });
}

/** A walk over several pages where the list has two items or more; the default first page otherwise. */
export function walkSeveral(ctx: CheckContext, list: ReadList, extra: Query = {}): Promise<WalkResult<HttpResponse>> {
  return walk(ctx, list, list.size >= 2 ? { limit: severalPagesLimit(list.size), ...extra } : extra);
}

/**
 * The pages of a walk the server served as list pages: a walk whose last nextPage points past the end may end on a
 * 404 there (what a page past the end gives is open), which is no page and has no meta to judge.
 */
export const served = (walk: WalkResult<HttpResponse>): WalkResult<HttpResponse>['pages'] =>
  walk.pages.filter((p) => p.response.status === 200);
