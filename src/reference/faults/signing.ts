// Faults of request signing and content digests, and the tools the auth faults share with them. Most deviations are
// "a server that skips one step": a request the strict server rejects is authenticated again under a relaxed state
// (policy, clock or key lookup) and served when that passes. Where AuthPolicy has a switch for the whole deviation,
// the fault is that switch.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { parseDictionary, serializeDictionary } from 'structured-headers';
import { firstSignatureInput, verifySignatureAsync, PROFILE_COMPONENTS } from '../../http/signature.js';
import { verifyContentDigest } from '../../http/digest.js';
import { headerValue, setHeader } from '../../http/message.js';
import { AuthError, digestAlgorithms, requiredComponents, targetCovered, timeRules, verifiedMessage } from '../auth.js';
import type { AuthPolicy } from '../auth-policy.js';
import type { ClientRegistry, RegisteredClient } from '../clients.js';
import { nowSeconds, type Middleware, type RequestContext, type RouteDef, type ServerState } from '../context.js';
import { idempotencyKeyOf, isMutating } from '../idempotency.js';
import { authenticate, serveAuthenticated } from '../pipeline.js';
import type { IssuedToken } from '../tokens.js';
import type { RejectionCode } from '../rejection.js';
import { fail, HttpError, type Reply } from '../respond.js';
import type { FaultDefinition } from './types.js';

// ---- shared tools -------------------------------------------------------------------------------------------------

type Relax = (ctx: RequestContext, state: ServerState) => ServerState;

export function isBearerRoute(route: RouteDef): boolean {
  return (route.auth ?? 'bearer') === 'bearer';
}

/** Authenticates the way the route does, under `state`; false on a rejection. */
export async function authenticates(route: RouteDef, ctx: RequestContext, state: ServerState): Promise<boolean> {
  try {
    await authenticate(route, ctx, state);
    return true;
  } catch (e) {
    if (e instanceof HttpError) return false;
    throw e;
  }
}

/** A server that skips one step: a request rejected with 401 where `applies` holds is authenticated again under `relax`, and served if that passes. */
export function acceptWhen(
  applies: (ctx: RequestContext, route: RouteDef, state: ServerState) => boolean,
  relax: Relax,
): Middleware {
  return async (ctx, state, route, next) => {
    const reply = await next();
    if (reply.status !== 401 || !applies(ctx, route, state)) return reply;
    return (await authenticates(route, ctx, relax(ctx, state))) ? serveAuthenticated(ctx, state, route) : reply;
  };
}

export function relaxPolicy(change: Partial<AuthPolicy>): Relax {
  return (_ctx, state) => ({ ...state, policy: { ...state.policy, ...change } });
}

/** The registry with one method replaced; everything else (the clients themselves) is the real registry's. */
export function registryWith(
  clients: ClientRegistry,
  override: Partial<Pick<ClientRegistry, 'keyFor' | 'secretMatches'>>,
): ClientRegistry {
  return Object.assign(Object.create(clients) as ClientRegistry, override);
}

/**
 * The signature (by `client`'s key, every carried profile header and the target covered, within its time window),
 * the body's digest and the idempotency header of a mutating request, checked as strictly as auth.ts does (with the
 * server's choices of REQ-AUTH-13 and REQ-HDR-09): for faults that skip some other step only.
 */
export async function signedRequestHolds(
  ctx: RequestContext,
  state: ServerState,
  client: RegisteredClient,
): Promise<boolean> {
  const policy = state.policy;
  const verdict = await verifySignatureAsync(verifiedMessage(ctx, state), {
    key: (keyId) => state.clients.keyFor(client, keyId),
    requiredComponents: requiredComponents(ctx),
    ...timeRules(state),
  });
  if (!verdict.ok) return false;
  if (!targetCovered(ctx, state, verdict.components ?? [])) return false;
  if (
    policy.requireIdempotencyKey &&
    isMutating(ctx.method) &&
    idempotencyKeyOf(ctx.headers, state.choices.idempotencyIdSpelling === 'accepted').kind !== 'ok'
  )
    return false;
  const digest = headerValue(ctx.headers, 'content-digest');
  return (
    (ctx.body.length === 0 && digest === undefined) ||
    verifyContentDigest(digest, ctx.body, { algorithms: digestAlgorithms(state) }).ok
  );
}

interface ParsedInput {
  label: string;
  components: string[];
  params: Map<string, unknown>;
}

/** The first signature's input, parsed as a structured dictionary; undefined when absent or malformed. */
function signatureInputOf(ctx: RequestContext): ParsedInput | undefined {
  const first = firstSignatureInput(headerValue(ctx.headers, 'signature-input'));
  return first && { label: first.label, components: first.items.map(([name]) => String(name)), params: first.params };
}

function numericParam(ctx: RequestContext, name: 'created' | 'expires'): number | undefined {
  const value = signatureInputOf(ctx)?.params.get(name);
  return typeof value === 'number' ? value : undefined;
}

export function hasSignatureHeaders(ctx: RequestContext): boolean {
  return (
    headerValue(ctx.headers, 'signature') !== undefined && headerValue(ctx.headers, 'signature-input') !== undefined
  );
}

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerOf(ctx: RequestContext): string | undefined {
  const field = headerValue(ctx.headers, 'authorization')?.trim();
  if (field === undefined || field.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  const token = field.slice(7).trim();
  return token === '' ? undefined : token;
}

function unauthorized(ctx: RequestContext, code: RejectionCode, reason: string): Reply {
  const error = new AuthError(code, reason);
  ctx.rejection = error.rejection;
  return error.toReply();
}

// ---- the signing faults -------------------------------------------------------------------------------------------

/** Per server: what the signature cache fault remembers. */
const signatureCaches = new WeakMap<
  ServerState,
  Map<string, { client: RegisteredClient; token: IssuedToken | undefined; until: number }>
>();
const SIGNATURE_CACHE_LIMIT = 1000;

export const signingFaults: FaultDefinition[] = [
  {
    name: 'signing.signature-not-verified',
    suite: 'signing',
    // Verifying nothing, it honours no keyid, no created, no label and no coverage rule either.
    breaks: ['REQ-SVC-09', 'REQ-AUTH-17', 'REQ-AUTH-09', 'REQ-HDR-06', 'REQ-HDR-18'],
    description: 'signatures are not verified at all: missing, altered or foreign signatures all pass',
    policy: { verifySignatures: false },
  },
  {
    name: 'signing.signature-optional',
    suite: 'signing',
    breaks: ['REQ-SVC-09'],
    description:
      'a request that lacks Signature or Signature-Input is served as unsigned; only a complete pair is verified',
    middleware: acceptWhen(
      (ctx, route) => isBearerRoute(route) && !hasSignatureHeaders(ctx),
      relaxPolicy({ verifySignatures: false }),
    ),
  },
  {
    name: 'signing.keyid-ignored',
    suite: 'signing',
    breaks: ['REQ-AUTH-17'],
    description: "the client's registered key verifies the signature whatever keyid the Signature-Input names",
    middleware: acceptWhen(
      (_ctx, route) => isBearerRoute(route),
      (_ctx, state) => ({ ...state, clients: registryWith(state.clients, { keyFor: (client) => client.key }) }),
    ),
  },
  {
    name: 'signing.expired-accepted',
    suite: 'signing',
    breaks: ['REQ-AUTH-09'],
    description: 'expires is not checked: a signature is judged as if it arrived at the moment it expired',
    middleware: acceptWhen(
      (ctx, _route, state) => {
        const expires = numericParam(ctx, 'expires');
        return expires !== undefined && expires < nowSeconds(state);
      },
      (ctx, state) => ({ ...state, clock: () => numericParam(ctx, 'expires')! * 1000 }),
    ),
  },
  {
    name: 'signing.future-created-accepted',
    suite: 'signing',
    breaks: ['REQ-AUTH-09'],
    description:
      'a created time in the future is not checked: the signature is judged as if it arrived when it says it was made',
    middleware: acceptWhen(
      (ctx, _route, state) => {
        const created = numericParam(ctx, 'created');
        return created !== undefined && created > nowSeconds(state);
      },
      (ctx, state) => ({ ...state, clock: () => numericParam(ctx, 'created')! * 1000 }),
    ),
  },
  {
    name: 'signing.partial-coverage-accepted',
    suite: 'signing',
    breaks: ['REQ-HDR-18'],
    description: 'a signature is accepted whatever it covers: carried headers and the target may be left out',
    policy: { requireFullCoverage: false },
  },
  {
    name: 'signing.target-not-covered-accepted',
    suite: 'signing',
    breaks: ['REQ-HDR-18'],
    description: 'a signature that covers neither @target-uri nor @path is accepted (it is then valid on any path)',
    middleware: acceptWhen(
      (ctx, route) => {
        const input = signatureInputOf(ctx);
        return (
          isBearerRoute(route) &&
          input !== undefined &&
          !input.components.includes('@target-uri') &&
          !input.components.includes('@path')
        );
      },
      relaxPolicy({ requireFullCoverage: false }),
    ),
  },
  {
    name: 'signing.digest-coverage-not-required',
    suite: 'signing',
    breaks: ['REQ-HDR-18'],
    description:
      'a signature need not cover Content-Digest: the digest is compared with the body, but anyone may replace both',
    middleware: acceptWhen(
      (ctx, route, state) => {
        const input = signatureInputOf(ctx);
        if (!isBearerRoute(route) || input === undefined || input.components.includes('content-digest')) return false;
        return (
          targetCovered(ctx, state, input.components) &&
          requiredComponents(ctx).every((c) => c === 'content-digest' || input.components.includes(c))
        );
      },
      relaxPolicy({ requireFullCoverage: false }),
    ),
  },
  {
    name: 'signing.verified-signature-cache',
    suite: 'signing',
    breaks: ['REQ-SVC-09'],
    description:
      'authentication results are cached by Signature and Signature-Input: a signature that passed once is accepted again on any request until it expires',
    async middleware(ctx, state, route, next) {
      const signature = headerValue(ctx.headers, 'signature');
      const input = headerValue(ctx.headers, 'signature-input');
      if (signature === undefined || input === undefined || !isBearerRoute(route)) return next();
      let cache = signatureCaches.get(state);
      if (!cache) signatureCaches.set(state, (cache = new Map()));
      const key = `${input}\n${signature}`;
      const hit = cache.get(key);
      if (hit && hit.until >= nowSeconds(state)) {
        ctx.client = hit.client;
        if (hit.token) ctx.token = hit.token;
        return serveAuthenticated(ctx, state, route);
      }
      const reply = await next();
      if (ctx.client !== undefined && reply.status !== 401) {
        cache.set(key, {
          client: ctx.client,
          token: ctx.token,
          until: numericParam(ctx, 'expires') ?? nowSeconds(state) + 300,
        });
        while (cache.size > SIGNATURE_CACHE_LIMIT) cache.delete(cache.keys().next().value!);
      }
      return reply;
    },
  },
  {
    name: 'signing.body-applied-before-verification',
    suite: 'signing',
    breaks: ['REQ-SVC-09'],
    description:
      'a mutating request is carried out before its signature and digest are checked: a tampered body is rejected with 401, but applied',
    async middleware(ctx, state, route, next) {
      const reply = await next();
      if (reply.status !== 401 || !isMutating(ctx.method) || !isBearerRoute(route) || route.path.startsWith('/oauth/'))
        return reply;
      const client = state.clients.get(headerValue(ctx.headers, 'x-client-id')?.trim() ?? '');
      if (client === undefined) return reply;
      ctx.client = client;
      try {
        await route.handler(ctx, state);
      } catch {
        // The body may not even be valid: such a server fails the same way, after the fact.
      }
      return reply;
    },
  },
  {
    name: 'signing.digest-not-verified',
    suite: 'signing',
    breaks: ['REQ-SVC-09', 'REQ-HDR-23'],
    description: 'Content-Digest is neither required nor compared with the body',
    policy: { verifyContentDigest: false },
  },
  {
    name: 'signing.digest-optional',
    suite: 'signing',
    breaks: ['REQ-HDR-23'],
    description: 'a body without Content-Digest is accepted; a digest that is sent is still compared',
    middleware: acceptWhen(
      (ctx, route) =>
        isBearerRoute(route) && ctx.body.length > 0 && headerValue(ctx.headers, 'content-digest') === undefined,
      relaxPolicy({ verifyContentDigest: false }),
    ),
  },
  {
    name: 'signing.malformed-input-crash',
    suite: 'signing',
    breaks: ['REQ-SVC-09'],
    description: 'a Signature-Input that is not a structured dictionary makes the server fail with 500',
    async middleware(ctx, _state, _route, next) {
      const field = headerValue(ctx.headers, 'signature-input');
      if (field !== undefined) {
        try {
          parseDictionary(field);
        } catch {
          ctx.rejection = { code: 'INTERNAL_SERVER_ERROR', reason: 'internal error: unparsable Signature-Input' };
          return fail(500);
        }
      }
      return next();
    },
  },
  {
    name: 'signing.label-mismatch-accepted',
    suite: 'signing',
    breaks: ['REQ-HDR-06'],
    description: 'when each field holds one member, the signature is paired with the input whatever their labels',
    async middleware(ctx, _state, _route, next) {
      const input = headerValue(ctx.headers, 'signature-input');
      const signature = headerValue(ctx.headers, 'signature');
      if (input !== undefined && signature !== undefined) {
        try {
          const inputs = parseDictionary(input);
          const signatures = parseDictionary(signature);
          const [inputLabel] = inputs.keys();
          const [signatureLabel] = signatures.keys();
          if (
            inputs.size === 1 &&
            signatures.size === 1 &&
            inputLabel !== undefined &&
            signatureLabel !== undefined &&
            inputLabel !== signatureLabel
          ) {
            setHeader(
              ctx.headers,
              'Signature',
              serializeDictionary(new Map([[inputLabel, signatures.get(signatureLabel)!]])),
            );
          }
        } catch {
          // Malformed fields are left for authentication to reject.
        }
      }
      return next();
    },
  },
  {
    name: 'signing.fixed-component-order',
    suite: 'signing',
    breaks: ['REQ-SVC-09', 'REQ-CUSTEP-02'],
    description:
      "the signature base is built in the server's own component order (@method first), not in the order Signature-Input lists",
    async middleware(ctx, _state, _route, next) {
      const input = signatureInputOf(ctx);
      if (input !== undefined) {
        const ranks = input.components
          .map((c) => (PROFILE_COMPONENTS as readonly string[]).indexOf(c.toLowerCase()))
          .filter((r) => r >= 0);
        if (ranks.some((r, i) => i > 0 && r < ranks[i - 1]!))
          return unauthorized(ctx, 'SIGNATURE_INVALID', 'the signature does not verify against the signature base');
      }
      return next();
    },
  },
];

// ---- for the auth faults ------------------------------------------------------------------------------------------

let placeholderKey: KeyObject | undefined;

/** A client the registry does not know, for the fault that issues tokens to anyone. */
export function phantomClient(clientId: string): RegisteredClient {
  placeholderKey ??= generateKeyPairSync('ed25519').publicKey;
  return {
    clientId,
    keyId: `${clientId}-key`,
    key: placeholderKey,
    organization: { id: 0, name: clientId, clientId },
    trustedIps: [],
    secretHash: Buffer.alloc(32),
  };
}
