import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  bodyLines,
  findingSections,
  formatExchange,
  renderLabelled,
  replayContextOf,
  replayLine,
  shellQuote,
  type ReplayContext,
} from '../../src/report/exchange-text.js';
import { contentDigest } from '../../src/http/digest.js';
import type { RecordedRequest } from '../../src/http/exchange.js';
import {
  BASE_URL,
  CUSTOMER_JSON,
  NASTY_TEXT,
  TOKEN_FORM,
  exchange,
  jsonResponse,
  request,
  sampleChecks,
  sampleRunResult,
  SENT_AT,
  signedGet,
} from '../helpers/run-result.js';

/** The arguments bash passes to curl when it runs the command, with the given variables set. */
function argsOf(command: string, env: Record<string, string> = {}): string[] {
  const out = execFileSync('bash', ['-c', `curl() { printf '%s\\0' "$@"; }\n${command}`], {
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return out.split('\0').slice(0, -1);
}

const STAGING: ReplayContext = {
  baseUrl: BASE_URL,
  targetArgs: ['--target', 'staging'],
  clientId: 'acme',
  keyId: 'acme-2026',
};
const SENT = '2026-01-12T09:30:02.000Z';

/** The arguments bash passes to `conformance` when it runs a replay line as pasted (npx conformance curl …). */
function replayArgs(line: string): string[] {
  const out = execFileSync('bash', ['-c', `npx() { printf '%s\\0' "$@"; }\n${line}`], {
    env: { PATH: process.env.PATH },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return out.split('\0').slice(0, -1);
}

/** A signed request as recorded, with the headers changed: [name, null] drops one, [name, value] sets it. */
function recorded(change: Array<[string, string | null]> = [], base = signedGet()): RecordedRequest {
  let headers = [...base.headers];
  for (const [name, value] of change) {
    const at = headers.findIndex(([n]) => n.toLowerCase() === name.toLowerCase());
    headers = headers.filter(([n]) => n.toLowerCase() !== name.toLowerCase());
    if (value !== null) headers.splice(at === -1 ? headers.length : at, 0, [name, value]);
  }
  return { ...base, headers };
}

describe('replayLine', () => {
  it("replays the run's ordinary signed GET by its path, with only the header the check chose, on the run's target", () => {
    const line = replayLine(signedGet(), SENT, STAGING);
    // Token, client id and signature are curl's own to make afresh; the x-note header was the check's.
    expect(line).toBe(
      `npx conformance curl '/accounts?customerId=1042' -H 'x-note: it'\\''s "quoted"' --target staging`,
    );
    expect(replayArgs(line)).toEqual([
      'conformance',
      'curl',
      '/accounts?customerId=1042',
      '-H',
      `x-note: it's "quoted"`,
      '--target',
      'staging',
    ]);
    expect(line).not.toContain('[redacted]');
  });

  it("carries the run's target options, the built-in server's faults with it", () => {
    const line = replayLine(signedGet(), SENT, {
      ...STAGING,
      targetArgs: ['--target', 'local', '--choice', 'token-envelope=bare', '--fault', 'signing.keyid-ignored'],
    });
    expect(line.endsWith(' --target local --choice token-envelope=bare --fault signing.keyid-ignored')).toBe(true);
  });

  it('gives created and expires relative to the moment of sending, so the replayed signature is as old as the recorded', () => {
    const expired = signedGet({ created: SENT_AT - 660, expires: SENT_AT - 600 });
    expect(replayArgs(replayLine(expired, SENT, STAGING))).toContain('--created=-660');
    expect(replayArgs(replayLine(expired, SENT, STAGING))).toContain('--expires=-600');
    const future = replayLine(signedGet({ created: SENT_AT + 600, expires: SENT_AT + 660 }), SENT, STAGING);
    expect(future).toContain(' --created=600 --expires=660 ');
    // A second either way is the same moment: signing and sending share it.
    expect(replayLine(signedGet({ created: SENT_AT - 1 }), SENT, STAGING)).not.toContain('--created');
    const long = replayLine(signedGet({ expires: SENT_AT + 3600 }), SENT, STAGING);
    expect(long).toContain(' --expires=3600 ');
    expect(long).not.toContain('--created');
  });

  it("follows the run's signing profile: what the run signed in it goes unsaid, what the default would sign otherwise is said", () => {
    // A run that learnt a 30 s window over @path and @query (a server behind a TLS-terminating proxy).
    const learnt: ReplayContext = {
      ...STAGING,
      signing: { windowSeconds: 30, components: ['@method', '@path', '@query'], label: 'sig1' },
    };
    const inProfile = recorded([
      [
        'signature-input',
        `sig1=("@method" "@path" "@query" "authorization" "x-client-id");keyid="acme-2026";created=${SENT_AT};expires=${SENT_AT + 30}`,
      ],
    ]);
    // With a token, curl learns the run's profile again: nothing to say.
    expect(replayLine(inProfile, SENT, learnt)).toBe(
      `npx conformance curl '/accounts?customerId=1042' -H 'x-note: it'\\''s "quoted"' --target staging`,
    );
    // Read against the default profile (a report of a run that did not record one), the same request says it all.
    expect(replayArgs(replayLine(inProfile, SENT, STAGING))).toEqual(
      expect.arrayContaining(['--components', '@method,@path,@query,authorization,x-client-id', '--expires=30']),
    );
    // A request the run signed the default way, replayed against a run that learnt otherwise, says so.
    expect(replayArgs(replayLine(signedGet(), SENT, learnt))).toEqual(
      expect.arrayContaining([
        '--components',
        '@method,@target-uri,@path,@query,authorization,x-client-id',
        '--expires=60',
      ]),
    );
    // The token request goes without a token, so curl learns nothing: what the run learnt otherwise than the default
    // is said even where the request was signed in the run's profile.
    const token = request({
      method: 'POST',
      url: `${BASE_URL}/oauth/token`,
      headers: [
        ['X-Idempotency-Key', 'b40121cc-665c-4d01-b9e5-0cde194df942'],
        ['Content-Type', 'application/x-www-form-urlencoded'],
        ['Content-Length', String(TOKEN_FORM.length)],
        ['Content-Digest', 'sha-512=:digest-of-the-body-with-the-secret:'],
        [
          'Signature-Input',
          `sig1=("@method" "@path" "content-digest" "content-length" "content-type" "x-idempotency-key");keyid="acme-2026";created=${SENT_AT};expires=${SENT_AT + 30}`,
        ],
        ['Signature', 'sig1=:[redacted]:'],
      ],
      bodyExcerpt: TOKEN_FORM,
      bodySize: TOKEN_FORM.length,
    });
    expect(replayArgs(replayLine(token, SENT, learnt))).toEqual(
      expect.arrayContaining([
        '--components',
        '@method,@path,content-digest,content-length,content-type,x-idempotency-key',
        '--expires=30',
      ]),
    );
    expect(replayLine(token, SENT, learnt)).not.toContain('--label');
  });

  it("names a keyid other than the run's, and a parameter left out, but never the run's own keyid", () => {
    const foreign = recorded([
      [
        'signature-input',
        `sig1=("@method" "@target-uri" "@path" "@query" "authorization" "x-client-id");keyid="acme-2026-unknown-1f2e";created=${SENT_AT};expires=${SENT_AT + 60}`,
      ],
    ]);
    expect(replayLine(foreign, SENT, STAGING)).toContain(' --keyid acme-2026-unknown-1f2e ');
    const none = recorded([
      [
        'signature-input',
        `sig1=("@method" "@target-uri" "@path" "@query" "authorization" "x-client-id");created=${SENT_AT}`,
      ],
    ]);
    expect(replayLine(none, SENT, STAGING)).toContain(' --keyid none --expires none ');
    // Without the run's keyid (a report of an older version) the line cannot tell, and leaves keyid to the target.
    expect(replayLine(foreign, SENT, { ...STAGING, keyId: undefined })).not.toContain('--keyid');
  });

  it("lists the covered components when the check chose others than the profile's, and other parameters as --param", () => {
    const line = replayLine(
      recorded([
        [
          'signature-input',
          `sig1=("x-client-id" "authorization" "@path" "@query" "@method");keyid="acme-2026";created=${SENT_AT};expires=${SENT_AT + 60};alg="rsa-pss-sha512"`,
        ],
      ]),
      SENT,
      STAGING,
    );
    expect(replayArgs(line)).toEqual(
      expect.arrayContaining(['--components', 'x-client-id,authorization,@path,@query,@method']),
    );
    expect(replayArgs(line)).toEqual(expect.arrayContaining(['--param', 'alg="rsa-pss-sha512"']));
  });

  it('says which of the headers curl makes were left out, and drops the signature as the check did', () => {
    const bare = recorded([
      ['authorization', null],
      ['x-client-id', null],
    ]);
    expect(replayArgs(replayLine(bare, SENT, STAGING)).slice(2, 7)).toEqual([
      '/accounts?customerId=1042',
      '-H',
      'Authorization:',
      '-H',
      'X-Client-Id:',
    ]);
    expect(replayLine(recorded([['signature', null]]), SENT, STAGING)).toContain(` -H 'Signature:' `);
    expect(replayLine(recorded([['signature-input', null]]), SENT, STAGING)).toContain(` -H 'Signature-Input:' `);
    const unsigned = replayLine(
      recorded([
        ['signature', null],
        ['signature-input', null],
      ]),
      SENT,
      STAGING,
    );
    expect(unsigned).toContain(' --no-sign ');
  });

  it('keeps a Signature whose label differs around fresh bytes, and a Signature-Input curl cannot make as recorded', () => {
    const relabelled = replayLine(recorded([['signature', 'sig2=:[redacted]:']]), SENT, STAGING);
    expect(replayArgs(relabelled)).toEqual(expect.arrayContaining(['-H', 'Signature: sig2=:{{signature}}:']));
    const both = replayLine(
      recorded([
        [
          'signature-input',
          `proxy=("@method" "@target-uri" "@path" "@query" "authorization" "x-client-id");keyid="acme-2026";created=${SENT_AT};expires=${SENT_AT + 60}`,
        ],
        ['signature', 'proxy=:[redacted]:'],
      ]),
      SENT,
      STAGING,
    );
    expect(both).toContain(' --label proxy ');
    expect(both).not.toContain('Signature:');
    const malformed = 'sig1=(@method @target-uri);keyid="acme-2026"';
    const line = replayLine(recorded([['signature-input', malformed]]), SENT, STAGING);
    expect(replayArgs(line)).toEqual(expect.arrayContaining(['-H', `Signature-Input: ${malformed}`]));
    expect(line).toMatch(/ {2}# Signature-Input goes as recorded, over a signature made for the profile's own$/);
  });

  it('sends a body with -d, a masked secret as the placeholder curl fills, and leaves made headers to curl', () => {
    const req = request({
      method: 'POST',
      url: `${BASE_URL}/oauth/token`,
      headers: [
        ['X-Idempotency-Key', 'b40121cc-665c-4d01-b9e5-0cde194df942'],
        ['Content-Type', 'application/x-www-form-urlencoded'],
        ['Content-Length', String(TOKEN_FORM.length)],
        ['Content-Digest', 'sha-512=:digest-of-the-body-with-the-secret:'],
        [
          'Signature-Input',
          `sig1=("@method" "@target-uri" "@path" "content-digest" "content-length" "content-type" "x-idempotency-key");keyid="acme-2026";created=${SENT_AT};expires=${SENT_AT + 60}`,
        ],
        ['Signature', 'sig1=:[redacted]:'],
      ],
      bodyExcerpt: TOKEN_FORM,
      bodySize: TOKEN_FORM.length,
    });
    const line = replayLine(req, SENT, STAGING);
    expect(line).toBe(
      "npx conformance curl /oauth/token -d 'grant_type=client_credentials&client_id=acme&client_secret={{clientSecret}}' --target staging",
    );
    const json = '{"clientId":"acme","clientSecret":"[redacted]"}';
    const jsonLine = replayLine(
      request({ method: 'POST', url: `${BASE_URL}/oauth/token`, bodyExcerpt: json, bodySize: json.length }),
      SENT,
      STAGING,
    );
    expect(replayArgs(jsonLine)).toEqual(
      expect.arrayContaining(['-H', 'Content-Type:', '-d', '{"clientId":"acme","clientSecret":"{{clientSecret}}"}']),
    );
  });

  it("names a Content-Digest that is not the body's, a Content-Type other than curl's, and a method curl would not infer", () => {
    const body = CUSTOMER_JSON;
    const req = request({
      method: 'PUT',
      url: `${BASE_URL}/customers`,
      headers: [
        ['Authorization', 'Bearer [redacted]'],
        ['X-Client-Id', 'acme'],
        ['X-Idempotency-Key', 'not-a-uuid'],
        ['Content-Type', 'text/plain'],
        ['Content-Length', String(Buffer.byteLength(body))],
        ['Content-Digest', contentDigest(new TextEncoder().encode(`${body} `))],
      ],
      bodyExcerpt: body,
      bodySize: Buffer.byteLength(body),
    });
    const args = replayArgs(replayLine(req, SENT, STAGING));
    expect(args.slice(2, 5)).toEqual(['-X', 'PUT', '/customers']);
    expect(args).toEqual(
      expect.arrayContaining(['-H', 'X-Idempotency-Key: not-a-uuid', '-H', 'Content-Type: text/plain']),
    );
    expect(args).toContain(`Content-Digest: ${contentDigest(new TextEncoder().encode(`${body} `))}`);
    expect(args).not.toContain(`Content-Length: ${Buffer.byteLength(body)}`);
    expect(args).toContain('--no-sign');
    expect(args.at(-3)).toBe(body);
    // The body's own digest is curl's to make.
    const own = replayArgs(
      replayLine(
        { ...req, headers: [['Content-Digest', contentDigest(new TextEncoder().encode(body))]] },
        SENT,
        STAGING,
      ),
    );
    expect(own.some((a) => a.startsWith('Content-Digest'))).toBe(false);
    expect(replayLine(request({ method: 'HEAD' }), SENT, STAGING)).toContain(' -X HEAD ');
    expect(replayLine(request({ method: 'DELETE' }), SENT, STAGING)).toContain(' -X DELETE ');
  });

  it('writes control characters and newlines as $-quoted escapes, byte-exact', () => {
    const body = "line 1\nbell\u0007 esc\u001b[0m 'q' back\\slash";
    const line = replayLine(request({ method: 'POST', bodyExcerpt: body, bodySize: Buffer.byteLength(body) }), SENT);
    expect(line).not.toMatch(/[\u0000-\u001f]/);
    expect(line).toContain("$'line 1\\nbell\\x07 esc\\x1b[0m \\'q\\' back\\\\slash'");
    expect(replayArgs(line)).toContain(body);
  });

  it('says what it cannot give back: a body kept in part, a masked value it cannot fill', () => {
    const cut = replayLine(
      request({ method: 'POST', bodyExcerpt: 'x'.repeat(10), bodySize: 9000, bodyTruncated: true }),
      SENT,
      STAGING,
    );
    expect(cut).toMatch(/ {2}# the report kept only the start of this 8\.8 KiB body: the line sends that start only$/);
    const cookie = replayLine(request({ headers: [['cookie', '[redacted]']] }), SENT, STAGING);
    expect(cookie).toContain(`-H 'cookie: [redacted]'`);
    expect(cookie).toMatch(
      /# a value the report masked is sent as the text \[redacted\]: put the real one in its place$/,
    );
    expect(replayLine(request({ url: `${BASE_URL}/x?token=[redacted]` }), SENT, STAGING)).toContain(
      `'/x?token={{token}}'`,
    );
  });

  it('keeps a URL off the base URL whole, and without a context gives the absolute URL and no target', () => {
    expect(replayLine(request({ url: 'https://elsewhere.example/v1/a' }), SENT, STAGING)).toContain(
      ' https://elsewhere.example/v1/a ',
    );
    expect(replayLine(request(), SENT)).toBe(
      `npx conformance curl '${BASE_URL}/accounts?customerId=1042' -H 'Authorization:' -H 'X-Client-Id:' --no-sign`,
    );
  });
});

describe('replayContextOf', () => {
  it("takes the run's replay record, and for a report of a version before it the target's name", () => {
    const run = sampleRunResult().run;
    expect(replayContextOf(run)).toEqual({
      baseUrl: BASE_URL,
      targetArgs: ['--target', 'staging'],
      clientId: 'acme',
      keyId: 'acme-2026',
    });
    const { replay: _replay, ...older } = run;
    expect(replayContextOf(older)).toEqual({ baseUrl: BASE_URL, targetArgs: ['--target', 'staging'] });
  });
});

describe('shellQuote', () => {
  it('single-quotes and escapes embedded single quotes', () => {
    expect(shellQuote(`it's`)).toBe(`'it'\\''s'`);
    expect(argsOf(`curl ${shellQuote(`$HOME "x" \`y\` it's`)}`)).toEqual([`$HOME "x" \`y\` it's`]);
  });
});

describe('formatExchange', () => {
  it('shows the request line, one header per line, the body, the status with size and duration, and the replay', () => {
    const text = formatExchange(
      exchange(
        'x',
        request({
          method: 'PUT',
          url: `${BASE_URL}/customers/7`,
          headers: [['content-type', 'application/json']],
          bodyExcerpt: CUSTOMER_JSON,
          bodySize: Buffer.byteLength(CUSTOMER_JSON),
        }),
        jsonResponse(422, '{"code":"422","message":"bad"}'),
      ),
      undefined,
      STAGING,
    );
    expect(text.split('\n')).toEqual([
      `request   PUT ${BASE_URL}/customers/7`,
      '          content-type: application/json',
      '',
      `          ${CUSTOMER_JSON}`,
      'response  422  (30 B, 14 ms)',
      '          content-type: application/json',
      '',
      '          {"code":"422","message":"bad"}',
      // A request the check sent without a token, client id, idempotency key, digest or signature: the line says so.
      `replay    npx conformance curl -X PUT /customers/7 -H 'Authorization:' -H 'X-Client-Id:' -H 'X-Idempotency-Key:' -H 'Content-Digest:' --no-sign -d '{"email":"ana@example.org","name":"Ana O'\\''Neil <&> Zoë"}' --target staging`,
    ]);
  });

  it('shows control characters as escapes, never raw', () => {
    const text = formatExchange(
      exchange('x', request(), jsonResponse(200, NASTY_TEXT, { headers: [['x-evil', 'a\u001b[2Jb\r\nc']] })),
    );
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    expect(text).toContain('x-evil: a\\u001b[2Jb\\u000d\\u000ac');
    expect(text).toContain('\\u001b[31mred\\u001b[0m bell\\u0007');
    expect(text).toContain('Zürich — 日本');
  });

  it('shows a transport failure in place of the response', () => {
    const text = formatExchange(exchange('x', request(), undefined, 'timeout after 10000 ms'));
    expect(text).toContain('response  none: timeout after 10000 ms  (after 14 ms)');
  });
});

describe('bodyLines', () => {
  it('does not call a whole body cut when redaction made its excerpt shorter than its size', () => {
    const excerpt = '{"token":"[redacted]","tokenType":"Bearer"}';
    expect(bodyLines({ headers: [], bodyExcerpt: excerpt, bodySize: excerpt.length + 30 })).toEqual([excerpt]);
    expect(bodyLines({ headers: [], bodyExcerpt: excerpt, bodySize: 9000, bodyTruncated: true }).at(-1)).toMatch(
      /^… \(first 43 B of 8\.8 KiB\)$/,
    );
  });

  it('cuts a body to about 1 KiB and notes the full size', () => {
    const lines = bodyLines({ headers: [], bodyExcerpt: 'é'.repeat(3000), bodySize: 9000, bodyTruncated: true });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('é'.repeat(1024));
    expect(lines[1]).toBe('… (first 2.0 KiB of 8.8 KiB)');
    expect(bodyLines({ headers: [], bodySize: 0 })).toEqual([]);
  });

  it('does not split a surrogate pair at the cut', () => {
    const lines = bodyLines({ headers: [], bodyExcerpt: `${'a'.repeat(1023)}😀tail`, bodySize: 2000 });
    expect(lines[0]).toBe('a'.repeat(1023));
  });
});

describe('findingSections', () => {
  it('gives spec, expected, observed (the reason, then the raw observation), then the last exchange', () => {
    const failed = sampleChecks().find((c) => c.id === 'signing.reject.expired');
    if (!failed) throw new Error('fixture missing');
    const lines = renderLabelled(findingSections(failed));
    expect(lines.slice(0, 5)).toEqual([
      'spec      REQ-AUTH-08 (Authentication): "The signature covers the ordered components listed in Signature-Input, and `created` and `expires` are Unix times."',
      'expected  a request signed with expires 120 s in the past is rejected (any 4xx)',
      'observed  an expired signature was accepted',
      '          200 — the server served it',
      `request   GET ${BASE_URL}/accounts?customerId=1042`,
    ]);
    expect(lines.filter((l) => l.startsWith('request '))).toHaveLength(1);
    expect(lines.some((l) => l.includes('accountId'))).toBe(true);
    expect(
      renderLabelled(findingSections(failed, { allExchanges: true })).filter((l) => l.startsWith('request ')),
    ).toHaveLength(2);
  });

  it('shows the exchange the finding names rather than the last one', () => {
    const failed = sampleChecks().find((c) => c.id === 'signing.reject.expired');
    if (!failed?.finding) throw new Error('fixture missing');
    const first = failed.exchanges[0]!;
    const named = { ...failed, finding: { ...failed.finding, exchangeSeq: first.seq } };
    const requests = renderLabelled(findingSections(named)).filter((l) => l.startsWith('request '));
    expect(requests).toEqual([`request   ${first.request.method} ${first.request.url}`]);
  });
});
