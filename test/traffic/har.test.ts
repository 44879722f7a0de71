import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHar } from '../../src/traffic/har.js';
import { harText } from '../../src/report/har.js';
import { sampleRunResult } from '../helpers/run-result.js';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../fixtures/har', name), 'utf8');
const bytes = (text: string) => new TextEncoder().encode(text);
const NONE = new Uint8Array(0);

describe('readHar: a Chrome devtools HAR (HTTP/2, base64 content, no-content entries)', () => {
  const { exchanges, skipped, creator } = readHar(fixture('chrome.har'));

  it('drops the HTTP/2 pseudo-headers and keeps the other fields in order, names as sent', () => {
    expect(exchanges[0]?.request.headers).toEqual([
      ['authorization', 'Bearer eyJhbGciOiJFZERTQSJ9.e30.c2ln'],
      ['content-type', 'application/json'],
      ['content-length', '14'],
      ['x-idempotency-key', '5b0f6a2e-0c3e-4b7e-9d6a-2f7b8e1c4d00'],
    ]);
    expect(exchanges[0]?.response?.headers).toEqual([
      ['content-type', 'application/json'],
      ['content-encoding', 'gzip'],
      ['date', 'Mon, 12 Jan 2026 09:30:02 GMT'],
    ]);
  });

  it('reads the first exchange whole: postData text as bytes, base64 content decoded to its bytes', () => {
    expect(exchanges[0]).toEqual({
      index: 0,
      startedAt: '2026-01-12T09:30:02.100Z',
      durationMs: 41.2,
      request: {
        method: 'POST',
        url: 'https://api.example/v1/orders?dryRun=false',
        httpVersion: 'http/2.0',
        headers: expect.any(Array),
        body: bytes('{"amount":"5"}'),
        bodyState: 'captured',
      },
      response: {
        status: 201,
        httpVersion: 'http/2.0',
        headers: expect.any(Array),
        body: new Uint8Array([0x00, 0xff, 0x7f]),
        bodyState: 'captured',
      },
    });
  });

  it('says a body the HAR left out is not captured, and a GET with bodySize 0 has an empty body', () => {
    expect(exchanges[1]?.request).toMatchObject({ body: NONE, bodyState: 'empty' });
    expect(exchanges[1]?.response).toMatchObject({ status: 200, body: NONE, bodyState: 'not-captured' });
  });

  it('keeps file order as index and each startedAt, even when entries are not in time order', () => {
    expect(exchanges.map((e) => [e.index, e.startedAt])).toEqual([
      [0, '2026-01-12T09:30:02.100Z'],
      [1, '2026-01-12T09:30:01.900Z'],
      [2, '2026-01-12T09:30:03.000Z'],
    ]);
  });

  it('reads status 0 as no response, and an empty httpVersion as none', () => {
    expect(exchanges[2]).toEqual({
      index: 2,
      startedAt: '2026-01-12T09:30:03.000Z',
      durationMs: 5,
      request: { method: 'GET', url: 'https://api.example/v1/portfolios', headers: [], body: NONE, bodyState: 'empty' },
    });
  });

  it('skips and counts the data: URL and the websocket entry', () => {
    expect(skipped).toEqual({ 'not-http': 1, websocket: 1 });
    expect(creator).toBe('WebInspector');
  });
});

describe('readHar: a mitmproxy HAR', () => {
  const { exchanges, skipped } = readHar(fixture('mitmproxy.har'));

  it('reads postData text over params, and content text as UTF-8 bytes', () => {
    expect(exchanges[0]?.request).toEqual({
      method: 'POST',
      url: 'https://api.example/v1/oauth/token',
      httpVersion: 'HTTP/1.1',
      headers: [
        ['Host', 'api.example'],
        ['Content-Type', 'application/x-www-form-urlencoded'],
        ['Content-Length', '47'],
      ],
      body: bytes('grant_type=client_credentials&client_id=acme-01'),
      bodyState: 'captured',
    });
    expect(exchanges[0]?.response?.body).toEqual(bytes('{"accessToken":"t-1"}'));
  });

  it('does not guess a form body from params that needed encoding; a 204 has an empty body', () => {
    expect(exchanges[1]?.request).toMatchObject({ body: NONE, bodyState: 'not-captured' });
    expect(exchanges[1]?.response).toMatchObject({ status: 204, bodyState: 'empty' });
  });

  it('skips the CONNECT tunnel, keeping the index of the entries after it', () => {
    expect(skipped).toEqual({ connect: 1 });
    expect(exchanges.map((e) => e.index)).toEqual([0, 1, 3]);
  });

  it('rebuilds a form body from params only when no param needs encoding', () => {
    const har = JSON.parse(fixture('mitmproxy.har'));
    har.log.entries[1].request.postData.params = [
      { name: 'a', value: 'b-1' },
      { name: 'c', value: 'd' },
    ];
    har.log.entries[1].request.bodySize = 9;
    expect(readHar(JSON.stringify(har)).exchanges[1]?.request).toMatchObject({
      body: bytes('a=b-1&c=d'),
      bodyState: 'captured',
    });
  });
});

describe("readHar: our own report's HAR (conformance run --har)", () => {
  const { exchanges, creator } = readHar(harText(sampleRunResult()));

  it('marks Authorization and Signature as redacted, lower-case, per side', () => {
    expect(creator).toBe('conformance');
    const signed = exchanges.find((e) => e.request.headers.some(([n]) => n === 'signature'));
    expect(signed?.redacted).toEqual({ request: ['authorization', 'signature'] });
  });

  it('never takes a cut body for the body, nor a masked request body (a digest over it would not match)', () => {
    const cut = exchanges.filter((e) => e.response?.body.byteLength === 0 && e.response.bodyState === 'not-captured');
    expect(cut.length).toBeGreaterThanOrEqual(1);
    // A response with a masked value (the token answer) is read as the report holds it.
    const masked = exchanges.filter((e) =>
      Buffer.from(e.response?.body ?? [])
        .toString()
        .includes('[redacted]'),
    );
    expect(masked.length).toBeGreaterThan(0);
    expect(masked.every((e) => e.response?.bodyState === 'captured')).toBe(true);
    for (const e of exchanges)
      if (e.request.bodyState === 'captured')
        expect(Buffer.from(e.request.body).toString()).not.toContain('[redacted]');
  });
});

describe('readHar: a Firefox devtools HAR (Save All As HAR)', () => {
  const { exchanges, creator } = readHar(fixture('firefox.har'));

  it('reads postData text (params [] beside it) as its UTF-8 bytes, and the response whole', () => {
    expect(creator).toBe('Firefox');
    expect(exchanges[0]).toEqual({
      index: 0,
      startedAt: '2026-01-12T10:00:00.512+01:00',
      durationMs: 37,
      request: {
        method: 'PUT',
        url: 'https://api.example/v1/portfolios/p-1/name',
        httpVersion: 'HTTP/2',
        headers: [
          ['Host', 'api.example'],
          ['User-Agent', 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0'],
          ['Content-Type', 'application/json'],
          ['Authorization', 'Bearer t-ff'],
          ['Content-Length', '21'],
        ],
        body: new Uint8Array(Buffer.from('{"name":"Savings é"}')),
        bodyState: 'captured',
      },
      response: {
        status: 200,
        httpVersion: 'HTTP/2',
        headers: [
          ['content-type', 'application/json; charset=utf-8'],
          ['content-length', '32'],
        ],
        body: new Uint8Array(Buffer.from('{"id":"p-1","name":"Savings é"}')),
        bodyState: 'captured',
      },
    });
  });

  it('says an empty text where content.size is 2048 is a body not captured, never an empty one', () => {
    expect(exchanges[1]?.response).toMatchObject({ status: 200, body: NONE, bodyState: 'not-captured' });
    expect(exchanges[1]?.request).toMatchObject({ body: NONE, bodyState: 'empty' });
  });
});
