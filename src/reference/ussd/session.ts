// What every USSD view shares: its query parameters (each failure a 400 naming the parameter), the customer whose
// session it is (404 when unknown), and the few words and numbers menus print.
import { nowSeconds, type RequestContext, type ServerState } from '../context.js';
import { USSD_FAULT, type FaultFlags } from '../faults/flags.js';
import { optionalQuery, parseInteger, requireQuery } from '../params.js';
import { badRequest, notFound } from '../respond.js';
import type { Currency, Customer } from '../store.js';
import type { Link, Menu, UssdEnv } from './menu.js';

export interface UssdSession {
  readonly state: ServerState;
  readonly env: UssdEnv;
  readonly customer: Customer;
  readonly now: number;
}

/** customerId is required on every view ("customerId | integer | yes"); parsed before the other parameters. */
export function parseCustomerId(ctx: RequestContext, state: ServerState): number {
  const text = optionalQuery(ctx.query, 'customerId');
  if (text === undefined && state.faults.has(USSD_FAULT.missingCustomerAccepted)) {
    return state.store.fixtures.customerId;
  }
  if (text !== undefined && state.faults.has(USSD_FAULT.customerIdNotIntegerServed)) {
    // parseInt, and 0 for what is no number at all: "abc" becomes the id of nobody, served as a guest below.
    const n = Number.parseInt(text, 10);
    return Number.isNaN(n) ? 0 : n;
  }
  return parseInteger(requireQuery(ctx.query, 'customerId'), 'customerId');
}

/** Whether a session opens for this id: a customer of the store, or a guest under the faults that serve one. */
export function isKnown(state: ServerState, customerId: number): boolean {
  if (state.store.getCustomer(customerId) !== undefined) return true;
  return (
    state.faults.has(USSD_FAULT.unknownCustomerServed) ||
    (customerId === 0 && state.faults.has(USSD_FAULT.customerIdNotIntegerServed))
  );
}

export function ussdEnv(ctx: RequestContext, state: ServerState, customerId: number): UssdEnv {
  return {
    origin: ctx.base ?? ctx.url.origin,
    url: ctx.url.href,
    customerId,
    choices: state.choices,
    faults: state.faults,
  };
}

/** Opens the session once every parameter is valid, so a malformed request is a 400 whoever it names. */
export function openSession(ctx: RequestContext, state: ServerState, customerId: number): UssdSession {
  let customer = state.store.getCustomer(customerId);
  if (customer === undefined) {
    if (!isKnown(state, customerId)) {
      // ussd-unknown-customer=reject-400: the USSD endpoints list no errors, and a customerId that names no customer
      // read as a bad parameter is as reasonable as the 404 the Errors table lists for what does not exist elsewhere.
      if (state.choices.ussdUnknownCustomer === 'reject-400') throw badRequest('customerId names no customer');
      throw notFound();
    }
    // A session opened for whoever asks: an unknown id gets the (empty) menus of a guest.
    customer = {
      customerId,
      firstName: 'Guest',
      lastName: '',
      status: 'ACTIVE',
      referenceId: 0,
      createdAt: 0,
      updatedAt: 0,
    };
  }
  return { state, customer, now: nowSeconds(state), env: ussdEnv(ctx, state, customerId) };
}

/**
 * ussd-unknown-customer=view: the screen a USSD gateway shows a number it does not know. It serves none of a
 * customer's menus; its one option, the way back, leads home. =end-screen: the same words as an END screen, the session
 * over, no options at all (a gateway's "END", where a 4xx would only drop the session).
 */
export function unknownCustomerMenu(customerId: number, end = false): Menu {
  return end
    ? {
        title: `Customer ${customerId} is not registered for this service.`,
        lines: ['Please contact your provider.'],
        choices: [],
      }
    : {
        title: `Customer ${customerId} is not known.`,
        lines: ['Please contact your provider.'],
        choices: [],
        back: { label: 'Home', to: HOME },
      };
}

/**
 * "inputMode | boolean": exactly `true` or `false`; `1`, `yes` or `TRUE` are a 400 rather than a guess. Under the
 * ussd.lenient-booleans fault anything but `true` is false.
 */
export function queryBoolean(query: URLSearchParams, name: string, faults: FaultFlags = NO_FAULTS): boolean {
  const text = optionalQuery(query, name);
  if (text === undefined) return false;
  // A switch read as JSON: a value that is no JSON at all throws, and nothing turns that into a 400.
  if (faults.has(USSD_FAULT.booleansJsonParsed)) JSON.parse(text);
  if (text === 'true') return true;
  if (faults.has(USSD_FAULT.lenientBooleans)) return false;
  if (text === 'false') return false;
  throw badRequest(`${name} must be true or false`);
}

export function optionalInteger(query: URLSearchParams, name: string): number | undefined {
  const text = optionalQuery(query, name);
  return text === undefined ? undefined : parseInteger(text, name);
}

const NO_FAULTS: FaultFlags = new Set();

/** "page | integer >= 0 | Page offset"; `unchecked`: a fault lets a negative page through. */
export function queryPage(query: URLSearchParams, unchecked = false): number {
  const page = optionalInteger(query, 'page') ?? 0;
  if (page < 0 && !unchecked) throw badRequest('page must be an integer >= 0');
  return page;
}

/** A positive identifier (assetId, requestId): 0 and negatives can name nothing, so they are malformed, not unknown. */
export function optionalId(query: URLSearchParams, name: string): number | undefined {
  const id = optionalInteger(query, name);
  if (id !== undefined && id <= 0) throw badRequest(`${name} must be a positive integer`);
  return id;
}

// ---- shared words -------------------------------------------------------------------------------------------

export const HOME: Link = { path: '/ussd/home' };
export const PORTFOLIO: Link = { path: '/ussd/portfolio' };
export const STOCKS: Link = { path: '/ussd/stocks' };
export const ASSETS: Link = { path: '/ussd/assets' };
export const REQUESTS: Link = { path: '/ussd/requests' };

export function money(currency: Currency, value: number): string {
  return `${currency} ${Number.isInteger(value) ? String(value) : value.toFixed(2)}`;
}

export function signedPercent(ratio: number): string {
  const percent = ratio * 100;
  return `${percent >= 0 ? '+' : ''}${percent.toFixed(2)}%`;
}

/**
 * The currency orders are placed in: that of the customer's oldest ACTIVE investment account. Undefined when the
 * customer cannot trade (not ACTIVE, or no ACTIVE account): the menus then offer no Buy and placing is a 409.
 */
export function tradingCurrency(session: UssdSession): Currency | undefined {
  if (session.customer.status !== 'ACTIVE') return undefined;
  // List order is oldest first, then by id.
  return session.state.store.accountList(session.customer.customerId).find((a) => a.status === 'ACTIVE')?.currency;
}
