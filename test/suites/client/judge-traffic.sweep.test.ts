// The client judge pack (issue 30): the client checks that can judge a real client's traffic run their `observe` over
// it. The traffic is real: the example clients (examples/clients/, compiled) run against the sandbox of `conformance
// client`, and the requests it recorded are turned into TrafficExchange[] as a HAR or the proxy would give them (no
// acts, no scenario; the renew scenario's ended token shows as a 401 the client renews after). The good client gets no
// finding; each broken client whose flaw traffic shows fails the owning
// check, citing the exchange, and no other check.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runChecks, type CheckResult } from '../../../src/engine/index.js';
import { Redactor } from '../../../src/http/redact.js';
import { runScenario } from '../../../src/client/scenario.js';
import type { ScenarioName, ScenarioRecord } from '../../../src/client/types.js';
import type { TrafficExchange } from '../../../src/traffic/exchange.js';
import { clientJudgePack, clientSuites, NOT_EXERCISED_CLIENT } from '../../../suites/client/index.js';
import { FLAWS, type FlawName } from '../../../examples/clients/ts/flaws.js';
import { madeUpTarget } from '../../helpers/made-up-pack.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const GOOD = ['node', 'dist/examples/clients/ts/good.js'];
const broken = (flaw: FlawName) => ['node', 'dist/examples/clients/ts/broken.js', flaw];

/** The checks with an `observe`: what traffic can show. */
const JUDGING = [
  'client.requests.signed',
  'client.requests.covers-headers',
  'client.requests.signature-window',
  'client.requests.digest',
  'client.requests.client-id',
  'client.requests.authorization',
  'client.requests.idempotency-key',
  'client.requests.idempotency-unique',
  'client.token.form',
  'client.paging.next-page',
  'client.renew.no-stale-token',
  'client.throttle.retry-after',
  'client.ussd.given-urls',
  'client.webhooks.refuses-forged',
];
/** Judged on the deliveries a proxy session forwards to the client's receiver (test/e2e/proxy-receiver.test.ts): the
 * sandbox's recorded requests hold none. */
const DELIVERIES_ONLY = ['client.webhooks.refuses-forged'];
const BAD = ['fail', 'warn', 'error'];
const bytes = (text: string) => new TextEncoder().encode(text);

let seq = 0;
function scenario(name: ScenarioName, command: string[]): Promise<ScenarioRecord> {
  return runScenario(name, command, { nextSeq: () => ++seq, cwd: root });
}

/** What the sandbox recorded, as traffic observed on the wire: each request whole, its answer, when it went. */
function trafficOf(record: ScenarioRecord): TrafficExchange[] {
  return record.requests.map((r, index) => {
    const reply = r.reply === undefined ? '' : JSON.stringify(r.reply);
    return {
      index,
      startedAt: new Date(r.receivedAt).toISOString(),
      durationMs: r.exchange.durationMs,
      request: {
        method: r.method,
        url: r.url,
        headers: r.headers,
        body: new Uint8Array(r.body),
        bodyState: r.body.length > 0 ? 'captured' : 'empty',
      },
      response: {
        status: r.status,
        headers: Object.entries(r.replyHeaders),
        body: bytes(reply),
        bodyState: reply === '' ? 'empty' : 'captured',
      },
    };
  });
}

async function judge(record: ScenarioRecord, withKey = true): Promise<CheckResult[]> {
  const client = withKey
    ? { clientId: record.clientId, keyId: record.keyId, publicKeyPem: record.publicKeyPem }
    : { clientId: record.clientId };
  const judged = clientJudgePack(trafficOf(record), { baseUrl: record.baseUrl, redactor: new Redactor(), client });
  const result = await runChecks({ pack: judged.pack, target: madeUpTarget });
  return result.checks;
}

const line = (c: CheckResult) => `${c.id}: ${c.outcome} ${c.finding?.message ?? c.skipReason ?? ''}`;

describe('the client judge pack', () => {
  it('lists every client check, and skips those that need a scenario as not exercised', async () => {
    const judged = clientJudgePack([], { baseUrl: 'https://127.0.0.1:9/v1', redactor: new Redactor() });
    const all = clientSuites.flatMap((s) => s.checks.map((c) => c.id));
    expect(judged.notExercised).toEqual(all.filter((id) => !JUDGING.includes(id)));
    const result = await runChecks({ pack: judged.pack, target: madeUpTarget });
    expect(result.checks.map((c) => c.id)).toEqual(all);
    for (const c of result.checks)
      expect(c.skipReason).toBe(
        JUDGING.includes(c.id) ? 'the traffic holds no request of the client' : NOT_EXERCISED_CLIENT,
      );
  });

  it("the good client's traffic: every judging check passes somewhere, none fails", async () => {
    const records = await Promise.all(
      (['token', 'read', 'update', 'renew', 'throttle', 'ussd'] as const).map((name) => scenario(name, GOOD)),
    );
    const results = (await Promise.all(records.map((r) => judge(r)))).flat();
    expect(results.filter((c) => BAD.includes(c.outcome)).map(line)).toEqual([]);
    const passed = new Set(results.filter((c) => c.outcome === 'pass').map((c) => c.id));
    expect(JUDGING.filter((id) => !passed.has(id) && !DELIVERIES_ONLY.includes(id))).toEqual([]);
    // Checks that need a scenario never pass on traffic.
    expect([...passed].filter((id) => !JUDGING.includes(id))).toEqual([]);
  }, 60_000);

  it('without the client key, the signature is not exercised and the other checks still judge', async () => {
    const results = await judge(await scenario('token', GOOD), false);
    const signed = results.find((c) => c.id === 'client.requests.signed')!;
    expect(signed.outcome).toBe('skip');
    expect(signed.skipReason).toMatch(/^not exercised: the client's public key was not given/);
    expect(results.find((c) => c.id === 'client.requests.covers-headers')?.outcome).toBe('pass');
    expect(results.find((c) => c.id === 'client.requests.client-id')?.outcome).toBe('pass');
  }, 30_000);

  /** Each flaw traffic can show: the check that owns it fails (MUST) or warns (SHOULD), citing the exchange; no other. */
  const SHOWN: Array<[FlawName, 'fail' | 'warn']> = [
    ['bad-signature', 'fail'],
    ['uncovered-header', 'fail'],
    ['stale-created', 'warn'],
    ['no-digest', 'fail'],
    ['no-client-id', 'fail'],
    ['no-authorization', 'fail'],
    ['no-idempotency-key', 'fail'],
    ['reused-idempotency-key', 'fail'],
    ['json-token-request', 'fail'],
    ['page-index', 'fail'],
    ['stale-token-reused', 'fail'],
    ['ignores-retry-after', 'warn'],
    ['builds-ussd-urls', 'fail'],
  ];
  it.each(SHOWN)(
    'broken client %s: its own check only, citing the exchange',
    async (flaw, outcome) => {
      const owner = FLAWS[flaw].fails[0];
      const record = await scenario(FLAWS[flaw].scenario, broken(flaw));
      const results = await judge(record);
      expect(results.filter((c) => BAD.includes(c.outcome)).map((c) => `${c.id}: ${c.outcome}`)).toEqual([
        `${owner}: ${outcome}`,
      ]);
      const check = results.find((c) => c.id === owner)!;
      const cited = check.finding?.exchangeSeq;
      expect(cited).toBeDefined();
      // The exchange cited is the traffic's (numbered from 1 in its order, "observed"), and the check holds it.
      expect(check.exchanges.find((e) => e.seq === cited)?.checkId).toBe('observed');
      expect(cited).toBeLessThanOrEqual(record.requests.length);
    },
    60_000,
  );
});
