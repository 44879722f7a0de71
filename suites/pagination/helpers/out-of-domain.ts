// The Pagination table states each parameter's domain: page an integer >= 0, limit an integer from 1 to 1000, sort ASC
// or DESC. A value outside it is no request the endpoint serves, so it is refused (any 4xx: the status of a validation
// failure is not shown, whether to refuse is). Clamped, ignored or taken as the default, it is served as a request the
// client did not send; a 5xx is no refusal either.
import type { CheckContext } from '../../../src/engine/index.js';
import { expectRejection } from '../../kit/index.js';
import { SPEC_MAX_LIMIT } from './limits.js';
import type { ListEndpoint } from './lists.js';

export interface OutOfDomain {
  param: 'limit' | 'page' | 'sort';
  value: string;
}

export const outOf = (param: OutOfDomain['param'], values: string[]): OutOfDomain[] =>
  values.map((value) => ({ param, value }));

const DOMAIN: Record<OutOfDomain['param'], string> = {
  limit: `limit is an integer from 1 to ${SPEC_MAX_LIMIT}`,
  page: 'page is an integer >= 0',
  sort: 'sort is ASC or DESC',
};

/** Sends each value outside its domain on the list, and fails the check on the first that is not refused (any 4xx). */
export async function expectRefused(
  ctx: CheckContext,
  list: ListEndpoint,
  values: readonly OutOfDomain[],
): Promise<string> {
  const seen: string[] = [];
  for (const v of values) {
    const res = await ctx.send({ method: 'GET', path: list.path, query: { ...list.query, [v.param]: v.value } });
    expectRejection(ctx, res, `${list.label}&${v.param}=${v.value} is refused (any 4xx): ${DOMAIN[v.param]}`);
    seen.push(`${v.param}=${v.value}: ${res.status}`);
  }
  return seen.join(', ');
}
