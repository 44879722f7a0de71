// The revoke shape (REQ-TOKEP-09, "Request body and response body of revoke: not shown"): the run learns at its first
// revocation whether POST /oauth/revoke takes the token from Authorization alone, a form body token= (RFC 7009) or a
// JSON body {"token"}, learns it once even when first revocations come at once, tells a refused shape from a dead
// token, sends the learnt shape on every revocation after (the session's own included), says which in its notes, and
// takes it from the target's config when given there. Against small servers that each take one shape.
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { pack } from '../../../suites/index.js';
import { Session } from '../../../suites/kit/session.js';
import { RevokeShape, revokeToken, requestToken, tokenIn } from '../../../suites/kit/index.js';
import type { HttpResponse, RequestSpec } from '../../../src/http/client.js';
import { SignedClient } from '../../../src/http/client.js';
import { defineCheck, defineSuite, runChecks, type RunResult } from '../../../src/engine/index.js';
import { generateEd25519 } from '../../../src/http/keys.js';
import type { ResolvedTarget, RevokeBody } from '../../../src/config/types.js';
import { startEchoServer, type Received } from '../../helpers/echo-server.js';
import { CITES } from '../../helpers/requirements.js';

const key = generateEd25519();
let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

const header = (r: Received, name: string) => r.headers.find(([h]) => h.toLowerCase() === name)?.[1];

/** How a revocation carried the token: no body, a form body, a JSON body (what the server received). */
function shapeOf(r: Received): RevokeBody | 'other' {
  if (r.body.length === 0) return 'none';
  const type = header(r, 'content-type') ?? '';
  if (type.startsWith('application/x-www-form-urlencoded')) return 'form';
  if (type.startsWith('application/json')) return 'json';
  return 'other';
}

/**
 * A server that takes one revoke shape: the token in Authorization, and (form, json) the same token named in the body.
 * A wrong shape is answered `wrongShape` (400 by default; 401 as a server that cannot find the token to revoke says).
 * `forget` ends tokens without a revocation (a restart); GET /instruments is the token probe.
 */
async function shapeServer(takes: RevokeBody | 'nothing', wrongShape = 400) {
  let n = 0;
  const live = new Set<string>();
  const server = await startEchoServer((req, res: ServerResponse) => {
    const bearer = /^Bearer (.+)$/.exec(header(req, 'authorization') ?? '')?.[1];
    const answer = (status: number, body?: unknown) => {
      res.statusCode = status;
      res.end(body === undefined ? '' : JSON.stringify(body));
    };
    if (req.url === '/v1/oauth/token') {
      const token = `token-${++n}-0123456789abcdef`;
      live.add(token);
      return answer(200, { data: { token, tokenId: `id-${n}` }, code: '200', message: 'Success' });
    }
    if (bearer === undefined || !live.has(bearer)) return answer(401, { code: '401', message: 'Unauthorized' });
    if (req.url === '/v1/oauth/revoke') {
      const shape = shapeOf(req);
      const text = req.body.toString('utf8');
      const named =
        shape === 'form'
          ? new URLSearchParams(text).get('token')
          : shape === 'json'
            ? (JSON.parse(text) as { token?: string }).token
            : bearer;
      if (takes === 'nothing' || shape !== takes || named !== bearer)
        return answer(wrongShape, { code: String(wrongShape), message: 'the token to revoke is not named' });
      live.delete(bearer);
      return answer(200, { data: { revoked: true }, code: '200', message: 'Success' });
    }
    return answer(200, { data: [], code: '200', message: 'Success' });
  });
  cleanup.push(() => server.close());
  return {
    ...server,
    forget: () => live.clear(),
    live,
    revokes: () => server.received.filter((r) => r.url === '/v1/oauth/revoke'),
  };
}

function targetFor(baseUrl: string, revoke?: RevokeBody): ResolvedTarget {
  return {
    name: 't',
    baseUrl,
    clientId: 'c',
    clientSecret: 'secret-value',
    keyId: 'k',
    privateKeyPem: key.privateKeyPem,
    privateKey: key.seed,
    fixtures: {},
    webhook: { listen: '127.0.0.1:0', tls: 'none' },
    ...(revoke ? { revoke: { body: revoke } } : {}),
  };
}

/** `count` checks that each obtain a token of their own and revoke it, all at once. */
function revokingSuite(count: number) {
  return defineSuite({
    name: 'auth',
    title: 'test',
    uses: ['token-revocation'],
    checks: Array.from({ length: count }, (_, i) =>
      defineCheck({
        id: `auth.x.revokes-${i}`,
        title: 'obtains a token and revokes it',
        level: 'MUST',
        requirements: CITES.MUST,
        async run(ctx) {
          const found = tokenIn(await requestToken(ctx));
          const res = await revokeToken(ctx, found!.token);
          ctx.observe(`revoked ${res.status}`);
          ctx.judged('the revocation');
        },
      }),
    ),
  });
}

async function run(server: { origin: string }, checks: number, revoke?: RevokeBody): Promise<RunResult> {
  return runChecks({
    pack,
    target: targetFor(`${server.origin}/v1`, revoke),
    suites: [revokingSuite(checks)],
    concurrency: 4,
  });
}

const revokeNote = (result: RunResult) => (result.run.notes ?? []).find((n) => n.startsWith('revoke request:'));

describe('the revoke shape', () => {
  it('is learnt once on a form-only server by four checks revoking four at a time; every later revocation sends the form', async () => {
    const server = await shapeServer('form');
    const result = await run(server, 4);
    expect(result.checks.map((c) => [c.outcome, c.observations.at(-1)])).toEqual(
      Array.from({ length: 4 }, () => ['pass', 'revoked 200']),
    );
    // One no-body attempt in the whole run; then five form revocations: the four checks' tokens and the run's own.
    expect(server.revokes().map(shapeOf)).toEqual(['none', 'form', 'form', 'form', 'form', 'form']);
    expect(server.live.size).toBe(0);
    // Signed with a digest of the body, like any request with a body.
    const form = server.revokes()[1]!;
    expect(header(form, 'content-digest')).toMatch(/^sha-512=:/);
    expect(header(form, 'signature-input')).toContain('"content-digest"');
    expect(revokeNote(result)).toBe(
      "revoke request: the token in a form body (token=, RFC 7009) (learnt at the run's first revocation: no body → 400, a form body token= → 200)",
    );
    expect(result.run.cleanup).toBeUndefined();
    // The check that learnt it says so; the others revoked at once.
    const learnt = result.checks.flatMap((c) => c.observations).filter((o) => o.includes('learnt the revoke request'));
    expect(learnt).toEqual([
      "the run's first revocation, here, learnt the revoke request: the token in a form body (token=, RFC 7009) (tried: no body → 400, a form body token= → 200)",
    ]);
  });

  it('is learnt by one revocation at a time: two first revocations at once try the shapes once', async () => {
    const sent: string[] = [];
    const answer = (status: number) => ({ status }) as HttpResponse;
    const io = {
      async send(spec: RequestSpec) {
        const shape = spec.form ? 'form' : spec.json ? 'json' : 'none';
        sent.push(`${shape} ${spec.token}`);
        // Every answer takes a turn of the event loop, so the two revocations would interleave without the lock.
        await new Promise((resolve) => setImmediate(resolve));
        return answer(shape === 'form' ? 200 : 400);
      },
      alive: () => Promise.resolve(true),
    };
    const shape = new RevokeShape(undefined);
    const [a, b] = await Promise.all([shape.revoke('a', io), shape.revoke('b', io)]);
    expect(sent).toEqual(['none a', 'form a', 'form b']);
    expect([a.body, a.tried, b.body, b.tried]).toEqual([
      'form',
      'no body → 400, a form body token= → 200',
      'form',
      undefined,
    ]);
  });

  it('is learnt on a JSON-only server that answers the other shapes 401: the token probe shows the token alive, so the shape was refused', async () => {
    const server = await shapeServer('json', 401);
    const result = await run(server, 1);
    expect(result.checks[0]!.outcome).toBe('pass');
    expect(server.revokes().map(shapeOf)).toEqual(['none', 'form', 'json', 'json']);
    // After each 401 a correct read with the token (GET /instruments) told a refused shape from a dead token.
    const probes = result.checks[0]!.exchanges.filter((e) => new URL(e.request.url).pathname === '/v1/instruments');
    expect(probes.map((e) => e.response?.status)).toEqual([200, 200]);
    expect(revokeNote(result)).toBe(
      'revoke request: the token in a JSON body ({"token": …}) (learnt at the run\'s first revocation: no body → 401, a form body token= → 401, a JSON body {"token"} → 200)',
    );
    expect(server.live.size).toBe(0);
  });

  it('does not take a dead token for a refused shape: a 401 the token probe confirms teaches nothing, the next live token does', async () => {
    const server = await shapeServer('form', 401);
    const client = new SignedClient({
      baseUrl: `${server.origin}/v1`,
      clientId: 'c',
      keyId: 'k',
      privateKey: key.seed,
    });
    cleanup.push(() => client.close());
    const session = new Session(client, 'secret-value', () => undefined);
    const io = {
      send: (spec: Parameters<typeof client.send>[0]) => client.send(spec, () => undefined),
      alive: (t: string) => session.accepts(t),
    };
    await session.open();
    const dead = await session.token();
    server.forget();
    const first = await session.revokeShape.revoke(dead, io);
    expect(first).toMatchObject({ revoked: false, ended: true, body: 'none' });
    expect(first.res.status).toBe(401);
    // Only the no-body attempt: the probe showed the token dead, so no other shape was tried on it.
    expect(server.revokes().map(shapeOf)).toEqual(['none']);
    expect(session.revokeShape.known()).toBeUndefined();
    expect(session.revokeShape.note()).toBe(
      'revoke request: not learnt: every token the run went to revoke had ended already (1), so no revocation showed the shape',
    );
    // A live token: the shape is learnt on it.
    const res = await client.send(
      { method: 'POST', path: '/oauth/token', form: { clientId: 'c', clientSecret: 's' }, token: null },
      () => undefined,
    );
    const second = await session.revokeShape.revoke(tokenIn(res)!.token, io);
    expect(second).toMatchObject({ revoked: true, body: 'form', tried: 'no body → 401, a form body token= → 200' });
    expect(session.revokeShape.known()).toBe('form');
    // The session's own token had ended: closing leaves it alone and reports no problem.
    expect(await session.close()).toBeUndefined();
  });

  it('takes the shape from the target config (revoke.body) without trying another, and says so', async () => {
    const server = await shapeServer('json');
    const result = await run(server, 2, 'json');
    expect(result.checks.map((c) => c.outcome)).toEqual(['pass', 'pass']);
    expect(server.revokes().map(shapeOf)).toEqual(['json', 'json', 'json']);
    expect(revokeNote(result)).toBe(
      'revoke request: the token in a JSON body ({"token": …}), as the target\'s config sets (revoke.body); not learnt',
    );
    // A configured shape the server refuses is named as the config's in what the run says of the token left live.
    const form = await shapeServer('form');
    const refused = await run(form, 1, 'json');
    expect(form.revokes().map(shapeOf)).toEqual(['json', 'json']);
    expect(refused.run.cleanup).toEqual([
      'revoking the run\'s token answered 400 (tried: a JSON body {"token"} → 400, the shape the target\'s config sets (revoke.body)): it stays live until it expires',
    ]);
  });

  it('names what was tried when no shape revokes a live token, and does not call the token revoked', async () => {
    const server = await shapeServer('nothing');
    const result = await run(server, 1);
    const check = result.checks[0]!;
    expect(check.observations).toContain(
      'POST /oauth/revoke: no request shape revoked the token (tried: no body → 400, a form body token= → 400, a JSON body {"token"} → 400)',
    );
    // Later revocations (the session's) send no body once, and the clean-up line names what the first one tried.
    expect(server.revokes().map(shapeOf)).toEqual(['none', 'form', 'json', 'none']);
    expect(result.run.cleanup).toEqual([
      'revoking the run\'s token answered 400 (tried: at the run\'s first revocation, no body → 400, a form body token= → 400, a JSON body {"token"} → 400): it stays live until it expires',
    ]);
    expect(revokeNote(result)).toMatch(
      /^revoke request: no shape of POST \/oauth\/revoke revoked a live token \(no body → 400, a form body token= → 400, a JSON body \{"token"\} → 400\)/,
    );
  });
});
