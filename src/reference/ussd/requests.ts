// /ussd/requests: the customer's order requests, newest first, with a status filter, one request's detail, and its
// cancellation (PENDING → CANCELED), which the spec shows reached by a GET with cancelMode=true.
//
// A detail or cancel URL carries the `status` and `page` of the list it was opened from. There they are not a filter
// but the way back: a request canceled from the PENDING list is still shown, and Back returns to that list.
//
// Choice ussd-requests-menu: what the menu shows without a status filter is not given. `list`: the requests, with the
// four filters on its first page. `filters`: only the filters ("1. Pending … 4. Failed"), "Cancel a request" (the
// PENDING requests in cancel mode, cancelMode=true without requestId) and Back.
import { HttpError, badRequest, notFound } from '../respond.js';
import { USSD_FAULT, type FaultFlags } from '../faults/flags.js';
import { optionalQuery } from '../params.js';
import type { Choices } from '../choices/index.js';
import { ORDER_STATUSES, type OrderRequest, type OrderStatus, type StoredList } from '../store.js';
import { listPage, listTitle, pageParam, pagingChoices, type Choice, type Link, type Menu } from './menu.js';
import {
  HOME,
  money,
  optionalId,
  optionalInteger,
  queryBoolean,
  queryPage,
  REQUESTS,
  type UssdSession,
} from './session.js';

export interface RequestsParams {
  page: number;
  status?: OrderStatus;
  requestId?: number;
  cancelMode: boolean;
}

const STATUS_LABEL: Record<OrderStatus, string> = {
  PENDING: 'Pending',
  COMPLETED: 'Completed',
  CANCELED: 'Canceled',
  ERROR: 'Error',
};

/** How the menu names a filter under ussd-requests-menu=filters: ERROR is "Failed", as a phone user reads it. */
const FILTER_LABEL: Record<OrderStatus, string> = { ...STATUS_LABEL, ERROR: 'Failed' };

export function parseRequestsParams(
  query: URLSearchParams,
  faults: FaultFlags,
  choices?: Pick<Choices, 'ussdRequestsMenu'>,
): RequestsParams {
  // Numbers read as JSON first: a value that is no JSON at all throws, and nothing turns that into a 400.
  if (faults.has(USSD_FAULT.requestsJsonParsed))
    for (const name of ['page', 'requestId']) JSON.parse(optionalQuery(query, name) ?? '0');
  // Math.max(0, page): a page below the first is served as the first.
  const page = faults.has(USSD_FAULT.pageNegativeClamped)
    ? Math.max(0, optionalInteger(query, 'page') ?? 0)
    : queryPage(query);
  let status = optionalQuery(query, 'status');
  // Case-sensitive, as the spec writes the enum (like `sort` on the list endpoints).
  if (status !== undefined && !(ORDER_STATUSES as readonly string[]).includes(status)) {
    // A label looked up for a status nobody checked.
    if (faults.has(USSD_FAULT.statusUnknownCrash))
      throw new TypeError(`Cannot read properties of undefined (reading 'toLowerCase'): no label for status ${status}`);
    // A filter matched against the known statuses only: one it does not know filters nothing.
    if (faults.has(USSD_FAULT.statusUnknownIgnored)) status = undefined;
    else throw badRequest(`status must be one of ${ORDER_STATUSES.join(', ')}`);
  }
  // A requestId that is no number read as none: the list is served instead of a request's detail.
  const requestId =
    faults.has(USSD_FAULT.requestIdIgnored) && !/^\d+$/.test(optionalQuery(query, 'requestId') ?? '0')
      ? undefined
      : optionalId(query, 'requestId');
  const cancelMode = queryBoolean(query, 'cancelMode');
  // Without requestId, cancel mode is the list of requests to cancel: only the menu of filters offers one.
  if (cancelMode && requestId === undefined && (choices?.ussdRequestsMenu !== 'filters' || status !== undefined))
    throw badRequest('cancelMode=true needs requestId');
  return {
    page,
    cancelMode,
    ...(status !== undefined ? { status: status as OrderStatus } : {}),
    ...(requestId !== undefined ? { requestId } : {}),
  };
}

export function requestsMenu(session: UssdSession, p: RequestsParams): Menu {
  if (p.requestId !== undefined) {
    const request = ownedRequest(session, p.requestId);
    return p.cancelMode ? cancelMenu(session, request, p) : detailMenu(request, p);
  }
  if (p.status === 'CANCELED' && session.env.faults.has(USSD_FAULT.statusFilterBroken)) {
    throw new Error('status filter CANCELED is not handled');
  }
  if (session.env.choices.ussdRequestsMenu === 'filters' && p.status === undefined)
    return p.cancelMode ? cancelListMenu(session, p) : filtersMenu(session);
  return listMenu(session, p);
}

/** A request of another customer is as unknown as one that does not exist. */
function ownedRequest(session: UssdSession, requestId: number): OrderRequest {
  const request = session.state.store.getOrderRequest(requestId);
  if (request === undefined || request.customerId !== session.customer.customerId) throw notFound();
  return request;
}

function requestsLink(query: Record<string, string | number | boolean | undefined>): Link {
  return { path: REQUESTS.path, query };
}

function listMenu(session: UssdSession, p: RequestsParams): Menu {
  const all = filtered(session, p.status);
  const list = listPage(all, p.page, 'DESC', session.env);
  const choices: Choice[] = list.items.map((r) => ({
    label: `${r.symbol} ${money(r.currency, r.amount)} ${r.status}`,
    to: requestsLink({ requestId: r.requestId, status: p.status, page: pageParam(p.page) }),
  }));
  choices.push(
    ...pagingChoices(list, (page) => requestsLink({ status: p.status, page: pageParam(page) }), session.env),
  );
  // The filters are offered on the first page only: later pages stay short enough for a phone screen.
  if (p.status === undefined && p.page === 0) {
    for (const status of ORDER_STATUSES) choices.push({ label: STATUS_LABEL[status], to: requestsLink({ status }) });
  }
  const empty =
    p.status === undefined ? 'You have no requests yet.' : `No ${labels(session)[p.status].toLowerCase()} requests.`;
  return {
    title: listTitle(p.status === undefined ? 'My requests' : `${labels(session)[p.status]} requests`, list),
    lines: all.length === 0 ? [empty] : list.items.length === 0 ? ['No more requests.'] : [],
    choices,
    // A filtered list is opened from the full list, the full list from home.
    back: { label: 'Back', to: p.status === undefined ? HOME : REQUESTS },
  };
}

function labels(session: UssdSession): Record<OrderStatus, string> {
  return session.env.choices.ussdRequestsMenu === 'filters' ? FILTER_LABEL : STATUS_LABEL;
}

/** ussd-requests-menu=filters: the menu of the four filters, the way to cancel a request, and Back. */
function filtersMenu(session: UssdSession): Menu {
  const none = filtered(session, undefined).length === 0;
  return {
    title: 'My requests',
    lines: none ? ['You have no requests yet.'] : [],
    choices: [
      ...ORDER_STATUSES.map((status) => ({ label: FILTER_LABEL[status], to: requestsLink({ status }) })),
      { label: 'Cancel a request', to: requestsLink({ cancelMode: true }) },
    ],
    back: { label: 'Back', to: HOME },
  };
}

/** ussd-requests-menu=filters, "Cancel a request": the PENDING requests, each choice canceling one. */
function cancelListMenu(session: UssdSession, p: RequestsParams): Menu {
  const pending = filtered(session, 'PENDING');
  const list = listPage(pending, p.page, 'DESC', session.env);
  const choices: Choice[] = list.items.map((r) => ({
    label: `Cancel ${r.symbol} ${money(r.currency, r.amount)}`,
    to: requestsLink({ requestId: r.requestId, cancelMode: true }),
  }));
  choices.push(
    ...pagingChoices(list, (page) => requestsLink({ cancelMode: true, page: pageParam(page) }), session.env),
  );
  return {
    title: listTitle('Cancel a request', list),
    lines: pending.length === 0 ? ['No pending requests.'] : list.items.length === 0 ? ['No more requests.'] : [],
    choices,
    back: { label: 'Back', to: REQUESTS },
  };
}

/** The customer's requests of a status; two faults get the filter wrong. */
function filtered(session: UssdSession, status: OrderStatus | undefined): StoredList<OrderRequest> {
  const { faults } = session.env;
  // Matched against another spelling of the status than the store's: nothing ever is.
  if (status === 'COMPLETED' && faults.has(USSD_FAULT.statusFilterMissesCompleted)) return [];
  return session.state.store.orderRequestList(
    session.customer.customerId,
    faults.has(USSD_FAULT.statusFilterIgnored) ? undefined : status,
  );
}

function describe(r: OrderRequest): string {
  return `Buy ${r.symbol} for ${money(r.currency, r.amount)}`;
}

function detailMenu(r: OrderRequest, p: RequestsParams): Menu {
  const lines = [describe(r), `Status: ${r.status}`, `Placed: ${dateText(r.createdAt)}`];
  if (r.updatedAt !== r.createdAt) lines.push(`Updated: ${dateText(r.updatedAt)}`);
  const choices: Choice[] =
    r.status === 'PENDING'
      ? [
          {
            label: 'Cancel request',
            to: requestsLink({ cancelMode: true, requestId: r.requestId, status: p.status, page: pageParam(p.page) }),
          },
        ]
      : [];
  return {
    title: `Request #${r.requestId}`,
    lines,
    choices,
    back: { label: 'Back', to: requestsLink({ status: p.status, page: pageParam(p.page) }) },
  };
}

function cancelMenu(session: UssdSession, r: OrderRequest, p: RequestsParams): Menu {
  const outcome = session.state.store.cancelOrderRequest(r.requestId, session.now);
  // Only PENDING can be canceled; a repeated cancel is a conflict with the request's state, not a malformed request.
  if (outcome.kind === 'not-pending')
    throw new HttpError(
      409,
      `Conflict: request ${r.requestId} is ${outcome.request.status}; only a PENDING request can be canceled`,
    );
  if (outcome.kind === 'not-found') throw notFound();
  return {
    title: `Request #${r.requestId} canceled`,
    lines: [`${describe(r)} will not be executed.`],
    choices: [
      {
        label: 'View request',
        to: requestsLink({ requestId: r.requestId, status: p.status, page: pageParam(p.page) }),
      },
    ],
    back: { label: 'Home', to: HOME },
  };
}

/** "2025-03-04 10:00 UTC": a phone shows no time zone of its own, so the text names it. */
function dateText(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
