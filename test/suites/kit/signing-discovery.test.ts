// The run learns the signing profile a server takes when it opens (REQ-AUTH-13 "not shown"): a token request refused
// in the default shape (a 60 s window over @method @target-uri @path @query) is tried again with shorter windows and
// other components, at most 8 token requests, and the first shape that gets a token signs the run. What the target's
// config fixes is never varied; when no shape gets a token the error names what was tried, and a wrong secret still
// reads as a credentials problem.
import { afterEach, describe, expect, it } from 'vitest';
import { clientFor } from '../../../src/engine/index.js';
import { TargetError } from '../../../src/errors.js';
import { generateEd25519 } from '../../../src/http/keys.js';
import { startReferenceServer, type ReferenceServer } from '../../../src/reference/server.js';
import type { AuthPolicy } from '../../../src/reference/auth-policy.js';
import type { Choices } from '../../../src/reference/choices/index.js';
import type { ResolvedTarget } from '../../../src/config/types.js';
import type { SigningProfile } from '../../../src/http/signature.js';
import { Session } from '../../../suites/kit/session.js';
import { MAX_SIGNING_SHAPES, signingShapes } from '../../../suites/kit/signing-profile.js';

const key = generateEd25519();
const SECRET = 'discovery-secret';
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** A reference server with one client, its authentication policy and choices as given; it counts token requests. */
async function server(options: { auth?: Partial<AuthPolicy>; choices?: Partial<Choices> } = {}) {
  const tokenRequests: Array<{ status: number; code?: string }> = [];
  const started: ReferenceServer = await startReferenceServer({
    clients: [{ clientId: 'acme', clientSecret: SECRET, keyId: 'acme-key', publicKey: key.publicKey, name: 'Acme' }],
    ...options,
    log: (entry) => {
      if (entry.target.endsWith('/oauth/token'))
        tokenRequests.push({ status: entry.status, ...(entry.code !== undefined ? { code: entry.code } : {}) });
    },
  });
  stops.push(() => started.close());
  return { baseUrl: started.baseUrl, tokenRequests };
}

function targetOf(baseUrl: string, change: Partial<ResolvedTarget> = {}): ResolvedTarget {
  return {
    name: 't',
    baseUrl,
    clientId: 'acme',
    clientSecret: SECRET,
    keyId: 'acme-key',
    privateKeyPem: key.privateKeyPem,
    privateKey: key.seed,
    fixtures: {},
    webhook: { listen: '127.0.0.1:0', tls: 'none' },
    ...change,
  };
}

/** Opens the run's session against the target: the token request(s), and with them the profile. */
async function open(target: ResolvedTarget) {
  const client = clientFor(target);
  const session = new Session(client, target.clientSecret, () => undefined);
  stops.push(async () => {
    await session.close();
    await client.close();
  });
  const error = await session.open().then(
    () => undefined,
    (e: unknown) => e,
  );
  return { client, session, error };
}

const profile = (windowSeconds: number, components: SigningProfile['components']): SigningProfile => ({
  windowSeconds,
  components,
  label: 'sig1',
});
const BOTH = ['@method', '@target-uri', '@path', '@query'] as const;
const PATH_QUERY = ['@method', '@path', '@query'] as const;
const URI = ['@method', '@target-uri'] as const;

describe('the shapes a run tries', () => {
  it('are the default, then one change (30 s, 10 s, @path+@query, @target-uri), then both changes, at most 8', () => {
    expect(signingShapes({})).toEqual([
      profile(60, BOTH),
      profile(30, BOTH),
      profile(10, BOTH),
      profile(60, PATH_QUERY),
      profile(60, URI),
      profile(30, PATH_QUERY),
      profile(10, PATH_QUERY),
      profile(30, URI),
    ]);
    expect(signingShapes({})).toHaveLength(MAX_SIGNING_SHAPES);
  });

  it('never vary what the config fixes', () => {
    expect(signingShapes({ windowSeconds: 45, label: 'req' })).toEqual([
      { windowSeconds: 45, components: [...BOTH], label: 'req' },
      { windowSeconds: 45, components: [...PATH_QUERY], label: 'req' },
      { windowSeconds: 45, components: [...URI], label: 'req' },
    ]);
    expect(signingShapes({ components: PATH_QUERY })).toEqual([
      profile(60, PATH_QUERY),
      profile(30, PATH_QUERY),
      profile(10, PATH_QUERY),
    ]);
    expect(signingShapes({ windowSeconds: 20, components: URI, label: 'sig1' })).toEqual([profile(20, URI)]);
  });
});

describe('a run opening against a server', () => {
  it('that refuses windows longer than 30 s: signs the run with a 30 s window, after one refusal, and says so', async () => {
    const { baseUrl, tokenRequests } = await server({ auth: { maxSignatureWindowSeconds: 30, skewSeconds: 0 } });
    const { client, session, error } = await open(targetOf(baseUrl));
    expect(error).toBeUndefined();
    expect(tokenRequests).toEqual([{ status: 401, code: 'SIGNATURE_WINDOW_TOO_LONG' }, { status: 200 }]);
    expect(client.signing).toEqual(profile(30, BOTH));
    expect(session.signing?.refused.map((r) => [r.profile.windowSeconds, r.status])).toEqual([[60, 401]]);
    expect(session.notes()[0]).toBe(
      'signing: the server took sig1 over @method @target-uri @path @query with a 30 s window (the headers each request carries covered too), and every request of the run was signed so; refused first: sig1 over @method @target-uri @path @query with a 60 s window (401, code "SIGNATURE_WINDOW_TOO_LONG", message "Unauthorized"); set `signing` in the target\'s config to skip this search',
    );
    // Every later request is signed so, and taken.
    const read = await client.send({
      method: 'GET',
      path: '/instruments',
      query: { investmentType: 'INTERNATIONAL_STOCKS' },
      token: await session.token(),
    });
    expect(read.status).toBe(200);
  });

  it('that verifies only @path and @query (behind a TLS-terminating proxy): signs the run over them', async () => {
    const { baseUrl, tokenRequests } = await server({ choices: { signatureTarget: 'path-query' } });
    const { client, session, error } = await open(targetOf(baseUrl));
    expect(error).toBeUndefined();
    expect(tokenRequests.map((r) => r.status)).toEqual([401, 401, 401, 200]);
    expect(client.signing).toEqual(profile(60, PATH_QUERY));
    expect(session.notes()[0]).toMatch(
      /^signing: the server took sig1 over @method @path @query with a 60 s window .*; refused first: sig1 over @method @target-uri @path @query with a 60, 30 or 10 s window \(401, code "SIGNATURE_INVALID", message "Unauthorized"\);/,
    );
  });

  it('that takes the default shape: one token request, and the note says the default was taken', async () => {
    const { baseUrl, tokenRequests } = await server();
    const { client, session, error } = await open(targetOf(baseUrl));
    expect(error).toBeUndefined();
    expect(tokenRequests).toEqual([{ status: 200 }]);
    expect(client.signing).toEqual(profile(60, BOTH));
    expect(session.notes()[0]).toBe(
      'signing: the server took sig1 over @method @target-uri @path @query with a 60 s window (the headers each request carries covered too) at the first token request (the default profile)',
    );
  });

  it('that refuses every shape (a wrong secret): 8 token requests, and the error reads as a credentials problem naming what was tried', async () => {
    const { baseUrl, tokenRequests } = await server();
    const { error } = await open(targetOf(baseUrl, { clientSecret: 'not-the-secret' }));
    expect(error).toBeInstanceOf(TargetError);
    expect((error as TargetError).code).toBe('CONFORMANCE_ERR_NO_TOKEN');
    expect(tokenRequests).toHaveLength(MAX_SIGNING_SHAPES);
    expect(new Set(tokenRequests.map((r) => r.code))).toEqual(new Set(['CLIENT_SECRET_WRONG']));
    expect((error as TargetError).message).toBe(
      `no token: POST ${baseUrl}/oauth/token answered 401 (the server said: code "CLIENT_SECRET_WRONG", message "Unauthorized"); check clientId, clientSecret, keyId and the private key of this target: every signing shape tried was refused with 401, the same answer each time (window 60/30/10 s; over @target-uri with @path+@query, @path+@query alone, @target-uri alone; label sig1; 8 token requests); if they are right, set \`signing\` in the target's config to a shape the server takes`,
    );
  });

  it('that refuses every shape with answers that differ by shape: the error says the shape matters, and how to set one', async () => {
    // Windows of at most 30 s, over @path and @query only, and a config that keeps @target-uri: nothing tried is taken.
    const { baseUrl } = await server({
      auth: { maxSignatureWindowSeconds: 30, skewSeconds: 0 },
      choices: { signatureTarget: 'path-query' },
    });
    const { error } = await open(targetOf(baseUrl, { signing: { components: URI } }));
    expect((error as TargetError).message).toBe(
      `no token: POST ${baseUrl}/oauth/token answered 401 (the server said: code "SIGNATURE_WINDOW_TOO_LONG", message "Unauthorized") to the first signing shape, and every other shape tried was refused too, with answers that differ by shape (window 60/30/10 s; over @target-uri alone; label sig1; 3 token requests; the last, sig1 over @method @target-uri with a 10 s window: 401, code "SIGNATURE_INVALID", message "Unauthorized"): set \`signing\` in the target's config to a shape the server takes, or check clientId, clientSecret, keyId and the private key of this target`,
    );
  });

  it("whose shape the config gives in full: no search, one token request, and a refusal names the config's shape", async () => {
    const { baseUrl, tokenRequests } = await server({ choices: { signatureTarget: 'path-query' } });
    const signing = { windowSeconds: 20, components: PATH_QUERY, label: 'sig1' };
    const taken = await open(targetOf(baseUrl, { signing }));
    expect(taken.error).toBeUndefined();
    expect(taken.client.signing).toEqual(profile(20, PATH_QUERY));
    expect(taken.session.notes()[0]).toBe(
      "signing: sig1 over @method @path @query with a 20 s window (the headers each request carries covered too), as the target's config sets it",
    );
    expect(tokenRequests).toHaveLength(1);

    const refused = await open(targetOf(baseUrl, { signing: { ...signing, components: URI } }));
    expect(tokenRequests).toHaveLength(2);
    expect((refused.error as TargetError).message).toMatch(
      /answered 401 \(the server said: code "SIGNATURE_INVALID", message "Unauthorized"\); check clientId, clientSecret, keyId and the private key of this target \(signed as the target's config sets: sig1 over @method @target-uri with a 20 s window\)$/,
    );
  });

  it('whose window the config gives: only the components are searched, the window never shortened', async () => {
    const { baseUrl, tokenRequests } = await server({ auth: { maxSignatureWindowSeconds: 30, skewSeconds: 0 } });
    const { error, client } = await open(targetOf(baseUrl, { signing: { windowSeconds: 45 } }));
    expect(tokenRequests.map((r) => r.code)).toEqual([
      'SIGNATURE_WINDOW_TOO_LONG',
      'SIGNATURE_WINDOW_TOO_LONG',
      'SIGNATURE_WINDOW_TOO_LONG',
    ]);
    expect((error as TargetError).message).toContain(
      'every signing shape tried was refused with 401, the same answer each time (window 45 s; over @target-uri with @path+@query, @path+@query alone, @target-uri alone; label sig1; 3 token requests)',
    );
    expect(client.signing.windowSeconds).toBe(45);
  });
});
