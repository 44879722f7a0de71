// A webhook delivery in a run's HAR (src/traffic/delivery.ts): recorded with its body whole and its Signature as it
// came, the rest redacted; written after the run's exchanges, marked `_delivery`; read back apart from them.
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/http/redact.js';
import { harText, toHar } from '../../src/report/har.js';
import { recordedDelivery } from '../../src/traffic/delivery.js';
import type { TrafficExchange } from '../../src/traffic/exchange.js';
import { readHar } from '../../src/traffic/har.js';
import { sampleRunResult } from '../helpers/run-result.js';

const SIGNATURE = `sig1=:${'A'.repeat(86)}==:`;
const body = (text: string) => new TextEncoder().encode(text);

function delivery(index: number, payload: Uint8Array): TrafficExchange {
  return {
    index,
    startedAt: '2026-01-12T09:30:05.000Z',
    request: {
      method: 'POST',
      url: 'https://127.0.0.1:4443/conformance/webhook?conformance-url=2',
      headers: [
        ['Content-Type', 'application/json'],
        ['Signature-Input', 'sig1=("@method" "content-digest");created=1768210205'],
        ['Signature', SIGNATURE],
        ['X-Echo', 'the-secret-value'],
      ],
      body: payload,
      bodyState: 'captured',
    },
    response: { status: 200, headers: [['content-type', 'text/plain']], body: body('ok'), bodyState: 'captured' },
  };
}

describe('a delivery in the HAR', () => {
  const redactor = new Redactor(['the-secret-value']);
  const long = `{"event":"TEST","pad":"${'x'.repeat(5000)}"}`;
  const recorded = [delivery(0, body(long)), delivery(1, new Uint8Array([0x7b, 0xff, 0x7d]))].map((t) =>
    recordedDelivery(t, redactor),
  );

  it('is recorded with its body whole and its Signature as sent; a secret elsewhere is masked', () => {
    const [whole, binary] = recorded;
    expect(whole).toMatchObject({ seq: 1, checkId: 'delivery', startedAt: '2026-01-12T09:30:05.000Z' });
    expect(whole!.request.bodyExcerpt).toBe(long);
    expect(whole!.request.bodyTruncated).toBeUndefined();
    expect(whole!.request.headers).toContainEqual(['Signature', SIGNATURE]);
    expect(whole!.request.headers).toContainEqual(['X-Echo', '[redacted]']);
    expect(whole!.response).toMatchObject({ status: 200, bodyExcerpt: 'ok' });
    // A secret of the run a hostile server echoed into the Signature stays masked: only the server's bytes are kept.
    const echoed = delivery(2, body('{}'));
    echoed.request.headers = echoed.request.headers.map(([n, v]) =>
      n === 'Signature' ? [n, `sig1=:the-secret-value:`] : [n, v],
    );
    expect(recordedDelivery(echoed, redactor).request.headers).toContainEqual(['Signature', 'sig1=:[redacted]:']);
    // Bytes that are not UTF-8 cannot be HAR text: no body is written, its size is.
    expect(binary!.request).toMatchObject({ bodySize: 3 });
    expect(binary!.request.bodyExcerpt).toBeUndefined();
  });

  it('is written after the run’s exchanges, marked, and read back apart from them', () => {
    const base = sampleRunResult();
    const result = { ...base, deliveries: recorded };
    const entries = toHar(result).log.entries;
    const own = toHar(base).log.entries;
    expect(entries.slice(0, own.length)).toEqual(own);
    expect(entries.slice(own.length).map((e) => [e._delivery, e._checkId, e._seq])).toEqual([
      [1, undefined, undefined],
      [2, undefined, undefined],
    ]);
    const read = readHar(harText(result));
    expect(read.exchanges).toEqual(readHar(harText(base)).exchanges);
    expect(read.deliveries.map((d) => [d.index, d.request.url, d.request.bodyState, d.response?.status])).toEqual([
      [own.length, 'https://127.0.0.1:4443/conformance/webhook?conformance-url=2', 'captured', 200],
      [own.length + 1, 'https://127.0.0.1:4443/conformance/webhook?conformance-url=2', 'not-captured', 200],
    ]);
    expect(new TextDecoder().decode(read.deliveries[0]!.request.body)).toBe(long);
    expect(read.deliveries[0]!.request.headers).toContainEqual(['Signature', SIGNATURE]);
    expect(read.deliveries[0]!.redacted).toEqual({ request: ['x-echo'] });
    // The run's own receiver answered them (200 before verifying): read as its answers, not a client receiver's.
    expect(read.deliveries.map((d) => d.answeredByRun)).toEqual([true, true]);
    expect(read.exchanges.some((e) => e.answeredByRun !== undefined)).toBe(false);
  });

  it('a HAR without marked entries has none', () => {
    expect(readHar(harText(sampleRunResult())).deliveries).toEqual([]);
  });
});
