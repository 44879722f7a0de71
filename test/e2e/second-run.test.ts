// A second run against the same client is as complete as the first (issue 26, 7a). The interface gives each client
// one webhook and no DELETE, so a webhook's creation can be observed once per client: a later run carries forward the
// creation an earlier run observed and recorded (.conformance/carried.json beside the config), or observes it with
// the second client of `webhookClient`, or says exactly what to ask the provider for. Against a server that keeps state:
// one reference server with two clients, kept running across the runs of a test, and a config file in a folder.
// (test/e2e/webhook-receiver.test.ts runs the CLI twice against `conformance serve`.)
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopsAfterEach } from '../helpers/webhook-targets.js';
import { loadConfig } from '../../src/config/load.js';
import { generateEd25519 } from '../../src/http/keys.js';
import { startReferenceServer } from '../../src/reference/server.js';
import { receiverTls } from '../../src/receiver/certificate.js';
import { runChecks, type CheckResult, type RunResult } from '../../src/engine/index.js';
import { pack } from '../../suites/index.js';
import webhooks from '../../suites/webhooks/index.js';

const stops = stopsAfterEach();
const CREATION = ['webhooks.create.auto-subscription', 'webhooks.events.webhook-created'];
const CARRIED =
  /^not observed in this run: .*; carried forward from the creation observed at (\S+) \(POST \/webhooks by client "([^"]+)", X-Idempotency-Key [\w-]+, answered 20\d\) by suite version \S+$/;

const webhooksNotPassed = (checks: readonly CheckResult[]) =>
  checks
    .filter((c) => c.suite === 'webhooks' && c.outcome !== 'pass')
    .map((c) => `${c.id}: ${c.outcome} ${c.finding?.message ?? c.skipReason ?? ''}`);
const byId = (checks: readonly CheckResult[], id: string) => checks.find((c) => c.id === id)!;

describe('a second run against the same client', () => {
  /** One reference server with two clients, a config of two targets on it (one with webhookClient), in a folder. */
  async function twoClients(
    faults: string[] = [],
  ): Promise<{ dir: string; run: (target: string, grep?: string) => Promise<RunResult> }> {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-second-client-'));
    const main = generateEd25519();
    const other = generateEd25519();
    const webhook = { listen: '127.0.0.1:0', tls: 'self-signed' as const };
    const server = await startReferenceServer({
      host: '127.0.0.1',
      port: 0,
      clients: [
        { clientId: 'partner', clientSecret: 'partner-secret-1', keyId: 'partner-key', publicKey: main.publicKey },
        { clientId: 'second', clientSecret: 'second-secret-1', keyId: 'second-key', publicKey: other.publicKey },
      ],
      webhookCa: (await receiverTls(webhook))!.cert,
      faults,
    });
    stops.push(() => server.close());
    writeFileSync(join(dir, 'partner.pem'), main.privateKeyPem, { mode: 0o600 });
    writeFileSync(join(dir, 'second.pem'), other.privateKeyPem, { mode: 0o600 });
    const target = {
      baseUrl: server.baseUrl,
      clientId: 'partner',
      clientSecret: 'partner-secret-1',
      keyId: 'partner-key',
      privateKeyFile: 'partner.pem',
    };
    const second = {
      clientId: 'second',
      clientSecret: 'second-secret-1',
      keyId: 'second-key',
      privateKeyFile: 'second.pem',
    };
    writeFileSync(
      join(dir, 'conformance.config.json'),
      JSON.stringify({ targets: { staging: { ...target, webhookClient: second }, plain: target } }),
    );
    const { targets } = await loadConfig({ cwd: dir });
    const run = (name: string, grep?: string) =>
      runChecks({
        pack,
        target: targets[name]!,
        suites: [webhooks],
        failOn: 'should',
        ...(grep ? { selection: { grep } } : {}),
      });
    return { dir, run };
  }
  const creationOnly = 'webhooks\\.(create\\.auto-subscription|events\\.webhook-created)';

  it('two runs in a row pass every webhooks check; the second carries forward the creation the first observed', async () => {
    const { dir, run } = await twoClients();
    const first = await run('plain');
    expect(webhooksNotPassed(first.checks)).toEqual([]);
    expect(existsSync(join(dir, '.conformance', 'carried.json'))).toBe(true);
    const post = byId(first.checks, 'webhooks.create.answer').exchanges.find(
      (e) => e.request.method === 'POST' && e.request.url.endsWith('/webhooks'),
    )!;
    expect(first.run.notes).toContainEqual(
      expect.stringMatching(
        /^webhook creation observed; kept for later runs in .+carried\.json \(sha256 [0-9a-f]{64}\)$/,
      ),
    );

    const second = await run('plain');
    // The same verdict: every webhooks check passed, none leaves a MUST requirement not exercised.
    expect(webhooksNotPassed(second.checks)).toEqual([]);
    expect(second.run.setupProblems).toBeUndefined();
    for (const r of [first, second])
      expect(
        r.verdict.notExercised.flatMap((n) => n.checks.map((c) => c.id)).filter((id) => id.startsWith('webhooks.')),
      ).toEqual([]);
    // Honest about it: each creation check says when the creation it reports was observed, by whom, and where the record is.
    for (const id of CREATION) {
      const said = byId(second.checks, id).observations;
      expect(CARRIED.exec(said[0]!)?.slice(1)).toEqual([post.startedAt, 'partner']);
      expect(said[1]).toMatch(/^the webhook configured now is the one that run created: the same webhookId "[\w-]+"$/);
      expect(said.at(-1)).toMatch(
        /^record \/.+\/\.conformance\/carried\.json, sha256 [0-9a-f]{64}, signed with keyid "partner-key"$/,
      );
    }
    expect(second.run.notes).toContainEqual(
      expect.stringMatching(/^webhook creation carried forward, not observed in this run /),
    );
  });

  it('observes the creation with webhookClient when no record is kept, carries that forward next, and names what to ask for once both clients are spent', async () => {
    const { dir, run } = await twoClients();
    const records = join(dir, '.conformance', 'carried.json');
    // The partner's client gets its webhook (observed), and the record of it is lost (a CI job's fresh folder).
    expect(webhooksNotPassed((await run('staging', creationOnly)).checks)).toEqual([]);
    rmSync(records);

    // The whole suite: the creation is observed with the second client, and nothing else is disturbed by it.
    const second = await run('staging');
    expect(webhooksNotPassed(second.checks)).toEqual([]);
    expect(byId(second.checks, 'webhooks.create.auto-subscription').observations).toContainEqual(
      expect.stringMatching(
        /^created of the webhook client "second" with \["ALL"\] at \S+ \(POST \/webhooks by client "second", X-Idempotency-Key [\w-]+, answered 200\), GET \/webhooks lists \["ALL","WEBHOOK.CREATED"\]$/,
      ),
    );
    expect(second.run.notes).toContainEqual(
      expect.stringMatching(
        /^webhook creation observed with the webhook client "second" \(client "partner" has a webhook already\); kept for later runs in .+carried\.json \(sha256 [0-9a-f]{64}\); the webhook client "second" keeps its webhook \(the interface has no DELETE\): url https:\/\/127\.0\.0\.1:\d+\/conformance\/webhook\?conformance-url=2, subscriptions \["WEBHOOK.CREATED"\], which nothing that client does later selects$/,
      ),
    );

    // The second client's token was revoked, as that client, before the run went on.
    const revoke = byId(second.checks, 'webhooks.create.auto-subscription').exchanges.find((e) =>
      e.request.url.endsWith('/oauth/revoke'),
    );
    expect(revoke?.request.headers).toContainEqual(['X-Client-Id', 'second']);
    expect(revoke?.response?.status).toBe(200);

    // Next run: both clients have a webhook; the second client's creation is carried forward.
    const third = await run('staging', creationOnly);
    expect(webhooksNotPassed(third.checks)).toEqual([]);
    for (const id of CREATION) expect(CARRIED.exec(byId(third.checks, id).observations[0]!)?.[2]).toBe('second');

    // A record edited by hand is not carried forward; with both clients spent, the fix names the credential to ask for.
    const text = readFileSync(records, 'utf8');
    writeFileSync(records, text.replace(/"observedAt": "[^"]+"/g, '"observedAt": "2020-01-01T00:00:00.000Z"'));
    const fourth = await run('staging', creationOnly);
    expect(webhooksNotPassed(fourth.checks)).toEqual(
      CREATION.map((id) => expect.stringMatching(new RegExp(`^${id}: skip set-up problem: `))),
    );
    expect(fourth.run.setupProblems).toEqual([
      {
        suite: 'webhooks',
        problem: expect.stringMatching(
          /^no webhook creation can be observed: client "partner" has a webhook already \(webhookId "[\w-]+", createdAt \d+\) and the interface has no DELETE; no earlier run's record of its creation is kept in .+carried\.json; the webhook client "second" has one too \(webhookId "[\w-]+", createdAt \d+\): the record in .+carried\.json does not verify under the key of keyid "partner-key" \(it was edited, or signed with another key\)$/,
        ),
        fix: `ask the provider for another client with no webhook (client "second" of targets.staging.webhookClient has one now) and set targets.staging.webhookClient to it; keep ${records} between runs (commit it, or cache it in CI): later runs carry forward the creation it records`,
        checks: CREATION,
      },
    ]);

    // The same client, no webhookClient, no record: ask for a second client.
    rmSync(records);
    const plain = await run('plain', creationOnly);
    expect(plain.run.setupProblems).toEqual([
      expect.objectContaining({
        fix: `ask the provider for a second client with no webhook (its client id and secret, and the key id its signing key is registered under) and set it as targets.plain.webhookClient {"clientId", "clientSecret", "keyId", "privateKeyFile"} in the config; keep ${records} between runs (commit it, or cache it in CI): later runs carry forward the creation it records`,
      }),
    ]);
    expect(plain.verdict.notExercised.find((r) => r.id === 'REQ-EVT-09')?.remedy).toBe(
      `fix the webhooks set-up: ${(plain.run.setupProblems![0] as { fix: string }).fix}`,
    );
  });

  it('carries a failure forward too: a server that failed a creation check fails it again, saying when it was seen', async () => {
    const { run } = await twoClients(['webhooks.created-not-auto-subscribed']);
    const verdicts: string[] = [];
    for (const n of [1, 2]) {
      const r = await run('plain', creationOnly);
      verdicts.push(r.verdict.status);
      expect(webhooksNotPassed(r.checks)).toEqual([
        expect.stringMatching(
          n === 1
            ? /^webhooks\.create\.auto-subscription: fail subscriptions \["ALL"\] do not contain WEBHOOK\.CREATED$/
            : /^webhooks\.create\.auto-subscription: fail carried forward from the creation observed at \S+ \(POST \/webhooks by client "partner", X-Idempotency-Key [\w-]+, answered 200\) by suite version \S+: subscriptions \["ALL"\] do not contain WEBHOOK\.CREATED$/,
        ),
      ]);
    }
    expect(verdicts).toEqual(['NOT CONFORMANT', 'NOT CONFORMANT']);
  });
});
