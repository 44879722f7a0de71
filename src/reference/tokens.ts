// Access tokens: issue, look up, revoke, expire. Time comes from the injected clock so tests can expire a token
// without waiting an hour.
import { randomBytes, randomUUID } from 'node:crypto';
import type { RegisteredClient } from './clients.js';

/** "Access token TTL: 60 minutes" (spec, Limits). maxTTL reports the same value: the spec leaves its meaning open. */
const TOKEN_TTL_SECONDS = 3600;
/** Past this many live tokens the oldest are dropped, so a client looping on /oauth/token cannot exhaust memory. */
const MAX_TOKENS = 10_000;
const EXPIRED_RETENTION_MS = 24 * 3600 * 1000;

export interface IssuedToken {
  tokenId: string;
  token: string;
  clientId: string;
  issuedAtMs: number;
  expiresAtMs: number;
  /** Authentication 6: "every token has both" read and write. */
  scopes: readonly string[];
}

/** The spec's "Auth token record". */
export interface TokenRecord {
  message: string;
  tokenId: string;
  token: string;
  expiresIn: number;
  maxTTL: number;
  tokenType: 'Bearer';
  scope: string[];
  trustedIps: string[];
  organization: { id: number; name: string; clientId: string };
  createdAt: number;
  updatedAt: number;
}

/** What a presented token is, for the rejection's code: the sandbox says which of these a refused token was. */
export type TokenLookup =
  | { state: 'live' | 'expired'; token: IssuedToken }
  | { state: 'revoked'; /** "revoked", "replaced by a newer token"… */ why: string }
  | { state: 'unknown' };

export class TokenStore {
  private readonly byToken = new Map<string, IssuedToken>();
  /** Tokens ended by a revocation (or a newer token), with why and when: a sandbox tells them from unknown ones. */
  private readonly ended = new Map<string, { why: string; atMs: number }>();

  constructor(private readonly clock: () => number) {}

  /** A new token; `endOlder` (choice newToken=ends-older) first deletes every other token of the client. */
  issue(client: RegisteredClient, options: { endOlder?: boolean } = {}): IssuedToken {
    const now = this.clock();
    this.prune(now);
    if (options.endOlder) this.revokeClient(client.clientId, 'ended when a newer token was issued to its client');
    const issued: IssuedToken = {
      tokenId: randomUUID(),
      // 32 random bytes: 256 bits, as unguessable as the client secret it stands in for.
      token: randomBytes(32).toString('base64url'),
      clientId: client.clientId,
      issuedAtMs: now,
      expiresAtMs: now + TOKEN_TTL_SECONDS * 1000,
      scopes: ['read', 'write'],
    };
    this.byToken.set(issued.token, issued);
    while (this.byToken.size > MAX_TOKENS) {
      const oldest = this.byToken.keys().next().value;
      if (oldest === undefined) break;
      this.byToken.delete(oldest);
    }
    return issued;
  }

  /** A live token, or undefined when unknown, revoked or expired. */
  find(token: string): IssuedToken | undefined {
    const issued = this.byToken.get(token);
    if (issued === undefined) return undefined;
    return this.clock() >= issued.expiresAtMs ? undefined : issued;
  }

  /** Live, expired (kept a day), revoked (remembered as long, for the rejection's code) or unknown. */
  lookup(token: string): TokenLookup {
    const issued = this.byToken.get(token);
    if (issued !== undefined) return { state: this.clock() >= issued.expiresAtMs ? 'expired' : 'live', token: issued };
    const ended = this.ended.get(token);
    return ended !== undefined ? { state: 'revoked', why: ended.why } : { state: 'unknown' };
  }

  /** Deletes the token ("token deleted", spec Token lifecycle): it authenticates nothing any more, like an unknown one. */
  revoke(token: string, why = 'revoked (POST /oauth/revoke)'): boolean {
    if (!this.byToken.delete(token)) return false;
    this.remember(token, why);
    return true;
  }

  /** Deletes every token of the client (choice revoke=all-tokens, newToken=ends-older); returns those deleted. */
  revokeClient(clientId: string, why = 'revoked with every token of its client (POST /oauth/revoke)'): IssuedToken[] {
    const ended = [...this.byToken.values()].filter((t) => t.clientId === clientId);
    for (const t of ended) this.revoke(t.token, why);
    return ended;
  }

  /** Forgets every token issued, as a server that restarts and keeps its tokens in memory does (choice tokenRestart). */
  forgetAll(): void {
    this.byToken.clear();
    this.ended.clear();
  }

  private remember(token: string, why: string): void {
    this.ended.set(token, { why, atMs: this.clock() });
    while (this.ended.size > MAX_TOKENS) {
      const oldest = this.ended.keys().next().value;
      if (oldest === undefined) break;
      this.ended.delete(oldest);
    }
  }

  record(issued: IssuedToken, client: RegisteredClient): TokenRecord {
    const createdAt = Math.floor(issued.issuedAtMs / 1000);
    return {
      message: 'Access token created',
      tokenId: issued.tokenId,
      token: issued.token,
      expiresIn: Math.max(0, Math.floor((issued.expiresAtMs - this.clock()) / 1000)),
      maxTTL: TOKEN_TTL_SECONDS,
      tokenType: 'Bearer',
      scope: [...issued.scopes],
      trustedIps: [...client.trustedIps],
      organization: { ...client.organization },
      createdAt,
      updatedAt: createdAt,
    };
  }

  /** Expired tokens are kept a day (so a fault that ignores expiry has something to accept), then dropped; so are revoked ones. */
  private prune(now: number): void {
    for (const [token, issued] of this.byToken) {
      if (now >= issued.expiresAtMs + EXPIRED_RETENTION_MS) this.byToken.delete(token);
    }
    for (const [token, ended] of this.ended) {
      if (now >= ended.atMs + EXPIRED_RETENTION_MS) this.ended.delete(token);
    }
  }
}
