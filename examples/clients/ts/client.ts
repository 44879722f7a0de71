// A minimal, correct client of the Investment API on this project's library, as `conformance client` runs it: the
// task (CONFORMANCE_SCENARIO), the sandbox and the credentials come from the environment. Every rule a client must
// follow is one method here, so that broken.ts can break exactly one of them in a subclass.
import { createPublicKey, randomUUID, type KeyObject } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { Agent, createServer, request, type AgentOptions, type RequestOptions } from 'node:https';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import {
  contentDigest,
  signRequest,
  verifyContentDigest,
  verifySignature,
  type SignatureVerdict,
  type SignOptions,
  type VerifyOptions,
} from 'investment-api-conformance/signing';

/** What `conformance client` hands a client (README, "Example clients"). */
export interface Env {
  scenario: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  keyId: string;
  privateKeyPem: string;
  ca: string | undefined;
  /** The HTTP proxy the API is reached through (HTTPS_PROXY, unless NO_PROXY names the host), e.g. `conformance proxy`. */
  proxy: URL | undefined;
  fixtures: Fixtures;
  acceptedFile: string | undefined;
  receiverCertFile: string | undefined;
  receiverKeyFile: string | undefined;
  /** The port the receiver listens on (CONFORMANCE_RECEIVER_PORT); any free one when unset. */
  receiverPort: number | undefined;
  /**
   * The URL registered for deliveries (CONFORMANCE_WEBHOOK_URL) instead of the receiver's own, e.g. the webhook leg
   * of `conformance proxy --receiver` in front of it.
   */
  webhookUrl: string | undefined;
}

interface Fixtures {
  customerId: number | string;
  paginationCustomerId: number | string;
  mutableCustomerId: number | string;
  firstName?: string;
  ussdOptions?: number[];
}

function readEnv(env: NodeJS.ProcessEnv = process.env): Env {
  const need = (name: string): string => {
    const value = env[name];
    if (value === undefined || value === '') throw new Error(`${name} is not set: run me with \`conformance client\``);
    return value;
  };
  const baseUrl = need('CONFORMANCE_BASE_URL').replace(/\/+$/, '');
  return {
    scenario: need('CONFORMANCE_SCENARIO'),
    baseUrl,
    proxy: proxyFor(new URL(baseUrl).hostname, env),
    clientId: need('CONFORMANCE_CLIENT_ID'),
    clientSecret: need('CONFORMANCE_CLIENT_SECRET'),
    keyId: need('CONFORMANCE_KEY_ID'),
    privateKeyPem: readFileSync(need('CONFORMANCE_PRIVATE_KEY_FILE'), 'utf8'),
    ca: env.CONFORMANCE_CA_FILE ? readFileSync(env.CONFORMANCE_CA_FILE, 'utf8') : undefined,
    fixtures: JSON.parse(need('CONFORMANCE_FIXTURES')) as Fixtures,
    acceptedFile: env.CONFORMANCE_ACCEPTED_FILE,
    receiverCertFile: env.CONFORMANCE_RECEIVER_CERT_FILE,
    receiverKeyFile: env.CONFORMANCE_RECEIVER_KEY_FILE,
    receiverPort: portOf(env.CONFORMANCE_RECEIVER_PORT),
    webhookUrl: env.CONFORMANCE_WEBHOOK_URL || undefined,
  };
}

/** CONFORMANCE_RECEIVER_PORT: unset or empty, or a TCP port. */
function portOf(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 1 || port > 65535)
    throw new Error(`CONFORMANCE_RECEIVER_PORT is not a TCP port: ${JSON.stringify(value)}`);
  return port;
}

/** HTTPS_PROXY (or https_proxy), as curl reads it: unless NO_PROXY lists the host (or a domain of it, or `*`). */
function proxyFor(host: string, env: NodeJS.ProcessEnv): URL | undefined {
  const proxy = env.https_proxy || env.HTTPS_PROXY;
  if (!proxy) return undefined;
  const bypass = (env.no_proxy ?? env.NO_PROXY ?? '').split(/[\s,]+/).filter((h) => h !== '');
  const listed = (h: string) => h === '*' || host === h.replace(/^\./, '') || host.endsWith(`.${h.replace(/^\./, '')}`);
  return bypass.some(listed) ? undefined : new URL(proxy);
}

/** An https agent that reaches each host through an HTTP proxy's CONNECT tunnel, TLS end to end inside it. */
class TunnelAgent extends Agent {
  constructor(
    private readonly proxy: URL,
    options: AgentOptions,
  ) {
    super(options);
  }

  override createConnection(
    options: RequestOptions,
    done?: (err: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const authority = `${options.host}:${options.port}`;
    const connect = httpRequest({
      host: this.proxy.hostname,
      port: this.proxy.port || 80,
      method: 'CONNECT',
      path: authority,
      headers: { host: authority },
    });
    connect.once('connect', (res, socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        done?.(new Error(`the proxy ${this.proxy.origin} answered ${res.statusCode} to CONNECT ${authority}`), socket);
        return;
      }
      done?.(null, tlsConnect({ ...(options as ConnectionOptions), socket }));
    });
    // Node's agent takes the error alone; the stream argument is not read then.
    connect.once('error', (err) => done?.(err, undefined as unknown as Duplex));
    connect.end();
    return undefined;
  }
}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; undefined when empty or not JSON. */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- a sketch of a client reads replies loosely
}

export interface Outgoing {
  method: string;
  url: string;
  /** The body's bytes and media type, for POST and PUT. */
  body?: { text: string; type: string };
  /** The token request carries neither Authorization nor X-Client-Id. */
  anonymous?: boolean;
}

/** The `data` of a USSD view, read loosely. */
export interface UssdView {
  ussdMessage?: unknown;
  ussdOptions?: UssdOption[];
}

export interface UssdOption {
  option?: unknown;
  requestUrl?: unknown;
  requestType?: unknown;
}

/** A delivery as the receiver got it. */
export interface Delivery {
  method: string;
  url: string;
  headers: Array<[string, string]>;
  body: Buffer;
}

/** Retries after a 429 before giving up. */
const MAX_RETRIES = 3;
/** Clock difference tolerated on a delivery's created/expires. */
const SKEW_SECONDS = 30;
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

class GaveUp extends Error {}

export class Client {
  protected token: string | undefined;
  private readonly agent: Agent;

  constructor(protected readonly env: Env) {
    const options: AgentOptions = { keepAlive: true, ...(env.ca ? { ca: env.ca } : {}) };
    this.agent = env.proxy ? new TunnelAgent(env.proxy, options) : new Agent(options);
  }

  // ---- the scenarios ------------------------------------------------------------------------------------------

  async run(): Promise<void> {
    const f = this.env.fixtures;
    await this.obtainToken();
    try {
      switch (this.env.scenario) {
        case 'token':
          await this.get(`/customers/${f.customerId}`);
          break;
        case 'read':
        case 'renew':
          await this.get(`/customers/${f.customerId}`);
          await this.get(`/accounts?customerId=${f.customerId}`);
          await this.allPages(`/transactions?customerId=${f.paginationCustomerId}`);
          break;
        case 'update':
          await this.call('PUT', '/customers', { customerId: f.mutableCustomerId, firstName: f.firstName });
          break;
        case 'throttle':
          await this.get(`/customers/${f.customerId}`);
          await this.get(`/accounts?customerId=${f.customerId}`);
          break;
        case 'ussd':
          await this.ussd(f.customerId, f.ussdOptions ?? []);
          break;
        case 'webhooks':
          // The receiver runs until SIGTERM (main), which revokes the token.
          await this.webhooks();
          return;
        default:
          throw new GaveUp(`unknown scenario ${JSON.stringify(this.env.scenario)}`);
      }
    } catch (e) {
      await this.revoke().catch(() => undefined);
      throw e;
    }
    await this.revoke();
  }

  // ---- authentication -------------------------------------------------------------------------------------------

  async obtainToken(): Promise<void> {
    const reply = await this.send({
      method: 'POST',
      url: `${this.env.baseUrl}/oauth/token`,
      body: this.tokenRequestBody(),
      anonymous: true,
    });
    const token: unknown = reply.json?.data?.token;
    if (reply.status !== 200 || typeof token !== 'string')
      throw new GaveUp(`POST /oauth/token answered ${reply.status}`);
    this.token = token;
  }

  /** The spec: clientId and clientSecret, form-encoded. */
  protected tokenRequestBody(): { text: string; type: string } {
    const form = new URLSearchParams({ clientId: this.env.clientId, clientSecret: this.env.clientSecret });
    return { text: form.toString(), type: 'application/x-www-form-urlencoded' };
  }

  async revoke(): Promise<void> {
    if (this.token === undefined) return;
    const reply = await this.send({ method: 'POST', url: `${this.env.baseUrl}/oauth/revoke` });
    this.token = undefined;
    if (reply.status < 200 || reply.status >= 300) throw new GaveUp(`POST /oauth/revoke answered ${reply.status}`);
  }

  /**
   * After a 401 (the `failures`-th in a row for one request): whether to try again. A token can end before its TTL
   * (revoked, the server restarted), so a new one is worth one try; a second 401 means something else is wrong.
   */
  protected async recover(failures: number): Promise<boolean> {
    if (failures > 1) return false;
    await this.obtainToken();
    return true;
  }

  // ---- requests ---------------------------------------------------------------------------------------------------

  async get(path: string): Promise<Reply> {
    return this.call('GET', path);
  }

  /** One API call: renews the token once on a 401, waits out 429s a bounded number of times, fails on anything not 2xx. */
  async call(method: string, pathOrUrl: string, json?: unknown): Promise<Reply> {
    const url = /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${this.env.baseUrl}${pathOrUrl}`;
    const body = json === undefined ? undefined : { text: JSON.stringify(json), type: 'application/json' };
    let unauthorized = 0;
    let retries = 0;
    for (;;) {
      const reply = await this.send({ method, url, ...(body ? { body } : {}) });
      if (reply.status === 401 && (await this.recover(++unauthorized))) continue;
      if (reply.status === 429) {
        const wait = this.retryDelayMs(reply.headers['retry-after'], ++retries);
        if (wait !== undefined) {
          await new Promise((resolve) => setTimeout(resolve, wait));
          continue;
        }
        throw new GaveUp(`${method} ${url}: still 429 after ${retries - 1} retries; giving up`);
      }
      if (reply.status < 200 || reply.status >= 300) throw new GaveUp(`${method} ${url} answered ${reply.status}`);
      return reply;
    }
  }

  /** How long to wait before the `retry`-th retry, from Retry-After (seconds or an HTTP date); undefined: give up. */
  protected retryDelayMs(retryAfter: string | undefined, retry: number): number | undefined {
    if (retry > MAX_RETRIES) return undefined;
    return retryAfterMs(retryAfter);
  }

  /** Sends one signed request, once. */
  protected send(out: Outgoing): Promise<Reply> {
    const headers = this.headersOf(out);
    const signed = signRequest({ method: out.method, url: out.url, headers }, this.signOptions(out, headers));
    headers.push(['Signature-Input', signed.signatureInput], ['Signature', signed.signature]);
    return new Promise((resolve, reject) => {
      const req = request(
        out.url,
        { method: out.method, agent: this.agent, headers: Object.fromEntries(headers) },
        (res) =>
          readBody(res).then(
            (bytes) => resolve({ status: res.statusCode ?? 0, headers: res.headers, json: parseJson(bytes) }),
            reject,
          ),
      );
      req.on('error', reject);
      req.end(out.body?.text);
    });
  }

  /** The headers of the spec's "Common request rules" this request carries. */
  protected headersOf(out: Outgoing): Array<[string, string]> {
    const headers: Array<[string, string]> = [];
    if (!out.anonymous) {
      headers.push(['Authorization', `Bearer ${this.token ?? ''}`], ['X-Client-Id', this.env.clientId]);
    }
    if (out.body) {
      headers.push(
        ['Content-Digest', contentDigest(out.body.text)],
        ['Content-Length', String(Buffer.byteLength(out.body.text))],
        ['Content-Type', out.body.type],
      );
    }
    if (MUTATING.has(out.method)) headers.push(['X-Idempotency-Key', this.idempotencyKey()]);
    return headers;
  }

  /** A new key for every mutating request, retries included: a key names one request, never two. */
  protected idempotencyKey(): string {
    return randomUUID();
  }

  /** The library signs over every profile component the request carries, created now, expires 300 s later. */
  protected signOptions(_out: Outgoing, _headers: Array<[string, string]>): SignOptions {
    return { keyId: this.env.keyId, privateKey: this.env.privateKeyPem };
  }

  // ---- paging -----------------------------------------------------------------------------------------------------

  /** Every item of a list, page by page. */
  async allPages(path: string): Promise<unknown[]> {
    const items: unknown[] = [];
    let page: number | undefined;
    for (let pages = 1; ; pages++) {
      const reply = await this.get(page === undefined ? path : `${path}&page=${page}`);
      const data: unknown[] = Array.isArray(reply.json?.data) ? reply.json.data : [];
      items.push(...data);
      page = this.nextPage(reply.json?.meta ?? {}, data.length, pages);
      if (page === undefined) return items;
    }
  }

  /**
   * The page to ask for after the `pages`-th: meta.nextPage, an offset whose unit is the server's business. None when
   * there is no next page, it is the page just read, or the page was short.
   */
  protected nextPage(meta: Record<string, unknown>, count: number, _pages: number): number | undefined {
    const { nextPage, currentPage, limit } = meta;
    if (typeof nextPage !== 'number' || nextPage === currentPage) return undefined;
    if (typeof limit === 'number' && count < limit) return undefined;
    return nextPage;
  }

  // ---- USSD -------------------------------------------------------------------------------------------------------

  /** Opens the home menu and chooses options, each by the requestUrl the current view gives, until ussdChoice says done. */
  async ussd(customerId: number | string, options: readonly number[]): Promise<void> {
    let view = await this.get(`/ussd/home?customerId=${customerId}`);
    for (let step = 0; ; step++) {
      const data: UssdView = view.json?.data ?? {};
      const choice = this.ussdChoice(data, options, step);
      if (choice === undefined) return;
      const option = this.ussdOption(data, choice);
      if (typeof option?.requestUrl !== 'string') throw new GaveUp(`the USSD view offers no option ${choice}`);
      const method = typeof option.requestType === 'string' ? option.requestType.toUpperCase() : 'GET';
      view = await this.call(method, this.followUrl(option.requestUrl));
    }
  }

  /** The option to choose in the `step`-th view (from 0): the task's (fixtures.ussdOptions); none when it is done. */
  protected ussdChoice(_view: UssdView, options: readonly number[], step: number): number | undefined {
    return options[step];
  }

  /** The option numbered `choice`: ussdOptions[].option is an integer, the number the message shows. */
  protected ussdOption(view: UssdView, choice: number): UssdOption | undefined {
    return (Array.isArray(view.ussdOptions) ? view.ussdOptions : []).find((o) => o.option === choice);
  }

  /** The URL to request for an option: the one the server gave, as given (a relative one against the base URL). */
  protected followUrl(given: string): string {
    return /^https?:\/\//.test(given) ? given : new URL(given, `${this.env.baseUrl}/`).href;
  }

  // ---- webhooks ---------------------------------------------------------------------------------------------------

  /** Starts the receiver, registers it, fetches the delivery key; deliveries are verified with that key from then on. */
  async webhooks(): Promise<void> {
    let publish!: (key: KeyObject) => void;
    const key = new Promise<KeyObject>((resolve) => (publish = resolve));
    const url = await this.startReceiver(key);
    await this.register(url);
    publish(findKey((await this.get('/webhooks/key')).json?.data));
  }

  protected async register(url: string): Promise<void> {
    await this.call('POST', '/webhooks', { url, subscriptions: ['ALL'] });
  }

  /** The eventIds of the deliveries the receiver has handled. */
  protected readonly handled = new Set<string>();

  /** A message already handled is acknowledged and not handled again: a replay, or a sender's retry. */
  protected firstTime(eventId: string): boolean {
    return !this.handled.has(eventId);
  }

  private async startReceiver(key: Promise<KeyObject>): Promise<string> {
    const { receiverCertFile, receiverKeyFile } = this.env;
    if (!receiverCertFile || !receiverKeyFile) throw new GaveUp('CONFORMANCE_RECEIVER_CERT_FILE/KEY_FILE are not set');
    const server = createServer(
      { cert: readFileSync(receiverCertFile), key: readFileSync(receiverKeyFile) },
      (req, res) => {
        void readBody(req)
          .then(async (body) => {
            const delivery: Delivery = {
              method: req.method ?? 'POST',
              url: `https://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`,
              headers: pairs(req.rawHeaders),
              body,
            };
            const accepted = this.accepts(delivery, await key);
            const eventId = eventIdOf(body);
            const fresh = this.firstTime(eventId);
            if (accepted) this.handled.add(eventId);
            // The harness reads the file when the answer comes: the line is written first.
            if (accepted && fresh) appendFileSync(this.env.acceptedFile ?? '/dev/null', `${eventId}\n`);
            res.writeHead(accepted ? 204 : this.discardStatus()).end();
          })
          .catch(() => res.writeHead(500).end()); // e.g. the accepted file cannot be written: not accepted, then
      },
    );
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.env.receiverPort ?? 0, '127.0.0.1', resolve);
    });
    return this.env.webhookUrl ?? `https://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  }

  /** Authentication 8: "verify the Content-Digest …, verify the HTTP message signature; when either check fails, the webhook message must be discarded". */
  protected accepts(delivery: Delivery, key: KeyObject): boolean {
    return this.digestOk(delivery) && this.signatureOk(verifySignature(delivery, this.verifyOptions(key)));
  }

  protected digestOk(delivery: Delivery): boolean {
    const field = delivery.headers.find(([n]) => n.toLowerCase() === 'content-digest')?.[1];
    return verifyContentDigest(field, delivery.body, { algorithms: ['sha-512', 'sha-256'] }).ok;
  }

  protected signatureOk(verdict: SignatureVerdict): boolean {
    return verdict.ok;
  }

  /** The signature must cover the digest (else the digest proves nothing) and be within its created/expires window. */
  protected verifyOptions(key: KeyObject): VerifyOptions {
    return {
      key,
      requiredComponents: ['content-digest'],
      requireCreated: true,
      requireExpires: true,
      skewSeconds: SKEW_SECONDS,
    };
  }

  /** A discarded delivery is refused, so that the sender knows. */
  protected discardStatus(): number {
    return 401;
  }

  /** SIGTERM: the harness is done with us (the receiver ends with the process). */
  async stop(): Promise<void> {
    await this.revoke();
  }
}

/** Retry-After: delay-seconds or an HTTP date (RFC 9110 §10.2.3); 1 s when absent or unreadable. */
function retryAfterMs(value: string | undefined): number {
  if (value !== undefined && /^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = value === undefined ? NaN : Date.parse(value);
  return Number.isNaN(date) ? 1000 : Math.max(0, date - Date.now());
}

/**
 * The delivery key in GET /webhooks/key's data, whose shape the spec does not show: a PEM (SPKI) string or a JWK
 * (OKP/Ed25519) anywhere in it, else 32 raw bytes in base64, base64url or hex under a key-like name.
 */
function findKey(data: unknown): KeyObject {
  const raw: Buffer[] = [];
  const visit = (value: unknown, name: string): KeyObject | undefined => {
    if (typeof value === 'string') {
      if (value.includes('-----BEGIN PUBLIC KEY-----')) return createPublicKey(value.replace(/\\n/g, '\n'));
      // A key id (kid, keyId) is often a 32-byte thumbprint: the very shape of a raw key.
      if (/(id|thumbprint|fingerprint)$/i.test(name)) return undefined;
      if (/key|pub|^x$/i.test(name) && /^[0-9a-f]{64}$/i.test(value)) raw.push(Buffer.from(value, 'hex'));
      else if (/key|pub|^x$/i.test(name) && /^[A-Za-z0-9+/_-]{43}=?$/.test(value))
        raw.push(Buffer.from(value, 'base64url'));
      else if (/^[A-Za-z0-9+/]{59}=$/.test(value)) {
        const der = Buffer.from(value, 'base64');
        if (der.length === 44 && der.subarray(0, 12).toString('hex') === '302a300506032b6570032100')
          raw.push(der.subarray(12));
      }
      return undefined;
    }
    if (typeof value !== 'object' || value === null) return undefined;
    const o = value as Record<string, unknown>;
    if (o.kty === 'OKP' && o.crv === 'Ed25519' && typeof o.x === 'string')
      return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: o.x }, format: 'jwk' });
    for (const [k, v] of Object.entries(o)) {
      const found = visit(v, Array.isArray(o) ? name : k);
      if (found) return found;
    }
    return undefined;
  };
  const found = visit(data, '');
  if (found) return found;
  const bytes = raw.find((b) => b.length === 32);
  if (bytes)
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: bytes.toString('base64url') }, format: 'jwk' });
  throw new GaveUp('GET /webhooks/key holds no Ed25519 public key I can read');
}

function eventIdOf(body: Buffer): string {
  const payload = parseJson(body) ?? {};
  return String(payload.eventId ?? payload.id ?? payload.meta?.id ?? '');
}

function readBody(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see Reply.json
function parseJson(bytes: Buffer): any {
  try {
    return bytes.length === 0 ? undefined : JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

function pairs(raw: string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

/**
 * Runs the client the environment asks for: exit 0 when the task is done, 1 when the client gave up (a refusal it
 * could not get past), 2 when it was started wrongly. SIGTERM revokes the token and exits 0.
 */
export function main(make: (env: Env) => Client): void {
  let env: Env;
  try {
    env = readEnv();
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(2);
  }
  const client = make(env);
  process.once('SIGTERM', () => {
    void client.stop().finally(() => process.exit(0));
  });
  client.run().then(
    () => {
      if (env.scenario !== 'webhooks') process.exit(0);
    },
    (e: unknown) => {
      process.stderr.write(`${e instanceof GaveUp ? e.message : String((e as Error).stack ?? e)}\n`);
      process.exit(1);
    },
  );
}
