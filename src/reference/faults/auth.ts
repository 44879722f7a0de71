import type { FaultDefinition } from './types.js';
import { isRoute, mapData, rewriteSuccess, without } from './reply-rewrites.js';

const tokenReply = isRoute('/oauth/token', 'POST');

export const authFaults: FaultDefinition[] = [
  {
    name: 'auth.token-type-lowercase',
    suite: 'auth',
    violates: 'Auth token record: tokenType — Authorization type; always `Bearer`',
    description: 'the token record says tokenType "bearer"',
    middleware: rewriteSuccess(tokenReply, (r) => mapData(r, (rec) => ({ ...rec, tokenType: 'bearer' }))),
  },
  {
    name: 'auth.token-record-incomplete',
    suite: 'auth',
    violates: 'POST /oauth/token — Result: an auth token record (fields above)',
    description: 'the token record has no maxTTL',
    middleware: rewriteSuccess(tokenReply, (r) => mapData(r, (rec) => without(rec, 'maxTTL'))),
  },
];
