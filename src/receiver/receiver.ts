// The built-in webhook receiver: it records every delivery the target makes during a run, verifies each one the way
// the spec tells a client to (Authentication 8: the Content-Digest, then the HTTP message signature with the key of
// GET /webhooks/key) and lets checks wait for a delivery by event, with a deadline, instead of sleeping.
//
// It answers as soon as the body is read and verifies afterwards: a slow receiver would make a server retry, and what
// the checks judge would then be the receiver rather than the server. It is bounded everywhere (body size, number of
// deliveries kept, bytes kept, connections, time per request) so a broken or hostile server cannot exhaust it.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { randomBytes, type KeyObject } from 'node:crypto';
import type { WebhookConfig } from '../config/types.js';
import { ConfigError } from '../errors.js';
import { SECURE_DIGEST_ALGORITHMS, verifyContentDigest, type DigestVerdict } from '../http/digest.js';
import { headerValue, pathAndQuery } from '../http/message.js';
import { SIGNATURE_MISMATCH, signatureLabels, verifySignatureAsync, type SignatureVerdict } from '../http/signature.js';
import type { TrafficExchange, TrafficResponse } from '../traffic/exchange.js';
import { parseListen, receiverTls } from './certificate.js';
import { readEvents, readPayload, type EventReading } from './payload.js';
import { PROBE_HEADER, probePublicUrl, type ProbeResult } from './probe.js';
import { unmappedDiagnosis, unreachedDiagnosis, type SetupDiagnosis, type TestAnswer } from './diagnosis.js';

/** Far above any event payload of this interface; a larger body is refused (413) and counted against the server. */
const DEFAULT_MAX_BODY_BYTES = 256 * 1024;
/** Deliveries kept per run; later ones are answered and counted, not kept. */
const DEFAULT_MAX_DELIVERIES = 1000;
/** Body bytes kept per run, whatever the count. */
const DEFAULT_MAX_STORED_BYTES = 32 * 1024 * 1024;
/** How long a check waits for a delivery by default: far above a real delivery's latency, short enough for a CI job. */
export const DEFAULT_DEADLINE_MS = 10_000;
/** Clock difference tolerated between the server's `created`/`expires` and the receiver's clock. */
const DEFAULT_SKEW_SECONDS = 60;
/** The path of the receiver's URL when no publicUrl is configured. */
const RECEIVER_PATH = '/conformance/webhook';
/**
 * Set on the query of the receiver's URL to make its second URL (a check moves the webhook there and back). A query,
 * not another path: a tunnel or reverse proxy that forwards the receiver's path forwards its query with it.
 */
const ALTERNATE_QUERY = ['conformance-url', '2'] as const;

export interface ReceiverOptions {
  maxBodyBytes?: number;
  maxDeliveries?: number;
  maxStoredBytes?: number;
  /** Default deadline of `waitFor`, in ms. */
  deadlineMs?: number;
  skewSeconds?: number;
}

type DeliveryState = 'pending' | 'verified' | 'rejected';

/**
 * One delivery as it arrived, and what verifying it found: one event of the server's. A request that bundles several
 * events (a batch) is read as one delivery per event, in the order of its list, each with the request's headers, body
 * and verification, and its own payload (the item) and event; `request` tells the requests apart.
 */
export interface Delivery {
  /** 1, 2, 3… in order of arrival (the events of a batch in the order of its list). */
  readonly seq: number;
  /** The HTTP request it came in, 1, 2, 3… in order of arrival: the events of one batch share it. */
  readonly request: number;
  /** For an event of a batch: its place in the list, the list's length, and where the list is ("payload.events"). */
  readonly batch?: { readonly index: number; readonly size: number; readonly at: string };
  /** Milliseconds since the epoch, when the body had been read. */
  readonly arrivedAt: number;
  readonly method: string;
  /**
   * The target URI as the server signed it: the registered URL's origin and the request's path and query; behind a proxy
   * that rewrote the path (see route), the registered URL the delivery was sent to.
   */
  readonly targetUri: string;
  /**
   * The path and query the delivery was sent to (the receiver accepts them all): which of the receiver's URLs the server
   * used. Behind a proxy that rewrote it, the registered URL's, read back from what arrived (see route).
   */
  readonly path: string;
  /** The path and query as they arrived at the receiver: `path`, unless a proxy in front rewrote them. */
  readonly arrived: string;
  /**
   * Set behind webhook.publicUrl when the delivery did not arrive at a URL the run registered, as registered: how the
   * receiver read it (see DeliveryRoute). Absent when it arrived as registered, or the server addressed it so itself.
   */
  readonly route?: DeliveryRoute;
  /** Header fields as sent, names as sent, in order. */
  readonly headers: ReadonlyArray<[string, string]>;
  readonly body: Buffer;
  /** Whether the body is JSON, as the spec's "a JSON payload" asks. */
  readonly json: boolean;
  /**
   * What the body carries: its JSON value; for a body that is not JSON but form-encoded, its fields (JSON text in a field
   * read as JSON), so that the event is found whatever the encoding and only `json` judges it; otherwise undefined.
   * For an event of a batch, its item of the list.
   */
  readonly payload: unknown;
  /**
   * Where the delivery names its event, among its payload members and its header values (see findEvent); for an event
   * of a batch, among the item's members (see readEvents).
   */
  readonly event: EventReading;
  /** What reading the request's events could not settle (two candidate lists, a list longer than is read). */
  readonly eventsNote?: string;
  /**
   * pending until the webhook key is known; then verified, or rejected (discarded) with a reason: what a receiver
   * that verifies as RFC 9421 and 9530 practice has it keeps and discards (see `problems` for which rule each breaks).
   */
  readonly state: DeliveryState;
  /** Why it was discarded: every failed verification step, in order. */
  readonly reason?: string;
  /** Every rule the delivery breaks, in order, each named by what it concerns; empty while pending and when verified. */
  readonly problems: readonly DeliveryProblem[];
  readonly digest?: DigestVerdict;
  /**
   * The verdict of a signature that verifies under a published key over the components it lists (preferring one that
   * covers content-digest and holds its window), or of the first one tried (by label, newest key first) when none does.
   */
  readonly signature?: SignatureVerdict;
  /**
   * Whether a signature of the delivery verifies under a published key, over the components it lists, whatever it
   * covers and whenever it was made: what webhooks.key.published judges. `unsigned` when no signature could be read
   * at all (absent, malformed, an unsupported component): nothing then says which key signed.
   */
  readonly signedBy?: SignedBy;
}

type SignedBy = 'published-key' | 'other-key' | 'unsigned';

/**
 * How a delivery that arrived at a URL the run did not register, behind webhook.publicUrl, was read:
 * - rewritten: a proxy in front changed the URL on its way; the delivery is read as sent to the registered URL `path`,
 *   found by its query (the registered URLs share one path and differ in their query), or, where the query tells
 *   nothing, by the one URL its signature verifies under (`by`);
 * - unmapped: which registered URL it was sent to cannot be told (its query names none, and its signature verifies
 *   under none of them, or under several since it covers no part of the URL): not the server's failure, a set-up
 *   problem of the proxy's (`why`).
 */
type DeliveryRoute =
  | { readonly kind: 'rewritten'; readonly by: 'query' | 'signature' }
  | { readonly kind: 'unmapped'; readonly why: string };

/**
 * What a rule a discarded delivery breaks concerns:
 * - key: no key to verify with (GET /webhooks/key gave none);
 * - digest: the Content-Digest is absent, of no secure algorithm, or not the body's (RFC 9530);
 * - signature: no signature verifies under a published key over the components it lists (RFC 9421 §3.2);
 * - coverage: the signature that verifies leaves content-digest out, so the digest is bound to nothing it signs;
 * - window: the signature that verifies had expired when the delivery arrived, or was created in the future, beyond
 *   the clock skew tolerated (RFC 9421 §3.2.1: a verifier's policy). The window itself is the sender's: no created, no
 *   expires, or a long one, are all accepted.
 */
export type ProblemKind = 'key' | 'digest' | 'signature' | 'coverage' | 'window';

export interface DeliveryProblem {
  readonly kind: ProblemKind;
  readonly reason: string;
}

type MutableDelivery = { -readonly [K in keyof Delivery]: Delivery[K] };

export interface ReceiverCounts {
  /** Delivery requests recorded (pending, verified and rejected); a batch is one. */
  received: number;
  verified: number;
  rejected: number;
  pending: number;
  /** Events the requests carried: as many as the requests, unless some bundled several (a batch). */
  events: number;
  /** Bodies over the cap, answered 413 and never verified. */
  oversized: number;
  /** Deliveries answered but not kept, because the receiver already holds as many as it keeps. */
  dropped: number;
  /** Requests that were not POST, or whose body could not be read completely. */
  stray: number;
  /** TLS handshakes that failed: typically a server that does not trust the receiver's certificate. */
  tlsFailures: number;
  /**
   * Of those, connections that began with a plain HTTP request instead of a TLS handshake: a proxy or tunnel in front
   * that ends TLS and forwards HTTP to a receiver still set to TLS.
   */
  plainHttp: number;
}

/** The keys that verify deliveries (every key the server published in the run, newest first), or why there is none. */
type KeyState = { kind: 'unknown' } | { kind: 'keys'; keys: KeyObject[] } | { kind: 'unusable'; reason: string };

interface Waiter {
  predicate: (d: Delivery) => boolean;
  resolve: (d: Delivery | undefined) => void;
}

export class WebhookReceiver {
  readonly deadlineMs: number;
  private readonly deliveries: MutableDelivery[] = [];
  /** Per request, its first delivery: the one that is verified, whose verdict its batch siblings share. */
  private readonly requests: MutableDelivery[] = [];
  /** The other events of a batch, by the request's first delivery. */
  private readonly siblings = new WeakMap<Delivery, MutableDelivery[]>();
  private readonly waiters = new Set<Waiter>();
  /** Callers of nextArrival, told of the next request of the server's, whatever becomes of it. */
  private readonly arrivalWaiters = new Set<(came: boolean) => void>();
  private readonly verifying = new Set<Promise<void>>();
  private readonly generations = new WeakMap<Delivery, number>();
  /** Where each delivery was sent as its arrival tells, before any verification read it otherwise (see verifyRouted). */
  private readonly addressed = new WeakMap<Delivery, Sent>();
  private readonly tally = { oversized: 0, dropped: 0, stray: 0, tlsFailures: 0, plainHttp: 0 };
  private lastTlsError: string | undefined;
  /** Marks the run's own request through the public URL (see probe): answered, never recorded as a delivery. */
  private readonly probeToken = randomBytes(12).toString('base64url');
  private probeArrival: string | undefined;
  private probing: Promise<ProbeResult | undefined> | undefined;
  /** The probe's result, once it is known; undefined before (or without a publicUrl). */
  private probed: ProbeResult | undefined;
  private storedBytes = 0;
  private keyState: KeyState = { kind: 'unknown' };
  private stopping: Promise<void> | undefined;

  private constructor(
    private readonly server: Server,
    /** The URL to register with the target. */
    readonly url: string,
    /** The certificate the receiver presents (PEM); undefined for plain HTTP. */
    readonly certificatePem: string | undefined,
    private readonly origin: string,
    /** The target's webhook settings, which a set-up problem's fix names. */
    private readonly settings: WebhookConfig,
    private readonly limits: Required<Omit<ReceiverOptions, 'deadlineMs'>>,
    deadlineMs: number,
  ) {
    this.deadlineMs = deadlineMs;
  }

  /** Starts listening on `webhook.listen`; a bind or certificate problem is a ConfigError naming the setting. */
  static async start(webhook: WebhookConfig, options: ReceiverOptions = {}): Promise<WebhookReceiver> {
    const { host, port } = parseListen(webhook.listen);
    const tls = await receiverTls(webhook);
    let receiver: WebhookReceiver | undefined;
    const handler = (req: IncomingMessage, res: ServerResponse) => receiver!.handle(req, res);
    let server: Server;
    try {
      server = tls ? createHttpsServer({ cert: tls.cert, key: tls.key }, handler) : createHttpServer(handler);
    } catch (e) {
      throw new ConfigError(
        `webhook.tls: the certificate or key cannot be used (${(e as Error).message})`,
        'CONFORMANCE_ERR_CONFIG_FILE',
      );
    }
    // A connection that trickles its request must not hold the receiver open.
    server.requestTimeout = 15_000;
    server.headersTimeout = 10_000;
    server.keepAliveTimeout = 5_000;
    server.maxConnections = 128;
    await new Promise<void>((resolve, reject) => {
      server.once('error', (e: NodeJS.ErrnoException) =>
        reject(
          new ConfigError(
            `webhook.listen: the receiver cannot listen on ${webhook.listen} (${e.code ?? e.message}); free that port or set webhook.listen to another, e.g. "127.0.0.1:0" for any free port`,
            'CONFORMANCE_ERR_WEBHOOK_LISTEN',
          ),
        ),
      );
      server.listen(port, host === '' ? undefined : host, () => resolve());
    });
    const bound = (server.address() as AddressInfo).port;
    const scheme = tls ? 'https' : 'http';
    const urlHost =
      host === '' || host === '0.0.0.0'
        ? '127.0.0.1'
        : host === '::'
          ? '[::1]'
          : host.includes(':')
            ? `[${host}]`
            : host;
    const url = webhook.publicUrl ?? `${scheme}://${urlHost}:${bound}${RECEIVER_PATH}`;
    receiver = new WebhookReceiver(
      server,
      url,
      tls?.cert,
      new URL(url).origin,
      webhook,
      {
        maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
        maxDeliveries: options.maxDeliveries ?? DEFAULT_MAX_DELIVERIES,
        maxStoredBytes: options.maxStoredBytes ?? DEFAULT_MAX_STORED_BYTES,
        skewSeconds: options.skewSeconds ?? DEFAULT_SKEW_SECONDS,
      },
      options.deadlineMs ?? DEFAULT_DEADLINE_MS,
    );
    // After the bind, a server error (e.g. out of file descriptors on accept) must not end the run: the checks report what did not arrive.
    server.on('error', () => undefined);
    server.on('tlsClientError', (err: Error & { code?: string; reason?: string }) => {
      receiver!.tally.tlsFailures++;
      if (err.code === 'ERR_SSL_HTTP_REQUEST') receiver!.tally.plainHttp++;
      // OpenSSL's reason ("tlsv1 alert unknown ca", "http request"), not its whole multi-line message.
      receiver!.lastTlsError = err.reason ?? err.message.split('\n')[0]!.replace(/^[0-9A-F]+:error:[0-9A-F]+:/, '');
    });
    return receiver;
  }

  /** The address it listens on, host:port (the port chosen when the config said 0): where a tunnel or proxy forwards to. */
  get listening(): string {
    const a = this.server.address() as AddressInfo | null;
    if (a === null) return '';
    return a.family === 'IPv6' ? `[${a.address}]:${a.port}` : `${a.address}:${a.port}`;
  }

  /** Every delivery kept, in order of arrival, whatever its state. */
  get arrivals(): readonly Delivery[] {
    return this.deliveries;
  }

  get counts(): ReceiverCounts {
    const by = (s: DeliveryState) => this.requests.filter((d) => d.state === s).length;
    return {
      received: this.requests.length,
      verified: by('verified'),
      rejected: by('rejected'),
      pending: by('pending'),
      events: this.deliveries.length,
      ...this.tally,
    };
  }

  /**
   * Each delivery request kept, in order of arrival, as traffic (src/traffic/exchange.ts), as the proxy's webhook leg
   * records one: the URL the server sent it to (the one it signed, as verification read it), its fields and body as
   * they came, the receiver's answer, and when it arrived. A batch is one request. Left out: a request whose URL cannot
   * be told (unmapped), since no signature over it can be judged; those not kept (over the cap) are not known.
   */
  traffic(): TrafficExchange[] {
    return this.requests
      .filter((d) => d.route?.kind !== 'unmapped')
      .map((d, index) => ({
        index,
        startedAt: new Date(d.arrivedAt).toISOString(),
        request: {
          method: d.method,
          url: d.targetUri,
          headers: [...d.headers],
          body: d.body,
          bodyState: d.body.length > 0 ? 'captured' : 'empty',
        },
        response: { ...RECEIVED, headers: [...RECEIVED.headers] },
      }));
  }

  /** The last TLS handshake error, e.g. "tlsv1 alert unknown ca" when the server does not trust the certificate. */
  get tlsError(): string | undefined {
    return this.lastTlsError;
  }

  /**
   * The run's own request to the receiver's second URL through webhook.publicUrl (see probe.ts), made once and
   * remembered; undefined without a publicUrl (the server then reaches the receiver's own address). Never rejects.
   */
  probe(): Promise<ProbeResult | undefined> {
    return (this.probing ??= this.behindProxy
      ? probePublicUrl(this.alternateUrl, this.probeToken, () => this.probeArrival).then((r) => (this.probed = r))
      : Promise.resolve(undefined));
  }

  /** Whether a tunnel or proxy stands between the server and the receiver (webhook.publicUrl is set). */
  private get behindProxy(): boolean {
    return this.settings.publicUrl !== undefined;
  }

  /**
   * Why nothing of the server's reached the receiver (see diagnosis.ts): plain HTTP on the TLS port, or no connection
   * at all, told apart by the answer to POST /webhooks/test and the run's own request through webhook.publicUrl. Ask it
   * only once nothing has reached the receiver, and no TLS handshake failed but for plain HTTP.
   */
  async diagnoseUnreached(test: TestAnswer | undefined): Promise<SetupDiagnosis> {
    const probe = this.counts.plainHttp > 0 ? undefined : await this.probe();
    return unreachedDiagnosis(this, this.settings, test, probe);
  }

  /** The set-up problem of a delivery whose route is unmapped: the proxy's rewrite, and its fix. */
  diagnoseUnmapped(d: Delivery): SetupDiagnosis {
    return unmappedDiagnosis(this, d.arrived, d.route?.kind === 'unmapped' ? d.route.why : 'it was rewritten');
  }

  /**
   * The run's note when a proxy in front rewrote the deliveries' path and the receiver read them back, e.g. "the proxy
   * in front of the webhook receiver rewrites /hook… to /…"; undefined when none was rewritten.
   */
  rewriteNote(): string | undefined {
    const rewritten = this.requests.filter((d) => d.route?.kind === 'rewritten');
    if (rewritten.length === 0) return undefined;
    const pathOf = (pq: string) => new URL(pq, this.origin).pathname;
    const from = pathOf(new URL(this.url).pathname);
    const to = [...new Set(rewritten.map((d) => pathOf(d.arrived)))];
    const queries = rewritten.some((d) => new URL(d.arrived, this.origin).search !== new URL(d.targetUri).search);
    const n = rewritten.length;
    return `the proxy in front of the webhook receiver rewrites ${from}… to ${to.map((p) => `${p}…`).join(' and ')}${queries ? ' and drops the query' : ''}: ${n} deliver${n === 1 ? 'y' : 'ies'} sent to ${this.url} arrived so; each was read as sent to the URL the server was given (${rewritten.every((d) => d.route?.kind === 'rewritten' && d.route.by === 'query') ? 'its query names which' : 'its query, or else its signature, names which'}) and judged as such`;
  }

  /** The URLs the run registers with the server: the receiver's URL and its second URL, each as WHATWG writes it. */
  get registered(): string[] {
    return [new URL(this.url).href, this.alternateUrl];
  }

  /** The seq of the latest arrival: a delivery with a greater seq arrived after this call. */
  cursor(): number {
    return this.deliveries.length === 0 ? 0 : this.deliveries[this.deliveries.length - 1]!.seq;
  }

  /** The second URL of the receiver: the same receiver and path, another query. */
  get alternateUrl(): string {
    const u = new URL(this.url);
    u.searchParams.set(...ALTERNATE_QUERY);
    return u.href;
  }

  /**
   * A key from GET /webhooks/key. Deliveries verify under any key the server published during the run (a server may
   * generate a new key each time the webhook is configured, and deliveries signed before the change still arrive): a
   * new key verifies every later delivery, and again those held or discarded for their signature. False when the key
   * was known already.
   */
  useKey(key: KeyObject): boolean {
    const known = this.keyState.kind === 'keys' ? this.keyState.keys : [];
    if (known.some((k) => k.equals(key))) return false;
    const keys = [key, ...known];
    this.keyState = { kind: 'keys', keys };
    for (const d of this.requests) {
      if (d.state === 'pending' || d.problems.some((p) => p.kind === 'key' || p.kind === 'signature'))
        this.verify(d, keys);
    }
    return true;
  }

  /** There is no usable key: deliveries are discarded with this reason until a key is given. */
  keyUnusable(reason: string): void {
    this.keyState = { kind: 'unusable', reason };
    for (const d of this.requests)
      if (d.state === 'pending') this.settle(d, { problems: [{ kind: 'key', reason: `${NO_KEY}: ${reason}` }] });
  }

  /**
   * The first verified or rejected delivery that matches, among those already settled or those to come; undefined when
   * none does before the deadline or the signal aborts. Never rejects.
   */
  waitFor(
    predicate: (d: Delivery) => boolean,
    deadlineMs = this.deadlineMs,
    signal?: AbortSignal,
  ): Promise<Delivery | undefined> {
    const already = this.deliveries.find((d) => d.state !== 'pending' && predicate(d));
    if (already || signal?.aborted || this.stopping) return Promise.resolve(already);
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = (d: Delivery | undefined) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiters.delete(waiter);
        resolve(d);
      };
      const onAbort = () => done(undefined);
      const waiter: Waiter = { predicate, resolve: done };
      this.waiters.add(waiter);
      timer = setTimeout(() => done(undefined), deadlineMs);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Whether a request of the server's comes before the deadline: a delivery (verified or not, or still waiting for the
   * key it is verified with), one over the cap, a stray request. False when the signal aborts or the receiver stops.
   */
  nextArrival(deadlineMs: number, signal?: AbortSignal): Promise<boolean> {
    if (signal?.aborted || this.stopping) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (came: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.arrivalWaiters.delete(done);
        resolve(came);
      };
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), deadlineMs);
      this.arrivalWaiters.add(done);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private arrived(): void {
    for (const tell of [...this.arrivalWaiters]) tell(true);
  }

  /** Resolves once every delivery that arrived so far and can be verified has been. */
  async settled(): Promise<void> {
    while (this.verifying.size > 0) await Promise.allSettled([...this.verifying]);
  }

  /** Stops listening, closes every connection, ends every wait, and lets verifications in progress finish. */
  stop(): Promise<void> {
    return (this.stopping ??= this.shutdown());
  }

  private async shutdown(): Promise<void> {
    for (const w of [...this.waiters]) w.resolve(undefined);
    for (const tell of [...this.arrivalWaiters]) tell(false);
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
    await Promise.allSettled([...this.verifying]);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    if (req.headers[PROBE_HEADER] === this.probeToken) {
      this.probeArrival = req.url ?? '/';
      res.writeHead(204, { 'content-length': '0' }).end();
      req.resume();
      return;
    }
    if (req.method !== 'POST') {
      this.tally.stray++;
      this.arrived();
      res.writeHead(405, { allow: 'POST', 'content-length': '0', connection: 'close' }).end();
      req.resume();
      return;
    }
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.limits.maxBodyBytes) return this.tooLarge(req, res);
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > this.limits.maxBodyBytes) {
        over = true;
        this.tooLarge(req, res);
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', () => {
      if (over) return;
      this.tally.stray++;
      this.arrived();
    });
    req.on('end', () => {
      if (over) return;
      const full =
        this.deliveries.length >= this.limits.maxDeliveries || this.storedBytes + size > this.limits.maxStoredBytes;
      // A batch counts each of its events towards maxDeliveries (see record), so the cap bounds the checks' work too.
      res.writeHead(RECEIVED.status, Object.fromEntries(RECEIVED.headers)).end(Buffer.from(RECEIVED.body));
      if (full) this.tally.dropped++;
      else {
        this.storedBytes += size;
        this.record(req, Buffer.concat(chunks, size));
      }
      this.arrived();
    });
  }

  private tooLarge(req: IncomingMessage, res: ServerResponse): void {
    this.tally.oversized++;
    this.arrived();
    if (!res.headersSent)
      res
        .writeHead(413, { 'content-type': 'text/plain', connection: 'close' })
        .end(`body over ${this.limits.maxBodyBytes} bytes`);
    // Stop reading; the connection is closed once the answer is out.
    req.pause();
    res.once('finish', () => req.socket.destroy());
  }

  private record(req: IncomingMessage, body: Buffer): void {
    const headers: Array<[string, string]> = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
    // Built from the registered URL, not the Host header: behind a tunnel or proxy, the URL the server signed is the public one.
    const arrivedUri = safeTargetUri(this.origin, req.url ?? '/');
    const arrived = pathAndQuery(arrivedUri);
    // Behind a proxy that rewrote the path (a prefix forwarded to the root), the registered URL with the query that
    // arrived is where the server sent it: the registered URLs share one path and differ in their query.
    const byQuery = this.behindProxy && !this.registered.includes(arrivedUri) ? this.sameQuery(arrivedUri) : undefined;
    const targetUri = byQuery ?? arrivedUri;
    const { json, payload } = readPayload(body, headerValue(headers, 'content-type'));
    const read = readEvents(payload, headers);
    const arrivedAt = Date.now();
    const request = this.requests.length + 1;
    // The events past the cap of kept deliveries are left out (counted as dropped); the request itself is kept.
    const room = Math.max(1, this.limits.maxDeliveries - this.deliveries.length);
    const carried = read.events.slice(0, room);
    this.tally.dropped += read.events.length - carried.length;
    const items = carried.map((e, i): MutableDelivery => ({
      event: e.event,
      problems: [],
      seq: this.cursor() + 1 + i,
      request,
      ...(e.batch !== undefined ? { batch: e.batch } : {}),
      ...(read.note !== undefined ? { eventsNote: read.note } : {}),
      arrivedAt,
      method: req.method ?? 'POST',
      targetUri,
      path: pathAndQuery(targetUri),
      arrived,
      ...(byQuery !== undefined ? { route: { kind: 'rewritten', by: 'query' } as const } : {}),
      headers,
      body,
      json,
      payload: e.payload,
      state: 'pending',
    }));
    const d = items[0]!;
    this.addressed.set(d, {
      targetUri,
      path: d.path,
      ...(byQuery !== undefined ? { route: { kind: 'rewritten', by: 'query' } as const } : {}),
    });
    this.deliveries.push(...items);
    this.requests.push(d);
    if (items.length > 1) this.siblings.set(d, items.slice(1));
    if (this.keyState.kind === 'keys') this.verify(d, this.keyState.keys);
    else if (this.keyState.kind === 'unusable')
      this.settle(d, { problems: [{ kind: 'key', reason: `${NO_KEY}: ${this.keyState.reason}` }] });
  }

  private verify(d: MutableDelivery, keys: readonly KeyObject[]): void {
    // A new key verifies again what an older one could not: only the latest verification of a delivery settles it.
    const generation = (this.generations.get(d) ?? 0) + 1;
    this.generations.set(d, generation);
    const latest = () => this.generations.get(d) === generation;
    // The spec names sha-512 for requests and no algorithm for deliveries: any secure one of the RFC 9530 registry.
    const digest = verifyContentDigest(headerValue(d.headers, 'content-digest'), d.body, {
      algorithms: SECURE_DIGEST_ALGORITHMS,
    });
    const digestProblems: DeliveryProblem[] = digest.ok ? [] : [{ kind: 'digest', reason: digest.reason }];
    const run = this.verifyRouted(d, keys).then(
      ({ signature, signedBy, problems, at }) => {
        if (latest()) this.settle(d, { problems: [...digestProblems, ...problems], digest, signature, signedBy, at });
      },
      (e: unknown) => {
        if (latest())
          this.settle(d, {
            problems: [
              ...digestProblems,
              { kind: 'signature', reason: `signature: cannot be checked (${(e as Error)?.message ?? String(e)})` },
            ],
            digest,
          });
      },
    );
    this.verifying.add(run);
    void run.finally(() => this.verifying.delete(run));
  }

  /**
   * RFC 9421 as the server chose to use it: every signature of the delivery (any label; several are allowed, §4.1) under
   * every published key, newest first, with whatever parameters and component order it lists, verified over what it
   * lists. Then what a verifier's policy adds (§3.2.1), each a problem of its own: that the signature covers
   * content-digest, without which the digest proves nothing about the body, and that its window holds when the
   * delivery arrives. created and expires are the sender's choice (RFC 9421 makes both optional, and sets no longest
   * window): only an expires already past, or a created still to come, beyond the clock skew tolerated, is refused.
   */
  private async verifySignature(
    d: MutableDelivery,
    keys: readonly KeyObject[],
    url: string = d.targetUri,
  ): Promise<SignatureCheck> {
    const message = { method: d.method, url, headers: [...d.headers] };
    const labels = signatureLabels(headerValue(d.headers, 'signature-input'));
    const tries = (labels.length > 0 ? labels : [undefined]).flatMap((label) =>
      keys.map((key) => ({ key, ...(label !== undefined ? { label } : {}) })),
    );
    let first: SignatureVerdict | undefined;
    let best: { verdict: SignatureVerdict; problems: DeliveryProblem[] } | undefined;
    let signedBy: SignedBy = 'unsigned';
    for (const t of tries) {
      // No time is judged here (an infinite skew): the window is a problem of its own, below.
      const verdict = await verifySignatureAsync(message, { ...t, skewSeconds: Number.POSITIVE_INFINITY });
      if (verdict.ok) {
        const problems = this.policyProblems(d, verdict);
        if (best === undefined || problems.length < best.problems.length) best = { verdict, problems };
        if (problems.length === 0) break;
      } else {
        first ??= verdict;
        if (verdict.base !== undefined && verdict.reason === SIGNATURE_MISMATCH) signedBy = 'other-key';
      }
    }
    if (best !== undefined) return { signature: best.verdict, signedBy: 'published-key', problems: best.problems };
    return {
      signature: first!,
      signedBy,
      problems: [{ kind: 'signature', reason: `signature: ${first!.reason ?? 'invalid'}` }],
    };
  }

  /** The registered URL whose query is the one of `uri` (the path aside), if exactly one is. */
  private sameQuery(uri: string): string | undefined {
    const search = new URL(uri).search;
    const found = this.registered.filter((r) => new URL(r).search === search);
    return found.length === 1 ? found[0] : undefined;
  }

  /**
   * The signature verified under the URL the delivery was sent to. Directly reached (no publicUrl), that is the URL it
   * arrived at. Behind a proxy, it may have arrived elsewhere than it was sent:
   * - at a registered URL, or at another path with a registered URL's query (read as sent there, see record): verified
   *   under that URL. When it fails there, the URLs it could have been sent to instead are tried, to say what the server
   *   signed; only a proxy the run's probe saw drop the query (the second URL's query lost on the way) makes the other
   *   registered URL the one it was sent to; otherwise the server signed another URL than the one it sent to, a failure;
   * - at a URL whose query names no registered URL: verified under each registered URL and the URL it arrived at; the
   *   one it verifies under is where the server sent it; none, or several (a signature that binds no part of the URL),
   *   and it is unmapped, a set-up problem.
   */
  private async verifyRouted(d: MutableDelivery, keys: readonly KeyObject[]): Promise<Routed> {
    const sent = this.addressed.get(d) ?? { targetUri: d.targetUri, path: d.path };
    const first = await this.verifySignature(d, keys, sent.targetUri);
    const as = (check: SignatureCheck, at: Routed['at'] = sent): Routed => ({ ...check, at });
    if (!this.behindProxy) return as(first);
    const registered = this.registered;
    const arrivedUri = `${this.origin}${d.arrived}`;
    if (!registered.includes(sent.targetUri)) {
      // A query that names no registered URL: the signature alone can tell where the server sent it.
      const verifying: Array<{ url: string; check: SignatureCheck }> = [];
      for (const url of registered) {
        const check = await this.verifySignature(d, keys, url);
        if (check.signedBy === 'published-key') verifying.push({ url, check });
      }
      if (first.signedBy === 'published-key') {
        // Sent there by the server itself, unless the signature binds no part of the URL and so says nothing.
        if (verifying.length === 0) return as(first);
        return as(first, { ...sent, route: { kind: 'unmapped', why: `${NAMES_NONE}, and ${BINDS_NO_URL}` } });
      }
      if (verifying.length === 1) {
        const { url, check } = verifying[0]!;
        return as(check, { targetUri: url, path: pathAndQuery(url), route: SIGNED_ROUTE });
      }
      const why = `${NAMES_NONE}, and its signature verifies as sent to none of them (${registered.join(', ')}) nor to the URL it arrived at`;
      return as(first, { ...sent, route: { kind: 'unmapped', why } });
    }
    if (first.signedBy === 'published-key') return as(first);
    // Sent to a registered URL: a signature over another URL is the server's failure, unless the proxy dropped the query.
    const mapped = sent.route !== undefined;
    const others = [...registered.filter((r) => r !== sent.targetUri), ...(mapped ? [arrivedUri] : [])];
    const under = await this.firstVerifying(d, keys, others);
    if (under === undefined) return as(first);
    const lost = under.url === this.alternateUrl && new URL(arrivedUri).search === new URL(this.url).search;
    if (lost) {
      const probe = await this.probe();
      if (probe?.kind !== 'reached') {
        const why = `its signature verifies as sent to ${under.url}, not to ${sent.targetUri}, where it arrived: the proxy in front may drop the query (the run's own request through webhook.publicUrl did not come through to tell)`;
        return as(first, { ...sent, route: { kind: 'unmapped', why } });
      }
      if (this.proxyDropsQuery())
        return as(under.check, { targetUri: under.url, path: pathAndQuery(under.url), route: SIGNED_ROUTE });
    }
    const reason =
      under.url === arrivedUri
        ? `signature: it does not verify as sent to ${sent.targetUri}, the URL the run registered that its query names, but as sent to ${arrivedUri}, where it arrived: the server sent it to a URL it was not given`
        : `signature: it does not verify as sent to ${sent.targetUri}, where it arrived${mapped ? ` (at ${d.arrived}, the proxy in front rewriting the path)` : ''}, but as sent to ${under.url}: the server signed another URL than the one it sent it to`;
    return as({ ...first, problems: [{ kind: 'signature', reason }] });
  }

  /** The first of `urls` the delivery's signature verifies under, by a published key. */
  private async firstVerifying(
    d: MutableDelivery,
    keys: readonly KeyObject[],
    urls: readonly string[],
  ): Promise<{ url: string; check: SignatureCheck } | undefined> {
    for (const url of urls) {
      const check = await this.verifySignature(d, keys, url);
      if (check.signedBy === 'published-key') return { url, check };
    }
    return undefined;
  }

  /** Whether the run's probe, sent to the second URL, reached the receiver without its query. */
  private proxyDropsQuery(): boolean {
    const p = this.probed;
    return p?.kind === 'reached' && new URL(p.arrived, this.origin).search !== new URL(this.alternateUrl).search;
  }

  /** What a verifying signature breaks of the receiver's policy: coverage of content-digest, and its window at arrival. */
  private policyProblems(d: MutableDelivery, v: SignatureVerdict): DeliveryProblem[] {
    const problems: DeliveryProblem[] = [];
    if (!(v.components ?? []).includes('content-digest'))
      problems.push({ kind: 'coverage', reason: 'signature: the signature does not cover "content-digest"' });
    const now = Math.floor(d.arrivedAt / 1000);
    const skew = this.limits.skewSeconds;
    const { created, expires } = v.params ?? {};
    if (typeof created === 'number' && created > now + skew)
      problems.push({ kind: 'window', reason: `signature: created (${created}) is in the future (now ${now})` });
    if (typeof expires === 'number' && expires < now - skew)
      problems.push({ kind: 'window', reason: `signature: expired at ${expires} (now ${now})` });
    return problems;
  }

  /** Settles a request: its first delivery and the other events of its batch alike, then tells the waiters. */
  private settle(first: MutableDelivery, verdict: Verdict): void {
    const all = [first, ...(this.siblings.get(first) ?? [])];
    for (const d of all) this.settleOne(d, verdict);
    for (const d of all) this.notify(d);
  }

  private settleOne(d: MutableDelivery, verdict: Verdict): void {
    d.problems = verdict.problems;
    d.state = verdict.problems.length > 0 ? 'rejected' : 'verified';
    if (verdict.problems.length > 0) d.reason = verdict.problems.map((p) => p.reason).join('; ');
    else delete d.reason;
    if (verdict.digest !== undefined) d.digest = verdict.digest;
    if (verdict.signature !== undefined) d.signature = verdict.signature;
    if (verdict.signedBy !== undefined) d.signedBy = verdict.signedBy;
    if (verdict.at !== undefined) {
      d.targetUri = verdict.at.targetUri;
      d.path = verdict.at.path;
      if (verdict.at.route !== undefined) d.route = verdict.at.route;
      else delete d.route;
    }
  }

  private notify(d: MutableDelivery): void {
    for (const w of [...this.waiters]) {
      let match = false;
      try {
        match = w.predicate(d);
      } catch {
        /* a predicate that throws matches nothing */
      }
      if (match) w.resolve(d);
    }
  }
}

const NO_KEY = 'no key to verify with';
/** The receiver's answer to a delivery it keeps, sent before verifying it (see the header). */
const RECEIVED: Readonly<TrafficResponse> = {
  status: 200,
  headers: [
    ['content-type', 'text/plain'],
    ['content-length', '2'],
  ],
  body: new TextEncoder().encode('ok'),
  bodyState: 'captured',
};
const SIGNED_ROUTE: DeliveryRoute = { kind: 'rewritten', by: 'signature' };
const NAMES_NONE = 'its query names none of the URLs the run registered';
const BINDS_NO_URL = 'its signature covers no part of the URL, so it verifies as sent to any of them';

/** A signature's verification: its verdict, which key signed, and what it breaks. */
interface SignatureCheck {
  signature: SignatureVerdict;
  signedBy: SignedBy;
  problems: DeliveryProblem[];
}

/** Where a delivery was sent, as its arrival and its verification tell (see verifyRouted). */
interface Sent {
  targetUri: string;
  path: string;
  route?: DeliveryRoute;
}
type Routed = SignatureCheck & { at: Sent };

/** What settles a delivery: its problems, what verifying it found, and (once verified) where it was sent. */
type Verdict = Pick<MutableDelivery, 'problems'> &
  Partial<Pick<MutableDelivery, 'digest' | 'signature' | 'signedBy'>> & { at?: Sent };

/** The origin of the registered URL and the request's path; a request-target that is not a path keeps the origin. */
function safeTargetUri(origin: string, requestTarget: string): string {
  const path =
    requestTarget.startsWith('/') && !requestTarget.startsWith('//')
      ? requestTarget
      : `/${requestTarget.replace(/^\/+/, '')}`;
  try {
    return new URL(`${origin}${path}`).href;
  } catch {
    return `${origin}/`;
  }
}

/** Starts the receiver a run uses for its webhook checks. */
export function startReceiver(webhook: WebhookConfig, options?: ReceiverOptions): Promise<WebhookReceiver> {
  return WebhookReceiver.start(webhook, options);
}

const EXCERPT = 300;
/** Headers a report shows of a delivery; the Signature value is left out, since it would let anyone replay the delivery. */
const SHOWN_HEADERS = ['content-type', 'content-length', 'content-digest', 'signature-input'];

function excerpt(text: string): string {
  return text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text;
}

/** A delivery as a report shows it: when, where, the headers that verification reads, a body excerpt, and the verdict. */
export function describeDelivery(d: Delivery): string {
  const headers = SHOWN_HEADERS.map((n) => [n, headerValue(d.headers, n)] as const)
    .map(([n, v]) => `${n}: ${v === undefined ? '(absent)' : v.length > 200 ? `${v.slice(0, 200)}…` : v}`)
    .join('; ');
  const text = d.body.toString('utf8');
  const body = excerpt(text);
  const batch =
    d.batch === undefined
      ? ''
      : `; event ${d.batch.index + 1} of ${d.batch.size} of a batch at ${d.batch.at}: ${excerpt(JSON.stringify(d.payload) ?? '')}`;
  const verdict =
    d.state === 'rejected'
      ? ` — discarded: ${d.reason}`
      : d.state === 'pending'
        ? ' — not verified yet'
        : ' — verified';
  const route =
    d.route?.kind === 'unmapped'
      ? ` (arrived at ${d.arrived}; which URL it was sent to cannot be told: ${d.route.why})`
      : d.arrived !== d.path
        ? ` (arrived at ${d.arrived}: the proxy in front rewrote it)`
        : '';
  return `delivery #${d.seq} at ${new Date(d.arrivedAt).toISOString()}: ${d.method} ${d.targetUri}${route}; ${headers}; signature: ${headerValue(d.headers, 'signature') === undefined ? '(absent)' : '[redacted]'}; body (${d.body.length} B) ${body}${batch}${verdict}`;
}
