// The list endpoints every pagination check judges, their plain first pages read as lists, and the loop that
// judges a rule on each of them.
import type { CheckContext } from '../../../src/engine/index.js';
import {
  isObject,
  observedAnswers,
  observedLine,
  observedPath,
  parseJson,
  readEnvelope,
  type HttpResponse,
  type ListPage,
  type Query,
} from '../../kit/index.js';
import { num } from './findings.js';
import { inOrder, sharedFirstPage } from './walks.js';

export interface ListEndpoint {
  /** How findings name the list: its request without paging parameters. */
  label: string;
  path: string;
  query: Query;
  /** The id member of an item: duplicates and page contents are compared by its exact value. */
  idField: string;
}

/** A list whose plain request (no page, limit or sort) answered 200 with a list. */
export interface ReadList extends ListEndpoint {
  first: ListPage;
  /** totalCount of the plain first page, when it is an integer. */
  total: number | undefined;
  /** How many items the list is known to hold: totalCount, or the items of the first page without it. */
  size: number;
}

function endpoint(path: string, query: Query, idField: string): ListEndpoint {
  return {
    label: `GET ${path}?${Object.entries(query)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join('&')}`,
    path,
    query,
    idField,
  };
}

/** The long list: the pagination customer's transactions (250 on the reference server). */
export function transactionsList(ctx: CheckContext): ListEndpoint {
  return endpoint('/transactions', { customerId: ctx.fixture('paginationCustomerId') }, 'transactionId');
}

/** Every list endpoint, the long one first; a missing fixture skips the check with the fixture named. */
export function listEndpoints(ctx: CheckContext): ListEndpoint[] {
  return [
    transactionsList(ctx),
    endpoint('/accounts', { customerId: ctx.fixture('customerId') }, 'accountId'),
    endpoint('/instruments', { investmentType: 'INTERNATIONAL_STOCKS' }, 'instrumentId'),
  ];
}

/** A 200 answer read as a list page: the envelope read leniently, `data` an array; undefined when it is no list. */
export function asListPage(ctx: CheckContext, res: HttpResponse): ListPage | undefined {
  const parsed = parseJson(res.text);
  if (res.status !== 200 || !parsed.ok || !isObject(parsed.value) || !Array.isArray(parsed.value.data))
    return undefined;
  const env = readEnvelope(ctx, res);
  return { res, env, items: env.data as unknown[], meta: isObject(env.meta) ? env.meta : undefined };
}

export function withFirstPage(list: ListEndpoint, first: ListPage): ReadList {
  const total = num(first.meta, 'totalCount');
  return { ...list, first, total, size: total !== undefined && total >= 0 ? total : first.items.length };
}

/** The list's plain first page (the run's, see sharedFirstPage), or why it is not a list. */
async function readList(ctx: CheckContext, list: ListEndpoint): Promise<ReadList | string> {
  const res = await sharedFirstPage(ctx, list.path, list.query);
  const first = asListPage(ctx, res);
  return first === undefined
    ? `${list.label} answered ${res.status === 200 ? '200 without a list in data' : res.status}`
    : withFirstPage(list, first);
}

interface Judged {
  /** What was seen on this list, for the check's observation. */
  note: string;
  /** Whether the list allowed judging the check's rule (its size, its createdAt values). */
  judged: boolean;
}

/**
 * Judges every list endpoint with `judge`, which fails the check on a violation. Records what each list showed;
 * ends skipped when a list could not be read or no list allowed judging the rule, since the rule was then not judged
 * everywhere it applies.
 */
export async function onEveryList(ctx: CheckContext, judge: (list: ReadList) => Promise<Judged>): Promise<void> {
  const notes: string[] = [];
  const unread: string[] = [];
  let judged = 0;
  // The lists are independent: read and judged side by side, then taken in list order, so the first failure in that
  // order is the one reported and the observation reads as when they were judged one after another.
  const outcomes = await inOrder(
    listEndpoints(ctx).map(async (endpoint): Promise<string | { list: ReadList; result: Judged }> => {
      const list = await readList(ctx, endpoint);
      return typeof list === 'string' ? list : { list, result: await judge(list) };
    }),
  );
  for (const outcome of outcomes) {
    if (typeof outcome === 'string') {
      unread.push(outcome);
      continue;
    }
    const { list, result } = outcome;
    notes.push(`${list.label}: ${result.note}`);
    if (result.judged) {
      judged++;
      ctx.judged(list.label);
    }
  }
  if (notes.length > 0) ctx.observe(notes.join('; '));
  if (unread.length > 0) {
    ctx.skip(
      `${unread.join('; ')}: not judged on that list, whose own answer the resources checks judge${notes.length > 0 ? ' (the other lists passed)' : ''}`,
    );
  }
  if (judged === 0)
    ctx.skip(`no list was long enough, or varied enough in createdAt, to judge this rule: ${notes.join('; ')}`);
}

export function createdAtOf(items: readonly unknown[]): unknown[] {
  return items.map((t) => (isObject(t) ? t.createdAt : undefined));
}

/** A page of a list seen in observed traffic (a judge of traffic). */
export interface ObservedPage {
  /** How findings name it: the exchange's number, and its request as sent. */
  label: string;
  response: HttpResponse;
  items: unknown[];
  /** meta as the body carries it, whatever its type; undefined when absent. */
  meta: unknown;
}

const LIST_PATHS = new Set(['/accounts', '/transactions', '/instruments']);

/** The meta of an observed page, where it is an object. */
export function metaOf(page: ObservedPage): Record<string, unknown> | undefined {
  return isObject(page.meta) ? page.meta : undefined;
}

/** A query parameter of an observed page's request: null when it was not sent. */
export function askedOf(page: ObservedPage, param: string): string | null {
  return new URL(page.response.exchange.request.url).searchParams.get(param);
}

/** Every 200 answer of GET /accounts, /transactions or /instruments in observed traffic whose data is a list. */
export function observedListPages(ctx: CheckContext): ObservedPage[] {
  return observedAnswers(
    ctx,
    '200 answer of a list endpoint',
    (res) =>
      res.status === 200 && res.exchange.request.method === 'GET' && LIST_PATHS.has(observedPath(ctx, res) ?? ''),
  ).flatMap((res) => {
    const parsed = parseJson(res.text);
    const body = parsed.ok && isObject(parsed.value) ? parsed.value : undefined;
    if (!Array.isArray(body?.data)) return [];
    return [
      {
        label: `${observedLine(ctx, res)}${new URL(res.exchange.request.url).search}`,
        response: res,
        items: body.data,
        meta: body.meta,
      },
    ];
  });
}

/**
 * The pairs of observed pages where the second was asked for as the first's meta.nextPage, the rest of the query the
 * same: two pages of one walk, as a client following nextPage asks for them. Only a nextPage ahead of currentPage
 * makes a pair: a last page's nextPage may name itself or lead back to the first (the spec leaves it open), and a page
 * index and an item offset both grow along a walk. A currentPage below 0 names no page ("page >= 0"): such a page is on
 * no walk, and its meta is pagination.meta.present's to fail (one cause, one failure).
 */
export function followedPages(pages: readonly ObservedPage[]): Array<[ObservedPage, ObservedPage]> {
  const listOf = (p: ObservedPage) => {
    const url = new URL(p.response.exchange.request.url);
    url.searchParams.delete('page');
    url.searchParams.sort();
    return url.href;
  };
  const pairs: Array<[ObservedPage, ObservedPage]> = [];
  pages.forEach((after, i) => {
    const asked = askedOf(after, 'page');
    if (asked === null) return;
    const before = pages.slice(0, i).findLast((p) => {
      const meta = metaOf(p);
      return (
        listOf(p) === listOf(after) &&
        typeof meta?.nextPage === 'number' &&
        typeof meta.currentPage === 'number' &&
        meta.currentPage >= 0 &&
        meta.nextPage > meta.currentPage &&
        String(meta.nextPage) === asked
      );
    });
    if (before !== undefined) pairs.push([before, after]);
  });
  return pairs;
}
