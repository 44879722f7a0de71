// The run against a server that throttles, closes its connections or never stops throttling: the checks see none of
// it, the run's notes say what it met, and a server that throttles past the bound is one finding for the run.
import { afterEach, describe, expect, it } from 'vitest';
import { pack } from '../../suites/index.js';
import { defineCheck, defineSuite, runChecks, type RunResult } from '../../src/engine/index.js';
import { generateEd25519 } from '../../src/http/keys.js';
import { startReferenceServer } from '../../src/reference/server.js';
import { defaultFixtures } from '../../src/reference/store.js';
import { CHOICE_DEFS, type Choices } from '../../src/reference/choices/index.js';
import type { ResolvedTarget } from '../../src/config/types.js';
import resources from '../../suites/resources/index.js';
import auth from '../../suites/auth/index.js';
import pagination from '../../suites/pagination/index.js';
import { QUOTA_SPENT_AT_REQUEST } from '../../src/reference/choices/transport.js';
import { CITES } from '../helpers/requirements.js';
import { startEchoServer } from '../helpers/echo-server.js';

const key = generateEd25519();
const SECRET = 'transport-e2e-secret';
let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

function targetFor(baseUrl: string): ResolvedTarget {
  return {
    name: 't',
    baseUrl,
    clientId: 'partner',
    clientSecret: SECRET,
    keyId: 'partner-key',
    privateKeyPem: key.privateKeyPem,
    privateKey: key.seed,
    fixtures: defaultFixtures(),
    webhook: { listen: '127.0.0.1:0', tls: 'none' },
  };
}

async function reference(choices: Partial<Choices>, rateLimitPerSecond?: number) {
  const server = await startReferenceServer({
    clients: [{ clientId: 'partner', clientSecret: SECRET, keyId: 'partner-key', publicKey: key.publicKey }],
    choices,
    ...(rateLimitPerSecond !== undefined ? { rateLimitPerSecond } : {}),
  });
  cleanup.push(() => server.close());
  return server;
}

/** Whether the `recorded` regex of a choice's value matches one of the run's notes. */
function recorded<K extends keyof typeof CHOICE_DEFS>(result: RunResult, key: K, value: string): boolean {
  const def = CHOICE_DEFS[key].values.find((v) => v.value === value)!;
  return (result.run.notes ?? []).some((n) => new RegExp(def.recorded, 'i').test(n));
}

// Reads, a PUT restored afterwards, token requests: some 16 requests, over several windows of the small limit.
const SELECTION = {
  grep: '^resources\\.(customers|accounts)\\.get$|^resources\\.customers\\.update$|^auth\\.token\\.(issued|unique)$',
};
const SMALL_LIMIT = 5;

describe('a run against a server that throttles', () => {
  for (const rateLimit of ['60-per-second', '60-per-second-date', '60-per-second-no-retry-after'] as const) {
    it(`waits out every 429 (${rateLimit}) so that no check sees one, and notes how often and how long`, async () => {
      const server = await reference({ rateLimit }, SMALL_LIMIT);
      const result = await runChecks({
        pack,
        target: targetFor(server.baseUrl),
        suites: [auth, resources],
        selection: SELECTION,
        failOn: 'should',
      });
      expect(result.totals).toMatchObject({ failed: 0, warned: 0, errored: 0 });
      expect(result.totals.passed).toBe(5);
      expect(result.checks.flatMap((c) => c.exchanges).filter((e) => e.response?.status === 429)).toEqual([]);
      expect(recorded(result, 'rateLimit', rateLimit)).toBe(true);
      expect(result.exitCode).toBe(0);
    });
  }
});

describe('a run slower than the chosen limit', () => {
  it(`still meets the 429 of the quota the client's other callers spent (request ${QUOTA_SPENT_AT_REQUEST}), and records the reading`, async () => {
    // Each answer held 20 ms and one request at a time: at most 50 a second, under the 60 of the limit.
    const server = await startReferenceServer({
      clients: [{ clientId: 'partner', clientSecret: SECRET, keyId: 'partner-key', publicKey: key.publicKey }],
      choices: { rateLimit: '60-per-second-date' },
      latencyMs: 20,
    });
    cleanup.push(() => server.close());
    const result = await runChecks({
      pack,
      target: targetFor(server.baseUrl),
      suites: [pagination],
      concurrency: 1,
      failOn: 'should',
    });
    expect(result.totals).toMatchObject({ failed: 0, warned: 0, errored: 0 });
    expect(recorded(result, 'rateLimit', '60-per-second-date')).toBe(true);
    expect(result.run.notes).toContainEqual(
      expect.stringMatching(/^throttling: the server answered 429 \(Too Many Requests\) \d+ time\(s\)/),
    );
  });
});

describe('a run against a server that closes its connections', () => {
  for (const connection of ['close', 'drop-idle'] as const) {
    it(`passes with connection=${connection} and notes it`, async () => {
      const server = await reference({ connection });
      const result = await runChecks({
        pack,
        target: targetFor(server.baseUrl),
        suites: [auth, resources],
        selection: SELECTION,
        failOn: 'should',
      });
      expect(result.totals).toMatchObject({ failed: 0, warned: 0, errored: 0 });
      expect(recorded(result, 'connection', connection)).toBe(true);
      expect(recorded(result, 'rateLimit', 'none')).toBe(true);
    });
  }
});

describe('a run against a server that never stops throttling', () => {
  it('is one finding for the run: a note, the checks left errored with its reason, no verdict of conformance, exit 1', async () => {
    const server = await startEchoServer((req, res) => {
      if (req.url === '/v1/oauth/token')
        return res.end(JSON.stringify({ data: { token: 'shared-token-0123456789' }, code: '200', message: 'Success' }));
      res.writeHead(429, { 'retry-after': '3600', 'content-type': 'application/json' });
      res.end('{"code":"429","message":"Too Many Requests"}');
    });
    cleanup.push(() => server.close());
    const read = (id: string) =>
      defineCheck({
        id,
        title: id,
        level: 'MUST',
        requirements: CITES.MUST,
        async run(ctx) {
          const res = await ctx.send({ method: 'GET', path: '/instruments' });
          if (res.status !== 200) ctx.fail(`answered ${res.status}`);
          ctx.judged('GET /instruments');
        },
      });
    const suite = defineSuite({
      name: 'resources',
      title: 'throttled',
      checks: [read('resources.a.one'), read('resources.b.two'), read('resources.c.three'), read('resources.d.four')],
    });
    const result = await runChecks({ pack, target: targetFor(`${server.origin}/v1`), suites: [suite], concurrency: 2 });
    expect(result.checks.map((c) => c.outcome)).toEqual(['error', 'error', 'error', 'error']);
    const reasons = new Set(result.checks.map((c) => c.finding?.message));
    expect([...reasons]).toHaveLength(1);
    expect([...reasons][0]).toMatch(/^the server kept answering 429 .*Retry-After: 3600/);
    expect((result.run.notes ?? []).filter((n) => /kept answering 429/.test(n))).toHaveLength(1);
    expect(result.totals.failed).toBe(0);
    expect(result.verdict.status).not.toBe('CONFORMANT');
    expect(result.exitCode).toBe(1);
    // Two checks at once met the first 429s; the others were never sent.
    expect(server.received.filter((r) => r.url === '/v1/instruments').length).toBeLessThanOrEqual(2);
  });
});
