import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignedClient, ThrottledOut, TransportError } from '../../src/http/client.js';
import {
  backoffMs,
  BASE_BACKOFF_MS,
  Gate,
  MAX_BACKOFF_MS,
  parseRateLimitReset,
  parseRetryAfter,
  Transport,
  type Timers,
} from '../../src/http/transport.js';
import { verifySignature } from '../../src/http/signature.js';
import { generateEd25519 } from '../../src/http/keys.js';
import { headerValue } from '../../src/http/message.js';
import type { Exchange } from '../../src/http/exchange.js';
import { startEchoServer } from '../helpers/echo-server.js';

const key = generateEd25519();
const NOW = Date.UTC(2026, 10, 24, 10, 0, 0);

/** Time that moves only when the test says: waits resolve once `advance` passes their end. */
function manualTimers(start = NOW) {
  let now = start;
  const waiting: Array<{ at: number; resolve: () => void }> = [];
  const timers: Timers = {
    now: () => now,
    wait: (ms) => new Promise<void>((resolve) => waiting.push({ at: now + ms, resolve })),
  };
  const advance = async (ms: number) => {
    now += ms;
    for (const w of waiting.filter((w) => w.at <= now)) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
    // Let whatever the resolved waits unblock run up to its next wait.
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  return { timers, advance, pending: () => waiting.length };
}

/** Time that jumps forward by each wait at once, the system clock with it (so signatures are made later). */
function jumpingTimers(): Timers {
  return {
    now: () => Date.now(),
    wait: async (ms) => {
      vi.setSystemTime(Date.now() + ms);
    },
  };
}

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('1', NOW)).toEqual({ ms: 1000, form: 'seconds' });
    expect(parseRetryAfter(' 120 ', NOW)).toEqual({ ms: 120_000, form: 'seconds' });
    expect(parseRetryAfter('0', NOW)).toEqual({ ms: 0, form: 'seconds' });
  });

  it('reads an HTTP date (IMF-fixdate and the obsolete RFC 850 form) as the time left until it', () => {
    expect(parseRetryAfter(new Date(NOW + 2500).toUTCString(), NOW)).toEqual({ ms: 2000, form: 'http-date' }); // whole seconds
    expect(parseRetryAfter('Tue, 24 Nov 2026 10:00:03 GMT', NOW)).toEqual({ ms: 3000, form: 'http-date' });
    expect(parseRetryAfter('Tuesday, 24-Nov-26 10:00:05 GMT', NOW)).toEqual({ ms: 5000, form: 'http-date' });
  });

  it('reads a date in the past as no wait', () => {
    expect(parseRetryAfter('Tue, 24 Nov 2026 09:59:00 GMT', NOW)).toEqual({ ms: 0, form: 'http-date' });
  });

  it('ignores an absent, empty or malformed field', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter('', NOW)).toBeUndefined();
    expect(parseRetryAfter('-1', NOW)).toBeUndefined();
    expect(parseRetryAfter('1.5', NOW)).toBeUndefined();
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
  });
});

describe('parseRateLimitReset (a 429 without Retry-After)', () => {
  const at = (ms: number) => String((NOW + ms) / 1000);

  it('reads X-RateLimit-Reset in epoch seconds (Smartsheet, pyannote) as the time left until it', () => {
    expect(parseRateLimitReset(at(1000), NOW)).toEqual({ ms: 1000 });
    expect(parseRateLimitReset(` ${at(3000)} `, NOW)).toEqual({ ms: 3000 });
    // A fraction (epoch seconds with milliseconds) is read too; the wait is whole milliseconds.
    expect(parseRateLimitReset(at(1500), NOW)).toEqual({ ms: 1500 });
    expect(parseRateLimitReset(`${NOW / 1000 + 1}.2504`, NOW)).toEqual({ ms: 1251 });
  });

  it('waits no longer than the run backs off at most: a reset further off is left to the backoff', () => {
    expect(parseRateLimitReset(at(MAX_BACKOFF_MS), NOW)).toEqual({ ms: MAX_BACKOFF_MS });
    expect(parseRateLimitReset(at(MAX_BACKOFF_MS + 1000), NOW)).toBeUndefined();
    // A daily quota's window: hours away.
    expect(parseRateLimitReset(at(6 * 3600_000), NOW)).toBeUndefined();
  });

  it('ignores a time now past, and every other form: delta seconds, milliseconds, a date, nothing', () => {
    expect(parseRateLimitReset(String(NOW / 1000), NOW)).toBeUndefined();
    expect(parseRateLimitReset(at(-5000), NOW)).toBeUndefined();
    expect(parseRateLimitReset('2', NOW)).toBeUndefined();
    expect(parseRateLimitReset(String(NOW + 1000), NOW)).toBeUndefined();
    expect(parseRateLimitReset(new Date(NOW + 1000).toUTCString(), NOW)).toBeUndefined();
    expect(parseRateLimitReset(undefined, NOW)).toBeUndefined();
    expect(parseRateLimitReset('', NOW)).toBeUndefined();
  });
});

describe('backoffMs', () => {
  it('doubles from the base, jittered into the upper half of each step', () => {
    expect(backoffMs(0, 0)).toBe(BASE_BACKOFF_MS / 2);
    expect(backoffMs(0, 0.999999)).toBe(BASE_BACKOFF_MS);
    expect(backoffMs(1, 0)).toBe(BASE_BACKOFF_MS);
    expect(backoffMs(2, 0.5)).toBe(BASE_BACKOFF_MS * 3);
  });

  it('never exceeds its bound, however many attempts and whatever the jitter', () => {
    for (let attempt = 0; attempt < 200; attempt++) {
      for (const r of [0, 0.25, 0.5, 0.999999, 1, 7, -1]) {
        const ms = backoffMs(attempt, r);
        expect(ms).toBeGreaterThanOrEqual(BASE_BACKOFF_MS / 2);
        expect(ms).toBeLessThanOrEqual(MAX_BACKOFF_MS);
      }
    }
    expect(backoffMs(50, 0)).toBe(MAX_BACKOFF_MS / 2);
  });
});

describe('Gate', () => {
  it('holds every request while one was asked to wait, and lets them all through when the hold ends', async () => {
    const t = manualTimers();
    const gate = new Gate(t.timers);
    const passed: string[] = [];
    gate.hold(NOW + 1000);
    const a = gate.pass().then(() => passed.push('a'));
    const b = gate.pass().then(() => passed.push('b'));
    await t.advance(999);
    expect(passed).toEqual([]);
    await t.advance(1);
    await Promise.all([a, b]);
    expect(passed).toEqual(['a', 'b']);
  });

  it('keeps a waiting request back when the hold is extended while it waits, and counts overlapping holds once', async () => {
    const t = manualTimers();
    const gate = new Gate(t.timers);
    let through = false;
    gate.hold(NOW + 1000);
    const p = gate.pass().then(() => (through = true));
    gate.hold(NOW + 500); // an earlier end changes nothing
    await t.advance(600);
    gate.hold(NOW + 2000);
    await t.advance(400);
    expect(through).toBe(false);
    await t.advance(1000);
    await p;
    expect(through).toBe(true);
    expect(gate.heldMs).toBe(2000);
  });

  it('lets a request through at once when nothing holds it', async () => {
    const t = manualTimers();
    await new Gate(t.timers).pass();
    expect(t.pending()).toBe(0);
  });
});

describe('Transport: one finding for a server that never stops throttling', () => {
  it('waits as asked within the bound, then gives up once for the whole run with one reason and one note', () => {
    const t = manualTimers();
    const transport = new Transport({ timers: t.timers, boundMs: 5_000 });
    expect(transport.onThrottled('2', 0, NOW)).toEqual({ kind: 'wait', ms: 2000 });
    const first = transport.onThrottled('3600', 1, NOW);
    expect(first.kind).toBe('give-up');
    // A second request giving up later gets the same reason: the run has one finding, not one per check.
    const second = transport.onThrottled(undefined, 0, NOW);
    expect(second).toEqual(first);
    expect(transport.exhausted).toMatch(
      /^the server kept answering 429 .*asked to wait 3600 s more \(Retry-After: 3600\).*past the 5 s one request may be held back/,
    );
    const notes = transport.notes();
    expect(notes.filter((n) => /kept answering 429/.test(n))).toHaveLength(1);
    expect(notes.some((n) => /answered 429 \(Too Many Requests\) 3 time\(s\)/.test(n))).toBe(true);
  });

  it('never waits past the end of the run budget', () => {
    const t = manualTimers();
    const transport = new Transport({ timers: t.timers, deadline: NOW + 1_000 });
    const d = transport.onThrottled('2', 0, NOW);
    expect(d.kind).toBe('give-up');
    expect(transport.exhausted).toMatch(/^the server answered 429 .*past the end of the run's budget \(--budget\)/);
  });

  it('without Retry-After waits until a near X-RateLimit-Reset, backs off otherwise, and says how often it did which', () => {
    const t = manualTimers();
    const transport = new Transport({ timers: t.timers, random: () => 0 });
    const reset = String((NOW + 700) / 1000);
    expect(transport.onThrottled(undefined, 0, NOW, reset)).toEqual({ kind: 'wait', ms: 700 });
    // Retry-After wins where both are sent: it is the standard field.
    expect(transport.onThrottled('2', 0, NOW, reset)).toEqual({ kind: 'wait', ms: 2000 });
    expect(transport.onThrottled(undefined, 1, NOW, String((NOW + 60_000) / 1000))).toEqual({
      kind: 'wait',
      ms: backoffMs(1, 0),
    });
    expect(transport.resetWaits).toBe(1);
    expect(transport.notes()[0]).toMatch(
      /Retry-After in seconds 1 time\(s\), absent 2 time\(s\) \(the run waited 1 time\(s\) until the time X-RateLimit-Reset named, in epoch seconds, and backed off exponentially, with jitter, the others\)$/,
    );
    const every = new Transport({ timers: t.timers });
    every.onThrottled(undefined, 0, NOW, reset);
    expect(every.notes()[0]).toMatch(
      /Retry-After absent 1 time\(s\) \(each time the run waited until the time X-RateLimit-Reset named, in epoch seconds\)$/,
    );
  });

  it('backs off when the server asks for no wait at all, so the run does not hammer it', () => {
    const t = manualTimers();
    const transport = new Transport({ timers: t.timers, random: () => 0 });
    expect(transport.onThrottled('0', 3, NOW)).toEqual({ kind: 'wait', ms: backoffMs(3, 0) });
  });

  it('says when there was no throttling and the connections were kept alive', () => {
    expect(new Transport().notes()).toEqual([
      'throttling: none; no request of the run was answered 429',
      'connections: kept alive; no answer carried Connection: close; no connection was lost before an answer',
    ]);
  });
});

describe('SignedClient under throttling and lost connections', () => {
  let cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanup.reverse()) await c();
    cleanup = [];
    vi.useRealTimers();
  });

  async function setup(
    handler: Parameters<typeof startEchoServer>[0],
    transport: ConstructorParameters<typeof Transport>[0] = {},
  ) {
    const server = await startEchoServer(handler);
    const client = new SignedClient({
      baseUrl: `${server.origin}/v1`,
      clientId: 'acme',
      keyId: 'acme-key',
      privateKey: key.seed,
      transport,
    });
    cleanup.push(
      () => client.close(),
      () => server.close(),
    );
    return { server, client };
  }

  it('waits a 429 out as Retry-After asks and sends the request again, signed afresh, keeping its idempotency key', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    let n = 0;
    const { server, client } = await setup(
      (_req, res) => {
        n += 1;
        if (n === 1) {
          res.writeHead(429, { 'retry-after': '2', 'content-type': 'application/json' });
          res.end('{"code":"429","message":"Too Many Requests"}');
        } else res.end('{"data":{},"code":"200","message":"Success"}');
      },
      { timers: jumpingTimers() },
    );
    const seen: Exchange[] = [];
    const res = await client.send(
      { method: 'PUT', path: '/customers/7', json: { firstName: 'A' }, token: 'tok' },
      (e) => seen.push(e),
    );
    expect(res.status).toBe(200);
    // The check sees only the answer that let it through.
    expect(seen.map((e) => e.response?.status)).toEqual([200]);
    const [first, second] = server.received;
    expect(headerValue(second!.headers, 'x-idempotency-key')).toBe(headerValue(first!.headers, 'x-idempotency-key'));
    const created = (r: typeof first) =>
      verifySignature(
        { method: r!.method, url: `${server.origin}${r!.url}`, headers: r!.headers },
        { key: key.publicKeyPem, now: NOW / 1000 + 2 },
      ).params!.created;
    expect(Number(created(second)) - Number(created(first))).toBe(2);
    expect(client.transport.throttled).toBe(1);
    expect(client.transport.notes()[0]).toMatch(
      /answered 429 \(Too Many Requests\) 1 time\(s\); the run was held back 2 s in all.*Retry-After in seconds 1 time\(s\)/,
    );
  });

  it('reads X-RateLimit-Reset off the 429 it got, where no Retry-After came', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    let n = 0;
    const waits: number[] = [];
    const timers: Timers = {
      now: () => Date.now(),
      wait: (ms) => {
        waits.push(ms);
        vi.setSystemTime(Date.now() + ms);
        return Promise.resolve();
      },
    };
    const { client } = await setup(
      (_req, res) => {
        n += 1;
        if (n === 1) {
          res.writeHead(429, {
            'x-ratelimit-limit': '60',
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String((NOW + 1000) / 1000),
          });
          res.end('{"code":"429","message":"Too Many Requests"}');
        } else res.end('{"data":{},"code":"200","message":"Success"}');
      },
      { timers },
    );
    const res = await client.send({ method: 'GET', path: '/accounts', token: 'tok' });
    expect(res.status).toBe(200);
    expect(waits).toEqual([1000]);
    expect(client.transport.notes()[0]).toMatch(/until the time X-RateLimit-Reset named/);
  });

  it('gives up with ThrottledOut past the bound, for that request and every later one, without sending them', async () => {
    const { server, client } = await setup(
      (_req, res) => {
        res.writeHead(429, { 'retry-after': '3600' });
        res.end('{"code":"429","message":"Too Many Requests"}');
      },
      { timers: jumpingTimers(), boundMs: 10_000 },
    );
    await expect(client.send({ method: 'GET', path: '/instruments', token: 'tok' })).rejects.toBeInstanceOf(
      ThrottledOut,
    );
    await expect(client.send({ method: 'GET', path: '/accounts', token: 'tok' })).rejects.toThrow(/kept answering 429/);
    expect(server.received).toHaveLength(1);
  });

  it('sends a request once more on a new connection when the kept-alive one was reset before any answer', async () => {
    let n = 0;
    const { server, client } = await setup((req, res) => {
      n += 1;
      if (n === 2) {
        res.socket?.resetAndDestroy();
        return;
      }
      res.end('{"ok":true}');
    });
    expect((await client.send({ method: 'GET', path: '/a', token: 'tok' })).status).toBe(200);
    const res = await client.send({ method: 'POST', path: '/b', json: {}, token: 'tok' });
    expect(res.status).toBe(200);
    expect(server.received).toHaveLength(3);
    expect(headerValue(server.received[2]!.headers, 'x-idempotency-key')).toBe(
      headerValue(server.received[1]!.headers, 'x-idempotency-key'),
    );
    expect(client.transport.reconnects).toBe(1);
    expect(client.transport.notes()[1]).toMatch(
      /closed a kept-alive connection before answering 1 time\(s\).*a new connection \(a reconnect\)/,
    );
  });

  it('sends only once more: a connection lost twice is a TransportError', async () => {
    const { server, client } = await setup((_req, res) => res.socket?.resetAndDestroy());
    await expect(client.send({ method: 'GET', path: '/a', token: 'tok' })).rejects.toBeInstanceOf(TransportError);
    expect(server.received).toHaveLength(2);
  });

  it('leaves a 5xx to the check', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(503, { 'retry-after': '1' });
      res.end('{}');
    });
    expect((await client.send({ method: 'GET', path: '/a', token: 'tok' })).status).toBe(503);
    expect(client.transport.throttled).toBe(0);
  });
});
