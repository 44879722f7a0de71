// What the negative checks share: requests that are right in every way but one, made from a correctly signed request,
// and snapshots that let a check show that a rejected request changed nothing (and put things back when it did).
// Signature fields are read and written with a structured-fields library (RFC 8941/9651), never with regular
// expressions: a check that misparses the field it tampers with would blame the server for its own mistake.
import { parseDictionary, serializeDictionary, isInnerList, type Dictionary } from 'structured-headers';
import type { HttpResponse, PreparedRequest, RequestSpec } from '../../src/http/client.js';
import { contentDigest } from '../../src/http/digest.js';
import { exactNumber, parseJson } from '../../src/http/json.js';
import { headerValue, setHeader } from '../../src/http/message.js';
import { profileComponents } from '../../src/http/signature.js';
import type { CheckContext } from '../../src/engine/index.js';
import { describeResponse } from './expect.js';

/** The component names in the order the spec lists them ("Common request rules"), lower-cased as RFC 9421 §2.1 wants. */
export const SPEC_COMPONENT_ORDER = [
  'authorization',
  'content-digest',
  'content-length',
  'content-type',
  'x-client-id',
  'x-idempotency-key',
  '@method',
  '@target-uri',
  '@path',
  '@query',
] as const;

export function isSuccess(res: HttpResponse): boolean {
  return res.status >= 200 && res.status <= 299;
}

/** Any 4xx (GUIDE): a 2xx served what it should not, a 5xx crashed. */
export function isRejection(res: HttpResponse): boolean {
  return res.status >= 400 && res.status <= 499;
}

// ---- requests ---------------------------------------------------------------------------------------------------

/** A deep copy, so one signed request can be sent as is and again altered. */
export function copyRequest(req: PreparedRequest): PreparedRequest {
  return { method: req.method, url: req.url, headers: req.headers.map(([n, v]) => [n, v]), ...(req.body ? { body: new Uint8Array(req.body) } : {}) };
}

/** Replaces the body and its Content-Length; with `digest`, also its Content-Digest (what an attacker would do). */
export function replaceBody(req: PreparedRequest, body: string | Uint8Array, opts: { digest: boolean }): void {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  req.body = bytes;
  setHeader(req.headers, 'Content-Length', String(bytes.byteLength));
  if (opts.digest) setHeader(req.headers, 'Content-Digest', contentDigest(bytes));
}

/**
 * A body sent with headers of the caller's choosing, Content-Digest included, all signed: the client computes the
 * sha-512 digest itself for a body it encodes, so the body joins the request only after signing, as the bytes those
 * headers describe.
 */
export function signedBody(body: string, contentType: string, digest: string): Pick<RequestSpec, 'headers' | 'tamper'> {
  const bytes = new TextEncoder().encode(body);
  return {
    headers: [
      ['Content-Type', contentType],
      ['Content-Length', String(bytes.byteLength)],
      ['Content-Digest', digest],
    ],
    tamper: (req) => {
      req.body = bytes;
    },
  };
}

/** The components our client covers by default for this request: every profile component it carries. */
export async function coveredComponents(ctx: CheckContext, spec: RequestSpec): Promise<string[]> {
  return profileComponents(await ctx.prepare({ ...spec, sign: false }));
}

/** The same components in the spec's order (headers first, then derived components). */
export function inSpecOrder(components: readonly string[]): string[] {
  const rank = (c: string) => (SPEC_COMPONENT_ORDER as readonly string[]).indexOf(c);
  return [...components].sort((a, b) => rank(a) - rank(b));
}

/**
 * Sends the request once as signed (the control: it must be accepted, or the check cannot tell anything and skips),
 * then again with `alter` applied to a copy of the very same signed request. Returns the altered request's answer.
 * The control recovers from a run's token the server ended early (CheckContext.prepareAndSend). A 401 to the altered
 * request stands only while the token it carries still works: a token that ended in between (a restart, another
 * token issued or revoked, REQ-LIFE-03/05/06) says nothing about the alteration, so the pair is sent again, twice at most.
 */
export async function sendWithControl(ctx: CheckContext, spec: RequestSpec, alter: (req: PreparedRequest) => void | Promise<void>): Promise<HttpResponse> {
  for (let attempt = 1; ; attempt++) {
    const { prepared: signed, res: control } = await ctx.prepareAndSend(spec, copyRequest);
    if (!isSuccess(control)) {
      ctx.skip(`the control request (the same request, unaltered) was not accepted: ${describeResponse(control)}; the signing.accept checks report why`);
    }
    const altered = copyRequest(signed);
    await alter(altered);
    const res = await ctx.sendPrepared(altered);
    const token = /^Bearer\s+(\S+)$/i.exec(headerValue(altered.headers, 'authorization')?.trim() ?? '')?.[1];
    if (res.status !== 401 || token === undefined || attempt >= 3 || (await ctx.session.accepts(token))) return res;
    ctx.observe(`the altered request was answered 401, but its token no longer worked either (the server had ended it since the control was sent): control and altered request sent again (attempt ${attempt + 1})`);
  }
}

// ---- Signature and Signature-Input fields -------------------------------------------------------------------------

function parseField(value: string, name: string): Dictionary {
  try {
    return parseDictionary(value);
  } catch (e) {
    throw new Error(`our own ${name} is not a structured dictionary (${(e as Error).message})`, { cause: e });
  }
}

/** The Signature field with one bit of every signature flipped: same length, same label, bytes that do not verify. */
export function alterSignature(value: string): string {
  const dict = parseField(value, 'Signature');
  const out: Dictionary = new Map();
  for (const [label, member] of dict) {
    if (isInnerList(member) || !(member[0] instanceof ArrayBuffer)) {
      out.set(label, member);
      continue;
    }
    const bytes = new Uint8Array(member[0].slice(0));
    bytes[0] = bytes[0]! ^ 0x01;
    out.set(label, [bytes.buffer, member[1]]);
  }
  return serializeDictionary(out);
}

/** The Signature field with its (only) member moved to another label. */
export function relabelSignature(value: string, label: string): string {
  const dict = parseField(value, 'Signature');
  const out: Dictionary = new Map();
  for (const member of dict.values()) out.set(label, member);
  return serializeDictionary(out);
}

// ---- the mutable customer -----------------------------------------------------------------------------------------

/** The fields PUT /customers lets a client write (besides customerId, which names the customer). */
export const WRITABLE_CUSTOMER_FIELDS = ['firstName', 'lastName', 'status', 'referenceId'] as const;

export interface CustomerSnapshot {
  customerId: number;
  /** The writable fields the server returned, each as its JSON text: numbers as the server wrote them, so no id is rounded. */
  members: Array<[name: string, json: string]>;
  values: Record<string, unknown>;
}

/** Reads a customer's writable fields. Undefined (with the answer) when the server did not give them. */
export async function readCustomer(ctx: CheckContext, customerId: number): Promise<{ snapshot?: CustomerSnapshot; res: HttpResponse }> {
  const res = await ctx.send({ method: 'GET', path: `/customers/${customerId}` });
  if (!isSuccess(res)) return { res };
  const parsed = parseJson(res.text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return { res };
  const body = parsed.value as Record<string, unknown>;
  const data = (typeof body.data === 'object' && body.data !== null ? body.data : body) as Record<string, unknown>;
  const members: Array<[string, string]> = [];
  const values: Record<string, unknown> = {};
  for (const field of WRITABLE_CUSTOMER_FIELDS) {
    const value = data[field];
    if (value === undefined || value === null) continue;
    values[field] = value;
    members.push([field, exactNumber(data, field) ?? JSON.stringify(value)]);
  }
  return { snapshot: { customerId, members, values }, res };
}

/** Reads the customer or skips: without its current values a check cannot send a request that changes nothing. */
export async function readCustomerOrSkip(ctx: CheckContext, customerId: number): Promise<CustomerSnapshot> {
  const { snapshot, res } = await readCustomer(ctx, customerId);
  if (!snapshot) ctx.skip(`could not read customer ${customerId} first (GET answered ${describeResponse(res)}), so no PUT that changes nothing can be built`);
  return snapshot;
}

/**
 * Whether a client may send this value back: the type (and enum) the update request gives the field. A CLOSED status is
 * not sendable either: the spec leaves transitions open, and a server may read even "CLOSED again" as closing, which
 * may be final (GUIDE: never set CLOSED).
 */
function sendable(field: string, value: unknown): boolean {
  switch (field) {
    case 'firstName':
    case 'lastName':
      return typeof value === 'string';
    case 'status':
      return value === 'ACTIVE' || value === 'SUSPENDED';
    case 'referenceId':
      return typeof value === 'number' && Number.isInteger(value);
    default:
      return false;
  }
}

/**
 * The PUT /customers body that writes back exactly the snapshot's values, with `changes` (JSON texts) applied. A value
 * a client may not send (outside the field's type or enum, or CLOSED) is left out: the request is then still one that
 * changes nothing, and the resources checks judge what the server showed.
 */
export function customerBody(snapshot: CustomerSnapshot, changes: Record<string, string> = {}): string {
  const kept = snapshot.members.filter(([n]) => sendable(n, snapshot.values[n]));
  const members: Array<[string, string]> = [['customerId', String(snapshot.customerId)], ...kept.map(([n, v]): [string, string] => [n, changes[n] ?? v])];
  for (const [n, v] of Object.entries(changes)) if (!members.some(([m]) => m === n)) members.push([n, v]);
  return `{${members.map(([n, v]) => `${JSON.stringify(n)}:${v}`).join(',')}}`;
}

/** The writable fields whose values differ between two snapshots. */
export function customerDifferences(before: CustomerSnapshot, after: CustomerSnapshot): string[] {
  const a = new Map(before.members);
  const b = new Map(after.members);
  return [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k)).map((k) => `${k} ${a.get(k) ?? '(absent)'} → ${b.get(k) ?? '(absent)'}`);
}

/** Writes the snapshot's values back with a correct request; says how that went, loudly when it did not. */
export async function restoreCustomer(ctx: CheckContext, snapshot: CustomerSnapshot): Promise<string> {
  const byHand = snapshot.members.map(([n, v]) => `${n}=${v}`).join(', ');
  try {
    const res = await ctx.send({ method: 'PUT', path: '/customers', body: customerBody(snapshot), contentType: 'application/json' });
    if (isSuccess(res)) return `customer ${snapshot.customerId} was restored (PUT answered ${res.status})`;
    return `RESTORE FAILED: PUT /customers answered ${res.status}; set customer ${snapshot.customerId} back by hand to ${byHand}`;
  } catch (e) {
    return `RESTORE FAILED (${(e as Error).message}); set customer ${snapshot.customerId} back by hand to ${byHand}`;
  }
}

// ---- the webhook configuration ------------------------------------------------------------------------------------

export type WebhookSnapshot =
  | { kind: 'none'; res: HttpResponse }
  | { kind: 'some'; url: string; subscriptions: unknown; res: HttpResponse }
  | { kind: 'unknown'; res: HttpResponse };

/**
 * The client's webhook configuration as GET /webhooks shows it. The response body is "not shown" by the spec: a 404
 * or an empty `data` means none; `data` (or its first element) with a string `url` is the configuration.
 */
export async function readWebhook(ctx: CheckContext): Promise<WebhookSnapshot> {
  const res = await ctx.send({ method: 'GET', path: '/webhooks' });
  if (res.status === 404) return { kind: 'none', res };
  if (!isSuccess(res)) return { kind: 'unknown', res };
  const parsed = parseJson(res.text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return { kind: 'unknown', res };
  const body = parsed.value as Record<string, unknown>;
  let data = 'data' in body ? body.data : body;
  if (Array.isArray(data)) data = data[0];
  if (data === undefined || data === null || (typeof data === 'object' && Object.keys(data).length === 0)) return { kind: 'none', res };
  const config = data as Record<string, unknown>;
  return typeof config.url === 'string' ? { kind: 'some', url: config.url, subscriptions: config.subscriptions, res } : { kind: 'unknown', res };
}

/** Puts a saved configuration back with PUT /webhooks; says how that went, loudly when it did not. */
export async function restoreWebhook(ctx: CheckContext, saved: Extract<WebhookSnapshot, { kind: 'some' }>): Promise<string> {
  const byHand = `url ${JSON.stringify(saved.url)}, subscriptions ${JSON.stringify(saved.subscriptions)}`;
  try {
    const res = await ctx.send({ method: 'PUT', path: '/webhooks', json: { url: saved.url, ...(saved.subscriptions !== undefined ? { subscriptions: saved.subscriptions } : {}) } });
    if (isSuccess(res)) return `the webhook configuration was restored (PUT /webhooks answered ${res.status})`;
    return `RESTORE FAILED: PUT /webhooks answered ${res.status}; set the webhook back by hand to ${byHand}`;
  } catch (e) {
    return `RESTORE FAILED (${(e as Error).message}); set the webhook back by hand to ${byHand}`;
  }
}
