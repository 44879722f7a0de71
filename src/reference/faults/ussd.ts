// Faults of the USSD views. All are flags: the deviation lives where the menu is built (ussd/*.ts), so it looks like
// the bug a real implementation would have rather than a rewrite of a finished reply.
import type { FaultDefinition } from './types.js';

const REQUEST_URL = 'USSD view: ussdOptions[].requestUrl — Full URL of the follow-up request, with query parameters such as customerId, symbol, assetId, requestId, status, page, searchMode';

export const ussdFaults: FaultDefinition[] = [
  {
    name: 'ussd.dead-link',
    suite: 'ussd',
    violates: 'USSD view: Follow-up URLs address the USSD endpoints below, and also `/ussd/home` and `/ussd/portfolio`.',
    description: 'the first stock on each page of the stocks menu links to /ussd/stock, which is a 404',
    flag: true,
  },
  {
    name: 'ussd.option-not-in-message',
    suite: 'ussd',
    violates: 'USSD view: ussdOptions[].option — integer — The choice number shown in the message',
    description: 'every menu leaves the line of its first option out of ussdMessage',
    flag: true,
  },
  {
    name: 'ussd.no-back-option',
    suite: 'ussd',
    violates: 'USSD view: The last option of a menu leads back to a parent menu (home, portfolio or another menu).',
    description: "a stock's detail ends with a Back option that leads forward to the next stock's detail",
    flag: true,
  },
  {
    name: 'ussd.relative-url',
    suite: 'ussd',
    violates: REQUEST_URL,
    description: 'every requestUrl is a relative path (/v1/ussd/…) without scheme and host',
    flag: true,
  },
  {
    name: 'ussd.customer-dropped',
    suite: 'ussd',
    violates: REQUEST_URL,
    description: 'the Next option of every list leaves customerId out of its URL',
    flag: true,
  },
  {
    name: 'ussd.paging-loop',
    suite: 'ussd',
    violates: 'GET /ussd/stocks: page — integer >= 0 — Page offset',
    description: 'the Next option of every list links to the page being shown, so paging forward never advances',
    flag: true,
  },
  {
    name: 'ussd.missing-customer-accepted',
    suite: 'ussd',
    violates: 'USSD views: customerId — integer — Required: yes (GET /ussd/stocks, /ussd/requests, /ussd/assets)',
    description: 'a view requested without customerId answers 200 with the menu of a default customer',
    flag: true,
  },
  {
    name: 'ussd.status-filter-broken',
    suite: 'ussd',
    violates: 'GET /ussd/requests: status — enum PENDING, COMPLETED, CANCELED, ERROR — Order request status filter',
    description: 'the requests menu with status=CANCELED answers 500',
    flag: true,
  },
  {
    name: 'ussd.duplicate-option-numbers',
    suite: 'ussd',
    violates: 'USSD view: ussdOptions — array of objects — One per choice; ussdOptions[].option — The choice number shown in the message',
    description: 'the back option of every menu reuses the number of the last item',
    flag: true,
  },
  {
    name: 'ussd.empty-message',
    suite: 'ussd',
    violates: 'USSD view: ussdMessage — string — Menu text to show the user, with embedded line breaks and numbered choices',
    description: 'a menu whose only choice is Back (a request that can no longer be canceled, say) answers with an empty ussdMessage',
    flag: true,
  },
  {
    name: 'ussd.request-type-not-method',
    suite: 'ussd',
    violates: 'USSD view: ussdOptions[].requestType — string — HTTP method of the follow-up request (GET in every option shown)',
    description: 'every option\'s requestType is "USSD" (the channel) instead of an HTTP method',
    flag: true,
  },
  {
    name: 'ussd.unknown-customer-served',
    suite: 'ussd',
    violates: 'Errors: 404 — Not Found (the specified resource was not found) — every resource and list endpoint',
    description: 'a view for a customer that does not exist answers 200 with the empty menus of a guest',
    flag: true,
  },
  {
    name: 'ussd.endless-list',
    suite: 'ussd',
    violates: 'GET /ussd/stocks, /ussd/requests, /ussd/assets: page — integer >= 0 — Page offset',
    description: 'every list offers Next on every page, also past its end, so paging forward never ends',
    flag: true,
  },
];
