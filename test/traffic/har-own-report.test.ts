// Our own `conformance run --har` report read back, from a real run of the auth suite against the reference server:
// what went is known exactly (the run's recorded exchanges), so each TrafficExchange is compared with it.
import { describe, expect, it } from 'vitest';
import { suites } from '../../suites/index.js';
import type { Exchange } from '../../src/http/exchange.js';
import { wholeBodyOf } from '../../src/http/whole-bodies.js';
import { harText, toHar } from '../../src/report/har.js';
import { readHar } from '../../src/traffic/har.js';
import { trafficLimits } from '../../src/traffic/limits.js';
import { runSuites } from '../helpers/suite-runs.js';

describe("readHar: a real run's --har report (auth suite, reference server)", async () => {
  const result = await runSuites(suites.filter((s) => s.name === 'auth'));
  const entries = toHar(result).log.entries;
  const recorded = new Map<number, Exchange>(
    [...result.sessionExchanges, ...result.checks.flatMap((c) => c.exchanges)].map((e) => [e.seq, e]),
  );
  const { exchanges, skipped, creator } = readHar(harText(result));
  const sent = (index: number): Exchange => recorded.get(entries[index]!._seq!)!;

  it('reads every entry, in file order, as the conformance creator', () => {
    expect(creator).toBe('conformance');
    expect(skipped).toEqual({});
    expect(exchanges.map((e) => e.index)).toEqual(entries.map((_, i) => i));
    expect(exchanges.length).toBeGreaterThan(20);
  });

  it('keeps the method, URL, status and every header in the order recorded', () => {
    for (const e of exchanges) {
      const x = sent(e.index);
      expect([e.request.method, e.request.url, e.request.headers]).toEqual([
        x.request.method,
        x.request.url,
        x.request.headers,
      ]);
      expect(e.response?.status).toBe(x.response?.status);
      expect(e.response?.headers).toEqual(x.response?.headers);
    }
  });

  it('names exactly the fields the report masked, lower-case, per side', () => {
    for (const e of exchanges) {
      const masked = (headers: Array<[string, string]> = []) =>
        headers.filter(([, v]) => v.includes('[redacted]')).map(([n]) => n.toLowerCase());
      const request = masked(sent(e.index).request.headers);
      const response = masked(sent(e.index).response?.headers);
      expect(e.redacted?.request ?? []).toEqual([...new Set(request)]);
      expect(e.redacted?.response ?? []).toEqual([...new Set(response)]);
    }
    expect(exchanges.filter((e) => e.redacted?.request?.includes('authorization')).length).toBeGreaterThan(10);
  });

  it('takes a request body as captured only when the report kept it whole (the HAR keeps long ones so) and unmasked, byte for byte', () => {
    for (const e of exchanges) {
      const x = sent(e.index).request;
      const kept = wholeBodyOf(x) ?? (x.bodyTruncated ? undefined : x.bodyExcerpt);
      const whole = kept !== undefined && !kept.includes('[redacted]');
      if (e.request.bodyState === 'captured') {
        expect(whole).toBe(true);
        expect(Buffer.from(e.request.body).toString('utf8')).toBe(kept);
      } else if (x.bodyExcerpt !== undefined && (kept === undefined || kept.includes('[redacted]'))) {
        expect(e.request).toMatchObject({ bodyState: 'not-captured', body: new Uint8Array(0) });
      }
    }
  });

  it('takes a response body as the report kept it, a masked value and all, unless the report kept only its start', () => {
    const answered = exchanges.flatMap((e) => (e.response ? [[e.response, sent(e.index).response!] as const] : []));
    for (const [message, x] of answered) {
      const kept = wholeBodyOf(x) ?? (x.bodyTruncated ? undefined : x.bodyExcerpt);
      if (x.bodyExcerpt === undefined) continue;
      if (kept === undefined) expect(message).toMatchObject({ bodyState: 'not-captured', body: new Uint8Array(0) });
      else expect(Buffer.from(message.body).toString('utf8')).toBe(kept);
    }
    // The token answers are read, their token masked and every other member as the server sent it.
    const tokens = answered.filter(([m, x]) => m.status === 200 && x.bodyExcerpt?.includes('"token":"[redacted]"'));
    expect(tokens.length).toBeGreaterThan(5);
    expect(tokens.every(([m]) => m.bodyState === 'captured')).toBe(true);
  });

  it("says the masked Authorization and Signature cannot be judged, as a conformance report's HAR", () => {
    expect(trafficLimits(exchanges).request.join('\n')).toMatch(
      /^the Authorization and Signature values are redacted \(a conformance report's HAR: .*\): request tokens cannot be checked, signatures cannot be verified$/m,
    );
  });
});
