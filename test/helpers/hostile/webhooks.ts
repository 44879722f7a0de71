// What a hostile server can send the run's webhook receiver: a flood of deliveries, bodies far over any cap (generated
// as they are sent, never held), and deliveries that are not what they claim (bad digest, no signature, not JSON,
// nested 100,000 deep, not even HTTP). Everything here is bounded by a count, a size and a per-request timeout.
import { Agent, request } from 'node:https';
import { connect } from 'node:tls';
import { Readable } from 'node:stream';
import { contentDigest } from '../../../src/http/digest.js';
import type { HostileStats } from './server.js';
import { WAIT_MS } from '../waits.js';

/** A delivery the receiver does not answer is given up: never one it answers, however busy the machine. */
const REQUEST_TIMEOUT_MS = WAIT_MS;
const FORGED_SIGNATURE_INPUT =
  'sig1=("@method" "@target-uri" "content-digest" "content-type");keyid="hostile";created=1;expires=2';
const FORGED_SIGNATURE = `sig1=:${Buffer.alloc(64, 7).toString('base64')}:`;

interface Delivery {
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | Readable;
}

function send(url: URL, agent: Agent, d: Delivery): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: d.method ?? 'POST',
        headers: d.headers ?? {},
        agent,
        rejectUnauthorized: false,
        timeout: REQUEST_TIMEOUT_MS,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    const body = d.body;
    if (body instanceof Readable) {
      req.on('close', () => body.destroy());
      body.on('error', () => req.destroy());
      body.pipe(req);
    } else req.end(body);
  });
}

/** A delivery that looks right (JSON, a digest that matches) but whose signature is forged. */
function forged(body: string): Delivery {
  const bytes = Buffer.from(body);
  return {
    headers: {
      'content-type': 'application/json',
      'content-length': String(bytes.length),
      'content-digest': contentDigest(bytes),
      'signature-input': FORGED_SIGNATURE_INPUT,
      signature: FORGED_SIGNATURE,
    },
    body: bytes,
  };
}

async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/** `count` forged deliveries, `concurrency` at a time: more than the receiver keeps, on more connections than it likes. */
export async function flood(
  target: string,
  stats: HostileStats,
  options: { count: number; concurrency: number },
): Promise<void> {
  const url = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  try {
    const indexes = Array.from({ length: options.count }, (_, i) => i);
    await pool(indexes, options.concurrency, async (i) => {
      const status = await send(url, agent, forged(JSON.stringify({ event: 'AUTH.CREATED', flood: i })));
      if (status >= 200 && status < 300) stats.flood.sent++;
      else stats.flood.failed++;
    });
  } finally {
    agent.destroy();
  }
}

/** 'a' bytes until `total`, produced as they are read. */
function endless(total: number): Readable {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const n = Math.min(chunk.length, total - sent);
      sent += n;
      this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
}

/** Bytes written to a TLS connection that are not HTTP at all. */
function notHttp(url: URL, bytes: Buffer, everyMs = 0): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port), rejectUnauthorized: false }, () => {
      if (everyMs === 0) return void socket.end(bytes);
      let i = 0;
      // Done trickling, the connection is dropped rather than ended: the receiver would wait out its header timeout.
      const step = (): void => {
        if (socket.destroyed || i >= bytes.length) return void socket.destroy();
        socket.write(bytes.subarray(i, ++i));
        setTimeout(step, everyMs);
      };
      step();
    });
    const timer = setTimeout(() => socket.destroy(), REQUEST_TIMEOUT_MS);
    // The receiver's answer (a 400) is read and dropped, so the connection can end.
    socket.resume();
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Oversized and malformed deliveries, each a different way of being wrong. */
export async function junk(target: string, stats: HostileStats): Promise<void> {
  const url = new URL(target);
  const agent = new Agent({ keepAlive: false, maxSockets: 16 });
  const json = { 'content-type': 'application/json' };
  const deliveries: Delivery[] = [
    // 64 MiB bodies, chunked, and bodies that announce 2 GiB.
    ...Array.from({ length: 3 }, () => ({ headers: json, body: endless(64 * 1024 * 1024) })),
    ...Array.from({ length: 2 }, () => ({
      headers: { ...json, 'content-length': String(2 * 1024 ** 3) },
      body: endless(2 * 1024 ** 3),
    })),
    // Not JSON; no digest and no signature; a digest of other bytes; nested 100,000 deep (under the size cap).
    forged('{"event": "AUTH.CREATED",, oops'),
    { headers: json, body: Buffer.from('{"event":"AUTH.CREATED"}') },
    {
      headers: { ...forged('{}').headers, 'content-digest': contentDigest(Buffer.from('other bytes')) },
      body: Buffer.from('{"event":"WEBHOOK.UPDATED"}'),
    },
    forged(`{"event":"AUTH.CREATED","deep":${'['.repeat(100_000)}${']'.repeat(100_000)}}`),
    // Not a POST; a 1 MiB header.
    { method: 'GET', headers: {} },
    { headers: { ...json, 'x-padding': 'a'.repeat(1024 * 1024) }, body: Buffer.from('{}') },
  ];
  try {
    await Promise.all([
      pool(deliveries, 8, async (d) => {
        const status = await send(url, agent, d);
        if (status >= 200 && status < 300) stats.flood.sent++;
        else stats.flood.failed++;
      }),
      notHttp(url, Buffer.from('NOT HTTP AT ALL\r\n\u0000\u0001\u0002\r\n\r\n')),
      // A request line and headers a byte every 20 ms, never finished.
      notHttp(url, Buffer.from(`POST ${url.pathname} HTTP/1.1\r\nHost: x\r\n`), 20),
    ]);
  } finally {
    agent.destroy();
  }
}
