import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TrafficExchange } from '../../src/traffic/exchange.js';
import { readHar } from '../../src/traffic/har.js';
import { trafficLimits } from '../../src/traffic/limits.js';
import { harText } from '../../src/report/har.js';
import { sampleRunResult } from '../helpers/run-result.js';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../fixtures/har', name), 'utf8');

function exchange(index: number, over: Partial<TrafficExchange> = {}): TrafficExchange {
  const none = new Uint8Array(0);
  return {
    index,
    request: { method: 'GET', url: 'https://api.example/v1/x', headers: [], body: none, bodyState: 'empty' },
    response: { status: 200, headers: [], body: new Uint8Array([1]), bodyState: 'captured' },
    ...over,
  };
}

describe('trafficLimits', () => {
  it('says nothing when every body is there and nothing is masked', () => {
    expect(trafficLimits([exchange(0), exchange(1)])).toEqual({ request: [], response: [] });
  });

  it('counts responses saved without content and says how to save them with it', () => {
    const saved = Array.from({ length: 40 }, (_, i) =>
      i < 3
        ? exchange(i)
        : exchange(i, { response: { status: 200, headers: [], body: new Uint8Array(0), bodyState: 'not-captured' } }),
    );
    expect(trafficLimits(saved)).toEqual({
      request: [],
      response: [
        "37 of 40 responses have no body (the HAR was saved without content, or a tool cut them: in the browser's devtools use 'Save all as HAR with content'; in mitmproxy or a gateway, export with bodies): their bodies, digests and signatures over them cannot be judged",
      ],
    });
  });

  it('counts requests without an answer, out of all requests; bodies out of the answered ones', () => {
    const { response } = trafficLimits([exchange(0), exchange(1, { response: undefined })]);
    expect(response).toEqual([
      '1 of 2 requests got no response in the HAR (status 0: the connection failed or was cancelled): nothing of the server can be judged from them',
    ]);
  });

  it("says a conformance report's HAR has Authorization and Signature masked: signatures cannot be verified", () => {
    const { exchanges } = readHar(harText(sampleRunResult()));
    const limits = trafficLimits(exchanges);
    expect(limits.request).toContain(
      "the Authorization and Signature values are redacted (a conformance report's HAR: judge a capture from the browser or a proxy instead): request tokens cannot be checked, signatures cannot be verified",
    );
    expect(limits.response.some((line) => /of \d+ responses have no body/.test(line))).toBe(true);
  });

  it('names another masked field as it is written', () => {
    const masked = exchange(0, { redacted: { response: ['x-api-key'] } });
    expect(trafficLimits([masked]).response).toEqual([
      'the X-Api-Key value is redacted: response judges reading them cannot',
    ]);
  });

  it('reads the Chrome fixture: one response without content, one request without an answer', () => {
    const { response, request } = trafficLimits(readHar(fixture('chrome.har')).exchanges);
    expect(request).toEqual([]);
    expect(response.map((line) => line.slice(0, 40))).toEqual([
      '1 of 3 requests got no response in the H',
      '1 of 2 responses have no body (the HAR w',
    ]);
  });

  it('says an empty capture holds nothing to judge, on both sides', () => {
    const limits = trafficLimits([]);
    expect(limits.request).toHaveLength(1);
    expect(limits.response[0]).toMatch(/^the traffic holds no HTTP exchange/);
  });
});
