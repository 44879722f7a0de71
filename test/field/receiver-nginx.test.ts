// Debian's nginx in front of the webhook receiver, the way partners deploy it (issue 26): the reference server delivers
// through nginx to the run's receiver, and each set-up gets its verdict and its diagnosis, word for word where it
// matters. A prefix rewritten to the root is read back (CONFORMANT, one note), while a server that delivers to the wrong
// URL or signs with another key still fails through it; TLS ended at nginx works with tls "none" and is named as the
// cause when the receiver is still set to TLS; a proxy whose certificate the server does not trust, a proxy that
// redirects, and one whose upstream is down are set-up problems with their own fix, never failures of the server.
// One nginx for the file (a server block per topology), one run of the webhooks suite per set-up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { X509Certificate } from 'node:crypto';
import { NGINX_MISSING, skipWithoutNginx, startNginx, type Nginx } from '../helpers/nginx.js';
import { startLocalTarget, type LocalTargetOptions } from '../../src/targets/local.js';
import { makeCertificate, receiverTls } from '../../src/receiver/certificate.js';
import { runChecks, type RunResult } from '../../src/engine/index.js';
import type { Middleware } from '../../src/reference/context.js';
import { mapData } from '../../src/reference/faults/reply-rewrites.js';
import type { WebhookConfig } from '../../src/config/types.js';
import { pack } from '../../suites/index.js';
import webhooks from '../../suites/webhooks/index.js';
import { freePort } from '../helpers/free-port.js';

/** How long a check waits for a delivery in the set-ups where none can come: it only bounds the time to the diagnosis. */
const SETUP_DEADLINE_MS = 4_000;

// No bound on a run's time here: under a busy machine any bound fails a correct run. That a set-up problem is stated
// after one delivery deadline, not two, is held where the wait is (test/suites/webhooks/end-to-end.test.ts).
interface Outcome {
  result: RunResult;
}

/** The webhooks suite against the embedded reference server, its receiver set as `webhook`. */
async function run(webhook: WebhookConfig, options: LocalTargetOptions = {}, deadlineMs?: number): Promise<Outcome> {
  const local = await startLocalTarget(options);
  try {
    const result = await runChecks({
      pack,
      target: { ...local.target, webhook },
      suites: [webhooks],
      failOn: 'should',
      ...(deadlineMs ? { suiteOptions: { webhooks: { deadlineMs } } } : {}),
    });
    return { result };
  } finally {
    await local.stop();
  }
}

const notPassed = (r: RunResult) =>
  r.checks
    .filter((c) => c.outcome !== 'pass')
    .map((c) => `${c.id}: ${c.outcome} ${c.finding?.message ?? c.skipReason ?? ''}`);
const failed = (r: RunResult) => r.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn').map((c) => c.id);
const receiverNotes = (r: RunResult) => (r.run.notes ?? []).filter((n) => /webhook receiver/.test(n));

/** Every check that needs a delivery: what a set-up problem keeps from running. */
const NEEDS_DELIVERY = [
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
];

/** A set-up problem, stated once, that kept exactly the checks needing a delivery from running; no check failed. */
function expectSetupProblem(r: RunResult, problem: string | RegExp, fix: string): void {
  expect(r.run.setupProblems).toEqual([
    {
      suite: 'webhooks',
      problem: typeof problem === 'string' ? problem : expect.stringMatching(problem),
      fix,
      checks: NEEDS_DELIVERY,
    },
  ]);
  expect(failed(r)).toEqual([]);
  expect(r.verdict.status).toBe('INCOMPLETE');
  expect(r.verdict.failed).toEqual([]);
}

/**
 * A server that stores a moved webhook's url in appearance only: PUT /webhooks keeps the old url (the url-not-stored
 * fault), and GET /webhooks shows the url the client last sent, so only the deliveries show where it really points.
 */
function showsTheUrlSent(): Middleware {
  let sent: string | undefined;
  return async (ctx, _state, route, next) => {
    const reply = await next();
    if (route.path !== '/webhooks') return reply;
    if (ctx.method === 'PUT') {
      const url = (JSON.parse(ctx.body.toString('utf8') || '{}') as { url?: unknown }).url;
      if (typeof url === 'string') sent = url;
    }
    return ctx.method === 'GET' && sent !== undefined && reply.status === 200
      ? mapData(reply, (w) => ({ ...w, url: sent }))
      : reply;
  };
}

const TOPOLOGIES = ['root', 'slash', 'keep', 'untrusted', 'down'] as const;

describe.skipIf(skipWithoutNginx)(
  `the webhook receiver behind nginx${NGINX_MISSING ? ` (${NGINX_MISSING})` : ''}`,
  () => {
    let nginx: Nginx;
    /** The receiver's listen port behind each topology. */
    const upstream: Record<string, number> = {};
    let untrusted: X509Certificate;
    const publicUrl = (topology: (typeof TOPOLOGIES)[number], path: string) =>
      `https://127.0.0.1:${nginx.port(topology)}${path}`;

    beforeAll(async () => {
      for (const t of [...TOPOLOGIES, 'nobody']) upstream[t] = await freePort();
      // The certificate the built-in target trusts (the one its receiver would present), and one it was never given.
      const trusted = (await receiverTls({ listen: '127.0.0.1:0', tls: 'self-signed' }))!;
      const other = await makeCertificate(['127.0.0.1', 'localhost']);
      untrusted = new X509Certificate(other.cert);
      const tls = (cert: string) => `ssl_certificate ${cert}.pem; ssl_certificate_key ${cert}.key;`;
      nginx = await startNginx({
        ports: TOPOLOGIES,
        files: {
          'trusted.pem': trusted.cert,
          'trusted.key': trusted.key,
          'other.pem': other.cert,
          'other.key': other.key,
        },
        http: (p, prefix) => `
  # The issue's proxy: the prefix /hook forwarded to the root.
  server { listen 127.0.0.1:${p.root} ssl; ${tls(`${prefix}/trusted`)}
    location /hook { proxy_pass http://127.0.0.1:${upstream.root}/; } }
  # The common one: /hook/ forwarded to the root (and /hook, without the slash, redirected to it).
  server { listen 127.0.0.1:${p.slash} ssl; ${tls(`${prefix}/trusted`)}
    location /hook/ { proxy_pass http://127.0.0.1:${upstream.slash}/; } }
  # TLS ended here, the path and query forwarded unchanged.
  server { listen 127.0.0.1:${p.keep} ssl; ${tls(`${prefix}/trusted`)}
    location / { proxy_pass http://127.0.0.1:${upstream.keep}; } }
  # The same, with a certificate the server was never given.
  server { listen 127.0.0.1:${p.untrusted} ssl; ${tls(`${prefix}/other`)}
    location / { proxy_pass http://127.0.0.1:${upstream.untrusted}; } }
  # An upstream nobody listens on: nginx answers 502 itself.
  server { listen 127.0.0.1:${p.down} ssl; ${tls(`${prefix}/trusted`)}
    location / { proxy_pass http://127.0.0.1:${upstream.nobody}; } }
`,
      });
    });
    afterAll(async () => nginx?.stop());

    it('reads back deliveries a proxy forwarded from /hook to the root: CONFORMANT, with one note', async () => {
      const url = publicUrl('root', '/hook');
      const { result } = await run({ listen: `127.0.0.1:${upstream.root}`, publicUrl: url, tls: 'none' });
      expect(notPassed(result)).toEqual([]);
      expect(result.verdict.status).toBe('CONFORMANT');
      const [note, ...more] = receiverNotes(result);
      expect(more).toEqual([]);
      expect(note).toMatch(
        new RegExp(
          `^the proxy in front of the webhook receiver rewrites /hook… to /…: \\d+ deliveries sent to ${url.replace(/[.]/g, '\\.')} arrived so; each was read as sent to the URL the server was given \\(its query names which\\) and judged as such$`,
        ),
      );
      // Both URLs of the run came through, and the move judged where the server sent the event.
      expect(nginx.accessLog()).toContain('"POST /hook?conformance-url=2 HTTP/1.1" 200');
      const moved = result.checks.find((c) => c.id === 'webhooks.update.url')!;
      expect(moved.observations.at(-1)).toMatch(
        /^moved to .*: GET \/webhooks shows it, and AUTH\.CREATED delivery #\d+ came to \/hook\?conformance-url=2$/,
      );

      // A signature over @authority and @path instead of @target-uri (the deliverySignature=variant server) reads back alike.
      const variant = await run(
        { listen: `127.0.0.1:${upstream.root}`, publicUrl: url, tls: 'none' },
        { choices: { deliverySignature: 'variant' } },
      );
      expect(notPassed(variant.result)).toEqual([]);
      expect(variant.result.verdict.status).toBe('CONFORMANT');
    });

    it('still fails a server that delivers to the old URL through that proxy, on webhooks.update.url alone', async () => {
      const url = publicUrl('root', '/hook');
      const { result } = await run(
        { listen: `127.0.0.1:${upstream.root}`, publicUrl: url, tls: 'none' },
        { faults: ['webhooks.url-not-stored'], middleware: [showsTheUrlSent()] },
      );
      expect(failed(result)).toEqual(['webhooks.update.url']);
      const moved = result.checks.find((c) => c.id === 'webhooks.update.url')!;
      expect(moved.finding?.message).toBe(
        'the first event after the move was delivered to /hook, the old url, not /hook?conformance-url=2',
      );
      expect(moved.finding?.observed).toContain(`POST ${url} (arrived at /: the proxy in front rewrote it)`);
      expect(result.run.setupProblems).toBeUndefined();
      expect(result.verdict.status).toBe('NOT CONFORMANT');
    });

    it('still fails a server that signs with another key than it publishes, through that proxy', async () => {
      const { result } = await run(
        { listen: `127.0.0.1:${upstream.root}`, publicUrl: publicUrl('root', '/hook'), tls: 'none' },
        { faults: ['webhooks.wrong-signing-key'] },
      );
      // What the fault fails reached directly (docs/detection-matrix.md), and nothing else.
      expect(failed(result)).toEqual(['webhooks.key.published', 'webhooks.delivery.verified']);
      expect(result.checks.find((c) => c.id === 'webhooks.delivery.verified')!.finding?.message).toMatch(
        /^\d+ of \d+ deliveries do not verify and were discarded: signature: the signature does not verify against the signature base$/,
      );
      expect(result.run.setupProblems).toBeUndefined();
      expect(result.verdict.status).toBe('NOT CONFORMANT');
    });

    it('reads back /hook/ forwarded to the root; asked as /hook, the redirect is a set-up problem naming the URL', async () => {
      const url = publicUrl('slash', '/hook/');
      const slash = await run({ listen: `127.0.0.1:${upstream.slash}`, publicUrl: url, tls: 'none' });
      expect(notPassed(slash.result)).toEqual([]);
      expect(slash.result.verdict.status).toBe('CONFORMANT');
      expect(receiverNotes(slash.result)).toEqual([
        expect.stringMatching(
          /^the proxy in front of the webhook receiver rewrites \/hook\/… to \/…: \d+ deliveries sent to /,
        ),
      ]);

      const bare = publicUrl('slash', '/hook');
      const { result } = await run(
        { listen: `127.0.0.1:${upstream.slash}`, publicUrl: bare, tls: 'none' },
        {},
        SETUP_DEADLINE_MS,
      );
      const at = `127.0.0.1:${nginx.port('slash')}`;
      expectSetupProblem(
        result,
        `nothing reached the webhook receiver at ${bare}: no delivery and no connection, not even for POST /webhooks/test (answered 200); the proxy at ${at} answers the run's own request with a redirect (301 to ${url}?conformance-url=2), which a server does not follow with a delivery`,
        `set webhook.publicUrl to ${url}, where the proxy redirects, or have the proxy forward /hook itself; see docs/webhook-receiver.md`,
      );
    });

    it('passes with TLS ended at nginx and tls "none"; names tls "none" as the fix when the receiver is still set to TLS', async () => {
      const url = publicUrl('keep', '/conformance');
      const plain = await run({ listen: `127.0.0.1:${upstream.keep}`, publicUrl: url, tls: 'none' });
      expect(notPassed(plain.result)).toEqual([]);
      expect(plain.result.verdict.status).toBe('CONFORMANT');
      expect(receiverNotes(plain.result)).toEqual([]);

      const { result } = await run(
        { listen: `127.0.0.1:${upstream.keep}`, publicUrl: url, tls: 'self-signed' },
        {},
        SETUP_DEADLINE_MS,
      );
      expectSetupProblem(
        result,
        /^plain HTTP reached the webhook receiver's TLS port: \d+ connections? began with an HTTP request instead of a TLS handshake, and no delivery arrived$/,
        `set webhook.tls: "none": the proxy or tunnel at webhook.publicUrl (${url}) ends TLS and forwards plain HTTP to the receiver (listening on 127.0.0.1:${upstream.keep}); see docs/webhook-receiver.md`,
      );
      // No OpenSSL text in what every skipped check repeats.
      for (const c of result.checks.filter((x) => x.outcome === 'skip'))
        expect(c.skipReason, c.id).not.toMatch(/ssl3_|openssl|\n/i);
    });

    it("says the proxy's certificate is not trusted, with the certificate to hand over, when the server refuses it", async () => {
      const url = publicUrl('untrusted', '/conformance');
      const { result } = await run(
        { listen: `127.0.0.1:${upstream.untrusted}`, publicUrl: url, tls: 'none' },
        {},
        SETUP_DEADLINE_MS,
      );
      const at = `127.0.0.1:${nginx.port('untrusted')}`;
      expectSetupProblem(
        result,
        `nothing reached the webhook receiver at ${url}: no delivery and no connection, not even for POST /webhooks/test (answered 200); the proxy at ${at} forwards the run's own request, but presents a self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT), not trusted here either`,
        `the server most likely refuses it too: give the proxy at ${at} a certificate from a CA the server trusts, or hand this one (CN=${untrusted.subject.replace(/^CN=/, '')}, SHA-256 ${untrusted.fingerprint256}) to the provider to trust; see docs/webhook-receiver.md`,
      );
    });

    it("names the proxy's own 502 when its upstream is not the receiver", async () => {
      const url = publicUrl('down', '/conformance');
      const { result } = await run(
        { listen: `127.0.0.1:${upstream.down}`, publicUrl: url, tls: 'none' },
        {},
        SETUP_DEADLINE_MS,
      );
      const at = `127.0.0.1:${nginx.port('down')}`;
      expectSetupProblem(
        result,
        new RegExp(
          `^nothing reached the webhook receiver at ${url.replace(/[.]/g, '\\.')}: no delivery and no connection, not even for POST /webhooks/test \\(answered 200\\); the proxy at ${at.replace(/[.]/g, '\\.')} answers the run's own request itself \\(502, Server: nginx/[\\d.]+\\) and forwards nothing to the receiver$`,
        ),
        `have the proxy at ${at} forward to the receiver's listen address (http://127.0.0.1:${upstream.down}), keeping the path and query; see docs/webhook-receiver.md`,
      );
    });
  },
);
