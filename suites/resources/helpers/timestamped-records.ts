// The records whose createdAt and updatedAt the timestamp checks read, and each timestamp read as a Unix time.
import {
  isObject,
  observedAnswers,
  observedPath,
  timestampUnitOf,
  type HttpResponse,
  type TimestampUnit,
} from '../../kit/index.js';
import { type CheckContext } from '../../../src/engine/index.js';
import { BY_ID, INSTRUMENTS_LIST } from './endpoints.js';
import { dataOf, readLeniently, readListLeniently } from './lenient-reads.js';

/** The createdAt and updatedAt rows of each table ("Unix timestamp"). */
const TIMESTAMP_REQUIREMENTS = {
  customers: ['REQ-CUST-06', 'REQ-CUST-08'],
  accounts: ['REQ-ACCT-07', 'REQ-ACCT-08'],
  instruments: ['REQ-INST-08', 'REQ-INST-09'],
  assets: ['REQ-ASSET-13', 'REQ-ASSET-14'],
  transactions: ['REQ-TXN-08', 'REQ-TXN-09'],
} as const;

export interface TimestampedRecord {
  what: string;
  record: Record<string, unknown>;
  /** The answer it came in. */
  res: HttpResponse;
  requirements: readonly string[];
}

/** The records whose timestamps the run reads: each fixture record, and the first page of GET /instruments. */
export async function readTimestampedRecords(ctx: CheckContext): Promise<TimestampedRecord[]> {
  const f = ctx.fixtures;
  const records: TimestampedRecord[] = [];
  for (const ep of BY_ID) {
    const id = f[ep.fixture];
    if (id === undefined) continue;
    const got = await readLeniently(ctx, `${ep.prefix}/${id}`);
    if (got)
      records.push({
        what: `GET ${ep.prefix}/${id}: data`,
        record: got.data,
        res: got.res,
        requirements: TIMESTAMP_REQUIREMENTS[ep.name],
      });
  }
  const instruments = await readListLeniently(ctx, INSTRUMENTS_LIST.path, INSTRUMENTS_LIST.query(ctx));
  instruments?.items.forEach((item, i) => {
    if (isObject(item))
      records.push({
        what: `GET /instruments: data[${i}]`,
        record: item,
        res: instruments.res,
        requirements: TIMESTAMP_REQUIREMENTS.instruments,
      });
  });
  return records;
}

/** The endpoints whose answers carry records with createdAt and updatedAt, by method and path below the base URL. */
const TIMESTAMPED_ENDPOINTS: ReadonlyArray<{
  method: string;
  path: RegExp;
  table: keyof typeof TIMESTAMP_REQUIREMENTS;
}> = [
  { method: 'GET', path: /^\/customers\/[^/]+$/, table: 'customers' },
  { method: 'PUT', path: /^\/customers$/, table: 'customers' },
  { method: 'GET', path: /^\/accounts(?:\/[^/]+)?$/, table: 'accounts' },
  { method: 'GET', path: /^\/assets\/[^/]+$/, table: 'assets' },
  { method: 'GET', path: /^\/transactions(?:\/[^/]+)?$/, table: 'transactions' },
  { method: 'GET', path: /^\/instruments$/, table: 'instruments' },
];

/**
 * The records of observed traffic (a judge of traffic): `data` of every 200 answer of an endpoint above, an object or,
 * for a list, each object item. Answers that carry none are the business of the checks of that endpoint.
 */
export function observedTimestampedRecords(ctx: CheckContext): TimestampedRecord[] {
  const endpointOf = (res: HttpResponse) => {
    const path = observedPath(ctx, res);
    return path === undefined
      ? undefined
      : TIMESTAMPED_ENDPOINTS.find((e) => e.method === res.exchange.request.method && e.path.test(path));
  };
  return observedAnswers(
    ctx,
    '200 answer of a resource or list endpoint',
    (res) => res.status === 200 && endpointOf(res) !== undefined,
  ).flatMap((res) => {
    const table = endpointOf(res)!.table;
    const data = dataOf(res);
    const name = `#${res.exchange.seq} ${res.exchange.request.method} ${observedPath(ctx, res)!}`;
    const items: Array<[string, unknown]> = Array.isArray(data)
      ? data.map((d, i) => [`data[${i}]`, d])
      : [['data', data]];
    return items.flatMap(([at, record]) =>
      isObject(record) ? [{ what: `${name}: ${at}`, record, res, requirements: TIMESTAMP_REQUIREMENTS[table] }] : [],
    );
  });
}

export interface Timestamp {
  record: TimestampedRecord;
  field: 'createdAt' | 'updatedAt';
  /** The unit it is a plausible Unix time in, or why it is none. */
  read: ReturnType<typeof timestampUnitOf>;
}

/**
 * Every createdAt and updatedAt of the records, read as a Unix time. An absent field is not read here: which fields a
 * table requires is the schema checks' business.
 */
export function timestampsOf(records: readonly TimestampedRecord[]): Timestamp[] {
  return records.flatMap((record) =>
    (['createdAt', 'updatedAt'] as const)
      .filter((field) => record.record[field] !== undefined)
      .map((field) => ({ record, field, read: timestampUnitOf(record.record[field]) })),
  );
}

export const unitOf = (t: Timestamp): TimestampUnit | undefined => ('unit' in t.read ? t.read.unit : undefined);
