// How the pagination checks fail, and read and write down the values of meta.
import type { CheckContext } from '../../../src/engine/index.js';
import { cite, describeResponse, isObject, parseJson, type HttpResponse } from '../../kit/index.js';

export function fail(
  ctx: CheckContext,
  res: HttpResponse,
  message: string,
  expected: string,
  requirements?: string[],
): never {
  return ctx.fail(message, {
    expected,
    observed: describeResponse(res),
    // The check's own exchange, or an observed one (a judge of traffic), which joins them here.
    exchange: cite(ctx, res),
    ...(requirements ? { requirements } : {}),
    ...(ctx.check.id !== META_OWNER && /\bmeta\b/.test(message) && !hasMeta(res) ? { cause: NO_META } : {}),
  });
}

/**
 * One cause, one failure: a list answer without meta fails pagination.meta.present (REQ-ENV-05); a check that needs a
 * field of meta and finds none gives up on it rather than failing for the same missing object, unless the owner saw
 * meta everywhere it looked.
 */
const META_OWNER = 'pagination.meta.present';
const NO_META = { ownedBy: META_OWNER, requirements: ['REQ-ENV-05'] };

function hasMeta(res: HttpResponse): boolean {
  const parsed = parseJson(res.text);
  return parsed.ok && isObject(parsed.value) && isObject(parsed.value.meta);
}

export function num(meta: Record<string, unknown> | undefined, field: string): number | undefined {
  const v = meta?.[field];
  return typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined;
}

/** Writes down values that are not integers, ids, etc. as the reviewer would: short. */
export function show(v: unknown): string {
  return v === undefined ? 'absent' : JSON.stringify(v);
}
