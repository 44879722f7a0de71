import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import {
  RateLimiter,
  rateLimitFields,
  rateLimitOf,
  retryAfterOf,
  throttledReply,
} from '../../src/reference/throttle.js';
import { startReferenceServer } from '../../src/reference/server.js';
import { generateEd25519 } from '../../src/http/keys.js';

const NOW = Date.UTC(2026, 10, 24, 10, 0, 0, 250);
let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

describe('the reference server rate limit', () => {
  it('counts per client in each second of the clock, and a new second starts afresh', () => {
    let now = NOW;
    const limiter = new RateLimiter(2, () => now);
    const resetAt = NOW - 250 + 1000;
    expect(limiter.take('a')).toEqual({ allowed: true, remaining: 1, resetAt });
    expect(limiter.take('a')).toEqual({ allowed: true, remaining: 0, resetAt });
    expect(limiter.take('b')).toEqual({ allowed: true, remaining: 1, resetAt });
    expect(limiter.take('a')).toEqual({ allowed: false, remaining: 0, resetAt });
    now += 750;
    expect(limiter.take('a')).toEqual({ allowed: true, remaining: 1, resetAt: resetAt + 1000 });
  });

  it("finds a client's quota spent by its other callers at its request numbered spentAt, once, whatever the pace", () => {
    let now = NOW;
    const limiter = new RateLimiter(60, () => now, 3);
    const resetAt = NOW - 250 + 1000;
    expect(limiter.take('a').allowed).toBe(true);
    now += 1000;
    expect(limiter.take('b').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(true);
    // The third of a, a second later than its first: its own count is 1, but the window's quota is gone.
    expect(limiter.take('a')).toEqual({ allowed: false, remaining: 0, resetAt: resetAt + 1000 });
    expect(limiter.take('b').allowed).toBe(true);
    now += 1000;
    expect([limiter.take('a'), limiter.take('a')].map((t) => t.allowed)).toEqual([true, true]);
  });

  it('answers 429 with the error body and Retry-After as chosen', () => {
    const resetAt = NOW - 250 + 1000;
    expect(throttledReply(resetAt, NOW, 'seconds', 60)).toEqual({
      status: 429,
      body: { code: '429', message: 'Too Many Requests: at most 60 requests per second per client' },
      headers: { 'retry-after': '1' },
    });
    expect(throttledReply(resetAt, NOW, 'http-date', 60).headers).toEqual({
      'retry-after': 'Tue, 24 Nov 2026 10:00:01 GMT',
    });
    expect(throttledReply(resetAt, NOW, 'absent', 60).headers).toEqual({});
    // Smartsheet's reading: no Retry-After, the window's fields instead, its end in epoch seconds.
    expect(throttledReply(resetAt, NOW, 'reset-header', 60).headers).toEqual({
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String((NOW - 250 + 1000) / 1000),
    });
    expect(rateLimitFields(60, 59, resetAt)).toEqual({
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '59',
      'x-ratelimit-reset': String((NOW - 250 + 1000) / 1000),
    });
  });

  it('is off by default and on with every limited reading, each with its own Retry-After', () => {
    expect(rateLimitOf({ rateLimit: 'none' })).toBeUndefined();
    expect(rateLimitOf({ rateLimit: '60-per-second' })).toBe(60);
    expect(rateLimitOf({ rateLimit: '60-per-second-no-retry-after' })).toBe(60);
    expect(retryAfterOf({ rateLimit: '60-per-second' })).toBe('seconds');
    expect(retryAfterOf({ rateLimit: '60-per-second-date' })).toBe('http-date');
    expect(retryAfterOf({ rateLimit: '60-per-second-no-retry-after' })).toBe('absent');
    expect(rateLimitOf({ rateLimit: '60-per-second-reset-header' })).toBe(60);
    expect(retryAfterOf({ rateLimit: '60-per-second-reset-header' })).toBe('reset-header');
  });

  it('with rate-limit=60-per-second-reset-header sends the X-RateLimit fields on every answer it counts, not only on its 429s', async () => {
    const key = generateEd25519();
    const server = await startReferenceServer({
      clients: [{ clientId: 'c', clientSecret: 's', keyId: 'k', publicKey: key.publicKey }],
      rateLimitPerSecond: 2,
      clock: () => NOW,
      choices: { rateLimit: '60-per-second-reset-header' },
    });
    cleanup.push(() => server.close());
    const reset = String((NOW - 250 + 1000) / 1000);
    const get = async () => {
      const res = await request(`${server.baseUrl}/instruments?investmentType=INTERNATIONAL_STOCKS`, {
        headers: { 'x-client-id': 'c' },
      });
      await res.body.text();
      return [
        res.statusCode,
        res.headers['retry-after'],
        res.headers['x-ratelimit-limit'],
        res.headers['x-ratelimit-remaining'],
        res.headers['x-ratelimit-reset'],
      ];
    };
    // Unauthenticated, so a 401: the limiter counts every request, and every answer to a counted one carries the fields.
    expect(await get()).toEqual([401, undefined, '2', '1', reset]);
    expect(await get()).toEqual([401, undefined, '2', '0', reset]);
    expect(await get()).toEqual([429, undefined, '2', '0', reset]);
  });

  it('throttles the token request by its form clientId, over the wire', async () => {
    const key = generateEd25519();
    const server = await startReferenceServer({
      clients: [{ clientId: 'c', clientSecret: 's', keyId: 'k', publicKey: key.publicKey }],
      rateLimitPerSecond: 1,
      clock: () => NOW,
      choices: { rateLimit: '60-per-second-date' },
    });
    cleanup.push(() => server.close());
    const post = () =>
      request(`${server.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'clientId=c&clientSecret=s',
      });
    const first = await post();
    await first.body.text();
    expect(first.statusCode).not.toBe(429);
    const second = await post();
    expect(second.statusCode).toBe(429);
    expect(second.headers['retry-after']).toBe('Tue, 24 Nov 2026 10:00:01 GMT');
    expect(await second.body.json()).toEqual({
      code: '429',
      message: 'Too Many Requests: at most 1 requests per second per client',
    });
  });
});

describe('the reference server connections', () => {
  it('with connection=close ends every answer with Connection: close', async () => {
    const key = generateEd25519();
    const server = await startReferenceServer({
      clients: [{ clientId: 'c', clientSecret: 's', keyId: 'k', publicKey: key.publicKey }],
      choices: { connection: 'close' },
    });
    cleanup.push(() => server.close());
    const res = await request(`${server.baseUrl}/instruments`);
    await res.body.text();
    expect(res.headers.connection).toBe('close');
  });
});
