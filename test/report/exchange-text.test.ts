import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  bodyLines,
  curlCommand,
  findingSections,
  formatExchange,
  renderLabelled,
  shellQuote,
} from '../../src/report/exchange-text.js';
import {
  BASE_URL,
  CUSTOMER_JSON,
  NASTY_TEXT,
  TOKEN_FORM,
  exchange,
  jsonResponse,
  request,
  sampleChecks,
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

describe('curlCommand', () => {
  it('replaces a redacted bearer token and signature with $TOKEN and $SIGNATURE, and single-quotes the rest', () => {
    const command = curlCommand(signedGet());
    expect(command.startsWith(`curl -sS -i '${BASE_URL}/accounts?customerId=1042' `)).toBe(true);
    expect(command).toContain('-H "authorization: Bearer $TOKEN"');
    expect(command).toContain('-H "signature: $SIGNATURE"');
    expect(command).toContain(`-H 'x-client-id: acme'`);
    expect(command).toContain(`-H 'x-note: it'\\''s "quoted"'`);
    expect(command).not.toContain('[redacted]');
    expect(command).not.toContain('-X');
  });

  it('runs in bash as the same request, secrets taken from the environment', () => {
    const args = argsOf(curlCommand(signedGet()), { TOKEN: 'tok-1', SIGNATURE: 'sig1=:c2ln:' });
    expect(args).toEqual([
      '-sS',
      '-i',
      `${BASE_URL}/accounts?customerId=1042`,
      '-H',
      'authorization: Bearer tok-1',
      '-H',
      'x-client-id: acme',
      '-H',
      'signature-input: sig1=("@method" "@target-uri" "authorization" "x-client-id");keyid="acme-2026";created=1763799880;expires=1763799940',
      '-H',
      'signature: sig1=:c2ln:',
      '-H',
      `x-note: it's "quoted"`,
    ]);
  });

  it('sends a body with --data-binary, names a redacted form field after it, and lets curl set Content-Length', () => {
    const req = request({
      method: 'POST',
      url: `${BASE_URL}/oauth/token`,
      headers: [['content-length', String(TOKEN_FORM.length)]],
      bodyExcerpt: TOKEN_FORM,
      bodySize: TOKEN_FORM.length,
    });
    const command = curlCommand(req);
    expect(command).toBe(
      `curl -sS -i '${BASE_URL}/oauth/token' --data-binary "grant_type=client_credentials&client_id=acme&client_secret=$CLIENT_SECRET"`,
    );
    expect(argsOf(command, { CLIENT_SECRET: 's3 cr"et' }).at(-1)).toBe(
      'grant_type=client_credentials&client_id=acme&client_secret=s3 cr"et',
    );
  });

  it('keeps JSON quotes intact around a redacted member', () => {
    const body = '{"clientId":"acme","clientSecret":"[redacted]"}';
    const command = curlCommand(
      request({ method: 'POST', url: `${BASE_URL}/oauth/token`, bodyExcerpt: body, bodySize: body.length }),
    );
    expect(command).toContain(`--data-binary '{"clientId":"acme","clientSecret":"'"$CLIENT_SECRET"'"}'`);
    expect(argsOf(command, { CLIENT_SECRET: "it's $x" }).at(-1)).toBe(`{"clientId":"acme","clientSecret":"it's $x"}`);
  });

  it('uses -X for methods curl would not infer, and keeps a Content-Length that does not match the body', () => {
    const req = request({
      method: 'PUT',
      url: `${BASE_URL}/customers/7`,
      headers: [['content-length', '3']],
      bodyExcerpt: CUSTOMER_JSON,
      bodySize: Buffer.byteLength(CUSTOMER_JSON),
    });
    const args = argsOf(curlCommand(req));
    expect(args.slice(0, 4)).toEqual(['-sS', '-i', '-X', 'PUT']);
    expect(args).toContain('content-length: 3');
    expect(args.at(-1)).toBe(CUSTOMER_JSON);
    expect(curlCommand(request({ method: 'HEAD' }))).toContain('--head');
    expect(curlCommand(request({ method: 'DELETE' }))).toContain('-X DELETE');
  });

  it('writes control characters and newlines as $-quoted escapes, byte-exact', () => {
    const body = "line 1\nbell\u0007 esc\u001b[0m 'q' back\\slash";
    const command = curlCommand(request({ method: 'POST', bodyExcerpt: body, bodySize: Buffer.byteLength(body) }));
    expect(command).not.toMatch(/[\u0000-\u001f]/);
    expect(command).toContain("$'line 1\\nbell\\x07 esc\\x1b[0m \\'q\\' back\\\\slash'");
    expect(argsOf(command).at(-1)).toBe(body);
  });

  it('turns off URL globbing for brackets, and replaces a redacted query value', () => {
    const command = curlCommand(request({ url: `${BASE_URL}/accounts?filter[status]=ACTIVE&token=[redacted]` }));
    expect(command).toContain(' -g ');
    expect(argsOf(command, { TOKEN: 'abc' })).toContain(`${BASE_URL}/accounts?filter[status]=ACTIVE&token=abc`);
  });

  it('notes a request body the report kept only in part', () => {
    const command = curlCommand(
      request({ method: 'POST', bodyExcerpt: 'x'.repeat(10), bodySize: 9000, bodyTruncated: true }),
    );
    expect(command).toMatch(/# the report kept only the start of this 8\.8 KiB body$/);
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
      `replay    curl -sS -i -X PUT '${BASE_URL}/customers/7' -H 'content-type: application/json' --data-binary '{"email":"ana@example.org","name":"Ana O'\\''Neil <&> Zoë"}'`,
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
