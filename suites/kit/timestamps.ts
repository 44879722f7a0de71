// "Unix timestamp" names no unit (REQ-CUST-09): a server counts seconds (POSIX time) or milliseconds (JavaScript and
// Java clocks). The suite never assumes one: it reads the unit from the server's own timestamps, each a plausible Unix
// time in one unit, and judges every createdAt and updatedAt against it. One server, one meaning of "Unix timestamp":
// a timestamp in the other unit than the rest of the server's is wrong, whichever unit the server chose.
import type { HttpResponse } from '../../src/http/client.js';
import { parseJson } from '../../src/http/json.js';
import type { CheckContext } from '../../src/engine/index.js';
import { observedPath, observedTraffic } from './judge.js';
import { isObject } from './resource-helpers.js';

export type TimestampUnit = 'seconds' | 'milliseconds';

/**
 * The largest Unix time in seconds a date takes here: the year 2286. Every date since 26 April 1970 counted in
 * milliseconds exceeds it, and a count of milliseconds beyond it a thousand times over (the year 2286 again) is no Unix
 * time in either unit (microseconds, say). Dates before 1970 are Unix times too: the data a server holds is its own.
 */
const MAX_UNIX_SECONDS = 10_000_000_000;

const PER_SECOND: Record<TimestampUnit, number> = { seconds: 1, milliseconds: 1000 };

/** The unit a value is a plausible Unix time in, or why it is none. */
export function timestampUnitOf(value: unknown): { unit: TimestampUnit } | { problem: string } {
  if (typeof value !== 'number' || !Number.isInteger(value)) return { problem: 'not an integer' };
  const size = Math.abs(value);
  if (size <= MAX_UNIX_SECONDS) return { unit: 'seconds' };
  if (size <= MAX_UNIX_SECONDS * PER_SECOND.milliseconds) return { unit: 'milliseconds' };
  return { problem: 'past the year 2286 counted in seconds and in milliseconds: no Unix time in either unit' };
}

/** A Unix time given in `unit`, in whole seconds. */
export function inSeconds(value: number, unit: TimestampUnit): number {
  return Math.floor(value / PER_SECOND[unit]);
}

/** The unit in which `value` lies within `slackSeconds` of `nowMs` (the moment something was made), if either. */
export function unitNear(value: number, nowMs: number, slackSeconds: number): TimestampUnit | undefined {
  return (['seconds', 'milliseconds'] as const).find(
    (unit) => Math.abs(value - Math.floor((nowMs * PER_SECOND[unit]) / 1000)) <= slackSeconds * PER_SECOND[unit],
  );
}

export interface LearntUnit {
  /** The unit most timestamps are in; undefined when none was read, or as many are in one unit as in the other. */
  unit: TimestampUnit | undefined;
  seconds: number;
  milliseconds: number;
}

/** The server's unit, learnt from the units its timestamps are plausible in: the one most of them are in. */
export function learnUnit(units: readonly TimestampUnit[]): LearntUnit {
  const seconds = units.filter((u) => u === 'seconds').length;
  const milliseconds = units.length - seconds;
  return {
    unit: seconds > milliseconds ? 'seconds' : milliseconds > seconds ? 'milliseconds' : undefined,
    seconds,
    milliseconds,
  };
}

/** How the learnt unit reads in a report: "Unix timestamps count seconds (24 of 24 timestamps read)". */
export function describeUnit(learnt: LearntUnit): string {
  const total = learnt.seconds + learnt.milliseconds;
  if (total === 0) return 'no timestamp read: the unit of Unix timestamps could not be learnt';
  if (learnt.unit === undefined)
    return `Unix timestamps count no one unit: ${learnt.seconds} timestamp(s) read are in seconds, ${learnt.milliseconds} in milliseconds`;
  const count = learnt.unit === 'seconds' ? learnt.seconds : learnt.milliseconds;
  return `Unix timestamps count ${learnt.unit} (${count} of ${total} timestamp(s) read)`;
}

/** The createdAt and updatedAt values of the items of a 200 list answer. */
function listTimestamps(res: HttpResponse): unknown[] {
  const parsed = parseJson(res.text);
  const data = res.status === 200 && parsed.ok && isObject(parsed.value) ? parsed.value.data : undefined;
  return (Array.isArray(data) ? data : [])
    .filter(isObject)
    .flatMap((item) => [item.createdAt, item.updatedAt].filter((v) => v !== undefined));
}

/**
 * For a check that judges timestamps outside the resources (the token record): the unit the server's resources count,
 * learnt from the first page of GET /instruments (it needs no fixture). Undefined, with why, when that page gives no
 * timestamps in one unit: their own checks judge them, and the caller then has only its own values to go by.
 */
export async function resourceTimestampUnit(ctx: CheckContext): Promise<ResourceUnit> {
  const res = await ctx.send({
    method: 'GET',
    path: '/instruments',
    query: { investmentType: 'INTERNATIONAL_STOCKS' },
  });
  return learntFrom(listTimestamps(res), `GET /instruments answered ${res.status}`);
}

type ResourceUnit = { unit: TimestampUnit; text: string } | { unit: undefined; text: string };

/** The one unit `values` count, with `where` they were read; undefined when they count none, or both. */
function learntFrom(values: readonly unknown[], where: string): ResourceUnit {
  const units = values.flatMap((v) => {
    const read = timestampUnitOf(v);
    return 'unit' in read ? [read.unit] : [];
  });
  const learnt = learnUnit(units);
  if (learnt.unit === undefined || learnt.seconds * learnt.milliseconds > 0)
    return { unit: undefined, text: `${where}: ${describeUnit(learnt)}` };
  return { unit: learnt.unit, text: `${where}: ${describeUnit(learnt)}` };
}

const LIST_PATHS = new Set(['/accounts', '/transactions', '/instruments']);

/**
 * resourceTimestampUnit for a judge of traffic, which sends nothing: the unit the server's resources count, learnt from
 * the items of every 200 answer of a list endpoint (GET /accounts, /transactions, /instruments) the traffic holds.
 * Undefined, with why, when they give none, or count both units (resources.timestamps.unix judges that).
 */
export function observedResourceTimestampUnit(ctx: CheckContext): ResourceUnit {
  const lists = observedTraffic(ctx).filter(
    (res) =>
      res.status === 200 && res.exchange.request.method === 'GET' && LIST_PATHS.has(observedPath(ctx, res) ?? ''),
  );
  return learntFrom(
    lists.flatMap((res) => listTimestamps(res)),
    `${lists.length} 200 answer(s) of a list endpoint in the traffic`,
  );
}
