// How the client checks read a recorded request: which kind it is, the token it presents, the tokens the sandbox
// issued, the answers' paging meta. Judging stays in the checks; this only names what the records hold.
import type { CheckContext } from '../../src/engine/index.js';
import { headerValue, headerValues, verifySignature } from '../kit/index.js';
import { cite, type ClientRequest, type ClientTraffic, type ScenarioRecord } from './kit.js';

/** The path without the query: `/transactions` of `/transactions?customerId=1&page=100`. */
export function pathOf(r: ClientRequest): string {
  return r.path.split('?')[0]!;
}

/** A query parameter of the request (the first, if repeated); undefined when absent. */
export function queryParam(r: ClientRequest, name: string): string | undefined {
  return new URL(r.url).searchParams.get(name) ?? undefined;
}

export function isTokenRequest(r: ClientRequest): boolean {
  return r.method === 'POST' && pathOf(r) === '/oauth/token';
}

export function isRevoke(r: ClientRequest): boolean {
  return r.method === 'POST' && pathOf(r) === '/oauth/revoke';
}

export function succeeded(r: ClientRequest): boolean {
  return r.status >= 200 && r.status < 300;
}

export function header(r: ClientRequest, name: string): string | undefined {
  return headerValue(r.headers, name);
}

export function headers(r: ClientRequest, name: string): string[] {
  return headerValues(r.headers, name);
}

/** `POST /oauth/token (#3, scenario token)`: how a finding names a request (`(#3)` in observed traffic). */
export function named(r: ClientRequest): string {
  return `${r.method} ${r.path} (#${r.seq}${r.scenario !== undefined ? `, scenario ${r.scenario}` : ''})`;
}

/** Whether the traffic's source masked any of these request headers (lower-case names): a value no check can judge. */
export function withheldHeader(r: ClientRequest, ...names: string[]): boolean {
  return r.withheld !== undefined && names.some((n) => r.withheld!.headers.includes(n));
}

/** The token of `Authorization: Bearer <token>` (the scheme is case-insensitive, RFC 9110 §11.1); undefined otherwise. */
export function bearerOf(r: ClientRequest): string | undefined {
  const values = headers(r, 'authorization');
  if (values.length !== 1) return undefined;
  return /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(values[0]!.trim())?.[1];
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The access token of a token reply, enveloped in `data` or bare (REQ-TOKEP-06 leaves it open). */
function tokenOfReply(r: ClientRequest): string | undefined {
  if (!isTokenRequest(r) || !succeeded(r) || !isRecord(r.reply)) return undefined;
  const record = isRecord(r.reply.data) ? r.reply.data : r.reply;
  return typeof record.token === 'string' ? record.token : undefined;
}

/** Every token the sandbox issued in a scenario (the server, in observed traffic), with the seq of the reply that carried it, in order. */
export function issuedTokens(record: ClientTraffic): Array<{ token: string; seq: number }> {
  return record.requests.flatMap((r) => {
    const token = tokenOfReply(r);
    return token === undefined ? [] : [{ token, seq: r.seq }];
  });
}

/** `data` of a successful JSON answer and its `meta`, when the answer is an envelope. */
export function envelopeOf(r: ClientRequest): { data: unknown; meta: Record<string, unknown> | undefined } | undefined {
  if (!succeeded(r) || !isRecord(r.reply)) return undefined;
  return { data: r.reply.data, meta: isRecord(r.reply.meta) ? r.reply.meta : undefined };
}

/**
 * The request's `sig1` signature checked against the client's key (a scenario's; in observed traffic the one given,
 * under the key id given, if any); `skewSeconds: Infinity` leaves times unjudged.
 */
export function verifySig1(record: ClientTraffic, r: ClientRequest, requiredComponents?: readonly string[]) {
  return verifySignature(
    { method: r.method, url: r.url, headers: r.headers },
    {
      key: (keyId) => (record.keyId === undefined || keyId === record.keyId ? record.publicKeyPem : undefined),
      label: 'sig1',
      // The validity window is client.requests.signature-window's to judge, never a reason for another check to fail.
      skewSeconds: Number.POSITIVE_INFINITY,
      ...(requiredComponents ? { requiredComponents } : {}),
    },
  );
}

/** What a judge of judgeEach returns for a request that is not its to judge (another check's defect hides its subject). */
export const NOT_JUDGED = 'not judged here';

/**
 * Judges every request of the run with `judge` (a defect in words, undefined when it keeps the rule, or NOT_JUDGED),
 * and fails on the first defect found, citing it and counting the others; each request judged is recorded as judged.
 * A run with no request to judge ends skipped (after stopWhenBlocked's say), as does one whose requests were all
 * NOT_JUDGED (`unjudged` says why).
 */
export function judgeEach(
  ctx: CheckContext,
  subjects: ReadonlyArray<{ record: ClientTraffic; request: ClientRequest }>,
  judge: (
    record: ClientTraffic,
    r: ClientRequest,
  ) => { message: string; expected: string; observed: string; requirements?: string[] } | undefined | typeof NOT_JUDGED,
  nothing: string,
  unjudged = 'none of them could be judged here',
): void {
  if (subjects.length === 0) ctx.skip(nothing);
  const defects = subjects.flatMap(({ record, request }) => {
    const d = judge(record, request);
    if (d === NOT_JUDGED) return [];
    ctx.judged(named(request));
    return d === undefined ? [] : [{ request, ...d }];
  });
  if (ctx.subjectsJudged.count === 0) ctx.skip(`${subjects.length} request(s), ${unjudged}`);
  const first = defects[0];
  if (first === undefined) return;
  const more = defects.length > 1 ? ` (and ${defects.length - 1} more of ${subjects.length} requests)` : '';
  cite(ctx, first.request);
  for (const d of defects.slice(1, 5)) cite(ctx, d.request);
  const requirements = [...new Set(defects.flatMap((d) => d.requirements ?? []))];
  ctx.fail(`${named(first.request)}: ${first.message}${more}`, {
    expected: first.expected,
    observed: first.observed,
    exchange: first.request.exchange,
    ...(requirements.length > 0 ? { requirements } : {}),
  });
}

/**
 * One cause, one failure: a request that does not present, as `Bearer <token>`, a token the sandbox issued to the
 * client before it is client.requests.authorization's defect; the flow it belongs to (refused, in the sandbox, as
 * TOKEN_UNKNOWN or TOKEN_MISSING) is not judged by another check. Records it for the owner and ends the check
 * skipped; returns when every request but the token requests presents an issued token.
 */
export function stopWhenUnissued(ctx: CheckContext, record: ScenarioRecord): void {
  const issued = issuedTokens(record);
  const bad = record.requests.find((r) => {
    if (isTokenRequest(r)) return false;
    const token = bearerOf(r);
    return token === undefined || !issued.some((t) => t.seq < r.seq && t.token === token);
  });
  if (bad === undefined) return;
  ctx.alsoSee({
    ownedBy: 'client.requests.authorization',
    requirements: ['REQ-HDR-03'],
    message: `${named(bad)} does not present a token the sandbox issued to the client`,
    exchange: cite(ctx, bad),
  });
  ctx.skip(
    `the flow was cut short by a defect client.requests.authorization judges: ${named(bad)} presents no token the sandbox issued`,
  );
}
