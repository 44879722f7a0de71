// What a live server does at the transport level and the spec leaves open or does not mention: it limits the rate of
// requests ("Rate limits: not shown"), says in its 429 when to come back (or does not), and closes kept-alive
// connections. The run must survive all of it (src/http/transport.ts) and say in its notes what it met.
import type { ChoiceDef } from './types.js';

/** Requests per client per second under a rate limit. */
export const RATE_LIMIT_PER_SECOND = 60;

/**
 * Under a rate limit, the client's request at which its other callers (the quota is the client's, not the run's) have
 * spent the current second's quota: every run meets a 429 there, however fast or slow it sends, so what the run records
 * of the limit never depends on the speed of the machine.
 */
export const QUOTA_SPENT_AT_REQUEST = 100;

export const TRANSPORT_CHOICES = {
  rateLimit: {
    requirements: ['REQ-LIM-04'],
    basis:
      'What a 429 carries is not given either: RFC 9110 §10.2.3 lets Retry-After be delay-seconds or an HTTP-date, and RFC 6585 §4 makes it optional.',
    values: [
      { value: 'none', says: 'no rate limit', realizes: ['none'], recorded: 'throttling: none' },
      {
        value: '60-per-second',
        says: `at most ${RATE_LIMIT_PER_SECOND} requests per second per client (X-Client-Id, or the token request's clientId); past it a 429 with the error body and Retry-After in seconds; the client's other callers spend a second's quota at its ${QUOTA_SPENT_AT_REQUEST}th request, so a run meets a 429 however fast it sends`,
        realizes: ['a 429 under load, with Retry-After in seconds'],
        recorded: 'answered 429 \\(Too Many Requests\\) \\d+ time.*Retry-After in seconds',
      },
      {
        value: '60-per-second-date',
        says: `the same limit; a 429 carries Retry-After as an HTTP date`,
        realizes: ['a 429 under load, with Retry-After as an HTTP date'],
        recorded: 'answered 429 \\(Too Many Requests\\) \\d+ time.*Retry-After as an HTTP date',
      },
      {
        value: '60-per-second-no-retry-after',
        says: `the same limit; a 429 carries no Retry-After (the client backs off on its own)`,
        realizes: ['a 429 under load, without Retry-After'],
        recorded: 'answered 429 \\(Too Many Requests\\) \\d+ time.*Retry-After.*absent \\d+ time',
      },
      {
        value: '60-per-second-reset-header',
        says: `the same limit; a 429 carries no Retry-After but X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (when the window ends, in epoch seconds), which every other answer carries too`,
        realizes: [
          'a 429 under load, without Retry-After, with X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (epoch seconds), also on 2xx',
        ],
        recorded:
          'answered 429 \\(Too Many Requests\\) \\d+ time.*Retry-After.*absent \\d+ time.*until the time X-RateLimit-Reset named',
      },
    ],
  },
  connection: {
    requirements: [],
    basis:
      'The spec says nothing of connections; RFC 9112 §9.6: a server may close a persistent connection at any time, and a client must be ready to send its request again on a new one.',
    values: [
      {
        value: 'keep-alive',
        says: 'connections are kept alive between requests',
        realizes: [],
        recorded: 'kept alive; no answer carried Connection: close',
      },
      {
        value: 'close',
        says: 'every answer carries Connection: close and the server closes the connection after it',
        realizes: [],
        recorded: '\\d+ of \\d+ answers carried Connection: close',
      },
      {
        value: 'drop-idle',
        says: 'the server drops a kept-alive connection once it has answered on it: a client that sends another request on it gets a reset',
        realizes: [],
        recorded: 'sent once more on a new connection \\(a reconnect\\)',
      },
    ],
  },
} as const satisfies Record<string, ChoiceDef>;
