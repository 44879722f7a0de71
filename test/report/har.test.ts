import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harText, toHar, type Har } from '../../src/report/har.js';
import { run } from '../../src/api.js';
import { startLocalTarget, type LocalTarget } from '../../src/targets/local.js';
import { exchange, request, sampleChecks, sampleRunResult, TOKEN_FORM } from '../helpers/run-result.js';

type Json = Record<string, unknown>;

const isNameValues = (v: unknown) =>
  Array.isArray(v) && v.every((p: Json) => typeof p.name === 'string' && typeof p.value === 'string');

/** The fields HAR 1.2 requires (http://www.softwareishard.com/blog/har-12-spec/), with their types; returns what is wrong. */
function harProblems(har: Json): string[] {
  const problems: string[] = [];
  const need = (ok: boolean, what: string) => {
    if (!ok) problems.push(what);
  };
  const log = har.log as Json;
  need(log.version === '1.2', 'log.version is "1.2"');
  const creator = log.creator as Json;
  need(typeof creator?.name === 'string' && typeof creator?.version === 'string', 'log.creator has name and version');
  need(Array.isArray(log.entries), 'log.entries is an array');
  (log.entries as Json[]).forEach((e, i) => {
    const at = `entries[${i}]`;
    need(
      typeof e.startedDateTime === 'string' && !Number.isNaN(Date.parse(e.startedDateTime as string)),
      `${at}.startedDateTime is ISO 8601`,
    );
    need(typeof e.time === 'number' && (e.time as number) >= 0, `${at}.time is a number`);
    const req = e.request as Json;
    need(
      typeof req.method === 'string' && typeof req.url === 'string' && typeof req.httpVersion === 'string',
      `${at}.request has method, url, httpVersion`,
    );
    need(
      Array.isArray(req.cookies) && isNameValues(req.headers) && isNameValues(req.queryString),
      `${at}.request has cookies, headers, queryString`,
    );
    need(
      typeof req.headersSize === 'number' && typeof req.bodySize === 'number',
      `${at}.request has headersSize and bodySize`,
    );
    if (req.postData !== undefined) {
      const post = req.postData as Json;
      need(
        typeof post.mimeType === 'string' && typeof post.text === 'string',
        `${at}.request.postData has mimeType and text`,
      );
    }
    const res = e.response as Json;
    need(
      typeof res.status === 'number' && typeof res.statusText === 'string' && typeof res.httpVersion === 'string',
      `${at}.response has status, statusText, httpVersion`,
    );
    need(Array.isArray(res.cookies) && isNameValues(res.headers), `${at}.response has cookies and headers`);
    const content = res.content as Json;
    need(
      typeof content.size === 'number' && typeof content.mimeType === 'string',
      `${at}.response.content has size and mimeType`,
    );
    need(content.text === undefined || typeof content.text === 'string', `${at}.response.content.text is a string`);
    need(
      typeof res.redirectURL === 'string' && typeof res.headersSize === 'number' && typeof res.bodySize === 'number',
      `${at}.response has redirectURL, headersSize, bodySize`,
    );
    need(typeof e.cache === 'object' && e.cache !== null, `${at}.cache is an object`);
    const t = e.timings as Record<string, number>;
    need(
      ['send', 'wait', 'receive'].every((k) => typeof t[k] === 'number' && t[k]! >= 0),
      `${at}.timings has send, wait, receive`,
    );
    const sum = Object.values(t)
      .filter((v) => v > 0)
      .reduce((a, b) => a + b, 0);
    need(Math.abs(sum - (e.time as number)) < 1e-6, `${at}.time is the sum of its timings`);
    // Custom fields must start with an underscore.
    for (const key of Object.keys(e))
      need(
        [
          'startedDateTime',
          'time',
          'request',
          'response',
          'cache',
          'timings',
          'comment',
          'serverIPAddress',
          'connection',
          'pageref',
        ].includes(key) || key.startsWith('_'),
        `${at}.${key} is a HAR field or starts with _`,
      );
  });
  return problems;
}

describe('HarReporter (unit)', () => {
  it('writes HAR 1.2 with every exchange of the run, session included, in seq order, each tagged with its check', () => {
    const result = sampleRunResult();
    const har = toHar(result);
    expect(harProblems(har as unknown as Json)).toEqual([]);
    const all = [...result.sessionExchanges, ...result.checks.flatMap((c) => c.exchanges)];
    expect(har.log.entries).toHaveLength(all.length);
    expect(har.log.entries.map((e) => e._seq)).toEqual(all.map((e) => e.seq).sort((a, b) => a - b));
    expect(har.log.entries.filter((e) => e._checkId === 'session')).toHaveLength(1);
    expect(har.log.creator).toEqual({ name: 'conformance', version: '0.1.0' });
  });

  it('maps request and response: headers, query string, post data, status text, content', () => {
    const har = toHar(sampleRunResult());
    const token = har.log.entries.find((e) => e._checkId === 'auth.token.issue')!;
    expect(token.request).toMatchObject({
      method: 'POST',
      url: 'https://staging.example/v1/oauth/token',
      headers: [{ name: 'content-type', value: 'application/x-www-form-urlencoded' }],
      postData: { mimeType: 'application/x-www-form-urlencoded', text: TOKEN_FORM },
      bodySize: Buffer.byteLength(TOKEN_FORM),
    });
    expect(token.response).toMatchObject({
      status: 200,
      statusText: 'OK',
      content: { mimeType: 'application/json', text: '{"accessToken":"[redacted]","expiresIn":3600}' },
    });
    const signed = har.log.entries.find((e) => e._checkId === 'signing.reject.expired')!;
    expect(signed.request.queryString).toEqual([{ name: 'customerId', value: '1042' }]);
    expect(signed.request).not.toHaveProperty('postData');
    const truncated = har.log.entries.filter((e) => e._checkId === 'signing.reject.expired')[1]!;
    expect(truncated.response.content.comment).toMatch(/kept only the start/);
  });

  it('records a transport error as status 0 with the error, as Chrome does', () => {
    const har = toHar(sampleRunResult());
    const failed = har.log.entries.find((e) => e._checkId === 'webhooks.delivery.verify')!;
    expect(failed.response).toMatchObject({ status: 0, _error: 'timeout after 10000 ms' });
    expect(failed.comment).toBe('timeout after 10000 ms');
  });

  it('keeps a URL it cannot parse, with an empty query string', () => {
    const checks = sampleChecks();
    checks[0]!.exchanges = [exchange('auth.token.issue', request({ url: 'not a url?a=b' }))];
    const entry = toHar(sampleRunResult(checks)).log.entries.find((e) => e._checkId === 'auth.token.issue')!;
    expect(entry.request).toMatchObject({ url: 'not a url?a=b', queryString: [] });
  });
});

describe('HarReporter (a real run against the reference server)', () => {
  let dir: string;
  let local: LocalTarget;
  let text: string;
  let har: Har;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'conformance-har-'));
    // A target of our own, so the test knows the secrets the run was given and can look for them.
    local = await startLocalTarget({ name: 'sandbox' });
    const result = await run({
      config: { targets: { sandbox: local.target } },
      target: 'sandbox',
      suites: ['auth'],
      har: join(dir, 'out', 'run.har'),
    });
    text = await readFile(join(dir, 'out', 'run.har'), 'utf8');
    har = JSON.parse(text) as Har;
    expect(text).toBe(harText(result));
  });

  afterAll(async () => {
    await local?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('is HAR 1.2 with an entry per exchange', () => {
    expect(harProblems(har as unknown as Json)).toEqual([]);
    expect(har.log.entries.length).toBeGreaterThan(20);
    expect(new Set(har.log.entries.map((e) => e._checkId))).toContain('auth.token.issued');
  });

  it('holds no secret: client secret, private key, bearer tokens and signatures are [redacted]', () => {
    const { clientSecret, privateKey, privateKeyPem } = local.target;
    expect(text).not.toContain(clientSecret);
    expect(text).not.toContain(Buffer.from(privateKey).toString('base64url'));
    expect(text).not.toContain(Buffer.from(privateKey).toString('base64'));
    expect(text).not.toContain(Buffer.from(privateKey).toString('hex'));
    expect(text).not.toContain(privateKeyPem.split('\n')[1]!);
    for (const entry of har.log.entries) {
      for (const { name, value } of entry.request.headers) {
        if (name.toLowerCase() === 'signature') expect(value).toMatch(/^sig1=:\[redacted\]:$/);
        if (name.toLowerCase() === 'authorization' && /^bearer\s+\S{20,}$/i.test(value))
          expect(value).toMatch(/\[redacted\]/);
      }
      // Every token the server handed out is redacted in the recorded answer.
      for (const m of (entry.response.content.text ?? '').matchAll(/"(?:token|accessToken)"\s*:\s*"([^"]*)"/g))
        expect(m[1]).toBe('[redacted]');
    }
  });
});
