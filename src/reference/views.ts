// How a stored record is shown to a client, where the spec leaves the showing open (see choices/resources.ts): which
// customer fields are present, the timeFrame, requestType and status strings, the asset numbers and their relation,
// and an account's updatedAt under activity the interface does not show. The store keeps one truth; only the view
// changes, so every route shows a record the same way.
import type { Choices } from './choices/index.js';
import type { Account, Asset, Customer, Instrument, Transaction } from './store.js';

/** The optional fields a customer may have no value for (PUT /customers: "Only customerId is required"). */
export const UNSET_CUSTOMER_FIELDS = ['firstName', 'lastName', 'referenceId'] as const;

/**
 * A customer as sent. `unset` names the optional fields this customer has no value for: with `customerFields=all`
 * there are none (every customer has every field); otherwise they are left out or sent as null.
 */
export function customerView(
  c: Customer,
  choices: Pick<Choices, 'customerFields'>,
  unset: ReadonlySet<string>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...c };
  if (choices.customerFields === 'all') return out;
  for (const f of UNSET_CUSTOMER_FIELDS) {
    if (!unset.has(f)) continue;
    if (choices.customerFields === 'absent') delete out[f];
    else out[f] = null;
  }
  return out;
}

const OTHER_TIME_FRAMES: Record<string, string> = { '1D': '24h', '1W': '7d', '1M': '30d', '1Y': 'YTD' };

export function instrumentView(i: Instrument, choices: Pick<Choices, 'timeFrames'>): Instrument {
  if (choices.timeFrames === 'short') return i;
  return {
    ...i,
    valueChangeOverTime: i.valueChangeOverTime.map((v) => ({
      ...v,
      timeFrame: OTHER_TIME_FRAMES[v.timeFrame] ?? v.timeFrame,
    })),
  };
}

/**
 * With `assetNumbers=integers` every quantity and price is a whole number (position 8.5 shows as 8); with
 * `assetRelation=independent` available also leaves out a pending sell of one unit, so it is no longer position − locked.
 */
export function assetView(a: Asset, choices: Pick<Choices, 'assetNumbers' | 'assetRelation'>): Asset {
  const whole = choices.assetNumbers === 'integers';
  const n = (x: number) => (whole ? Math.floor(x) : x);
  const position = n(a.position);
  const locked = n(a.locked);
  const available = choices.assetRelation === 'derived' ? position - locked : Math.max(0, position - locked - 1);
  return {
    ...a,
    investmentAmount: n(a.investmentAmount),
    position,
    locked,
    available,
    purchasePrice: n(a.purchasePrice),
    marketPrice: n(a.marketPrice),
  };
}

const OTHER_REQUEST_TYPES: Record<string, string> = { BUY: 'PURCHASE', SELL: 'SALE' };
const OTHER_STATUSES: Record<string, string> = {
  COMPLETED: 'SETTLED',
  PENDING: 'IN_PROGRESS',
  CANCELED: 'CANCELLED',
  ERROR: 'FAILED',
};

export function transactionView(t: Transaction, choices: Pick<Choices, 'transactionValues'>): Transaction {
  if (choices.transactionValues === 'menu') return t;
  return {
    ...t,
    requestType: OTHER_REQUEST_TYPES[t.requestType] ?? t.requestType,
    status: OTHER_STATUSES[t.status] ?? t.status,
  };
}

/**
 * An account read by its id. With `accountActivity=live` something the interface does not show (a statement run, a
 * balance sync) touched it just now: updatedAt is the time of the read, later than the list showed it.
 */
export function accountDetailView(a: Account, choices: Pick<Choices, 'accountActivity'>, nowSeconds: number): Account {
  if (choices.accountActivity === 'static') return a;
  return { ...a, updatedAt: Math.max(a.updatedAt + 1, nowSeconds) };
}

/** The members that hold a "Unix timestamp" wherever the server writes a record (every table, the token record). */
const TIMESTAMP_FIELDS = new Set(['createdAt', 'updatedAt']);

/** A time the store keeps in Unix seconds, in the unit the server shows (`timestampUnit`, REQ-CUST-09). */
export function timestampInUnit(seconds: number, choices: Pick<Choices, 'timestampUnit'>): number {
  return choices.timestampUnit === 'milliseconds' ? seconds * 1000 : seconds;
}

/**
 * `value` with every createdAt and updatedAt, at any depth, in the unit the server shows: the one place every answer
 * (choices-middleware.ts) and every event payload (webhooks/service.ts) goes through, so the server has one meaning of
 * "Unix timestamp". The store keeps seconds; a value that is not a whole number (a fault's) is left as it is.
 */
export function inTimestampUnit<T>(value: T, choices: Pick<Choices, 'timestampUnit'>): T {
  if (choices.timestampUnit === 'seconds') return value;
  const convert = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(convert);
    if (typeof v !== 'object' || v === null) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v))
      out[k] = TIMESTAMP_FIELDS.has(k) && Number.isSafeInteger(x) ? timestampInUnit(x as number, choices) : convert(x);
    return out;
  };
  return convert(value) as T;
}
