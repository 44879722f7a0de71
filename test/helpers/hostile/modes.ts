// The hostile modes. Most act on one "victim" request, GET /v1/customers/{id} (what resources.customers.get sends),
// and pass everything else through, so a test sees both the victim check's failure and the other checks still passing.
// A mode returns true when it answered (or deliberately did not), false to pass the request through.
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { passThrough, rewriteJson, writeUpstream, type Mode, type Turn, type Upstream } from './server.js';
import { flood, junk } from './webhooks.js';

export type ModeName =
  | 'silent'
  | 'stall-body'
  | 'drip'
  | 'huge-body'
  | 'huge-header'
  | 'invalid-json'
  | 'truncated-json'
  | 'deep-json'
  | 'html'
  | 'reset'
  | 'error-500'
  | 'redirect-self'
  | 'redirect-foreign'
  | 'redirect-chain'
  | 'endless-pages'
  | 'ussd-endless'
  | 'ussd-foreign'
  | 'gzip-bomb'
  | 'slow-headers'
  | 'short-body'
  | 'malformed-http'
  | 'escapes'
  | 'stalled-token'
  | 'flaky'
  | 'tls-mismatch'
  | 'webhook-flood'
  | 'webhook-junk'
  | 'silent-all'
  | 'echo';

const JSON_TYPE = { 'content-type': 'application/json' };
/** A body "multi-gigabyte" enough: generated as it is read, never held. */
const HUGE_BODY_BYTES = 4 * 1024 ** 3;
/** Text a server could use to fake a verdict or take over a terminal: a summary line, a screen clear, a link, bidi. */
export const HOSTILE_TEXT =
  '\u001b[2J\u001b[H\r\n126 passed, 0 failed, 0 warned, 0 skipped\n' +
  '\u001b]8;;https://evil.example/\u0007click here\u001b]8;;\u0007 \u202etxt.exe\u202c \u2066isolated\u2069 \u001b[31mred\u001b[0m\u0007\b';

const isVictim = (t: Turn): boolean => t.method === 'GET' && /^\/v1\/customers\/[^/]+$/.test(t.path);
const isTokenEndpoint = (t: Turn): boolean => t.path === '/v1/oauth/token' || t.path === '/v1/oauth/revoke';

/** Acts on the victim request only. */
const onVictim =
  (act: (t: Turn) => void | Promise<void>): Mode =>
  async (t) => {
    if (!isVictim(t)) return false;
    await act(t);
    return true;
  };

/** Writes `bytes` to a raw socket one at a time, every `everyMs`, stopping when the client goes away. */
function trickle(t: Turn, bytes: Buffer, everyMs: number, then?: () => void): void {
  const socket = t.raw();
  let i = 0;
  const step = (): void => {
    if (t.closed()) return;
    if (i >= bytes.length) {
      then?.();
      return;
    }
    socket.write(bytes.subarray(i, ++i));
    t.later(everyMs, step);
  };
  step();
}

/** An endless-looking JSON string body: `{"data":"aaaa…`, produced chunk by chunk as the client reads. */
function lazyBody(total: number): Readable {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  let sent = 0;
  return new Readable({
    read() {
      if (sent === 0) {
        sent += 9;
        this.push('{"data":"');
        return;
      }
      if (sent >= total) {
        this.push(null);
        return;
      }
      const n = Math.min(chunk.length, total - sent);
      sent += n;
      this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
}

/** First pages of the lists the endless-pages mode has served, by URL without `page`. */
const firstPages = new Map<string, Upstream>();

let bomb: Buffer | undefined;
/** 2 GiB of zeros once inflated, 2 MiB on the wire: 128 gzip members of 16 MiB each (concatenated members are one gzip stream). */
function gzipBomb(): Buffer {
  if (!bomb) {
    const member = gzipSync(Buffer.alloc(16 * 1024 * 1024), { level: 9 });
    bomb = Buffer.concat(Array.from({ length: 128 }, () => member));
  }
  return bomb;
}

/** A USSD view the way the spec shows it. */
function ussdView(message: string, options: Array<{ option: number; requestUrl: string }>): string {
  return JSON.stringify({
    data: { ussdMessage: message, ussdOptions: options.map((o) => ({ ...o, requestType: 'GET' })) },
    code: '200',
    message: 'Success',
  });
}

function deepJson(depth: number): string {
  return `{"data":${'['.repeat(depth)}${']'.repeat(depth)},"code":"200","message":"Success"}`;
}

/** Registering a webhook: forward it, then run `attack` against the URL it names before answering. */
function onWebhookRegistration(attack: (url: string, t: Turn) => Promise<void>): Mode {
  return async (t) => {
    if (t.path !== '/v1/webhooks' || (t.method !== 'POST' && t.method !== 'PUT')) return false;
    const up = await t.forward();
    let url: unknown;
    try {
      url = (JSON.parse(t.body.toString('utf8')) as { url?: unknown }).url;
    } catch {
      url = undefined;
    }
    if (up.status < 300 && typeof url === 'string' && /^https:\/\//.test(url) && !t.stats.webhookUrls.includes(url)) {
      t.stats.webhookUrls.push(url);
      // Before answering, so that the checks that judge deliveries see every one of them, whatever the timing.
      await attack(url, t);
    }
    writeUpstream(t, up);
    return true;
  };
}

export const MODES: Record<ModeName, Mode> = {
  silent: onVictim((t) => t.hold()),

  'stall-body': onVictim((t) => {
    t.res.writeHead(200, { ...JSON_TYPE, 'content-length': '1000' });
    t.res.write('{"data":');
    t.hold();
  }),

  // One byte every second: each arrives before an idle timeout would fire, so only a deadline for the whole body ends it.
  drip: onVictim((t) => {
    const body = Buffer.from(`{"data":{"customerId":1},"code":"200","message":"${'.'.repeat(60)}"}`);
    t.res.writeHead(200, JSON_TYPE);
    let i = 0;
    const step = (): void => {
      if (t.closed()) return;
      if (i >= body.length) return void t.res.end();
      t.res.write(body.subarray(i, ++i));
      t.later(1000, step);
    };
    step();
  }),

  'huge-body': onVictim((t) => {
    t.res.writeHead(200, JSON_TYPE);
    const body = lazyBody(HUGE_BODY_BYTES);
    t.res.on('close', () => body.destroy());
    body.pipe(t.res);
  }),

  'huge-header': onVictim((t) => {
    const socket = t.raw();
    socket.write(
      `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Padding: ${'a'.repeat(1024 * 1024)}\r\nContent-Length: 2\r\n\r\n{}`,
    );
    socket.end();
  }),

  'invalid-json': onVictim((t) => t.reply(200, JSON_TYPE, '{"data": {"customerId": 1001,, "status": ACTIVE}')),

  'truncated-json': onVictim(async (t) => {
    const up = await t.forward();
    writeUpstream(t, { ...up, body: up.body.subarray(0, Math.floor(up.body.length / 2)) });
  }),

  'deep-json': onVictim((t) => t.reply(200, JSON_TYPE, deepJson(200_000))),

  html: onVictim((t) =>
    t.reply(
      200,
      { 'content-type': 'text/html; charset=utf-8' },
      '<!doctype html><html><head><title>Sign in</title></head><body><h1>Please sign in</h1></body></html>',
    ),
  ),

  reset: onVictim((t) => void t.raw().resetAndDestroy()),

  'error-500': async (t) => {
    if (isTokenEndpoint(t)) return false;
    t.reply(500, JSON_TYPE, '{"code":"500","message":"Internal Server Error"}');
    return true;
  },

  'redirect-self': onVictim((t) => t.reply(302, { location: t.url.href }, '')),

  'redirect-foreign': onVictim((t) =>
    t.reply(307, { location: `${t.foreign.origin}${t.url.pathname}${t.url.search}` }, ''),
  ),

  'redirect-chain': onVictim((t) => {
    const hop = Number(t.url.searchParams.get('hop') ?? '0') + 1;
    t.reply(302, { location: `${t.path}?hop=${hop}` }, '');
  }),

  // The same items (the first page's) on every page, nextPage one further each time, a totalCount no walk can reach.
  // Later pages reuse the first page's answer: a request for another page cannot be re-addressed upstream, as the
  // signature covers its URL.
  'endless-pages': async (t) => {
    if (t.method !== 'GET' || t.path !== '/v1/transactions') return false;
    const page = Number(t.url.searchParams.get('page') ?? '0');
    const list = new URL(t.url.href);
    list.searchParams.delete('page');
    let first = firstPages.get(list.href);
    if (!first) {
      first = await t.forward();
      if (first.status === 200) firstPages.set(list.href, first);
    }
    const endless = rewriteJson((body) => {
      const meta = body.meta as Record<string, unknown> | undefined;
      if (meta)
        Object.assign(meta, {
          previousPage: Math.max(0, page - 1),
          currentPage: page,
          nextPage: page + 1,
          totalCount: 10 ** 12,
        });
    });
    writeUpstream(t, endless(first));
    return true;
  },

  // Every view offers two ever-new views (and a way back), so the menu graph has no end.
  'ussd-endless': async (t) => {
    if (t.method !== 'GET' || !t.path.startsWith('/v1/ussd/')) return false;
    const customerId = t.url.searchParams.get('customerId');
    if (customerId === null) return false;
    const n = Number(t.url.searchParams.get('n') ?? '0');
    const link = (k: number) => `${t.origin}/v1/ussd/stocks?customerId=${customerId}&n=${k}`;
    t.reply(
      200,
      JSON_TYPE,
      ussdView(`Menu ${n}\n1. Next\n2. Other\n3. Back`, [
        { option: 1, requestUrl: link(2 * n + 1) },
        { option: 2, requestUrl: link(2 * n + 2) },
        { option: 3, requestUrl: `${t.origin}/v1/ussd/stocks?customerId=${customerId}` },
      ]),
    );
    return true;
  },

  // The reference server's menus, with every link moved to another origin.
  'ussd-foreign': async (t) => {
    if (t.method !== 'GET' || !t.path.startsWith('/v1/ussd/')) return false;
    await passThrough(
      t,
      rewriteJson((body) => {
        const options = (body.data as { ussdOptions?: Array<{ requestUrl?: string }> } | undefined)?.ussdOptions ?? [];
        for (const o of options)
          if (typeof o.requestUrl === 'string') o.requestUrl = o.requestUrl.replace(t.origin, t.foreign.origin);
      }),
    );
    return true;
  },

  'gzip-bomb': onVictim((t) => t.reply(200, { ...JSON_TYPE, 'content-encoding': 'gzip' }, gzipBomb())),

  // The status line and headers, a byte every 100 ms: over a minute before the headers are complete, far past any
  // request timeout a test gives, however late a loaded machine runs the timers.
  'slow-headers': onVictim((t) => {
    const head = Buffer.from(
      `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Slow: yes, ${'very '.repeat(120)}slow\r\nContent-Length: 2\r\n\r\n{}`,
    );
    trickle(t, head, 100, () => t.raw().end());
  }),

  'short-body': onVictim((t) => {
    const socket = t.raw();
    socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"data":{"custom');
    socket.end();
  }),

  'malformed-http': onVictim((t) => {
    const socket = t.raw();
    socket.write('HTTP/1.1 200 OK\r\nContent-Length: twelve\r\nX-\u0001Bad\u0000: yes\r\n\r\ngarbage');
    socket.end();
  }),

  // Escape sequences in every message the server writes (JSON-escaped, as a JSON server writes them), and raw in the
  // body and a header of the answer a failing check shows, where a report prints them.
  escapes: async (t) => {
    if (isVictim(t)) {
      // Written raw: Node refuses to send a header with bidi overrides in it (HTTP allows the bytes, as obs-text).
      const body = Buffer.from(
        `{"data":{"customerId":1001,"status":"${HOSTILE_TEXT}"},"code":"200","message":"Success"}`,
      );
      const head = Buffer.from(
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Note: \u202eevil\u202c \u2066x\u2069\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      t.raw().end(Buffer.concat([head, body]));
      return true;
    }
    await passThrough(
      t,
      rewriteJson((body) => {
        if (typeof body.message === 'string') body.message = `${body.message} ${HOSTILE_TEXT}`;
      }),
    );
    return true;
  },

  'stalled-token': async (t) => {
    if (t.path !== '/v1/oauth/token') return false;
    t.hold();
    return true;
  },

  // Every second request (the token requests aside, or nothing could start) has its connection reset.
  flaky: (t) => {
    if (isTokenEndpoint(t) || t.n % 2 === 1) return false;
    t.raw().resetAndDestroy();
    return true;
  },

  // The certificate is wrong, not the behaviour: nothing gets past the TLS handshake.
  'tls-mismatch': () => false,

  'webhook-flood': onWebhookRegistration((url, t) => flood(url, t.stats, { count: 1500, concurrency: 48 })),

  'webhook-junk': onWebhookRegistration((url, t) => junk(url, t.stats)),

  // Everything but the token endpoints never answers: only the run's budget ends the run.
  'silent-all': async (t) => {
    if (isTokenEndpoint(t)) return false;
    t.hold();
    return true;
  },

  // Hands every credential the client sent back to it, in headers and bodies, and breaks one resource so that failing
  // exchanges (where reports print the most) carry the echoes too.
  echo: async (t) => {
    const auth = t.req.headers.authorization ?? '';
    const signature = String(t.req.headers.signature ?? '');
    const clientId = String(t.req.headers['x-client-id'] ?? '');
    const sent = t.body.toString('utf8');
    await passThrough(t, (u) => {
      const echoed = rewriteJson((body) => {
        body.echo = {
          authorization: auth,
          signature,
          clientId,
          body: sent,
          note: `you sent ${auth} with ${signature}; body ${sent}`,
        };
        if (typeof body.message === 'string') body.message = `${body.message} (auth ${auth}; body ${sent})`;
        const data = body.data as Record<string, unknown> | undefined;
        if (isVictim(t) && data && typeof data === 'object') data.status = `BOGUS ${auth}`;
      })(u);
      const latin1 = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
      return {
        ...echoed,
        headers: [
          ...echoed.headers,
          ['X-Echo-Authorization', latin1(auth)],
          ['X-Echo-Signature', latin1(signature)],
          ['X-Echo-Body', latin1(sent.replace(/[\r\n]/g, ' '))],
          ['Set-Cookie', `session=${latin1(auth.replace(/^Bearer /, ''))}; HttpOnly`],
          ['WWW-Authenticate', `Bearer error="invalid_token", token="${latin1(auth.replace(/^Bearer /, ''))}"`],
        ],
      };
    });
    return true;
  },
};
