// Interrupted runs against a server across a (simulated) network: `conformance run` as a child process, stopped by
// SIGINT or SIGTERM at chosen points of the webhooks and resources suites (the moment the server has taken a change
// and the run still waits for the answer), must leave the client's webhook configuration and the mutable customer as
// they were, exit 130 or 143 and report INTERRUPTED. Killed outright (SIGKILL) in the middle of a change, the run
// leaves its restore journal: `conformance restore`, or the next run, puts them back and says so.
//
// Each case gets its own reference server (a clean webhook registry: the interface has no DELETE), with every answer
// 30 ms late, and a middleware that tells the test what the server took; the test signals on that event, never after
// a sleep.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalTarget, type LocalTarget } from '../../src/targets/local.js';
import { receiverTls } from '../../src/receiver/certificate.js';
import type { Middleware } from '../../src/reference/context.js';
import { parsePrivateKeyPem } from '../../src/http/keys.js';
import { BIN, runCli } from '../helpers/cli.js';
import { WAIT_MS } from '../helpers/waits.js';
import { signedSession, signedFetch, type TestClient } from '../helpers/signed-fetch.js';

/** What the server took: a request its handler answered, with the body it was sent. */
interface Taken {
  method: string;
  path: string;
  status: number;
  body: Record<string, unknown> | undefined;
}

interface Sandbox {
  local: LocalTarget;
  dir: string;
  config: string;
  client: TestClient;
  /** Resolves with the first request the server takes from now on that matches; rejects past the deadline. */
  when(match: (t: Taken) => boolean): Promise<Taken>;
  /** The server refuses every PUT /customers while set (a restore that cannot be done). */
  refuseCustomerUpdates: boolean;
  /** The server never answers a PUT /customers while set (a restore that hangs); `hung` hears of the first. */
  hangCustomerUpdates: boolean;
  hung: () => void;
  webhook(): Promise<{ url: unknown; subscriptions: unknown } | undefined>;
  customer(): Record<string, unknown>;
}

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** The webhook checks that change the configuration, and the restore check: enough to meet every interrupt point. */
const WEBHOOK_RUN = ['--suite', 'webhooks', '--grep', '^webhooks\\.(config|create|update|subscriptions)\\.'];
const PARTNER_HOOK = { url: 'https://hooks.partner.test/in', subscriptions: ['AUTH', 'WEBHOOK.CREATED'] };
const WRITABLE = ['firstName', 'lastName', 'status', 'referenceId'];

/** A reference server 30 ms away, a target config for it (its client, the receiver's certificate) in a fresh folder. */
async function sandbox(options: { partnerHook?: boolean } = {}): Promise<Sandbox> {
  const waiting: Array<{ match: (t: Taken) => boolean; resolve: (t: Taken) => void }> = [];
  const box = { refuseCustomerUpdates: false, hangCustomerUpdates: false, hung: () => {} } as Sandbox;
  const watch: Middleware = async (ctx, _state, route, next) => {
    const customerUpdate = route.method === 'PUT' && route.path === '/customers';
    if (box.refuseCustomerUpdates && customerUpdate)
      return { status: 503, body: { code: '503', message: 'Service Unavailable' } };
    if (box.hangCustomerUpdates && customerUpdate) {
      box.hung();
      return new Promise(() => {});
    }
    const reply = await next();
    let body: Record<string, unknown> | undefined;
    try {
      body = ctx.body.length > 0 ? (JSON.parse(ctx.body.toString('utf8')) as Record<string, unknown>) : undefined;
    } catch {
      body = undefined;
    }
    const taken = { method: route.method, path: route.path, status: reply.status, body };
    for (const w of [...waiting])
      if (w.match(taken)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(taken);
      }
    return reply;
  };
  const local = await startLocalTarget({ name: 'sandbox', latencyMs: 30, middleware: [watch] });
  stops.push(local.stop);
  const dir = mkdtempSync(join(tmpdir(), 'conformance-interrupt-'));
  // The receiver of the run (another process) presents the certificate this process's server trusts.
  const tls = (await receiverTls(local.target.webhook))!;
  writeFileSync(join(dir, 'receiver-cert.pem'), tls.cert);
  writeFileSync(join(dir, 'receiver-key.pem'), tls.key, { mode: 0o600 });
  const t = local.target;
  const config = join(dir, 'c.json');
  writeFileSync(
    config,
    JSON.stringify({
      targets: {
        sandbox: {
          baseUrl: t.baseUrl,
          clientId: t.clientId,
          clientSecret: t.clientSecret,
          keyId: t.keyId,
          privateKey: t.privateKeyPem,
          fixtures: t.fixtures,
          webhook: { listen: '127.0.0.1:0', tls: { certFile: './receiver-cert.pem', keyFile: './receiver-key.pem' } },
        },
      },
    }),
    { mode: 0o600 },
  );
  const client: TestClient = {
    clientId: t.clientId,
    clientSecret: t.clientSecret,
    keyId: t.keyId,
    keys: { ...parsePrivateKeyPem(t.privateKeyPem), privateKeyPem: t.privateKeyPem },
  };
  const session = await signedSession(t.baseUrl, client);
  if (options.partnerHook) {
    const res = await signedFetch({
      method: 'POST',
      url: `${t.baseUrl}/webhooks`,
      client,
      token: session.token,
      body: JSON.stringify(PARTNER_HOOK),
    });
    expect(res.status).toBe(200);
  }
  return Object.assign(box, {
    local,
    dir,
    config,
    client,
    when: (match: (t: Taken) => boolean) =>
      new Promise<Taken>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`the server took no such request within ${WAIT_MS} ms`)),
          WAIT_MS,
        );
        waiting.push({
          match,
          resolve: (taken) => {
            clearTimeout(timer);
            resolve(taken);
          },
        });
      }),
    webhook: async () => {
      const res = await session.get(`${t.baseUrl}/webhooks`);
      if (res.status === 404) return undefined;
      const w = res.body.data as { url: unknown; subscriptions: unknown };
      return { url: w.url, subscriptions: w.subscriptions };
    },
    customer: () => {
      const c = local.server.store.getCustomer(t.fixtures.mutableCustomerId!)! as unknown as Record<string, unknown>;
      return Object.fromEntries(WRITABLE.map((k) => [k, c[k]]));
    },
  });
}

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** `conformance run ARGS` against the sandbox, sent `signal` once the server took what `point` matches. */
async function runStoppedAt(
  box: Sandbox,
  args: string[],
  point: (t: Taken) => boolean,
  signal: NodeJS.Signals,
): Promise<Ended & { report: any; point: Taken }> {
  const reached = box.when(point);
  const child = spawn(
    process.execPath,
    [BIN, 'run', '--config', box.config, '--target', 'sandbox', '--json', 'r.json', ...args],
    {
      cwd: box.dir,
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const ended = new Promise<Ended>((resolve) =>
    child.once('exit', (code, sig) => resolve({ code, signal: sig, stdout, stderr })),
  );
  const first = await Promise.race([reached, ended]);
  if ('code' in first)
    throw new Error(`the run ended before the point (exit ${first.code}): ${first.stderr}${first.stdout}`);
  child.kill(signal);
  const limit = setTimeout(() => child.kill('SIGKILL'), WAIT_MS);
  const end = await ended.finally(() => clearTimeout(limit));
  const report = signal === 'SIGKILL' ? undefined : JSON.parse(readFileSync(join(box.dir, 'r.json'), 'utf8'));
  return { ...end, stdout, stderr, report, point: first };
}

const journalFiles = (box: Sandbox) => {
  try {
    return readdirSync(join(box.dir, '.conformance', 'restore', 'sandbox')).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
};

const isWebhookChange = (t: Taken) => (t.method === 'PUT' || t.method === 'POST') && t.path === '/webhooks';
const toReceiver = (t: Taken) =>
  isWebhookChange(t) && t.status < 300 && String(t.body?.url).includes('/conformance/webhook');

/** The n-th change to the run's receiver the server took (counting from the run's start), whatever it sets. */
function nthWebhookChange(n: number): (t: Taken) => boolean {
  let seen = 0;
  return (t) => toReceiver(t) && ++seen === n;
}

describe('an interrupted run', () => {
  // The interrupt points: the webhook suite's registration, the middle of its subscription checks, its own restore; a
  // webhook the run created; the customer's status probe and its update check.
  const webhookPoints: Array<[string, (t: Taken) => boolean, NodeJS.Signals]> = [
    ['as it registers its receiver', toReceiver, 'SIGINT'],
    ['among its subscription changes', nthWebhookChange(5), 'SIGTERM'],
    [
      'while its restore check puts the webhook back',
      (t) => isWebhookChange(t) && t.body?.url === PARTNER_HOOK.url,
      'SIGINT',
    ],
  ];
  for (const [where, point, signal] of webhookPoints) {
    it(`stopped by ${signal} ${where}, puts the webhook back as it was, reports INTERRUPTED and exits ${signal === 'SIGINT' ? 130 : 143}`, async () => {
      const box = await sandbox({ partnerHook: true });
      const before = await box.webhook();
      expect(before).toEqual(PARTNER_HOOK);
      const r = await runStoppedAt(box, WEBHOOK_RUN, point, signal);
      const code = signal === 'SIGINT' ? 130 : 143;
      expect(r.code, r.stderr).toBe(code);
      expect(await box.webhook()).toEqual(before);
      expect(r.report.verdict.status).toBe('INTERRUPTED');
      expect(r.report.exitCode).toBe(code);
      expect(r.report.run.interrupted).toEqual({
        signal,
        putBack: [`the webhook configuration (url "${PARTNER_HOOK.url}", subscriptions ["AUTH","WEBHOOK.CREATED"])`],
        notPutBack: [],
      });
      expect(r.stderr).toContain(
        `conformance: interrupted by ${signal}: no check started after it; put back the webhook configuration (url "${PARTNER_HOOK.url}", subscriptions ["AUTH","WEBHOOK.CREATED"]); verdict INTERRUPTED, exit ${code}\n`,
      );
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(journalFiles(box)).toEqual([]);
    });
  }

  it('stopped by SIGTERM after it created the webhook (there was none), leaves it narrowed to WEBHOOK.CREATED and says so', async () => {
    const box = await sandbox();
    expect(await box.webhook()).toBeUndefined();
    const r = await runStoppedAt(box, WEBHOOK_RUN, (t) => t.method === 'POST' && toReceiver(t), 'SIGTERM');
    expect(r.code, r.stderr).toBe(143);
    const left = await box.webhook();
    expect(left).toEqual({ url: r.point.body!.url, subscriptions: ['WEBHOOK.CREATED'] });
    const said = `the webhook configuration (no webhook before the run; the one it created stays, narrowed: url "${String(left!.url)}", subscriptions ["WEBHOOK.CREATED"])`;
    expect(r.report.run.interrupted).toEqual({ signal: 'SIGTERM', putBack: [said], notPutBack: [] });
    expect(r.report.run.notes).toContainEqual(
      expect.stringMatching(
        /^there was no webhook before the run, and the interface has no DELETE: the one it created stays, narrowed/,
      ),
    );
    expect(r.report.verdict.status).toBe('INTERRUPTED');
  });

  const customerPoints: Array<[string, (t: Taken) => boolean, NodeJS.Signals]> = [
    [
      'as the status probe suspends the customer',
      (t) => t.method === 'PUT' && t.body?.status === 'SUSPENDED',
      'SIGINT',
    ],
    [
      'as the update check renames the customer',
      (t) => t.method === 'PUT' && typeof t.body?.firstName === 'string' && t.body.firstName.startsWith('Conformance'),
      'SIGTERM',
    ],
  ];
  for (const [where, point, signal] of customerPoints) {
    it(`stopped by ${signal} ${where}, puts the customer back as it was`, async () => {
      const box = await sandbox();
      const before = box.customer();
      const r = await runStoppedAt(
        box,
        ['--suite', 'resources', '--grep', 'customers\\.update$|customer-transitions'],
        point,
        signal,
      );
      expect(r.code, r.stderr).toBe(signal === 'SIGINT' ? 130 : 143);
      expect(box.customer()).toEqual(before);
      const id = box.local.target.fixtures.mutableCustomerId;
      expect(r.report.run.interrupted.putBack).toEqual([
        expect.stringMatching(new RegExp(`^customer ${id} \\(put back: `)),
      ]);
      expect(r.report.run.interrupted.notPutBack).toEqual([]);
      expect(r.report.verdict.status).toBe('INTERRUPTED');
      expect(r.report.checks.filter((c: { outcome: string }) => c.outcome === 'error')).toEqual([
        expect.objectContaining({ finding: expect.objectContaining({ code: 'CONFORMANCE_ERR_INTERRUPTED' }) }),
      ]);
      expect(journalFiles(box)).toEqual([]);
    });
  }
});

describe('a run stopped by a second signal', () => {
  it('ends at once, exit 130, saying what it had not put back; the journal keeps it for `conformance restore`', async () => {
    const box = await sandbox();
    const before = box.customer();
    const hung = new Promise<void>((resolve) => (box.hung = resolve));
    const suspended = box.when((t) => t.method === 'PUT' && t.body?.status === 'SUSPENDED');
    // From the moment the customer is suspended, the server never answers a PUT /customers: the restore hangs.
    void suspended.then(() => (box.hangCustomerUpdates = true));
    const child = spawn(
      process.execPath,
      [
        BIN,
        'run',
        '--config',
        'c.json',
        '--target',
        'sandbox',
        '--suite',
        'resources',
        '--grep',
        'customer-transitions',
      ],
      { cwd: box.dir, env: { ...process.env, NO_COLOR: '1' } },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const ended = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await suspended;
    child.kill('SIGINT');
    await hung;
    child.kill('SIGINT');
    expect(await ended).toBe(130);
    const id = box.local.target.fixtures.mutableCustomerId;
    expect(stderr).toMatch(
      new RegExp(
        `\\nconformance: stopped at once \\(SIGINT again\\): not put back: customer ${id}: restore it by hand: PUT /customers \\{"customerId":${id},[^\\n]*"status":"ACTIVE"[^\\n]*\\}; the next run or \`conformance restore --target sandbox --config c\\.json\` puts it back\\n$`,
      ),
    );
    expect(box.customer()).toEqual({ ...before, status: 'SUSPENDED' });
    box.hangCustomerUpdates = false;
    const restored = await runCli(['restore', '--target', 'sandbox', '--config', 'c.json'], { cwd: box.dir });
    expect(restored.code, restored.stderr).toBe(0);
    expect(box.customer()).toEqual(before);
  });
});

describe('a run killed outright (SIGKILL)', () => {
  it('leaves its journal: `conformance restore` puts the customer back and says so, and a refused restore exits 3 in one line', async () => {
    const box = await sandbox();
    const before = box.customer();
    const r = await runStoppedAt(
      box,
      ['--suite', 'resources', '--grep', 'customer-transitions'],
      (t) => t.method === 'PUT' && t.body?.status === 'SUSPENDED',
      'SIGKILL',
    );
    expect(r.signal).toBe('SIGKILL');
    expect(box.customer()).toEqual({ ...before, status: 'SUSPENDED' });
    expect(journalFiles(box)).toHaveLength(1);
    const id = box.local.target.fixtures.mutableCustomerId;
    const restore = ['restore', '--target', 'sandbox', '--config', 'c.json'];

    box.refuseCustomerUpdates = true;
    const refused = await runCli(restore, { cwd: box.dir });
    expect(refused.code).toBe(3);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(
      new RegExp(
        `^conformance: restore: customer ${id} could not be put back \\(PUT /customers answered 503\\); restore it by hand: PUT /customers \\{"customerId":${id},[^\\n]*"status":"ACTIVE"[^\\n]*\\}; the journal \\([^\\n]+\\) keeps it for the next try \\[CONFORMANCE_ERR_RESTORE_FAILED\\]\\n$`,
      ),
    );
    expect(journalFiles(box)).toHaveLength(1);

    box.refuseCustomerUpdates = false;
    const restored = await runCli(restore, { cwd: box.dir });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toBe(
      `conformance: restore: put back what an earlier run against sandbox left: customer ${id} (put back: status "ACTIVE")\n`,
    );
    expect(box.customer()).toEqual(before);
    expect(journalFiles(box)).toEqual([]);
  });

  it('leaves its journal: the next run puts the webhook back first, on stderr and in its notes', async () => {
    const box = await sandbox({ partnerHook: true });
    const r = await runStoppedAt(box, WEBHOOK_RUN, toReceiver, 'SIGKILL');
    expect(r.signal).toBe('SIGKILL');
    expect((await box.webhook())?.url).not.toBe(PARTNER_HOOK.url);
    const next = await runCli(
      [
        'run',
        '--config',
        'c.json',
        '--target',
        'sandbox',
        '--grep',
        '^resources\\.customers\\.get$',
        '--json',
        'next.json',
      ],
      { cwd: box.dir },
    );
    expect(next.code, next.stderr).toBe(0);
    const said = `the webhook configuration (url "${PARTNER_HOOK.url}", subscriptions ["AUTH","WEBHOOK.CREATED"])`;
    expect(next.stderr).toBe(
      `conformance: restore journal: put back what an earlier run against sandbox left: ${said}\n`,
    );
    expect(JSON.parse(readFileSync(join(box.dir, 'next.json'), 'utf8')).run.notes).toContain(
      `restore journal: put back what an earlier run left (it was killed): ${said}`,
    );
    expect(await box.webhook()).toEqual(PARTNER_HOOK);
    expect(journalFiles(box)).toEqual([]);
  });

  it('leaves nothing to a restore when no run was killed, and ends a restore that meets a broken journal in one line, exit 2', async () => {
    const box = await sandbox();
    const restore = ['restore', '--target', 'sandbox', '--config', 'c.json'];
    const nothing = await runCli(restore, { cwd: box.dir });
    expect(nothing.code).toBe(0);
    expect(nothing.stdout).toMatch(
      /^conformance: restore: nothing to put back for sandbox: no run left a change in \S+\n$/,
    );
    const folder = join(box.dir, '.conformance', 'restore', 'sandbox');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, '1-2-abcd.json'), '{"format": "conformance-restore-journal", "entries": [');
    const broken = await runCli(restore, { cwd: box.dir });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toBe(
      `conformance: the restore journal file ${join(folder, '1-2-abcd.json')} is not JSON: put back by hand what it lists (each entry's "byHand"), then delete it [CONFORMANCE_ERR_JOURNAL]\n`,
    );
  });
});
