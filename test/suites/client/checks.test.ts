// The client checks of suites/client/{requests,token,paging,renew,throttle,ussd}.ts run through the engine on
// synthetic client runs (test/helpers/client-records.ts): a correct client passes every one, and each flaw fails the
// check that owns it and no other (one cause, one failure), including when the sandbox cut the flow short.
import { describe, expect, it } from 'vitest';
import { runChecks, type CheckResult, type RunResult } from '../../../src/engine/index.js';
import type { ClientRunRecord } from '../../../src/client/types.js';
import { clientPack, clientSuites } from '../../../suites/client/index.js';
import { madeUpTarget } from '../../helpers/made-up-pack.js';
import { clientRun, type Flaws } from '../../helpers/client-records.js';

const SUITES = ['client.requests', 'client.token', 'client.paging', 'client.renew', 'client.throttle', 'client.ussd'];
const suites = clientSuites.filter((s) => SUITES.includes(s.name));
const BAD = ['fail', 'warn', 'error'];

function run(record: ClientRunRecord): Promise<RunResult> {
  return runChecks({ pack: clientPack(async () => record), target: madeUpTarget, suites });
}

async function judge(record: ClientRunRecord): Promise<CheckResult[]> {
  return (await run(record)).checks;
}

function outcomes(results: CheckResult[]): Record<string, string> {
  return Object.fromEntries(results.map((r) => [r.id, r.outcome]));
}

/** The check ids that failed (or warned, or broke), with their messages for a readable assertion failure. */
function failing(results: CheckResult[]): string[] {
  return results.filter((r) => BAD.includes(r.outcome)).map((r) => r.id);
}

describe('client checks on a correct client', () => {
  it('passes every check of the six suites: CONFORMANT', async () => {
    const result = await run(clientRun());
    const results = result.checks;
    expect(results.length).toBe(18);
    const notPassed = results.filter((r) => r.outcome !== 'pass');
    expect(notPassed.map((r) => `${r.id}: ${r.outcome} ${r.finding?.message ?? r.skipReason ?? ''}`)).toEqual([]);
    expect(result.verdict.status).toBe('CONFORMANT');
  });
});

/** Each client rule broken alone: the check that owns it fails (MUST) or warns (SHOULD), and no other check does. */
const FLAWS: Array<{ check: string; outcome: 'fail' | 'warn'; flaw: string; flaws: Flaws; message: RegExp }> = [
  {
    check: 'client.requests.signed',
    outcome: 'fail',
    flaw: 'signs under another keyid',
    flaws: { sign: () => ({ keyId: 'someone-else' }) },
    message: /KEYID_UNKNOWN/,
  },
  {
    check: 'client.requests.signed',
    outcome: 'fail',
    flaw: 'labels its signature sig2',
    flaws: { sign: () => ({ label: 'sig2' }) },
    message: /SIGNATURE_MISSING.*sig1/,
  },
  {
    check: 'client.requests.signed',
    outcome: 'fail',
    flaw: 'changes a signed header (Content-Type) after signing',
    flaws: {
      afterSign: (r, s) => {
        const type = r.headers.find(([n]) => n === 'content-type');
        if (type && s.method === 'PUT') type[1] = 'application/json; charset=utf-8';
      },
    },
    message: /SIGNATURE_INVALID/,
  },
  {
    check: 'client.requests.signed',
    outcome: 'fail',
    flaw: 'sends signature bytes that do not verify',
    flaws: {
      afterSign: (r) => {
        r.headers.find(([n]) => n === 'signature')![1] = `sig1=:${Buffer.alloc(64, 7).toString('base64')}:`;
      },
    },
    message: /SIGNATURE_INVALID/,
  },
  {
    check: 'client.requests.covers-headers',
    outcome: 'fail',
    flaw: 'leaves content-digest out of the signature',
    flaws: { sign: (_s, _c, components) => ({ components: components.filter((c) => c !== 'content-digest') }) },
    message: /does not cover content-digest/,
  },
  {
    check: 'client.requests.covers-headers',
    outcome: 'fail',
    flaw: 'signs @path without @query on a request with a query',
    flaws: {
      sign: (_s, _c, components) => ({
        components: components.filter((c) => c !== '@target-uri' && c !== '@query'),
      }),
    },
    message: /@target-uri \(or @path and @query\)/,
  },
  {
    check: 'client.requests.signature-window',
    outcome: 'warn',
    flaw: 'signs for an hour',
    flaws: { sign: (_s, created) => ({ expires: created + 3600 }) },
    message: /window is 3600 s/,
  },
  {
    check: 'client.requests.signature-window',
    outcome: 'warn',
    flaw: 'reuses a signature made ten minutes before',
    flaws: { sign: (_s, created) => ({ created: created - 600, expires: created + 60 }) },
    message: /created is -600 s from its arrival/,
  },
  {
    check: 'client.requests.digest',
    outcome: 'fail',
    flaw: 'sends bodies without Content-Digest',
    flaws: {
      headers: (h) =>
        void h.splice(
          h.findIndex(([n]) => n === 'content-digest') >>> 0,
          h.some(([n]) => n === 'content-digest') ? 1 : 0,
        ),
    },
    message: /no Content-Digest/,
  },
  {
    check: 'client.requests.digest',
    outcome: 'fail',
    flaw: 'changes the body after digesting it',
    flaws: {
      afterSign: (r, s) => {
        if (s.method === 'PUT') r.body = Buffer.from(r.body.toString().replace('Ada', 'Bob'));
      },
    },
    message: /does not match the body/,
  },
  {
    check: 'client.requests.client-id',
    outcome: 'fail',
    flaw: 'sends no X-Client-Id',
    flaws: {
      headers: (h) =>
        void h.splice(h.findIndex(([n]) => n === 'x-client-id') >>> 0, h.some(([n]) => n === 'x-client-id') ? 1 : 0),
    },
    message: /no X-Client-Id/,
  },
  {
    check: 'client.requests.authorization',
    outcome: 'fail',
    flaw: 'presents a token the sandbox never issued',
    flaws: {
      headers: (h) => {
        const auth = h.find(([n]) => n === 'authorization');
        if (auth) auth[1] = 'Bearer made-up-token';
      },
    },
    message: /not one the sandbox issued/,
  },
  {
    check: 'client.requests.authorization',
    outcome: 'fail',
    flaw: 'sends the bare token without the Bearer scheme',
    flaws: {
      headers: (h) => {
        const auth = h.find(([n]) => n === 'authorization');
        if (auth) auth[1] = auth[1].replace('Bearer ', '');
      },
    },
    message: /not "Bearer <token>"/,
  },
  {
    check: 'client.requests.idempotency-key',
    outcome: 'fail',
    flaw: 'sends no X-Idempotency-Key',
    flaws: {
      headers: (h) =>
        void h.splice(
          h.findIndex(([n]) => n === 'x-idempotency-key') >>> 0,
          h.some(([n]) => n === 'x-idempotency-key') ? 1 : 0,
        ),
    },
    message: /no X-Idempotency-Key/,
  },
  {
    check: 'client.requests.idempotency-unique',
    outcome: 'fail',
    flaw: 'uses one fixed idempotency key',
    flaws: { idempotencyKey: () => 'fixed-key' },
    message: /reuses the idempotency key of POST \/oauth\/token/,
  },
  {
    check: 'client.token.form',
    outcome: 'fail',
    flaw: 'asks for its token in JSON',
    flaws: { tokenAsJson: true },
    message: /Content-Type is application\/json/,
  },
  {
    check: 'client.token.revoked',
    outcome: 'warn',
    flaw: 'never revokes its token',
    flaws: { noRevoke: true },
    message: /did not revoke the token/,
  },
  {
    check: 'client.paging.next-page',
    outcome: 'fail',
    flaw: 'counts page indices (page=1) where the sandbox gave offsets',
    flaws: { pageIndex: true },
    message: /page=1 .*did not follow meta\.nextPage|did not follow meta\.nextPage/,
  },
  {
    check: 'client.paging.complete',
    outcome: 'fail',
    flaw: 'stops after the first page',
    flaws: { stopsAfterFirstPage: true },
    message: /read 100 of the 250 transactions/,
  },
  {
    check: 'client.renew.new-token',
    outcome: 'fail',
    flaw: 'gives up after the 401',
    flaws: { noRenew: true },
    message: /obtained no new token/,
  },
  {
    check: 'client.renew.new-token',
    outcome: 'fail',
    flaw: 'asks for tokens in a loop',
    flaws: { tokenLoop: true },
    message: /sent 5 token requests/,
  },
  {
    check: 'client.renew.no-stale-token',
    outcome: 'fail',
    flaw: 'retries with the token the 401 refused',
    flaws: { staleRetry: true },
    message: /presents the token that/,
  },
  {
    check: 'client.throttle.retry-after',
    outcome: 'warn',
    flaw: 'retries 100 ms after a 429 with Retry-After: 1',
    flaws: { retryAfterMs: 100 },
    message: /came 100 ms after the 429/,
  },
  {
    check: 'client.throttle.bounded',
    outcome: 'warn',
    flaw: 'retries a persistent 429 ten times',
    flaws: { persistentAttempts: 10 },
    message: /10 times against a 429/,
  },
  {
    check: 'client.throttle.bounded',
    outcome: 'warn',
    flaw: 'hangs until the time limit',
    flaws: { hangs: true },
    message: /did not end on its own \(time-limit\)/,
  },
  {
    check: 'client.ussd.given-urls',
    outcome: 'fail',
    flaw: 'builds a USSD URL instead of following requestUrl',
    flaws: { buildsUssdUrl: true },
    message: /requests a URL no earlier view gave/,
  },
  {
    check: 'client.ussd.given-urls',
    outcome: 'fail',
    flaw: "opens another customer's home view first",
    flaws: { ussdStart: '/ussd/home?customerId=9999' },
    message: /GET \/ussd\/home\?customerId=9999 .* is not a start view of customer 1042/,
  },
  {
    check: 'client.ussd.route',
    outcome: 'fail',
    flaw: 'gives up at the home view, which offers the option it was asked for',
    flaws: { ussdGivesUp: true },
    message: /gave up at GET \/ussd\/home\?customerId=1042 .*, which offers option 2/,
  },
];

describe('client checks on a client with one flaw', () => {
  it('names a flaw for every check of the six suites', () => {
    const ids = suites.flatMap((s) => s.checks.map((c) => c.id));
    expect([...new Set(FLAWS.map((f) => f.check))].sort()).toEqual([...ids].sort());
  });

  for (const f of FLAWS) {
    it(`${f.check}: a client that ${f.flaw} fails it, and no other check`, async () => {
      const results = await judge(clientRun(f.flaws));
      const own = results.find((r) => r.id === f.check)!;
      expect(own.outcome, own.skipReason ?? own.finding?.message).toBe(f.outcome);
      expect(own.finding?.message).toMatch(f.message);
      expect(own.finding?.expected).toBeTruthy();
      expect(own.finding?.observed).toBeTruthy();
      // The request the finding is about is cited: the report shows it.
      expect(own.exchanges.map((e) => e.seq)).toContain(own.finding?.exchangeSeq);
      expect(failing(results), JSON.stringify(outcomes(results))).toEqual([f.check]);
    });
  }
});

describe('one cause, one failure when the sandbox cuts the flow short', () => {
  it('a client whose token requests the sandbox refused for a missing digest fails client.requests.digest only; the checks it kept from judging skip, naming the owner', async () => {
    const record = clientRun({
      headers: (h) => {
        const i = h.findIndex(([n]) => n === 'content-digest');
        if (i >= 0) h.splice(i, 1);
      },
    });
    // The sandbox refuses each token request; the client gives up there.
    for (const s of Object.values(record.scenarios)) {
      s!.requests = s!.requests.slice(0, 1).map((r) => ({
        ...r,
        status: 401,
        reply: { code: 'DIGEST_MISSING', message: 'Unauthorized' },
        rejection: { code: 'DIGEST_MISSING', reason: 'no Content-Digest header' },
      }));
      s!.acts = [];
      s!.end = { ...s!.end, code: 1 };
    }
    const results = await judge(record);
    expect(failing(results)).toEqual(['client.requests.digest']);
    const skipped = results.filter((r) => r.outcome === 'skip');
    expect(skipped.map((r) => r.id).sort()).toEqual(
      [
        'client.paging.complete',
        'client.paging.next-page',
        'client.renew.new-token',
        'client.renew.no-stale-token',
        'client.requests.authorization',
        'client.requests.client-id',
        'client.throttle.bounded',
        'client.throttle.retry-after',
        'client.token.revoked',
        'client.ussd.given-urls',
        'client.ussd.route',
      ].sort(),
    );
    for (const r of skipped) {
      expect(r.skipReason, r.id).toMatch(/client\.requests\.digest judges: DIGEST_MISSING on POST \/oauth\/token/);
      expect(
        r.alsoSeen?.map((a) => a.ownedBy),
        r.id,
      ).toEqual(['client.requests.digest']);
    }
  });

  it("a revocation the sandbox refused for a reused idempotency key is client.requests.idempotency-unique's, not client.token.revoked's", async () => {
    const record = clientRun({ idempotencyKey: () => 'fixed-key' });
    const token = record.scenarios.token!;
    const revoke = token.requests.at(-1)!;
    token.requests[token.requests.length - 1] = {
      ...revoke,
      status: 422,
      rejection: {
        code: 'UNPROCESSABLE_CONTENT',
        reason: 'Unprocessable Content: the idempotency key was used for a different request',
      },
    };
    const results = await judge(record);
    expect(failing(results)).toEqual(['client.requests.idempotency-unique']);
    expect(results.find((r) => r.id === 'client.token.revoked')!.outcome).toBe('skip');
  });

  it("a walk that counted page indices is client.paging.next-page's failure; client.paging.complete records it and does not fail", async () => {
    const results = await judge(clientRun({ pageIndex: true }));
    const complete = results.find((r) => r.id === 'client.paging.complete')!;
    expect(complete.outcome).toBe('skip');
    expect(complete.alsoSeen?.map((a) => a.ownedBy)).toEqual(['client.paging.next-page']);
  });

  it('a client that gives up on the ended token and revokes it fails client.renew.new-token only: the revocation of a dead token is no stale use', async () => {
    const results = await judge(clientRun({ noRenew: true, revokesDeadToken: true }));
    expect(failing(results)).toEqual(['client.renew.new-token']);
    expect(results.find((r) => r.id === 'client.renew.no-stale-token')!.outcome).toBe('pass');
  });

  it('skips the checks of a scenario that was not run', async () => {
    const record = clientRun();
    delete record.scenarios.throttle;
    delete record.scenarios.ussd;
    const results = outcomes(await judge(record));
    expect(results['client.throttle.retry-after']).toBe('skip');
    expect(results['client.throttle.bounded']).toBe('skip');
    expect(results['client.ussd.given-urls']).toBe('skip');
    expect(results['client.ussd.route']).toBe('skip');
    expect(results['client.paging.next-page']).toBe('pass');
  });
});

describe('client.ussd judges the spec (given URLs), not the scenario (its route)', () => {
  const ussd = (result: RunResult) => result.checks.filter((c) => c.id.startsWith('client.ussd.'));
  const outcome = (result: RunResult, id: string) => result.checks.find((c) => c.id === id)!;

  it('a client on a route of its own over given URLs: given-urls passes, the route is skipped (not exercised), INCOMPLETE', async () => {
    const result = await run(clientRun({ ussdOwnRoute: true }));
    expect(failing(result.checks)).toEqual([]);
    expect(Object.fromEntries(ussd(result).map((c) => [c.id, c.outcome]))).toEqual({
      'client.ussd.given-urls': 'pass',
      'client.ussd.route': 'skip',
    });
    const route = outcome(result, 'client.ussd.route');
    expect(route.skipReason).toMatch(
      /walked a route of its own \(\/ussd\/home\?customerId=1042 → \/ussd\/portfolio\?customerId=1042 → \/ussd\/assets\?customerId=1042\), not the scenario's \(options 2, 1 from \/ussd\/home\): after \/ussd\/home\?customerId=1042 it did not request option 2/,
    );
    // Recorded, for every report: where it went, and that it was not the scenario's route.
    expect(route.observations).toEqual([expect.stringMatching(/^the client's USSD walk: .*not the scenario's route/)]);
    expect(outcome(result, 'client.ussd.given-urls').observations).toEqual([
      expect.stringMatching(/^2 follow-up request\(s\), each a requestUrl an earlier view gave/),
    ]);
    expect(result.verdict.status).toBe('INCOMPLETE');
    expect(result.verdict.failed).toEqual([]);
    expect(result.verdict.notExercised.map((r) => [r.id, r.checks.map((c) => `${c.id} ${c.outcome}`)])).toEqual([
      ['REQ-USSDV-04', ['client.ussd.route skip']],
      ['REQ-USSDV-05', ['client.ussd.route skip']],
    ]);
  });

  it('a client that starts on another view of the customer (the portfolio) is judged the same way: no failure, INCOMPLETE', async () => {
    const result = await run(clientRun({ ussdStart: '/ussd/portfolio?customerId=1042' }));
    expect(failing(result.checks)).toEqual([]);
    expect(outcome(result, 'client.ussd.given-urls').outcome).toBe('pass');
    expect(outcome(result, 'client.ussd.route').skipReason).toMatch(/it never opened \/ussd\/home\?customerId=1042/);
    expect(result.verdict.status).toBe('INCOMPLETE');
  });

  it("a client on the scenario's route passes both and records the route it walked", async () => {
    const result = await run(clientRun());
    expect(outcome(result, 'client.ussd.route').observations).toEqual([
      "walked the scenario's route (options 2, 1 from /ussd/home) to /ussd/stocks?customerId=1042&symbol=AAPL&page=0: /ussd/home?customerId=1042 → /ussd/stocks?customerId=1042&page=0 → /ussd/stocks?customerId=1042&symbol=AAPL&page=0",
    ]);
  });

  it('a built URL fails given-urls; the route check skips, naming it, so the one defect fails once', async () => {
    const result = await run(clientRun({ buildsUssdUrl: true }));
    expect(failing(result.checks)).toEqual(['client.ussd.given-urls']);
    const route = outcome(result, 'client.ussd.route');
    expect(route.outcome).toBe('skip');
    expect(route.alsoSeen?.map((a) => a.ownedBy)).toEqual(['client.ussd.given-urls']);
    expect(result.verdict.status).toBe('NOT CONFORMANT');
  });

  it('a client that opened home and stopped there of its own accord (exit 0) is not judged: both skip', async () => {
    const record = clientRun({ ussdGivesUp: true });
    record.scenarios.ussd!.end = { ...record.scenarios.ussd!.end, code: 0, stderrTail: '' };
    const result = await run(record);
    expect(failing(result.checks)).toEqual([]);
    expect(outcome(result, 'client.ussd.given-urls').skipReason).toMatch(/followed no option/);
    expect(outcome(result, 'client.ussd.route').outcome).toBe('skip');
    expect(result.verdict.status).toBe('INCOMPLETE');
  });

  it('a client that gave up at a view of the route offering its option fails the route, naming what it wrote', async () => {
    const route = outcome(await run(clientRun({ ussdGivesUp: true })), 'client.ussd.route');
    expect(route.finding?.observed).toBe(
      'no USSD request after it; the command exited 1; stderr: "the USSD view offers no option 2"',
    );
  });
});

describe('client.requests.idempotency-unique: a key names one request (MUST, REQ-HDR-21)', () => {
  it('the same key for a different request fails at MUST, NOT CONFORMANT', async () => {
    const result = await run(clientRun({ idempotencyKey: () => 'fixed-key' }));
    const own = result.checks.find((c) => c.id === 'client.requests.idempotency-unique')!;
    expect(own.level).toBe('MUST');
    expect(own.requirements.map((r) => r.id)).toEqual(['REQ-HDR-21']);
    expect(own.outcome).toBe('fail');
    expect(result.verdict.status).toBe('NOT CONFORMANT');
    expect(result.verdict.failed).toEqual(['REQ-HDR-21']);
  });

  it('a retry of a request that got no 2xx, the same bytes with the same key, passes', async () => {
    const record = clientRun({ retriesUpdate: true });
    const puts = record.scenarios.update!.requests.filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.status)).toEqual([503, 200]);
    expect(new Set(puts.map((r) => r.headers.find(([n]) => n === 'x-idempotency-key')![1])).size).toBe(1);
    const result = await run(record);
    expect(failing(result.checks)).toEqual([]);
    expect(result.checks.find((c) => c.id === 'client.requests.idempotency-unique')!.outcome).toBe('pass');
  });
});
