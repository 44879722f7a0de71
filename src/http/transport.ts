// What a live server does at the transport level that no check should have to see: it throttles (429, "Rate limits:
// not shown") and it closes kept-alive connections (RFC 9112 §9.6: a server may close a persistent connection at any
// time). The signed client waits a 429 out as the server asks and sends the request again, and sends a request whose
// connection was lost before any answer once more on a new connection; this module holds the rules it follows and what
// it met, for the run's notes. The ideas follow undici's retry handler (Retry-After as seconds or a date, exponential
// backoff otherwise); none of its code. Without Retry-After, a near X-RateLimit-Reset in epoch seconds is waited for.

/** Without Retry-After, the first wait; each further one doubles, up to MAX_BACKOFF_MS. */
export const BASE_BACKOFF_MS = 250;
export const MAX_BACKOFF_MS = 8_000;
/**
 * How long one request may be held back by 429s in all before the run gives up on the server: well under a check's own
 * time limit (60 s), so a server that never stops throttling ends in one finding for the run, not in a time-out per check.
 */
const DEFAULT_THROTTLE_BOUND_MS = 30_000;

export type RetryAfterForm = 'seconds' | 'http-date';

/**
 * The wait a Retry-After field asks for (RFC 9110 §10.2.3: delay-seconds or an HTTP-date), from `now`; undefined when
 * the field is absent or neither form. A date in the past asks for no wait.
 */
export function parseRetryAfter(
  value: string | undefined,
  now: number,
): { ms: number; form: RetryAfterForm } | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return { ms: Number(text) * 1000, form: 'seconds' };
  // An HTTP-date names a day of the week and a GMT time; Date.parse reads IMF-fixdate and the two obsolete forms.
  if (!/[a-z]{3}/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return { ms: Math.max(0, at - now), form: 'http-date' };
}

/**
 * The wait an X-RateLimit-Reset field asks for, from `now`, when a 429 carries no Retry-After; undefined when it is absent,
 * in another form, or names a time past or further than MAX_BACKOFF_MS ahead. The field is no standard: epoch seconds
 * is the form found (Smartsheet, pyannote, GitHub: "in UTC epoch seconds"), and others write delta seconds, milliseconds
 * or a date. Only a value that reads as epoch seconds (10 digits, a fraction allowed) is taken, and only for a wait the
 * run's own backoff could have chosen: a reset further off (a daily quota's window) is backed off as without it, so a
 * misread field can neither hold the run longer than its backoff nor make it give up.
 */
export function parseRateLimitReset(value: string | undefined, now: number): { ms: number } | undefined {
  const text = value?.trim();
  if (!text || !/^\d{10}(\.\d+)?$/.test(text)) return undefined;
  const ms = Math.ceil(Number(text) * 1000) - now;
  return ms > 0 && ms <= MAX_BACKOFF_MS ? { ms } : undefined;
}

/**
 * The wait before attempt `attempt` + 1 when the server said nothing: doubling from BASE_BACKOFF_MS, bounded by
 * MAX_BACKOFF_MS, and jittered into the upper half of that step so that requests throttled together do not all come back
 * at the same instant. `random` is in [0, 1).
 */
export function backoffMs(attempt: number, random: number = Math.random()): number {
  const step = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** Math.max(0, attempt));
  return Math.round(step / 2 + (step / 2) * Math.min(Math.max(random, 0), 1));
}

export interface Timers {
  now(): number;
  /** Resolves after `ms`, or rejects when `signal` aborts. */
  wait(ms: number, signal?: AbortSignal): Promise<void>;
}

const REAL_TIMERS: Timers = {
  now: () => Date.now(),
  wait: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/**
 * One gate for every request to the target: while the server has asked one request to wait, the others wait too, so a
 * throttled run does not keep sending what the server will only refuse.
 */
export class Gate {
  private resumeAt = 0;
  /** How long the gate was held in all (overlapping holds count once): how long the run was throttled. */
  heldMs = 0;
  constructor(private readonly timers: Timers = REAL_TIMERS) {}

  /** Holds every request until `until` (ms since the epoch); a later hold wins, an earlier one changes nothing. */
  hold(until: number): void {
    const from = Math.max(this.resumeAt, this.timers.now());
    if (until > from) this.heldMs += until - from;
    this.resumeAt = Math.max(this.resumeAt, until);
  }

  /** Resolves once the gate is open, waiting again if it was held further while this request waited. */
  async pass(signal?: AbortSignal): Promise<void> {
    for (let left = this.resumeAt - this.timers.now(); left > 0; left = this.resumeAt - this.timers.now()) {
      await this.timers.wait(left, signal);
    }
  }
}

// The server kept answering 429 past what the run may wait: an error with a code, so it lives with the others.
export { ThrottledOut } from '../errors.js';

export interface TransportOptions {
  timers?: Timers;
  /** How long one request may be held back by 429s in all (default DEFAULT_THROTTLE_BOUND_MS). */
  boundMs?: number;
  /** When the run's budget ends (ms since the epoch): no wait goes past it. */
  deadline?: number;
  random?: () => number;
  /** What the run says of the route to the target (a proxy, a client certificate): ./route.ts's notes. */
  route?: readonly string[];
}

/** The decision on one 429: how long to wait before sending again, or why not to. */
export type ThrottleDecision = { kind: 'wait'; ms: number } | { kind: 'give-up'; reason: string };

/** The transport rules of one target, and what the run met: 429s and their waits, lost connections, Connection: close. */
export class Transport {
  readonly gate: Gate;
  readonly timers: Timers;
  private readonly boundMs: number;
  deadline: number | undefined;
  private readonly random: () => number;
  private readonly route: readonly string[];
  /** Set once the run gave up on a throttling server: every request after it fails at once with this reason. */
  exhausted: string | undefined;
  throttled = 0;
  longestWaitMs = 0;
  readonly forms: Record<RetryAfterForm | 'absent', number> = { seconds: 0, 'http-date': 0, absent: 0 };
  /** 429s without Retry-After whose X-RateLimit-Reset the run waited for. */
  resetWaits = 0;
  reconnects = 0;
  answers = 0;
  closingAnswers = 0;

  constructor(options: TransportOptions = {}) {
    this.timers = options.timers ?? REAL_TIMERS;
    this.gate = new Gate(this.timers);
    this.boundMs = options.boundMs ?? DEFAULT_THROTTLE_BOUND_MS;
    this.deadline = options.deadline;
    this.random = options.random ?? Math.random;
    this.route = options.route ?? [];
  }

  /**
   * A request drew a 429 (its `attempt`th, from 0; throttled since `since`): wait as Retry-After asks (without it, until a
   * near X-RateLimit-Reset), or back off, and hold every other request for as long; give up when the wait would pass the
   * bound or the run's budget, and from then on for the whole run (one finding, not one per check).
   */
  onThrottled(
    retryAfter: string | undefined,
    attempt: number,
    since: number,
    rateLimitReset?: string,
  ): ThrottleDecision {
    const now = this.timers.now();
    this.throttled += 1;
    if (this.exhausted !== undefined) return { kind: 'give-up', reason: this.exhausted };
    const asked = parseRetryAfter(retryAfter, now);
    this.forms[asked?.form ?? 'absent'] += 1;
    const reset = asked === undefined ? parseRateLimitReset(rateLimitReset, now) : undefined;
    if (reset !== undefined) this.resetWaits += 1;
    // Retry-After: 0 (or a date now past) would have the run hammer the server; back off then too.
    const ms = asked && asked.ms > 0 ? asked.ms : (reset?.ms ?? backoffMs(attempt, this.random()));
    const held = now + ms - since;
    let reason: string | undefined;
    if (held > this.boundMs) {
      const asking = asked
        ? `asked to wait ${formatSeconds(asked.ms)} more (Retry-After: ${retryAfter!.trim()})`
        : 'kept answering 429';
      reason = `the server kept answering 429 (Too Many Requests): after ${formatSeconds(now - since)} of waiting it ${asking}, past the ${formatSeconds(this.boundMs)} one request may be held back; the checks left were not judged`;
    } else if (this.deadline !== undefined && now + ms > this.deadline) {
      reason = `the server answered 429 (Too Many Requests) and asked to wait ${formatSeconds(ms)}, past the end of the run's budget (--budget); the checks left were not judged`;
    }
    if (reason !== undefined) {
      this.exhausted ??= reason;
      return { kind: 'give-up', reason: this.exhausted };
    }
    this.longestWaitMs = Math.max(this.longestWaitMs, ms);
    this.gate.hold(now + ms);
    return { kind: 'wait', ms };
  }

  /** An answer came (the last of its request); counts those that end their connection. */
  onAnswer(connection: string | undefined): void {
    this.answers += 1;
    if (connection !== undefined && /(^|,)\s*close\s*(,|$)/i.test(connection)) this.closingAnswers += 1;
  }

  onReconnect(): void {
    this.reconnects += 1;
  }

  /**
   * What the run says about throttling and connections: always both, so a report records which the server did; the
   * route first when it is not the default (a proxy set, a client certificate).
   */
  notes(): string[] {
    const throttling =
      this.throttled === 0
        ? 'throttling: none; no request of the run was answered 429'
        : `throttling: the server answered 429 (Too Many Requests) ${this.throttled} time(s); the run was held back ${formatSeconds(this.gate.heldMs)} in all (longest wait ${formatSeconds(this.longestWaitMs)}), every request waiting while one did, and each throttled request was sent again; Retry-After ${describeForms(this.forms, this.resetWaits)}`;
    const connections = [
      this.closingAnswers === 0
        ? `connections: kept alive; no answer carried Connection: close`
        : `connections: ${this.closingAnswers} of ${this.answers} answers carried Connection: close`,
      this.reconnects === 0
        ? 'no connection was lost before an answer'
        : `the server closed a kept-alive connection before answering ${this.reconnects} time(s); each time the request was sent once more on a new connection (a reconnect)`,
    ].join('; ');
    return [...this.route, ...(this.exhausted ? [`throttling: ${this.exhausted}`] : []), throttling, connections];
  }
}

function describeForms(forms: Record<RetryAfterForm | 'absent', number>, resetWaits = 0): string {
  const absent =
    resetWaits === 0
      ? '(the run backed off exponentially, with jitter)'
      : resetWaits === forms.absent
        ? '(each time the run waited until the time X-RateLimit-Reset named, in epoch seconds)'
        : `(the run waited ${resetWaits} time(s) until the time X-RateLimit-Reset named, in epoch seconds, and backed off exponentially, with jitter, the others)`;
  const parts = [
    forms.seconds > 0 ? `in seconds ${forms.seconds} time(s)` : '',
    forms['http-date'] > 0 ? `as an HTTP date ${forms['http-date']} time(s)` : '',
    forms.absent > 0 ? `absent ${forms.absent} time(s) ${absent}` : '',
  ].filter(Boolean);
  return parts.join(', ');
}

function formatSeconds(ms: number): string {
  return `${+(ms / 1000).toFixed(1)} s`;
}
