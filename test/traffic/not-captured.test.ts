// Traffic whose bodies were not captured (a HAR saved without content, a proxy session past its budget) recorded for
// the reports, and read back from the HAR they write: never taken for empty bodies, which a judge would then fail.
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/engine/index.js';
import { Redactor } from '../../src/http/redact.js';
import { toHar, harText } from '../../src/report/har.js';
import { bodyLines } from '../../src/report/exchange-text.js';
import type { TrafficExchange } from '../../src/traffic/exchange.js';
import { readHar } from '../../src/traffic/har.js';
import { NOT_CAPTURED_NOTE } from '../../src/traffic/har-body.js';
import { recordedExchange } from '../../src/traffic/responses.js';
import { recordedDelivery } from '../../src/traffic/delivery.js';

const none = new Uint8Array(0);
const traffic = (declared?: string): TrafficExchange => ({
  index: 0,
  startedAt: '2026-11-29T10:00:00.000Z',
  durationMs: 3,
  request: {
    method: 'POST',
    url: 'https://staging.example/v1/customers',
    headers: [
      ['content-type', 'application/json'],
      ...(declared ? [['content-length', '40'] as [string, string]] : []),
    ],
    body: none,
    bodyState: 'not-captured',
  },
  response: {
    status: 200,
    headers: [
      ['content-type', 'application/json'],
      ...(declared ? [['content-length', declared] as [string, string]] : []),
    ],
    body: none,
    bodyState: 'not-captured',
  },
});

function harOf(t: TrafficExchange, asDelivery = false) {
  const exchange = asDelivery ? recordedDelivery(t, new Redactor()) : recordedExchange(t, new Redactor());
  const result = {
    run: {
      target: 't',
      baseUrl: 'https://staging.example/v1',
      specVersion: '1',
      suiteVersion: '0',
      startedAt: t.startedAt,
    },
    sessionExchanges: asDelivery ? [] : [exchange],
    ...(asDelivery ? { deliveries: [exchange] } : {}),
    checks: [],
  } as unknown as RunResult;
  return { exchange, har: toHar(result), text: harText(result) };
}

describe('observed bodies that were not captured', () => {
  it('are recorded as such, with the size the headers declared, and written with a note instead of a text', () => {
    const { exchange, har } = harOf(traffic('512'));
    expect(exchange.response).toMatchObject({ status: 200, bodySize: 512, bodyNotCaptured: true });
    expect(exchange.response!.bodyExcerpt).toBeUndefined();
    expect(exchange.request).toMatchObject({ bodySize: 40, bodyNotCaptured: true });
    const entry = har.log.entries[0]!;
    expect(entry.response.content).toEqual({ size: 512, mimeType: 'application/json', comment: NOT_CAPTURED_NOTE });
    expect(entry.request.postData).toEqual({ mimeType: 'application/json', text: '', comment: NOT_CAPTURED_NOTE });
    expect(bodyLines(exchange.response!)).toEqual(['(body not captured by the traffic)']);
  });

  it('read back from that HAR are not captured, not empty, whatever size was declared', () => {
    for (const declared of ['512', undefined]) {
      const [read] = readHar(harOf(traffic(declared)).text).exchanges;
      expect(read!.request.bodyState).toBe('not-captured');
      expect(read!.response!.bodyState).toBe('not-captured');
    }
  });

  it('in a webhook delivery of a judged HAR are written again as not captured, so its digest is never judged on nothing', () => {
    const { exchange, text } = harOf(traffic('512'), true);
    expect(exchange).toMatchObject({ checkId: 'delivery', request: { bodySize: 40, bodyNotCaptured: true } });
    const [read] = readHar(text).deliveries;
    expect(read!.request.bodyState).toBe('not-captured');
  });
});
