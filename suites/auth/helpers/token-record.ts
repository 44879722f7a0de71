// The "Auth token record" of suite `auth`, read by the token, expiry and scope areas: the lifetime it states, who
// judges which of its fields, a field read where present, its scopes, and the record against what the table states.
import {
  describeResponse,
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
export function absentTo(field: string): FieldOwner {
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
export const OWNED_FIELDS: Record<string, FieldOwner> = {
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
export function recordFieldOf(problemPath: string, path: string): string {
  return (path === '' ? problemPath : problemPath.slice(path.length + 1)).split(/[.[]/)[0]!;
}

/**
 * The record against what the "Auth token record" table states at MUST and no other check judges: the token (a
 * non-empty string) and organization (an object with id, name and clientId), where present. A field left out is
 * auth.token.fields' and a field OWNED_FIELDS names is its owner's: both only recorded here (one cause, one failure).
 */
export function expectTokenRecord(
  ctx: CheckContext,
  res: HttpResponse,
  record: Record<string, unknown>,
  path: string,
): void {
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
