// What the auth checks share: tokens a check obtains for itself (always revoked before the check ends, also when it
// fails), "no token was issued" as an expectation, and a read request that a conforming server answers with 2xx.
import type { HttpResponse, RequestSpec } from '../../src/http/client.js';
import { TransportError } from '../../src/http/client.js';
import { parseJson } from '../../src/http/json.js';
import { UndeclaredSharedState, type CheckContext } from '../../src/engine/index.js';
import { describeResponse, expectRejection } from './expect.js';
import { revocation, tokenRecordOf, tokenRequest, type TokenResult } from './session.js';
import type { Revocation } from './revoke.js';

export interface IssuedToken extends TokenResult {
  /** The token answer itself, for findings about the record. */
  res: HttpResponse;
}

/** The token in a token answer, if any (envelope or bare record: the spec leaves the shape open). */
export function tokenIn(res: HttpResponse): TokenResult | undefined {
  const parsed = parseJson(res.text);
  return parsed.ok ? tokenRecordOf(parsed.value) : undefined;
}

/** Tokens of one check. Whatever it obtained is revoked by `revokeAll`, which never throws: clean-up must not mask a result. */
export class TokenJar {
  private readonly live = new Set<string>();

  constructor(private readonly ctx: CheckContext) {}

  /** Requests a token with the target's credentials (or `spec`); fails the check when the answer carries none. */
  async issue(spec: RequestSpec = tokenRequest(this.ctx.credentials)): Promise<IssuedToken> {
    const res = await this.ctx.send(spec);
    const found = tokenIn(res);
    if (found) await this.keep(found.token);
    if (res.status < 200 || res.status > 299 || !found) {
      this.ctx.fail(
        found ? `a token came with status ${res.status}` : `no token in the answer (status ${res.status})`,
        {
          expected:
            'valid client credentials give a 2xx answer carrying a token record, with or without the {data, code, message} envelope',
          observed: describeResponse(res),
          exchange: res.exchange,
        },
      );
    }
    return { ...found, res };
  }

  /**
   * Takes charge of a token found in some answer, so it is revoked at the end. Except the run's own token, which a
   * server that hands out one token per client gives back: revoking it would end every later check's session.
   */
  async keep(token: string): Promise<void> {
    if (await this.isRunToken(token)) {
      this.ctx.observe('the server answered a new token request with the token the run already holds');
      return;
    }
    this.live.add(token);
  }

  /** Whether this is the run's shared token (a check must not revoke that one). */
  async isRunToken(token: string): Promise<boolean> {
    return token === (await this.ctx.session.token());
  }

  /** Stops tracking a token the check has shown to be dead already (revoked or expired). */
  forget(token: string): void {
    this.live.delete(token);
  }

  /**
   * Revokes one token now, in the run's revoke shape (learnt here when this is the run's first revocation). The jar
   * forgets it once the server confirms with a 2xx, or once a 401 and the token probe show it had ended already.
   */
  async revoke(token: string): Promise<Revocation> {
    const r = await revocation(this.ctx, token);
    if (r.revoked || r.ended) this.live.delete(token);
    return r;
  }

  /** Revokes what is left. A token that cannot be revoked is recorded; it expires on its own within its TTL. */
  async revokeAll(): Promise<void> {
    for (const token of [...this.live]) {
      try {
        const r = await this.revoke(token);
        if (!r.revoked && !r.ended)
          this.ctx.observe(
            `clean-up: a token this check obtained could not be revoked (POST /oauth/revoke answered ${r.res.status}${r.tried === undefined ? '' : `; tried: ${r.tried}`}); it stays live until it expires`,
          );
      } catch (e) {
        // A revoke the check may not send is a bug to report, not a server's failure to note and move past.
        if (e instanceof UndeclaredSharedState) throw e;
        const why = e instanceof TransportError ? e.message : String(e);
        this.ctx.observe(
          `clean-up: a token this check obtained could not be revoked (${why}); it stays live until it expires`,
        );
      }
    }
  }
}

/** Runs `body` with a jar whose tokens are all revoked afterwards, whatever the outcome. */
export async function withTokens<T>(ctx: CheckContext, body: (jar: TokenJar) => Promise<T>): Promise<T> {
  const jar = new TokenJar(ctx);
  try {
    return await body(jar);
  } finally {
    await jar.revokeAll();
  }
}

/**
 * A token request that must not succeed: a token in the answer fails the check (after revoking that token), and
 * otherwise the answer must be a rejection (any 4xx; a 2xx accepted the request, a 5xx crashed on it).
 */
export async function expectNoToken(
  ctx: CheckContext,
  jar: TokenJar,
  res: HttpResponse,
  expected: string,
): Promise<void> {
  const found = tokenIn(res);
  if (found) {
    await jar.keep(found.token);
    let revoked: string;
    if (await jar.isRunToken(found.token)) {
      revoked = "it is the run's own token, revoked when the run ends";
    } else {
      try {
        const r = await jar.revoke(found.token);
        revoked = r.revoked
          ? `it was revoked (${r.res.status})`
          : r.ended
            ? `revoking it answered 401 and the token was refused on a read too: it had ended already`
            : `revoking it answered ${r.res.status}${r.tried === undefined ? '' : ` (tried: ${r.tried})`}: it stays live until it expires`;
      } catch (e) {
        revoked = `revoking it failed (${(e as Error).message}): it stays live until it expires`;
      }
    }
    ctx.fail(`${res.status}: the server issued a token; ${revoked}`, {
      expected,
      observed: describeResponse(res),
      exchange: res.exchange,
    });
  }
  expectRejection(ctx, res, expected);
}

/**
 * A read that a conforming server answers with 2xx for any valid token of the client: the configured customer when
 * there is one, else the instrument list, which needs no fixture.
 */
export function readProbe(ctx: CheckContext): Pick<RequestSpec, 'method' | 'path' | 'query'> {
  const customerId = ctx.fixtures.customerId;
  if (customerId !== undefined) return { method: 'GET', path: `/customers/${customerId}` };
  return { method: 'GET', path: '/instruments', query: { investmentType: 'INTERNATIONAL_STOCKS' } };
}
