// Assertions several checks share. Each fails the check with the GUIDE's layout: what was expected, what was
// observed, and the exchange that shows it.
import type { HttpResponse } from '../../src/http/client.js';
import { parseJson } from '../../src/http/json.js';
import { pathAndQuery } from '../../src/http/message.js';
import { redirectNote } from '../../src/http/redirect.js';
import { proxyErrorPage } from '../../src/http/proxy.js';
import { validateAgainst } from '../../src/schemas.js';
import type { CheckContext, Finding } from '../../src/engine/index.js';

const EXCERPT = 300;

/**
 * Status and body excerpt, from the recorded (redacted) exchange: a server that echoes a credential must not leak it. A
 * proxy's own error page is told as the proxy's (src/http/proxy.ts), never quoted as the server's answer.
 */
export function describeResponse(res: HttpResponse): string {
  const page = proxyErrorPage(res);
  if (page !== undefined) return `${res.status}: ${page.text}`;
  const text = res.exchange.response?.bodyExcerpt ?? '';
  const body = text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text;
  return `${res.status}${redirectNote(res)}${body ? ` ${body}` : ''}`;
}

export { redirectNote } from '../../src/http/redirect.js';

export function expectStatus(ctx: CheckContext, res: HttpResponse, status: number, what = `status ${status}`): void {
  if (res.status !== status)
    ctx.fail(`expected ${status}, got ${res.status}${redirectNote(res)}`, {
      expected: what,
      observed: describeResponse(res),
      exchange: res.exchange,
    });
}

export function expectSuccess(ctx: CheckContext, res: HttpResponse, what = 'a 2xx answer'): void {
  if (res.status < 200 || res.status > 299)
    ctx.fail(`expected 2xx, got ${res.status}${redirectNote(res)}`, {
      expected: what,
      observed: describeResponse(res),
      exchange: res.exchange,
    });
}

/**
 * Any 4xx is a rejection (GUIDE: 400, 401, 403, 422… all count). A 2xx served what it should not; a 5xx crashed.
 * `requirements`: those of the check's the failure breaks, when not all of them.
 */
export function expectRejection(
  ctx: CheckContext,
  res: HttpResponse,
  expected: string,
  requirements?: readonly string[],
): void {
  if (res.status >= 400 && res.status <= 499) return;
  const verdict =
    res.status >= 500
      ? `${res.status}: the server failed instead of rejecting the request`
      : res.status >= 300 && res.status <= 399
        ? `${res.status}: a redirect instead of a rejection${redirectNote(res)}`
        : `${res.status}: the server accepted the request`;
  ctx.fail(verdict, {
    expected,
    observed: describeResponse(res),
    exchange: res.exchange,
    ...(requirements ? { requirements: [...requirements] } : {}),
  });
}

/** `cause`: the check that owns what a body that is no JSON breaks, when it is not the caller (Finding.cause). */
export function expectJson(ctx: CheckContext, res: HttpResponse, cause?: Finding['cause']): unknown {
  const parsed = parseJson(res.text);
  if (!parsed.ok)
    ctx.fail(`${parsed.error}${contentNote(res)}`, {
      expected: 'a JSON body',
      observed: describeResponse(res),
      exchange: res.exchange,
      ...(cause ? { cause } : {}),
    });
  return parsed.value;
}

/** Why a body may not be JSON, as the headers tell it: a content encoding nobody asked for, or another media type. */
function contentNote(res: HttpResponse): string {
  const encoding = res.header('content-encoding')?.trim();
  // The client sends no Accept-Encoding and never decompresses: an inflated body could be gigabytes from a few bytes.
  if (encoding && encoding.toLowerCase() !== 'identity') {
    return `; the body is ${encoding}-encoded (Content-Encoding: ${encoding}) although the request accepted no encoding, and it is not decompressed`;
  }
  const type = mediaTypeOf(res);
  if (type === undefined) return '; the response has no Content-Type';
  return isJsonMediaType(type) ? '' : `; the response is ${type}, not application/json`;
}

/** The media type of a response's Content-Type, without its parameters (charset…); undefined when there is none. */
export function mediaTypeOf(res: HttpResponse): string | undefined {
  return res.header('content-type')?.split(';')[0]?.trim();
}

/** application/json or a structured-syntax +json type (RFC 6839), in any case. */
export function isJsonMediaType(type: string): boolean {
  return /^application\/([a-z0-9.+-]*\+)?json$/i.test(type);
}

export interface SchemaOptions {
  /** Where `value` sits in the body ("data", "" for the body itself): problems are named by that path. */
  path: string;
  /** The spec table the schema stands for. */
  table: string;
  /**
   * Fields whose problems another check judges ("one cause, one failure"): recorded as also seen for `owner`, never
   * failed here. `'all'` reads the whole value leniently. Problems of the value itself (not an object) are always judged.
   */
  leftTo?: { fields: readonly string[] | 'all'; owner: string };
  /** The owner of the table when it is not the caller: a failure here gives way to the owner's (Finding.cause). */
  cause?: Finding['cause'];
  /**
   * Where the table has no Required column (Instrument, Asset, Transaction): a field that is absent is the presence
   * check's (`owner`, citing `requirements`), recorded as also seen and never failed here; a field that is present is
   * judged for its type.
   */
  absentTo?: AbsentTo;
}

/** Who judges the presence of a table's fields where the table does not require them. */
export interface AbsentTo {
  owner: string;
  requirements: readonly string[];
}

/** Whether a schema problem is a member missing from `value` (a table's field left out, not one of the wrong type). */
export function isAbsence(problemPath: string, root: string, value: unknown): boolean {
  const field = fieldOf(problemPath, root);
  return (
    field !== undefined &&
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    (value as Record<string, unknown>)[field] === undefined
  );
}

/**
 * Records fields missing from a table without a Required column as also seen for their presence check; `missing` are
 * problem paths ("data.name", "data[3].symbol").
 */
export function noteAbsent(
  ctx: CheckContext,
  res: HttpResponse,
  table: string,
  missing: readonly string[],
  absentTo: AbsentTo,
): void {
  if (missing.length === 0) return;
  ctx.alsoSee({
    requirements: [...absentTo.requirements],
    ownedBy: absentTo.owner,
    message: `${table} in ${res.exchange.request.method} ${pathAndQuery(res.exchange.request.url)} leaves out ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` (+${missing.length - 5} more)` : ''}`,
    exchange: res.exchange,
  });
}

/** Validates against schemas/<schema>.schema.json; a failure names the field path and the spec table. */
export function expectSchema(
  ctx: CheckContext,
  res: HttpResponse,
  value: unknown,
  schema: string,
  opts: SchemaOptions,
): void {
  const every = validateAgainst(schema, value, opts.path);
  const absent = opts.absentTo ? every.filter((p) => isAbsence(p.path, opts.path, value)) : [];
  if (opts.absentTo)
    noteAbsent(
      ctx,
      res,
      opts.table,
      absent.map((p) => p.path),
      opts.absentTo,
    );
  const all = every.filter((p) => !absent.includes(p));
  const leftToOthers = (path: string) => {
    const field = fieldOf(path, opts.path);
    const left = opts.leftTo?.fields ?? [];
    return field !== undefined && (left === 'all' || left.includes(field));
  };
  const seen = all.filter((p) => leftToOthers(p.path));
  if (seen.length > 0 && opts.leftTo) {
    const listed = seen
      .slice(0, 5)
      .map((p) => `${p.path} ${p.message}`)
      .join('; ');
    ctx.alsoSee({
      requirements:
        rowsBroken(
          ctx,
          opts.table,
          seen.map((p) => fieldOf(p.path, opts.path)),
        ) ?? [],
      ownedBy: opts.leftTo.owner,
      message: `${opts.table} in ${res.exchange.request.method} ${pathAndQuery(res.exchange.request.url)}: ${listed}`,
      exchange: res.exchange,
    });
  }
  const problems = all.filter((p) => !leftToOthers(p.path));
  if (problems.length === 0) return;
  const listed = problems
    .slice(0, 5)
    .map((p) => `${p.path} ${p.message}`)
    .join('; ');
  const rows = rowsBroken(
    ctx,
    opts.table,
    problems.map((p) => fieldOf(p.path, opts.path)),
  );
  ctx.fail(`${opts.table}: ${listed}${problems.length > 5 ? ` (+${problems.length - 5} more)` : ''}`, {
    expected: `${opts.path || 'the body'} matches the spec's "${opts.table}" table`,
    observed: describeResponse(res),
    exchange: res.exchange,
    ...(rows ? { requirements: rows } : {}),
    ...(opts.cause ? { cause: opts.cause } : {}),
  });
}

/**
 * The requirements a schema failure breaks: the rows of the spec table the failing fields are (`| status | … |`), of
 * those the check cites (a table is named by its heading, with or without the heading's remark in parentheses). Undefined when a problem is not one field's (the whole body is not an object, say): then the
 * failure stands for all the check cites. Lets the verdict name REQ-CUST-04, not every row of the table.
 */
export function rowsBroken(
  ctx: CheckContext,
  table: string,
  fields: ReadonlyArray<string | undefined>,
): string[] | undefined {
  const rows = new Set<string>();
  for (const field of fields) {
    const row =
      field === undefined
        ? undefined
        : ctx.check.requirements.find(
            (r) => (r.section === table || r.section.startsWith(`${table} (`)) && r.quote.startsWith(`| ${field} |`),
          );
    if (!row) return undefined;
    rows.add(row.id);
  }
  return rows.size > 0 ? [...rows] : undefined;
}

/** The check that judges the success envelope's code and message (REQ-ENV-01, 03, 04); the others record what they see. */
export const ENVELOPE_OWNER = 'resources.customers.get';
/** The check that judges the error body {code, message} (REQ-ERR-01, REQ-ERRB-01/02). */
const ERROR_BODY_OWNER = 'resources.errors.body';

/**
 * The success envelope: a JSON object, which the check needs to go on. Its code (the HTTP status as a string) and
 * message (a non-empty text) are judged by ENVELOPE_OWNER alone (REQ-ENV-03, REQ-ENV-04); any other check records what
 * it sees as also seen ("one cause, one failure"), and fails for it only should the owner not.
 */
export function readEnvelope(ctx: CheckContext, res: HttpResponse): Record<string, unknown> {
  const body = expectJson(ctx, res);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    ctx.fail('the answer is not a JSON object', {
      expected: 'the success envelope {data, code, message}',
      observed: describeResponse(res),
      exchange: res.exchange,
    });
  }
  const env = body as Record<string, unknown>;
  if (ctx.check.id === ENVELOPE_OWNER) {
    judgeEnvelope(ctx, res, env);
    return env;
  }
  const where = `${res.exchange.request.method} ${pathAndQuery(res.exchange.request.url)}`;
  for (const defect of envelopeDefects(env, res.status))
    ctx.alsoSee({
      requirements: [defect.requirement],
      ownedBy: ENVELOPE_OWNER,
      message: `the envelope of ${where} has ${defect.what}`,
      exchange: res.exchange,
    });
  return env;
}

function judgeEnvelope(ctx: CheckContext, res: HttpResponse, env: Record<string, unknown>): void {
  expectSchema(ctx, res, env, 'envelope', { path: '', table: 'Response envelope' });
  const [defect] = envelopeDefects(env, res.status);
  if (defect)
    ctx.fail(`envelope ${defect.what}`, {
      expected: defect.expected,
      observed: describeResponse(res),
      exchange: res.exchange,
    });
}

/**
 * What a success envelope breaks of REQ-ENV-03 (code, the HTTP status as a string) and REQ-ENV-04 (message, a short
 * success text): the one reading of those rows that the owner judges and every other check records.
 */
export function envelopeDefects(
  env: Record<string, unknown>,
  status: number,
): Array<{ requirement: string; what: string; expected: string }> {
  const { code, message } = env;
  return [
    ...(code !== String(status)
      ? [
          {
            requirement: 'REQ-ENV-03',
            what: `code ${JSON.stringify(code)}, not "${status}"`,
            expected: `code is the HTTP status as a string ("${status}")`,
          },
        ]
      : []),
    ...(typeof message !== 'string' || message.trim() === ''
      ? [
          {
            requirement: 'REQ-ENV-04',
            what: `message ${JSON.stringify(message)}, not a short success text`,
            expected: 'a short success text in message',
          },
        ]
      : []),
  ];
}

/** The members of `value` that break its schema (a field the GET showed wrong, met again, is the same defect). */
export function invalidFields(value: unknown, schema: string): string[] {
  return [...new Set(validateAgainst(schema, value).flatMap((p) => fieldOf(p.path, '') ?? []))];
}

/** The member of the validated value a problem path names (`data.status` → `status`); undefined for the value itself. */
export function fieldOf(problemPath: string, root: string): string | undefined {
  const rest =
    root === '' ? problemPath : problemPath.startsWith(`${root}.`) ? problemPath.slice(root.length + 1) : undefined;
  if (rest === undefined || rest === '(root)') return undefined;
  return /^[^.[]+/.exec(rest)?.[0];
}

/**
 * The error body {code, message}, both strings. Owned by ERROR_BODY_OWNER: another check that finds it missing gives
 * up on that failure when the owner fails for REQ-ERR-01 too ("one cause, one failure"), and keeps it otherwise.
 */
export function expectErrorBody(ctx: CheckContext, res: HttpResponse): void {
  const cause =
    ctx.check.id === ERROR_BODY_OWNER ? undefined : { ownedBy: ERROR_BODY_OWNER, requirements: ['REQ-ERR-01'] };
  const body = expectJson(ctx, res, cause);
  expectSchema(ctx, res, body, 'error', { path: '', table: 'Error body', ...(cause ? { cause } : {}) });
}

/** The error body when it is one: a JSON object with code and message both strings. */
export function errorBodyOf(res: HttpResponse): { code: string; message: string } | undefined {
  const parsed = parseJson(res.text);
  if (!parsed.ok || validateAgainst('error', parsed.value).length > 0) return undefined;
  return parsed.value as { code: string; message: string };
}

/**
 * The error body as a check that does not judge it meets it: a body that is not `{code, message}` breaks requirements
 * ERROR_BODY_OWNER owns (REQ-ERR-01), recorded as also seen; a check citing REQ-ERR-01 fails for it should the owner not.
 */
export function noteErrorBody(ctx: CheckContext, res: HttpResponse): void {
  if (errorBodyOf(res) !== undefined) return;
  ctx.alsoSee({
    requirements: ['REQ-ERR-01'],
    ownedBy: ERROR_BODY_OWNER,
    message: `the ${res.status} answer to ${res.exchange.request.method} ${pathAndQuery(res.exchange.request.url)} has no error body {code, message}: ${describeResponse(res)}`,
    exchange: res.exchange,
  });
}
