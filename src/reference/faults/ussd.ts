// Faults of the USSD views. All are flags: the deviation lives where the menu is built (ussd/*.ts), so it looks like
// the bug a real implementation would have rather than a rewrite of a finished reply.
import type { FaultDefinition } from './types.js';
import { USSD_FAULT } from './flags.js';
import { INTERNAL_ORIGIN, internalOriginLinks } from './ussd-origin.js';

export const ussdFaults: FaultDefinition[] = [
  {
    name: USSD_FAULT.deadLink,
    suite: 'ussd',
    breaks: ['REQ-USSDV-09', 'REQ-USSDV-05'],
    description: 'the first stock on each page of the stocks menu links to /ussd/stock, which is a 404',
    flag: true,
  },
  {
    name: USSD_FAULT.optionNotInMessage,
    suite: 'ussd',
    breaks: ['REQ-USSDV-04'],
    description: 'every menu leaves the line of its first option out of ussdMessage',
    flag: true,
  },
  {
    name: USSD_FAULT.noBackOption,
    suite: 'ussd',
    breaks: ['REQ-USSDV-08'],
    description: "a stock's detail ends with a Back option that leads forward to the next stock's detail",
    flag: true,
  },
  {
    name: USSD_FAULT.relativeUrl,
    suite: 'ussd',
    breaks: ['REQ-USSDV-05'],
    description: 'every requestUrl is a relative path (/v1/ussd/…) without scheme and host',
    flag: true,
  },
  {
    name: 'ussd.links-internal-origin',
    suite: 'ussd',
    breaks: ['REQ-USSDV-05'],
    description: `every requestUrl is built from the server's internal address behind its proxy (${INTERNAL_ORIGIN}/v1/ussd/…), not from the host the client reached: no client can follow it as given`,
    middleware: internalOriginLinks,
  },
  {
    name: USSD_FAULT.customerDropped,
    suite: 'ussd',
    breaks: ['REQ-USSDV-05', 'REQ-USSD-04'],
    description: 'the Next option of every list leaves customerId out of its URL',
    flag: true,
  },
  {
    name: USSD_FAULT.pagingLoop,
    suite: 'ussd',
    breaks: ['REQ-USSD-23'],
    description: 'the Next option of every list links to the page being shown, so paging forward never advances',
    flag: true,
  },
  {
    name: USSD_FAULT.missingCustomerAccepted,
    suite: 'ussd',
    breaks: ['REQ-USSD-04', 'REQ-USSD-13', 'REQ-USSD-19'],
    description: 'a view requested without customerId answers 200 with the menu of a default customer',
    flag: true,
  },
  {
    name: USSD_FAULT.statusFilterBroken,
    suite: 'ussd',
    // The menu offers that filter as a choice: its dead link breaks "GET /ussd/requests returns the customer requests
    // menu" too, which ussd.links.alive enforces.
    breaks: ['REQ-USSD-17', 'REQ-STATE-03', 'REQ-USSD-12'],
    description: 'the requests menu with status=CANCELED answers 500',
    flag: true,
  },
  {
    name: USSD_FAULT.duplicateOptionNumbers,
    suite: 'ussd',
    breaks: ['REQ-USSDV-03', 'REQ-USSDV-04'],
    description: 'the back option of every menu reuses the number of the last item',
    flag: true,
  },
  {
    name: USSD_FAULT.emptyMessage,
    suite: 'ussd',
    // An empty message shows no choice number either ("The choice number shown in the message").
    breaks: ['REQ-USSDV-02', 'REQ-USSDV-04'],
    description:
      'a menu whose only choice is Back (a request that can no longer be canceled, say) answers with an empty ussdMessage',
    flag: true,
  },
  {
    name: USSD_FAULT.requestTypeNotMethod,
    suite: 'ussd',
    breaks: ['REQ-USSDV-06', 'REQ-USSDV-07'],
    description: 'every option\'s requestType is "USSD" (the channel) instead of an HTTP method',
    flag: true,
  },
  {
    name: USSD_FAULT.unknownCustomerServed,
    suite: 'ussd',
    breaks: ['REQ-ERR-04'],
    description: 'a view for a customer that does not exist answers 200 with the empty menus of a guest',
    flag: true,
  },
  {
    name: USSD_FAULT.endlessList,
    suite: 'ussd',
    breaks: ['REQ-SVC-04', 'REQ-USSD-23'],
    description: 'every list offers Next on every page, also past its end, so paging forward never ends',
    flag: true,
  },
  {
    name: USSD_FAULT.backListedFirst,
    suite: 'ussd',
    breaks: ['REQ-USSDV-08'],
    description:
      "a stock's detail lists its Back option first, as 0, and ends with Buy, which leads forward to the amount prompt",
    flag: true,
  },
  {
    name: USSD_FAULT.optionsShifted,
    suite: 'ussd',
    breaks: ['REQ-USSDV-04', 'REQ-USSDV-05'],
    description: 'each stock of the stocks list links to the detail of the stock listed after it (an off-by-one)',
    flag: true,
  },
  {
    name: USSD_FAULT.requestTypeLowercase,
    suite: 'ussd',
    breaks: ['REQ-USSDV-07'],
    description: 'every option\'s requestType is "get" in lower case',
    flag: true,
  },
  {
    name: USSD_FAULT.customerIdChanged,
    suite: 'ussd',
    breaks: ['REQ-USSDV-05', 'REQ-USSD-19', 'REQ-USSDV-11'],
    description: "the Details option of the assets menu carries the customer's referenceId in customerId",
    flag: true,
  },
  {
    name: USSD_FAULT.customerIdNotIntegerServed,
    suite: 'ussd',
    breaks: ['REQ-USSD-04', 'REQ-USSD-13', 'REQ-USSD-19'],
    description:
      'customerId is read with parseInt, and a value that is no number (customerId=abc) falls back to 0, served the menus of a guest',
    flag: true,
  },
  {
    name: USSD_FAULT.negativePageCrash,
    suite: 'ussd',
    // A 5xx is no refusal of a value outside page's closed domain.
    breaks: ['REQ-USSD-20', 'REQ-LIM-02', 'REQ-USSD-10'],
    description: '/ussd/assets does not range-check page: page=-1 answers 500',
    flag: true,
  },
  {
    name: USSD_FAULT.negativePageServed,
    suite: 'ussd',
    breaks: ['REQ-USSD-07', 'REQ-LIM-02', 'REQ-USSD-10'],
    description:
      '/ussd/stocks does not range-check page: page=-1 answers 200, an empty page whose Previous option leads to page -2',
    flag: true,
  },
  {
    name: USSD_FAULT.statusUnknownCrash,
    suite: 'ussd',
    breaks: ['REQ-USSD-17', 'REQ-USSD-10'],
    description: 'the requests menu with a status outside the enum (status=FOO) answers 500',
    flag: true,
  },
  {
    name: USSD_FAULT.booleansJsonParsed,
    suite: 'ussd',
    breaks: ['REQ-USSD-06', 'REQ-USSD-08', 'REQ-USSD-21'],
    description:
      'inputMode, searchMode and detail are read with JSON.parse: a value that is no JSON (maybe) answers 500',
    flag: true,
  },
  {
    name: USSD_FAULT.requestsJsonParsed,
    suite: 'ussd',
    breaks: ['REQ-USSD-15', 'REQ-USSD-16', 'REQ-USSD-10'],
    description: 'the requests menu reads page and requestId with JSON.parse: page=x and requestId=abc answer 500',
    flag: true,
  },
  {
    name: USSD_FAULT.lenientBooleans,
    suite: 'ussd',
    breaks: ['REQ-USSD-25'],
    description: 'inputMode, searchMode and detail read any value but "true" as false: detail=maybe answers 200',
    flag: true,
  },
  {
    name: USSD_FAULT.statusFilterIgnored,
    suite: 'ussd',
    breaks: ['REQ-USSD-17', 'REQ-STATE-03'],
    description: 'the requests menu ignores its status filter: every filter lists all requests',
    flag: true,
  },
  {
    name: USSD_FAULT.statusFilterMissesCompleted,
    suite: 'ussd',
    breaks: ['REQ-USSD-17', 'REQ-STATE-03'],
    description:
      'the requests menu filtered by status=COMPLETED lists none of the completed requests (it matches another spelling)',
    flag: true,
  },
  {
    name: USSD_FAULT.optionsSelfLoop,
    suite: 'ussd',
    // Every option but the last leads to the view it is on too (REQ-USSD-23): the same defect, seen by both rules.
    breaks: ['REQ-USSDV-08', 'REQ-USSD-23'],
    description:
      "every option's requestUrl is the URL of the view it is on, Back included: whatever the user picks, the same menu comes back",
    flag: true,
  },
  {
    name: USSD_FAULT.backCycle,
    suite: 'ussd',
    breaks: ['REQ-USSDV-08'],
    description:
      'the first page of the assets menu ends with Back to its own details view, whose Back leads to it again: Back goes round the two and never reaches home',
    flag: true,
  },
  {
    name: USSD_FAULT.statusUnknownIgnored,
    suite: 'ussd',
    breaks: ['REQ-USSD-17', 'REQ-USSD-10'],
    description: 'the requests menu ignores a status outside the enum: status=FOO answers 200 with the unfiltered list',
    flag: true,
  },
  {
    name: USSD_FAULT.pageNegativeClamped,
    suite: 'ussd',
    breaks: ['REQ-USSD-15', 'REQ-LIM-02', 'REQ-USSD-10'],
    description: 'the requests menu clamps page to 0: page=-1 answers 200 with the first page',
    flag: true,
  },
  {
    name: USSD_FAULT.pageNotIntegerIgnored,
    suite: 'ussd',
    breaks: ['REQ-USSD-20', 'REQ-USSD-10'],
    description:
      '/ussd/assets reads page with parseInt, 0 for what is no number: page=x answers 200 with the first page, page=1.5 with page 1',
    flag: true,
  },
  {
    name: USSD_FAULT.requestIdIgnored,
    suite: 'ussd',
    breaks: ['REQ-USSD-16', 'REQ-USSD-10'],
    description:
      'the requests menu ignores a requestId that is not an integer: requestId=abc answers 200 with the list',
    flag: true,
  },
  {
    name: USSD_FAULT.moreListedLast,
    suite: 'ussd',
    breaks: ['REQ-USSDV-08'],
    description:
      'a list that has a next page writes its Next choice last, after Back, as "98 Next" (ExUssd orders BACK then MORE): the last option pages forward',
    flag: true,
  },
];
