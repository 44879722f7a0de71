// The records whose createdAt and updatedAt the timestamp checks read, and each timestamp read as a Unix time.
import {
  isObject,
  observedAnswers,
  observedLine,
  observedPath,
  timestampUnitOf,
  type HttpResponse,
  type TimestampUnit,
} from '../../kit/index.js';
import { type CheckContext } from '../../../src/engine/index.js';
import { BY_ID, endpointAt, INSTRUMENTS_LIST } from './endpoints.js';
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

/**
 * The records of observed traffic (a judge of traffic): `data` of every 200 answer of an endpoint above, an object or,
 * for a list, each object item. Answers that carry none are the business of the checks of that endpoint.
 */
export function observedTimestampedRecords(ctx: CheckContext): TimestampedRecord[] {
  // The tables' timestamps come in the reads by id and the lists, and in the customer a PUT /customers answers with.
  const tableOf = (res: HttpResponse): keyof typeof TIMESTAMP_REQUIREMENTS | undefined => {
    const path = observedPath(ctx, res);
    const method = res.exchange.request.method;
    if (method === 'PUT') return path === '/customers' ? 'customers' : undefined;
    return method === 'GET' ? endpointAt(path)?.name : undefined;
  };
  return observedAnswers(
    ctx,
    '200 answer of a resource or list endpoint',
    (res) => res.status === 200 && tableOf(res) !== undefined,
  ).flatMap((res) => {
    const table = tableOf(res)!;
    const data = dataOf(res);
    const name = observedLine(ctx, res);
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
