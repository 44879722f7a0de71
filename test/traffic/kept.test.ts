// A proxy session's store of traffic: bodies kept up to a budget, every exchange kept, the rest without bodies and
// said once (issue 30: a session's memory has a bound).
import { describe, expect, it } from 'vitest';
import { KeptTraffic, SESSION_BODY_BUDGET_BYTES } from '../../src/traffic/kept.js';
import type { TrafficExchange } from '../../src/traffic/exchange.js';

function exchange(index: number, requestBytes: number, responseBytes: number): TrafficExchange {
  return {
    index,
    request: {
      method: 'POST',
      url: 'https://api.example/v1/customers/1',
      headers: [['Content-Type', 'application/json']],
      body: new Uint8Array(requestBytes),
      bodyState: requestBytes > 0 ? 'captured' : 'empty',
    },
    response: {
      status: 200,
      headers: [['Content-Type', 'application/json']],
      body: new Uint8Array(responseBytes),
      bodyState: 'captured',
    },
  };
}

describe('the traffic a proxy session keeps', () => {
  it('keeps the bodies while they fit in its budget, then every further exchange without them, and says how many', () => {
    const kept = new KeptTraffic(1000);
    kept.add(exchange(0, 100, 400));
    kept.add(exchange(1, 0, 500));
    kept.add(exchange(2, 0, 1));
    kept.add(exchange(3, 10, 10));
    expect(
      kept.exchanges.map((e) => [e.index, e.request.bodyState, e.response?.bodyState, e.response?.body.length]),
    ).toEqual([
      [0, 'captured', 'captured', 400],
      [1, 'empty', 'captured', 500],
      [2, 'empty', 'not-captured', 0],
      [3, 'not-captured', 'not-captured', 0],
    ]);
    expect(kept.note()).toBe(
      "2 exchange(s) kept without their bodies: the session's 1000 bytes of bodies was full, so their bodies are not judged (a shorter session, or --duration, keeps them all)",
    );
  });

  it('says nothing when everything fitted; the default budget is 256 MiB', () => {
    const kept = new KeptTraffic();
    for (let i = 0; i < 1000; i++) kept.add(exchange(i, 0, 1024));
    expect(kept.exchanges.every((e) => e.response?.bodyState === 'captured')).toBe(true);
    expect(kept.note()).toBeUndefined();
    expect(SESSION_BODY_BUDGET_BYTES).toBe(256 * 1024 * 1024);
  });
});
