// The run's shared token: obtained once before the checks, handed to every check, revoked at the end so that a run
// leaves no live credential behind on the target. Live servers end tokens early (a restart, a revocation that reaches
// further than it should): the session survives that by obtaining a new token, and says so, rather than letting every
// later check fail on a rule it does not own.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { HttpResponse, SignedClient, ExchangeSink, RequestSpec } from '../../src/http/client.js';
import { ThrottledOut, TransportError } from '../../src/http/client.js';
import { TargetError } from '../../src/errors.js';
import { parseJson } from '../../src/http/json.js';
import { redirectNote } from '../../src/http/redirect.js';
import { proxyErrorPage, proxyOf } from '../../src/http/proxy.js';
import type { RevokeBody } from '../../src/config/types.js';
import { chainedSerial, REVOKE_BODY_SAID, RevokeShape, type Revocation, type RevokeIo } from './revoke.js';
import { describeProfile, type SigningProfile } from '../../src/http/signature.js';
import {
  addressRewrites,
  mayBeTheShape,
  pathPrefix,
  shapesTried,
  signingNote,
  signingShapes,
  type ShapeRefusal,
  type SigningRecord,
} from './signing-profile.js';
import {
  CheckFailed,
  CheckSkipped,
  DEFAULT_CHECK_TIMEOUT_MS,
  type CheckContext,
  type CheckDefinition,
  type RunSession,
} from '../../src/engine/index.js';

export interface TokenResult {
  token: string;
  /** The token record, whether the server wrapped it in the envelope or not. */
  record: Record<string, unknown>;
  enveloped: boolean;
  /**
   * Where the record's `message` is: its own member, or (an enveloped record without one) the envelope's `message`,
   * which then stands in the record; undefined when neither says one.
   */
  message?: 'record' | 'envelope';
}

/**
 * Finds the token record in a token response: `{data: record, code, message}` or the bare record (spec: envelope "not
 * shown"). An enveloped record without a `message` of its own takes the envelope's: one answer carries one message.
 */
export function tokenRecordOf(body: unknown): TokenResult | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const obj = body as Record<string, unknown>;
  const data = obj.data;
  if (typeof data === 'object' && data !== null && typeof (data as Record<string, unknown>).token === 'string') {
    const record = data as Record<string, unknown>;
    const token = record.token as string;
    if (record.message !== undefined) return { token, record, enveloped: true, message: 'record' };
    if (typeof obj.message === 'string')
      return { token, record: { ...record, message: obj.message }, enveloped: true, message: 'envelope' };
    return { token, record, enveloped: true };
  }
  if (typeof obj.token === 'string')
    return {
      token: obj.token,
      record: obj,
      enveloped: false,
      ...(obj.message !== undefined ? { message: 'record' } : {}),
    };
  return undefined;
}

/** The token request a correct client sends: form-encoded credentials, signed, no Authorization and no X-Client-Id. */
export function tokenRequest(credentials: { clientId: string; clientSecret: string }): RequestSpec {
  return {
    method: 'POST',
    path: '/oauth/token',
    form: { clientId: credentials.clientId, clientSecret: credentials.clientSecret },
    clientId: null,
    token: null,
  };
}

/**
 * A shared token older than this is replaced: tokens live 60 minutes, and a --long run (which waits out a token's
 * lifetime) must not leave the checks after it with an expired one.
 */
const TOKEN_REFRESH_AFTER_MS = 50 * 60 * 1000;

/**
 * How many times a run replaces a token the server ended early. Each replacement costs a probe and a token request; a
 * server that ends every token at once keeps the run busy renewing, and past this the checks see its 401s as they are.
 */
export const MAX_RENEWALS = 50;

/** A read every token of the client may make and that needs no fixture: whether the run's token still works. */
const TOKEN_PROBE: RequestSpec = {
  method: 'GET',
  path: '/instruments',
  query: { investmentType: 'INTERNATIONAL_STOCKS', limit: 1 },
};

/**
 * A token to send the refused request again with, and what to record about it; or, where the token was found ended
 * but none could replace it, why (`failed`), which the refused check records beside its 401.
 */
export type Renewal = { token: string; note: string } | { failed: string };

export class Session implements RunSession {
  private tokenPromise: Promise<TokenResult> | undefined;
  private obtainedAt = 0;
  /** Every token this session obtained, revoked at the end of the run. */
  private readonly issued: Array<Promise<TokenResult>> = [];
  /** Tokens the server refused although this session never revoked them: nothing left to revoke. */
  private readonly ended = new Set<string>();
  /** One recovery per refused token, shared by the checks refused at the same moment. */
  private readonly recovering = new Map<string, Promise<Renewal | undefined>>();
  /** The latest probe of each token under way and when it was sent, so that several 401s with one token send one read. */
  private readonly probing = new Map<string, { sentAt: number; dead: Promise<boolean> }>();
  private renewals = 0;
  /** The end of the last exclusive turn: renewals with their retries, and revocations, take turns. */
  private turns: Promise<void> = Promise.resolve();
  /** Set inside an exclusive turn (and whatever it awaits), so that a body holding the turn may ask for it again. */
  private readonly inTurn = new AsyncLocalStorage<true>();
  /** Set once the session revokes its tokens: from then on a refusal is expected, never repaired. */
  private closed = false;
  /**
   * The shape of POST /oauth/revoke (REQ-TOKEP-09, not shown): from the target's config, else learnt at the run's first
   * revocation, a check's or the session's own; learning takes an exclusive turn, so two first revocations do not race.
   */
  readonly revokeShape: RevokeShape;
  /** The signing profile the first token request found the server takes (or the config set), and what it refused. */
  private learnt: SigningRecord | undefined;

  constructor(
    private readonly client: SignedClient,
    private readonly clientSecret: string,
    private readonly sink: ExchangeSink,
    options: { revokeBody?: RevokeBody } = {},
  ) {
    this.revokeShape = new RevokeShape(options.revokeBody, (body) => this.exclusive(body));
  }

  /**
   * Obtains the run's token, and with it the signing profile of the run: a token request refused in the default shape
   * is tried again in other shapes (suites/kit/signing-profile.ts), and the first shape that gets a token signs every
   * later request (SignedClient.signing).
   */
  async open(): Promise<void> {
    await this.token();
  }

  /** The profile every request of the run is signed with, where a check does not sign otherwise. */
  get profile(): SigningProfile {
    return this.client.signing;
  }

  /** How the run signs and how it came by it (for signing.info.profile); undefined until the session has opened. */
  get signing(): SigningRecord | undefined {
    return this.learnt;
  }

  /** The shared token; the first call fetches it. A failure is a TargetError: no check can run without one. */
  token(): Promise<string> {
    return this.tokenResult().then((t) => t.token);
  }

  tokenResult(): Promise<TokenResult> {
    if (this.tokenPromise === undefined || Date.now() - this.obtainedAt > TOKEN_REFRESH_AFTER_MS)
      this.adopt(this.fetch());
    return this.tokenPromise!;
  }

  private adopt(pending: Promise<TokenResult>): void {
    this.obtainedAt = Date.now();
    this.tokenPromise = pending;
    this.issued.push(pending);
  }

  /**
   * Sends with the run's token. A 401 may mean the server ended that token early: then a new token is obtained and the
   * request sent again (`note` records it on the check). A 401 to a request that is itself wrong (a check's
   * negative probe) stands: a token is replaced only once a correct read shows it dead. Renewal and retry happen
   * between revocations (`revoking`): a server that ends every token of the client on a revocation would otherwise end
   * the new token too before the request goes out again.
   */
  async withToken(send: (token: string) => Promise<HttpResponse>, note: (text: string) => void): Promise<HttpResponse> {
    const token = await this.token();
    const res = await send(token);
    if (res.status !== 401) return res;
    // Most 401s answer a request that is itself wrong (a check's negative probe): the read that tells goes at once,
    // beside any check's exclusive turn, and only a token found dead waits for the turn to be renewed.
    // After the session revoked its tokens a 401 is expected, and nothing is renewed: no probe either.
    if (this.closed || !(await this.dead(token, performance.now()))) return res;
    return this.exclusive(async () => {
      let refused = token;
      let last = res;
      // Three times at most: the replacement another check obtained may have been ended by a revocation since, and a
      // token renewed within this turn by a restart of the server (no revocation can end it: they wait for the turn).
      for (let round = 0; round < 3 && last.status === 401; round++) {
        const renewal = await this.recover(refused);
        if (renewal === undefined) break;
        if ('failed' in renewal) {
          note(renewal.failed);
          break;
        }
        note(
          `${renewal.note}; ${last.exchange.request.method} ${new URL(last.exchange.request.url).pathname} was answered 401 with it and was sent again with the new token`,
        );
        refused = renewal.token;
        last = await send(refused);
      }
      return last;
    });
  }

  /**
   * A revocation (of a check's own token) is sent when no request is being sent again with a renewed run token; other
   * changes with a token of the check's own go at once.
   */
  sendChanging(state: string, send: () => Promise<HttpResponse>): Promise<HttpResponse> {
    return state === 'token-revocation' ? this.exclusive(send) : send();
  }

  /**
   * A check that handles tokens of its own (it declares `token-revocation`) runs in the session's exclusive turn
   * (`hold`), so that renewing the run's token for other checks cannot end the tokens it judges. A server may also end
   * every token early (a restart, REQ-LIFE-06): when such a check fails, or skips for no setting of the run, and the
   * run's token it started with has died meanwhile too, it runs once more with fresh tokens and says so. A defect that
   * recurs fails the second attempt as it failed the first.
   */
  runCheck(
    check: CheckDefinition,
    body: () => Promise<void>,
    retry: { observe(text: string): void; signal: AbortSignal },
  ): Promise<void> {
    // A check that waits for far longer than a check may (the token expiry of --long) would hold every renewal of the
    // run's token for that long: it goes without the turn, and judges only what an early end cannot fake (a token still
    // accepted after its 60 minutes).
    if (!check.uses?.includes('token-revocation') || (check.timeoutMs ?? 0) > DEFAULT_CHECK_TIMEOUT_MS) return body();
    return this.hold(async () => {
      const before = await this.token();
      try {
        await body();
      } catch (err) {
        const again = err instanceof CheckFailed || (err instanceof CheckSkipped && err.remedy === undefined);
        if (!again || retry.signal.aborted || (await this.accepts(before))) throw err;
        const what = err instanceof CheckFailed ? `failed (${err.finding.message})` : `skipped (${err.reason})`;
        retry.observe(
          `the first attempt ${what} and the run's token had ended meanwhile too (a restart, or tokens ended by the issue or revocation of another): the check was run once more with fresh tokens, and its result is that of the second attempt`,
        );
        await body();
      }
    });
  }

  /**
   * Runs a check that obtains, uses or revokes tokens of its own in one exclusive turn. A server may end the client's
   * other tokens when one is issued or revoked (REQ-LIFE-03, REQ-LIFE-05): the run's token then dies, and renewing it
   * meanwhile (for another check) could end the tokens this check is judging. Other checks keep running; only their
   * renewals wait for the turn. Renewals the check itself needs happen inside it (the turn is re-entrant).
   */
  hold<T>(body: () => Promise<T>): Promise<T> {
    return this.exclusive(body);
  }

  /**
   * Whether `token` still works: a correct read with it is not answered 401. Tells a rejection a request drew from one
   * that met a token the server had ended meanwhile.
   */
  async accepts(token: string): Promise<boolean> {
    try {
      return (await this.client.send({ ...TOKEN_PROBE, token }, this.sink)).status !== 401;
    } catch {
      return true;
    }
  }

  /** Runs `body` after every earlier exclusive body has finished, whatever their outcome; at once inside a turn. */
  private exclusive<T>(body: () => Promise<T>): Promise<T> {
    if (this.inTurn.getStore() === true) return body();
    const turn = this.turns.then(() => this.inTurn.run(true, body));
    this.turns = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  /** The token to retry with after `refused` drew a 401, or undefined when the 401 stands. */
  recover(refused: string): Promise<Renewal | undefined> {
    if (this.closed) return Promise.resolve(undefined);
    let pending = this.recovering.get(refused);
    if (pending === undefined) {
      pending = this.renewUnlessAlive(refused).finally(() => this.recovering.delete(refused));
      this.recovering.set(refused, pending);
    }
    return pending;
  }

  /**
   * Whether a correct read with `refused`, sent after `answeredAt`, is answered 401 (the token is dead). A 401 joins a
   * probe of the same token under way only if that probe was sent after the 401 came: one sent before it may have been
   * answered before the token died (a restart between the two), and would call a dead token alive.
   */
  private dead(refused: string, answeredAt: number): Promise<boolean> {
    if (this.ended.has(refused)) return Promise.resolve(true);
    const pending = this.probing.get(refused);
    if (pending !== undefined && pending.sentAt >= answeredAt) return pending.dead;
    const probe = { sentAt: performance.now(), dead: this.probe(refused) };
    this.probing.set(refused, probe);
    const settled = () => {
      if (this.probing.get(refused) === probe) this.probing.delete(refused);
    };
    probe.dead.then(settled, settled);
    return probe.dead;
  }

  private async probe(refused: string): Promise<boolean> {
    let probe: HttpResponse;
    try {
      probe = await this.client.send({ ...TOKEN_PROBE, token: refused }, this.sink);
    } catch (e) {
      // A server throttled past the bound ends the check as the run's finding, not as the 401 that led here.
      if (e instanceof ThrottledOut) throw e;
      return false;
    }
    // Only a 401 to a correct read says the token is dead; anything else says the refusal was about the request.
    if (probe.status !== 401) return false;
    this.ended.add(refused);
    return true;
  }

  private async renewUnlessAlive(refused: string): Promise<Renewal | undefined> {
    if (!(await this.dead(refused, performance.now()))) return undefined;
    const ended =
      "the server ended the run's token early (this run had not revoked it, and a correct GET /instruments with it was answered 401)";
    const current = await this.tokenPromise?.then((t) => t.token).catch(() => undefined);
    if (current !== undefined && current !== refused)
      return { token: current, note: `${ended}; it had been replaced already` };
    if (this.renewals >= MAX_RENEWALS)
      return {
        failed: `${ended}; it was not replaced: the run had replaced its token ${MAX_RENEWALS} times, its bound`,
      };
    this.renewals += 1;
    let fresh: TokenResult;
    try {
      fresh = await this.fetch();
    } catch (e) {
      if (e instanceof ThrottledOut) throw e;
      return { failed: `${ended}; no new token could be obtained: ${e instanceof Error ? e.message : String(e)}` };
    }
    this.adopt(Promise.resolve(fresh));
    return {
      token: fresh.token,
      note: `${ended}; a new token was obtained (renewal ${this.renewals} of at most ${MAX_RENEWALS} in a run)`,
    };
  }

  /** A token: the first one learns the signing profile on the way; later ones (renewals) are signed in it. */
  private async fetch(): Promise<TokenResult> {
    if (this.learnt === undefined) return this.discover();
    const res = await this.sendTokenRequest();
    return this.tokenOf(res) ?? this.noToken(res);
  }

  /**
   * The first token request, in the default shape and then, while the server refuses it in a way the shape may
   * explain (any 4xx but 404, 405, 429), in the other shapes, at most MAX_SIGNING_SHAPES in all. The first shape that
   * gets a token becomes the run's profile. A field the target's config sets is never varied.
   */
  private async discover(): Promise<TokenResult> {
    const client = this.client;
    const fixed = client.signingFixed;
    const shapes = signingShapes(fixed);
    const refused: ShapeRefusal[] = [];
    const answers: HttpResponse[] = [];
    let proxy: string | undefined;
    for (const shape of shapes) {
      client.signing = shape;
      const res = await this.sendTokenRequest();
      proxy ??= proxyOf(res);
      const result = this.tokenOf(res);
      if (result !== undefined) {
        this.learnt = {
          profile: shape,
          fixed: Object.keys(fixed) as Array<keyof SigningProfile>,
          refused,
          ...(proxy !== undefined ? { proxy } : {}),
        };
        return result;
      }
      // A proxy's own error page is no answer of the server's to the signature: no other shape changes it.
      if (!mayBeTheShape(res.status) || proxyErrorPage(res) !== undefined) return this.noToken(res);
      refused.push({ profile: shape, status: res.status, said: this.said(res) });
      answers.push(res);
    }
    // No shape got a token: the run ends here (exit 3), and the error says what was tried.
    client.signing = shapes[0]!;
    if (shapes.length === 1) return this.noToken(answers[0]!, shapes[0]);
    throw new TargetError(
      `no token: POST ${client.identity.baseUrl}/oauth/token ${refusedEveryShape(answers, shapes, (t) => this.said(t), client.identity.baseUrl)}`,
      'CONFORMANCE_ERR_NO_TOKEN',
    );
  }

  private async sendTokenRequest(): Promise<HttpResponse> {
    const { baseUrl, clientId } = this.client.identity;
    try {
      return await this.client.send(tokenRequest({ clientId, clientSecret: this.clientSecret }), this.sink);
    } catch (e) {
      if (e instanceof ThrottledOut && this.tokenPromise === undefined)
        throw new TargetError(`no token: POST ${baseUrl}/oauth/token: ${e.message}`, 'CONFORMANCE_ERR_NO_TOKEN');
      if (e instanceof TransportError) {
        // An answer that came but cannot be used is a token refused; anything else, a target not reached.
        const answered = e.failure.kind === 'bad-answer';
        const advice = e.failure.advice === undefined ? '' : `; ${e.failure.advice}`;
        throw new TargetError(
          `${answered ? 'no token' : 'target unreachable'}: POST ${baseUrl}/oauth/token: ${e.message}${advice}`,
          answered ? 'CONFORMANCE_ERR_NO_TOKEN' : 'CONFORMANCE_ERR_TARGET_UNREACHABLE',
        );
      }
      throw e;
    }
  }

  /** The token record of a 2xx answer (its token learnt by the redactor), or undefined. */
  private tokenOf(res: HttpResponse): TokenResult | undefined {
    if (res.status < 200 || res.status > 299) return undefined;
    const parsed = parseJson(res.text);
    const result = parsed.ok ? tokenRecordOf(parsed.value) : undefined;
    if (result) this.client.redactor.add(result.token);
    return result;
  }

  /** What the server said in an answer, redacted, one line. */
  private said(res: HttpResponse): string | undefined {
    return serverSaid(res.text, (t) => this.client.redactor.text(t));
  }

  private noToken(res: HttpResponse, configured?: SigningProfile): never {
    const signedAs =
      configured === undefined ? '' : ` (signed as the target's config sets: ${describeProfile(configured)})`;
    throw new TargetError(
      `no token: POST ${this.client.identity.baseUrl}/oauth/token${tokenRefusal(res, (t) => this.client.redactor.text(t))}${signedAs}`,
      'CONFORMANCE_ERR_NO_TOKEN',
    );
  }

  /**
   * What the run says about its tokens as a whole (REQ-LIFE-06): whether the server ended the run's token before its
   * 60 minutes, and how often. Always one line, so a report says so either way.
   */
  notes(): string[] {
    const signing = this.learnt === undefined ? [] : [signingNote(this.learnt)];
    const tokens =
      this.renewals === 0
        ? "tokens: the server never ended the run's token early (one token served every check that used the run's token)"
        : `tokens: the server ended the run's token before its 60 minutes ${this.renewals} time(s) (a revocation of another token, a newer token, a restart); each time a new token was obtained and the refused request sent again`;
    return [...signing, tokens, this.revokeShape.note()];
  }

  /**
   * Revokes every token the session obtained, in the run's revoke shape (learnt here when no check revoked a token).
   * A token the server had ended already is left alone; one no request revoked is named as a problem, with what was
   * tried: the run leaves no live credential unnoticed. Problems are returned, not thrown: cleanup must not mask results.
   */
  async close(): Promise<string | undefined> {
    this.closed = true;
    const problems: string[] = [];
    const io: RevokeIo = {
      send: (spec) => this.client.send(spec, this.sink),
      alive: (token) => this.accepts(token),
    };
    for (const pending of this.issued) {
      let token: string;
      try {
        token = (await pending).token;
      } catch {
        continue;
      }
      if (this.ended.has(token)) continue;
      try {
        const r = await this.revokeShape.revoke(token, io);
        if (!r.revoked && !r.ended)
          problems.push(
            `revoking the run's token answered ${r.res.status}${r.tried === undefined ? '' : ` (tried: ${r.tried})`}: it stays live until it expires`,
          );
      } catch (e) {
        problems.push(`revoking the run's token failed: ${(e as Error).message}`);
      }
    }
    return problems.length ? problems.join('; ') : undefined;
  }
}

/** Requests a token (recorded against the check); credentials default to the target's. */
export function requestToken(ctx: CheckContext, credentials = ctx.credentials): Promise<HttpResponse> {
  return ctx.send(tokenRequest(credentials));
}

/** The run's revoke shape: the session's; a session of another kind (a test's) gets one of its own. */
const otherShapes = new WeakMap<object, RevokeShape>();
export function revokeShapeOf(ctx: CheckContext): RevokeShape {
  if (ctx.session instanceof Session) return ctx.session.revokeShape;
  let shape = otherShapes.get(ctx.session);
  if (shape === undefined) otherShapes.set(ctx.session, (shape = new RevokeShape(undefined, chainedSerial())));
  return shape;
}

/**
 * Revokes a token the check obtained, in the run's revoke shape (learnt here at the run's first revocation), every
 * request recorded against the check. What a revocation that did not revoke tried is recorded on the check.
 */
export async function revocation(ctx: CheckContext, token: string): Promise<Revocation> {
  const r = await revokeShapeOf(ctx).revoke(token, {
    send: (spec) => ctx.send(spec),
    alive: async (t) => {
      try {
        return (await ctx.send({ ...TOKEN_PROBE, token: t })).status !== 401;
      } catch {
        return true;
      }
    },
  });
  if (r.ended)
    ctx.observe(
      `POST /oauth/revoke answered 401 and a correct read with the token was refused (401) too: the token had ended already${r.tried === undefined ? '' : ` (tried: ${r.tried})`}`,
    );
  else if (!r.revoked && r.tried !== undefined)
    ctx.observe(`POST /oauth/revoke: no request shape revoked the token (tried: ${r.tried})`);
  else if (r.revoked && r.tried !== undefined)
    ctx.observe(
      `the run's first revocation, here, learnt the revoke request: ${REVOKE_BODY_SAID[r.body]} (tried: ${r.tried})`,
    );
  return r;
}

/** Revokes a token the check obtained, so a run leaves no live credential behind: the last answer. */
export async function revokeToken(ctx: CheckContext, token: string): Promise<HttpResponse> {
  return (await revocation(ctx, token)).res;
}

/** The revoke shape the run sends, once configured or learnt. */
export function knownRevokeBody(ctx: CheckContext): RevokeBody | undefined {
  return revokeShapeOf(ctx).known();
}

/**
 * Why a token request gave no token, in one line after the request: the status, what the server said (its `{code,
 * message}` or the start of its body), and what to check for that status. Only a 401 or 403 points at the credentials:
 * a 404 points at the base URL, another 4xx at what the server's answer names, a 5xx at the server. A proxy's own error
 * page (src/http/proxy.ts) is told as the proxy's: the server never answered.
 */
function tokenRefusal(res: HttpResponse, redact: (text: string) => string): string {
  // A proxy's own page is not the server's words: it says who answered, and why the server did not.
  const page = proxyErrorPage(res);
  if (page !== undefined) return `: ${page.text}`;
  const said = serverSaid(res.text, redact);
  const ok = res.status >= 200 && res.status <= 299;
  const what = ok
    ? `answered ${res.status} without a token record in the body`
    : `answered ${res.status}${redirectNote(res)}`;
  const saying = said === undefined ? '' : ` (the server said: ${said})`;
  let advice: string;
  if (ok) advice = 'a token comes as {"data": {"token": …}} or {"token": …}';
  else if (res.status === 401 || res.status === 403)
    advice = 'check clientId, clientSecret, keyId and the private key of this target';
  else if (res.status === 404 || res.status === 405)
    advice =
      'check baseUrl: the token endpoint is POST <baseUrl>/oauth/token, so baseUrl usually ends with the API version (e.g. /v1)';
  else if (res.status >= 500) advice = 'the server failed on a correct token request; look at its logs, or try again';
  else advice = 'the server refused the token request itself: its answer says why';
  return ` ${what}${saying}; ${advice}`;
}

/**
 * Why no signing shape got a token, after the status and the server's words on the first. The same answer to every
 * shape points first at what every shape shared, the credentials (a 401 or 403), as a run without the search would;
 * answers that differ by shape say the shape matters to the server. Either way the config can set the shape. Answers
 * that came through a proxy (src/http/proxy.ts) point first at what such a proxy changes of the address the server
 * checks the signature against (its Host, its scheme, a path prefix baseUrl has), and only then at the credentials.
 */
function refusedEveryShape(
  answers: readonly HttpResponse[],
  shapes: readonly SigningProfile[],
  said: (res: HttpResponse) => string | undefined,
  baseUrl: string,
): string {
  const first = answers[0]!;
  const last = answers[answers.length - 1]!;
  const words = said(first);
  const head = `answered ${first.status}${redirectNote(first)}${words === undefined ? '' : ` (the server said: ${words})`}`;
  const tried = shapesTried(shapes.slice(0, answers.length));
  const credentials = first.status === 401 || first.status === 403;
  const configure = "set `signing` in the target's config to a shape the server takes";
  const check = 'check clientId, clientSecret, keyId and the private key of this target';
  const proxy = answers.map(proxyOf).find((p) => p !== undefined);
  if (credentials && proxy !== undefined) {
    // Behind a proxy, what every shape shared is first the address the server sees, and only then the credentials.
    const other = answers.findIndex((a) => a.status !== first.status || said(a) !== words);
    const how =
      other < 0
        ? `with ${first.status}, the same answer each time`
        : `with answers that differ by shape (${describeProfile(shapes[other]!)}: ${answers[other]!.status}${said(answers[other]!) === undefined ? '' : `, ${said(answers[other]!)}`})`;
    return `${head}; every signing shape tried was refused ${how}; tried: ${tried}; the answers came through a proxy (${proxy}), which may change what the server sees of the address the client signed: ${addressRewrites(pathPrefix(baseUrl))}; a server that checks the signature against the address it sees then refuses every signature a client can make: have the proxy pass the address clients use and the server check the signature against it (or against @path and @query); once it does, a ${first.status} is about the credentials (clientId, clientSecret, keyId, the private key)`;
  }
  if (answers.every((a) => a.status === first.status && said(a) === words)) {
    const every = `every signing shape tried was refused with ${first.status}, the same answer each time (${tried})`;
    return credentials
      ? `${head}; ${check}: ${every}; if they are right, ${configure}`
      : `${head}; the server refused the token request itself: its answer says why; ${every}; if the answer is about the signature, ${configure}`;
  }
  const lastWords = said(last);
  const lastShape = `the last, ${describeProfile(shapes[answers.length - 1]!)}: ${last.status}${lastWords === undefined ? '' : `, ${lastWords}`}`;
  return `${head} to the first signing shape, and every other shape tried was refused too, with answers that differ by shape (${tried}; ${lastShape}): ${configure}, or ${check}`;
}

/** What an answer's body says, for a person: `code "…", message "…"` of a JSON error, else its first line; at most 200 characters. */
function serverSaid(text: string, redact: (text: string) => string): string | undefined {
  const parsed = parseJson(text);
  let said: string | undefined;
  if (parsed.ok && typeof parsed.value === 'object' && parsed.value !== null) {
    const body = parsed.value as Record<string, unknown>;
    const parts = ['code', 'message', 'error', 'error_description']
      .filter((k) => typeof body[k] === 'string' || typeof body[k] === 'number')
      .map((k) => `${k} ${JSON.stringify(String(body[k]))}`);
    said = parts.length > 0 ? parts.join(', ') : undefined;
  }
  said ??= text.split('\n')[0]?.trim() || undefined;
  if (said === undefined) return undefined;
  const clean = redact(said).replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 200 ? `${clean.slice(0, 199)}…` : clean;
}
