// The "Auth token record" of suite `auth`, read by the token, expiry and scope areas: the lifetime it states, who
// judges which of its fields, a field read where present, its scopes, the record against what the table states, and the
// judges of its fields that a token answer of the suite's own and an observed one share.
import {
  cite,
  describeResponse,
  expectJson,
  tokenRecordOf,
  unitNear,
  type TimestampUnit,
  observedAnswers,
  observedPath,
  tokenIn,
  validateAgainst,
  type HttpResponse,
  type IssuedToken,
  type SchemaProblem,
} from '../../kit/index.js';
import { type CheckContext } from '../../../src/engine/index.js';

export const TOKEN_TTL_SECONDS = 3600;

/** The check that judges whether the token record carries every field of the table (REQ-TOKEP-10, SHOULD). */
const FIELDS_OWNER = 'auth.token.fields';

/** Who judges a field of the token record, and the requirements a defect of it breaks. */
interface FieldOwner {
  owner: string;
  requirements: string[];
}

/** A field the record leaves out: auth.token.fields' (REQ-TOKEP-10), and the row's where presence is all it says. */
function absentTo(field: string): FieldOwner {
  const row = field === 'message' ? ['REQ-TOKEN-01'] : field === 'maxTTL' ? ['REQ-TOKEN-05'] : [];
  return { owner: FIELDS_OWNER, requirements: ['REQ-TOKEP-10', ...row] };
}

/**
 * A field of the token record that a check judges where present. The table has no Required column, so a field left out
 * is auth.token.fields' (SHOULD): recorded as also seen for it, and the check skips, having nothing to judge.
 */
export function presentField(ctx: CheckContext, issued: IssuedToken, field: string): unknown {
  const value = issued.record[field];
  if (value !== undefined) return value;
  ctx.alsoSee({
    requirements: absentTo(field).requirements,
    ownedBy: FIELDS_OWNER,
    message: `the token record leaves out ${field}`,
    exchange: issued.res.exchange,
  });
  return ctx.skip(
    `the token record has no ${field}, so there is nothing to judge here; ${FIELDS_OWNER} judges its presence`,
  );
}

/** The scopes of a token record: an array of strings, or one string of space- (or comma-) separated names; the type is not shown. */
export function scopesOf(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
  if (typeof value === 'string') return value.split(/[\s,]+/).filter((s) => s !== '');
  return undefined;
}

/**
 * Rows of the token record whose value a check of their own judges, where present: auth.token.issued leaves them to it.
 * message and tokenId have no type in the table; their only reasonable types are auth.token.fields' (SHOULD).
 */
const OWNED_FIELDS: Record<string, FieldOwner> = {
  message: { owner: FIELDS_OWNER, requirements: ['REQ-TOKEN-01'] },
  tokenId: { owner: FIELDS_OWNER, requirements: ['REQ-TOKEP-10'] },
  tokenType: { owner: 'auth.token.type-bearer', requirements: ['REQ-TOKEN-06'] },
  scope: { owner: 'auth.token.scope', requirements: ['REQ-TOKEN-07'] },
  trustedIps: { owner: 'auth.token.trusted-ips', requirements: ['REQ-TOKEN-08'] },
  expiresIn: { owner: 'auth.expiry.expires-in', requirements: ['REQ-TOKEN-04'] },
  createdAt: { owner: 'auth.token.timestamps', requirements: ['REQ-TOKEN-11'] },
  updatedAt: { owner: 'auth.token.timestamps', requirements: ['REQ-TOKEN-12'] },
};

/** The field of the token record a schema problem is about ("data.organization.name" → organization). */
function recordFieldOf(problemPath: string, path: string): string {
  return (path === '' ? problemPath : problemPath.slice(path.length + 1)).split(/[.[]/)[0]!;
}

/**
 * The record against what the "Auth token record" table states at MUST and no other check judges: the token (a
 * non-empty string) and organization (an object with id, name and clientId), where present. A field left out is
 * auth.token.fields' and a field OWNED_FIELDS names is its owner's: both only recorded here (one cause, one failure).
 */
function expectTokenRecord(ctx: CheckContext, res: HttpResponse, record: Record<string, unknown>, path: string): void {
  const own: SchemaProblem[] = [];
  for (const p of validateAgainst('token-record', record, path)) {
    const field = recordFieldOf(p.path, path);
    const absent = record[field] === undefined;
    const to = absent ? absentTo(field) : OWNED_FIELDS[field];
    if (to === undefined) {
      own.push(p);
      continue;
    }
    ctx.alsoSee({
      requirements: to.requirements,
      ownedBy: to.owner,
      message: absent ? `Auth token record: leaves out ${field}` : `Auth token record: ${p.path} ${p.message}`,
      exchange: res.exchange,
    });
  }
  if (own.length === 0) return;
  ctx.fail(
    `Auth token record: ${own
      .slice(0, 5)
      .map((p) => `${p.path} ${p.message}`)
      .join('; ')}${own.length > 5 ? ` (+${own.length - 5} more)` : ''}`,
    {
      expected: `${path || 'the body'} carries a token (a non-empty string), and an organization, where it has one, is an object with id, name and clientId ("Auth token record")`,
      observed: describeResponse(res),
      exchange: res.exchange,
    },
  );
}

/** The 2xx answers of POST /oauth/token in observed traffic (a judge of traffic); a skip when there are none. */
export function observedTokenAnswers(ctx: CheckContext): HttpResponse[] {
  return observedAnswers(
    ctx,
    '2xx answer of POST /oauth/token',
    (res) =>
      res.exchange.request.method === 'POST' &&
      observedPath(ctx, res) === '/oauth/token' &&
      res.status >= 200 &&
      res.status <= 299,
  );
}

/** The token records of observed traffic: every 2xx answer of POST /oauth/token that carries one. */
export function observedTokens(ctx: CheckContext): IssuedToken[] {
  return observedTokenAnswers(ctx).flatMap((res) => {
    const found = tokenIn(res);
    return found ? [{ ...found, res }] : [];
  });
}

/**
 * The token records of observed traffic that carry `field`. Skips when the traffic holds none, or none carries the field
 * (auth.token.fields judges that).
 */
export function observedTokensWith(ctx: CheckContext, field: string): IssuedToken[] {
  const tokens = observedTokens(ctx);
  const withField = tokens.filter((t) => t.record[field] !== undefined);
  if (withField.length === 0)
    ctx.skip(
      tokens.length === 0
        ? 'the traffic holds no token record'
        : `no token record of the traffic has ${field}, so there is nothing to judge here; ${FIELDS_OWNER} judges its presence`,
    );
  return withField;
}

const CLOCK_SLACK_SECONDS = 24 * 3600;

/** The fields of the "Auth token record" table, in its order. */
export const TOKEN_RECORD_FIELDS = [
  'message',
  'tokenId',
  'token',
  'expiresIn',
  'maxTTL',
  'tokenType',
  'scope',
  'trustedIps',
  'organization',
  'createdAt',
  'updatedAt',
] as const;

/** A 2xx token answer: JSON carrying a token record of the table's shape. */
export function judgeTokenAnswer(ctx: CheckContext, res: HttpResponse): void {
  const body = expectJson(ctx, res);
  const record = tokenRecordOf(body);
  if (!record) {
    return ctx.fail('no token in the answer', {
      expected: 'a token record, with or without the {data, code, message} envelope',
      observed: describeResponse(res),
      exchange: res.exchange,
    });
  }
  expectTokenRecord(ctx, res, record.record, record.enveloped ? 'data' : '');
  ctx.judged('the token record');
}

/** Every field of the table there, message a string and tokenId a string or an integer. */
export function judgeTokenFields(ctx: CheckContext, issued: IssuedToken): void {
  const missing = TOKEN_RECORD_FIELDS.filter((f) => issued.record[f] === undefined);
  const path = issued.enveloped ? 'data' : '';
  const typed = validateAgainst('token-record', issued.record, path).filter((p) => {
    const field = recordFieldOf(p.path, path);
    return (field === 'message' || field === 'tokenId') && issued.record[field] !== undefined;
  });
  if (missing.length === 0 && typed.length === 0) return ctx.judged('the token record');
  const broken = new Set([
    ...missing.flatMap((f) => absentTo(f).requirements),
    ...typed.flatMap((p) => OWNED_FIELDS[recordFieldOf(p.path, path)]!.requirements),
  ]);
  ctx.fail(
    [
      ...(missing.length > 0 ? [`the token record leaves out ${missing.join(', ')}`] : []),
      ...typed.map((p) => `${p.path} ${p.message}`),
    ].join('; '),
    {
      expected: `every field of the "Auth token record" table (${TOKEN_RECORD_FIELDS.join(', ')}), message a string and tokenId a string or an integer${issued.enveloped ? "; a record in data may leave its message to the envelope's" : ''}`,
      observed: describeResponse(issued.res),
      exchange: cite(ctx, issued.res),
      requirements: [...broken],
    },
  );
}

/** trustedIps is a list of address strings. */
export function judgeTrustedIps(ctx: CheckContext, issued: IssuedToken, ips: unknown): void {
  if (!Array.isArray(ips) || !ips.every((ip) => typeof ip === 'string')) {
    ctx.fail(`trustedIps is ${JSON.stringify(ips)}, not a list of address strings`, {
      expected: 'trustedIps: an array of strings (possibly empty)',
      observed: describeResponse(issued.res),
      exchange: cite(ctx, issued.res),
    });
  }
  ctx.judged("the token record's trustedIps");
}

/**
 * createdAt and updatedAt of a token record asked for at `askedMs`: integers near that moment, both in one unit, which
 * is returned.
 */
export function judgeTokenTimes(
  ctx: CheckContext,
  issued: IssuedToken,
  askedMs: number,
  valueOf: (field: string) => unknown,
): TimestampUnit {
  const units: TimestampUnit[] = [];
  for (const field of ['createdAt', 'updatedAt']) {
    const value = valueOf(field);
    // A day either way: no clock is that far off, and a token handed out again may be up to an hour old. One
    // counted from another origin misses by years; one in microseconds is near the moment in neither unit.
    const unit =
      typeof value === 'number' && Number.isInteger(value) ? unitNear(value, askedMs, CLOCK_SLACK_SECONDS) : undefined;
    if (unit === undefined) {
      return ctx.fail(
        `${field} is ${JSON.stringify(value)}, not a Unix time near the moment the token was asked for (${Math.floor(askedMs / 1000)} in seconds, ${askedMs} in milliseconds)`,
        {
          expected: `${field}: an integer Unix time within a day of ${Math.floor(askedMs / 1000)} (seconds) or ${askedMs} (milliseconds)`,
          observed: describeResponse(issued.res),
          exchange: cite(ctx, issued.res),
        },
      );
    }
    units.push(unit);
  }
  const [created, updated] = units as [TimestampUnit, TimestampUnit];
  if (created !== updated) {
    ctx.fail(`createdAt counts ${created}, updatedAt ${updated}`, {
      expected: 'createdAt and updatedAt in one unit: one server, one meaning of "Unix timestamp"',
      observed: describeResponse(issued.res),
      exchange: cite(ctx, issued.res),
    });
  }
  return created;
}
