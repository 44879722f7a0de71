// conformance curl's request, made from its command line: what a correct client sends by default (spec "Common request
// rules"; RFC 9421 signature over the profile's components, RFC 9530 Content-Digest), and every part a check changes
// open to change, so that a replay line (test/report/exchange-text.test.ts) gives back the request it was written from.
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { curlSpec, type CurlCommandOptions } from '../../src/cli/curl.js';
import { buildRequest, needsToken, type CurlIdentity } from '../../src/replay/request.js';
import { verifySignature } from '../../src/http/signature.js';
import { verifyContentDigest } from '../../src/http/digest.js';
import { headerValue } from '../../src/http/message.js';
import { generateEd25519 } from '../../src/http/keys.js';
import { ConformanceError } from '../../src/errors.js';

const key = generateEd25519();
const IDENTITY: CurlIdentity = {
  baseUrl: 'https://staging.example/v1',
  clientId: 'acme',
  clientSecret: 's3cret',
  keyId: 'acme-2026',
  privateKey: key.seed,
};
const NOW = 1_768_210_202;
const TOKEN = 'tok-123';

function options(change: Partial<CurlCommandOptions> = {}): CurlCommandOptions {
  return { header: [], param: [], target: 'local', sign: true, timeout: 10_000, ...change };
}

/** The request conformance curl builds for `url` and these options. */
async function built(url: string, change: Partial<CurlCommandOptions> = {}) {
  const spec = await curlSpec(url, options(change), tmpdir());
  return buildRequest(spec, IDENTITY, needsToken(spec) ? TOKEN : undefined, NOW);
}

function verify(request: { method: string; url: string; headers: Array<[string, string]> }) {
  return verifySignature(request, { key: key.publicKey, now: NOW, requireCreated: true, requireExpires: true });
}

async function usageError(run: Promise<unknown>): Promise<ConformanceError> {
  const err = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConformanceError);
  return err as ConformanceError;
}

describe('conformance curl: the request by default', () => {
  it('is a GET under the base URL with a bearer token and X-Client-Id, signed over the default profile for 60 s', async () => {
    const { request, signed } = await built('/instruments?investmentType=INTERNATIONAL_STOCKS');
    expect(request.method).toBe('GET');
    expect(request.url).toBe('https://staging.example/v1/instruments?investmentType=INTERNATIONAL_STOCKS');
    expect(request.headers.slice(0, 2)).toEqual([
      ['Authorization', `Bearer ${TOKEN}`],
      ['X-Client-Id', 'acme'],
    ]);
    expect(headerValue(request.headers, 'signature-input')).toBe(
      `sig1=("@method" "@target-uri" "@path" "@query" "authorization" "x-client-id");keyid="acme-2026";created=${NOW};expires=${NOW + 60}`,
    );
    expect(signed?.base.split('\n')[0]).toBe('"@method": GET');
    expect(verify(request)).toMatchObject({ ok: true, keyId: 'acme-2026' });
  });

  it("signs in the target's profile (learnt by its token request, or set by its config) where no option says otherwise", async () => {
    const spec = await curlSpec('/instruments?investmentType=INTERNATIONAL_STOCKS', options(), tmpdir());
    const profile = { windowSeconds: 30, components: ['@method', '@path', '@query'] as const, label: 'req' };
    const { request } = buildRequest(spec, IDENTITY, TOKEN, NOW, profile);
    expect(headerValue(request.headers, 'signature-input')).toBe(
      `req=("@method" "@path" "@query" "authorization" "x-client-id");keyid="acme-2026";created=${NOW};expires=${NOW + 30}`,
    );
    expect(headerValue(request.headers, 'signature')).toMatch(/^req=:/);
    const given = await curlSpec(
      '/instruments?investmentType=INTERNATIONAL_STOCKS',
      options({ expires: '300', components: '@method,@target-uri' }),
      tmpdir(),
    );
    expect(headerValue(buildRequest(given, IDENTITY, TOKEN, NOW, profile).request.headers, 'signature-input')).toBe(
      `req=("@method" "@target-uri");keyid="acme-2026";created=${NOW};expires=${NOW + 300}`,
    );
  });

  it('sends -d as POST with its digest, JSON or form typed, and an idempotency key; the token request without token or client id', async () => {
    const put = await built('/customers', { request: 'PUT', data: '{"customerId":2077}' });
    expect(headerValue(put.request.headers, 'content-type')).toBe('application/json');
    expect(headerValue(put.request.headers, 'x-idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(verifyContentDigest(headerValue(put.request.headers, 'content-digest'), put.request.body!).ok).toBe(true);
    expect(verify(put.request).ok).toBe(true);

    const token = await built('/oauth/token', { data: 'clientId={{clientId}}&clientSecret={{clientSecret}}' });
    expect(token.request.method).toBe('POST');
    expect(new TextDecoder().decode(token.request.body)).toBe('clientId=acme&clientSecret=s3cret');
    expect(headerValue(token.request.headers, 'content-type')).toBe('application/x-www-form-urlencoded');
    expect(headerValue(token.request.headers, 'authorization')).toBeUndefined();
    expect(headerValue(token.request.headers, 'x-client-id')).toBeUndefined();
    // The digest is of the body as sent, with the secret filled in.
    expect(verifyContentDigest(headerValue(token.request.headers, 'content-digest'), token.request.body!).ok).toBe(
      true,
    );
    expect(verify(token.request).ok).toBe(true);
  });
});

describe('conformance curl: what the command line changes', () => {
  it("-H replaces a header conformance makes, and is covered by the signature; 'Name:' sends the request without it", async () => {
    const { request } = await built('/customers/1042', {
      header: ['X-Client-Id: other', 'Authorization:', 'X-Note: a'],
    });
    expect(headerValue(request.headers, 'x-client-id')).toBe('other');
    expect(headerValue(request.headers, 'authorization')).toBeUndefined();
    expect(headerValue(request.headers, 'signature-input')).toMatch(
      /^sig1=\("@method" "@target-uri" "@path" "x-client-id"\);/,
    );
    expect(headerValue(request.headers, 'x-note')).toBe('a');
    expect(verify(request).ok).toBe(true);
    // A bearer token given by hand is not asked for: no {{token}}, no token request.
    expect(needsToken(await curlSpec('/x', options({ header: ['Authorization: Bearer mine'] }), tmpdir()))).toBe(false);
    expect(needsToken(await curlSpec('/x', options({ header: ['Authorization: Bearer {{token}}'] }), tmpdir()))).toBe(
      true,
    );
  });

  it('--created and --expires are seconds from now, --keyid and the parameters as given, none leaves one out', async () => {
    const expired = await built('/customers/1042', { created: '-660', expires: '-600' });
    expect(headerValue(expired.request.headers, 'signature-input')).toMatch(
      new RegExp(`;keyid="acme-2026";created=${NOW - 660};expires=${NOW - 600}$`),
    );
    expect(verify(expired.request)).toMatchObject({ ok: false, reason: `expired at ${NOW - 600} (now ${NOW})` });

    const other = await built('/customers/1042', {
      keyid: 'acme-2026-unknown',
      expires: 'none',
      label: 'proxy',
      param: ['alg="ed25519"', 'nonce=abc', 'tag=7'],
    });
    expect(headerValue(other.request.headers, 'signature-input')).toMatch(
      new RegExp(`^proxy=\\(.*\\);keyid="acme-2026-unknown";created=${NOW};alg="ed25519";nonce="abc";tag=7$`),
    );
    expect(headerValue(other.request.headers, 'signature')).toMatch(/^proxy=:[A-Za-z0-9+/]{86}==:$/);
  });

  it('--components signs over those, in that order; --no-sign sends no signature at all', async () => {
    const { request } = await built('/customers/1042', { components: '@method,@path' });
    expect(headerValue(request.headers, 'signature-input')).toMatch(/^sig1=\("@method" "@path"\);/);
    expect(verify(request).ok).toBe(true);
    const unsigned = await built('/customers/1042', { sign: false });
    expect(headerValue(unsigned.request.headers, 'signature')).toBeUndefined();
    expect(headerValue(unsigned.request.headers, 'signature-input')).toBeUndefined();
  });

  it('Signature and Signature-Input given with -H replace what signing made, after signing; {{signature}} is its bytes', async () => {
    const relabelled = await built('/customers/1042', { header: ['Signature: sig2=:{{signature}}:'] });
    const made = headerValue(relabelled.request.headers, 'signature')!;
    expect(made).toMatch(/^sig2=:[A-Za-z0-9+/]{86}==:$/);
    // The same bytes under the input's own label verify: only the label was changed.
    const back = relabelled.request.headers.map(([n, v]): [string, string] =>
      n === 'Signature' ? [n, v.replace(/^sig2=/, 'sig1=')] : [n, v],
    );
    expect(verify({ ...relabelled.request, headers: back }).ok).toBe(true);
    expect(verify(relabelled.request)).toMatchObject({
      ok: false,
      reason: 'Signature has no byte sequence labelled "sig1"',
    });
    const dropped = await built('/customers/1042', { header: ['Signature:'] });
    expect(headerValue(dropped.request.headers, 'signature')).toBeUndefined();
    expect(headerValue(dropped.request.headers, 'signature-input')).toBeDefined();
  });

  it('sends the method as given, as a check may send it (RFC 9421 §2.2.1 signs it untransformed)', async () => {
    const { request } = await built('/customers/1042', { request: 'get' });
    expect(request.method).toBe('get');
  });
});

describe('conformance curl: a command line it cannot take', () => {
  it('is a usage error, exit 2, with a code, before anything is sent', async () => {
    const cases: Array<[string, Partial<CurlCommandOptions>, RegExp]> = [
      ['instruments', {}, /is neither an http\(s\) URL nor a path/],
      ['/x', { header: ['no colon'] }, /-H: "no colon" is not a header/],
      ['/x', { header: [': empty name'] }, /is not a header/],
      ['/x', { created: 'yesterday' }, /--created: "yesterday" is not a number of seconds/],
      ['/x', { request: 'GE T' }, /-X: "GE T" is not an HTTP method/],
      ['/x', { label: 'Sig1' }, /--label: "Sig1" is not a structured-field key/],
      ['/x', { param: ['alg'] }, /--param: "alg" is not name=value/],
      ['/x', { components: ' , ' }, /--components: give the covered components/],
    ];
    for (const [url, change, message] of cases) {
      const err = await usageError(curlSpec(url, options(change), tmpdir()));
      expect(err.message).toMatch(message);
      expect(err.code).toBe('CONFORMANCE_ERR_USAGE');
    }
    const dir = mkdtempSync(join(tmpdir(), 'conformance-curl-'));
    const missing = await usageError(curlSpec('/x', options({ data: '@nope.json' }), dir));
    expect(missing.code).toBe('CONFORMANCE_ERR_OPTION_FILE');
    expect(missing.message).toBe(
      `-d: ${join(dir, 'nope.json')} does not exist: give the body, or @FILE to read it from a file`,
    );
  });
});
