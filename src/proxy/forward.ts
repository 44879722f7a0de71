// One HTTP exchange forwarded upstream as it came: the same method, target, header fields in their order with their
// names' case, and body bytes, so that the client's RFC 9421 signature and RFC 9530 digest still verify at the server;
// the answer goes back the same way. Both bodies are captured up to a cap while they stream (never held back first:
// the proxy adds no wait for a large body), and the exchange is handed on once the answer has ended.
import type { Agent as HttpAgent, ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest, type Agent as HttpsAgent } from 'node:https';
import { performance } from 'node:perf_hooks';
import type { TrafficExchange, TrafficMessage } from '../traffic/exchange.js';

/** What forwarding needs of the proxy: the agents to the server, the body cap, and where a finished exchange goes. */
export interface Forwarder {
  httpAgent: HttpAgent;
  httpsAgent: HttpsAgent;
  maxBodyBytes: number;
  /** The next exchange's index (the proxy's order of requests). */
  nextIndex(): number;
  /** A finished exchange of the target's origin; never called for traffic passed through. */
  record(exchange: TrafficExchange): void;
}

/**
 * Fields meant for the proxy, not the server: they are the client's words to us (curl sends Proxy-Connection in a
 * plain-HTTP request through a proxy) and never covered by a signature, which covers what the server receives.
 */
const FOR_THE_PROXY = new Set(['proxy-connection', 'proxy-authorization']);

/** Methods a request may be sent again with on a fresh connection (RFC 9110 §9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'TRACE']);

/** Forwards `req` to `url` and its answer back; records the exchange when `recorded` (the target's origin only). */
export function forward(fw: Forwarder, req: IncomingMessage, res: ServerResponse, url: URL, recorded: boolean): void {
  const index = recorded ? fw.nextIndex() : -1;
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const rawHeaders = keepFor(req.rawHeaders);
  // The body is held up to the cap whether recorded or not: a request sent again on a fresh connection needs it whole.
  const requestBody = new BodyCapture(fw.maxBodyBytes);
  const https = url.protocol === 'https:';
  const open = () =>
    (https ? httpsRequest : httpRequest)({
      agent: https ? fw.httpsAgent : fw.httpAgent,
      method: req.method,
      host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port === '' ? (https ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      // The flat raw list keeps the order and the case of the names; Host is in it, as the client wrote it.
      headers: rawHeaders,
      setHost: false,
    });
  const request = () => ({
    method: req.method ?? 'GET',
    url: url.href,
    httpVersion: `HTTP/${req.httpVersion}`,
    ...requestBody.message(pairs(asSent(rawHeaders))),
  });
  let ended = false;
  // Once per exchange: an answer cut short after its head may also meet the request's error.
  const done = (rest: Pick<TrafficExchange, 'response' | 'error'>) => {
    if (ended) return;
    ended = true;
    if (recorded) fw.record({ index, startedAt, durationMs: performance.now() - t0, request: request(), ...rest });
  };
  const answered = (upstream: ClientRequest, again: boolean) => {
    upstream.on('response', (answer) => relayAnswer(fw, answer, res, recorded, done));
    upstream.on('error', (err) => {
      // A kept-alive connection the server closed as the request went out on it: an idempotent request is sent once
      // more on a fresh connection (RFC 9112 §9.3.1), when it has ended and its body is held whole, as the client's
      // own connection would have done. Any other failure, or the same again, is the client's 502.
      if (
        !again &&
        upstream.reusedSocket &&
        IDEMPOTENT.has(req.method ?? '') &&
        !res.headersSent &&
        req.complete &&
        requestBody.whole()
      ) {
        const retry = open();
        answered(retry, true);
        retry.end(requestBody.bytes());
        return;
      }
      const reason = failureReason(url, err as NodeJS.ErrnoException);
      if (!res.headersSent)
        res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(`${reason}\n`);
      else res.destroy();
      done({ error: reason });
    });
  };
  const upstream = open();
  answered(upstream, false);
  req.on('data', (chunk: Buffer) => requestBody.add(chunk));
  req.pipe(upstream);
  // A client that goes away mid-request: the server's half goes too (no half-sent request left open).
  req.on('aborted', () => upstream.destroy());
}

function relayAnswer(
  fw: Forwarder,
  answer: IncomingMessage,
  res: ServerResponse,
  recorded: boolean,
  done: (rest: Pick<TrafficExchange, 'response' | 'error'>) => void,
): void {
  const body = new BodyCapture(recorded ? fw.maxBodyBytes : 0);
  // The server's fields only: no Date of the proxy's own beside (or instead of) the server's.
  res.sendDate = false;
  res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
  // A client that goes away mid-answer: the rest of the server's answer is not read for nobody.
  res.on('close', () => {
    if (!answer.complete) answer.destroy();
  });
  answer.on('data', (chunk: Buffer) => body.add(chunk));
  answer.pipe(res);
  answer.on('end', () =>
    done({
      response: {
        status: answer.statusCode ?? 0,
        httpVersion: `HTTP/${answer.httpVersion}`,
        ...body.message(pairs(answer.rawHeaders)),
      },
    }),
  );
  answer.on('error', () => res.destroy());
}

/**
 * The fields as the server received them. Node adds `Connection: keep-alive` last when the request has no Connection
 * field (curl through a proxy sends Proxy-Connection instead): a hop-by-hop field (RFC 9110 §7.6.1), the proxy's to
 * set for its own connection, and recorded so that the exchange is what the server saw.
 */
function asSent(raw: readonly string[]): readonly string[] {
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === 'connection') return raw;
  return [...raw, 'Connection', 'keep-alive'];
}

/** The raw list without the fields meant for the proxy. */
function keepFor(raw: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2)
    if (!FOR_THE_PROXY.has(raw[i]!.toLowerCase())) kept.push(raw[i]!, raw[i + 1]!);
  return kept;
}

function pairs(raw: readonly string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

/** TLS failures that mean "the server's certificate is not trusted" (Node's and OpenSSL's codes). */
const UNTRUSTED =
  /^(UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|ERR_TLS_CERT_ALTNAME_INVALID)$/;

/** One line: why the server could not be reached, and what to do (the 502's body and the exchange's `error`). */
function failureReason(url: URL, err: NodeJS.ErrnoException): string {
  const where = `the server at ${url.host}`;
  const code = err.code ?? 'error';
  if (UNTRUSTED.test(code))
    return `conformance proxy: ${where} presented a TLS certificate the proxy does not trust (${code}): give the target's CA (caFile)`;
  if (code === 'ECONNREFUSED')
    return `conformance proxy: ${where} refused the connection (ECONNREFUSED): is it running?`;
  return `conformance proxy: ${where} could not be reached: ${err.message.replace(/\s+/g, ' ')} (${code})`;
}

/**
 * A body's bytes up to a cap, taken as they stream. Past the cap the bytes held are let go and the body is
 * `not-captured` (a judge says it cannot judge it): memory stays bounded whatever a body's size.
 */
class BodyCapture {
  private chunks: Buffer[] = [];
  private size = 0;
  private over = false;

  constructor(private readonly cap: number) {}

  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.over) return;
    if (this.size > this.cap) {
      this.over = true;
      this.chunks = [];
      return;
    }
    this.chunks.push(chunk);
  }

  /** Whether every byte is held (nothing past the cap). */
  whole(): boolean {
    return !this.over;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }

  message(headers: Array<[string, string]>): TrafficMessage {
    if (this.over) return { headers, body: new Uint8Array(), bodyState: 'not-captured' };
    if (this.size === 0) return { headers, body: new Uint8Array(), bodyState: 'empty' };
    return { headers, body: Buffer.concat(this.chunks), bodyState: 'captured' };
  }
}
