// The signed HTTP client every check uses. It builds what a correct client sends (spec "Common request rules"),
// and lets a negative check alter any part of it before or after signing, since those checks must send what a
// correct client never would.
import { randomUUID } from 'node:crypto';
import { channel } from 'node:diagnostics_channel';
import { maxHeaderSize as httpMaxHeaderSize } from 'node:http';
import { request as undiciRequest, type Dispatcher } from './undici.js';
import { contentDigest } from './digest.js';
import { removeHeader, headerValue, type HttpMessage } from './message.js';
import { DEFAULT_SIGNING_PROFILE, signRequest, type SignOptions, type SigningProfile } from './signature.js';
import { Redactor } from './redact.js';
import { EXCERPT_BYTES, EXCHANGE_CHANNEL, recordMessage, type Exchange, type RecordedMessage } from './exchange.js';
import { WholeBodies } from './whole-bodies.js';
import { ConformanceError, type ErrorCode } from '../errors.js';
import { ThrottledOut, Transport, type TransportOptions } from './transport.js';
import { formatBytes } from './format-bytes.js';
import {
  describeRouteFailure,
  routeDispatchers,
  routeNotes,
  routeTo,
  type ClientCertificate,
  type Route,
} from './route.js';

export { ThrottledOut } from './transport.js';

const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Every attempt on the wire, as recorded, once it ends (see EXCHANGE_CHANNEL). */
const exchanges = channel(EXCHANGE_CHANNEL);

export interface ClientIdentity {
  baseUrl: string;
  clientId: string;
  keyId: string;
  /** 32-byte Ed25519 seed. */
  privateKey: Uint8Array;
}

export interface ClientOptions extends ClientIdentity {
  ca?: string;
  /** The target's config `proxy`: a proxy URL, or "none"; absent, HTTPS_PROXY and the others (./route.ts). */
  proxy?: string;
  /** The client certificate mutual TLS asks for (config clientCertFile, clientKeyFile). */
  clientCertificate?: ClientCertificate;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read; process.env by default. */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  maxBodyBytes?: number;
  redactor?: Redactor;
  /** How 429s are waited out and what bounds them (tests give fake timers). */
  transport?: TransportOptions;
  /** The parts of the signing profile the target's config fixes (`signing`); the default profile's for the rest. */
  signing?: Partial<SigningProfile>;
}

/** A request as it will go on the wire, open to alteration by `tamper`. */
export interface PreparedRequest extends HttpMessage {
  body?: Uint8Array;
}

export type QueryValue = string | number | boolean | bigint | undefined;

export interface RequestSpec {
  method: string;
  /** Path relative to the base URL (e.g. "/customers/1042"), or an absolute URL. */
  path: string;
  query?: Record<string, QueryValue> | Array<[string, string]>;
  /** A JSON body, serialised as given (use `body` for exact bytes). */
  json?: unknown;
  /** A form-encoded body. */
  form?: Record<string, string>;
  /** Raw body bytes or text, with `contentType`. */
  body?: string | Uint8Array;
  contentType?: string;
  /** Bearer token; null sends no Authorization header. */
  token?: string | null;
  /** null sends no X-Client-Id; a string replaces the configured id. */
  clientId?: string | null;
  /** null sends no idempotency header on a mutating request; a string sets its value. */
  idempotencyKey?: string | null;
  /** Extra headers added before signing (covered when they are profile components). */
  headers?: Array<[string, string]>;
  /**
   * false sends the request unsigned; an object overrides any signing option (key, keyId, components, created, expires,
   * label, params); what it leaves out comes from the client's signing profile.
   */
  sign?: false | Partial<SignOptions>;
  /** Runs after signing on the request about to be sent: drop or alter headers, change the body, and so on. */
  tamper?: (req: PreparedRequest) => void;
  timeoutMs?: number;
  maxBodyBytes?: number;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Array<[string, string]>;
  body: Uint8Array;
  text: string;
  /** The exchange as recorded (redacted). */
  exchange: Exchange;
  header(name: string): string | undefined;
}

/**
 * What a person can do about a failure on the wire, when it is theirs to fix (the address, the CA, a limit): a command
 * that gives up on it (no token, a curl request) says it after what happened. A check's finding does not: there the
 * server is judged, not the set-up.
 */
export interface TransportFailure {
  /**
   * `no-answer`: nothing answered (refused, no such name, no route, no answer in time, closed before answering); `tls`:
   * the TLS handshake failed; `bad-answer`: an answer came but cannot be used (over the cap, not HTTP, cut short);
   * `other`: cancelled, or a cause not known here.
   */
  kind: 'no-answer' | 'tls' | 'bad-answer' | 'other';
  /** What to do, when it is the set-up's to fix; absent when only the server can. */
  advice?: string;
}

/** The server did not give a usable HTTP response: refused, reset, timed out, or a body over the cap. */
export class TransportError extends ConformanceError {
  constructor(
    message: string,
    readonly exchange: Exchange,
    /** The connection was closed or reset before any byte of an answer: the request can go once more on a new one. */
    readonly lostBeforeAnswer = false,
    readonly failure: TransportFailure = { kind: 'other' },
  ) {
    super(message, 'CONFORMANCE_ERR_TRANSPORT');
  }
}

/**
 * The request was never sent: it would have carried the client's credentials (bearer token, signature, client id) to
 * an origin other than the target's. A TransportError, so every caller that copes with "no usable response" copes.
 */
export class CredentialsRefused extends TransportError {
  override readonly code: ErrorCode = 'CONFORMANCE_ERR_CREDENTIALS_REFUSED';

  constructor(
    readonly origin: string,
    exchange: Exchange,
  ) {
    super(exchange.error ?? `refused to send credentials to ${origin} (not the target's origin)`, exchange);
  }
}

export type ExchangeSink = (exchange: Exchange) => void;

export class SignedClient {
  readonly identity: ClientIdentity;
  readonly redactor: Redactor;
  private readonly dispatcher: Dispatcher;
  /** For the one resend of a request whose connection was lost: each request on its own new connection, never reused. */
  private readonly freshDispatcher: Dispatcher;
  /** How requests reach the target: directly or through a proxy, with or without a client certificate. */
  readonly route: Route;
  /** 429s and lost connections: the rules, the shared gate, and what the run met (its notes). */
  readonly transport: Transport;
  /** The only origin requests go to: that of baseUrl. */
  readonly origin: string;
  /** The limits of one request, read by the run for its report (RunInfo.options). */
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  private nextSeq = 1;
  /** When each request was last sent, by method and URL without its query ("POST https://…/oauth/token"), epoch ms. */
  private readonly sentAt = new Map<string, number>();
  /** Bodies over the excerpt, kept whole for the HAR (within a budget per client), of its own traffic and observed. */
  readonly wholeBodies: WholeBodies;
  /** What the target's config fixes of the signing profile: a run learns only the rest (suites/kit/session.ts). */
  readonly signingFixed: Readonly<Partial<SigningProfile>>;
  /**
   * The profile every request is signed with, where its `sign` options do not say otherwise: the default's, with what
   * the config fixes; the run's session replaces it with the one the server takes, once it has learnt it.
   */
  signing: SigningProfile;

  constructor(options: ClientOptions) {
    this.identity = {
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      clientId: options.clientId,
      keyId: options.keyId,
      privateKey: options.privateKey,
    };
    this.origin = new URL(this.identity.baseUrl).origin;
    this.signingFixed = Object.freeze({ ...options.signing });
    this.signing = { ...DEFAULT_SIGNING_PROFILE, ...options.signing };
    this.redactor = options.redactor ?? new Redactor();
    this.wholeBodies = new WholeBodies(this.redactor);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.route = routeTo(this.identity.baseUrl, options);
    // The proxy's password and the client certificate's key never reach a report, whatever echoes them.
    for (const secret of this.route.proxy?.secrets ?? []) this.redactor.add(secret);
    this.redactor.add(options.clientCertificate?.key);
    this.redactor.add(options.clientCertificate?.passphrase);
    const dispatcherOptions = { timeoutMs: this.timeoutMs, ...(options.ca ? { ca: options.ca } : {}) };
    const dispatcher = routeDispatchers(this.route, dispatcherOptions);
    this.dispatcher = dispatcher();
    this.freshDispatcher = dispatcher();
    this.transport = new Transport({ ...options.transport, route: routeNotes(this.route) });
  }

  /** Builds and signs a request without sending it. */
  prepare(spec: RequestSpec): PreparedRequest {
    const method = spec.method.toUpperCase();
    const url = this.resolveUrl(spec.path, spec.query);
    const headers: Array<[string, string]> = [];
    if (spec.token !== undefined && spec.token !== null) headers.push(['Authorization', `Bearer ${spec.token}`]);
    const clientId = spec.clientId === undefined ? this.identity.clientId : spec.clientId;
    if (clientId !== null) headers.push(['X-Client-Id', clientId]);
    if (MUTATING_METHODS.has(method)) {
      const key = spec.idempotencyKey === undefined ? randomUUID() : spec.idempotencyKey;
      if (key !== null) headers.push(['X-Idempotency-Key', key]);
    }
    const body = encodeBody(spec);
    if (body) {
      headers.push(['Content-Type', body.contentType]);
      headers.push(['Content-Length', String(body.bytes.byteLength)]);
      headers.push(['Content-Digest', contentDigest(body.bytes)]);
    }
    headers.push(...(spec.headers ?? []));
    const req: PreparedRequest = { method, url, headers, ...(body ? { body: body.bytes } : {}) };
    if (spec.sign !== false) {
      const signed = signRequest(req, {
        keyId: this.identity.keyId,
        privateKey: this.identity.privateKey,
        profile: this.signing,
        ...(spec.sign ?? {}),
      });
      req.headers.push(['Signature-Input', signed.signatureInput], ['Signature', signed.signature]);
    }
    spec.tamper?.(req);
    return req;
  }

  /** Sends a request; every outcome is recorded through `sink`. Throws TransportError when no usable response came. */
  async send(spec: RequestSpec, sink?: ExchangeSink, checkId = 'session'): Promise<HttpResponse> {
    // Every attempt is prepared afresh (a new created/expires), but a mutating request keeps its one idempotency key:
    // a request sent again after a lost connection may have been carried out already, and the key makes the server
    // answer it as a replay rather than act twice. Every mutating request of the interface carries one, so the one
    // resend is safe.
    const fixed =
      isMutating(spec.method) && spec.idempotencyKey === undefined ? { ...spec, idempotencyKey: randomUUID() } : spec;
    return this.deliver(
      () => this.prepare(fixed),
      { timeoutMs: spec.timeoutMs, maxBodyBytes: spec.maxBodyBytes, signal: spec.signal },
      sink,
      checkId,
    );
  }

  /**
   * Sends a request as prepared (a negative probe's altered request). It cannot be signed again, so a 429 or a lost
   * connection sends the same bytes again: its times were set when it was prepared, and the wait moves them by seconds,
   * inside every margin a check uses.
   */
  async sendPrepared(
    req: PreparedRequest,
    limits: { timeoutMs?: number; maxBodyBytes?: number; signal?: AbortSignal },
    sink?: ExchangeSink,
    checkId = 'session',
  ): Promise<HttpResponse> {
    return this.deliver(() => req, limits, sink, checkId);
  }

  /**
   * What the checks see of the transport: the answer the server gave once it let the request through. A 429 is waited
   * out (the shared gate holds every other request meanwhile) and the request sent again; a connection lost before any
   * answer is replaced and the request sent once more. Only the final attempt is recorded against the check; the
   * transport's notes count the others. A server that throttles past the bound ends in ThrottledOut, here and for
   * every later request of the run.
   */
  private async deliver(
    build: () => PreparedRequest,
    limits: { timeoutMs?: number; maxBodyBytes?: number; signal?: AbortSignal },
    sink: ExchangeSink | undefined,
    checkId: string,
  ): Promise<HttpResponse> {
    const transport = this.transport;
    let since: number | undefined;
    let attempt = 0;
    let reconnected = false;
    for (;;) {
      if (transport.exhausted !== undefined) throw new ThrottledOut(transport.exhausted);
      try {
        await transport.gate.pass(limits.signal);
      } catch {
        // Cancelled while held (the check ended): sent with its cancelled signal, it is recorded as cancelled.
        return this.attempt(build(), limits, sink, checkId, this.dispatcher);
      }
      // Built once the gate lets it through: a request sent again is signed again, its created/expires fresh.
      const req = build();
      this.sentAt.set(sentKey(req.method, req.url), Date.now());
      let recorded: Exchange | undefined;
      const hold: ExchangeSink = (e) => {
        recorded = e;
      };
      let res: HttpResponse;
      try {
        res = await this.attempt(
          req,
          limits,
          hold,
          checkId,
          reconnected ? this.freshDispatcher : this.dispatcher,
          reconnected,
        );
      } catch (e) {
        if (e instanceof TransportError && e.lostBeforeAnswer && !reconnected && !limits.signal?.aborted) {
          reconnected = true;
          transport.onReconnect();
          continue;
        }
        if (recorded) sink?.(recorded);
        throw e;
      }
      if (res.status === 429) {
        since ??= transport.timers.now();
        const decision = transport.onThrottled(
          res.header('retry-after'),
          attempt++,
          since,
          res.header('x-ratelimit-reset'),
        );
        if (decision.kind === 'wait') continue;
        throw new ThrottledOut(decision.reason);
      }
      // A resend asked for its own connection to close (reset): its Connection: close is ours, not the server's.
      transport.onAnswer(reconnected ? undefined : res.header('connection'));
      if (recorded) sink?.(recorded);
      return res;
    }
  }

  /** One attempt on the wire, recorded through `sink`. */
  private async attempt(
    req: PreparedRequest,
    limits: { timeoutMs?: number; maxBodyBytes?: number; signal?: AbortSignal },
    sink: ExchangeSink | undefined,
    checkId: string,
    dispatcher: Dispatcher,
    fresh = false,
  ): Promise<HttpResponse> {
    const timeoutMs = limits.timeoutMs ?? this.timeoutMs;
    const cap = limits.maxBodyBytes ?? this.maxBodyBytes;
    const started = Date.now();
    const exchange: Exchange = {
      seq: this.nextSeq++,
      checkId,
      startedAt: new Date(started).toISOString(),
      durationMs: 0,
      request: this.record(req.headers, req.body, { method: req.method, url: req.url }),
    };
    const finish = (): void => {
      exchange.durationMs = Date.now() - started;
      if (exchanges.hasSubscribers) exchanges.publish(exchange);
      sink?.(exchange);
    };
    // The one place every request passes: a link, a redirect or a check can name any URL, but the credentials every
    // request carries (token, signature, client id) go to the target's origin only.
    const origin = originOf(req.url);
    if (origin !== this.origin) {
      exchange.error = `refused to send credentials to ${origin ?? JSON.stringify(req.url)} (not the target's origin)`;
      finish();
      throw new CredentialsRefused(origin ?? req.url, exchange);
    }
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = limits.signal ? AbortSignal.any([deadline, limits.signal]) : deadline;
    const progress: Progress = { headers: false, received: 0, declared: undefined };
    try {
      const res = await undiciRequest(req.url, {
        method: req.method as Dispatcher.HttpMethod,
        headers: req.headers.flat(),
        body: req.body ? Buffer.from(req.body) : null,
        dispatcher,
        // A resend after a lost connection closes its own connection after the answer, so it is never a reused one.
        ...(fresh ? { reset: true } : {}),
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const headers = responseHeaders(res.headers);
      progress.headers = true;
      const length = Number(headerValue(headers, 'content-length'));
      if (Number.isSafeInteger(length) && length >= 0) progress.declared = length;
      const body = await readCapped(res.body, cap, progress);
      const text = new TextDecoder().decode(body);
      // Tokens a server hands out anywhere in a body are learnt before anything is recorded, not only in the excerpt.
      if (body.byteLength > EXCERPT_BYTES) this.redactor.learn(text);
      exchange.response = this.record(headers, body, { status: res.statusCode }, text);
      finish();
      return {
        status: res.statusCode,
        headers,
        body,
        text,
        exchange,
        header: (name) => headerValue(headers, name),
      };
    } catch (err) {
      const { text, ...failure } = describeTransportError(err, {
        url: req.url,
        route: this.route,
        timeoutMs,
        cap,
        deadline,
        external: limits.signal,
        progress,
      });
      exchange.error = this.redactor.text(text);
      finish();
      throw new TransportError(
        exchange.error,
        exchange,
        lostBeforeAnswer(err, progress, deadline, limits.signal),
        failure,
      );
    }
  }

  /** A message as the reports keep it (an excerpt of its body), and its whole body kept beside it for the HAR. */
  private record<T extends object>(
    headers: Array<[string, string]>,
    body: Uint8Array | undefined,
    extra: T,
    text?: string,
  ): T & RecordedMessage {
    const recorded = recordMessage(this.redactor, headers, body, extra, text);
    this.wholeBodies.keep(recorded, body, text);
    return recorded;
  }

  /** Closes the connections; requests still in flight after a second (a check that outlived its limit) are cut. */
  async close(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), 1_000);
    });
    const agents = [this.dispatcher, this.freshDispatcher];
    const closed = await Promise.race([Promise.all(agents.map((a) => a.close())).then(() => 'closed' as const), grace]);
    clearTimeout(timer);
    if (closed === 'late') await Promise.all(agents.map((a) => a.destroy()));
  }

  /**
   * When the run last sent `method` to `path` (relative to the base URL, or a URL; its query aside), whoever sent it (a
   * check, the session): epoch ms, or undefined when it never did. What caused an event the server may still deliver.
   */
  lastSent(method: string, path: string): number | undefined {
    return this.sentAt.get(sentKey(method, this.resolveUrl(path)));
  }

  resolveUrl(path: string, query?: RequestSpec['query']): string {
    const url = /^https?:\/\//i.test(path)
      ? new URL(path)
      : new URL(`${this.identity.baseUrl}${path.startsWith('/') ? '' : '/'}${path}`);
    const pairs = Array.isArray(query)
      ? query
      : Object.entries(query ?? {})
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, String(v)] as [string, string]);
    for (const [k, v] of pairs) url.searchParams.append(k, v);
    return url.toString();
  }
}

function encodeBody(spec: RequestSpec): { bytes: Uint8Array; contentType: string } | undefined {
  const enc = new TextEncoder();
  if (spec.json !== undefined)
    return { bytes: enc.encode(JSON.stringify(spec.json)), contentType: spec.contentType ?? 'application/json' };
  if (spec.form !== undefined)
    return {
      bytes: enc.encode(new URLSearchParams(spec.form).toString()),
      contentType: spec.contentType ?? 'application/x-www-form-urlencoded',
    };
  if (spec.body !== undefined) {
    return {
      bytes: typeof spec.body === 'string' ? enc.encode(spec.body) : spec.body,
      contentType: spec.contentType ?? 'application/octet-stream',
    };
  }
  return undefined;
}

function responseHeaders(raw: Record<string, string | string[] | undefined>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.push([name, v]);
  }
  return out;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** How far a response got, for an error message that says what the server did. */
interface Progress {
  headers: boolean;
  /** Body bytes received. */
  received: number;
  /** Content-Length, when the server sent one. */
  declared: number | undefined;
}

class BodyTooLarge extends Error {}

/** Reads a body while counting, so an endless or huge body is cut off at the cap instead of filling memory. */
async function readCapped(
  body: AsyncIterable<Uint8Array> & { destroy(err?: Error): unknown },
  cap: number,
  progress: Progress,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) {
    progress.received += chunk.byteLength;
    if (progress.received > cap) {
      body.destroy();
      throw new BodyTooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${+(ms / 1000).toFixed(1)} s`;
}

/** Where a request went, as baseUrl names it: the host, and `host:port` with the scheme's port when none is written. */
function addressOf(url: string): { host: string; hostPort: string } {
  try {
    const u = new URL(url);
    return { host: u.hostname, hostPort: `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}` };
  } catch {
    return { host: url, hostPort: url };
  }
}

const CA_ADVICE =
  "give the CA that issued it in the target's caFile (a PEM file, trusted besides the system's CAs) or in NODE_EXTRA_CA_CERTS";

/** OpenSSL names a certificate whose issuer it cannot find in three ways; to a person they are one. */
const UNKNOWN_ISSUER = {
  what: "the server's certificate is not trusted: its issuer is unknown here",
  advice: () => CA_ADVICE,
};

/**
 * TLS failures (Node's and OpenSSL's codes), in words a person acts on: what is wrong with the certificate, and what to
 * do. Only an untrusted certificate is fixed on this side, by its CA; the others are the server's or the address's.
 */
const TLS_FAILURES: Record<string, { what: string; advice: (host: string) => string }> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: {
    what: "the server's certificate is self-signed, and not trusted",
    advice: () =>
      "give that certificate itself in the target's caFile (a PEM file, trusted besides the system's CAs) or in NODE_EXTRA_CA_CERTS",
  },
  SELF_SIGNED_CERT_IN_CHAIN: {
    what: "the server's certificate chains to a CA that is not trusted",
    advice: () => CA_ADVICE,
  },
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: UNKNOWN_ISSUER,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: UNKNOWN_ISSUER,
  UNABLE_TO_GET_ISSUER_CERT: UNKNOWN_ISSUER,
  CERT_UNTRUSTED: { what: "the server's certificate is not trusted", advice: () => CA_ADVICE },
  ERR_TLS_CERT_ALTNAME_INVALID: {
    what: "the server's certificate does not name the host it was reached at",
    advice: (host) => `use in baseUrl a host name the certificate names, or have the server's certificate name ${host}`,
  },
  CERT_HAS_EXPIRED: {
    what: "the server's certificate has expired",
    advice: () => "the server's certificate must be renewed (or this machine's clock is wrong)",
  },
  CERT_NOT_YET_VALID: {
    what: "the server's certificate is not valid yet",
    advice: () => "this machine's clock, or the certificate's start date, is wrong",
  },
  ERR_SSL_WRONG_VERSION_NUMBER: {
    what: 'the server did not answer in TLS',
    advice: () => 'baseUrl says https: does the server speak http there, or TLS on another port?',
  },
};

/** Set-up failures before any answer: the address or the network, never the server's behaviour. */
const ADDRESS_FAILURES: Record<string, (at: { host: string; hostPort: string }) => { text: string; advice: string }> = {
  ECONNREFUSED: ({ hostPort }) => ({
    text: `nothing listens at ${hostPort} (ECONNREFUSED)`,
    advice: 'check baseUrl, and that the server is running there',
  }),
  ENOTFOUND: ({ host }) => ({
    text: `the name ${host} does not resolve (ENOTFOUND)`,
    advice: 'check the host name in baseUrl',
  }),
  EAI_AGAIN: ({ host }) => ({
    text: `the name ${host} could not be resolved: no answer from DNS (EAI_AGAIN)`,
    advice: "check the host name in baseUrl and this machine's DNS, or try again",
  }),
  EHOSTUNREACH: ({ hostPort }) => ({
    text: `no route to ${hostPort} (EHOSTUNREACH)`,
    advice: 'check baseUrl, and the network between here and the server (a VPN, a firewall)',
  }),
  ENETUNREACH: ({ hostPort }) => ({
    text: `no network route to ${hostPort} (ENETUNREACH)`,
    advice: 'check baseUrl, and the network between here and the server (a VPN, a firewall)',
  }),
};

/** What a failed request was: its address, its route, its limits, and how far its answer came. */
interface FailedAttempt {
  url: string;
  route?: Route;
  timeoutMs: number;
  cap: number;
  deadline: AbortSignal;
  external: AbortSignal | undefined;
  progress: Progress;
}

type DescribedFailure = { text: string } & TransportFailure;

/** A failed request with its error read: Node's or undici's code, the first line of the message, the address. */
interface FailureFacts {
  err: unknown;
  code: string | undefined;
  message: string;
  address: { host: string; hostPort: string };
  at: FailedAttempt;
}

/** One line naming what happened (the words first, Node's or undici's code after them), and what to do about it. */
function describeTransportError(err: unknown, at: FailedAttempt): DescribedFailure {
  if (err instanceof BodyTooLarge) return bodyOverCap(at);
  // The route's own failures first: a proxy that refused or cannot be reached, a client certificate the server wants.
  const routed = at.external?.aborted ? undefined : describeRouteFailure(err, at.route);
  if (routed) return routed;
  const facts = readFailure(err, at);
  for (const describe of FAILURE_DESCRIBERS) {
    const described = describe(facts);
    if (described) return described;
  }
  return { text: facts.code ? `${facts.code}: ${facts.message}` : facts.message, kind: 'other' };
}

/** The error's code and first message line, and the address it was sent to. */
function readFailure(err: unknown, at: FailedAttempt): FailureFacts {
  const e = err as { code?: unknown; message?: string; cause?: { code?: unknown; message?: string } };
  // A DOMException (an abort) has a numeric code; only Node's and undici's string codes name anything.
  const code = [e.cause?.code, e.code].find((c): c is string => typeof c === 'string');
  const message = (e.cause?.message ?? e.message ?? String(err)).split('\n')[0] ?? 'request failed';
  return { err, code, message, address: addressOf(at.url), at };
}

/** ' of the N its Content-Length announced', when the response announced one. */
function ofDeclared(progress: Progress): string {
  return progress.declared !== undefined ? ` of the ${progress.declared} its Content-Length announced` : '';
}

/** The body streamed past --max-body. */
function bodyOverCap({ cap, progress }: FailedAttempt): DescribedFailure {
  return {
    text: `response body passed the ${formatBytes(cap)} cap on one body (--max-body) after ${progress.received} bytes${ofDeclared(progress)}, cut off while streaming`,
    kind: 'bad-answer',
    advice: 'if answers that large are right, raise the cap with --max-body',
  };
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** The request's time ran out: while connecting, before the headers, or in the middle of the body. */
function timedOut({ code, address, at }: FailureFacts): DescribedFailure | undefined {
  if (!at.deadline.aborted && !(code !== undefined && TIMEOUT_CODES.has(code))) return undefined;
  const within = formatMs(at.timeoutMs);
  const longer = 'or give it longer with --timeout';
  if (code === 'UND_ERR_CONNECT_TIMEOUT')
    return {
      text: `could not connect to ${address.hostPort} within ${within} (${code})`,
      kind: 'no-answer',
      advice: `check baseUrl (a firewall that drops connections looks the same), ${longer}`,
    };
  if (!at.progress.headers)
    return {
      text: `no response within ${within}${code ? ` (${code})` : ''}`,
      kind: 'no-answer',
      advice: `the server took the connection but did not answer: check that baseUrl is the API, ${longer}`,
    };
  return {
    text: `the response body did not finish within ${within}: ${at.progress.received} bytes received${ofDeclared(at.progress)}${code ? ` (${code})` : ''}`,
    kind: 'bad-answer',
  };
}

/** The check that sent the request ended before the response came. */
function cancelled({ at }: FailureFacts): DescribedFailure | undefined {
  if (!at.external?.aborted) return undefined;
  return {
    text: 'the request was cancelled: the check ended (its time limit or the run budget) before the response came',
    kind: 'other',
  };
}

/** The address or the network (ADDRESS_FAILURES). */
function addressFailure({ code, address }: FailureFacts): DescribedFailure | undefined {
  const failure = code === undefined ? undefined : ADDRESS_FAILURES[code];
  return failure ? { ...failure(address), kind: 'no-answer' } : undefined;
}

/** A TLS failure the table TLS_FAILURES words. */
function wordedTlsFailure({ code, message, address }: FailureFacts): DescribedFailure | undefined {
  const tls = code === undefined ? undefined : TLS_FAILURES[code];
  return tls
    ? { text: `TLS: ${tls.what} (${code}: ${message})`, kind: 'tls', advice: tls.advice(address.host) }
    : undefined;
}

/** The response headers passed undici's limit, which is Node's --max-http-header-size. */
function headersOverflow({ code }: FailureFacts): DescribedFailure | undefined {
  if (code !== 'UND_ERR_HEADERS_OVERFLOW') return undefined;
  return {
    text: `response headers exceeded the client's limit of ${formatBytes(httpMaxHeaderSize)} (${code})`,
    kind: 'bad-answer',
  };
}

/** The connection closed before the body its Content-Length announced was complete. */
function bodyCutShort({ code, at: { progress } }: FailureFacts): DescribedFailure | undefined {
  const short = progress.headers && progress.declared !== undefined && progress.received < progress.declared;
  if (code !== 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' && !short) return undefined;
  return {
    text: `the server closed the connection after ${progress.received} of the ${progress.declared ?? '?'} body bytes its Content-Length announced${code ? ` (${code})` : ''}`,
    kind: 'bad-answer',
  };
}

/** The server reset or closed the connection, before answering or in the middle of the body. */
function connectionDropped({ code, message, at }: FailureFacts): DescribedFailure | undefined {
  const { headers } = at.progress;
  // A plain-http request to a TLS port is closed like this, before any answer.
  const plainToTls =
    at.url.startsWith('http:') && !headers ? { advice: 'baseUrl says http: does the server speak https there?' } : {};
  if (code === 'ECONNRESET')
    return {
      text: `the server reset the connection${headers ? ' in the middle of the body' : ' before answering'} (ECONNRESET)`,
      kind: headers ? 'bad-answer' : 'no-answer',
      ...plainToTls,
    };
  if (code === 'UND_ERR_SOCKET')
    return {
      text: `the server closed the connection ${headers ? 'in the middle of the body' : 'without an answer'} (${code}: ${message})`,
      kind: headers ? 'bad-answer' : 'no-answer',
      ...plainToTls,
    };
  return undefined;
}

/** The answer is not HTTP/1.1 (llhttp's parse errors). */
function notHttp({ err, code, message }: FailureFacts): DescribedFailure | undefined {
  if (!code?.startsWith('HPE_') && (err as Error)?.name !== 'HTTPParserError') return undefined;
  return { text: `the response is not valid HTTP/1.1: ${message}${code ? ` (${code})` : ''}`, kind: 'bad-answer' };
}

/** Node's TLS codes, and OpenSSL's verification codes the table TLS_FAILURES does not word (CERT_SIGNATURE_FAILURE…). */
function otherTlsFailure({ code, message }: FailureFacts): DescribedFailure | undefined {
  if (code === undefined || !/^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|INVALID_CA|PATH_LENGTH)/.test(code))
    return undefined;
  return { text: `TLS: the handshake failed (${code}: ${message})`, kind: 'tls' };
}

/** What a failure was, asked in this order (the first that recognises it words it): a time-out, a cancellation, the
 *  address, TLS, the headers' size, a short body, a dropped connection, broken HTTP, any other TLS code. */
const FAILURE_DESCRIBERS: Array<(facts: FailureFacts) => DescribedFailure | undefined> = [
  timedOut,
  cancelled,
  addressFailure,
  wordedTlsFailure,
  headersOverflow,
  bodyCutShort,
  connectionDropped,
  notHttp,
  otherTlsFailure,
];

/** Codes of a connection the server closed or reset under a request. */
const LOST_CONNECTION = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'UND_ERR_CLOSED']);

/** The connection was lost before any byte of the answer (not a time-out, not a cancel): worth one resend. */
function lostBeforeAnswer(
  err: unknown,
  progress: Progress,
  deadline: AbortSignal,
  external: AbortSignal | undefined,
): boolean {
  if (progress.headers || deadline.aborted || external?.aborted) return false;
  const e = err as { code?: unknown; cause?: { code?: unknown } };
  return [e.cause?.code, e.code].some((c) => typeof c === 'string' && LOST_CONNECTION.has(c));
}

function isMutating(method: string): boolean {
  return MUTATING_METHODS.has(method.toUpperCase());
}

/** The key of SignedClient.lastSent: the method, and the URL without its query or fragment. */
const sentKey = (method: string, url: string): string => `${method.toUpperCase()} ${url.split(/[?#]/, 1)[0]}`;

/** Drops every field of a name from a prepared request: handy in `tamper`. */
export function dropHeader(req: PreparedRequest, name: string): void {
  removeHeader(req.headers, name);
}
