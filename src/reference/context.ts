// The types every part of the reference server shares: what a handler sees of a request, the server's state, and how
// routes and middleware are declared. Kept apart from server.ts so routes do not import the server.
import type { HttpMessage } from '../http/message.js';
import type { AuthPolicy } from './auth-policy.js';
import type { ClientRegistry, RegisteredClient } from './clients.js';
import type { EventBus } from './events.js';
import type { FaultFlags } from './faults/flags.js';
import type { IdempotencyCache } from './idempotency.js';
import type { Rejection } from './rejection.js';
import type { Reply } from './respond.js';
import type { Choices } from './choices/index.js';
import type { ReferenceStore } from './store.js';
import type { IssuedToken, TokenStore } from './tokens.js';
import type { WebhookService } from './webhooks/service.js';

export interface RequestContext {
  /** Sequence number of the request since start: correlates log lines. */
  readonly seq: number;
  readonly method: string;
  /** The target URI as the server reconstructs it (`http://<Host><request-target>`): what @target-uri covers. */
  readonly targetUri: string;
  readonly url: URL;
  /**
   * Where the client addressed the server when a proxy in front took a path prefix off (trustForwarded), e.g.
   * `https://api.example/api`: what the server's own links start with. Absent: `url.origin`.
   */
  readonly base?: string;
  readonly query: URLSearchParams;
  /** Header fields in arrival order, names as sent. */
  readonly headers: Array<[string, string]>;
  /** The raw body; empty when there is none. */
  readonly body: Buffer;
  readonly remoteAddress: string | undefined;
  /** Path parameters of the matched route. */
  params: Record<string, string>;
  /** Set by authentication. */
  client?: RegisteredClient;
  /** Set by bearer authentication: the token the request presented. */
  token?: IssuedToken;
  /** Why the request was rejected: the rule's code, the reason and maybe the signature base (for the log and header). */
  rejection?: Rejection;
}

export function asHttpMessage(ctx: RequestContext): HttpMessage {
  return { method: ctx.method, url: ctx.targetUri, headers: ctx.headers };
}

export interface ServerState {
  readonly store: ReferenceStore;
  readonly clients: ClientRegistry;
  readonly tokens: TokenStore;
  readonly idempotency: IdempotencyCache;
  readonly events: EventBus;
  readonly policy: AuthPolicy;
  /** Milliseconds since the epoch. */
  readonly clock: () => number;
  /** How the open choices of the spec are made (see choices/). */
  readonly choices: Choices;
  /** Active faults that routes implement themselves (see faults/catalog.ts); empty on a clean server. */
  readonly faults: FaultFlags;
  /** Webhook configurations per client, their signing keys, and delivery of events to them. */
  readonly webhooks: WebhookService;
}

export function nowSeconds(state: ServerState): number {
  return Math.floor(state.clock() / 1000);
}

type Handler = (ctx: RequestContext, state: ServerState) => Reply | Promise<Reply>;

/**
 * How a route authenticates: `bearer` (token + X-Client-Id + signature, every endpoint but the token request),
 * `client-credentials` (the token request: signature by the key of the form's clientId), `none` (nothing; for
 * later endpoints that need it, e.g. a health probe).
 */
type AuthMode = 'bearer' | 'client-credentials' | 'none';

export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Relative to /v1, e.g. `/customers/:customerId`. */
  path: string;
  auth?: AuthMode;
  handler: Handler;
}

/**
 * Wraps the handling of a routed request (after body read and routing). The fault catalog plugs in here: a fault
 * can rewrite the reply, skip a step by not calling `next`, or change the context first.
 */
export type Middleware = (
  ctx: RequestContext,
  state: ServerState,
  route: RouteDef,
  next: () => Promise<Reply>,
) => Promise<Reply>;
