// RunResult fixtures for the reporter tests: every outcome, and exchanges carrying what reports must survive
// (markup characters, quotes, non-ASCII text, control characters illegal in XML, CDATA terminators, long bodies).
import { requirementRefs } from '../../src/catalog/requirements.js';
import type { Exchange, RecordedRequest, RecordedResponse } from '../../src/http/exchange.js';
import { computeVerdict, suiteTimes, type CheckResult, type RunResult, type Totals } from '../../src/engine/index.js';

export const BASE_URL = 'https://staging.example/v1';

/** A response body with everything an XML or terminal writer can trip over. */
export const NASTY_TEXT = 'a <b> & "c" \'d\' Zürich — 日本 \u001b[31mred\u001b[0m bell\u0007 a]]>b]]>c';

export const TOKEN_FORM = 'grant_type=client_credentials&client_id=acme&client_secret=[redacted]';
export const CUSTOMER_JSON = '{"email":"ana@example.org","name":"Ana O\'Neil <&> Zoë"}';

let seq = 0;

export function request(overrides: Partial<RecordedRequest> = {}): RecordedRequest {
  return { method: 'GET', url: `${BASE_URL}/accounts?customerId=1042`, headers: [], bodySize: 0, ...overrides };
}

export function jsonResponse(
  status: number,
  body: string,
  overrides: Partial<RecordedResponse> = {},
): RecordedResponse {
  return {
    status,
    headers: [['content-type', 'application/json']],
    bodyExcerpt: body,
    bodySize: Buffer.byteLength(body, 'utf8'),
    ...overrides,
  };
}

export function exchange(checkId: string, req: RecordedRequest, res?: RecordedResponse, error?: string): Exchange {
  seq += 1;
  return {
    seq,
    checkId,
    startedAt: '2026-01-12T09:30:02.000Z',
    durationMs: 14,
    request: req,
    ...(res ? { response: res } : {}),
    ...(error !== undefined ? { error } : {}),
  };
}

/** When every exchange of the fixtures starts (exchange()), in Unix seconds: signatures are made then. */
export const SENT_AT = Date.parse('2026-01-12T09:30:02.000Z') / 1000;

/**
 * The signed GET every signing check sends, with its secrets already redacted the way the recorder does it: signed
 * over the profile's components by the run's key, created when sent, valid 60 s (the default profile's window, or as
 * `times` says).
 */
export function signedGet(times: { created?: number; expires?: number } = {}): RecordedRequest {
  const created = times.created ?? SENT_AT;
  const expires = times.expires ?? created + 60;
  return request({
    headers: [
      ['authorization', 'Bearer [redacted]'],
      ['x-client-id', 'acme'],
      [
        'signature-input',
        `sig1=("@method" "@target-uri" "@path" "@query" "authorization" "x-client-id");keyid="acme-2026";created=${created};expires=${expires}`,
      ],
      ['signature', 'sig1=:[redacted]:'],
      ['x-note', `it's "quoted"`],
    ],
  });
}

function check(partial: Partial<CheckResult> & Pick<CheckResult, 'id' | 'suite' | 'level' | 'outcome'>): CheckResult {
  return {
    title: `title of ${partial.id}`,
    requirements: requirementRefs(['REQ-SVC-01'], 'a test check'),
    observations: [],
    exchanges: [],
    durationMs: 12,
    failsRun: false,
    ...partial,
  };
}

export function sampleChecks(): CheckResult[] {
  const longBody = JSON.stringify({
    code: '200',
    message: 'Success',
    data: Array.from({ length: 200 }, (_, i) => ({ accountId: 5000 + i })),
  });
  return [
    check({
      id: 'auth.token.issue',
      suite: 'auth',
      level: 'MUST',
      outcome: 'pass',
      title: 'POST /oauth/token issues a bearer token',
      requirements: requirementRefs(['REQ-TOKEP-01'], 'a test check'),
      exchanges: [
        exchange(
          'auth.token.issue',
          request({
            method: 'POST',
            url: `${BASE_URL}/oauth/token`,
            headers: [['content-type', 'application/x-www-form-urlencoded']],
            bodyExcerpt: TOKEN_FORM,
            bodySize: Buffer.byteLength(TOKEN_FORM),
          }),
          jsonResponse(200, '{"accessToken":"[redacted]","expiresIn":3600}'),
        ),
      ],
    }),
    check({
      id: 'auth.token.envelope',
      suite: 'auth',
      level: 'INFO',
      outcome: 'pass',
      title: 'Token response envelope',
      requirements: requirementRefs(['REQ-TOKEP-06'], 'a test check'),
      observations: ['the token response uses the {data, code, message} envelope', 'creation answered with 201'],
    }),
    check({
      id: 'signing.reject.expired',
      suite: 'signing',
      level: 'MUST',
      outcome: 'fail',
      failsRun: true,
      title: 'A request with an expired signature is rejected',
      requirements: requirementRefs(['REQ-AUTH-08'], 'a test check'),
      finding: {
        message: 'an expired signature was accepted',
        expected: 'a request signed with expires 120 s in the past is rejected (any 4xx)',
        observed: '200 — the server served it',
      },
      durationMs: 1234.5678,
      exchanges: [
        exchange('signing.reject.expired', signedGet(), jsonResponse(200, '{"setup":true}')),
        exchange(
          'signing.reject.expired',
          signedGet({ created: SENT_AT - 180, expires: SENT_AT - 120 }),
          jsonResponse(200, longBody.slice(0, 4096), { bodySize: Buffer.byteLength(longBody), bodyTruncated: true }),
        ),
      ],
    }),
    check({
      id: 'signing.reject.stale-created',
      suite: 'signing',
      level: 'SHOULD',
      outcome: 'warn',
      failsRun: false,
      title: 'A signature created far in the past is rejected',
      finding: { message: 'a signature created 1 h ago was accepted', observed: NASTY_TEXT },
      exchanges: [exchange('signing.reject.stale-created', signedGet(), jsonResponse(200, NASTY_TEXT))],
    }),
    check({
      id: 'resources.customer.update',
      suite: 'resources',
      level: 'SHOULD',
      outcome: 'warn',
      failsRun: true,
      title: 'PUT /customers echoes the update',
      finding: {
        message: 'the response did not echo the new e-mail',
        expected: 'email "ana@example.org"',
        observed: 'email "old@example.org"',
      },
      exchanges: [
        exchange(
          'resources.customer.update',
          request({
            method: 'PUT',
            url: `${BASE_URL}/customers/7`,
            headers: [
              ['authorization', 'Bearer [redacted]'],
              ['content-type', 'application/json'],
              ['content-length', String(Buffer.byteLength(CUSTOMER_JSON))],
            ],
            bodyExcerpt: CUSTOMER_JSON,
            bodySize: Buffer.byteLength(CUSTOMER_JSON),
          }),
          jsonResponse(200, '{"email":"old@example.org"}'),
        ),
      ],
    }),
    check({
      id: 'resources.accounts.list',
      suite: 'resources',
      level: 'MUST',
      outcome: 'skip',
      title: 'GET /accounts lists accounts',
      skipReason: 'fixtures.customerId is not set',
      durationMs: 0,
    }),
    check({
      id: 'webhooks.delivery.verify',
      suite: 'webhooks',
      level: 'MUST',
      outcome: 'error',
      failsRun: true,
      title: 'Deliveries verify',
      finding: { message: 'request to https://staging.example/v1/webhooks timed out\nafter 10000 ms' },
      exchanges: [
        exchange(
          'webhooks.delivery.verify',
          request({ method: 'GET', url: `${BASE_URL}/webhooks` }),
          undefined,
          'timeout after 10000 ms',
        ),
      ],
    }),
    check({
      id: 'webhooks.key.format',
      suite: 'webhooks',
      level: 'INFO',
      outcome: 'pass',
      title: 'Webhook key format',
      observations: ['key served as JWK (OKP/Ed25519) at data.key'],
    }),
  ].map((c, i) => ({ ...c, startMs: i * 10 }));
}

function totalsOf(checks: CheckResult[]): Totals {
  const count = (o: CheckResult['outcome']) => checks.filter((c) => c.outcome === o).length;
  return {
    passed: count('pass'),
    failed: count('fail'),
    warned: count('warn'),
    skipped: count('skip'),
    errored: count('error'),
    total: checks.length,
  };
}

/** A run with every outcome (3 passed, 1 failed, 2 warned, 1 skipped, 1 errored). */
export function sampleRunResult(checks: CheckResult[] = sampleChecks()): RunResult {
  return {
    run: {
      target: 'staging',
      baseUrl: BASE_URL,
      suiteVersion: '0.1.0',
      specVersion: '0.0.1',
      startedAt: '2026-01-12T09:30:00.000Z',
      finishedAt: '2026-01-12T09:30:04.210Z',
      durationMs: 4210,
      failOn: 'must',
      concurrency: 4,
      suites: suiteTimes(checks),
      selection: { suites: ['auth', 'signing', 'resources', 'webhooks'] },
      replay: { targetArgs: ['--target', 'staging'], clientId: 'acme', keyId: 'acme-2026' },
    },
    totals: totalsOf(checks),
    checks,
    sessionExchanges: [
      exchange(
        'session',
        request({
          method: 'POST',
          url: `${BASE_URL}/oauth/token`,
          bodyExcerpt: 'client_secret=[redacted]',
          bodySize: 24,
        }),
        jsonResponse(200, '{"accessToken":"[redacted]"}'),
      ),
    ],
    // The pack is the sample's checks: the verdict speaks for what they cite.
    verdict: computeVerdict({ pack: checks, results: checks }),
    exitCode: checks.some((c) => c.failsRun && c.outcome !== 'pass' && c.outcome !== 'skip') ? 1 : 0,
  };
}

/** A set-up problem of the webhooks suite as the suite words it: the server did not trust the receiver. */
export const SETUP_PROBLEM = {
  suite: 'webhooks',
  problem:
    "the server did not trust the webhook receiver's certificate: 3 TLS handshakes with the receiver failed (last: tlsv1 alert unknown ca) and no delivery arrived",
  fix: "hand the receiver's certificate (./conformance-receiver-cert.pem, SHA-256 AA:BB:CC) to the provider to trust, or see docs/webhook-receiver.md",
};

/** The sample run, plus a webhooks check the set-up problem above kept from running. */
export function setupProblemRunResult(): RunResult {
  const stopped = check({
    id: 'webhooks.events.auth-created',
    suite: 'webhooks',
    level: 'MUST',
    outcome: 'skip',
    title: 'issuing a token delivers an AUTH.CREATED message',
    requirements: requirementRefs(['REQ-EVT-06'], 'a test check'),
    skipReason: `set-up problem: ${SETUP_PROBLEM.problem}`,
    skipRemedy: { kind: 'setup', suite: 'webhooks' },
  });
  const checks = [...sampleChecks(), stopped];
  const result = sampleRunResult(checks);
  const setupProblems = [{ ...SETUP_PROBLEM, checks: [stopped.id] }];
  result.run.setupProblems = setupProblems;
  result.verdict = computeVerdict({ pack: checks, results: checks, setupProblems });
  return result;
}

/** A second set-up problem of the webhooks suite, with another fix: the deliveries came outside publicUrl's path. */
export const UNMAPPED_PROBLEM = {
  suite: 'webhooks',
  problem: 'deliveries arrived at the receiver under /, not under /hook (the path of webhook.publicUrl)',
  fix: 'have the proxy keep the path (proxy_pass without a trailing /), or see docs/webhook-receiver.md',
};

/** The run above, plus a later webhooks check stopped by another problem of the same suite. */
export function twoSetupProblemsRunResult(): RunResult {
  const first = setupProblemRunResult();
  const stopped = check({
    id: 'webhooks.delivery.verified',
    suite: 'webhooks',
    level: 'MUST',
    outcome: 'skip',
    title: 'deliveries verify',
    requirements: requirementRefs(['REQ-EVT-12'], 'a test check'),
    skipReason: `set-up problem: ${UNMAPPED_PROBLEM.problem}`,
    skipRemedy: { kind: 'setup', suite: 'webhooks' },
  });
  const checks = [...first.checks, stopped];
  const result = sampleRunResult(checks);
  const setupProblems = [...first.run.setupProblems!, { ...UNMAPPED_PROBLEM, checks: [stopped.id] }];
  result.run.setupProblems = setupProblems;
  result.verdict = computeVerdict({ pack: checks, results: checks, setupProblems });
  return result;
}
