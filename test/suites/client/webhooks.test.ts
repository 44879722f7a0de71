// The receiver checks (suites/client/webhooks.ts) run by the engine against made-up records of the webhooks scenario:
// a receiver that accepts everything, one that verifies, one that discards everything, and clients that never got as
// far as the deliveries.
import { describe, expect, it } from 'vitest';
import { defineCheck, defineSuite, runChecks, type CheckResult } from '../../../src/engine/index.js';
import type { Exchange } from '../../../src/http/exchange.js';
import {
  FORGERIES,
  type ClientRequest,
  type ClientRunRecord,
  type ScenarioRecord,
  type SentDelivery,
} from '../../../src/client/types.js';
import { clientPack } from '../../../suites/client/index.js';
import webhooks from '../../../suites/client/webhooks.js';
import { madeUpTarget } from '../../helpers/made-up-pack.js';

const FORGED = ['body-altered', 'digest-wrong', 'signature-wrong', 'other-key', 'headers-missing'];

function exchange(seq: number, method: string, url: string, status?: number): Exchange {
  return {
    seq,
    checkId: 'client:webhooks',
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
    request: { method, url, headers: [], bodySize: 0 },
    ...(status !== undefined ? { response: { status, headers: [], bodySize: 0 } } : {}),
  };
}

let seq = 0;
function request(
  method: string,
  path: string,
  status: number,
  body: unknown = undefined,
  rejection?: ClientRequest['rejection'],
): ClientRequest {
  const n = ++seq;
  const url = `https://127.0.0.1:8443/v1${path}`;
  return {
    seq: n,
    scenario: 'webhooks',
    receivedAt: n,
    method,
    url,
    path,
    headers: [],
    body: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
    status,
    replyHeaders: {},
    reply: undefined,
    ...(rejection ? { rejection } : {}),
    exchange: exchange(n, method, url, status),
  };
}

const REGISTRATION = { url: 'https://127.0.0.1:9443/hook', subscriptions: ['ALL'] };
const goodFlow = () => [
  request('POST', '/oauth/token', 200),
  request('POST', '/webhooks', 201, REGISTRATION),
  request('GET', '/webhooks/key', 200),
];

/** The deliveries forgeries.ts sends, each answered by `answer`: 2 valid, each forgery, the replay of the second. */
function deliveries(answer: (kind: SentDelivery['kind']) => number | undefined): SentDelivery[] {
  const kinds: Array<SentDelivery['kind']> = ['valid', 'valid', ...FORGERIES];
  return kinds.map((kind, i) => {
    const n = 1000 + i;
    const status = answer(kind);
    return {
      kind,
      eventId: kind === 'replayed' ? 'event-1' : `event-${i}`,
      sentAt: n,
      ...(status !== undefined ? { status } : { error: 'ECONNRESET: socket hang up' }),
      exchange: exchange(n, 'POST', REGISTRATION.url, status),
    };
  });
}

function record(parts: Partial<ScenarioRecord>): ClientRunRecord {
  const scenario: ScenarioRecord = {
    scenario: 'webhooks',
    clientId: 'client-1',
    keyId: 'key-1',
    publicKeyPem: '',
    baseUrl: 'https://127.0.0.1:8443/v1',
    fixtures: {},
    requests: goodFlow(),
    acts: [],
    deliveries: [],
    accepted: [],
    end: { code: null, signal: 'SIGTERM', endedBy: 'scenario-done', stderrTail: '', stdoutTail: '', durationMs: 1 },
    ...parts,
  };
  return { command: ['receiver'], scenarios: { webhooks: scenario } };
}

/** The owner of a Content-Digest rejection, standing in for helper checks' suite: it fails, as it would for it. */
const digestOwner = defineSuite({
  name: 'client.requests',
  title: 'stand-in',
  checks: [
    defineCheck({
      id: 'client.requests.digest',
      title: 'stand-in',
      level: 'MUST',
      requirements: ['REQ-HDR-08'],
      run: async (ctx) => ctx.fail('a body without its digest'),
    }),
  ],
});

async function judge(run: ClientRunRecord): Promise<Record<string, CheckResult>> {
  const result = await runChecks({
    pack: clientPack(() => Promise.resolve(run)),
    target: madeUpTarget,
    suites: [digestOwner, webhooks],
  });
  return Object.fromEntries(
    result.checks.filter((c) => c.suite === webhooks.name).map((c) => [c.id.replace('client.webhooks.', ''), c]),
  );
}

const outcomes = (results: Record<string, CheckResult>) =>
  Object.fromEntries(Object.entries(results).map(([id, r]) => [id, r.outcome]));

/** What a receiver wrote: the eventIds of the deliveries of the kinds it accepted (the replay's a second time). */
const acceptedBy = (sent: SentDelivery[], kinds: ReadonlyArray<SentDelivery['kind']>) =>
  sent.filter((d) => kinds.includes(d.kind)).map((d) => d.eventId);

describe('client.webhooks checks', () => {
  it('pass a receiver that accepts the valid deliveries only, answering 204 and 401', async () => {
    const sent = deliveries((kind) => (kind === 'valid' ? 204 : 401));
    const results = await judge(record({ deliveries: sent, accepted: acceptedBy(sent, ['valid']) }));
    expect(outcomes(results)).toEqual({
      registered: 'pass',
      'accepts-valid': 'pass',
      'discards-forged': 'pass',
      'discards-stale': 'pass',
      'refuses-forged': 'pass',
    });
  });

  it('fail a receiver that accepts everything at MUST, naming each forged kind with its exchange; warn for the stale ones; its 2xx follow from that', async () => {
    const sent = deliveries(() => 200);
    const results = await judge(record({ deliveries: sent, accepted: sent.map((d) => d.eventId) }));
    expect(outcomes(results)).toEqual({
      registered: 'pass',
      'accepts-valid': 'pass',
      'discards-forged': 'fail',
      'discards-stale': 'warn',
      'refuses-forged': 'skip',
    });
    const forged = results['discards-forged']!;
    expect(forged.finding?.message).toBe(`the receiver accepted 5 forged deliveries: ${FORGED.join(', ')}`);
    for (const kind of FORGED) expect(forged.finding?.observed).toContain(`${kind}: eventId`);
    const cited = sent.filter((d) => FORGED.includes(d.kind)).map((d) => d.exchange.seq);
    expect(forged.exchanges.map((e) => e.seq)).toEqual(cited);
    expect(forged.finding?.exchangeSeq).toBe(cited[0]);
    expect(forged.requirements.map((r) => r.id)).toEqual(['REQ-AUTH-12']);

    const stale = results['discards-stale']!;
    expect(stale.finding?.message).toBe(
      'the receiver accepted 3 stale deliveries: expired, created-in-future, replayed',
    );
    expect(results['refuses-forged']!.skipReason).toBe(
      'the receiver discarded none of the forged deliveries (client.webhooks.discards-forged judges that)',
    );
  });

  it('warn at refuses-forged for a receiver that discards the forged deliveries but answers them 2xx', async () => {
    const sent = deliveries(() => 200);
    const results = await judge(record({ deliveries: sent, accepted: acceptedBy(sent, ['valid']) }));
    expect(outcomes(results)).toEqual({
      registered: 'pass',
      'accepts-valid': 'pass',
      'discards-forged': 'pass',
      'discards-stale': 'pass',
      'refuses-forged': 'warn',
    });
    expect(results['refuses-forged']!.finding?.message).toBe(
      `the receiver answered 2xx to 5 forged deliveries: ${FORGED.join(', ')}`,
    );
  });

  it('fail a receiver that discards everything at accepts-valid only', async () => {
    const sent = deliveries(() => 400);
    const results = await judge(record({ deliveries: sent, accepted: [] }));
    expect(outcomes(results)).toEqual({
      registered: 'pass',
      'accepts-valid': 'fail',
      'discards-forged': 'pass',
      'discards-stale': 'pass',
      'refuses-forged': 'pass',
    });
    expect(results['accepts-valid']!.finding).toMatchObject({
      message: 'the receiver did not accept 2 valid deliveries',
      exchangeSeq: sent[0]!.exchange.seq,
    });
    expect(results['accepts-valid']!.finding?.observed).toContain('eventId event-0: answered 400, not in the file');
  });

  it('judge the replay by its eventId written twice, and a forged one accepted but refused with a 4xx only at discards-forged', async () => {
    const sent = deliveries((kind) => (kind === 'valid' || kind === 'replayed' ? 200 : 401));
    const results = await judge(
      record({ deliveries: sent, accepted: [...acceptedBy(sent, ['valid', 'replayed']), 'event-4'] }),
    );
    expect(outcomes(results)).toMatchObject({
      'discards-forged': 'fail',
      'discards-stale': 'warn',
      'refuses-forged': 'pass',
    });
    expect(results['discards-forged']!.finding?.message).toBe(
      'the receiver accepted a forged delivery: signature-wrong',
    );
    expect(results['discards-stale']!.finding?.message).toBe('the receiver accepted a stale delivery: replayed');
  });

  it('skip refuses-forged when the receiver answered no forged delivery, and fail accepts-valid for the unanswered valid ones', async () => {
    const sent = deliveries(() => undefined);
    const results = await judge(record({ deliveries: sent, accepted: [] }));
    expect(outcomes(results)).toMatchObject({ 'accepts-valid': 'fail', 'refuses-forged': 'skip' });
    expect(results['accepts-valid']!.finding?.observed).toContain('no answer (ECONNRESET: socket hang up)');
  });

  it('fail registered, and skip the delivery checks, when the client never registered a receiver', async () => {
    const results = await judge(record({ requests: [request('POST', '/oauth/token', 200)] }));
    expect(outcomes(results)).toEqual({
      registered: 'fail',
      'accepts-valid': 'skip',
      'discards-forged': 'skip',
      'discards-stale': 'skip',
      'refuses-forged': 'skip',
    });
    expect(results.registered!.finding?.message).toBe('the client never registered its receiver');
    expect(results['accepts-valid']!.skipReason).toContain('client.webhooks.registered');
  });

  it('fail registered for an http url, a refused registration, or no key fetched after the registration', async () => {
    const http = await judge(
      record({
        requests: [
          request('POST', '/webhooks', 201, { url: 'http://127.0.0.1:9443/hook' }),
          request('GET', '/webhooks/key', 200),
        ],
      }),
    );
    expect(http.registered!.finding?.message).toBe('the receiver was registered without an https url');

    const refused = await judge(record({ requests: [request('PUT', '/webhooks', 400, REGISTRATION)] }));
    expect(refused.registered!.finding?.message).toBe('no registration of the receiver succeeded: PUT /webhooks → 400');

    const early = await judge(
      record({ requests: [request('GET', '/webhooks/key', 200), request('PUT', '/webhooks', 200, REGISTRATION)] }),
    );
    expect(early.registered!.finding?.message).toBe(
      'the client did not fetch the delivery key after registering its receiver',
    );
  });

  it('skip registered when the sandbox cut the flow short for a rule another check owns', async () => {
    const results = await judge(
      record({
        requests: [
          request('POST', '/oauth/token', 200),
          request('POST', '/webhooks', 400, REGISTRATION, {
            code: 'DIGEST_MISMATCH',
            reason: 'the digest does not match',
          }),
        ],
      }),
    );
    expect(results.registered!.outcome).toBe('skip');
    expect(results.registered!.skipReason).toContain('client.requests.digest');
  });
});
