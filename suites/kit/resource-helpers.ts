// Helpers the resources and pagination checks share: fetch a resource or a list page with its envelope, validate list
// items, walk a whole list (bounded), and compare resources field by field with ids compared exactly.
import type { HttpResponse, QueryValue } from '../../src/http/client.js';
import { idKey, parseJson, type UnsafeNumber } from '../../src/http/json.js';
import { schemaDocument, validateAgainst } from '../../src/schemas.js';
import type { CheckContext } from '../../src/engine/index.js';
import {
  describeResponse,
  expectStatus,
  fieldOf,
  isAbsence,
  noteAbsent,
  readEnvelope,
  rowsBroken,
  type AbsentTo,
} from './expect.js';
import { walkPages, type WalkOptions, type WalkResult } from './pages.js';

export type Query = Record<string, QueryValue>;

export interface Fetched {
  res: HttpResponse;
  env: Record<string, unknown>;
}

export interface ListPage extends Fetched {
  items: unknown[];
  /** meta when it is an object; its fields are checked by the pagination suite. */
  meta: Record<string, unknown> | undefined;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** GET of a single resource: 200, the envelope, and `data` an object. */
export async function getResource(
  ctx: CheckContext,
  path: string,
): Promise<Fetched & { data: Record<string, unknown> }> {
  return resourceOf(ctx, await ctx.send({ method: 'GET', path }), path);
}

/** An answer read as a single resource, as getResource reads it: 200, the envelope, and `data` an object. */
export function resourceOf(
  ctx: CheckContext,
  res: HttpResponse,
  path: string,
): Fetched & { data: Record<string, unknown> } {
  expectStatus(ctx, res, 200, `200 with the envelope for GET ${path}`);
  const got = { res, env: readEnvelope(ctx, res) };
  if (!isObject(got.env.data)) {
    ctx.fail('data is not an object', {
      expected: `data is the resource (an object) for GET ${path}`,
      observed: describeResponse(got.res),
      exchange: got.res.exchange,
    });
  }
  return { ...got, data: got.env.data };
}

/** An answer read as a list page, as walkList reads each: 200, the envelope, and `data` an array. */
export function listPageOf(ctx: CheckContext, res: HttpResponse, path: string): ListPage {
  expectStatus(ctx, res, 200, `200 with the envelope for GET ${path}`);
  const env = readEnvelope(ctx, res);
  if (!Array.isArray(env.data)) {
    ctx.fail('data of a list response is not an array', {
      expected: 'data is an array for list responses (Response envelope)',
      observed: describeResponse(res),
      exchange: res.exchange,
    });
  }
  return { res, env, items: env.data, meta: isObject(env.meta) ? env.meta : undefined };
}

/**
 * Each item of a list against its resource schema; a failure names the item's path and the spec table. With
 * `absentTo` (a table without a Required column), a field an item leaves out is recorded for its presence check, not
 * failed here.
 */
export function expectItems(
  ctx: CheckContext,
  res: HttpResponse,
  items: readonly unknown[],
  schema: string,
  table: string,
  absentTo?: AbsentTo,
): void {
  const every = items.flatMap((item, i) =>
    validateAgainst(schema, item, `data[${i}]`).map((p) => ({
      ...p,
      field: fieldOf(p.path, `data[${i}]`),
      absent: absentTo !== undefined && isAbsence(p.path, `data[${i}]`, item),
    })),
  );
  if (absentTo)
    noteAbsent(
      ctx,
      res,
      table,
      every.filter((p) => p.absent).map((p) => p.path),
      absentTo,
    );
  const problems = every.filter((p) => !p.absent);
  if (problems.length === 0) return;
  const listed = problems
    .slice(0, 5)
    .map((p) => `${p.path} ${p.message}`)
    .join('; ');
  const rows = rowsBroken(
    ctx,
    table,
    problems.map((p) => p.field),
  );
  ctx.fail(`${table}: ${listed}${problems.length > 5 ? ` (+${problems.length - 5} more)` : ''}`, {
    expected: `every item of data matches the spec's "${table}" table`,
    observed: describeResponse(res),
    exchange: res.exchange,
    ...(rows ? { requirements: rows } : {}),
  });
}

export interface WalkListOptions extends Omit<WalkOptions, 'idOf'> {
  /** The id member of an item (accountId, transactionId…): duplicates are found by its exact value. */
  idField: string;
}

/** Walks a list endpoint by following meta.nextPage; every page must be a 200 with the envelope and an array. */
export function walkList(
  ctx: CheckContext,
  path: string,
  query: Query,
  options: WalkListOptions,
): Promise<WalkResult<HttpResponse>> {
  const { idField, ...rest } = options;
  let collected = 0;
  let total: number | undefined;
  return walkPages(
    async (page) => {
      const res = await ctx.send({ method: 'GET', path, query: { ...query, page } });
      // What a page past the end gives is not shown: once totalCount items are in, a 404 there ends the walk too.
      if (res.status === 404 && page !== undefined && total !== undefined && collected >= total)
        return { response: res, items: [], meta: undefined };
      const got = listPageOf(ctx, res, path);
      collected += got.items.length;
      if (total === undefined && typeof got.meta?.totalCount === 'number') total = got.meta.totalCount;
      return { response: got.res, items: got.items, meta: got.meta };
    },
    { ...rest, idOf: (item) => idKey(item, idField) },
  );
}

/** The response of the walk's page that holds item number `index`, for evidence. */
export function pageOfItem<R>(walk: WalkResult<R>, index: number): R {
  let seen = 0;
  for (const p of walk.pages) {
    seen += p.items.length;
    if (index < seen) return p.response;
  }
  return walk.pages[walk.pages.length - 1]!.response;
}

/** The exact value of a member, for comparing: numbers and strings via idKey, anything else as JSON. */
export function exactValue(obj: Record<string, unknown>, field: string): string {
  if (!(field in obj)) return '(absent)';
  return idKey(obj, field) ?? JSON.stringify(obj[field]) ?? String(obj[field]);
}

/** The fields (of `fields`) whose values differ between two objects, compared exactly. */
export function differingFields(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
  fields: readonly string[],
): Array<{ field: string; a: string; b: string }> {
  return fields
    .map((field) => ({ field, a: exactValue(a, field), b: exactValue(b, field) }))
    .filter((d) => d.a !== d.b);
}

/** An id as a path segment: the exact digits of a number (never a rounded double), or the string, encoded. */
export function idSegment(obj: Record<string, unknown>, field: string): string | undefined {
  const v = obj[field];
  if (typeof v === 'string') return encodeURIComponent(v);
  if (typeof v === 'number') return idKey(obj, field);
  return undefined;
}

/** The member names a schema's table lists (its `properties`). */
export function schemaFields(schema: string): string[] {
  const s = schemaDocument(schema) as { properties?: Record<string, unknown> };
  return Object.keys(s.properties ?? {});
}

/** The fields of a spec table an object leaves out (undefined), and those it sends as null. */
export function fieldsNotGiven(obj: Record<string, unknown>, schema: string): { absent: string[]; nulls: string[] } {
  const fields = schemaFields(schema);
  return { absent: fields.filter((k) => obj[k] === undefined), nulls: fields.filter((k) => obj[k] === null) };
}

/** Members of an object that its spec table does not list. */
export function unknownFields(obj: unknown, schema: string): string[] {
  if (!isObject(obj)) return [];
  const known = new Set(schemaFields(schema));
  return Object.keys(obj).filter((k) => !known.has(k));
}

/** Integers a double cannot hold exactly, anywhere in a response body. */
export function unsafeNumbersOf(res: HttpResponse): UnsafeNumber[] {
  const parsed = parseJson(res.text);
  return parsed.ok ? parsed.unsafeNumbers : [];
}

/** Whether a sequence of createdAt values is ordered as `sort` says; the first offending position otherwise. */
export function orderBreak(values: readonly unknown[], sort: 'ASC' | 'DESC'): number | undefined {
  for (let i = 1; i < values.length; i++) {
    const a = values[i - 1];
    const b = values[i];
    if (typeof a !== 'number' || typeof b !== 'number') return i;
    if (sort === 'ASC' ? b < a : b > a) return i;
  }
  return undefined;
}

/** How a list of numbers is ordered: for INFO observations. */
export function orderOf(
  values: readonly unknown[],
): 'ascending' | 'descending' | 'constant' | 'unordered' | 'too short' {
  const nums = values.filter((v): v is number => typeof v === 'number');
  if (nums.length < 2) return 'too short';
  const asc = orderBreak(nums, 'ASC') === undefined;
  const desc = orderBreak(nums, 'DESC') === undefined;
  if (asc && desc) return 'constant';
  return asc ? 'ascending' : desc ? 'descending' : 'unordered';
}
