// The unit of "Unix timestamp" (REQ-CUST-09): the spec names none, and servers count seconds (POSIX time) or
// milliseconds (JavaScript and Java clocks). The store keeps seconds; the server shows every createdAt and updatedAt it
// writes (resources, token records, webhooks, event payloads) in the chosen unit (views.ts inTimestampUnit).
import type { ChoiceDef } from './types.js';

export const TIMESTAMPS_CHOICES = {
  timestampUnit: {
    requirements: ['REQ-CUST-09'],
    values: [
      {
        value: 'seconds',
        says: 'createdAt, updatedAt (and event times) count seconds since 1970',
        realizes: ['seconds'],
        recorded: 'Unix timestamps count seconds',
      },
      {
        value: 'milliseconds',
        says: 'createdAt, updatedAt (and event times) count milliseconds since 1970',
        realizes: ['milliseconds'],
        recorded: 'Unix timestamps count milliseconds',
      },
    ],
  },
} as const satisfies Record<string, ChoiceDef>;
