// What the negative checks share: requests that are right in every way but one, made from a correctly signed request.
// Showing that a rejected request changed nothing, and putting things back when it did, is customer-restore.ts's and
// webhook-restore.ts's.
// Signature fields are read and written with a structured-fields library (RFC 8941/9651), never with regular
// expressions: a check that misparses the field it tampers with would blame the server for its own mistake.
import { parseDictionary, serializeDictionary, isInnerList, type Dictionary } from 'structured-headers';
import type { HttpResponse, PreparedRequest, RequestSpec } from '../../src/http/client.js';
import { contentDigest } from '../../src/http/digest.js';
import { headerValue, setHeader } from '../../src/http/message.js';
import {
  DEFAULT_SIGNING_PROFILE,
  profileComponents,
  type SigningProfile,
  type TargetComponent,
} from '../../src/http/signature.js';
import type { CheckContext } from '../../src/engine/index.js';
import { describeResponse } from './expect.js';
import { Session } from './session.js';
import type { SigningRecord } from './signing-profile.js';

/** The component names in the order the spec lists them ("Common request rules"), lower-cased as RFC 9421 §2.1 wants. */
const SPEC_COMPONENT_ORDER = [
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
function copyRequest(req: PreparedRequest): PreparedRequest {
  return {
    method: req.method,
    url: req.url,
    headers: req.headers.map(([n, v]) => [n, v]),
    ...(req.body ? { body: new Uint8Array(req.body) } : {}),
  };
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

/**
 * The signing profile the run signs with: the one its session learnt when it opened (or the target's config set), so
 * that a negative probe departs from a request the server accepts in one way only.
 */
export function signingProfile(ctx: CheckContext): SigningProfile {
  return ctx.session instanceof Session ? ctx.session.profile : DEFAULT_SIGNING_PROFILE;
}

/** How the run came by its signing profile (the shapes the server refused first), when its session says. */
export function signingRecord(ctx: CheckContext): SigningRecord | undefined {
  return ctx.session instanceof Session ? ctx.session.signing : undefined;
}

/** The components the run's client covers for this request: the profile's derived components, every header it carries. */
export async function coveredComponents(ctx: CheckContext, spec: RequestSpec): Promise<string[]> {
  return profileComponents(await ctx.prepare({ ...spec, sign: false }), signingProfile(ctx));
}

/** The components of the run's profile for this request, with `target` covering the method and target instead. */
export async function componentsWith(
  ctx: CheckContext,
  spec: RequestSpec,
  target: readonly TargetComponent[],
): Promise<string[]> {
  return profileComponents(await ctx.prepare({ ...spec, sign: false }), {
    ...signingProfile(ctx),
    components: target,
  });
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
export async function sendWithControl(
  ctx: CheckContext,
  spec: RequestSpec,
  alter: (req: PreparedRequest) => void | Promise<void>,
): Promise<HttpResponse> {
  for (let attempt = 1; ; attempt++) {
    const { prepared: signed, res: control } = await ctx.prepareAndSend(spec, copyRequest);
    if (!isSuccess(control)) {
      ctx.skip(
        `the control request (the same request, unaltered) was not accepted: ${describeResponse(control)}; the signing.accept checks report why`,
      );
    }
    const altered = copyRequest(signed);
    await alter(altered);
    const res = await ctx.sendPrepared(altered);
    const token = /^Bearer\s+(\S+)$/i.exec(headerValue(altered.headers, 'authorization')?.trim() ?? '')?.[1];
    if (res.status !== 401 || token === undefined || attempt >= 3 || (await ctx.session.accepts(token))) return res;
    ctx.observe(
      `the altered request was answered 401, but its token no longer worked either (the server had ended it since the control was sent): control and altered request sent again (attempt ${attempt + 1})`,
    );
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
