// Faults of the USSD views. All are flags: the deviation lives where the menu is built (ussd/*.ts), so it looks like
// the bug a real implementation would have rather than a rewrite of a finished reply.
import type { FaultDefinition } from './types.js';


export const ussdFaults: FaultDefinition[] = [
  {
    name: 'ussd.dead-link',
    suite: 'ussd',
    breaks: ['REQ-USSDV-09', 'REQ-USSDV-05'],
    description: 'the first stock on each page of the stocks menu links to /ussd/stock, which is a 404',
    flag: true,
  },
  {
    name: 'ussd.option-not-in-message',
    suite: 'ussd',
    breaks: ['REQ-USSDV-04'],
    description: 'every menu leaves the line of its first option out of ussdMessage',
    flag: true,
  },
  {
    name: 'ussd.no-back-option',
    suite: 'ussd',
    breaks: ['REQ-USSDV-08'],
    description: "a stock's detail ends with a Back option that leads forward to the next stock's detail",
    flag: true,
  },
  {
    name: 'ussd.relative-url',
    suite: 'ussd',
    breaks: ['REQ-USSDV-05'],
    description: 'every requestUrl is a relative path (/v1/ussd/…) without scheme and host',
    flag: true,
  },
  {
    name: 'ussd.customer-dropped',
    suite: 'ussd',
    breaks: ['REQ-USSDV-05', 'REQ-USSD-04'],
    description: 'the Next option of every list leaves customerId out of its URL',
    flag: true,
  },
  {
    name: 'ussd.paging-loop',
    suite: 'ussd',
    breaks: ['REQ-USSD-23'],
    description: 'the Next option of every list links to the page being shown, so paging forward never advances',
    flag: true,
  },
  {
    name: 'ussd.missing-customer-accepted',
    suite: 'ussd',
    breaks: ['REQ-USSD-04', 'REQ-USSD-13', 'REQ-USSD-19'],
    description: 'a view requested without customerId answers 200 with the menu of a default customer',
    flag: true,
  },
  {
    name: 'ussd.status-filter-broken',
    suite: 'ussd',
    breaks: ['REQ-USSD-17', 'REQ-STATE-03'],
    description: 'the requests menu with status=CANCELED answers 500',
    flag: true,
  },
  {
    name: 'ussd.duplicate-option-numbers',
    suite: 'ussd',
    breaks: ['REQ-USSDV-03', 'REQ-USSDV-04'],
    description: 'the back option of every menu reuses the number of the last item',
    flag: true,
  },
  {
    name: 'ussd.empty-message',
    suite: 'ussd',
    breaks: ['REQ-USSDV-02'],
    description: 'a menu whose only choice is Back (a request that can no longer be canceled, say) answers with an empty ussdMessage',
    flag: true,
  },
  {
    name: 'ussd.request-type-not-method',
    suite: 'ussd',
    breaks: ['REQ-USSDV-06', 'REQ-USSDV-07'],
    description: 'every option\'s requestType is "USSD" (the channel) instead of an HTTP method',
    flag: true,
  },
  {
    name: 'ussd.unknown-customer-served',
    suite: 'ussd',
    breaks: ['REQ-USSD-04', 'REQ-USSD-13', 'REQ-USSD-19', 'REQ-ERR-04'],
    description: 'a view for a customer that does not exist answers 200 with the empty menus of a guest',
    flag: true,
  },
  {
    name: 'ussd.endless-list',
    suite: 'ussd',
    breaks: ['REQ-SVC-04', 'REQ-USSD-23'],
    description: 'every list offers Next on every page, also past its end, so paging forward never ends',
    flag: true,
  },
];
