// Reads a check needs but does not judge: what was seen is recorded, the checks of that endpoint judge it.
import {
  describeResponse,
  isObject,
  parseJson,
  walkList,
  type HttpResponse,
  type Query,
  type WalkResult,
} from '../../kit/index.js';
import { CheckFailed, type CheckContext } from '../../../src/engine/index.js';
import { readOnce } from './fixture-reads.js';

/** Walks of a customer's lists stop here: enough for any fixture customer, bounded for a hostile server. */
export const WALK = { maxPages: 30, maxItems: 3000 } as const;

/** `data` of a 200 answer whose body is a JSON object; undefined otherwise. */
export function dataOf(res: HttpResponse): unknown {
  const parsed = parseJson(res.text);
  return res.status === 200 && parsed.ok && isObject(parsed.value) ? parsed.value.data : undefined;
}

/**
 * A resource a check needs but does not judge: its `data` object when the GET answered 200 with one, else undefined,
 * with what was seen recorded ("one cause, one failure": the resources.*.get checks judge the answer).
 */
export async function readLeniently(
  ctx: CheckContext,
  path: string,
): Promise<{ res: HttpResponse; data: Record<string, unknown> } | undefined> {
  const res = await readOnce(ctx, path);
  const data = dataOf(res);
  if (isObject(data)) return { res, data };
  ctx.observe(
    `also seen here, judged by the checks of that endpoint: GET ${path} gave no resource (${describeResponse(res)})`,
  );
  return undefined;
}

/** A list walk a check needs but does not judge: undefined (recorded) when a page is not a 200 list. */
export async function walkLeniently(
  ctx: CheckContext,
  path: string,
  query: Query,
  idField: string,
): Promise<WalkResult<HttpResponse> | undefined> {
  try {
    return await walkList(ctx, path, query, { idField, ...WALK });
  } catch (e) {
    if (!(e instanceof CheckFailed)) throw e;
    ctx.observe(`also seen here, judged by the list checks: GET ${path} could not be walked: ${e.finding.message}`);
    return undefined;
  }
}

/** The first page of a list a check needs but does not judge: undefined (recorded) when it is not a 200 list. */
export async function readListLeniently(
  ctx: CheckContext,
  path: string,
  query: Query,
): Promise<{ res: HttpResponse; items: unknown[] } | undefined> {
  const res = await readOnce(ctx, path, query);
  const data = dataOf(res);
  if (Array.isArray(data)) return { res, items: data };
  ctx.observe(`also seen here, judged by the list checks: GET ${path} gave no list (${describeResponse(res)})`);
  return undefined;
}
