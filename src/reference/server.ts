// The reference server: node:http, one pipeline per request —
//   read body (bounded) → route under /v1 → [middleware… → authenticate → idempotency → handler] → JSON reply.
// Everything a request can do wrong becomes a 4xx with the spec's error body; only a defect of the server is a 500.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { DEFAULT_AUTH_POLICY, type AuthPolicy } from './auth-policy.js';
import { ClientRegistry, type ClientRegistration } from './clients.js';
import type { Middleware, RequestContext, RouteDef, ServerState } from './context.js';
import { EventBus } from './events.js';
import { IdempotencyCache } from './idempotency.js';
import { authenticate, serveAuthenticated } from './pipeline.js';
import { fail, HttpError, send, type Reply } from './respond.js';
import {
  REJECTION_HEADER,
  rejectionHeaderValue,
  statusRejectionCode,
  type Rejection,
  type RequestLogEntry,
} from './rejection.js';
import { Router } from './router.js';
import { ALL_ROUTES } from './routes/index.js';
import { resolveChoices, type Choices, type VariantName } from './choices/index.js';
import { choicesMiddleware } from './choices-middleware.js';
import { resolveFaults } from './faults/catalog.js';
import { loadSeed, ReferenceStore, type Seed } from './store.js';
import { TokenStore } from './tokens.js';
import type { DeliveryAttempt, WebhookCa } from './webhooks/delivery.js';
import { WebhookService } from './webhooks/service.js';
import { accountEventsMiddleware } from './webhooks/account-events.js';
import { webhookKeyFromPem, type WebhookSigningKey } from './webhooks/signing-key.js';
import { latencyMiddleware } from './latency.js';
import { RateLimiter, rateLimitOf, retryAfterOf, throttleMiddleware } from './throttle.js';
import { QUOTA_SPENT_AT_REQUEST } from './choices/transport.js';
import { connectionPolicy } from './connections.js';

export type { DeliveryAttempt } from './webhooks/delivery.js';
export type { RequestLogEntry } from './rejection.js';

const API_PREFIX = '/v1';
/** The spec sets no maximum body size; 1 MiB is far above any body of the interface and bounds memory per request. */
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** ReferenceServer.deliveries keeps the most recent attempts only, so a long-running sandbox does not grow without end. */
const MAX_DELIVERY_LOG = 1000;

export interface ReferenceOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: an ephemeral port. */
  port?: number;
  clients: ClientRegistration[];
  /** A seed object, or the path of a seed file; defaults to fixtures/reference-seed.json. */
  seed?: Seed | string;
  /** Milliseconds since the epoch; injectable so a test can expire a token or a signature without waiting. */
  clock?: () => number;
  /** Tolerated clock skew for signature created/expires; default 30. Shorthand for auth.skewSeconds. */
  skewSeconds?: number;
  /** Overrides of the strict authentication policy (the fault catalog uses this). */
  auth?: Partial<AuthPolicy>;
  /** Largest accepted request body; default 1 MiB, larger is a 413. */
  maxBodyBytes?: number;
  /** Wrap the handling of every routed request, outermost first (the fault catalog uses this). */
  middleware?: Middleware[];
  /** A named bundle of choices (choices/index.ts VARIANTS); default strict, every choice at its default. */
  variant?: VariantName;
  /** How the open points of the spec are made, over the variant's bundle (`serve --choice`). */
  choices?: Partial<Choices>;
  /** Faults to switch on, by name (see faults/catalog.ts); unknown names are an error. */
  faults?: readonly string[];
  /** Called once per request after the reply is sent (`conformance serve` prints it: rejection.ts formatRequestLog). */
  log?: (entry: RequestLogEntry) => void;
  /** An extra CA trusted for webhook delivery besides the system roots, e.g. a receiver's self-signed certificate. */
  webhookCa?: WebhookCa;
  /** A PKCS8 PEM Ed25519 private key that signs every client's deliveries; by default each client gets a fresh key. */
  webhookKey?: string;
  /** Delivery attempts after the first, on a network error, 5xx or 429; default 2 (3 attempts in all). */
  deliveryRetries?: number;
  /** Delay before the first retry, doubled for each further one; default 200 ms. */
  deliveryBackoffMs?: number;
  /** Timeout of one delivery attempt (connect, headers, body); default 5000 ms. */
  deliveryTimeoutMs?: number;
  /** Deliveries queued per client beyond the one in flight; past it the oldest is dropped. Default 100. */
  maxPendingDeliveries?: number;
  /** Called for every delivery attempt and every dropped or cancelled delivery. */
  onDelivery?: (attempt: DeliveryAttempt) => void;
  /** Every routed reply waits this long before it is sent, like a server across a network (`serve --latency`). */
  latencyMs?: number;
  /** A rate limit of this many requests per client per second, whatever rateLimit chooses (tests use a small one). */
  rateLimitPerSecond?: number;
  /**
   * Serve https with this certificate and key (PEM) instead of http (`conformance client`'s sandbox); with `clientCa`,
   * require of every client a certificate issued by one of those CAs (mutual TLS, `conformance serve --client-ca`): a
   * client without one is refused in the TLS handshake, as servers that require one do.
   */
  tls?: { cert: string; key: string; clientCa?: string };
  /**
   * Called once per request after the reply is sent, with the request and the reply as they went over the wire:
   * `conformance client` judges a client from these.
   */
  observe?: (served: ServedExchange) => void;
  /**
   * A server behind a proxy that knows it: the address the client used is rebuilt from the proxy's X-Forwarded-Proto,
   * X-Forwarded-Host and X-Forwarded-Prefix (as Spring's ForwardedHeaderFilter, ASP.NET Core's forwarded headers and
   * Traefik's StripPrefix have it), for the signature's @target-uri and the USSD links. Without it the server sees the
   * proxy's request as it came: its Host, its scheme, its path (the field set-ups of test/field show both).
   */
  trustForwarded?: boolean;
}

/** One request the server received and what it answered, bytes and all (ReferenceOptions.observe). */
export interface ServedExchange {
  seq: number;
  /** Milliseconds since the epoch (the server's clock) when the request's body had been read. */
  receivedAt: number;
  method: string;
  /** The target URI as the server reconstructs it (its own scheme, the Host sent, the request-target). */
  targetUri: string;
  headers: Array<[string, string]>;
  body: Buffer;
  status: number;
  replyHeaders: Record<string, string>;
  /** The reply's body as sent (JSON text), empty when there was none. */
  replyBody: string;
  /** The rule a rejection broke, as the Conformance-Rejection header names it (absent on success). */
  rejection?: { code: string; reason: string };
}

export interface ReferenceServer {
  /** Origin, e.g. http://127.0.0.1:41234 */
  url: string;
  /** Origin + /v1: the `{base_url}` of the spec. */
  baseUrl: string;
  port: number;
  store: ReferenceStore;
  /** Domain events (AUTH.CREATED…), for webhook delivery and tests. */
  events: EventBus;
  /** The most recent webhook delivery attempts (at most MAX_DELIVERY_LOG), oldest first. */
  deliveries: DeliveryAttempt[];
  /**
   * Resolves once every webhook delivery caused so far has had its last attempt (none queued, in flight, waiting for
   * a retry or held on a timer): the moment a harness can end a session that includes the server's deliveries.
   */
  deliveriesSettled(): Promise<void>;
  /**
   * Stops listening and destroys open connections, keep-alive ones included, and cancels pending webhook deliveries
   * and their retry timers, so a run never hangs at exit.
   */
  close(): Promise<void>;
}

export async function startReferenceServer(options: ReferenceOptions): Promise<ReferenceServer> {
  const clock = options.clock ?? Date.now;
  const faults = resolveFaults(options.faults ?? []);
  const seed = typeof options.seed === 'object' ? options.seed : loadSeed(options.seed);
  const store = new ReferenceStore(seed);
  const clients = new ClientRegistry(options.clients);
  const choices = resolveChoices(options.variant, options.choices);
  // Everything that can reject the options comes before this: the service holds an agent that close() must end.
  const webhookKey = options.webhookKey !== undefined ? parseWebhookKey(options.webhookKey) : undefined;
  const events = new EventBus();
  const deliveries: DeliveryAttempt[] = [];
  const webhooks = startWebhookService(options, {
    events,
    clock,
    faults: faults.flags,
    choices,
    webhookKey,
    deliveries,
  });
  const state: ServerState = {
    store,
    clients,
    tokens: new TokenStore(clock),
    idempotency: new IdempotencyCache(clock),
    events,
    policy: {
      ...DEFAULT_AUTH_POLICY,
      ...(options.skewSeconds !== undefined ? { skewSeconds: options.skewSeconds } : {}),
      ...options.auth,
      ...faults.policy,
    },
    clock,
    choices,
    faults: faults.flags,
    webhooks,
  };
  const router = new Router<RouteDef>();
  for (const route of ALL_ROUTES) router.add(route.method, route.path, route);
  const handle = makeHandler(state, router, {
    ...options,
    middleware: middlewareChain(options, choices, clock, faults, (id, until) => webhooks.throttled(id, until)),
  });
  const connections = connectionPolicy(choices.connection);
  const server = createListeningServer(options, (req, res) => {
    if (!connections.admit(req, res)) return;
    // handle() turns every error into a reply; this only guards against a failure while writing the reply itself.
    handle(req, res).catch(() => res.destroy());
  });
  await listen(server, options, webhooks);
  const address = server.address() as AddressInfo;
  const url = `${options.tls ? 'https' : 'http'}://${displayHost(address)}:${address.port}`;
  return {
    url,
    baseUrl: `${url}${API_PREFIX}`,
    port: address.port,
    store: state.store,
    events: state.events,
    deliveries,
    deliveriesSettled: () => webhooks.settled(),
    close: async () => {
      await Promise.all([closeServer(server), webhooks.close()]);
    },
  };
}

/** The webhook deliveries, with the options' limits; each attempt is kept (the last MAX_DELIVERY_LOG) and reported. */
function startWebhookService(
  options: ReferenceOptions,
  given: {
    events: EventBus;
    clock: () => number;
    faults: ServerState['faults'];
    choices: Choices;
    webhookKey: WebhookSigningKey | undefined;
    deliveries: DeliveryAttempt[];
  },
): WebhookService {
  const { events, clock, faults, choices, webhookKey, deliveries } = given;
  return new WebhookService({
    events,
    clock,
    faults,
    choices,
    ...(options.webhookCa !== undefined ? { ca: options.webhookCa } : {}),
    ...(webhookKey !== undefined ? { key: webhookKey } : {}),
    ...(options.deliveryRetries !== undefined ? { retries: options.deliveryRetries } : {}),
    ...(options.deliveryBackoffMs !== undefined ? { backoffMs: options.deliveryBackoffMs } : {}),
    ...(options.deliveryTimeoutMs !== undefined ? { timeoutMs: options.deliveryTimeoutMs } : {}),
    ...(options.maxPendingDeliveries !== undefined ? { maxPending: options.maxPendingDeliveries } : {}),
    onAttempt: (attempt) => {
      deliveries.push(attempt);
      if (deliveries.length > MAX_DELIVERY_LOG) deliveries.splice(0, deliveries.length - MAX_DELIVERY_LOG);
      options.onDelivery?.(attempt);
    },
  });
}

/** The middleware every request passes, outermost first: the rate limit, latency, the choices, then the faults. */
function middlewareChain(
  options: ReferenceOptions,
  choices: Choices,
  clock: () => number,
  faults: { middleware: Middleware[] },
  onThrottled: (clientId: string, until: number) => void,
): Middleware[] {
  // Choice shaping runs outermost, so faults (inner) deviate from what the choices would have sent.
  const latency = options.latencyMs ? [latencyMiddleware(options.latencyMs)] : [];
  // The rate limit is outermost of all: a throttled request is refused before anything else looks at it.
  const perSecond = options.rateLimitPerSecond ?? rateLimitOf(choices);
  // A test's own limit is exactly that limit; a chosen one also has the client's other callers spend its quota once.
  const spentAt = options.rateLimitPerSecond === undefined ? QUOTA_SPENT_AT_REQUEST : undefined;
  const throttle =
    perSecond !== undefined
      ? [throttleMiddleware(new RateLimiter(perSecond, clock, spentAt), retryAfterOf(choices), onThrottled)]
      : [];
  return [
    ...throttle,
    ...latency,
    choicesMiddleware,
    accountEventsMiddleware,
    ...(options.middleware ?? []),
    ...faults.middleware,
  ];
}

/** An http server, or an https one with `tls` (asking for a client certificate when `tls.clientCa` is given). */
function createListeningServer(
  options: ReferenceOptions,
  listener: (req: IncomingMessage, res: ServerResponse) => void,
): Server {
  const serverOptions = { requestTimeout: 30_000, headersTimeout: 15_000 };
  const server: Server = options.tls
    ? createTlsServer(
        {
          ...serverOptions,
          cert: options.tls.cert,
          key: options.tls.key,
          ...(options.tls.clientCa !== undefined
            ? { requestCert: true, rejectUnauthorized: true, ca: options.tls.clientCa }
            : {}),
        },
        listener,
      )
    : createServer(serverOptions, listener);
  server.keepAliveTimeout = 5_000;
  return server;
}

/** Listens on the options' host and port (default 127.0.0.1, any free port). */
function listen(server: Server, options: ReferenceOptions, webhooks: WebhookService): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onListenError = (e: Error) => {
      // A failed listen must not leave the delivery agent behind.
      void webhooks.close();
      reject(e);
    };
    server.once('error', onListenError);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', onListenError);
      resolve();
    });
  });
}

function parseWebhookKey(pem: string): WebhookSigningKey {
  try {
    return webhookKeyFromPem(pem);
  } catch (e) {
    throw new Error(`webhookKey ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

function displayHost(address: AddressInfo): string {
  if (address.address === '0.0.0.0') return '127.0.0.1';
  if (address.address === '::') return '[::1]';
  return address.family === 'IPv6' ? `[${address.address}]` : address.address;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // server.close() waits for idle keep-alive sockets to time out; destroying them lets close() resolve at once.
    server.closeAllConnections();
  });
}

// ---- per request ------------------------------------------------------------------------------------------------

type BodyResult = { kind: 'ok'; body: Buffer } | { kind: 'too-large' } | { kind: 'aborted' };

function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > maxBytes) return Promise.resolve({ kind: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      // A chunked body has no declared length: stop reading as soon as it passes the cap.
      if (size > maxBytes) {
        req.pause();
        settle({ kind: 'too-large' });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => settle({ kind: 'ok', body: Buffer.concat(chunks) }));
    req.on('error', () => settle({ kind: 'aborted' }));
    req.on('close', () => settle({ kind: 'aborted' }));
  });
}

function headerPairs(req: IncomingMessage): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) pairs.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
  return pairs;
}

/**
 * The target URI the client addressed: the server's own scheme, the Host it was sent, the request-target; with
 * `forwarded`, the scheme, host and path prefix a proxy in front names (the first value of each, as the proxy nearest
 * the client set it). `prefix` is the path the proxy took off before forwarding, '' when none.
 */
function targetUriOf(
  req: IncomingMessage,
  fallbackHost: string,
  forwarded = false,
): { targetUri: string; prefix: string } {
  const raw = req.url ?? '/';
  if (!raw.startsWith('/')) return { targetUri: raw, prefix: '' }; // absolute-form (RFC 9112 §3.2.2) is the target URI
  const scheme = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  if (!forwarded) return { targetUri: `${scheme}://${req.headers.host ?? fallbackHost}${raw}`, prefix: '' };
  const first = (name: string): string | undefined => {
    const value = req.headers[name];
    const text = (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim();
    return text === '' ? undefined : text;
  };
  const proto = first('x-forwarded-proto')?.toLowerCase();
  const named = (first('x-forwarded-prefix') ?? '').replace(/\/+$/, '');
  const prefix = named.startsWith('/') ? named : '';
  const host = first('x-forwarded-host') ?? req.headers.host ?? fallbackHost;
  return { targetUri: `${proto === 'https' || proto === 'http' ? proto : scheme}://${host}${prefix}${raw}`, prefix };
}

function makeHandler(state: ServerState, router: Router<RouteDef>, options: ReferenceOptions) {
  // The largest body is not shown (REQ-LIM-05): the option, else the `maxBodySize` choice.
  const maxBody = options.maxBodyBytes ?? (state.choices.maxBodySize === '16KiB' ? 16 * 1024 : DEFAULT_MAX_BODY_BYTES);
  const middleware = options.middleware ?? [];
  let seq = 0;

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const n = ++seq;
    const method = (req.method ?? 'GET').toUpperCase();
    let rejection: Rejection | undefined;
    let reply: Reply;

    const body = await readBody(req, maxBody);
    const receivedAt = state.clock();
    if (body.kind === 'aborted') return;
    if (body.kind === 'too-large') {
      // The rest of the body is not read, so the connection cannot carry another request.
      reply = fail(413, `Content Too Large: the body exceeds ${maxBody} bytes`, { connection: 'close' });
      rejection = { code: statusRejectionCode(413), reason: `the body exceeds ${maxBody} bytes` };
    } else {
      let ctx: RequestContext | undefined;
      try {
        ctx = buildContext(req, n, method, body.body, options.trustForwarded);
        reply = await dispatch(ctx, state, router, middleware);
        rejection = ctx.rejection;
      } catch (e) {
        if (e instanceof HttpError) {
          reply = e.toReply();
          rejection = ctx?.rejection ?? e.rejection;
        } else {
          reply = fail(500);
          rejection = {
            code: statusRejectionCode(500),
            reason: `internal error: ${e instanceof Error ? e.message : String(e)}`,
          };
        }
      }
    }
    if (res.destroyed) return;
    const explained = reply.status >= 400 ? explain(reply, rejection) : undefined;
    const sent = explained ? withRejectionHeader(reply, explained) : reply;
    const wire = send(res, sent, method);
    if (options.observe && body.kind === 'ok') {
      const local = `${req.socket.localAddress ?? '127.0.0.1'}:${req.socket.localPort ?? 80}`;
      options.observe({
        seq: n,
        receivedAt,
        method,
        targetUri: targetUriOf(req, local, options.trustForwarded).targetUri,
        headers: headerPairs(req),
        body: body.body,
        status: reply.status,
        replyHeaders: wire.headers,
        replyBody: wire.payload ?? '',
        ...(explained ? { rejection: { code: explained.code, reason: explained.reason } } : {}),
      });
    }
    options.log?.({
      seq: n,
      method,
      target: req.url ?? '',
      status: reply.status,
      ...(explained ? { code: explained.code, reason: explained.reason } : {}),
      ...(explained?.base !== undefined ? { base: explained.base } : {}),
      durationMs: performance.now() - started,
    });
  };
}

/**
 * What a rejection broke: the rule recorded on the way (authentication, a validation error), else the body's code
 * when it names one, else the status; the reason, else the body's message.
 */
function explain(reply: Reply, rejection: Rejection | undefined): Rejection {
  if (rejection !== undefined) return rejection;
  const body = reply.body as { code?: unknown; message?: unknown } | undefined;
  const named = typeof body?.code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(body.code) ? body.code : undefined;
  return {
    code: named ?? statusRejectionCode(reply.status),
    reason: typeof body?.message === 'string' ? body.message : `status ${reply.status}`,
  };
}

/** The Conformance-Rejection header beside the reply's own (WWW-Authenticate, Allow, Retry-After…). */
function withRejectionHeader(reply: Reply, rejection: Rejection): Reply {
  return { ...reply, headers: { ...reply.headers, [REJECTION_HEADER]: rejectionHeaderValue(rejection) } };
}

function buildContext(
  req: IncomingMessage,
  seq: number,
  method: string,
  body: Buffer,
  forwarded = false,
): RequestContext {
  const headers = headerPairs(req);
  const local = `${req.socket.localAddress ?? '127.0.0.1'}:${req.socket.localPort ?? 80}`;
  const { targetUri, prefix } = targetUriOf(req, local, forwarded);
  let url: URL;
  try {
    // Routed without the prefix the proxy took off: the request as it reached this server, at the client's origin.
    url = new URL(targetUri);
    if (prefix !== '') url.pathname = url.pathname.slice(prefix.length);
  } catch {
    throw new HttpError(400, 'Bad Request: the request target or Host header is malformed');
  }
  // The spec lists Content-Length for every request with a body; without it the framing is chunked, which it never shows.
  if (body.length > 0 && req.headers['content-length'] === undefined)
    throw new HttpError(411, 'Length Required: a body must come with Content-Length');
  return {
    seq,
    method,
    targetUri,
    url,
    ...(prefix !== '' ? { base: `${url.origin}${prefix}` } : {}),
    query: url.searchParams,
    headers,
    body,
    remoteAddress: req.socket.remoteAddress,
    params: {},
  };
}

async function dispatch(
  ctx: RequestContext,
  state: ServerState,
  router: Router<RouteDef>,
  middleware: readonly Middleware[],
): Promise<Reply> {
  const path = ctx.url.pathname;
  if (!path.startsWith(`${API_PREFIX}/`)) {
    ctx.rejection = { code: statusRejectionCode(404), reason: `every endpoint is under ${API_PREFIX}/` };
    return fail(404);
  }
  const match = router.match(ctx.method, path.slice(API_PREFIX.length));
  if (match.kind === 'not-found') {
    ctx.rejection = { code: statusRejectionCode(404), reason: `no endpoint ${path}` };
    return fail(404);
  }
  if (match.kind === 'method-not-allowed') {
    ctx.rejection = {
      code: statusRejectionCode(405),
      reason: `${path} answers ${match.allow.join(', ')}, not ${ctx.method}`,
    };
    return fail(405, undefined, { allow: match.allow.join(', ') });
  }
  ctx.params = match.params;
  const route = match.value;

  const core = async (): Promise<Reply> => {
    // Rejections become replies here, so middleware always sees a Reply and can rewrite a 401 like any other.
    try {
      await authenticate(route, ctx, state);
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      ctx.rejection = e.rejection;
      return e.toReply();
    }
    return serveAuthenticated(ctx, state, route);
  };
  const chain = middleware.reduceRight<() => Promise<Reply>>((next, mw) => () => mw(ctx, state, route, next), core);
  return chain();
}
