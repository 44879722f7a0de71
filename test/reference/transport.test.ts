import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { RateLimiter, rateLimitOf, retryAfterOf, throttledReply } from '../../src/reference/throttle.js';
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
    expect(limiter.take('a')).toEqual({ allowed: true });
    expect(limiter.take('a')).toEqual({ allowed: true });
    expect(limiter.take('b')).toEqual({ allowed: true });
    expect(limiter.take('a')).toEqual({ allowed: false, resetAt: NOW - 250 + 1000 });
    now += 750;
    expect(limiter.take('a')).toEqual({ allowed: true });
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
  });

  it('is off by default and on with every limited reading, each with its own Retry-After', () => {
    expect(rateLimitOf({ rateLimit: 'none' })).toBeUndefined();
    expect(rateLimitOf({ rateLimit: '60-per-second' })).toBe(60);
    expect(rateLimitOf({ rateLimit: '60-per-second-no-retry-after' })).toBe(60);
    expect(retryAfterOf({ rateLimit: '60-per-second' })).toBe('seconds');
    expect(retryAfterOf({ rateLimit: '60-per-second-date' })).toBe('http-date');
    expect(retryAfterOf({ rateLimit: '60-per-second-no-retry-after' })).toBe('absent');
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
