// A rate limit as live servers have one (choice rateLimit; "Rate limits: not shown"): at most N
// requests per client in each second (a fixed window aligned to the clock's seconds, so an HTTP date can name its end),
// past it a 429 with the spec's error body and, as chosen, a Retry-After in seconds, as a date, or none; or none but
// the X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (epoch seconds) fields, on every answer (Smartsheet).
import type { Middleware, RequestContext } from './context.js';
import type { Choices } from './choices/index.js';
import { RATE_LIMIT_PER_SECOND } from './choices/transport.js';
import { fail, type Reply } from './respond.js';

export type RetryAfterStyle = 'seconds' | 'http-date' | 'absent' | 'reset-header';

/** The limit the choices set, or undefined when there is none. */
export function rateLimitOf(choices: Pick<Choices, 'rateLimit'>): number | undefined {
  return choices.rateLimit === 'none' ? undefined : RATE_LIMIT_PER_SECOND;
}

/** What the 429s of the chosen limit carry. */
export function retryAfterOf(choices: Pick<Choices, 'rateLimit'>): RetryAfterStyle {
  return choices.rateLimit === '60-per-second-date'
    ? 'http-date'
    : choices.rateLimit === '60-per-second-no-retry-after'
      ? 'absent'
      : choices.rateLimit === '60-per-second-reset-header'
        ? 'reset-header'
        : 'seconds';
}

/** Who a request counts against: its X-Client-Id, else the token request's form clientId, else its address. */
function clientKeyOf(ctx: RequestContext): string {
  const header = ctx.headers.find(([name]) => name.toLowerCase() === 'x-client-id')?.[1];
  if (header) return `id:${header}`;
  const type = ctx.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  if (ctx.body.length > 0 && /application\/x-www-form-urlencoded/i.test(type)) {
    const form = new URLSearchParams(ctx.body.toString('utf8')).get('clientId');
    if (form) return `id:${form}`;
  }
  return `addr:${ctx.remoteAddress ?? '?'}`;
}

/**
 * Counts requests per client in the current second; `take` says whether one more fits, and when the window ends. With
 * `spentAt`, a client's request of that number finds the second's quota spent by the client's other callers.
 */
export class RateLimiter {
  private window = -1;
  private readonly counts = new Map<string, number>();
  private readonly totals = new Map<string, number>();

  constructor(
    readonly perSecond: number,
    private readonly clock: () => number,
    private readonly spentAt?: number,
  ) {}

  take(key: string): { allowed: boolean; remaining: number; resetAt: number } {
    const now = this.clock();
    const window = Math.floor(now / 1000);
    // A new second forgets the last one: the map never holds more than one window's clients.
    if (window !== this.window) {
      this.window = window;
      this.counts.clear();
    }
    const total = (this.totals.get(key) ?? 0) + 1;
    this.totals.set(key, total);
    if (total === this.spentAt) this.counts.set(key, this.perSecond);
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return {
      allowed: count <= this.perSecond,
      remaining: Math.max(0, this.perSecond - count),
      resetAt: (window + 1) * 1000,
    };
  }
}

/** The X-RateLimit-* fields of an answer (style reset-header): the limit, what is left of it, when the window ends. */
export function rateLimitFields(perSecond: number, remaining: number, resetAt: number): Record<string, string> {
  return {
    'x-ratelimit-limit': String(perSecond),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(Math.ceil(resetAt / 1000)),
  };
}

/** The 429 of a client over its limit: the spec's error body, and Retry-After as the server's choice says. */
export function throttledReply(resetAt: number, now: number, style: RetryAfterStyle, perSecond: number): Reply {
  const headers: Record<string, string> =
    style === 'seconds'
      ? { 'retry-after': String(Math.max(1, Math.ceil((resetAt - now) / 1000))) }
      : style === 'http-date'
        ? { 'retry-after': new Date(resetAt).toUTCString() }
        : style === 'reset-header'
          ? rateLimitFields(perSecond, 0, resetAt)
          : {};
  return fail(429, `Too Many Requests: at most ${perSecond} requests per second per client`, headers);
}

/**
 * Outermost: a throttled request is refused before anything else looks at it. `onThrottled` learns which client was
 * told to wait, and until when (what the server holds for the client, e.g. a delivery, waits as long).
 */
export function throttleMiddleware(
  limiter: RateLimiter,
  style: RetryAfterStyle,
  onThrottled?: (clientId: string, until: number) => void,
): Middleware {
  return async (ctx, state, _route, next) => {
    const key = clientKeyOf(ctx);
    const verdict = limiter.take(key);
    if (verdict.allowed) {
      const reply = await next();
      if (style !== 'reset-header') return reply;
      return {
        ...reply,
        headers: { ...reply.headers, ...rateLimitFields(limiter.perSecond, verdict.remaining, verdict.resetAt) },
      };
    }
    if (key.startsWith('id:')) onThrottled?.(key.slice('id:'.length), verdict.resetAt);
    ctx.rejection = {
      code: 'TOO_MANY_REQUESTS',
      reason: `rate limit: at most ${limiter.perSecond} requests per second per client`,
    };
    return throttledReply(verdict.resetAt, state.clock(), style, limiter.perSecond);
  };
}
