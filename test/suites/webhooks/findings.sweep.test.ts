// Suite `webhooks` against the defects an independent server passed with (issue 14): the new faults' findings say what
// went wrong (that each fault is caught by the check owning what it breaks, and by no other, is the detection matrix's:
// test/reference/detection-matrix.test.ts); each delivery fault fails only the check owning the rule it breaks (the
// digest and the signature, the digest's coverage, the signature's window); a server that generates a new key at every configuration passes; a webhook an earlier check left
// at an unreachable URL does not hold up the suite's deliveries.
import { requestToken } from '../../../suites/kit/index.js';
import { CITES } from '../../helpers/requirements.js';
import { pack } from '../../../suites/index.js';
import { describe, expect, it } from 'vitest';
import { localTarget, stopsAfterEach } from '../../helpers/webhook-targets.js';
import { defineCheck, defineSuite, runChecks, type CheckResult, type RunResult } from '../../../src/engine/index.js';
import { startReferenceServer } from '../../../src/reference/server.js';
import { findFault } from '../../../src/reference/faults/catalog.js';
import { receiverTls } from '../../../src/receiver/certificate.js';
import { generateEd25519 } from '../../../src/http/keys.js';
import type { ResolvedTarget, WebhookConfig } from '../../../src/config/types.js';
import webhooks from '../../../suites/webhooks/index.js';
import { DELIVERY_DEADLINE_MS } from '../../helpers/waits.js';

const stops = stopsAfterEach();
const local = (options: Parameters<typeof localTarget>[1] = {}) => localTarget(stops, options);

function run(target: ResolvedTarget, suites = [webhooks]): Promise<RunResult> {
  return runChecks({
    pack,
    target,
    suites,
    failOn: 'should',
    selection: {},
    suiteOptions: { webhooks: { deadlineMs: DELIVERY_DEADLINE_MS } },
  });
}

const byId = (r: RunResult, id: string): CheckResult =>
  r.checks.find((c) => c.id === id) ?? expect.fail(`no result for ${id}`);
const failing = (r: RunResult) => r.checks.filter((c) => c.failsRun).map((c) => c.id);
const problems = (r: RunResult) =>
  r.checks
    .filter((c) => c.outcome !== 'pass')
    .map((c) => `${c.id}: ${c.outcome} ${c.finding?.message ?? c.skipReason ?? ''}`);

/** The checks a fault may fail: those citing a requirement it breaks. */
function owners(fault: string): string[] {
  const breaks = findFault(fault)?.breaks ?? expect.fail(`no fault ${fault}`);
  return webhooks.checks.filter((c) => c.requirements.some((r) => breaks.includes(r.id))).map((c) => c.id);
}

describe('suite webhooks: its findings on faulty and unusual servers (the gaps of issue 14)', () => {
  it('catches AUTH events delivered after the subscribed marker, and says how long it watched', async () => {
    const l = await local({ faults: ['webhooks.unsubscribed-delivered-late'] });
    const result = await run(l.target);
    const filtered = byId(result, 'webhooks.subscriptions.filtered');
    expect(filtered.outcome).toBe('warn');
    expect(filtered.finding?.message).toBe(
      'AUTH.CREATED or AUTH.DELETED of a token issued and revoked meanwhile delivered to a webhook subscribed to WEBHOOK events only (["WEBHOOK"], then ["WEBHOOK","WEBHOOK.UPDATED"])',
    );
    expect(filtered.finding?.observed).toMatch(
      /; it arrived after delivery #\d+, the subscribed event caused after it$/,
    );
    expect(filtered.finding?.expected).toMatch(
      new RegExp(
        `watched for \\d+ ms after the request that caused it \\(3 × the slowest delivery the run measured \\(\\d+ ms\\), at least the subscribed marker \\(\\d+ ms\\) and 250 ms, at most the receiver's deadline \\(${DELIVERY_DEADLINE_MS} ms\\)\\)$`,
      ),
    );
  });

  it('judges the exact-name scenario: AUTH.DELETED delivered under ["AUTH.CREATED"]', async () => {
    const l = await local({ faults: ['webhooks.exact-name-as-domain'] });
    const result = await run(l.target);
    expect(byId(result, 'webhooks.subscriptions.filtered').finding?.message).toBe(
      'AUTH.DELETED of the revoked token delivered to a webhook subscribed to ["AUTH.CREATED"]',
    );
    expect(byId(result, 'webhooks.subscriptions.exact').outcome).toBe('pass');
  });

  it('records on a clean server what the new checks saw, and the bound of each negative wait', async () => {
    const l = await local();
    const result = await run(l.target);
    expect(problems(result)).toEqual([]);
    const filtered = byId(result, 'webhooks.subscriptions.filtered').observations;
    expect(filtered).toEqual([
      expect.stringMatching(
        /^subscribed to WEBHOOK events only .*: no AUTH.CREATED or AUTH.DELETED of a token issued and revoked meanwhile within \d+ ms of the request that caused it \(bound: 3 × /,
      ),
      expect.stringMatching(/^subscribed to \["AUTH.CREATED"\]: no AUTH.DELETED of the revoked token within \d+ ms/),
    ]);
    expect(byId(result, 'webhooks.update.url').observations).toContainEqual(
      expect.stringMatching(
        /^moved to https:\/\/127\.0\.0\.1:\d+\/conformance\/webhook\?conformance-url=2: GET \/webhooks shows it, and AUTH.CREATED delivery #\d+ came to \/conformance\/webhook\?conformance-url=2$/,
      ),
    );
    expect(byId(result, 'webhooks.subscriptions.names').observations).toEqual([
      'each of AUTH, AUTH.CREATED, AUTH.DELETED, WEBHOOK, WEBHOOK.CREATED, WEBHOOK.UPDATED, ACCOUNT, ALL was accepted alone and listed by GET /webhooks',
    ]);
    expect(byId(result, 'webhooks.delivery.json').observations).toEqual([
      expect.stringMatching(/^\d+ deliveries, every body JSON; Content-Type application\/json$/),
    ]);
    expect(byId(result, 'webhooks.config.saved').observations).toContain(
      'no webhook configured before the suite: GET /webhooks answered 404 {"code":"404","message":"Not Found"}',
    );
  });

  it.each([
    ['webhooks.wrong-signing-key', 'webhooks.delivery.verified', ['REQ-EVT-14']],
    ['webhooks.digest-mismatch', 'webhooks.delivery.verified', ['REQ-EVT-14']],
    ['webhooks.unsigned-delivery', 'webhooks.delivery.verified', ['REQ-EVT-14']],
    ['webhooks.expired-signature', 'webhooks.delivery.in-window', ['REQ-AUTH-09']],
    ['webhooks.digest-not-covered', 'webhooks.delivery.digest-covered', ['REQ-EVT-19']],
  ])(
    '%s fails %s and only the checks of what it breaks; the event checks take the delivery as emitted and record why it does not verify',
    async (fault, owner, requirements) => {
      const l = await local({ faults: [fault] });
      const result = await run(l.target);
      expect(failing(result)).toContain(owner);
      expect(failing(result).filter((id) => !owners(fault).includes(id))).toEqual([]);
      const created = byId(result, 'webhooks.events.auth-created');
      expect(created.outcome).toBe('pass');
      expect(created.alsoSeen).toContainEqual({
        requirements,
        ownedBy: owner,
        message: expect.stringMatching(
          /^the AUTH.CREATED delivery #\d+ does not verify, so a client must discard it: /,
        ),
      });
    },
  );

  // Where a delivery names its event, whether a request bundles several, the headers and windows of deliveries, the
  // answers of GET /webhooks and /webhooks/key, and what a server does with an unknown subscription name, are open
  // points (REQ-EVT-15, REQ-EVT-18, REQ-AUTH-13, REQ-WHKEP-08, REQ-EVT-04): every reading passes the suite, and the
  // run records which it met. A batch is read as one delivery per event, whatever the events the server bundled.
  // Readings that do not meet are run together, several to a run: each is recorded as if alone (every reading alone, and
  // those that meet, such as a batch in any order, are runs of the choices matrix, npm run matrix:check).
  it.each([
    [
      { eventPayload: 'in-header', deliverySignature: 'long-window' },
      [
        [
          'webhooks.events.auth-created',
          /^AUTH\.CREATED delivery #\d+: event name at header x-event-type, payload fields \["id","webhookId","occurredAt","data"\]/,
        ],
        [
          'webhooks.delivery.in-window',
          /; the windows the server chose \(RFC 9421 leaves them to the signer\): expires - created 259200 s in \d+$/,
        ],
      ],
    ],
    [
      { eventPayload: 'cloudevents', webhookAnswer: 'list' },
      [
        [
          'webhooks.events.auth-created',
          /^AUTH\.CREATED delivery #\d+: event name at header ce-type \(as "com\.example\.investment\.auth\.created"\), payload fields \["tokenId",/,
        ],
        ['webhooks.config.restored', /GET \/webhooks answered 200 with the Webhook at data\[0\]\)/],
      ],
    ],
    [
      { eventPayload: 'nested', deliveryHeaders: 'extra', unknownSubscription: 'kept' },
      [
        [
          'webhooks.events.auth-created',
          /^AUTH\.CREATED delivery #\d+: event name at header x-event-type \(also at payload\.meta\.eventType\)/,
        ],
        [
          'webhooks.info.unknown-subscription',
          /^an unknown name accepted and kept: .* GET \/webhooks lists \["ALL","CONFORMANCE\.NO-SUCH-EVENT","WEBHOOK\.CREATED"\]/,
        ],
      ],
    ],
    [
      { eventPayload: 'batch', deliveryOrder: 'duplicates', deliveryHeaders: 'extra' },
      [
        [
          'webhooks.delivery.observed',
          /^several events in one request \(REQ-EVT-15\): \d+ of \d+ delivery requests carry a list of events at payload\.events \(\d+ events; up to \d+ in one\)$/,
        ],
        ['webhooks.delivery.observed', /^\d+ deliveries; \d+ repeated a body already delivered \(retries\)$/],
      ],
    ],
    [
      { eventPayload: 'cloudevents-batch', deliveryHeaders: 'standard-webhooks' },
      [
        [
          'webhooks.events.webhook-created',
          /^WEBHOOK\.CREATED delivery #\d+ \(event \d+ of \d+ of a batch at payload\): event name at payload\[\d+\]\.type \(as "com\.example\.investment\.webhook\.created"\)/,
        ],
        [
          'webhooks.delivery.observed',
          /^header names: .*signature-input, webhook-id, webhook-timestamp, x-delivery-attempt$/,
        ],
      ],
    ],
    [
      { eventPayload: 'cloudevents-structured', webhookKeyFormat: 'jwks', unknownSubscription: 'ignored' },
      [
        ['webhooks.delivery.json', /^\d+ deliveries, every body JSON; Content-Type application\/cloudevents\+json$/],
        [
          'webhooks.delivery.observed',
          /^public key \(its format is not shown\): JWK \(OKP\/Ed25519\) at data\.keys\[0\] \(key id "/,
        ],
        [
          'webhooks.info.unknown-subscription',
          /^an unknown name accepted and ignored: PUT \/webhooks with subscriptions \["ALL","CONFORMANCE\.NO-SUCH-EVENT"\] answered 200, and GET \/webhooks lists \["ALL","WEBHOOK\.CREATED"\], without it/,
        ],
      ],
    ],
  ] as const)('passes the readings %o and records each', async (choices, records) => {
    const l = await local({ choices });
    const result = await run(l.target);
    expect(problems(result)).toEqual([]);
    for (const [id, recorded] of records)
      expect(byId(result, id).observations, id).toContainEqual(expect.stringMatching(recorded));
    const c: Record<string, string> = choices;
    const batched = ['batch', 'cloudevents-batch'].includes(c.eventPayload ?? '');
    const inHeader = ['in-header', 'cloudevents'].includes(c.eventPayload ?? '');
    expect(result.run.notes?.some((n) => n.startsWith('webhook deliveries name their event at header '))).toBe(
      inHeader || (c.deliveryHeaders === 'extra' && !batched),
    );
    expect(result.run.notes?.some((n) => n.startsWith('webhook deliveries bundle events: '))).toBe(batched);
  });

  it('passes a server that generates a new key each time the webhook is configured, and records it', async () => {
    const key = generateEd25519();
    const webhook: WebhookConfig = { listen: '127.0.0.1:0', tls: 'self-signed' };
    const server = await startReferenceServer({
      clients: [{ clientId: 'c', clientSecret: 'secret-value-1', keyId: 'k', publicKey: key.publicKey }],
      webhookCa: (await receiverTls(webhook))!.cert,
      middleware: [
        async (ctx, state, route, next) => {
          const reply = await next();
          if (route.path === '/webhooks' && ctx.method === 'PUT' && reply.status === 200)
            state.webhooks.registry.regenerateKey(ctx.client!.clientId);
          return reply;
        },
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
    expect(problems(result)).toEqual([]);
    expect(byId(result, 'webhooks.delivery.observed').observations).toContainEqual(
      expect.stringMatching(
        /^the published key changed \d+ time\(s\) during the run; first: GET \/webhooks\/key gave another key \(.*\) after PUT \/webhooks .*: the server generates a key each time the webhook is configured/,
      ),
    );
  });

  it('registers with PUT, and is not held up, when an earlier check left a webhook at an unreachable URL', async () => {
    const l = await local();
    // What a faulty server leaves after applying a tampered POST /webhooks (signing.reject.post-body-tampered), and the
    // tokens other suites issue meanwhile: each event is retried in vain at that URL.
    const leftover = defineSuite({
      name: 'auth',
      title: 'set-up',
      checks: [
        defineCheck({
          id: 'auth.setup.leftover',
          title: 'leaves a webhook at an unreachable URL, then issues tokens',
          level: 'MUST',
          uses: ['webhook-config'],
          requirements: CITES.MUST,
          async run(ctx) {
            const res = await ctx.send({
              method: 'POST',
              path: '/webhooks',
              json: { url: 'https://conformance.invalid/tampered', subscriptions: ['ALL'] },
            });
            if (res.status !== 200) ctx.fail(`set-up POST /webhooks answered ${res.status}`);
            for (let i = 0; i < 8; i++) await requestToken(ctx);
            ctx.judged('the set-up');
          },
        }),
      ],
    });
    expect(problems(await runChecks({ pack, target: l.target, suites: [leftover] }))).toEqual([]);
    const result = await run(l.target);
    expect(problems(result)).toEqual([
      expect.stringMatching(/^webhooks\.create\.auto-subscription: skip set-up problem: no webhook creation can be/),
      expect.stringMatching(/^webhooks\.events\.webhook-created: skip set-up problem: no webhook creation can be/),
    ]);
    expect(byId(result, 'webhooks.config.restored').observations[0]).toBe(
      'restored: url "https://conformance.invalid/tampered", subscriptions ["ALL","WEBHOOK.CREATED"]',
    );
  });
});
