// The endpoints of the suite: each GET-by-id and each list, with what its checks enforce.
import { type AbsentTo, type FixtureName, type Query } from '../../kit/index.js';
import { type CheckContext } from '../../../src/engine/index.js';

/** GET-by-id endpoints of the spec. */
export interface ByIdEndpoint {
  name: 'customers' | 'accounts' | 'assets' | 'transactions';
  prefix: string;
  fixture: FixtureName;
  idField: string;
  schema: string;
  table: string;
  /** What GET-by-id of this resource enforces. */
  requirements: readonly string[];
  /** Customer fields are not guaranteed present ("not shown"), so its id may be absent. */
  idOptional?: boolean;
  /** A table without a Required column (Asset, Transaction): a field left out is the presence check's, at SHOULD. */
  absentTo?: AbsentTo;
}

/** The check that judges whether Instrument, Asset and Transaction carry every field of their table (SHOULD). */
export const FIELDS_OWNER = 'resources.fields.present';

export const CUSTOMER_BY_ID: ByIdEndpoint = {
  name: 'customers',
  prefix: '/customers',
  fixture: 'customerId',
  idField: 'customerId',
  schema: 'customer',
  table: 'Customer',
  requirements: [
    'REQ-ENV-01',
    'REQ-ENV-02',
    'REQ-ENV-03',
    'REQ-ENV-04',
    'REQ-CUST-01',
    'REQ-CUST-02',
    'REQ-CUST-03',
    'REQ-CUST-04',
    'REQ-CUST-05',
    'REQ-CUST-06',
    'REQ-CUST-08',
    'REQ-STATE-01',
    'REQ-HDR-01',
    'REQ-CUSTEP-02',
  ],
  idOptional: true,
};
export const ACCOUNT_BY_ID: ByIdEndpoint = {
  name: 'accounts',
  prefix: '/accounts',
  fixture: 'accountId',
  idField: 'accountId',
  schema: 'account',
  table: 'Account (investment account)',
  requirements: [
    'REQ-ENV-01',
    'REQ-ENV-02',
    'REQ-ENV-03',
    'REQ-ENV-04',
    'REQ-ACCT-01',
    'REQ-ACCT-02',
    'REQ-ACCT-04',
    'REQ-ACCT-05',
    'REQ-ACCT-06',
    'REQ-ACCT-07',
    'REQ-ACCT-08',
    'REQ-STATE-02',
    'REQ-ACCTEP-06',
  ],
};
export const ASSET_BY_ID: ByIdEndpoint = {
  name: 'assets',
  prefix: '/assets',
  fixture: 'assetId',
  idField: 'assetId',
  schema: 'asset',
  table: 'Asset',
  requirements: [
    'REQ-ENV-01',
    'REQ-ENV-02',
    'REQ-ENV-03',
    'REQ-ENV-04',
    'REQ-ASSET-01',
    'REQ-ASSET-02',
    'REQ-ASSET-03',
    'REQ-ASSET-04',
    'REQ-ASSET-05',
    'REQ-ASSET-06',
    'REQ-ASSET-07',
    'REQ-ASSET-08',
    'REQ-ASSET-09',
    'REQ-ASSET-10',
    'REQ-ASSET-11',
    'REQ-ASSET-12',
    'REQ-ASSET-13',
    'REQ-ASSET-14',
    'REQ-ASSETEP-01',
    'REQ-ASSETEP-03',
  ],
  absentTo: { owner: FIELDS_OWNER, requirements: ['REQ-ASSETEP-05'] },
};
export const TRANSACTION_BY_ID: ByIdEndpoint = {
  name: 'transactions',
  prefix: '/transactions',
  fixture: 'transactionId',
  idField: 'transactionId',
  schema: 'transaction',
  table: 'Transaction',
  requirements: [
    'REQ-ENV-01',
    'REQ-ENV-02',
    'REQ-ENV-03',
    'REQ-ENV-04',
    'REQ-TXN-01',
    'REQ-TXN-02',
    'REQ-TXN-03',
    'REQ-TXN-04',
    'REQ-TXN-05',
    'REQ-TXN-06',
    'REQ-TXN-07',
    'REQ-TXN-08',
    'REQ-TXN-09',
    'REQ-TXNEP-05',
  ],
  absentTo: { owner: FIELDS_OWNER, requirements: ['REQ-TXNEP-08'] },
};
export const BY_ID: readonly ByIdEndpoint[] = [CUSTOMER_BY_ID, ACCOUNT_BY_ID, ASSET_BY_ID, TRANSACTION_BY_ID];

/** List endpoints of the spec, with the query a correct client sends. */
export interface ListEndpoint {
  name: 'accounts' | 'instruments' | 'transactions';
  path: string;
  query(ctx: CheckContext): Query;
  schema: string;
  table: string;
  /** What the list check of this endpoint enforces. */
  requirements: readonly string[];
  /** What a missing or malformed required query parameter breaks. */
  queryRequirements: readonly string[];
  /** A table without a Required column (Instrument, Transaction): a field left out is the presence check's, at SHOULD. */
  absentTo?: AbsentTo;
}

export const ACCOUNTS_LIST: ListEndpoint = {
  name: 'accounts',
  path: '/accounts',
  query: (ctx) => ({ customerId: ctx.fixture('customerId') }),
  schema: 'account',
  table: 'Account (investment account)',
  requirements: [
    'REQ-ENV-01',
    'REQ-ENV-02',
    'REQ-ENV-03',
    'REQ-ENV-04',
    'REQ-ACCT-01',
    'REQ-ACCT-02',
    'REQ-ACCT-03',
    'REQ-ACCT-04',
    'REQ-ACCT-05',
    'REQ-ACCT-06',
    'REQ-STATE-02',
    'REQ-ACCTEP-01',
    'REQ-ACCTEP-02',
    'REQ-ACCTEP-03',
  ],
  queryRequirements: ['REQ-ACCTEP-02'],
};
export const INSTRUMENTS_LIST: ListEndpoint = {
  name: 'instruments',
  path: '/instruments',
  query: () => ({ investmentType: 'INTERNATIONAL_STOCKS' }),
  schema: 'instrument',
  table: 'Instrument',
  requirements: [
    'REQ-SVC-07',
    'REQ-ENV-01',
    'REQ-ENV-02',
    'REQ-ENV-03',
    'REQ-ENV-04',
    'REQ-INST-01',
    'REQ-INST-02',
    'REQ-INST-03',
    'REQ-INST-04',
    'REQ-INST-05',
    'REQ-INST-06',
    'REQ-INST-07',
    'REQ-INST-08',
    'REQ-INST-09',
    'REQ-INSTEP-01',
    'REQ-INSTEP-04',
  ],
  queryRequirements: ['REQ-INSTEP-03'],
  absentTo: { owner: FIELDS_OWNER, requirements: ['REQ-INSTEP-06'] },
};
export const TRANSACTIONS_LIST: ListEndpoint = {
  name: 'transactions',
  path: '/transactions',
  query: (ctx) => ({ customerId: ctx.fixture('customerId') }),
  schema: 'transaction',
  table: 'Transaction',
  requirements: [
    'REQ-ENV-01',
    'REQ-ENV-02',
    'REQ-ENV-03',
    'REQ-ENV-04',
    'REQ-TXN-01',
    'REQ-TXN-02',
    'REQ-TXN-03',
    'REQ-TXN-04',
    'REQ-TXN-05',
    'REQ-TXN-06',
    'REQ-TXN-07',
    'REQ-TXN-08',
    'REQ-TXN-09',
    'REQ-TXNEP-01',
    'REQ-TXNEP-02',
  ],
  queryRequirements: ['REQ-TXNEP-01'],
  absentTo: { owner: FIELDS_OWNER, requirements: ['REQ-TXNEP-07'] },
};
export const LISTS = [ACCOUNTS_LIST, INSTRUMENTS_LIST, TRANSACTIONS_LIST] as const;

/** The id of a path `{prefix}/{id}` (one segment, URL-decoded where it decodes), or undefined for any other path. */
export function byIdPath(prefix: string, path: string | undefined): string | undefined {
  if (path === undefined || !path.startsWith(`${prefix}/`)) return undefined;
  const rest = path.slice(prefix.length + 1);
  if (rest === '' || rest.includes('/')) return undefined;
  // An observed path may hold a % that starts no escape: it is then the id as sent.
  try {
    return decodeURIComponent(rest);
  } catch {
    return rest;
  }
}

/** The GET endpoint a path below the base URL names, a read by id or a list; undefined for any other path. */
export function endpointAt(path: string | undefined): ByIdEndpoint | ListEndpoint | undefined {
  return BY_ID.find((ep) => byIdPath(ep.prefix, path) !== undefined) ?? LISTS.find((ep) => ep.path === path);
}
