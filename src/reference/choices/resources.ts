// The open points of resources, pagination, idempotency and limits: which customer fields a server shows, the values
// the tables leave open (timeFrame, requestType, status, asset numbers), transitions, what a repeated idempotency key
// does, what lies past the last page, the status of a validation failure, the body size limit.
import type { ChoiceDef } from './types.js';

export const RESOURCES_CHOICES = {
  customerFields: {
    requirements: ['REQ-CUST-07'],
    values: [
      {
        value: 'all',
        says: 'every customer carries every field of the Customer table',
        realizes: ['every field of the table present'],
        recorded: 'all \\d+ Customer fields present',
      },
      {
        value: 'absent',
        says: 'optional fields a customer has no value for (names, referenceId of the second fixture customer) are left out',
        realizes: ['some fields absent (each present field still has its type)'],
        recorded: 'absent: ',
      },
      {
        value: 'null',
        says: 'optional fields a customer has no value for (names, referenceId of the second fixture customer) are sent as null',
        realizes: ['some fields sent as null'],
        recorded: 'null: ',
      },
    ],
  },
  timeFrames: {
    requirements: ['REQ-INST-10'],
    values: [
      {
        value: 'short',
        says: 'timeFrame is "1D", "1W", "1M", "1Y"',
        realizes: ['any string (e.g. "1D", "1W", "1M", "1Y")'],
        recorded: 'timeFrame values.*"1D"',
      },
      {
        value: 'other',
        says: 'timeFrame is "24h", "7d", "30d", "YTD"',
        realizes: ['other strings (e.g. "24h", "7d", "YTD")'],
        recorded: 'timeFrame values.*"24h"',
      },
    ],
  },
  assetNumbers: {
    requirements: ['REQ-ASSET-15'],
    values: [
      {
        value: 'decimals',
        says: 'asset quantities and prices are decimals (position 8.5)',
        realizes: ['integers or decimals'],
        recorded: 'position 8\\.5',
      },
      {
        value: 'integers',
        says: 'asset quantities and prices are whole numbers (position 8)',
        realizes: ['integers or decimals'],
        recorded: 'position 8,',
      },
    ],
  },
  assetRelation: {
    requirements: ['REQ-ASSET-15'],
    values: [
      {
        value: 'derived',
        says: 'available = position − locked',
        realizes: ['available = position − locked'],
        recorded: 'available = position − locked',
      },
      {
        value: 'independent',
        says: 'available is held apart from position and locked (pending orders count too)',
        realizes: ['no relation'],
        recorded: 'no simple relation',
      },
    ],
  },
  transactionValues: {
    requirements: ['REQ-TXN-10'],
    values: [
      {
        value: 'menu',
        says: 'requestType BUY/SELL, status among the requests-menu statuses PENDING, COMPLETED, CANCELED, ERROR',
        realizes: ['the requests-menu statuses PENDING, COMPLETED, CANCELED, ERROR'],
        recorded: 'status values.*"COMPLETED"',
      },
      {
        value: 'other',
        says: 'requestType PURCHASE/SALE, status SETTLED, IN_PROGRESS, CANCELLED',
        realizes: ['any string'],
        recorded: 'status values.*"SETTLED"',
      },
    ],
  },
  customerTransitions: {
    requirements: ['REQ-STATE-05'],
    values: [
      {
        value: 'any',
        says: 'PUT /customers may set any status from any status',
        realizes: ['any change allowed'],
        recorded: 'status change .* accepted',
      },
      {
        value: 'closed-final',
        says: 'a CLOSED customer keeps its status (409); every other change is allowed',
        realizes: ['some changes refused (e.g. out of CLOSED)'],
        recorded: 'status change .* accepted',
      },
      {
        value: 'refused',
        says: 'PUT /customers refuses to change a status (409); sending the current one is fine',
        realizes: ['some changes refused (e.g. out of CLOSED)'],
        recorded: 'status change .* refused',
      },
    ],
  },
  accountActivity: {
    requirements: ['REQ-STATE-06'],
    values: [
      {
        value: 'static',
        says: 'accounts never change',
        realizes: ['not observable: no endpoint changes an account'],
        recorded: 'no account changed between',
      },
      {
        value: 'live',
        says: 'activity the interface does not show touches accounts: GET /accounts/{id} shows a later updatedAt than the list',
        realizes: ['changed by activity the interface does not show (a later updatedAt between reads)'],
        recorded: 'changed between the list and',
      },
    ],
  },
  idempotencyIdSpelling: {
    requirements: ['REQ-HDR-14'],
    values: [
      {
        value: 'accepted',
        says: 'X-Idempotency-Id is taken in place of X-Idempotency-Key',
        realizes: ['X-Idempotency-Id accepted in place of X-Idempotency-Key'],
        recorded: 'X-Idempotency-Id .*was accepted',
      },
      {
        value: 'refused',
        says: 'only X-Idempotency-Key counts: a request with X-Idempotency-Id alone lacks its key and is refused (401, as any missing key)',
        realizes: ['X-Idempotency-Id refused'],
        recorded: 'X-Idempotency-Id .*was refused',
      },
    ],
  },
  idempotencyRepeat: {
    requirements: ['REQ-HDR-19'],
    values: [
      {
        value: 'replay',
        says: 'a repeated key gets the first answer again',
        realizes: ['the first answer replayed'],
        recorded: 'first answer replayed',
      },
      {
        value: 'new',
        says: 'a repeated key is executed again (keys are not remembered)',
        realizes: ['a new result'],
        recorded: 'new token|a new result',
      },
      {
        value: 'refuse',
        says: 'a repeated key is refused with 409',
        realizes: ['a refusal'],
        recorded: 'repeated key was answered 409',
      },
    ],
  },
  pastEnd: {
    requirements: ['REQ-PAGE-09'],
    values: [
      {
        value: 'empty',
        says: 'a page past the end is 200 with data []',
        realizes: ['an empty page (200, data [])'],
        recorded: 'page=\\d+: 200, 0 items',
      },
      {
        value: '404',
        says: 'a page past the end (page > 0, nothing on it) is a 404',
        realizes: ['404'],
        recorded: 'page=\\d+: 404',
      },
    ],
  },
  lastNextPage: {
    requirements: ['REQ-META-10'],
    values: [
      {
        value: 'current',
        says: 'the last page has nextPage = currentPage',
        realizes: ['the last page itself (nextPage = currentPage)'],
        recorded: 'nextPage on the last page: the last page itself',
      },
      {
        value: 'past',
        says: 'the last page has nextPage one step on, past the end',
        realizes: ['the page past the end'],
        recorded: 'nextPage on the last page: the page past the end',
      },
      {
        value: 'first',
        says: 'the last page has nextPage 0, back to the first page',
        realizes: ['back to the first page'],
        recorded: 'nextPage on the last page: back to the first page',
      },
    ],
  },
  customerList: {
    requirements: ['REQ-CUSTEP-09'],
    values: [
      {
        value: 'absent',
        says: 'GET /customers is not served (404)',
        realizes: ['not served'],
        recorded: 'GET /customers: not served',
      },
      {
        value: 'served',
        says: 'GET /customers lists the customers with paging',
        realizes: ['a list of customers'],
        recorded: 'GET /customers: a list',
      },
    ],
  },
  instrumentsListed: {
    requirements: ['REQ-INSTEP-02'],
    values: [
      {
        value: 'all',
        says: 'GET /instruments lists every instrument, isAvailable telling which can be bought',
        realizes: ['every instrument, isAvailable telling which can be bought'],
        recorded: 'every instrument is listed',
      },
      {
        value: 'available',
        says: 'GET /instruments lists only instruments with isAvailable true',
        realizes: ['only instruments with isAvailable true'],
        recorded: 'only instruments with isAvailable true',
      },
    ],
  },
  maxBodySize: {
    requirements: ['REQ-LIM-05'],
    values: [
      {
        value: '1MiB',
        says: 'request bodies up to 1 MiB; larger is a 413',
        realizes: ['any'],
        recorded: 'body of \\d+ KiB was accepted',
      },
      {
        value: '16KiB',
        says: 'request bodies up to 16 KiB; larger is a 413',
        realizes: ['any'],
        recorded: 'body of \\d+ KiB was refused',
      },
    ],
  },
  validationStatus: {
    requirements: ['REQ-ERR-05'],
    values: [
      {
        value: '400',
        says: 'validation failures answer 400',
        realizes: ['400'],
        recorded: 'validation failures answered 400',
      },
      {
        value: '404',
        says: 'validation failures answer 404 (the only 4xx the endpoints list)',
        realizes: ['404'],
        recorded: 'validation failures answered 404',
      },
      {
        value: '422',
        says: 'validation failures answer 422',
        realizes: ['422', 'any 4xx'],
        recorded: 'validation failures answered 422',
      },
    ],
  },
  unknownCustomerList: {
    requirements: ['REQ-ERR-06'],
    values: [
      {
        value: '404',
        says: 'the accounts and transactions of a customer that does not exist are a 404',
        realizes: ['a list for a customer who does not exist: 404'],
        recorded: 'customerId=\\d+: 404',
      },
      {
        value: 'empty',
        says: 'the accounts and transactions of a customer that does not exist are 200 with an empty list',
        realizes: ['the same: 200 with an empty list'],
        recorded: 'customerId=\\d+: 200 with an empty list',
      },
    ],
  },
} as const satisfies Record<string, ChoiceDef>;
