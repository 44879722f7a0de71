// A hostile target for the end-to-end tests: a proxy in front of the real reference server that, in one named mode,
// misbehaves the way a broken or malicious server can (modes.ts), and otherwise passes requests through unchanged, so
// the checks the mode does not touch still pass and show that the run went on.
//
// Every mode is bounded: whatever it holds open (a silent socket, an endless body, a drip, a flood) ends by itself
// within HOLD_MS or a fixed amount of data, and close() ends everything at once, so a test can never hang on it.
import {
  createServer as createHttpServer,
  request as httpRequest,
  Agent,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { MODES, type ModeName } from './modes.js';
import type { Foreign } from './foreign.js';
import { WAIT_MS } from '../waits.js';

/** The longest any mode holds a connection open without finishing it: past any request timeout a test gives. */
const HOLD_MS = 2 * WAIT_MS;
/** Request bodies the proxy reads (the suite's are small; a larger one is cut). */
const MAX_REQUEST_BODY = 1024 * 1024;

export interface HostileOptions {
  mode: ModeName;
  /** Origin of the reference server behind the proxy, e.g. http://127.0.0.1:41234. */
  upstream: string;
  /** The second origin that redirects and links point at. */
  foreign: Foreign;
  /** Serve https with this certificate (a certificate for another name, for the TLS mismatch mode). */
  tls?: { cert: string; key: string };
}

/** What the proxy saw: for assertions, and for the secret scan (every token the target issued during the run). */
export interface HostileStats {
  requests: number;
  /** Requests the mode acted on (not passed through as they were). */
  acted: number;
  tokens: string[];
  /** Signature header values the run sent: a replayable credential, looked for in every report. */
  signatures: string[];
  /** Webhook URLs the run registered, and what the flood modes sent there. */
  webhookUrls: string[];
  flood: { sent: number; failed: number };
}

export interface Hostile {
  baseUrl: string;
  origin: string;
  stats: HostileStats;
  close(): Promise<void>;
}

/** One request as a mode sees it, with the tools to answer, hold, or pass it through. */
export interface Turn {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  /** Path without the query. */
  path: string;
  url: URL;
  body: Buffer;
  /** n-th request the proxy received (1-based). */
  n: number;
  origin: string;
  foreign: Foreign;
  stats: HostileStats;
  /** Sends the request (to `path`, path and query, when given) to the reference server; its answer is not yet written. */
  forward(path?: string): Promise<Upstream>;
  /** Writes an answer. */
  reply(status: number, headers: Record<string, string>, body: string | Buffer): void;
  /** Keeps the connection open without answering; it is closed after HOLD_MS (or by close()). */
  hold(): void;
  /** Runs `fn` after `ms`, unless the proxy closes first. */
  later(ms: number, fn: () => void): void;
  /** Tracks background work (a flood) so close() can wait for it. */
  background(work: Promise<unknown>): void;
  /** The raw socket, detached from the HTTP machinery, for replies that are not HTTP as Node would write it. */
  raw(): Socket;
  closed(): boolean;
}

export interface Upstream {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
}

export type Mode = (turn: Turn) => Promise<boolean> | boolean;

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'upgrade',
  'proxy-connection',
]);

export async function startHostile(options: HostileOptions): Promise<Hostile> {
  const mode = MODES[options.mode];
  const upstream = new URL(options.upstream);
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const work = new Set<Promise<unknown>>();
  const stats: HostileStats = {
    requests: 0,
    acted: 0,
    tokens: [],
    signatures: [],
    webhookUrls: [],
    flood: { sent: 0, failed: 0 },
  };
  let closing = false;
  let origin = '';

  const later = (ms: number, fn: () => void): void => {
    if (closing) return;
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  const forward = (req: IncomingMessage, body: Buffer, path = req.url): Promise<Upstream> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string | string[]> = {};
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i]!;
        if (HOP_BY_HOP.has(name.toLowerCase())) continue;
        const v = req.rawHeaders[i + 1]!;
        const had = headers[name];
        headers[name] = had === undefined ? v : [...(Array.isArray(had) ? had : [had]), v];
      }
      if (body.length > 0) headers['content-length'] = String(body.length);
      const up = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: req.method, path, headers, agent, timeout: WAIT_MS },
        (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => {
            const out: Array<[string, string]> = [];
            for (let i = 0; i + 1 < r.rawHeaders.length; i += 2)
              if (!HOP_BY_HOP.has(r.rawHeaders[i]!.toLowerCase())) out.push([r.rawHeaders[i]!, r.rawHeaders[i + 1]!]);
            resolve({ status: r.statusCode ?? 502, headers: out, body: Buffer.concat(chunks) });
          });
          r.on('error', reject);
        },
      );
      up.on('timeout', () => up.destroy(new Error('upstream timeout')));
      up.on('error', reject);
      up.end(body);
    });

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const n = ++stats.requests;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_REQUEST_BODY) chunks.push(c);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const signature = req.headers['signature'];
      if (typeof signature === 'string') stats.signatures.push(signature);
      const url = new URL(req.url ?? '/', origin);
      let detached = false;
      const turn: Turn = {
        req,
        res,
        method: req.method ?? 'GET',
        path: url.pathname,
        url,
        body,
        n,
        origin,
        foreign: options.foreign,
        stats,
        forward: (path) => forward(req, body, path),
        reply: (status, headers, payload) => {
          if (res.headersSent || res.destroyed) return;
          res.writeHead(status, { 'content-length': String(Buffer.byteLength(payload)), ...headers }).end(payload);
        },
        hold: () => later(HOLD_MS, () => req.socket.destroy()),
        later,
        background: (p) => {
          const tracked = p.catch(() => undefined).finally(() => work.delete(tracked));
          work.add(tracked);
        },
        raw: () => {
          detached = true;
          return req.socket;
        },
        closed: () => closing || req.socket.destroyed,
      };
      void (async () => {
        try {
          const acted = await mode(turn);
          if (acted) {
            stats.acted++;
            return;
          }
          await passThrough(turn);
        } catch (e) {
          if (!detached && !res.headersSent && !res.destroyed)
            turn.reply(502, { 'content-type': 'text/plain' }, `hostile proxy: ${(e as Error).message}`);
          else req.socket.destroy();
        }
      })();
    });
  };

  const server: Server = options.tls
    ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, handler)
    : createHttpServer(handler);
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  // The hostile modes end connections abruptly on purpose: their errors are expected, not the test's.
  server.on('clientError', (_e, s) => s.destroy());
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`;

  return {
    origin,
    baseUrl: `${origin}/v1`,
    stats,
    async close() {
      closing = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.allSettled([...work]);
      agent.destroy();
    },
  };
}

/** The reference server's answer, unchanged (tokens it issues are noted for the secret scan). */
export async function passThrough(turn: Turn, rewrite?: (up: Upstream) => Upstream, path?: string): Promise<void> {
  let up = await turn.forward(path);
  noteTokens(turn, up);
  if (rewrite) up = rewrite(up);
  writeUpstream(turn, up);
}

export function writeUpstream(turn: Turn, up: Upstream): void {
  if (turn.res.headersSent || turn.res.destroyed) return;
  const headers: Array<[string, string]> = [
    ...up.headers.filter(([n]) => n.toLowerCase() !== 'content-length'),
    ['content-length', String(up.body.length)],
  ];
  turn.res.writeHead(up.status, headers.flat()).end(up.body);
}

function noteTokens(turn: Turn, up: Upstream): void {
  if (turn.path !== '/v1/oauth/token') return;
  try {
    const body = JSON.parse(up.body.toString('utf8')) as { token?: unknown; data?: { token?: unknown } };
    const token = body.data?.token ?? body.token;
    if (typeof token === 'string') turn.stats.tokens.push(token);
  } catch {
    // Not a token answer: nothing to note.
  }
}

/** A JSON answer of the reference server rewritten by `edit` (which may change the value in place or return a new one). */
export function rewriteJson(edit: (body: Record<string, unknown>) => unknown): (up: Upstream) => Upstream {
  return (up) => {
    let value: unknown;
    try {
      value = JSON.parse(up.body.toString('utf8'));
    } catch {
      return up;
    }
    if (typeof value !== 'object' || value === null) return up;
    const edited = edit(value as Record<string, unknown>) ?? value;
    return { ...up, body: Buffer.from(JSON.stringify(edited)) };
  };
}
