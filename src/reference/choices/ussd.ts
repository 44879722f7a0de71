// The open points of the USSD views: whether /ussd/stocks reads the assetId its asset menu links carry, whether
// /ussd/home and /ussd/portfolio (linked, contract not shown) are served, what a view for an unknown customer is
// (the USSD endpoints list no errors), what the requests menu shows without a status filter, and whether a detail view
// may end the session with no options at all.
// Numbering, the back number and page meaning are core choices (core.ts).
import type { ChoiceDef } from './types.js';

export const USSD_CHOICES = {
  ussdAssetId: {
    requirements: ['REQ-USSD-11'],
    values: [
      {
        value: 'served',
        says: '/ussd/stocks?assetId= shows that holding (and buys more of it)',
        realizes: ['/ussd/stocks serves assetId'],
        recorded: 'assetId: served',
      },
      {
        value: 'ignored',
        says: '/ussd/stocks ignores assetId: the asset menu links show the stocks list',
        realizes: ['assetId ignored'],
        recorded: 'assetId: ignored',
      },
    ],
  },
  ussdHomePortfolio: {
    requirements: ['REQ-USSD-22'],
    values: [
      {
        value: 'served',
        says: '/ussd/home and /ussd/portfolio answer USSD views',
        realizes: ['served as USSD views'],
        recorded: '/ussd/home and /ussd/portfolio: served as USSD views',
      },
      {
        value: 'not-served',
        says: '/ussd/home and /ussd/portfolio answer 404: menus link to them, another system serves them',
        realizes: ['not served (only linked)'],
        recorded: '/ussd/home and /ussd/portfolio: not served \\(404, 404\\)',
      },
    ],
  },
  ussdUnknownCustomer: {
    requirements: ['REQ-USSD-24'],
    values: [
      {
        value: 'reject',
        says: 'a view for a customer that does not exist is 404 with the error body',
        realizes: ['404 with the error body'],
        recorded: 'unknown customer: refused \\(404, 404, 404\\)',
      },
      {
        value: 'view',
        says: 'a view for a customer that does not exist is a 200 view saying so, offering only the way home',
        realizes: ['a USSD view saying the customer is unknown'],
        recorded: 'unknown customer: a view saying so \\(200, 200, 200\\)',
      },
      {
        value: 'reject-400',
        says: 'a view for a customer that does not exist is 400 with the error body (a customerId that names no customer)',
        realizes: ['a 4xx other than 404 (e.g. 400)'],
        recorded: 'unknown customer: refused \\(400, 400, 400\\)',
      },
      {
        value: 'end-screen',
        says: 'a view for a customer that does not exist is a 200 END screen: its ussdMessage says the number is not registered, its ussdOptions is []',
        realizes: ['a USSD view saying the customer is unknown'],
        recorded: 'unknown customer: an END screen saying so, no options \\(200, 200, 200\\)',
      },
    ],
  },
  ussdRequestsMenu: {
    requirements: ['REQ-USSD-12'],
    basis:
      'What the requests menu shows without a status filter is not given ("GET /ussd/requests returns the customer requests menu", and a status filter among its parameters): the requests themselves, or a menu of the status filters under which they are listed.',
    values: [
      {
        value: 'list',
        says: 'the requests menu lists the requests, newest first and paged, with the four status filters on its first page',
        realizes: [],
        recorded: '^requests menu \\(what it shows unfiltered is not given\\): lists the requests',
      },
      {
        value: 'filters',
        says: 'the requests menu lists no request: "1. Pending", "2. Completed", "3. Canceled", "4. Failed", "5. Cancel a request" (the pending ones, in cancel mode) and Back; the requests are listed under their status filter',
        realizes: [],
        recorded: '^requests menu \\(what it shows unfiltered is not given\\): a menu of 4 status filters',
      },
    ],
  },
  ussdTerminal: {
    requirements: ['REQ-USSDV-08'],
    basis:
      'Whether a view may end the session with no options is not said: "The last option of a menu leads back" says what the last option of a menu does, and a view without options (an END screen, as USSD gateways end a session) is no menu.',
    values: [
      {
        value: 'none',
        says: 'every view offers options, the way back last',
        realizes: [],
        recorded: '^views without options \\(END screens[^)]*\\): none$',
      },
      {
        value: 'detail-views',
        says: 'the assets details (/ussd/assets?detail=true) and the view a holding opens (/ussd/stocks?assetId=) are END screens: text, no options',
        realizes: [],
        recorded: '^views without options \\(END screens[^)]*\\): \\d+, e\\.g\\. ',
      },
    ],
  },
} as const satisfies Record<string, ChoiceDef>;
