// Suite `resources`, area `timestamps`: createdAt and updatedAt: Unix timestamps in the one unit the server counts.
import {
  cite,
  describeResponse,
  describeUnit,
  exactValue,
  inSeconds,
  learnUnit,
  type TimestampUnit,
} from '../kit/index.js';
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import {
  observedTimestampedRecords,
  readTimestampedRecords,
  type Timestamp,
  type TimestampedRecord,
  timestampsOf,
  unitOf,
} from './helpers/timestamped-records.js';

/** A day either way of this machine's clock: beyond it a date is noted, not failed. */
const SKEW_SECONDS = 24 * 60 * 60;

function showTimestamp(t: Timestamp): string {
  return `${t.record.what}.${t.field} = ${exactValue(t.record.record, t.field)}`;
}

/** Fails the check for `wrong` timestamps, naming the first few and the rows of the tables they break. */
function failTimestamps(ctx: CheckContext, wrong: readonly Timestamp[], what: string, expected: string): never {
  const listed = wrong
    .slice(0, 5)
    .map((t) => `${showTimestamp(t)}${'problem' in t.read ? ` (${t.read.problem})` : ''}`);
  const first = wrong[0]!.record.res;
  return ctx.fail(
    `${wrong.length} ${what}: ${listed.join('; ')}${wrong.length > 5 ? ` (+${wrong.length - 5} more)` : ''}`,
    {
      expected,
      observed: describeResponse(first),
      exchange: cite(ctx, first),
      requirements: [...new Set(wrong.flatMap((t) => t.record.requirements))],
    },
  );
}

/** Dates a server may hold but that are worth a reader's eye: before 1970, or more than a day ahead of this clock. */
function unusualDates(timestamps: readonly Timestamp[], unit: TimestampUnit, nowSeconds: number): string[] {
  return timestamps.flatMap((t) => {
    const v = t.record.record[t.field];
    if (typeof v !== 'number' || unitOf(t) !== unit) return [];
    const seconds = inSeconds(v, unit);
    return seconds < 0 || seconds > nowSeconds + SKEW_SECONDS
      ? [`${showTimestamp(t)} (${seconds < 0 ? 'before 1970' : 'in the future'})`]
      : [];
  });
}

export const timestampsUnix = defineCheck({
  id: 'resources.timestamps.unix',
  title:
    'createdAt and updatedAt are Unix timestamps: integers, all in the one unit the server counts (seconds or milliseconds)',
  level: 'MUST',
  requirements: [
    'REQ-CUST-06',
    'REQ-CUST-08',
    'REQ-ACCT-07',
    'REQ-ACCT-08',
    'REQ-INST-08',
    'REQ-INST-09',
    'REQ-ASSET-13',
    'REQ-ASSET-14',
    'REQ-TXN-08',
    'REQ-TXN-09',
  ],
  note: '"Unix timestamp" names no unit (REQ-CUST-09): the unit is learnt from the timestamps read, the one most of them are plausible Unix times in (a date up to the year 2286 in seconds, or in milliseconds), and every timestamp is judged against it: one server, one meaning of "Unix timestamp". The token record\'s timestamps are judged by auth.token.timestamps. A date before 1970 or in the future, and whether updatedAt >= createdAt, are only recorded (the data a server holds is its own).',
  explain: {
    sends:
      'GET of each fixture record (customer, account, asset, transaction) and the first page of GET /instruments?investmentType=INTERNATIONAL_STOCKS',
    passes:
      'every createdAt and updatedAt there is an integer, a plausible Unix time in seconds or in milliseconds (a date up to the year 2286), and all of them count the same unit; dates before 1970 or in the future are only noted',
    fails:
      'a timestamp that is not an integer, one that is no Unix time in either unit (microseconds, say), one in another unit than the rest (a record in milliseconds among records in seconds), or as many in one unit as in the other: the check fails, naming the fields',
  },
  async run(ctx) {
    judgeTimestamps(ctx, await readTimestampedRecords(ctx));
  },
  // Observed traffic: the records of every 200 answer of a resource or list endpoint, by the same rule.
  async observe(ctx) {
    const records = observedTimestampedRecords(ctx);
    if (records.length === 0) ctx.skip('the traffic holds no record of a resource or list endpoint');
    judgeTimestamps(ctx, records);
  },
});

/** Judges every createdAt and updatedAt of `records` against the one unit most of them count. */
function judgeTimestamps(ctx: CheckContext, records: readonly TimestampedRecord[]): void {
  const timestamps = timestampsOf(records);
  if (timestamps.length === 0)
    ctx.skip(
      `no createdAt or updatedAt was read (${records.length} record(s)): nothing to judge (the checks of each endpoint judge its answers)`,
    );
  const none = timestamps.filter((t) => unitOf(t) === undefined);
  if (none.length > 0)
    failTimestamps(
      ctx,
      none,
      'timestamp(s) are no Unix time',
      'createdAt and updatedAt are integers counting seconds or milliseconds since 1970 (a date up to the year 2286 in either unit)',
    );
  const learnt = learnUnit(timestamps.map((t) => unitOf(t)!));
  if (learnt.unit === undefined)
    failTimestamps(
      ctx,
      timestamps,
      `timestamp(s) count no one unit: ${learnt.seconds} in seconds, ${learnt.milliseconds} in milliseconds`,
      'every createdAt and updatedAt in one unit: one server, one meaning of "Unix timestamp"',
    );
  const unit = learnt.unit;
  const other = timestamps.filter((t) => unitOf(t) !== unit);
  if (other.length > 0)
    failTimestamps(
      ctx,
      other,
      `timestamp(s) count ${unit === 'seconds' ? 'milliseconds' : 'seconds'}, while the server's other ${timestamps.length - other.length} count ${unit}`,
      `every createdAt and updatedAt in the unit the server counts (${unit}): one server, one meaning of "Unix timestamp"`,
    );
  ctx.judged('a timestamp', timestamps.length);
  ctx.observe(describeUnit(learnt));
  const unusual = unusualDates(timestamps, unit, Math.floor(Date.now() / 1000));
  if (unusual.length > 0)
    ctx.observe(
      `dates a reader may want to look at (not failed): ${unusual.slice(0, 5).join('; ')}${unusual.length > 5 ? ` (+${unusual.length - 5} more)` : ''}`,
    );
  const both = records.filter((r) => typeof r.record.createdAt === 'number' && typeof r.record.updatedAt === 'number');
  const ordered = both.filter((r) => (r.record.updatedAt as number) >= (r.record.createdAt as number));
  ctx.observe(
    `${records.length} record(s) read; updatedAt >= createdAt on ${ordered.length} of ${both.length}${
      ordered.length < both.length
        ? ` (not on: ${both
            .filter((r) => !ordered.includes(r))
            .map((r) => r.what)
            .join(', ')})`
        : ''
    }`,
  );
}
