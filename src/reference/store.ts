// The reference server's data: an in-memory store built from a JSON seed (fixtures/reference-seed.json). The seed
// is checked on load against the spec's field tables, so a broken seed fails at start, not as a confusing check failure.
import { readFileSync } from 'node:fs';
import { fromPackageRoot } from '../paths.js';
import { inListOrder } from './paging.js';

export const STATUSES = ['ACTIVE', 'SUSPENDED', 'CLOSED'] as const;
const CURRENCIES = ['USD', 'EUR', 'ZK'] as const;
export const INVESTMENT_TYPES = ['INTERNATIONAL_STOCKS'] as const;
/** "States named by the interface": the status filter of the requests menu. */
export const ORDER_STATUSES = ['PENDING', 'COMPLETED', 'CANCELED', 'ERROR'] as const;

export type Status = (typeof STATUSES)[number];
export type Currency = (typeof CURRENCIES)[number];
export type InvestmentType = (typeof INVESTMENT_TYPES)[number];
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export interface Customer {
  customerId: number;
  firstName: string;
  lastName: string;
  status: Status;
  referenceId: number;
  createdAt: number;
  updatedAt: number;
}

export interface Account {
  accountId: number;
  customerId: number;
  status: Status;
  investmentType: InvestmentType;
  currency: Currency;
  createdAt: number;
  updatedAt: number;
}

interface ValueChange {
  timeFrame: string;
  percentChange: number;
  summary: string;
}

export interface Instrument {
  instrumentId: number;
  name: string;
  symbol: string;
  investmentId: number;
  isAvailable: boolean;
  fractionalEnabled: boolean;
  valueChangeOverTime: ValueChange[];
  createdAt: number;
  updatedAt: number;
}

export interface Asset {
  assetId: number;
  instrumentId: number;
  customerId: number;
  name: string;
  symbol: string;
  investmentAmount: number;
  position: number;
  locked: number;
  available: number;
  purchasePrice: number;
  marketPrice: number;
  currency: Currency;
  createdAt: number;
  updatedAt: number;
}

export interface Transaction {
  transactionId: number;
  assetId: number;
  customerId: number;
  amount: number;
  currency: Currency;
  requestType: string;
  status: string;
  createdAt: number;
  updatedAt: number;
}

/**
 * An order request placed through the USSD stocks menu and listed by the requests menu. The spec names the entity
 * and its statuses ("States and transitions") but shows no resource table, so these fields are the reference
 * server's own; they never appear in a JSON resource, only in USSD text.
 */
export interface OrderRequest {
  requestId: number;
  customerId: number;
  symbol: string;
  instrumentId: number;
  /** "amount | integer | Total order request amount" (GET /ussd/stocks). */
  amount: number;
  currency: Currency;
  status: OrderStatus;
  createdAt: number;
  updatedAt: number;
}

export interface NewOrderRequest {
  customerId: number;
  instrumentId: number;
  amount: number;
  currency: Currency;
}

export type CancelOutcome =
  { kind: 'canceled'; request: OrderRequest } | { kind: 'not-found' } | { kind: 'not-pending'; request: OrderRequest };

/** The fixture ids a run against the reference server uses (same names as the config file's `fixtures`). */
export interface ReferenceFixtures {
  customerId: number;
  otherCustomerId: number;
  accountId: number;
  assetId: number;
  transactionId: number;
  mutableCustomerId: number;
  paginationCustomerId: number;
  unknownId: number;
}

/**
 * Describes many transactions of one customer without listing them. Transaction i (0-based) gets
 * id = firstId + ((i * idStride) % count) * idStep, so ids are neither contiguous nor in createdAt order (a server
 * that sorts by id instead of createdAt is caught), and createdAt = startAt + floor(i / sameCreatedAtGroup) * stepSeconds,
 * so groups share a createdAt and the id tie-break decides their order. idStride must be coprime with count.
 */
interface GeneratedTransactions {
  customerId: number;
  assetId: number;
  currency: Currency;
  count: number;
  firstId: number;
  idStep?: number;
  idStride?: number;
  startAt: number;
  stepSeconds: number;
  sameCreatedAtGroup?: number;
  requestTypes: string[];
  statuses: string[];
  amounts: number[];
}

export interface Seed {
  description?: string;
  fixtures: ReferenceFixtures;
  customers: Customer[];
  accounts: Account[];
  instruments: Instrument[];
  assets: Asset[];
  transactions: Transaction[];
  /** Optional so that a seed written before order requests existed still loads. */
  orderRequests?: OrderRequest[];
  generated?: { transactions?: GeneratedTransactions[] };
}

export class SeedError extends Error {}

// ---- loading ------------------------------------------------------------------------------------------------

/**
 * Where the default seed is. fromPackageRoot is right for the compiled package (dist/src/…); when the sources run
 * directly (vitest, tsx) it points one folder too high, so the file is also looked for next to the sources.
 */
function defaultSeedPath(): string {
  return fromPackageRoot('fixtures', 'reference-seed.json');
}

export function loadSeed(path: string = defaultSeedPath()): Seed {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new SeedError(`cannot read the reference seed ${path}: ${(e as Error).message}`);
  }
  validateSeed(raw);
  return raw;
}

/** The fixture ids of a seed (by default the packaged one): what the built-in local target uses. */
export function defaultFixtures(seed: Seed = loadSeed()): ReferenceFixtures {
  return { ...seed.fixtures };
}

// ---- validation against the spec's field tables --------------------------------------------------------------

type FieldType = 'integer' | 'number' | 'string' | 'boolean' | 'valueChanges' | readonly string[];

const TIMESTAMPS = { createdAt: 'integer', updatedAt: 'integer' } as const;
const CUSTOMER_FIELDS: Record<keyof Customer, FieldType> = {
  customerId: 'integer',
  firstName: 'string',
  lastName: 'string',
  status: STATUSES,
  referenceId: 'integer',
  ...TIMESTAMPS,
};
const ACCOUNT_FIELDS: Record<keyof Account, FieldType> = {
  accountId: 'integer',
  customerId: 'integer',
  status: STATUSES,
  investmentType: INVESTMENT_TYPES,
  currency: CURRENCIES,
  ...TIMESTAMPS,
};
const INSTRUMENT_FIELDS: Record<keyof Instrument, FieldType> = {
  instrumentId: 'integer',
  name: 'string',
  symbol: 'string',
  investmentId: 'integer',
  isAvailable: 'boolean',
  fractionalEnabled: 'boolean',
  valueChangeOverTime: 'valueChanges',
  ...TIMESTAMPS,
};
const ASSET_FIELDS: Record<keyof Asset, FieldType> = {
  assetId: 'integer',
  instrumentId: 'integer',
  customerId: 'integer',
  name: 'string',
  symbol: 'string',
  investmentAmount: 'number',
  position: 'number',
  locked: 'number',
  available: 'number',
  purchasePrice: 'number',
  marketPrice: 'number',
  currency: CURRENCIES,
  ...TIMESTAMPS,
};
const TRANSACTION_FIELDS: Record<keyof Transaction, FieldType> = {
  transactionId: 'integer',
  assetId: 'integer',
  customerId: 'integer',
  amount: 'number',
  currency: CURRENCIES,
  requestType: 'string',
  status: 'string',
  ...TIMESTAMPS,
};

const ORDER_REQUEST_FIELDS: Record<keyof OrderRequest, FieldType> = {
  requestId: 'integer',
  customerId: 'integer',
  symbol: 'string',
  instrumentId: 'integer',
  amount: 'integer',
  currency: CURRENCIES,
  status: ORDER_STATUSES,
  ...TIMESTAMPS,
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fitsType(value: unknown, type: FieldType): boolean {
  if (Array.isArray(type)) return typeof value === 'string' && type.includes(value);
  switch (type) {
    case 'integer':
      return Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'valueChanges':
      return (
        Array.isArray(value) &&
        value.every(
          (v) =>
            isObject(v) &&
            typeof v.timeFrame === 'string' &&
            typeof v.percentChange === 'number' &&
            typeof v.summary === 'string',
        )
      );
  }
  return false;
}

function checkRecords(kind: string, records: unknown, fields: Record<string, FieldType>, idField: string): void {
  if (!Array.isArray(records)) throw new SeedError(`seed.${kind} must be an array`);
  const ids = new Set<number>();
  records.forEach((rec: unknown, i) => {
    if (!isObject(rec)) throw new SeedError(`seed.${kind}[${i}] is not an object`);
    for (const [field, type] of Object.entries(fields)) {
      if (!fitsType(rec[field], type))
        throw new SeedError(
          `seed.${kind}[${i}].${field} is missing or not ${Array.isArray(type) ? type.join('|') : type}`,
        );
    }
    const extra = Object.keys(rec).filter((k) => !(k in fields));
    if (extra.length > 0)
      throw new SeedError(`seed.${kind}[${i}] has fields the spec does not list: ${extra.join(', ')}`);
    const id = rec[idField] as number;
    if (ids.has(id)) throw new SeedError(`seed.${kind}: ${idField} ${id} occurs twice`);
    ids.add(id);
  });
}

function validateSeed(raw: unknown): asserts raw is Seed {
  if (!isObject(raw)) throw new SeedError('the seed is not a JSON object');
  checkRecords('customers', raw.customers, CUSTOMER_FIELDS, 'customerId');
  checkRecords('accounts', raw.accounts, ACCOUNT_FIELDS, 'accountId');
  checkRecords('instruments', raw.instruments, INSTRUMENT_FIELDS, 'instrumentId');
  checkRecords('assets', raw.assets, ASSET_FIELDS, 'assetId');
  checkRecords('transactions', raw.transactions, TRANSACTION_FIELDS, 'transactionId');
  if (raw.orderRequests !== undefined)
    checkRecords('orderRequests', raw.orderRequests, ORDER_REQUEST_FIELDS, 'requestId');
  if (!isObject(raw.fixtures)) throw new SeedError('seed.fixtures must be an object');
  const names: Array<keyof ReferenceFixtures> = [
    'customerId',
    'otherCustomerId',
    'accountId',
    'assetId',
    'transactionId',
    'mutableCustomerId',
    'paginationCustomerId',
    'unknownId',
  ];
  for (const name of names) {
    if (!Number.isSafeInteger(raw.fixtures[name])) throw new SeedError(`seed.fixtures.${name} must be an integer`);
  }
  const generated = raw.generated;
  if (generated !== undefined) {
    if (!isObject(generated)) throw new SeedError('seed.generated must be an object');
    if (generated.transactions !== undefined && !Array.isArray(generated.transactions))
      throw new SeedError('seed.generated.transactions must be an array');
  }
}

// ---- generation -----------------------------------------------------------------------------------------------

function pick<T>(list: readonly T[], i: number, what: string): T {
  if (list.length === 0) throw new SeedError(`generated transactions: ${what} is empty`);
  return list[i % list.length]!;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

function generateTransactions(g: GeneratedTransactions): Transaction[] {
  const stride = g.idStride ?? 1;
  const step = g.idStep ?? 1;
  const group = g.sameCreatedAtGroup ?? 1;
  if (!Number.isSafeInteger(g.count) || g.count < 0)
    throw new SeedError('generated transactions: count must be an integer >= 0');
  if (g.count > 0 && gcd(stride, g.count) !== 1)
    throw new SeedError(`generated transactions: idStride ${stride} must be coprime with count ${g.count}`);
  const out: Transaction[] = [];
  for (let i = 0; i < g.count; i++) {
    const createdAt = g.startAt + Math.floor(i / group) * g.stepSeconds;
    out.push({
      transactionId: g.firstId + ((i * stride) % g.count) * step,
      assetId: g.assetId,
      customerId: g.customerId,
      amount: pick(g.amounts, i, 'amounts'),
      currency: g.currency,
      requestType: pick(g.requestTypes, i, 'requestTypes'),
      status: pick(g.statuses, i, 'statuses'),
      createdAt,
      updatedAt: createdAt + 60,
    });
  }
  return out;
}

// ---- the store ------------------------------------------------------------------------------------------------

/** New order request ids continue above the seeded ones (and above this floor when none are seeded). */
const FIRST_REQUEST_ID = 730000;
const REQUEST_ID_STEP = 7;

/** Fields of a customer a PUT may change ("PUT /customers" body). */
export type CustomerPatch = Partial<Pick<Customer, 'firstName' | 'lastName' | 'status' | 'referenceId'>>;

/** A list as the store keeps it: its own records, in list order. Not copies: page it, and copy what you hand out. */
export type StoredList<T> = readonly Readonly<T>[];

const NONE: StoredList<never> = [];

export class ReferenceStore {
  private customers = new Map<number, Customer>();
  private accounts = new Map<number, Account>();
  private instruments = new Map<number, Instrument>();
  private assets = new Map<number, Asset>();
  private transactions = new Map<number, Transaction>();
  private orderRequests = new Map<number, OrderRequest>();
  private nextRequestId = 0;
  // Lists in list order, so a list request sorts nothing and copies only its page (see paging.ts). Accounts, assets,
  // transactions and instruments never change after reset(); order requests do, so theirs are made when asked for and
  // dropped at each change.
  private accountLists = new Map<number, StoredList<Account>>();
  private assetLists = new Map<number, StoredList<Asset>>();
  private transactionLists = new Map<number, StoredList<Transaction>>();
  private instrumentList: StoredList<Instrument> = NONE;
  private availableInstrumentList: StoredList<Instrument> = NONE;
  private instrumentsBySymbol = new Map<string, Instrument>();
  private orderRequestLists = new Map<string, StoredList<OrderRequest>>();

  constructor(private readonly seed: Seed) {
    this.reset();
  }

  /** Back to the seed: lets a long `serve` session or a test start over without a restart. */
  reset(): void {
    const s = structuredClone(this.seed);
    const generated = (s.generated?.transactions ?? []).flatMap(generateTransactions);
    this.customers = byId(s.customers, (c) => c.customerId);
    this.accounts = byId(s.accounts, (a) => a.accountId);
    this.instruments = byId(s.instruments, (i) => i.instrumentId);
    this.assets = byId(s.assets, (a) => a.assetId);
    this.transactions = byId([...s.transactions, ...generated], (t) => t.transactionId, 'transactionId');
    this.orderRequests = byId(s.orderRequests ?? [], (r) => r.requestId, 'requestId');
    this.nextRequestId = Math.max(FIRST_REQUEST_ID, ...this.orderRequests.keys()) + REQUEST_ID_STEP;
    this.checkReferences(s.fixtures);
    this.accountLists = listsByCustomer(this.accounts.values(), (a) => a.accountId);
    this.assetLists = listsByCustomer(this.assets.values(), (a) => a.assetId);
    this.transactionLists = listsByCustomer(this.transactions.values(), (t) => t.transactionId);
    this.instrumentList = inListOrder(this.instruments.values(), (i) => i.instrumentId);
    this.availableInstrumentList = this.instrumentList.filter((i) => i.isAvailable);
    this.instrumentsBySymbol = new Map();
    // Seed order decides between symbols that differ only in case, as a search through the seed would.
    for (const i of this.instruments.values())
      if (!this.instrumentsBySymbol.has(i.symbol.toUpperCase()))
        this.instrumentsBySymbol.set(i.symbol.toUpperCase(), i);
    this.orderRequestLists.clear();
  }

  get fixtures(): ReferenceFixtures {
    return { ...this.seed.fixtures };
  }

  // Reads return copies: a caller (a route, a fault) editing a result must not edit the store. The *List reads are the
  // exception, typed read-only: they give whole lists for paging, which copies the page it hands out.

  /** Every customer, in no particular order (GET /customers, where a server serves it). */
  allCustomers(): Customer[] {
    return [...this.customers.values()].map((c) => structuredClone(c));
  }

  getCustomer(id: number): Customer | undefined {
    return copy(this.customers.get(id));
  }

  hasCustomer(id: number): boolean {
    return this.customers.has(id);
  }

  getAccount(id: number): Account | undefined {
    return copy(this.accounts.get(id));
  }

  accountsOf(customerId: number): Account[] {
    return copies(this.accountList(customerId));
  }

  accountList(customerId: number): StoredList<Account> {
    return this.accountLists.get(customerId) ?? NONE;
  }

  instrumentListOf(type: InvestmentType): StoredList<Instrument> {
    // Every seeded instrument is an INTERNATIONAL_STOCKS instrument: the only investment type there is.
    return type === 'INTERNATIONAL_STOCKS' ? this.instrumentList : NONE;
  }

  /** The instruments that can be bought (isAvailable), in list order. */
  availableInstruments(): StoredList<Instrument> {
    return this.availableInstrumentList;
  }

  /** The instrument with this symbol, matched case-insensitively. */
  instrumentBySymbol(symbol: string): Instrument | undefined {
    return copy(this.instrumentsBySymbol.get(symbol.toUpperCase()));
  }

  getInstrument(id: number): Instrument | undefined {
    return copy(this.instruments.get(id));
  }

  getAsset(id: number): Asset | undefined {
    return copy(this.assets.get(id));
  }

  assetList(customerId: number): StoredList<Asset> {
    return this.assetLists.get(customerId) ?? NONE;
  }

  getTransaction(id: number): Transaction | undefined {
    return copy(this.transactions.get(id));
  }

  transactionsOf(customerId: number): Transaction[] {
    return copies(this.transactionList(customerId));
  }

  transactionList(customerId: number): StoredList<Transaction> {
    return this.transactionLists.get(customerId) ?? NONE;
  }

  getOrderRequest(id: number): OrderRequest | undefined {
    return copy(this.orderRequests.get(id));
  }

  /** A customer's order requests, optionally of one status, in list order. */
  orderRequestsOf(customerId: number, status?: OrderStatus): OrderRequest[] {
    return copies(this.orderRequestList(customerId, status));
  }

  orderRequestList(customerId: number, status?: OrderStatus): StoredList<OrderRequest> {
    const key = `${customerId} ${status ?? ''}`;
    let list = this.orderRequestLists.get(key);
    if (list === undefined) {
      const mine = [...this.orderRequests.values()].filter(
        (r) => r.customerId === customerId && (status === undefined || r.status === status),
      );
      list = inListOrder(mine, (r) => r.requestId);
      // Only customers that exist: a fault serving any id must not let a client grow this without end.
      if (this.customers.has(customerId)) this.orderRequestLists.set(key, list);
    }
    return list;
  }

  /** Places an order request: always PENDING at first (nothing in the sandbox ever executes it). */
  placeOrderRequest(order: NewOrderRequest, nowSeconds: number): OrderRequest {
    const instrument = this.instruments.get(order.instrumentId);
    if (instrument === undefined) throw new Error(`instrument ${order.instrumentId} does not exist`);
    const requestId = this.nextRequestId;
    // Steps of more than 1 keep new ids non-contiguous, like the seeded ones, so a client that guesses ids is caught.
    this.nextRequestId += REQUEST_ID_STEP;
    const request: OrderRequest = {
      requestId,
      customerId: order.customerId,
      symbol: instrument.symbol,
      instrumentId: instrument.instrumentId,
      amount: order.amount,
      currency: order.currency,
      status: 'PENDING',
      createdAt: nowSeconds,
      updatedAt: nowSeconds,
    };
    this.orderRequests.set(requestId, request);
    this.orderRequestLists.clear();
    return structuredClone(request);
  }

  /** PENDING → CANCELED; every other status is final for a cancellation. */
  cancelOrderRequest(id: number, nowSeconds: number): CancelOutcome {
    const current = this.orderRequests.get(id);
    if (current === undefined) return { kind: 'not-found' };
    if (current.status !== 'PENDING') return { kind: 'not-pending', request: structuredClone(current) };
    const next: OrderRequest = { ...current, status: 'CANCELED', updatedAt: Math.max(nowSeconds, current.createdAt) };
    this.orderRequests.set(id, next);
    this.orderRequestLists.clear();
    return { kind: 'canceled', request: structuredClone(next) };
  }

  /** The customer holding a referenceId, to keep it unique ("Externally provided unique identifier"). */
  customerByReferenceId(referenceId: number): Customer | undefined {
    return copy([...this.customers.values()].find((c) => c.referenceId === referenceId));
  }

  /** Applies a patch and sets updatedAt; undefined when the customer does not exist. */
  updateCustomer(id: number, patch: CustomerPatch, nowSeconds: number): Customer | undefined {
    const current = this.customers.get(id);
    if (current === undefined) return undefined;
    const next: Customer = { ...current, ...patch, updatedAt: Math.max(nowSeconds, current.createdAt) };
    this.customers.set(id, next);
    return structuredClone(next);
  }

  private checkReferences(fixtures: ReferenceFixtures): void {
    for (const a of this.accounts.values())
      need(this.customers.has(a.customerId), `account ${a.accountId}: customer ${a.customerId} does not exist`);
    for (const a of this.assets.values()) {
      need(this.customers.has(a.customerId), `asset ${a.assetId}: customer ${a.customerId} does not exist`);
      need(this.instruments.has(a.instrumentId), `asset ${a.assetId}: instrument ${a.instrumentId} does not exist`);
    }
    for (const t of this.transactions.values()) {
      const asset = this.assets.get(t.assetId);
      need(asset !== undefined, `transaction ${t.transactionId}: asset ${t.assetId} does not exist`);
      need(
        asset?.customerId === t.customerId,
        `transaction ${t.transactionId}: asset ${t.assetId} belongs to another customer`,
      );
    }
    for (const r of this.orderRequests.values()) {
      need(this.customers.has(r.customerId), `order request ${r.requestId}: customer ${r.customerId} does not exist`);
      need(
        this.instruments.get(r.instrumentId)?.symbol === r.symbol,
        `order request ${r.requestId}: symbol ${r.symbol} is not that of instrument ${r.instrumentId}`,
      );
      need(r.amount > 0, `order request ${r.requestId}: amount must be > 0`);
    }
    need(this.customers.has(fixtures.customerId), `fixtures.customerId ${fixtures.customerId} is not a customer`);
    need(
      this.customers.has(fixtures.otherCustomerId),
      `fixtures.otherCustomerId ${fixtures.otherCustomerId} is not a customer`,
    );
    need(
      this.customers.has(fixtures.mutableCustomerId),
      `fixtures.mutableCustomerId ${fixtures.mutableCustomerId} is not a customer`,
    );
    need(
      this.customers.has(fixtures.paginationCustomerId),
      `fixtures.paginationCustomerId ${fixtures.paginationCustomerId} is not a customer`,
    );
    need(
      this.accounts.get(fixtures.accountId)?.customerId === fixtures.customerId,
      `fixtures.accountId ${fixtures.accountId} is not an account of customerId`,
    );
    need(
      this.assets.get(fixtures.assetId)?.customerId === fixtures.customerId,
      `fixtures.assetId ${fixtures.assetId} is not an asset of customerId`,
    );
    need(
      this.transactions.get(fixtures.transactionId)?.customerId === fixtures.customerId,
      `fixtures.transactionId ${fixtures.transactionId} is not a transaction of customerId`,
    );
    const u = fixtures.unknownId;
    need(
      ![this.customers, this.accounts, this.instruments, this.assets, this.transactions, this.orderRequests].some(
        (m: Map<number, unknown>) => m.has(u),
      ),
      `fixtures.unknownId ${u} is the id of a resource`,
    );
  }
}

function byId<T>(records: T[], id: (r: T) => number, what = 'id'): Map<number, T> {
  const map = new Map<number, T>();
  for (const r of records) {
    if (map.has(id(r))) throw new SeedError(`${what} ${id(r)} occurs twice (seed and generated records overlap)`);
    map.set(id(r), r);
  }
  return map;
}

function copy<T>(value: T | undefined): T | undefined {
  return value === undefined ? undefined : structuredClone(value);
}

function copies<T>(list: StoredList<T>): T[] {
  return list.map((r) => structuredClone(r) as T);
}

function listsByCustomer<T extends { customerId: number; createdAt: number }>(
  records: Iterable<T>,
  idOf: (r: T) => number,
): Map<number, StoredList<T>> {
  const groups = new Map<number, T[]>();
  for (const r of records) {
    const group = groups.get(r.customerId);
    if (group) group.push(r);
    else groups.set(r.customerId, [r]);
  }
  return new Map([...groups].map(([customerId, group]) => [customerId, inListOrder(group, idOf)]));
}

function need(condition: boolean, message: string): void {
  if (!condition) throw new SeedError(`reference seed: ${message}`);
}
