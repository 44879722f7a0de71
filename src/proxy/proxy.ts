// The intercepting forward proxy of `conformance proxy` (issue 30): a client sends HTTPS_PROXY traffic here; what goes
// to the target's origin (CONNECT to its host:port, or a plain-HTTP request for it) is decrypted with a leaf
// certificate signed by the proxy's CA, forwarded upstream unchanged (./forward.ts) and recorded as a TrafficExchange;
// everything else passes through untouched (a CONNECT elsewhere is a raw tunnel, never decrypted) and is only counted.
// Built on node:http and node:tls, with selfsigned for the certificates (docs/proxy.md, "Why node:http and node:tls").
import { EventEmitter } from 'node:events';
import { Agent as HttpAgent, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { connect, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { TLSSocket, createSecureContext, type SecureContext } from 'node:tls';
import { ProxyListenError } from '../errors.js';
import type { TrafficExchange } from '../traffic/exchange.js';
import { leafFor, loadOrCreateCa, type ProxyCa } from './ca.js';
import { forward, type Forwarder } from './forward.js';
import { startReceiverLeg, type ReceiverLeg } from './receiver-leg.js';

/** The cap on each captured body: that of the suite's own client (src/http/client.ts); past it, `not-captured`. */
const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface InterceptingProxyOptions {
  /** The target: its baseUrl's origin is the one intercepted; `ca` (PEM) is trusted for its certificate. */
  target: { baseUrl: string; ca?: string };
  /** The CA certificate's file (its key beside it, ./ca.ts): made on first use, reused after. */
  caOut: string;
  /** Where the proxy listens: loopback and a free port by default. */
  host?: string;
  port?: number;
  /** The cap on each captured body, in bytes. */
  maxBodyBytes?: number;
  /** The client's webhook receiver: a second listener fronts it (./receiver-leg.ts), its deliveries emitted. */
  receiver?: URL;
}

interface ProxyEvents {
  /** A finished exchange with the target's origin (with `error` and no response when the server was not reached). */
  exchange: [TrafficExchange];
  /** Traffic to another origin passed through: its host:port. */
  passthrough: [string];
  /** A delivery of the server's to the receiver leg, forwarded to the client's receiver (with --receiver). */
  delivery: [TrafficExchange];
  /** A TLS handshake of the server with the receiver leg failed (it does not trust the proxy's CA?): why. */
  receiverTlsFailure: [string];
}

export interface InterceptingProxy extends EventEmitter<ProxyEvents> {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  port: number;
  ca: ProxyCa;
  /** What a client needs, to be printed by the caller: `HTTPS_PROXY=http://127.0.0.1:PORT` and the CA file's path. */
  lines: [string, string];
  /** With `receiver`: the webhook URL the client registers (the receiver leg), and the receiver it forwards to. */
  receiverLeg?: Pick<ReceiverLeg, 'url' | 'receiver' | 'tlsFailures'>;
  /** Exchanges recorded, and requests or tunnels to other origins passed through. */
  counts: { intercepted: number; passedThrough: number };
  /** Ends every connection and listener; resolves when the port is closed. */
  close(): Promise<void>;
}

/** Starts the proxy; the CA is read or made first (a CA that cannot be used throws ProxyCaError). */
export async function startInterceptingProxy(options: InterceptingProxyOptions): Promise<InterceptingProxy> {
  const ca = await loadOrCreateCa(options.caOut);
  const origin = new URL(options.target.baseUrl);
  const events = new EventEmitter<ProxyEvents>();
  const counts = { intercepted: 0, passedThrough: 0 };
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  };
  let next = 0;
  const fw: Forwarder = {
    httpAgent: new HttpAgent({ keepAlive: true }),
    httpsAgent: new HttpsAgent({ keepAlive: true, ...(options.target.ca ? { ca: options.target.ca } : {}) }),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    nextIndex: () => next++,
    record: (exchange) => {
      counts.intercepted++;
      events.emit('exchange', exchange);
    },
  };
  const passed = (what: string) => {
    counts.passedThrough++;
    events.emit('passthrough', what);
  };
  const room: Room = { fw, origin, ca, track, passed };
  const server = outerServer(room);
  const port = await listen(server, options.host ?? '127.0.0.1', options.port ?? 0);
  const url = `http://${options.host?.includes(':') ? `[${options.host}]` : (options.host ?? '127.0.0.1')}:${port}`;
  const leg =
    options.receiver !== undefined
      ? await startReceiverLeg({
          ca,
          receiver: options.receiver,
          host: options.host ?? '127.0.0.1',
          fw,
          track,
          record: (delivery) => events.emit('delivery', delivery),
          tlsFailed: (reason) => events.emit('receiverTlsFailure', reason),
        }).catch(async (err: unknown) => {
          // No half-started proxy: the first listener goes too.
          await new Promise<void>((done) => server.close(() => done()));
          throw err;
        })
      : undefined;
  return Object.assign(events, {
    url,
    port,
    ca,
    lines: [`HTTPS_PROXY=${url}`, resolve(ca.certFile)] as [string, string],
    ...(leg !== undefined
      ? { receiverLeg: { url: leg.url, receiver: leg.receiver, tlsFailures: leg.tlsFailures } }
      : {}),
    counts,
    close: async () => {
      for (const s of sockets) s.destroy();
      await leg?.close();
      fw.httpAgent.destroy();
      fw.httpsAgent.destroy();
      await new Promise<void>((done) => server.close(() => done()));
    },
  });
}

/** What the proxy's handlers share. */
interface Room {
  fw: Forwarder;
  /** The target's origin: the one intercepted. */
  origin: URL;
  ca: ProxyCa;
  track(socket: Socket): void;
  passed(what: string): void;
  /** The server the decrypted connections are handed to (made on first use). */
  inner?: Server;
  /** The leaf certificate's context for the target's host (made on first use, then reused). */
  leaf?: Promise<SecureContext>;
}

function outerServer(room: Room): Server {
  const server = createServer((req, res) => plainRequest(room, req, res));
  server.on('connection', room.track);
  server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const authority = (req.url ?? '').toLowerCase();
    if (authority === authorityOf(room.origin)) void intercept(room, socket, head);
    else tunnel(room, authority, socket, head);
  });
  return server;
}

/** `host:port` of a URL, the port always written (as a CONNECT names it). */
function authorityOf(url: URL): string {
  const port = url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
  return `${url.hostname.toLowerCase()}:${port}`;
}

/** A plain-HTTP request through the proxy (absolute-form target): recorded when for the target's origin. */
function plainRequest(room: Room, req: IncomingMessage, res: ServerResponse): void {
  let url: URL;
  try {
    url = new URL(req.url ?? '');
  } catch {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('conformance proxy: not a proxy request\n');
    return;
  }
  const ours = url.protocol === room.origin.protocol && authorityOf(url) === authorityOf(room.origin);
  if (!ours) room.passed(authorityOf(url));
  forward(room.fw, req, res, url, ours);
}

/** A CONNECT to the target: answered, then decrypted (https) and handed to the inner server, request by request. */
async function intercept(room: Room, socket: Socket, head: Buffer): Promise<void> {
  const https = room.origin.protocol === 'https:';
  let context: SecureContext | undefined;
  try {
    if (https) context = await leafContext(room);
  } catch (err) {
    socket.end(`HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nX-Reason: ${oneLine(String(err))}\r\n\r\n`);
    return;
  }
  socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
  if (head.length > 0) socket.unshift(head);
  const inner = (room.inner ??= createServer((req, res) =>
    forward(room.fw, req, res, new URL(req.url ?? '/', room.origin), true),
  ));
  if (!context) {
    inner.emit('connection', socket);
    return;
  }
  // Only HTTP/1.1 is offered: the client then speaks it, and the exchange is read as it went.
  const tls = new TLSSocket(socket, { isServer: true, secureContext: context, ALPNProtocols: ['http/1.1'] });
  room.track(tls);
  tls.on('error', () => socket.destroy());
  inner.emit('connection', tls);
}

function leafContext(room: Room): Promise<SecureContext> {
  room.leaf ??= leafFor(room.ca, room.origin.hostname.replace(/^\[(.*)\]$/, '$1')).then((leaf) =>
    createSecureContext(leaf),
  );
  return room.leaf;
}

/** A CONNECT elsewhere: a raw tunnel, bytes passed both ways, never decrypted nor recorded. */
function tunnel(room: Room, authority: string, socket: Socket, head: Buffer): void {
  room.passed(authority);
  const at = authority.lastIndexOf(':');
  const host = authority.slice(0, at).replace(/^\[(.*)\]$/, '$1');
  let open = false;
  const upstream = connect(Number(authority.slice(at + 1)), host, () => {
    open = true;
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
  });
  room.track(upstream);
  upstream.on('error', (err: NodeJS.ErrnoException) => {
    if (open) socket.destroy();
    else socket.end(`HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nX-Reason: ${err.code ?? 'error'}\r\n\r\n`);
  });
  socket.on('close', () => upstream.destroy());
}

function oneLine(text: string): string {
  return text.replace(/[^\x20-\x7e]+/g, ' ').slice(0, 200);
}

/** Listens on host:port; a port taken or not allowed is a ProxyListenError (one line, exit 2). */
function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((done, fail) => {
    const refused = (err: NodeJS.ErrnoException) => {
      const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
      const why =
        err.code === 'EADDRINUSE'
          ? 'the port is taken'
          : err.code === 'EACCES'
            ? 'not allowed (a port below 1024 needs privileges)'
            : err.code === 'EADDRNOTAVAIL'
              ? 'no such address on this machine'
              : (err.code ?? err.message);
      fail(
        new ProxyListenError(
          `proxy: cannot listen on ${where}: ${why}; free it or choose another (--port 0 picks a free one)`,
        ),
      );
    };
    server.once('error', refused);
    server.listen(port, host, () => {
      server.off('error', refused);
      done((server.address() as { port: number }).port);
    });
  });
}
