// The shape of POST /oauth/revoke. The spec lists its headers (Authorization, Signature, Signature-Input, X-Client-Id,
// X-Idempotency-Key) and says "Request body and response body of revoke: not shown" (REQ-TOKEP-09): a server may take
// the token from Authorization alone, or want it named in the body too, as RFC 7009 does (`token=` in a form body), or
// in a JSON body. The run learns which at its first revocation and sends it on every revocation after, so that a
// negative probe of revocation differs from a correct one in one way only; the target's config may fix it instead.
import type { HttpResponse, RequestSpec } from '../../src/http/client.js';
import type { RevokeBody } from '../../src/config/types.js';

export type { RevokeBody } from '../../src/config/types.js';

/** The shapes in the order a first revocation tries them: the spec's headers alone, then RFC 7009's form, then JSON. */
const REVOKE_BODIES: readonly RevokeBody[] = ['none', 'form', 'json'];

/** What each shape is, in a report's words (the readings of REQ-TOKEP-09 say the same). */
export const REVOKE_BODY_SAID: Readonly<Record<RevokeBody, string>> = {
  none: 'a request without a body (the token in Authorization alone)',
  form: 'the token in a form body (token=, RFC 7009)',
  json: 'the token in a JSON body ({"token": …})',
};

/** Each shape in a few words, for the list of what was tried. */
const SHORT: Readonly<Record<RevokeBody, string>> = {
  none: 'no body',
  form: 'a form body token=',
  json: 'a JSON body {"token"}',
};

/**
 * The revoke request for `token` in a shape: always `Authorization: Bearer <token>` (the spec's header list), and with
 * a body the same token named in it. The client signs it like any request, with Content-Digest over a body.
 */
export function revokeRequest(token: string, body: RevokeBody = 'none'): RequestSpec {
  const spec: RequestSpec = { method: 'POST', path: '/oauth/revoke', token };
  if (body === 'form') return { ...spec, form: { token } };
  if (body === 'json') return { ...spec, json: { token } };
  return spec;
}

/** One revocation: its last answer and what it showed. */
export interface Revocation {
  /** The last answer: the one that revoked, or the last refusal. */
  res: HttpResponse;
  /** The shape of the request that drew `res`. */
  body: RevokeBody;
  /** A 2xx came: the server says the token is revoked. */
  revoked: boolean;
  /** Refused with 401, and the token probe refused the token too (401): it had ended already, nothing was revoked. */
  ended: boolean;
  /** When more than one shape was tried: each with its answer ("no body → 400, a form body token= → 200"). */
  tried?: string;
}

/** How a revocation reaches the server: sends a request, and tells whether a token still works (the token probe). */
export interface RevokeIo {
  send(spec: RequestSpec): Promise<HttpResponse>;
  alive(token: string): Promise<boolean>;
}

/** Runs bodies one after the other. */
export type Serial = <T>(body: () => Promise<T>) => Promise<T>;

/** A lock of its own, for a shape not held by a session that takes turns already. */
export function chainedSerial(): Serial {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(body: () => Promise<T>) => {
    const turn = last.then(body, body);
    last = turn.catch(() => undefined);
    return turn;
  };
}

/**
 * The revoke shape of one run: configured, or learnt at the first revocation that meets a live token. Learning goes one
 * revocation at a time (`serial`), so two first revocations at once do not both try every shape.
 */
export class RevokeShape {
  private body: RevokeBody | undefined;
  private readonly configured: boolean;
  /** What the revocation that learnt the shape tried, with each answer. */
  private learntBy: string | undefined;
  /** A live token no shape revoked: what was tried. Later revocations send no body and repeat this. */
  private refused: string | undefined;
  /** Revocations that could teach nothing: the token had ended before (a 401, and the probe's 401). */
  private endedFirst = 0;

  constructor(
    configured: RevokeBody | undefined,
    private readonly serial: Serial = chainedSerial(),
  ) {
    this.body = configured;
    this.configured = configured !== undefined;
  }

  /** The shape every revocation sends now, once configured or learnt. */
  known(): RevokeBody | undefined {
    return this.body;
  }

  /** Whether a first revocation met a live token and found no shape that revokes it. */
  failed(): boolean {
    return this.refused !== undefined;
  }

  /** Revokes `token` in the known shape, or learns the shape on it. Transport errors are thrown, as a send's are. */
  async revoke(token: string, io: RevokeIo): Promise<Revocation> {
    if (this.configured) {
      const r = await once(token, this.body!, io);
      // A configured shape is never questioned; a refusal says where it came from.
      return r.revoked || r.ended
        ? r
        : { ...r, tried: `${SHORT[r.body]} → ${r.res.status}, the shape the target's config sets (revoke.body)` };
    }
    if (this.body !== undefined) return once(token, this.body, io);
    return this.serial(async () => {
      if (this.body !== undefined) return once(token, this.body, io);
      if (this.refused !== undefined) {
        const r = await once(token, 'none', io);
        return r.revoked || r.ended ? r : { ...r, tried: `at the run's first revocation, ${this.refused}` };
      }
      return this.learn(token, io);
    });
  }

  /** No body, then a form, then JSON: the first 2xx is the shape; a dead token stops the learning, unlearnt. */
  private async learn(token: string, io: RevokeIo): Promise<Revocation> {
    const tried: string[] = [];
    let last: Revocation | undefined;
    for (const body of REVOKE_BODIES) {
      last = await once(token, body, io);
      tried.push(
        `${SHORT[body]} → ${last.res.status}${last.ended ? ' (the token had ended: the probe was refused too)' : ''}`,
      );
      if (last.revoked) {
        this.body = body;
        this.learntBy = tried.join(', ');
        return tried.length > 1 ? { ...last, tried: this.learntBy } : last;
      }
      // A 401 that the token probe confirms says the token was dead, not that the shape was wrong: nothing learnt.
      if (last.ended) {
        this.endedFirst += 1;
        return tried.length > 1 ? { ...last, tried: tried.join(', ') } : last;
      }
    }
    this.refused = tried.join(', ');
    return { ...last!, tried: this.refused };
  }

  /** The run's note: which shape, and how it was found (or why not). */
  note(): string {
    if (this.configured && this.body !== undefined)
      return `revoke request: ${REVOKE_BODY_SAID[this.body]}, as the target's config sets (revoke.body); not learnt`;
    if (this.body !== undefined)
      return `revoke request: ${REVOKE_BODY_SAID[this.body]} (learnt at the run's first revocation: ${this.learntBy ?? ''})`;
    if (this.refused !== undefined)
      return `revoke request: no shape of POST /oauth/revoke revoked a live token (${this.refused}); later revocations were sent without a body. If the server takes the token otherwise, set revoke.body in the target's config`;
    if (this.endedFirst > 0)
      return `revoke request: not learnt: every token the run went to revoke had ended already (${this.endedFirst}), so no revocation showed the shape`;
    return 'revoke request: not learnt: the run revoked no token';
  }
}

/** One request in one shape; a 401 is followed by the token probe, to tell a refused shape from a dead token. */
async function once(token: string, body: RevokeBody, io: RevokeIo): Promise<Revocation> {
  const res = await io.send(revokeRequest(token, body));
  if (res.status >= 200 && res.status <= 299) return { res, body, revoked: true, ended: false };
  const ended = res.status === 401 && !(await io.alive(token));
  return { res, body, revoked: false, ended };
}
