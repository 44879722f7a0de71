import { describe, expect, it } from 'vitest';
import { recordedExchange, type SeenExchange } from '../../src/client/record.js';
import { Redactor } from '../../src/http/redact.js';
import { WholeBodies, wholeBodyOf } from '../../src/http/whole-bodies.js';

const page = JSON.stringify({
  data: Array.from({ length: 80 }, (_, i) => ({ id: i, note: 'x'.repeat(60) })),
  meta: {},
});
const seen = (reply: string): SeenExchange => ({
  seq: 3,
  label: 'client:paging',
  startedAt: Date.UTC(2026, 10, 29),
  durationMs: 4,
  request: { method: 'GET', url: 'https://127.0.0.1:8443/v1/transactions', headers: [['x-client-id', 'c1']] },
  response: { status: 200, headers: [['content-type', 'application/json']], body: Buffer.from(reply) },
});

describe("a client run's exchange as its reports keep it", () => {
  it('keeps the excerpt in the record and, given where, a long answer whole beside it for the HAR', () => {
    const redactor = new Redactor(['client-secret-7']);
    const reply = page.replace('"meta":{}', '"meta":{},"echo":"client-secret-7"');
    const recorded = recordedExchange(seen(reply), redactor, new WholeBodies(redactor));
    expect(recorded).toMatchObject({
      seq: 3,
      checkId: 'client:paging',
      startedAt: '2026-11-29T00:00:00.000Z',
      request: { method: 'GET', headers: [['x-client-id', 'c1']], bodySize: 0 },
      response: { status: 200, bodySize: reply.length, bodyTruncated: true, bodyExcerpt: reply.slice(0, 4096) },
    });
    expect(wholeBodyOf(recorded.response!)).toBe(reply.replace('client-secret-7', '[redacted]'));
    expect(wholeBodyOf(recorded.request)).toBeUndefined();
  });

  it('keeps nothing whole without a place for it, nor for a short answer', () => {
    const redactor = new Redactor();
    expect(wholeBodyOf(recordedExchange(seen(page), redactor).response!)).toBeUndefined();
    const short = recordedExchange(seen('{"data":[]}'), redactor, new WholeBodies(redactor));
    expect(short.response).toMatchObject({ bodyExcerpt: '{"data":[]}', bodySize: 11 });
    expect(short.response!.bodyTruncated).toBeUndefined();
    expect(wholeBodyOf(short.response!)).toBeUndefined();
  });
});
