// The gaps of issue 14 in the auth and signing suites: each new fault is caught by its new check (that no other check
// fails is the detection matrix's to prove, for every fault: test/reference/detection-matrix.test.ts); the run's token survives a
// server that ends it early; and the checks that met other faults' defects on their way now judge only their own.
import { requestToken } from '../../suites/kit/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { pack } from '../../suites/index.js';
import {
  defineCheck,
  defineSuite,
  runChecks,
  type CheckContext,
  type CheckResult,
  type RunResult,
} from '../../src/engine/index.js';
import { MAX_RENEWALS } from '../../suites/kit/session.js';
import { customerBody } from '../../suites/kit/customer-restore.js';
import { generateEd25519 } from '../../src/http/keys.js';
import type { ResolvedTarget } from '../../src/config/types.js';
import { startEchoServer } from '../helpers/echo-server.js';
import { CITES } from '../helpers/requirements.js';
import { startLocalTarget, type LocalTarget } from '../../src/targets/local.js';
import { findFault } from '../../src/reference/faults/catalog.js';
import { suites } from '../../suites/index.js';
import auth from '../../suites/auth/index.js';
import signing from '../../suites/signing/index.js';
import { DELIVERY_DEADLINE_MS } from '../helpers/waits.js';

async function withServer<T>(faults: string[], body: (local: LocalTarget) => Promise<T>): Promise<T> {
  const local = await startLocalTarget({ faults });
  try {
    return await body(local);
  } finally {
    await local.stop();
  }
}

/** Every suite against a server with `faults`; a short delivery deadline, since no fault here concerns deliveries. */
function runAll(faults: string[]): Promise<RunResult> {
  return withServer(faults, (local) =>
    runChecks({
      pack,
      target: local.target,
      suites,
      failOn: 'should',
      suiteOptions: { webhooks: { deadlineMs: DELIVERY_DEADLINE_MS } },
    }),
  );
}

const failing = (result: RunResult) =>
  result.checks
    .filter((c) => c.failsRun || c.outcome === 'error')
    .map((c) => c.id)
    .sort();
const check = (result: RunResult, id: string): CheckResult => result.checks.find((c) => c.id === id)!;
const RENEWED =
  /^the server ended the run's token early \(this run had not revoked it, and a correct GET \/instruments with it was answered 401\); (a new token was obtained \(renewal \d+ of at most 50 in a run\)|it had been replaced already); [A-Z]+ \/\S+ was answered 401 with it and was sent again with the new token$/;

describe('new faults of tokens and signing', () => {
  it.each([
    ['auth.token-id-per-client', 'auth.token.unique'],
    ['auth.idempotency-key-optional', 'auth.idempotency.required'],
    ['auth.revoke-unsigned-accepted', 'auth.revoke.unsigned'],
    ['auth.token-timestamps-milliseconds', 'auth.token.timestamps'],
    ['auth.token-digest-optional', 'auth.token.missing-digest'],
    ['signing.digest-coverage-not-required', 'signing.reject.digest-not-covered'],
  ])('%s is caught by %s, alone in its suite', async (fault, id) => {
    const suite = id.startsWith('auth.') ? auth : signing;
    const result = await withServer([fault], (local) =>
      runChecks({ pack, target: local.target, suites: [suite], failOn: 'should' }),
    );
    expect(failing(result)).toEqual([id]);
    const breaks = findFault(fault)!.breaks;
    expect(check(result, id).requirements.some((r) => breaks.includes(r.id))).toBe(true);
  });

  it('refuses a signature without keyid at SHOULD, and records without judging whether created or expires may be left out', async () => {
    const result = await withServer(['signing.keyid-ignored'], (local) =>
      runChecks({
        pack,
        target: local.target,
        suites: [signing],
        selection: { grep: 'missing-keyid|signature-parameters' },
        failOn: 'should',
      }),
    );
    const found = check(result, 'signing.reject.missing-keyid');
    expect(found.outcome).toBe('warn');
    expect(found.finding?.message).toBe('200: the server accepted the request');
    expect(found.requirements.map((r) => r.id)).toEqual(['REQ-AUTH-17']);
    const info = check(result, 'signing.info.signature-parameters');
    expect(info.outcome).toBe('pass');
    expect(info.observations).toEqual([
      'without created (keyid and expires only): refused (401); without expires (keyid and created only): refused (401)',
    ]);
  });
});

describe("the run's token", () => {
  it('is renewed when the server ends it early: with every token revoked on each revocation (choice revoke=all-tokens), nothing fails', async () => {
    const local = await startLocalTarget({ choices: { revoke: 'all-tokens' } });
    const result = await runChecks({
      pack,
      target: local.target,
      suites,
      failOn: 'should',
      suiteOptions: { webhooks: { deadlineMs: DELIVERY_DEADLINE_MS } },
    }).finally(() => local.stop());
    expect(failing(result)).toEqual([]);
    const renewals = result.checks.flatMap((c) =>
      c.observations.filter((o) => o.startsWith("the server ended the run's token early")),
    );
    expect(renewals.length).toBeGreaterThan(0);
    for (const note of renewals) expect(note).toMatch(RENEWED);
    // Tokens the server ended are not revoked again at the end: nothing is left for a person to clean up.
    expect(result.run.cleanup).toBeUndefined();
  });

  it('is not renewed for a 401 a check provokes with a wrong request: the probe shows the token alive', async () => {
    const result = await withServer([], (local) =>
      runChecks({ pack, target: local.target, suites: [auth, signing], failOn: 'should' }),
    );
    expect(result.checks.filter((c) => c.outcome !== 'pass' && c.outcome !== 'skip').map((c) => c.id)).toEqual([]);
    expect(result.checks.flatMap((c) => c.observations).filter((o) => o.includes("run's token early"))).toEqual([]);
    const sessionRequests = result.sessionExchanges.map(
      (e) => `${e.request.method} ${new URL(e.request.url).pathname}`,
    );
    // One token for the run, revoked at the end; every other session request is a probe of that token.
    expect(sessionRequests.filter((r) => r === 'POST /v1/oauth/token')).toHaveLength(1);
    expect(sessionRequests.filter((r) => r === 'POST /v1/oauth/revoke')).toHaveLength(1);
    expect(new Set(sessionRequests.filter((r) => !r.startsWith('POST /v1/oauth/')))).toEqual(
      new Set(['GET /v1/instruments']),
    );
    expect(
      result.sessionExchanges.filter((e) => e.request.method === 'GET').every((e) => e.response?.status === 200),
    ).toBe(true);
  });
});

describe('checks that met another defect on their way', () => {
  it('auth.token.issued leaves the rows other checks own to them, and records what it saw', async () => {
    const result = await withServer(['auth.trusted-ips-string'], (local) =>
      runChecks({
        pack,
        target: local.target,
        suites: [auth],
        selection: { grep: 'auth.token.(issued|trusted-ips)' },
        failOn: 'should',
      }),
    );
    expect(check(result, 'auth.token.issued').outcome).toBe('pass');
    expect(check(result, 'auth.token.issued').alsoSeen).toEqual([
      expect.objectContaining({
        ownedBy: 'auth.token.trusted-ips',
        message: expect.stringMatching(/^Auth token record: data\.trustedIps must be an array, got a string ""$/),
      }),
    ]);
    expect(check(result, 'auth.token.trusted-ips').outcome).toBe('fail');
  });

  it('auth.revoke.token-rejected cannot judge revocation where any bearer token passes, and says which check reports it', async () => {
    const result = await withServer(['auth.bearer-not-validated'], (local) =>
      runChecks({
        pack,
        target: local.target,
        suites: [auth],
        selection: { grep: 'auth.revoke.token-rejected' },
        failOn: 'should',
      }),
    );
    const found = check(result, 'auth.revoke.token-rejected');
    expect(found.outcome).toBe('skip');
    expect(found.skipReason).toBe(
      'a never-issued token was accepted as well (200), so whether revocation ends a token cannot be told; auth.use.unknown-token reports it',
    );
  });

  it('auth.revoke.token-rejected is not answered from a cache of verified signatures', async () => {
    const result = await withServer(['signing.verified-signature-cache'], (local) =>
      runChecks({
        pack,
        target: local.target,
        suites: [auth],
        selection: { grep: 'auth.revoke.token-rejected' },
        failOn: 'should',
      }),
    );
    expect(check(result, 'auth.revoke.token-rejected').outcome).toBe('pass');
  });

  it('the "changes nothing" PUT body sends back only values a client may send: a status outside the enum or CLOSED is left out', () => {
    const snapshot = (status: string) => ({
      customerId: 2077,
      members: [
        ['firstName', '"Ada"'],
        ['status', JSON.stringify(status)],
        ['referenceId', '12'],
        ['lastName', '7'],
      ] as Array<[string, string]>,
      values: { firstName: 'Ada', status, referenceId: 12, lastName: 7 },
    });
    expect(JSON.parse(customerBody(snapshot('DELETED')))).toEqual({
      customerId: 2077,
      firstName: 'Ada',
      referenceId: 12,
    });
    expect(JSON.parse(customerBody(snapshot('CLOSED')))).toEqual({
      customerId: 2077,
      firstName: 'Ada',
      referenceId: 12,
    });
    expect(JSON.parse(customerBody(snapshot('SUSPENDED')))).toEqual({
      customerId: 2077,
      firstName: 'Ada',
      status: 'SUSPENDED',
      referenceId: 12,
    });
  });

  it('a webhook a faulty server created on a tampered POST is subscribed to its own creation only, and the webhook checks pass', async () => {
    const result = await runAll(['signing.body-applied-before-verification']);
    expect(failing(result)).toEqual(['signing.reject.body-tampered', 'signing.reject.post-body-tampered']);
    expect(check(result, 'signing.reject.post-body-tampered').finding?.message).toMatch(
      /^CLEAN-UP FAILED: the webhook configuration was changed and could not be restored \(there was no webhook before, now url "https:\/\/conformance\.invalid\/tampered-[0-9a-f]{8}", subscriptions \["WEBHOOK\.CREATED"\], and the interface has no DELETE\)/,
    );
  });
});

describe('Session renewal, against a server whose tokens die on command', () => {
  const key = generateEd25519();
  let stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.reverse()) await stop();
    stops = [];
  });

  /** Tokens token-1, token-2…; /instruments and /ok answer 200 to a live token, 401 to a dead one; /bad is always 401. */
  async function tokenServer(options: { everyTokenDies?: boolean } = {}) {
    let issued = 0;
    const dead = new Set<string>();
    const server = await startEchoServer((req, res) => {
      const token = req.headers.find(([n]) => n.toLowerCase() === 'authorization')?.[1].slice('Bearer '.length);
      if (req.url === '/v1/oauth/token') {
        const fresh = `token-${++issued}`;
        if (options.everyTokenDies) dead.add(fresh);
        res.end(JSON.stringify({ data: { token: fresh }, code: '200', message: 'Success' }));
        return;
      }
      const alive = token !== undefined && !dead.has(token);
      res.statusCode = req.url === '/v1/bad' || !alive ? 401 : 200;
      res.end(
        JSON.stringify({ code: String(res.statusCode), message: res.statusCode === 200 ? 'Success' : 'Unauthorized' }),
      );
    });
    stops.push(() => server.close());
    const target: ResolvedTarget = {
      name: 't',
      baseUrl: `${server.origin}/v1`,
      clientId: 'c',
      clientSecret: 'secret-value',
      keyId: 'k',
      privateKeyPem: key.privateKeyPem,
      privateKey: key.seed,
      fixtures: {},
      webhook: { listen: '127.0.0.1:0', tls: 'none' },
    };
    const tokenRequests = () => server.received.filter((r) => r.url === '/v1/oauth/token').length;
    const revoked = () =>
      server.received
        .filter((r) => r.url === '/v1/oauth/revoke')
        .map((r) => r.headers.find(([n]) => n.toLowerCase() === 'authorization')?.[1]);
    return { target, dead, tokenRequests, revoked };
  }

  function oneCheck(body: (send: (path: string) => Promise<number>) => Promise<void>) {
    return defineSuite({
      name: 'auth',
      title: 'test',
      checks: [
        defineCheck({
          id: 'auth.x.sends',
          title: 'sends with the run token',
          level: 'MUST',
          requirements: CITES.MUST,
          async run(ctx) {
            await body(async (path) => (await ctx.send({ method: 'GET', path })).status);
            ctx.judged('the answers');
          },
        }),
      ],
    });
  }

  it('keeps a 401 that the request itself drew: the token is alive, nothing is renewed or noted', async () => {
    const server = await tokenServer();
    const statuses: number[] = [];
    const result = await runChecks({
      pack,
      target: server.target,
      suites: [oneCheck(async (send) => void statuses.push(await send('/bad'), await send('/ok')))],
    });
    expect(statuses).toEqual([401, 200]);
    expect(result.checks[0]!.observations).toEqual([]);
    expect(server.tokenRequests()).toBe(1);
    expect(server.revoked()).toEqual(['Bearer token-1']);
  });

  it('replaces a token the server ended, sends the request again, notes it, and revokes only the live token at the end', async () => {
    const server = await tokenServer();
    const statuses: number[] = [];
    const result = await runChecks({
      pack,
      target: server.target,
      suites: [
        oneCheck(async (send) => {
          statuses.push(await send('/ok'));
          server.dead.add('token-1');
          statuses.push(await send('/ok'), await send('/ok'));
        }),
      ],
    });
    expect(statuses).toEqual([200, 200, 200]);
    expect(result.checks[0]!.observations).toEqual([
      "the server ended the run's token early (this run had not revoked it, and a correct GET /instruments with it was answered 401); a new token was obtained (renewal 1 of at most 50 in a run); GET /v1/ok was answered 401 with it and was sent again with the new token",
    ]);
    expect(server.tokenRequests()).toBe(2);
    expect(server.revoked()).toEqual(['Bearer token-2']);
    expect(result.run.cleanup).toBeUndefined();
  });

  /** A check of its own tokens (it declares token-revocation): the first attempt runs `first`, any later one `again`. */
  function tokenCheck(first: (ctx: CheckContext) => Promise<void>, again: (ctx: CheckContext) => Promise<void>) {
    let attempts = 0;
    return defineSuite({
      name: 'auth',
      title: 'test',
      checks: [
        defineCheck({
          id: 'auth.x.own-token',
          title: 'judges a token of its own',
          level: 'MUST',
          uses: ['token-revocation'],
          requirements: CITES.MUST,
          async run(ctx) {
            attempts += 1;
            await (attempts === 1 ? first(ctx) : again(ctx));
          },
        }),
      ],
    });
  }

  /** Obtains a token of the check's own and reads with it: a 401 fails the check. */
  async function readWithOwnToken(ctx: CheckContext): Promise<void> {
    const token = (JSON.parse((await requestToken(ctx)).text) as { data: { token: string } }).data.token;
    const res = await ctx.send({ method: 'GET', path: '/ok', token });
    if (res.status !== 200) ctx.fail(`a fresh token was refused (${res.status})`);
    ctx.judged('a read with a fresh token');
  }

  it('runs a check of its own tokens once more when every token ended meanwhile (a restart), and says so', async () => {
    const server = await tokenServer();
    const restart = async (ctx: CheckContext) => {
      // The run's token-1 and the token-2 the check is about to obtain: every token issued until then.
      server.dead.add('token-1').add('token-2');
      await readWithOwnToken(ctx);
    };
    const result = await runChecks({ pack, target: server.target, suites: [tokenCheck(restart, readWithOwnToken)] });
    expect(result.checks[0]!.outcome).toBe('pass');
    expect(result.checks[0]!.observations).toEqual([
      "the first attempt failed (a fresh token was refused (401)) and the run's token had ended meanwhile too (a restart, or tokens ended by the issue or revocation of another): the check was run once more with fresh tokens, and its result is that of the second attempt",
    ]);
  });

  it('fails a check whose fresh token is refused again on the second attempt: a 401 that recurs is a defect', async () => {
    const server = await tokenServer();
    const refuse = async (ctx: CheckContext) => {
      for (let i = 1; i <= 9; i++) server.dead.add(`token-${i}`);
      await readWithOwnToken(ctx);
    };
    const result = await runChecks({ pack, target: server.target, suites: [tokenCheck(refuse, refuse)] });
    expect(result.checks[0]!.outcome).toBe('fail');
    expect(result.checks[0]!.finding?.message).toBe('a fresh token was refused (401)');
  });

  it("does not run a failed check again while the run token still works: the failure is the server's", async () => {
    const server = await tokenServer();
    const refuseOwn = async (ctx: CheckContext) => {
      server.dead.add('token-2');
      await readWithOwnToken(ctx);
    };
    const result = await runChecks({ pack, target: server.target, suites: [tokenCheck(refuseOwn, readWithOwnToken)] });
    expect(result.checks[0]!.outcome).toBe('fail');
    expect(result.checks[0]!.observations).toEqual([]);
  });

  it('is bounded: two renewals for one request, and at most MAX_RENEWALS in a run', async () => {
    const server = await tokenServer({ everyTokenDies: true });
    const statuses: number[] = [];
    let afterFirst = 0;
    const result = await runChecks({
      pack,
      target: server.target,
      suites: [
        oneCheck(async (send) => {
          statuses.push(await send('/ok'));
          afterFirst = server.tokenRequests();
          for (let i = 1; i < MAX_RENEWALS; i++) statuses.push(await send('/ok'));
        }),
      ],
    });
    // The run's first token, dead at once too, still starts the run: obtaining it is all the session verifies.
    expect(result.checks[0]!.outcome).toBe('pass');
    expect(afterFirst).toBe(1 + 2);
    expect(statuses).toEqual(new Array(MAX_RENEWALS).fill(401));
    expect(server.tokenRequests()).toBe(1 + MAX_RENEWALS);
  });
});

describe('the token record by the level rule (issue 25): a field left out is the SHOULD presence check', () => {
  const key = generateEd25519();
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  });
  const TOKEN_CHECKS =
    '^auth\\.(token\\.(issued|fields|unique|type-bearer|scope|trusted-ips|organization)|expiry\\.expires-in)$';

  /** The token checks against a server whose token answer is `answer(token, n)`; every token works, revoke answers 200. */
  async function runAgainst(answer: (token: string, n: number) => unknown): Promise<RunResult> {
    let issued = 0;
    const server = await startEchoServer((req, res) => {
      if (req.url === '/v1/oauth/token') {
        issued += 1;
        res.end(JSON.stringify(answer(`token-${issued}-0123456789`, issued)));
        return;
      }
      res.end(JSON.stringify({ data: [], code: '200', message: 'Success' }));
    });
    stops.push(() => server.close());
    const target: ResolvedTarget = {
      name: 't',
      baseUrl: `${server.origin}/v1`,
      clientId: 'c',
      clientSecret: 'secret-value',
      keyId: 'k',
      privateKeyPem: key.privateKeyPem,
      privateKey: key.seed,
      fixtures: {},
      webhook: { listen: '127.0.0.1:0', tls: 'none' },
    };
    return runChecks({ pack, target, suites: [auth], selection: { grep: TOKEN_CHECKS }, failOn: 'should' });
  }

  const full = (token: string, n: number) => ({
    message: 'Success',
    tokenId: `id-${n}`,
    token,
    expiresIn: 3600,
    maxTTL: 3600,
    tokenType: 'Bearer',
    scope: ['read', 'write'],
    trustedIps: [],
    organization: { id: 1, name: 'Org', clientId: 'c' },
    createdAt: Math.floor(Date.now() / 1000),
    updatedAt: Math.floor(Date.now() / 1000),
  });

  it('a bare record with only its token and message: issued passes, the owners skip, auth.token.fields warns alone', async () => {
    const result = await runAgainst((token) => ({ token, message: 'Success' }));
    expect(failing(result)).toEqual(['auth.token.fields']);
    const fields = check(result, 'auth.token.fields');
    expect(fields.outcome).toBe('warn');
    expect(fields.finding?.message).toBe(
      'the token record leaves out tokenId, expiresIn, maxTTL, tokenType, scope, trustedIps, organization, createdAt, updatedAt',
    );
    expect(fields.finding?.requirements).toEqual(['REQ-TOKEP-10', 'REQ-TOKEN-05']);
    const issued = check(result, 'auth.token.issued');
    expect(issued.outcome).toBe('pass');
    expect(issued.alsoSeen?.map((s) => [s.ownedBy, s.requirements])).toEqual([
      ['auth.token.fields', ['REQ-TOKEP-10']],
      ['auth.token.fields', ['REQ-TOKEP-10', 'REQ-TOKEN-05']],
    ]);
    for (const [id, field] of [
      ['auth.token.unique', 'tokenId'],
      ['auth.token.type-bearer', 'tokenType'],
      ['auth.token.scope', 'scope'],
      ['auth.token.trusted-ips', 'trustedIps'],
      ['auth.token.organization', 'organization'],
      ['auth.expiry.expires-in', 'expiresIn'],
    ]) {
      const c = check(result, id!);
      expect([c.outcome, c.skipReason], id).toEqual([
        'skip',
        `the token record has no ${field}, so there is nothing to judge here; auth.token.fields judges its presence`,
      ]);
      expect(c.alsoSeen?.map((s) => s.ownedBy)).toEqual(['auth.token.fields']);
    }
  });

  it("an enveloped record without a message of its own has the envelope's: nothing is missing", async () => {
    const result = await runAgainst((token, n) => {
      const { message: _left, ...record } = full(token, n);
      return { data: record, code: '200', message: 'Success' };
    });
    expect(failing(result)).toEqual([]);
    expect(check(result, 'auth.token.fields').outcome).toBe('pass');
  });

  it('message and tokenId have no type in the table: another type warns in auth.token.fields, which issued only records', async () => {
    const result = await runAgainst((token, n) => ({ ...full(token, n), message: 7, tokenId: { n } }));
    expect(failing(result)).toEqual(['auth.token.fields']);
    const fields = check(result, 'auth.token.fields');
    expect(fields.finding?.message).toBe(
      'message must be a string, got the number 7; tokenId must be a string or an integer, got an object',
    );
    expect(fields.finding?.requirements).toEqual(['REQ-TOKEN-01', 'REQ-TOKEP-10']);
    expect(check(result, 'auth.token.issued').outcome).toBe('pass');
  });

  it('what a row states is MUST where present: an organization without clientId fails issued; maxTTL of any type passes', async () => {
    const result = await runAgainst((token, n) => ({
      ...full(token, n),
      maxTTL: '60 minutes',
      organization: { id: 1, name: 'Org' },
    }));
    expect(failing(result)).toEqual(['auth.token.issued']);
    expect(check(result, 'auth.token.issued').finding?.message).toBe(
      "Auth token record: organization.clientId is missing, a field the spec's table requires",
    );
    // The check of clientId's value gives way: the shape is issued's.
    const org = check(result, 'auth.token.organization');
    expect([org.outcome, org.skipReason]).toEqual([
      'skip',
      'organization is not an object with a clientId; auth.token.issued judges its shape',
    ]);
  });
});

describe('auth.use.malformed-bearer: refused, any 4xx (RFC 6750 §3.1 answers a malformed request 400)', () => {
  it.each([
    ['401', 401],
    ['400', 400],
  ] as const)('malformed-bearer=%s: passes, and records the status', async (value, status) => {
    const local = await startLocalTarget({ choices: { malformedBearer: value } });
    const result = await runChecks({
      pack,
      target: local.target,
      suites: [auth],
      selection: { grep: 'auth.use.malformed-bearer' },
      failOn: 'should',
    }).finally(() => local.stop());
    const c = check(result, 'auth.use.malformed-bearer');
    expect(c.outcome).toBe('pass');
    expect(c.observations).toContain(`Authorization "Bearer <not a token>" was refused with ${status}`);
  });
});
