// The pure parts of the proxy matrix (src/matrix/proxy-detection.ts): the cases it runs, and the problems a judged
// session gives. No proxy session here: scripts/proxy-matrix.mjs runs them (npm run matrix).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { FLAWS as EXAMPLE_FLAWS } from '../../examples/clients/ts/flaws.js';
import { FAULTS as REFERENCE_FAULTS } from '../../src/reference/faults/catalog.js';
import { suites } from '../../suites/index.js';
import { clientSuites } from '../../suites/client/index.js';
import {
  FAULT_SCENARIOS,
  HELD_POINTS,
  notRunRow,
  PROXY_BUNDLES,
  PROXY_SCENARIOS,
  proxyCases,
  proxyFingerprint,
  proxyMatrixProblems,
  proxyRow,
  renderProxyMatrix,
  unansweredDeliveries,
  withoutHeld,
  type JudgedCheck,
  type JudgedSession,
  type ProxyCase,
  type ProxyMatrixJson,
} from '../../src/matrix/proxy-detection.js';
import type { DeliveryAttempt } from '../../src/reference/webhooks/delivery.js';

const FLAWS = {
  'bad-signature': { fails: ['client.requests.signed'], scenario: 'token' },
  'no-renewal': { fails: ['client.renew.new-token'], scenario: 'renew' },
  'unregistered-receiver': { fails: ['client.webhooks.registered'], scenario: 'webhooks' },
};
const FAULTS = [
  { name: 'auth.token-type-lowercase', suite: 'auth' },
  { name: 'webhooks.key-missing', suite: 'webhooks' },
];
const CATCHERS = new Map([['auth.token-type-lowercase', ['auth.token.type-bearer']]]);
const cases = proxyCases(['default', 'all-second'], ['token-envelope'], FLAWS, FAULTS, CATCHERS);
const byName = (name: string): ProxyCase => cases.find((c) => c.name === name)!;
const OBSERVABLE = new Set(['client.requests.signed', 'client.requests.digest', 'client.token.form']);

const pass = (id: string): JudgedCheck => ({ id, outcome: 'pass', cited: false });
const fail = (id: string, cited = true): JudgedCheck => ({ id, outcome: 'fail', cited });
function session(checks: JudgedCheck[], codes: Array<number | null> = [0]): JudgedSession {
  return { exchanges: 6, checks, clients: codes.map((code) => ({ code, said: code === 0 ? '' : 'gave up' })) };
}

describe('proxy matrix cases', () => {
  it('the good client against each bundle and fault, each broken client on its own scenario', () => {
    expect(cases.map((c) => [c.name, c.kind, c.scenarios.join(' ')])).toEqual([
      ['good / default', 'choices', PROXY_SCENARIOS.join(' ')],
      ['good / all-second', 'choices', PROXY_SCENARIOS.join(' ')],
      ['bad-signature', 'flaw', 'token'],
      ['no-renewal', 'flaw', 'renew'],
      ['unregistered-receiver', 'flaw', 'webhooks'],
      ['good / auth.token-type-lowercase', 'fault', FAULT_SCENARIOS.auth!.join(' ')],
      ['good / webhooks.key-missing', 'fault', 'webhooks'],
    ]);
    expect(byName('good / auth.token-type-lowercase').expected).toEqual(['auth.token.type-bearer']);
    expect(byName('good / default').held).toBeUndefined();
    expect(byName('good / all-second').held).toEqual(['token-envelope']);
    // The webhooks rows run too, through the proxy's webhook leg; a case not run says why, and is no problem.
    expect(byName('unregistered-receiver').notRun).toBeUndefined();
    expect(byName('good / webhooks.key-missing').notRun).toBeUndefined();
    const notRun = { ...byName('unregistered-receiver'), notRun: 'not visible in traffic: why' };
    expect(proxyMatrixProblems({ rows: [notRunRow(notRun)] })).toEqual([]);
  });
});

describe('proxy matrix problems', () => {
  it('a clean row: any finding is a problem, on either side; so is a good client that did not finish', () => {
    const c = byName('good / default');
    expect(
      proxyMatrixProblems({ rows: [proxyRow(c, session([pass('client.requests.signed')], [0, 0, 0, 0]), OBSERVABLE)] }),
    ).toEqual([]);
    const found = proxyRow(
      c,
      session([fail('resources.responses.json-type'), pass('client.requests.signed')], [0, 0, 1, 0]),
      OBSERVABLE,
    );
    expect(proxyMatrixProblems({ rows: [found] })).toEqual([
      'good / default: the good client did not finish (update: exit 1 (gave up))',
      'good / default: a finding on a clean row: resources.responses.json-type',
    ]);
  });

  it('a flaw: caught by its own check citing an exchange; another check failing is collateral; its check passing, missed', () => {
    const c = byName('bad-signature');
    const caught = proxyRow(c, session([fail('client.requests.signed'), pass('client.requests.digest')]), OBSERVABLE);
    expect(caught.caught).toEqual(['client.requests.signed']);
    expect(proxyMatrixProblems({ rows: [caught] })).toEqual([]);

    const collateral = proxyRow(
      c,
      session([fail('client.requests.signed'), fail('client.requests.digest')]),
      OBSERVABLE,
    );
    expect(proxyMatrixProblems({ rows: [collateral] })).toEqual([
      'bad-signature: also failed client.requests.digest (collateral)',
    ]);
    const missed = proxyRow(c, session([pass('client.requests.signed')]), OBSERVABLE);
    expect(proxyMatrixProblems({ rows: [missed] })).toEqual(['bad-signature: not caught by client.requests.signed']);
    const uncited = proxyRow(c, session([fail('client.requests.signed', false)]), OBSERVABLE);
    expect(proxyMatrixProblems({ rows: [uncited] })).toEqual([
      'bad-signature: client.requests.signed failed citing no exchange',
    ]);
  });

  it('a flaw whose check has no observe facet, or judged nothing: not visible in traffic, not a problem', () => {
    const c = byName('no-renewal');
    const row = proxyRow(c, session([{ id: 'client.renew.new-token', outcome: 'skip', cited: false }]), OBSERVABLE);
    expect(row.notVisible).toBe(
      'not visible in traffic: client.renew.new-token has no observe facet (it needs a scenario of conformance client)',
    );
    expect(proxyMatrixProblems({ rows: [row] })).toEqual([]);
    // A receiver check: why traffic cannot show it, said for that check.
    const receiver = proxyRow(byName('unregistered-receiver'), { ...session([]), deliveries: 0 }, OBSERVABLE);
    expect(receiver.notVisible).toMatch(
      /^not visible in traffic: client\.webhooks\.registered has no observe facet: it judges the sandbox's record/,
    );
    expect(receiver.deliveries).toBe(0);
    // A webhooks session that did not settle within its time limit is a problem.
    const unsettled = proxyRow(
      byName('unregistered-receiver'),
      { ...session([]), unsettled: 'did not settle' },
      OBSERVABLE,
    );
    expect(proxyMatrixProblems({ rows: [unsettled] })).toEqual(['unregistered-receiver: did not settle']);
    const skipped = proxyRow(
      byName('bad-signature'),
      session([{ id: 'client.requests.signed', outcome: 'skip', cited: false, skipReason: 'no request' }]),
      OBSERVABLE,
    );
    expect(skipped.notVisible).toBe(
      'not visible in traffic: client.requests.signed judged nothing in this session (no request)',
    );
  });

  it('a fault: the checks the detection matrix names are fine; another server check, or any client check, is collateral', () => {
    const c = byName('good / auth.token-type-lowercase');
    const ok = proxyRow(c, session([fail('auth.token.type-bearer'), pass('client.token.form')]), OBSERVABLE);
    expect(ok.caught).toEqual(['auth.token.type-bearer']);
    expect(proxyMatrixProblems({ rows: [ok] })).toEqual([]);
    const bad = proxyRow(
      c,
      session([fail('auth.token.type-bearer'), fail('auth.token.fields'), fail('client.token.form')]),
      OBSERVABLE,
    );
    expect(proxyMatrixProblems({ rows: [bad] })).toEqual([
      'good / auth.token-type-lowercase: failed auth.token.fields, client.token.form, not among the checks the detection matrix says catch it or on the client side (collateral)',
    ]);
    const unseen = proxyRow(c, session([pass('auth.token.type-bearer')]), OBSERVABLE);
    expect(unseen.notVisible).toBe(
      "not visible in the good client's traffic: auth.token.type-bearer has no observe facet (it judges only a run's own requests and receiver)",
    );
    expect(proxyMatrixProblems({ rows: [unseen] })).toEqual([]);
    // A session the proxy recorded nothing of proves nothing.
    expect(proxyMatrixProblems({ rows: [proxyRow(c, { ...session([]), exchanges: 0 }, OBSERVABLE)] })).toEqual([
      'good / auth.token-type-lowercase: the proxy recorded no exchange (did the client go through it?)',
    ]);
    expect(renderProxyMatrix({ fingerprint: 'x', rows: [bad] })).toContain(
      '| PROBLEM: good / auth.token-type-lowercase: failed',
    );
  });
});

describe('the committed proxy matrix (docs/proxy-matrix.*, npm run matrix writes it)', () => {
  const doc = (name: string) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8');
  const committed = JSON.parse(doc('proxy-matrix.json')) as ProxyMatrixJson;

  it('names the deliveries whose last attempt got no answer at all, and only those', () => {
    const attempt = (outcome: DeliveryAttempt['outcome'], extra: Partial<DeliveryAttempt>): DeliveryAttempt => ({
      eventId: 'e',
      event: 'WEBHOOK.CREATED',
      clientId: 'c',
      url: 'https://127.0.0.1:1/hook',
      attempt: 3,
      outcome,
      durationMs: 5000,
      ...extra,
    });
    expect(
      unansweredDeliveries([
        attempt('delivered', { status: 204 }),
        attempt('retrying', { error: 'connect ECONNREFUSED' }),
        attempt('failed', { status: 400 }),
        attempt('failed', { error: 'Headers Timeout Error' }),
        attempt('cancelled', {}),
      ]),
    ).toEqual(['WEBHOOK.CREATED: Headers Timeout Error (attempt 3)', 'WEBHOOK.CREATED: cancelled (attempt 3)']);
  });

  it('is current for the checks, example clients, faults and bundles there are now, with no problem', () => {
    const detection = JSON.parse(doc('detection-matrix.json')) as {
      faults: Array<{ name: string; caughtBy: string[] }>;
    };
    const cases = proxyCases(
      PROXY_BUNDLES,
      HELD_POINTS,
      EXAMPLE_FLAWS,
      REFERENCE_FAULTS.map((f) => ({ name: f.name, suite: f.suite })),
      new Map(detection.faults.map((f) => [f.name, f.caughtBy])),
    );
    const checks = [...suites, ...clientSuites].flatMap((s) =>
      s.checks.map((c) => ({ id: c.id, level: c.level, observes: c.observe !== undefined })),
    );
    expect(committed.fingerprint, 'the committed proxy matrix is stale: run npm run matrix').toBe(
      proxyFingerprint(checks, cases),
    );
    expect(committed.rows.map((r) => r.name)).toEqual(cases.map((c) => c.name));
    expect(proxyMatrixProblems(committed)).toEqual([]);
    expect(doc('proxy-matrix.md')).toBe(renderProxyMatrix(committed));
  });

  it('holds the open points the good client cannot follow at their default, and only those', () => {
    expect(withoutHeld({ tokenEnvelope: 'bare', signatureTarget: 'path-query', pageMode: 'offset' })).toEqual({
      pageMode: 'offset',
    });
  });
});
