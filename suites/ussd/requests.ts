// Area `ussd.requests`: the requests list's status filters.
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import { expectSchema, expectStatus, readEnvelope, type HttpResponse } from '../kit/index.js';
import {
  MAX_LIST_PAGES,
  ORDER_STATUSES,
  listingsByStatus,
  requestsOfMenu,
  type OrderStatus,
  type RequestsListing,
} from './helpers/requests-lists.js';

/** The status checks read up to nine requests lists (each filter twice, and the unfiltered one) of that many pages. */
const LISTS_CHECK_TIMEOUT_MS = 90_000;

/** "status=PENDING, status=COMPLETED": the filters by their status. */
function filterNames(filters: readonly URL[]): string {
  return filters.map((u) => `status=${u.searchParams.getAll('status').join(',')}`).join(', ');
}

/** Filters that did not answer 200 on some page are judged by ussd.requests.status-filters; here they are noted. */
function unreadFilters(ctx: CheckContext, listings: Map<OrderStatus, RequestsListing>): OrderStatus[] {
  const unread: OrderStatus[] = [];
  for (const [status, l] of listings) {
    if (l.failed.length === 0 && !l.capped) continue;
    unread.push(status);
    const why = l.capped
      ? `has more than ${MAX_LIST_PAGES} pages`
      : `answered ${l.failed.map((r) => r.status).join(', ')}`;
    ctx.observe(`status=${status} ${why}: not read whole (a failed filter is judged by ussd.requests.status-filters)`);
  }
  return unread;
}

function idsText(ids: Iterable<string>, max = 5): string {
  const all = [...ids];
  return all.length === 0 ? 'none' : `${all.slice(0, max).join(', ')}${all.length > max ? `, … (${all.length})` : ''}`;
}

/** requestIds listed under more than one filter, each with those filters (in the spec's order). */
function listedTwice(listings: Map<OrderStatus, RequestsListing>): Map<string, OrderStatus[]> {
  const under = new Map<string, OrderStatus[]>();
  for (const status of ORDER_STATUSES)
    for (const id of listings.get(status)?.ids.keys() ?? []) under.set(id, [...(under.get(id) ?? []), status]);
  return new Map([...under].filter(([, statuses]) => statuses.length > 1));
}

function filtersText(statuses: readonly OrderStatus[]): string {
  return statuses.map((s) => `status=${s}`).join(' and ');
}

function requestLine(res: HttpResponse): string {
  return `GET ${res.exchange.request.url}`;
}

export const requestsChecks = [
  defineCheck({
    id: 'ussd.requests.status-filters',
    title: 'The requests menu answers a USSD view for each status filter: PENDING, COMPLETED, CANCELED, ERROR',
    level: 'MUST',
    requirements: ['REQ-STATE-03', 'REQ-USSD-01', 'REQ-USSD-12', 'REQ-USSD-17'],
    explain: {
      sends:
        'GET /ussd/requests for the fixture customer with status=PENDING, COMPLETED, CANCELED and ERROR, one at a time',
      passes: 'each answers 200 with a USSD view: the envelope, data = {ussdMessage, ussdOptions}',
      fails:
        'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
    },
    async run(ctx) {
      const customerId = ctx.fixture('customerId');
      for (const status of ORDER_STATUSES) {
        const res = await ctx.send({ method: 'GET', path: '/ussd/requests', query: { customerId, status } });
        expectStatus(ctx, res, 200, `200 with the requests menu filtered by status=${status}`);
        const env = readEnvelope(ctx, res);
        expectSchema(ctx, res, env.data, 'ussd-view', { path: 'data', table: 'USSD view' });
        ctx.judged(`GET /ussd/requests?status=${status}`);
      }
    },
  }),
  defineCheck({
    id: 'ussd.requests.status-disjoint',
    title:
      'A request is listed under one status filter at most: the requestIds offered under PENDING, COMPLETED, CANCELED and ERROR are disjoint',
    level: 'MUST',
    requirements: ['REQ-STATE-03', 'REQ-USSD-17'],
    explain: {
      sends: `the requests menu of the fixture customer under each status filter (PENDING, COMPLETED, CANCELED, ERROR), every page followed (at most ${MAX_LIST_PAGES}); the filters that list a request twice are read again, in the reverse order`,
      passes:
        "the server's answers show that a request is listed under one status filter at most: the requestIds offered under PENDING, COMPLETED, CANCELED and ERROR are disjoint",
      fails:
        'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
    },
    timeoutMs: LISTS_CHECK_TIMEOUT_MS,
    async run(ctx) {
      const customerId = ctx.fixture('customerId');
      const first = await listingsByStatus(ctx, customerId, ORDER_STATUSES);
      unreadFilters(ctx, first);
      ctx.observe(
        `requestIds listed: ${[...first].map(([status, l]) => `status=${status}: ${idsText(l.ids.keys())}`).join('; ')}`,
      );
      const listing = [...first].filter(([, l]) => l.ids.size > 0).map(([status]) => status);
      const unplaced = [...first.values()].reduce((n, l) => n + l.unplaced, 0);
      if (listing.length < 2 && unplaced > 0)
        ctx.skip(
          `the status filters list ${listing.length === 0 ? 'no request' : `requests under status=${listing[0]} only`} that could be read: ${unplaced} of their options lead outside {base_url} to no USSD view (judged by ussd.options.request-url), so which requests they list is not known`,
        );
      if (listing.length < 2) {
        ctx.skip(
          `customer ${customerId} has requests under ${listing.length === 0 ? 'no status filter' : `status=${listing[0]} only`}: two filters cannot list the same request, so the rule cannot be judged (a fixture customer with requests in two statuses can)`,
          { kind: 'fixture', fixture: 'customerId' },
        );
      }
      // Each request listed under some filter is a subject: it is looked for under the other three.
      ctx.judged(
        'request listed under a status filter',
        new Set([...first.values()].flatMap((l) => [...l.ids.keys()])).size,
      );
      const suspects = listedTwice(first);
      if (suspects.size === 0) return;
      // A request may change status between two reads (PENDING, then COMPLETED, read in that order): the filters
      // involved are read again in the reverse order, and only a request listed twice both times fails.
      const involved = ORDER_STATUSES.filter((s) =>
        [...suspects.values()].some((statuses) => statuses.includes(s)),
      ).reverse();
      const again = await listingsByStatus(ctx, customerId, involved);
      const confirmed = [...listedTwice(again)];
      if (confirmed.length === 0) {
        ctx.observe(
          `listed under two filters on a first read, under one on a second (a status changed in between): ${[...suspects].map(([id, s]) => `${id} (${s.join(', ')})`).join('; ')}`,
        );
        return;
      }
      const [id, statuses] = confirmed[0]!;
      ctx.fail(`request ${id} is listed under ${filtersText(statuses)}`, {
        expected:
          'each requestId under one status filter at most: a request has one status, PENDING, COMPLETED, CANCELED or ERROR',
        observed: [
          ...statuses.slice(1).map((s) => `${requestLine(again.get(s)!.ids.get(id)!)} offers requestId ${id} too`),
          ...confirmed.slice(1, 6).map(([other, s]) => `request ${other}: ${filtersText(s)}`),
          ...(confirmed.length > 6 ? [`… and ${confirmed.length - 6} more requests`] : []),
        ].join('\n'),
        exchange: again.get(statuses[0]!)!.ids.get(id)!.exchange,
      });
    },
  }),
  defineCheck({
    id: 'ussd.requests.status-covered',
    title:
      'Every request the requests menu lists is listed under the status filter of one of PENDING, COMPLETED, CANCELED, ERROR',
    level: 'MUST',
    requirements: ['REQ-STATE-03', 'REQ-USSD-17'],
    explain: {
      sends: `the unfiltered requests menu of the fixture customer (and, when it lists no request itself but offers status filters, each of them) and the menu under each status filter, every page followed (at most ${MAX_LIST_PAGES}); the filters are read a second time, in the reverse order, when a request is under none`,
      passes:
        "the server's answers show that every request the requests menu lists is listed under the status filter of one of PENDING, COMPLETED, CANCELED, ERROR",
      fails:
        'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
    },
    timeoutMs: LISTS_CHECK_TIMEOUT_MS,
    async run(ctx) {
      // The four statuses are all there are: a request that no filter lists has another status, or a filter misses it.
      // Whether the unfiltered menu lists every request is not shown; only the requests it does list are judged.
      const customerId = ctx.fixture('customerId');
      const all = await requestsOfMenu(ctx, customerId);
      const where =
        all.through.length === 0
          ? 'the unfiltered requests menu'
          : `the requests menu's own status filters (${filterNames(all.through)})`;
      if (all.failed.length > 0 || all.capped) {
        ctx.skip(
          `${where} could not be read whole (${all.capped ? `more than ${MAX_LIST_PAGES} pages` : `${all.failed.map((r) => `${requestLine(r)} answered ${r.status}`).join('; ')}`}): the requests to look for are not known (a dead link is judged by ussd.links.alive)`,
        );
      }
      if (all.ids.size === 0 && all.unplaced > 0)
        ctx.skip(
          `${where} lists no request that could be read: ${all.unplaced} of its options lead outside {base_url} to no USSD view (judged by ussd.options.request-url), so the requests to look for are not known`,
        );
      if (all.ids.size === 0)
        ctx.skip(
          `the requests menu of customer ${customerId} lists no request${all.through.length > 0 ? `, under none of its status filters (${filterNames(all.through)}) either` : ''}: there is none to look for under the filters (fixtures.customerId naming a customer with order requests lets it be judged)`,
          { kind: 'fixture', fixture: 'customerId' },
        );
      const missingFrom = (listings: Map<OrderStatus, RequestsListing>) =>
        [...all.ids.keys()].filter((id) => ![...listings.values()].some((l) => l.ids.has(id)));
      const first = await listingsByStatus(ctx, customerId, ORDER_STATUSES);
      const unread = unreadFilters(ctx, first);
      const byFilter = [...first].map(([status, l]) => `${status} ${l.ids.size}`).join(', ');
      ctx.observe(
        all.through.length === 0
          ? `${all.ids.size} requests listed unfiltered; by filter: ${byFilter}`
          : `the requests menu lists no request itself but offers ${all.through.length} status filters (${filterNames(all.through)}): ${all.ids.size} requests listed under them; by filter: ${byFilter}`,
      );
      // Each request the menu lists is a subject: it is looked for under the four filters.
      ctx.judged(`request listed by ${where}`, all.ids.size);
      if (missingFrom(first).length === 0) return;
      if (unread.length > 0)
        ctx.skip(
          `requestIds under no filter read: ${idsText(missingFrom(first))}; status=${unread.join(', ')} could not be read whole, and they may be listed there`,
        );
      // A request may change status while the filters are read: they are read again, in the reverse order.
      const again = await listingsByStatus(ctx, customerId, [...ORDER_STATUSES].reverse());
      const unreadAgain = unreadFilters(ctx, again);
      if (unreadAgain.length > 0)
        ctx.skip(
          `requestIds under no filter on a first read: ${idsText(missingFrom(first))}; on the second, status=${unreadAgain.join(', ')} could not be read whole`,
        );
      const missing = missingFrom(again).filter((id) => missingFrom(first).includes(id));
      if (missing.length === 0) {
        ctx.observe(`requests under no filter on a first read were found on a second: ${idsText(missingFrom(first))}`);
        return;
      }
      ctx.fail(
        `request ${missing[0]} is listed by the requests menu but under none of the status filters PENDING, COMPLETED, CANCELED, ERROR`,
        {
          expected:
            'every listed request is listed under the filter of its status, which is one of PENDING, COMPLETED, CANCELED, ERROR',
          observed: `under no filter (read twice): ${idsText(missing, 10)}; by filter: ${[...again].map(([status, l]) => `${status}: ${idsText(l.ids.keys())}`).join('; ')}`,
          exchange: all.ids.get(missing[0]!)!.exchange,
        },
      );
    },
  }),
];
