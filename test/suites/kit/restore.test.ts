// The kit's two restores of a partner's live data, against the reference server on loopback: the mutable customer
// (withRestoredCustomer) and the webhook configuration (withRestoredWebhook). Each is put back after the check failed,
// and once the check ran out of time (in the engine's grace period, without waiting for the work, and the report says
// so); a restore the server refuses, or does not honour, fails the check with CLEAN-UP FAILED and the exact request to
// send by hand, listed with the run's clean-up problems.
// The PUT that restores the customer sends back only values a client may send.
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../helpers/free-port.js';
import { pack } from '../../../suites/index.js';
import { readCustomerOrSkip, withRestoredCustomer, withRestoredWebhook } from '../../../suites/kit/index.js';
import { customerBody } from '../../../suites/kit/customer-restore.js';
import {
  defineCheck,
  defineSuite,
  runChecks,
  type CheckContext,
  type CheckResult,
  type RunResult,
} from '../../../src/engine/index.js';
import type { LocalTarget } from '../../../src/targets/local.js';
import { CITES } from '../../helpers/requirements.js';
import { localTarget } from '../../helpers/webhook-targets.js';
import { LIMIT_MS } from '../../helpers/waits.js';

// The tests run at once (three of them wait out a check's time limit): each has its own server, all stopped at the end.
const stops: Parameters<typeof localTarget>[0] = [];
afterAll(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});
const local = (faults: string[] = []) => localTarget(stops, { faults });

/**
 * The time limit of the checks that run out of time. The grace period after it is as long (min(15 s, limit)), and the
 * requests before it and the restore's three in the grace period must be answered within it on a loaded machine.
 */
const TIMEOUT_MS = LIMIT_MS;

type Body = (ctx: CheckContext) => Promise<void>;

/** Runs one check of a made-up suite with the Investment API's pack (its session, its shared state). */
async function runOne(
  l: LocalTarget,
  uses: 'mutable-customer' | 'webhook-config',
  run: Body,
  timeoutMs?: number,
): Promise<{ result: RunResult; check: CheckResult }> {
  const suite = defineSuite({
    name: 'resources',
    title: 'restores',
    checks: [
      defineCheck({
        id: 'resources.restore.probe',
        title: 'changes something and is put back',
        level: 'MUST',
        uses: [uses],
        requirements: CITES.MUST,
        ...(timeoutMs ? { timeoutMs } : {}),
        run,
      }),
    ],
  });
  const result = await runChecks({ pack: { ...pack, suites: [suite] }, target: l.target, failOn: 'should' });
  return { result, check: result.checks[0]! };
}

/** Resolves when the engine cuts the check's requests: after its time limit and the grace period. A wait with an end. */
const untilCut = (ctx: CheckContext) =>
  new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));

const route = (c: CheckResult) =>
  c.exchanges.map(
    (e) =>
      `${e.request.method} ${new URL(e.request.url).pathname.replace(/^\/v1/, '')} ${e.response?.status ?? e.error}`,
  );

// ---- the mutable customer --------------------------------------------------------------------------------------

describe.concurrent('withRestoredCustomer', () => {
  const customerOf = (l: LocalTarget) => {
    const id = l.target.fixtures.mutableCustomerId!;
    const now = l.server.store.getCustomer(id)!;
    return {
      id,
      now,
      writable: { firstName: now.firstName, lastName: now.lastName, status: now.status, referenceId: now.referenceId },
    };
  };
  const suspend: (id: number) => Body = (id) => async (ctx) => {
    const before = await readCustomerOrSkip(ctx, id);
    await withRestoredCustomer(ctx, before, async () => {
      const res = await ctx.send({
        method: 'PUT',
        path: '/customers',
        json: { customerId: id, firstName: 'Changed', lastName: 'By-The-Check', status: 'SUSPENDED' },
      });
      if (res.status !== 200) ctx.fail(`the change was refused: ${res.status}`);
      ctx.fail('the check failed after changing the customer');
    });
  };

  it('puts the customer back after the check failed, notes it, and passes the failure on', async () => {
    const l = await local();
    const { id, writable } = customerOf(l);
    const { result, check } = await runOne(l, 'mutable-customer', suspend(id));
    expect(check.outcome).toBe('fail');
    expect(check.finding?.message).toBe('the check failed after changing the customer');
    expect(check.finding?.cleanup).toBeUndefined();
    expect(check.observations).toEqual([
      `customer ${id} was restored: PUT /customers answered 200, and GET /customers/${id} shows the saved values`,
    ]);
    expect(route(check)).toEqual([
      `GET /customers/${id} 200`,
      'PUT /customers 200',
      `GET /customers/${id} 200`,
      'PUT /customers 200',
      `GET /customers/${id} 200`,
    ]);
    expect(customerOf(l).writable).toEqual(writable);
    expect(result.run.cleanup).toBeUndefined();
  });

  it('puts the customer back as soon as the check runs out of time, in the grace period, without waiting for the work', async () => {
    const l = await local();
    const { id, writable } = customerOf(l);
    const { result, check } = await runOne(
      l,
      'mutable-customer',
      async (ctx) => {
        const before = await readCustomerOrSkip(ctx, id);
        await withRestoredCustomer(ctx, before, async () => {
          await ctx.send({
            method: 'PUT',
            path: '/customers',
            json: { customerId: id, firstName: 'Changed', lastName: 'By-The-Check' },
          });
          await untilCut(ctx);
        });
      },
      TIMEOUT_MS,
    );
    expect(check.outcome).toBe('error');
    expect(check.finding?.message).toBe(`the check did not finish within ${TIMEOUT_MS} ms`);
    expect(check.observations).toEqual([
      `the check's time ran out: customer ${id} was restored: PUT /customers answered 200, and GET /customers/${id} shows the saved values`,
    ]);
    expect(route(check)).toEqual([
      `GET /customers/${id} 200`,
      'PUT /customers 200',
      `GET /customers/${id} 200`,
      'PUT /customers 200',
      `GET /customers/${id} 200`,
    ]);
    // The body ended with the restore, before the grace period ran out and the engine cut its requests (the work never
    // ends by itself: had the restore waited for it, the check would have lasted the limit and the whole grace period).
    expect(check.durationMs).toBeLessThan(2 * TIMEOUT_MS);
    expect(customerOf(l).writable).toEqual(writable);
    expect(result.run.cleanup).toBeUndefined();
  });

  it('fails with CLEAN-UP FAILED and the exact PUT to send by hand when the server refuses the restore', async () => {
    // A server that wants both names on every update, and a customer that has none: the restoring PUT (the saved
    // values, which hold no name) is refused with 400.
    const l = await local(['resources.customer-update-requires-names']);
    const id = l.target.fixtures.mutableCustomerId!;
    l.server.store.updateCustomer(id, { firstName: undefined, lastName: undefined }, Math.floor(Date.now() / 1000));
    const saved = l.server.store.getCustomer(id)!;
    const { result, check } = await runOne(l, 'mutable-customer', suspend(id));
    const line = `CLEAN-UP FAILED: customer ${id} was changed and could not be restored (PUT /customers answered 400); restore it by hand: PUT /customers {"customerId":${id},"status":${JSON.stringify(saved.status)},"referenceId":${saved.referenceId}}`;
    expect(check.outcome).toBe('fail');
    expect(check.finding?.message).toBe(
      `${line}. The check had failed before the restore: the check failed after changing the customer`,
    );
    expect(check.finding?.cleanup).toBe(true);
    expect(check.finding?.observed).toMatch(/^PUT \/customers answered 400: 400 .*firstName and lastName are required/);
    expect(result.run.cleanup).toEqual([`resources.restore.probe: ${check.finding?.message}`]);
  });

  it('fails with CLEAN-UP FAILED when the server answers the restore 200 but does not keep it (read back)', async () => {
    const l = await local(['resources.customer-update-not-saved']);
    const { id, writable } = customerOf(l);
    const { result, check } = await runOne(l, 'mutable-customer', async (ctx) => {
      const before = await readCustomerOrSkip(ctx, id);
      await withRestoredCustomer(ctx, before, async () => {
        // What a server that does not honour updates might still do by other means: the change happens in its store.
        l.server.store.updateCustomer(id, { firstName: 'Changed' }, Math.floor(Date.now() / 1000));
      });
    });
    const byHand = `PUT /customers {"customerId":${id},"firstName":${JSON.stringify(writable.firstName)},"lastName":${JSON.stringify(writable.lastName)},"status":${JSON.stringify(writable.status)},"referenceId":${writable.referenceId}}`;
    expect(check.outcome).toBe('fail');
    expect(check.finding?.message).toBe(
      `CLEAN-UP FAILED: customer ${id} was changed and could not be restored (after the restoring PUT (answered 200), GET /customers/${id} still shows firstName "Changed" (saved ${JSON.stringify(writable.firstName)})); restore it by hand: ${byHand}`,
    );
    expect(check.finding?.cleanup).toBe(true);
    expect(result.run.cleanup).toEqual([`resources.restore.probe: ${check.finding?.message}`]);
  });

  it("after a time-out, a refused restore is the late finding, with CLEAN-UP FAILED and the run's clean-up line", async () => {
    const l = await local(['resources.customer-update-requires-names']);
    const id = l.target.fixtures.mutableCustomerId!;
    l.server.store.updateCustomer(id, { firstName: undefined, lastName: undefined }, Math.floor(Date.now() / 1000));
    const saved = l.server.store.getCustomer(id)!;
    const { result, check } = await runOne(
      l,
      'mutable-customer',
      async (ctx) => {
        const before = await readCustomerOrSkip(ctx, id);
        await withRestoredCustomer(ctx, before, async () => {
          await ctx.send({
            method: 'PUT',
            path: '/customers',
            json: { customerId: id, firstName: 'Changed', lastName: 'By-The-Check', status: 'SUSPENDED' },
          });
          await untilCut(ctx);
        });
      },
      TIMEOUT_MS,
    );
    expect(check.outcome).toBe('error');
    expect(check.finding?.message).toBe(
      `the check did not finish within ${TIMEOUT_MS} ms; after it: CLEAN-UP FAILED: customer ${id} was changed and could not be restored (PUT /customers answered 400); restore it by hand: PUT /customers {"customerId":${id},"status":${JSON.stringify(saved.status)},"referenceId":${saved.referenceId}}`,
    );
    expect(check.finding?.cleanup).toBe(true);
    expect(result.run.cleanup).toEqual([`resources.restore.probe: ${check.finding?.message}`]);
  });
});

// ---- the webhook configuration ---------------------------------------------------------------------------------

describe.concurrent('withRestoredWebhook', () => {
  /** The client's configuration before the check under test, as a partner's would be: POSTed by a check of its own. */
  async function preconfigure(l: LocalTarget, url: string, subscriptions: string[]): Promise<void> {
    const { check } = await runOne(l, 'webhook-config', async (ctx) => {
      const res = await ctx.send({ method: 'POST', path: '/webhooks', json: { url, subscriptions } });
      if (res.status < 200 || res.status > 299) ctx.fail(`set-up POST /webhooks answered ${res.status}`);
      ctx.judged('the set-up POST /webhooks');
    });
    expect(check.outcome).toBe('pass');
  }

  /** The configuration as GET /webhooks shows it now, read by a check of its own. */
  async function current(l: LocalTarget): Promise<{ url: unknown; subscriptions: unknown }> {
    let shown: { url: unknown; subscriptions: unknown } = { url: undefined, subscriptions: undefined };
    await runOne(l, 'webhook-config', async (ctx) => {
      const res = await ctx.send({ method: 'GET', path: '/webhooks' });
      const data = (JSON.parse(res.text) as { data: { url: unknown; subscriptions: unknown } }).data;
      shown = { url: data.url, subscriptions: data.subscriptions };
    });
    return shown;
  }

  const move =
    (to: string, then: (ctx: CheckContext) => Promise<void>): Body =>
    async (ctx) => {
      await withRestoredWebhook(ctx, async (saved) => {
        if (saved.kind !== 'webhook') ctx.fail(`no webhook was saved: ${saved.how}`);
        const res = await ctx.send({ method: 'PUT', path: '/webhooks', json: { url: to, subscriptions: ['ALL'] } });
        if (res.status !== 200) ctx.fail(`the change was refused: ${res.status}`);
        await then(ctx);
      });
    };

  it('puts the configuration back after the check failed, notes it, and passes the failure on', async () => {
    const l = await local();
    const url = `https://127.0.0.1:${await freePort()}/partner/hooks`;
    await preconfigure(l, url, ['AUTH.DELETED']);
    const { result, check } = await runOne(
      l,
      'webhook-config',
      move(`https://127.0.0.1:${await freePort()}/moved`, async (ctx) =>
        ctx.fail('the check failed after moving the webhook'),
      ),
    );
    expect(check.outcome).toBe('fail');
    expect(check.finding?.message).toBe('the check failed after moving the webhook');
    expect(check.observations).toEqual([
      `the webhook configuration was restored: PUT /webhooks answered 200, and GET /webhooks shows url ${JSON.stringify(url)}, subscriptions ["AUTH.DELETED","WEBHOOK.CREATED"]`,
    ]);
    expect(route(check)).toEqual([
      'GET /webhooks 200',
      'PUT /webhooks 200',
      'GET /webhooks 200',
      'PUT /webhooks 200',
      'GET /webhooks 200',
    ]);
    expect(result.run.cleanup).toBeUndefined();
    expect(await current(l)).toEqual({ url, subscriptions: ['AUTH.DELETED', 'WEBHOOK.CREATED'] });
  });

  it('puts the configuration back as soon as the check runs out of time, in the grace period, without waiting for the work', async () => {
    const l = await local();
    const url = `https://127.0.0.1:${await freePort()}/partner/hooks`;
    await preconfigure(l, url, ['AUTH.DELETED']);
    const { result, check } = await runOne(
      l,
      'webhook-config',
      move(`https://127.0.0.1:${await freePort()}/moved`, untilCut),
      TIMEOUT_MS,
    );
    expect(check.outcome).toBe('error');
    expect(check.finding?.message).toBe(`the check did not finish within ${TIMEOUT_MS} ms`);
    expect(check.observations).toEqual([
      `the check's time ran out: the webhook configuration was restored: PUT /webhooks answered 200, and GET /webhooks shows url ${JSON.stringify(url)}, subscriptions ["AUTH.DELETED","WEBHOOK.CREATED"]`,
    ]);
    // Ended with the restore, before the grace period ran out (the work never ends by itself).
    expect(check.durationMs).toBeLessThan(2 * TIMEOUT_MS);
    expect(result.run.cleanup).toBeUndefined();
    expect(await current(l)).toEqual({ url, subscriptions: ['AUTH.DELETED', 'WEBHOOK.CREATED'] });
  });

  it('fails with CLEAN-UP FAILED and the exact PUT to send by hand when the server refuses the restore', async () => {
    // POST took a plain http URL (the fault); PUT, which checks it, refuses to put that URL back.
    const l = await local(['webhooks.http-url-accepted']);
    const url = `http://127.0.0.1:${await freePort()}/partner/hooks`;
    await preconfigure(l, url, ['AUTH.DELETED']);
    const moved = `https://127.0.0.1:${await freePort()}/moved`;
    const { result, check } = await runOne(
      l,
      'webhook-config',
      move(moved, async () => undefined),
    );
    const line = `CLEAN-UP FAILED: the webhook configuration was changed and could not be restored (PUT /webhooks answered 400); restore it by hand: PUT /webhooks {"url":"${url}","subscriptions":["AUTH.DELETED","WEBHOOK.CREATED"]}`;
    expect(check.outcome).toBe('fail');
    expect(check.finding?.message).toBe(line);
    expect(check.finding?.cleanup).toBe(true);
    expect(check.finding?.observed).toMatch(/^PUT \/webhooks answered 400: 400 .*https/);
    expect(result.run.cleanup).toEqual([`resources.restore.probe: ${line}`]);
    expect((await current(l)).url).toBe(moved);
  });

  it('fails with CLEAN-UP FAILED when the server answers the restore 200 but does not keep it (read back)', async () => {
    const l = await local(['webhooks.subscriptions-appended']);
    const url = `https://127.0.0.1:${await freePort()}/partner/hooks`;
    await preconfigure(l, url, ['AUTH.DELETED']);
    const { result, check } = await runOne(
      l,
      'webhook-config',
      move(url, async (ctx) => ctx.fail('the check failed after subscribing to ALL')),
    );
    expect(check.finding?.message).toBe(
      `CLEAN-UP FAILED: the webhook configuration was changed and could not be restored (GET /webhooks then showed url ${JSON.stringify(url)}, subscriptions ["AUTH.DELETED","WEBHOOK.CREATED","ALL"]); restore it by hand: PUT /webhooks {"url":"${url}","subscriptions":["AUTH.DELETED","WEBHOOK.CREATED"]}. The check had failed before the restore: the check failed after subscribing to ALL`,
    );
    expect(check.finding?.cleanup).toBe(true);
    expect(result.run.cleanup).toEqual([`resources.restore.probe: ${check.finding?.message}`]);
  });
});

// The body of the restore's PUT (customerBody), met on the way to another defect (issue 14): it sends back only what a
// client may send.
describe("the customer restore's PUT body", () => {
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
});
