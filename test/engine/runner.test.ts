import { afterEach, describe, expect, it, vi } from 'vitest';
import { pack } from '../../suites/index.js';
import { CITES } from '../helpers/requirements.js';
import { Session } from '../../suites/kit/session.js';
import { SignedClient } from '../../src/http/client.js';
import { defineCheck, defineSuite, runChecks, type CheckInfo, type RunStartInfo } from '../../src/engine/index.js';
import { generateEd25519 } from '../../src/http/keys.js';
import { TargetError, ConfigError } from '../../src/errors.js';
import type { ResolvedTarget } from '../../src/config/types.js';
import { startEchoServer } from '../helpers/echo-server.js';
import { LIMIT_MS } from '../helpers/waits.js';

const key = generateEd25519();
let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function targetServer(tokenStatus = 200) {
  const server = await startEchoServer((req, res) => {
    if (req.url === '/v1/oauth/token') {
      res.statusCode = tokenStatus;
      res.end(
        JSON.stringify(
          tokenStatus === 200
            ? { data: { token: 'shared-token-0123456789' }, code: '200', message: 'Success' }
            : { code: String(tokenStatus), message: 'Unauthorized' },
        ),
      );
    } else if (req.url === '/v1/hang') {
      // never answers: the request timeout must end it
    } else {
      res.end('{}');
    }
  });
  cleanup.push(() => server.close());
  return server;
}

function targetFor(baseUrl: string): ResolvedTarget {
  return {
    name: 't',
    baseUrl,
    clientId: 'c',
    clientSecret: 'secret-value',
    keyId: 'k',
    privateKeyPem: key.privateKeyPem,
    privateKey: key.seed,
    fixtures: { customerId: 5 },
    webhook: { listen: '127.0.0.1:0', tls: 'none' },
  };
}
const suite = defineSuite({
  name: 'auth',
  title: 'test',
  checks: [
    defineCheck({
      id: 'auth.a.pass',
      title: 'passes',
      level: 'MUST',
      requirements: CITES.MUST,
      async run(ctx) {
        await ctx.send({ method: 'GET', path: '/ok' });
        ctx.judged('GET /ok');
        ctx.observe('seen');
      },
    }),
    defineCheck({
      id: 'auth.b.fail',
      title: 'fails',
      level: 'MUST',
      requirements: CITES.MUST,
      async run(ctx) {
        ctx.fail('nope', { expected: 'x', observed: 'y' });
      },
    }),
    defineCheck({
      id: 'auth.c.warn',
      title: 'warns',
      level: 'SHOULD',
      requirements: CITES.SHOULD,
      async run(ctx) {
        ctx.fail('meh');
      },
    }),
    defineCheck({
      id: 'auth.d.skip',
      title: 'skips',
      level: 'MUST',
      requirements: CITES.MUST,
      async run(ctx) {
        ctx.fixture('accountId');
      },
    }),
    defineCheck({
      id: 'auth.e.throws',
      title: 'throws',
      level: 'MUST',
      requirements: CITES.MUST,
      async run() {
        throw new TypeError('bug in check');
      },
    }),
    defineCheck({
      id: 'auth.f.hangs',
      title: 'hangs',
      level: 'MUST',
      requirements: CITES.MUST,
      timeoutMs: 200,
      run: () => new Promise(() => undefined),
    }),
    defineCheck({
      id: 'auth.g.server-hangs',
      title: 'server hangs',
      level: 'MUST',
      requirements: CITES.MUST,
      async run(ctx) {
        await ctx.send({ method: 'GET', path: '/hang', timeoutMs: 200 });
      },
    }),
    defineCheck({
      id: 'auth.h.info',
      title: 'info',
      level: 'INFO',
      requirements: CITES.INFO,
      async run(ctx) {
        ctx.fail('an observation that is not a failure');
      },
    }),
  ],
});

describe('runChecks', () => {
  it('gives each check its own outcome, in declaration order, and one broken check never stops the others', async () => {
    const server = await targetServer();
    const started: string[] = [];
    const starts: RunStartInfo[] = [];
    const result = await runChecks({
      pack,
      target: targetFor(`${server.origin}/v1`),
      suites: [suite],
      reporter: {
        onRunStart: (info) => starts.push(info),
        onCheckStart: (c: CheckInfo) => started.push(c.id),
        onRunEnd: () => undefined,
      },
    });
    // What a streamed replay line needs is known from the start, the same as the run's record of it.
    expect(starts).toHaveLength(1);
    expect(starts[0]!.replay).toEqual(result.run.replay);
    expect(starts[0]!.checks.map((c) => c.id)).toEqual(result.checks.map((c) => c.id));
    expect(result.checks.map((c) => [c.id, c.outcome])).toEqual([
      ['auth.a.pass', 'pass'],
      ['auth.b.fail', 'fail'],
      ['auth.c.warn', 'warn'],
      ['auth.d.skip', 'skip'],
      ['auth.e.throws', 'error'],
      ['auth.f.hangs', 'error'],
      ['auth.g.server-hangs', 'fail'],
      ['auth.h.info', 'warn'],
    ]);
    expect(started).toEqual(result.checks.map((c) => c.id));
    const byId = Object.fromEntries(result.checks.map((c) => [c.id, c]));
    expect(byId['auth.a.pass']!.observations).toEqual(['seen']);
    expect(byId['auth.a.pass']!.exchanges).toHaveLength(1);
    expect(byId['auth.b.fail']!.finding).toEqual({ message: 'nope', expected: 'x', observed: 'y' });
    expect(byId['auth.d.skip']!.skipReason).toMatch(/fixture "accountId" is not configured/);
    expect(byId['auth.e.throws']!.finding!.message).toMatch(/the check itself broke: bug in check/);
    expect(byId['auth.f.hangs']!.finding!.message).toMatch(/did not finish within 200 ms/);
    expect(byId['auth.g.server-hangs']!.finding!.message).toMatch(/no usable response: no response within 200 ms/);
    expect(result.totals).toEqual({ passed: 1, failed: 2, warned: 2, skipped: 1, errored: 2, total: 8 });
    expect(result.checks.map((c) => [c.id, c.finding?.code])).toEqual([
      ['auth.a.pass', undefined],
      ['auth.b.fail', undefined],
      ['auth.c.warn', undefined],
      ['auth.d.skip', undefined],
      ['auth.e.throws', 'CONFORMANCE_ERR_INTERNAL'],
      ['auth.f.hangs', 'CONFORMANCE_ERR_CHECK_TIMEOUT'],
      ['auth.g.server-hangs', 'CONFORMANCE_ERR_TRANSPORT'],
      ['auth.h.info', undefined],
    ]);
    expect(result.run.cleanup).toBeUndefined();
    expect(result.exitCode).toBe(1);
    // The shared token was fetched once before the checks and revoked after them.
    expect(server.received.filter((r) => r.url === '/v1/oauth/token')).toHaveLength(1);
    expect(server.received.at(-1)!.url).toBe('/v1/oauth/revoke');
  });

  it('fails the run on a SHOULD warning only with --fail-on should, and never on INFO', async () => {
    const server = await targetServer();
    const run = (failOn: 'must' | 'should') =>
      runChecks({
        pack,
        target: targetFor(`${server.origin}/v1`),
        suites: [suite],
        selection: { grep: 'warn|info' },
        failOn,
      });
    const lenient = await run('must');
    expect(lenient.checks.map((c) => c.failsRun)).toEqual([false, false]);
    expect(lenient.exitCode).toBe(0);
    const strict = await run('should');
    expect(strict.checks.map((c) => [c.id, c.failsRun])).toEqual([
      ['auth.c.warn', true],
      ['auth.h.info', false],
    ]);
    expect(strict.exitCode).toBe(1);
  });

  it('stops with a TargetError (exit 3) when no token can be obtained or the target is unreachable', async () => {
    const refusing = await targetServer(401);
    const err = await runChecks({ pack, target: targetFor(`${refusing.origin}/v1`), suites: [suite] }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TargetError);
    expect((err as TargetError).exitCode).toBe(3);
    expect((err as TargetError).message).toMatch(/^no token: POST .*\/oauth\/token answered 401/);
    expect((err as TargetError).message).not.toContain('secret-value');
    const gone = await targetServer();
    await gone.close();
    const unreachable = await runChecks({ pack, target: targetFor(`${gone.origin}/v1`), suites: [suite] }).catch(
      (e: unknown) => e,
    );
    expect((unreachable as TargetError).message).toMatch(/^target unreachable: .*ECONNREFUSED/);
  });

  it('rejects an unknown suite or a selection that matches nothing as a usage error', async () => {
    const server = await targetServer();
    const target = targetFor(`${server.origin}/v1`);
    await expect(runChecks({ pack, target, suites: [suite], selection: { suites: ['nope'] } })).rejects.toThrow(
      ConfigError,
    );
    await expect(runChecks({ pack, target, suites: [suite], selection: { grep: 'zzz' } })).rejects.toThrow(
      /no check matches/,
    );
  });
});

describe('Session', () => {
  it('replaces a shared token older than 50 minutes and revokes every token it obtained', async () => {
    let n = 0;
    const server = await startEchoServer((req, res) => {
      res.end(req.url === '/v1/oauth/token' ? JSON.stringify({ data: { token: `token-number-${++n}` } }) : '{}');
    });
    cleanup.push(() => server.close());
    const client = new SignedClient({
      baseUrl: `${server.origin}/v1`,
      clientId: 'c',
      keyId: 'k',
      privateKey: key.seed,
    });
    cleanup.push(() => client.close());
    const session = new Session(client, 'secret-value', () => undefined);
    const start = Date.now();
    const now = vi.spyOn(Date, 'now').mockReturnValue(start);
    try {
      expect(await session.token()).toBe('token-number-1');
      now.mockReturnValue(start + 49 * 60_000);
      expect(await session.token()).toBe('token-number-1');
      now.mockReturnValue(start + 51 * 60_000);
      expect(await session.token()).toBe('token-number-2');
    } finally {
      now.mockRestore();
    }
    expect(await session.close()).toBeUndefined();
    const revoked = server.received
      .filter((r) => r.url === '/v1/oauth/revoke')
      .map((r) => r.headers.find(([h]) => h.toLowerCase() === 'authorization')?.[1]);
    expect(revoked).toEqual(['Bearer token-number-1', 'Bearer token-number-2']);
  });
});

describe('a check that runs out of time', () => {
  it('gets a grace period to undo what it did, and a failed restore is reported with the clean-up problems', async () => {
    const server = await targetServer();
    const restoring = defineSuite({
      name: 'resources',
      title: 'test',
      checks: [
        defineCheck({
          id: 'resources.x.late-restore',
          title: 'changes something, then hangs past its limit',
          level: 'MUST',
          requirements: CITES.MUST,
          // The grace period is as long (at most 15 s): room for the restore's request on a loaded machine.
          timeoutMs: LIMIT_MS,
          async run(ctx) {
            try {
              // Hangs until the time limit, and learns of it the moment it comes.
              await new Promise((resolve) => ctx.timeUp.addEventListener('abort', resolve, { once: true }));
            } finally {
              // The restore's request must still go out after the time limit, within the grace period.
              await ctx.send({ method: 'GET', path: '/restore' });
              ctx.fail('RESTORE FAILED: customer 7 was not put back', { cleanup: true });
            }
          },
        }),
      ],
    });
    const result = await runChecks({ pack, target: targetFor(`${server.origin}/v1`), suites: [restoring] });
    const check = result.checks[0]!;
    expect(check.outcome).toBe('error');
    expect(check.finding!.message).toBe(
      `the check did not finish within ${LIMIT_MS} ms; after it: RESTORE FAILED: customer 7 was not put back`,
    );
    expect(server.received.some((r) => r.url === '/v1/restore')).toBe(true);
    expect(check.finding!.cleanup).toBe(true);
    expect(result.run.cleanup).toEqual([
      `resources.x.late-restore: the check did not finish within ${LIMIT_MS} ms; after it: RESTORE FAILED: customer 7 was not put back`,
    ]);
  });

  it("lists any change a check could not undo with the run's clean-up problems, and no ordinary failure", async () => {
    const server = await targetServer();
    const undoFailed = defineSuite({
      name: 'resources',
      title: 'test',
      checks: [
        defineCheck({
          id: 'resources.x.plain',
          title: 'fails',
          level: 'MUST',
          requirements: CITES.MUST,
          async run(ctx) {
            ctx.fail('an ordinary failure');
          },
        }),
        defineCheck({
          id: 'resources.x.undo',
          title: 'cannot undo',
          level: 'MUST',
          requirements: CITES.MUST,
          async run(ctx) {
            ctx.fail('customer 7 was not put back', { cleanup: true });
          },
        }),
      ],
    });
    const result = await runChecks({ pack, target: targetFor(`${server.origin}/v1`), suites: [undoFailed] });
    expect(result.run.cleanup).toEqual(['resources.x.undo: customer 7 was not put back']);
  });
});
