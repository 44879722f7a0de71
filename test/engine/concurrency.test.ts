// runChecks with --concurrency: waits overlap, shared state is taken in turn, and what reporters see does not depend on
// which check finished first.
import { CITES } from '../helpers/requirements.js';
import { pack } from '../../suites/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { defineCheck, defineSuite, runChecks, type CheckContext } from '../../src/engine/index.js';
import { generateEd25519 } from '../../src/http/keys.js';
import type { ResolvedTarget } from '../../src/config/types.js';
import { startEchoServer } from '../helpers/echo-server.js';

const key = generateEd25519();
let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function target(): Promise<ResolvedTarget> {
  const server = await startEchoServer((req, res) => {
    res.end(
      req.url === '/v1/oauth/token'
        ? JSON.stringify({ data: { token: 'shared-token-0123456789' }, code: '200', message: 'Success' })
        : '{}',
    );
  });
  cleanup.push(() => server.close());
  return {
    name: 't',
    baseUrl: `${server.origin}/v1`,
    clientId: 'c',
    clientSecret: 'secret-value',
    keyId: 'k',
    privateKeyPem: key.privateKeyPem,
    privateKey: key.seed,
    fixtures: { mutableCustomerId: 7 },
    webhook: { listen: '127.0.0.1:0', tls: 'none' },
  };
}

/** A promise opened from outside: checks wait on it instead of sleeping. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('runChecks with concurrency', () => {
  it('overlaps the waits of independent checks: four checks that each wait for all four to be running all pass', async () => {
    let running = 0;
    const allRunning = gate();
    const waiter = (id: string) =>
      defineCheck({
        id,
        title: 'waits for the others',
        level: 'MUST',
        requirements: CITES.MUST,
        async run(ctx) {
          running += 1;
          if (running === 4) allRunning.open();
          await allRunning.opened;
          ctx.judged('the others running');
        },
      });
    const suite = defineSuite({
      name: 'auth',
      title: 'test',
      checks: ['auth.w.1', 'auth.w.2', 'auth.w.3', 'auth.w.4'].map(waiter),
    });
    const result = await runChecks({ pack, target: await target(), suites: [suite], concurrency: 4 });
    expect(result.checks.map((c) => c.outcome)).toEqual(['pass', 'pass', 'pass', 'pass']);
    expect(result.run.concurrency).toBe(4);
  });

  it('with --concurrency 1 runs one check at a time: the same waits never meet, and each check runs out of time', async () => {
    let running = 0;
    const waiter = (id: string) =>
      defineCheck({
        id,
        title: 'waits for a second check to run beside it',
        level: 'MUST',
        requirements: CITES.MUST,
        timeoutMs: 150,
        async run(ctx) {
          running += 1;
          if (running < 2) await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
          running -= 1;
          if (running > 0) ctx.fail('ran beside another check');
        },
      });
    const suite = defineSuite({ name: 'auth', title: 'test', checks: ['auth.w.1', 'auth.w.2'].map(waiter) });
    const result = await runChecks({ pack, target: await target(), suites: [suite], concurrency: 1 });
    expect(result.checks.map((c) => [c.outcome, c.finding?.message])).toEqual([
      ['error', 'the check did not finish within 150 ms'],
      ['error', 'the check did not finish within 150 ms'],
    ]);
    expect(result.run.concurrency).toBe(1);
  });

  it('reports results in declaration order, to reporters as well, when a later check finishes first', async () => {
    const firstMayEnd = gate();
    const suite = defineSuite({
      name: 'auth',
      title: 'test',
      checks: [
        defineCheck({
          id: 'auth.o.first',
          title: 'ends last',
          level: 'MUST',
          requirements: CITES.MUST,
          run: async (ctx) => {
            await firstMayEnd.opened;
            ctx.judged('the gate');
          },
        }),
        defineCheck({
          id: 'auth.o.second',
          title: 'ends first',
          level: 'MUST',
          requirements: CITES.MUST,
          async run(ctx) {
            firstMayEnd.open();
            ctx.judged('the gate');
          },
        }),
        defineCheck({
          id: 'auth.o.third',
          title: 'fails',
          level: 'MUST',
          requirements: CITES.MUST,
          async run(ctx) {
            await firstMayEnd.opened;
            ctx.fail('third');
          },
        }),
      ],
    });
    const heard: string[] = [];
    const result = await runChecks({
      pack,
      target: await target(),
      suites: [suite],
      concurrency: 3,
      reporter: { onCheckEnd: (r) => heard.push(r.id), onRunEnd: () => undefined },
    });
    expect(result.checks.map((c) => c.id)).toEqual(['auth.o.first', 'auth.o.second', 'auth.o.third']);
    expect(heard).toEqual(['auth.o.first', 'auth.o.second', 'auth.o.third']);
    expect(result.checks.map((c) => c.outcome)).toEqual(['pass', 'pass', 'fail']);
  });

  it('tells reporters of each check as it stops, before its result comes in declaration order', async () => {
    const secondStopped = gate();
    const suite = defineSuite({
      name: 'auth',
      title: 'test',
      checks: [
        defineCheck({
          id: 'auth.f.first',
          title: 'ends once the second has stopped',
          level: 'MUST',
          requirements: CITES.MUST,
          run: () => secondStopped.opened,
        }),
        defineCheck({
          id: 'auth.f.second',
          title: 'ends at once',
          level: 'MUST',
          requirements: CITES.MUST,
          async run() {},
        }),
      ],
    });
    const heard: string[] = [];
    await runChecks({
      pack,
      target: await target(),
      suites: [suite],
      concurrency: 2,
      reporter: {
        onCheckFinished: (c) => {
          heard.push(`finished ${c.id}`);
          if (c.id === 'auth.f.second') secondStopped.open();
        },
        onCheckEnd: (r) => heard.push(`end ${r.id}`),
        onRunEnd: () => undefined,
      },
    });
    expect(heard).toEqual(['finished auth.f.second', 'finished auth.f.first', 'end auth.f.first', 'end auth.f.second']);
  });

  it('never overlaps checks that declare the same shared state, and runs them in declaration order', async () => {
    const events: string[] = [];
    let holders = 0;
    const changer = (id: string) =>
      defineCheck({
        id,
        title: 'changes the mutable customer',
        level: 'MUST',
        requirements: CITES.MUST,
        uses: ['mutable-customer'],
        async run(ctx: CheckContext) {
          holders += 1;
          events.push(`${id} ${holders}`);
          await ctx.send({ method: 'PUT', path: '/customers', json: { customerId: 7 } });
          await ctx.send({ method: 'GET', path: '/customers/7' });
          ctx.judged('the customer');
          holders -= 1;
        },
      });
    const reader = defineCheck({
      id: 'resources.r.free',
      title: 'reads',
      level: 'MUST',
      requirements: CITES.MUST,
      async run(ctx) {
        await ctx.send({ method: 'GET', path: '/accounts' });
        ctx.judged('the accounts');
      },
    });
    const suites = [
      defineSuite({ name: 'signing', title: 'test', checks: [changer('signing.c.one'), changer('signing.c.two')] }),
      defineSuite({ name: 'resources', title: 'test', checks: [changer('resources.c.three'), reader] }),
    ];
    const result = await runChecks({ pack, target: await target(), suites, concurrency: 8 });
    expect(result.checks.every((c) => c.outcome === 'pass')).toBe(true);
    expect(events).toEqual(['signing.c.one 1', 'signing.c.two 1', 'resources.c.three 1']);
  });

  it('turns a request that changes undeclared shared state into an error of the check, naming the state', async () => {
    const suite = defineSuite({
      name: 'resources',
      title: 'test',
      checks: [
        defineCheck({
          id: 'resources.u.customer',
          title: 'puts',
          level: 'MUST',
          requirements: CITES.MUST,
          async run(ctx) {
            await ctx.send({ method: 'PUT', path: '/customers', json: { customerId: 7 } });
          },
        }),
        defineCheck({
          id: 'resources.u.webhook',
          title: 'posts',
          level: 'MUST',
          requirements: CITES.MUST,
          async run(ctx) {
            await ctx.send({ method: 'POST', path: '/webhooks/test' });
          },
        }),
        defineCheck({
          id: 'resources.u.read',
          title: 'reads',
          level: 'MUST',
          requirements: CITES.MUST,
          async run(ctx) {
            await ctx.send({ method: 'GET', path: '/webhooks' });
            ctx.judged('the webhook');
          },
        }),
      ],
    });
    const result = await runChecks({ pack, target: await target(), suites: [suite] });
    expect(result.checks.map((c) => [c.outcome, c.finding?.message])).toEqual([
      [
        'error',
        'the check itself broke: PUT /customers may change shared state "mutable-customer", which check resources.u.customer does not declare in `uses`',
      ],
      [
        'error',
        'the check itself broke: POST /webhooks/test may change shared state "webhook-config", which check resources.u.webhook does not declare in `uses`',
      ],
      ['pass', undefined],
    ]);
  });

  it('reports the time of each suite: its checks, its wall time and its check time added up', async () => {
    const quick = (id: string) =>
      defineCheck({
        id,
        title: 't',
        level: 'MUST',
        requirements: CITES.MUST,
        async run(ctx) {
          await ctx.send({ method: 'GET', path: '/ok' });
        },
      });
    const suites = [
      defineSuite({ name: 'auth', title: 'a', checks: [quick('auth.t.1'), quick('auth.t.2')] }),
      defineSuite({ name: 'signing', title: 's', checks: [quick('signing.t.1')] }),
    ];
    const result = await runChecks({ pack, target: await target(), suites });
    expect(result.run.suites!.map((t) => [t.suite, t.checks])).toEqual([
      ['auth', 2],
      ['signing', 1],
    ]);
    for (const t of result.run.suites!) {
      const checks = result.checks.filter((c) => c.suite === t.suite);
      expect(t.checkMs).toBe(checks.reduce((sum, c) => sum + c.durationMs, 0));
      expect(t.wallMs).toBe(
        Math.max(...checks.map((c) => c.startMs! + c.durationMs)) - Math.min(...checks.map((c) => c.startMs!)),
      );
    }
    expect(result.run.concurrency).toBe(6);
  });
});
