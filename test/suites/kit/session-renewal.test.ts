// Session renewal (suites/kit/session.ts): the run's token survives a server that ends it early. A 401 the request
// itself drew is kept; a token the server ended is replaced and the request sent again, noted, within bounds; a check of
// its own tokens runs once more when every token ended meanwhile (a restart). Against the reference server: with every
// token revoked on each revocation, the whole pack fails nothing; against small servers whose tokens die on command. The
// three choices that end tokens at once are the sweep beside it (session-renewal.sweep.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { pack } from '../../../suites/index.js';
import { defineCheck, defineSuite, runChecks, type CheckContext } from '../../../src/engine/index.js';
import { requestToken } from '../../../suites/kit/index.js';
import { MAX_RENEWALS } from '../../../suites/kit/session.js';
import { generateEd25519 } from '../../../src/http/keys.js';
import auth from '../../../suites/auth/index.js';
import signing from '../../../suites/signing/index.js';
import { startEchoServer } from '../../helpers/echo-server.js';
import { CITES } from '../../helpers/requirements.js';
import { LIMIT_MS } from '../../helpers/waits.js';
import { echoTarget, failing, runAll, withServer } from '../../helpers/suite-runs.js';

const RENEWED =
  /^the server ended the run's token early \(this run had not revoked it, and a correct GET \/instruments with it was answered 401\); (a new token was obtained \(renewal \d+ of at most 50 in a run\)|it had been replaced already); [A-Z]+ \/\S+ was answered 401 with it and was sent again with the new token$/;

describe("the run's token", () => {
  it('is renewed when the server ends it early: with every token revoked on each revocation (choice revoke=all-tokens), nothing fails', async () => {
    const result = await runAll({ choices: { revoke: 'all-tokens' } });
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

describe('Session renewal, against a server whose tokens die on command', () => {
  const key = generateEd25519();
  let stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.reverse()) await stop();
    stops = [];
  });

  /** Tokens token-1, token-2…; /instruments and /ok answer 200 to a live token, 401 to a dead one; /bad is always 401. */
  /**
   * `holdFirstProbe`: the first token probe is judged as it arrives and answered only once a second probe arrives (or
   * after LIMIT_MS, which decides only how a broken session fails); `firstProbe` resolves as it arrives.
   */
  async function tokenServer(
    options: { everyTokenDies?: boolean; holdFirstProbe?: boolean; refuseRenewals?: boolean } = {},
  ) {
    let issued = 0;
    let probes = 0;
    let secondProbe!: () => void;
    const released = new Promise<void>((resolve) => {
      secondProbe = resolve;
      setTimeout(resolve, LIMIT_MS).unref();
    });
    let probed!: () => void;
    const firstProbe = new Promise<void>((resolve) => (probed = resolve));
    const dead = new Set<string>();
    const server = await startEchoServer((req, res) => {
      const token = req.headers.find(([n]) => n.toLowerCase() === 'authorization')?.[1].slice('Bearer '.length);
      if (req.url === '/v1/oauth/token') {
        if (options.refuseRenewals && issued > 0) {
          res.statusCode = 503;
          res.end(JSON.stringify({ code: '503', message: 'Service Unavailable' }));
          return;
        }
        const fresh = `token-${++issued}`;
        if (options.everyTokenDies) dead.add(fresh);
        res.end(JSON.stringify({ data: { token: fresh }, code: '200', message: 'Success' }));
        return;
      }
      const alive = token !== undefined && !dead.has(token);
      res.statusCode = req.url === '/v1/bad' || !alive ? 401 : 200;
      const answer = () =>
        res.end(
          JSON.stringify({
            code: String(res.statusCode),
            message: res.statusCode === 200 ? 'Success' : 'Unauthorized',
          }),
        );
      if (!req.url.startsWith('/v1/instruments') || !options.holdFirstProbe) return answer();
      if (++probes === 2) secondProbe();
      if (probes > 1) return answer();
      probed();
      void released.then(answer);
    });
    stops.push(() => server.close());
    const target = echoTarget(server.origin, key);
    const tokenRequests = () => server.received.filter((r) => r.url === '/v1/oauth/token').length;
    const revoked = () =>
      server.received
        .filter((r) => r.url === '/v1/oauth/revoke')
        .map((r) => r.headers.find(([n]) => n.toLowerCase() === 'authorization')?.[1]);
    return { target, dead, tokenRequests, revoked, firstProbe };
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

  it('does not take a probe sent before a 401 as its answer: a token that died after that probe is still renewed', async () => {
    const server = await tokenServer({ holdFirstProbe: true });
    const statuses: number[] = [];
    const result = await runChecks({
      pack,
      target: server.target,
      suites: [
        oneCheck(async (send) => {
          const bad = send('/bad');
          // The probe of /bad's 401 has found the token alive (its answer still on the way) when the token dies (a
          // restart): /ok's 401 comes after that probe was sent, and only a probe of its own can tell.
          await server.firstProbe;
          server.dead.add('token-1');
          statuses.push(await send('/ok'), await bad);
        }),
      ],
    });
    expect(statuses).toEqual([200, 401]);
    expect(result.checks[0]!.observations).toEqual([expect.stringMatching(RENEWED)]);
    expect(server.tokenRequests()).toBe(2);
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

  it('keeps the 401 of a token found dead that no new token replaces, and says why on the check', async () => {
    const server = await tokenServer({ everyTokenDies: true, refuseRenewals: true });
    let status = 0;
    const result = await runChecks({
      pack,
      target: server.target,
      suites: [
        oneCheck(async (send) => {
          status = await send('/ok');
        }),
      ],
    });
    expect(status).toBe(401);
    expect(server.tokenRequests()).toBe(2);
    expect(result.checks[0]!.observations).toEqual([
      expect.stringMatching(/^the server ended the run's token early .*; no new token could be obtained: .*503/),
    ]);
  });

  it('is bounded: three renewals for one request, and at most MAX_RENEWALS in a run, past which the 401 stands with the reason', async () => {
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
    expect(afterFirst).toBe(1 + 3);
    expect(statuses).toEqual(new Array(MAX_RENEWALS).fill(401));
    expect(server.tokenRequests()).toBe(1 + MAX_RENEWALS);
    expect(result.checks[0]!.observations.at(-1)).toBe(
      `the server ended the run's token early (this run had not revoked it, and a correct GET /instruments with it was answered 401); it was not replaced: the run had replaced its token ${MAX_RENEWALS} times, its bound`,
    );
  });
});
