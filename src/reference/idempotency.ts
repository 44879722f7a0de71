// Idempotency of mutating requests. The spec requires the key on POST/PUT/PATCH/DELETE and leaves the behaviour on a
// repeat open ("not shown"); this server follows draft-ietf-httpapi-idempotency-key-header: the same key with the same
// request replays the first response without executing again, the same key with a different request is a 422, and a
// key whose first request is still running is a 409.
import { createHash } from 'node:crypto';
import { headerValues } from '../http/message.js';
import type { Choices } from './choices/index.js';
import { fail, type Reply } from './respond.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
const DEFAULT_MAX_KEYS = 10_000;
/** How long a key is remembered; past it the key is new again. */
const DEFAULT_KEY_TTL_MS = 24 * 3600 * 1000;

export function isMutating(method: string): boolean {
  return MUTATING.has(method.toUpperCase());
}

export type IdempotencyKey = { kind: 'ok'; key: string } | { kind: 'missing' } | { kind: 'invalid'; reason: string };

/**
 * The request's key: X-Idempotency-Key (the signed component name) or, unless `idSpelling` is false
 * (`idempotencyIdSpelling=refused`, REQ-HDR-14), X-Idempotency-Id (the spelling in the customer update description).
 * Both may be sent only with the same value.
 */
export function idempotencyKeyOf(headers: ReadonlyArray<readonly [string, string]>, idSpelling = true): IdempotencyKey {
  const values = [
    ...headerValues(headers, 'x-idempotency-key'),
    ...(idSpelling ? headerValues(headers, 'x-idempotency-id') : []),
  ].map((v) => v.trim());
  if (values.length === 0) return { kind: 'missing' };
  const key = values[0]!;
  if (values.some((v) => v !== key)) return { kind: 'invalid', reason: 'the idempotency headers carry different keys' };
  if (key === '') return { kind: 'invalid', reason: 'the idempotency key is empty' };
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH)
    return { kind: 'invalid', reason: `the idempotency key is longer than ${MAX_IDEMPOTENCY_KEY_LENGTH} characters` };
  return { kind: 'ok', key };
}

interface Entry {
  fingerprint: string;
  storedAtMs: number;
  /** Undefined while the first request is still being handled. */
  reply?: Reply;
}

export class IdempotencyCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: () => number,
    private readonly maxKeys = DEFAULT_MAX_KEYS,
    private readonly ttlMs = DEFAULT_KEY_TTL_MS,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /**
   * Runs `execute` once per (client, key). Replies of 5xx are not kept: the request did not complete, a retry with the
   * same key must be able to succeed.
   */
  async run(
    clientId: string,
    key: string,
    fingerprint: string,
    execute: () => Promise<Reply>,
    repeat: Choices['idempotencyRepeat'] = 'replay',
  ): Promise<Reply> {
    // `new`: keys are not remembered, every request is carried out (REQ-HDR-19 leaves the repeat open).
    if (repeat === 'new') return execute();
    const id = `${clientId}\u0000${key}`;
    const now = this.clock();
    const existing = this.entries.get(id);
    if (existing !== undefined && now - existing.storedAtMs < this.ttlMs) {
      if (repeat === 'refuse') return fail(409, 'Conflict: this idempotency key was already used');
      if (existing.fingerprint !== fingerprint)
        return fail(422, 'Unprocessable Content: the idempotency key was used for a different request');
      if (existing.reply === undefined)
        return fail(409, 'Conflict: a request with this idempotency key is still in progress');
      return replayed(existing.reply);
    }
    this.entries.delete(id);
    const entry: Entry = { fingerprint, storedAtMs: now };
    this.entries.set(id, entry);
    this.evict();
    let reply: Reply;
    try {
      reply = await execute();
    } catch (e) {
      this.entries.delete(id);
      throw e;
    }
    if (reply.status >= 500) this.entries.delete(id);
    else entry.reply = structuredClone(reply);
    return reply;
  }

  private evict(): void {
    // Map iteration follows insertion order, so the first keys are the oldest.
    for (const id of this.entries.keys()) {
      if (this.entries.size <= this.maxKeys) break;
      this.entries.delete(id);
    }
  }
}

function replayed(reply: Reply): Reply {
  const copy = structuredClone(reply);
  return { ...copy, headers: { ...copy.headers, 'idempotent-replayed': 'true' } };
}

/** What makes two requests "the same request": method, target path and query, and body bytes. */
export function requestFingerprint(ctx: { method: string; url: URL; body: Buffer }): string {
  return createHash('sha256')
    .update(`${ctx.method.toUpperCase()} ${ctx.url.pathname}${ctx.url.search}\n`)
    .update(ctx.body)
    .digest('base64url');
}
