// Suite `webhooks` end to end against the reference server, beyond what the detection matrix shows (clean server in both
// variants, each fault caught): TLS ending at a proxy, a configuration that existed before the run (updated, then
// restored), a restore that fails or is not selected, a forged delivery, a server that cannot reach the receiver, and
// a configuration that cannot be read.
import type { WebhookReceiver } from '../../../src/receiver/receiver.js';
import { CITES } from '../../helpers/requirements.js';
import { pack } from '../../../suites/index.js';
import { describe, expect, it } from 'vitest';
import { localTarget, stopsAfterEach } from '../../helpers/webhook-targets.js';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import { request as httpRequest } from 'node:http';
import { freePort } from '../../helpers/free-port.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import {
  defineCheck,
  defineSuite,
  runChecks,
  type CheckResult,
  type RunResult,
  type SuiteDefinition,
  type SuiteRun,
} from '../../../src/engine/index.js';
import { startReferenceServer, type ReferenceServer } from '../../../src/reference/server.js';
import { receiverTls, selfSignedCertificate } from '../../../src/receiver/certificate.js';
import { contentDigest } from '../../../src/http/digest.js';
import { generateEd25519 } from '../../../src/http/keys.js';
import { signRequest } from '../../../src/http/signature.js';
import type { ResolvedTarget, WebhookConfig } from '../../../src/config/types.js';
import webhooks from '../../../suites/webhooks/index.js';

const stops = stopsAfterEach();
const local = (options: Parameters<typeof localTarget>[1] = {}) => localTarget(stops, options);

function run(
  target: ResolvedTarget,
  suites: SuiteDefinition[] = [webhooks],
  grep?: string,
  webhookDeadlineMs?: number,
): Promise<RunResult> {
  return runChecks({
    pack,
    target,
    suites,
    failOn: 'should',
    selection: grep ? { grep } : {},
    ...(webhookDeadlineMs ? { suiteOptions: { webhooks: { deadlineMs: webhookDeadlineMs } } } : {}),
  });
}

const byId = (r: RunResult, id: string): CheckResult =>
  r.checks.find((c) => c.id === id) ?? expect.fail(`no result for ${id}`);
const outcomes = (r: RunResult) => Object.fromEntries(r.checks.map((c) => [c.id, c.outcome]));
const problems = (r: RunResult) =>
  r.checks
    .filter((c) => c.outcome !== 'pass')
    .map((c) => `${c.id}: ${c.outcome} ${c.finding?.message ?? c.skipReason ?? ''}`);

/** A check of another suite that gives the client a webhook before the suite under test runs, as a partner's would be. */
async function preconfigure(target: ResolvedTarget, url: string, subscriptions: string[]): Promise<void> {
  const setup = defineSuite({
    name: 'auth',
    title: 'set-up',
    checks: [
      defineCheck({
        id: 'auth.setup.webhook',
        title: 'configures a webhook',
        level: 'MUST',
        uses: ['webhook-config'],
        requirements: CITES.MUST,
        async run(ctx) {
          const res = await ctx.send({ method: 'POST', path: '/webhooks', json: { url, subscriptions } });
          if (res.status < 200 || res.status > 299) ctx.fail(`set-up POST /webhooks answered ${res.status}`);
          ctx.judged('the set-up POST /webhooks');
        },
      }),
    ],
  });
  const result = await runChecks({ pack, target, suites: [setup] });
  expect(problems(result)).toEqual([]);
}

describe('suite webhooks', () => {
  it('passes with tls "none" behind a TLS-terminating proxy at webhook.publicUrl', async () => {
    const l = await local();
    const listenPort = await freePort();
    // The proxy presents the certificate the built-in target trusts and forwards, path unchanged, to the plain receiver.
    const tls = (await receiverTls(l.target.webhook))!;
    const proxy: Server = createHttpsServer({ cert: tls.cert, key: tls.key }, (req, res) => {
      const upstream = httpRequest(
        { host: '127.0.0.1', port: listenPort, method: req.method, path: req.url, headers: req.headers },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on('error', () => res.writeHead(502).end());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    stops.push(
      () =>
        new Promise((resolve) => {
          proxy.closeAllConnections();
          proxy.close(() => resolve());
        }),
    );
    const publicUrl = `https://127.0.0.1:${(proxy.address() as { port: number }).port}/hooks/conformance`;
    const webhook: WebhookConfig = { listen: `127.0.0.1:${listenPort}`, publicUrl, tls: 'none' };
    const result = await run({ ...l.target, webhook });
    expect(problems(result)).toEqual([]);
    expect(byId(result, 'webhooks.config.saved').observations[0]).toBe(
      `receiver: ${publicUrl} (plain HTTP behind a proxy or tunnel that ends TLS); delivery deadline 10000 ms`,
    );
  });

  it("records the alt variant's choices: 201 on creation, the key as a JWK", async () => {
    const l = await local({ variant: 'alt' });
    const result = await run(l.target);
    expect(problems(result)).toEqual([]);
    expect(byId(result, 'webhooks.create.answer').observations).toContain(
      'POST /webhooks answered 201 with the Webhook at data',
    );
    expect(byId(result, 'webhooks.key.published').observations[0]).toMatch(
      /^key: JWK \(OKP\/Ed25519\) at data\.key\.jwk \(key id ".+"\)$/,
    );
  });

  it('updates a webhook that existed before the run, and restores it at the end', async () => {
    const l = await local();
    const before = { url: `https://127.0.0.1:${await freePort()}/partner/hooks`, subscriptions: ['AUTH.DELETED'] };
    await preconfigure(l.target, before.url, before.subscriptions);
    const result = await run(l.target);
    // No creation can be observed (one webhook per client, no DELETE) and no record of one kept (no config file): the
    // creation checks are kept from running by a set-up problem that names the credential to ask for.
    const noCreation =
      /^set-up problem: no webhook creation can be observed: client "conformance-local" has a webhook already \(webhookId "[^"]+", createdAt \d+\) and the interface has no DELETE; no record of its creation can be kept \(the target comes from no config file\)$/;
    expect(problems(result)).toEqual([
      expect.stringMatching(/^webhooks\.create\.auto-subscription: skip /),
      expect.stringMatching(/^webhooks\.events\.webhook-created: skip /),
    ]);
    expect(byId(result, 'webhooks.create.auto-subscription').skipReason).toMatch(noCreation);
    expect(result.run.setupProblems).toEqual([
      {
        suite: 'webhooks',
        problem: expect.stringMatching(/^no webhook creation can be observed: /),
        fix: 'ask the provider for a second client with no webhook (its client id and secret, and the key id its signing key is registered under) and set it as targets.local.webhookClient {"clientId", "clientSecret", "keyId", "privateKeyFile"} in the config',
        checks: ['webhooks.create.auto-subscription', 'webhooks.events.webhook-created'],
      },
    ]);
    expect(byId(result, 'webhooks.config.saved').observations).toContain(
      `saved: url ${JSON.stringify(before.url)}, subscriptions ["AUTH.DELETED","WEBHOOK.CREATED"], status "ACTIVE" (GET /webhooks answered 200 with the Webhook at data); it is restored at the end`,
    );
    expect(byId(result, 'webhooks.create.answer').observations[0]).toBe(
      'PUT /webhooks answered 200 with the Webhook at data (a webhook existed already: updated, not created)',
    );
    expect(byId(result, 'webhooks.config.restored').observations).toEqual([
      `restored: url ${JSON.stringify(before.url)}, subscriptions ["AUTH.DELETED","WEBHOOK.CREATED"]`,
      'PUT /webhooks answered 200 with the Webhook at data; GET /webhooks answered 200 with the Webhook at data',
    ]);
    expect(result.run.cleanup).toBeUndefined();
    // Rejections were tried with PUT, since a POST would have been refused for the existing webhook alone.
    expect(byId(result, 'webhooks.reject.http-url').observations[0]).toMatch(
      /^PUT \/webhooks refused with 400; the configuration stayed url/,
    );
  });

  it("puts the configuration back in the suite's teardown when the restore check is not selected", async () => {
    const l = await local();
    const url = `https://127.0.0.1:${await freePort()}/partner/hooks`;
    await preconfigure(l.target, url, ['WEBHOOK']);
    const result = await run(l.target, [webhooks], 'webhooks\\.update\\.replaces');
    expect(outcomes(result)).toEqual({ 'webhooks.update.replaces': 'pass' });
    expect(result.run.cleanup).toBeUndefined();
    // The setup's saving read, then the teardown's restore and its reading back: the run's own exchanges, around the checks'.
    const own = result.sessionExchanges
      .filter((e) => new URL(e.request.url).pathname.endsWith('/webhooks'))
      .map((e) => `${e.request.method} ${e.response?.status}`);
    expect(own).toEqual(['GET 200', 'PUT 200', 'GET 200']);
    expect(JSON.parse(result.sessionExchanges.find((e) => e.request.method === 'PUT')!.request.bodyExcerpt!)).toEqual({
      url,
      subscriptions: ['WEBHOOK', 'WEBHOOK.CREATED'],
    });
  });

  it('reports loudly, with the request to send by hand, a restore the server does not honour', async () => {
    const l = await local({ faults: ['webhooks.subscriptions-appended'] });
    const url = `https://127.0.0.1:${await freePort()}/partner/hooks`;
    await preconfigure(l.target, url, ['AUTH.DELETED']);
    const result = await run(l.target);
    const restore = byId(result, 'webhooks.config.restored');
    expect(restore.outcome).toBe('warn');
    expect(restore.failsRun).toBe(false);
    const problem = `GET /webhooks then showed url "${url}", subscriptions ["AUTH.DELETED","WEBHOOK.CREATED","ALL","WEBHOOK","AUTH.CREATED","AUTH","WEBHOOK.UPDATED","ACCOUNT"]`;
    const byHand = `PUT /webhooks {"url":"${url}","subscriptions":["AUTH.DELETED","WEBHOOK.CREATED"]}`;
    expect(restore.finding?.message).toBe(
      `the webhook configuration could not be restored (${problem}); the suite's teardown tries once more`,
    );
    expect(restore.finding?.expected).toBe(`restored by hand, should the teardown fail too: ${byHand}`);
    expect(restore.finding?.cleanup).toBeUndefined();
    // The suite's teardown tried once more, and says, in the kit's one wording, what to send by hand.
    expect(result.run.cleanup).toEqual([
      `CLEAN-UP FAILED: the webhook configuration was changed and could not be restored (${problem}); restore it by hand: ${byHand}`,
    ]);
  });

  it('fails delivery verification on a forged delivery (valid JSON, signed by another key), naming the reason', async () => {
    const l = await local();
    const forge = defineCheck({
      id: 'webhooks.test.forge',
      title: 'sends a forged delivery to the receiver',
      level: 'INFO',
      requirements: CITES.INFO,
      async run(ctx) {
        const receiver = (ctx.state as { receiver: WebhookReceiver }).receiver;
        const body = JSON.stringify({ eventId: 'forged', event: 'AUTH.CREATED', data: { tokenId: 'x' } });
        const headers: Array<[string, string]> = [
          ['content-type', 'application/json'],
          ['content-length', String(Buffer.byteLength(body))],
          ['content-digest', contentDigest(body)],
        ];
        const signed = signRequest(
          { method: 'POST', url: receiver.url, headers },
          {
            keyId: 'forger',
            privateKey: generateEd25519().seed,
            components: ['@method', '@target-uri', 'content-digest', 'content-length', 'content-type'],
          },
        );
        headers.push(['signature-input', signed.signatureInput], ['signature', signed.signature]);
        const agent = new Agent({ connect: { ca: receiver.certificatePem! } });
        try {
          const res = await request(receiver.url, { method: 'POST', headers: headers.flat(), body, dispatcher: agent });
          await res.body.dump();
          ctx.judged('the forged delivery sent');
        } finally {
          await agent.close();
        }
      },
    });
    const at = webhooks.checks.findIndex((c) => c.id === 'webhooks.delivery.verified');
    // The suite's own checks, declared again (by requirement id) around the forger.
    const own = webhooks.checks.map((c) => ({ ...c, requirements: c.requirements.map((r) => r.id) }));
    // The suite's own lifecycle (its receiver) with one more check among its own.
    const suite = {
      ...webhooks,
      checks: defineSuite({
        name: 'webhooks',
        title: webhooks.title,
        checks: [...own.slice(0, at), forge, ...own.slice(at)],
      }).checks,
    };
    const result = await run(l.target, [suite]);
    const verified = byId(result, 'webhooks.delivery.verified');
    expect(verified.outcome).toBe('fail');
    expect(verified.finding?.message).toMatch(
      /^1 of \d+ deliveries do not verify and were discarded: signature: the signature does not verify against the signature base$/,
    );
    expect(verified.finding?.observed).toMatch(/"eventId":"forged"/);
    expect(problems(result)).toEqual([expect.stringMatching(/^webhooks\.delivery\.verified: fail/)]);
  });

  it("states one set-up problem, with the certificate to hand over, when the server does not trust the receiver's certificate", async () => {
    const l = await local();
    // A certificate the reference server was never told to trust.
    const dir = mkdtempSync(join(tmpdir(), 'untrusted-'));
    const untrusted = await selfSignedCertificate(['127.0.0.1', 'untrusted.test']);
    writeFileSync(join(dir, 'cert.pem'), untrusted.cert);
    writeFileSync(join(dir, 'key.pem'), untrusted.key);
    const webhook: WebhookConfig = {
      listen: '127.0.0.1:0',
      tls: { certFile: join(dir, 'cert.pem'), keyFile: join(dir, 'key.pem') },
    };
    // Nothing is due to arrive: the deadline (the default is 10 s) only bounds the wait before the failed handshakes,
    // which come within milliseconds of the registration, are read.
    const result = await run({ ...l.target, webhook }, [webhooks], undefined, 5_000);
    const skipped = result.checks.filter((c) => c.skipRemedy?.kind === 'setup');
    expect(result.run.setupProblems).toEqual([
      {
        suite: 'webhooks',
        problem: expect.stringMatching(
          /^the server did not trust the webhook receiver's certificate: \d+ TLS handshakes? with the receiver failed \(last: .+\) and no delivery arrived$/,
        ),
        fix: `hand the receiver's certificate (${join(dir, 'cert.pem')}, SHA-256 ${new X509Certificate(untrusted.cert).fingerprint256}) to the provider to trust, or see docs/webhook-receiver.md`,
        checks: skipped.map((c) => c.id),
      },
    ]);
    // Every check that needs a delivery is kept from judging, none is failed: the server is not at fault.
    expect(skipped.map((c) => c.id)).toEqual([
      'webhooks.key.published',
      'webhooks.events.webhook-created',
      'webhooks.events.test',
      'webhooks.events.auth-created',
      'webhooks.events.auth-deleted',
      'webhooks.events.webhook-updated',
      'webhooks.subscriptions.filtered',
      'webhooks.update.url',
      'webhooks.subscriptions.exact',
      'webhooks.subscriptions.domain',
      'webhooks.delivery.json',
      'webhooks.delivery.verified',
      'webhooks.delivery.digest-covered',
      'webhooks.delivery.in-window',
      'webhooks.delivery.observed',
    ]);
    for (const c of skipped) {
      expect(c.skipRemedy, c.id).toEqual({ kind: 'setup', suite: 'webhooks' });
      expect(c.skipReason, c.id).toBe(`set-up problem: ${result.run.setupProblems![0]!.problem}`);
    }
    expect(problems(result).filter((p) => !skipped.some((c) => p.startsWith(`${c.id}: skip`)))).toEqual([]);
    expect(result.verdict.status).toBe('INCOMPLETE');
    expect(result.verdict.notExercised.find((r) => r.id === 'REQ-EVT-12')?.remedy).toBe(
      `fix the webhooks set-up: ${result.run.setupProblems![0]!.fix}`,
    );
    expect(result.exitCode).toBe(0);
  });

  it('states one set-up problem, naming the URL to check, when nothing reaches the receiver at all', async () => {
    const l = await local();
    // Registered at a port nothing listens on: every delivery is refused before TLS, so the receiver sees nothing.
    const publicUrl = `https://127.0.0.1:${await freePort()}/conformance`;
    const webhook: WebhookConfig = { listen: '127.0.0.1:0', publicUrl, tls: 'self-signed' };
    // Nothing can arrive (the port is closed): a short deadline only shortens the test.
    const result = await run({ ...l.target, webhook }, [webhooks], undefined, 1_500);
    const [problem, ...more] = result.run.setupProblems ?? [];
    expect(more).toEqual([]);
    expect(problem).toMatchObject({
      suite: 'webhooks',
      problem: `nothing reached the webhook receiver at ${publicUrl}: no delivery and no connection, not even for POST /webhooks/test (answered 200); from this machine too, ${new URL(publicUrl).host} gives no answer (ECONNREFUSED)`,
      fix: expect.stringMatching(
        new RegExp(
          `^start the proxy or tunnel at ${new URL(publicUrl).host.replace(/[.]/g, '\\.')} and have it forward to the receiver \\(listening on 127\\.0\\.0\\.1:\\d+\\), or correct webhook\\.publicUrl; see docs/webhook-receiver\\.md$`,
        ),
      ),
    });
    // The one confirming POST /webhooks/test, sent by the check whose wait ran out first.
    const probes = result.checks.flatMap((c) =>
      c.exchanges
        .filter((e) => e.request.method === 'POST' && e.request.url.endsWith('/webhooks/test'))
        .map(() => c.id),
    );
    expect(probes).toEqual(['webhooks.key.published', 'webhooks.test.accepted']);
    // Sent halfway through that check's wait: the problem is stated after one deadline, not two.
    expect(byId(result, 'webhooks.key.published').durationMs).toBeLessThan(2 * 1_500);
    expect(result.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'error')).toEqual([]);
    expect(result.verdict.status).toBe('INCOMPLETE');
  });

  it('says once, when the target is not on this machine, that a self-signed receiver cannot be trusted there', async () => {
    const l = await local();
    const said = async (baseUrl: string, tls: WebhookConfig['tls']) => {
      const notes: string[] = [];
      const run = {
        target: { ...l.target, baseUrl },
        config: { ...l.target, baseUrl, webhook: { listen: '127.0.0.1:0', tls } },
        options: { deadlineMs: 1_000 },
        note: (text: string) => notes.push(text),
        received: () => undefined,
      } as unknown as SuiteRun;
      // The suite's own setup and teardown, as a run calls them: the receiver starts and stops, no request is sent.
      await webhooks.teardown!(await webhooks.setup!(run), run);
      return notes;
    };
    expect(await said('https://staging.example.com/v1', 'self-signed')).toEqual([
      'webhook.tls is "self-signed": the receiver makes a new certificate for each run, which a server not on this machine cannot trust, so its deliveries will not arrive. Make a lasting one with `npx conformance keygen`, set webhook.tls to {"certFile", "keyFile"} of it and hand it to the provider (docs/webhook-receiver.md)',
    ]);
    expect(await said('http://127.0.0.1:8080/v1', 'self-signed')).toEqual([]);
    expect(await said('http://localhost:8080/v1', 'self-signed')).toEqual([]);
    expect(await said('https://staging.example.com/v1', 'none')).toEqual([]);
  });

  it('changes nothing when the configuration cannot be read first', async () => {
    const key = generateEd25519();
    const webhook: WebhookConfig = { listen: '127.0.0.1:0', tls: 'self-signed' };
    const server: ReferenceServer = await startReferenceServer({
      clients: [{ clientId: 'c', clientSecret: 'secret-value-1', keyId: 'k', publicKey: key.publicKey }],
      webhookCa: (await receiverTls(webhook))!.cert,
      middleware: [
        async (ctx, _state, route, next) =>
          route.path === '/webhooks' && ctx.method === 'GET'
            ? { status: 503, body: { code: '503', message: 'Service Unavailable' } }
            : next(),
      ],
    });
    stops.push(() => server.close());
    const target: ResolvedTarget = {
      name: 't',
      baseUrl: server.baseUrl,
      clientId: 'c',
      clientSecret: 'secret-value-1',
      keyId: 'k',
      privateKeyPem: key.privateKeyPem,
      privateKey: key.seed,
      fixtures: {},
      webhook,
    };
    const result = await run(target);
    expect(byId(result, 'webhooks.config.saved').observations[1]).toBe(
      'the configuration could not be read (GET /webhooks answered 503 {"code":"503","message":"Service Unavailable"}): the suite changes nothing',
    );
    const mutated = result.checks.filter((c) =>
      c.exchanges.some((e) => e.request.method !== 'GET' && e.request.url.includes('/webhooks')),
    );
    expect(mutated.map((c) => c.id)).toEqual([]);
    expect(byId(result, 'webhooks.create.answer')).toMatchObject({
      outcome: 'skip',
      skipReason: expect.stringContaining('could not be saved'),
    });
    expect(byId(result, 'webhooks.config.restored')).toMatchObject({
      outcome: 'skip',
      skipReason: expect.stringMatching(/^nothing to restore: the configuration could not be read/),
    });
  });
});
