import { describe, expect, it } from 'vitest';
import { EXCERPT_BYTES, recordMessage } from '../../src/http/exchange.js';
import { Redactor } from '../../src/http/redact.js';
import { WholeBodies, wholeBodyOf } from '../../src/http/whole-bodies.js';

const bytes = (text: string) => new TextEncoder().encode(text);

function recorded(redactor: Redactor, body: Uint8Array) {
  return recordMessage(redactor, [['content-type', 'application/json']], body);
}

describe('bodies kept whole for the HAR', () => {
  it('keeps a body the excerpt cut, with the secrets of the run masked through the whole of it', () => {
    const redactor = new Redactor(['client-secret-value']);
    const text = JSON.stringify({ data: 'é'.repeat(EXCERPT_BYTES), note: 'client-secret-value', token: 'abc.def' });
    const body = bytes(text);
    const message = recorded(redactor, body);
    new WholeBodies(redactor).keep(message, body);
    expect(message.bodyTruncated).toBe(true);
    const whole = wholeBodyOf(message)!;
    expect(whole).toHaveLength(text.length - 'client-secret-value'.length - 'abc.def'.length + 2 * '[redacted]'.length);
    expect(whole).toContain('"note":"[redacted]","token":"[redacted]"');
    expect(whole.startsWith(`{"data":"${'é'.repeat(100)}`)).toBe(true);
  });

  it('keeps nothing beside a body the excerpt holds whole, nor beside one that is not UTF-8', () => {
    const redactor = new Redactor();
    const whole = new WholeBodies(redactor);
    const small = bytes('{"ok":true}');
    const binary = new Uint8Array(EXCERPT_BYTES + 10).fill(0xff);
    const [a, b] = [recorded(redactor, small), recorded(redactor, binary)];
    whole.keep(a, small);
    whole.keep(b, binary);
    expect([wholeBodyOf(a), wholeBodyOf(b)]).toEqual([undefined, undefined]);
  });

  it('keeps what fits its budget and no more: past it, a body is its excerpt', () => {
    const redactor = new Redactor();
    const whole = new WholeBodies(redactor, 3 * EXCERPT_BYTES);
    const body = bytes('x'.repeat(EXCERPT_BYTES + 1));
    const messages = [0, 1, 2].map(() => recorded(redactor, body));
    for (const m of messages) whole.keep(m, body);
    expect(messages.map((m) => wholeBodyOf(m)?.length)).toEqual([EXCERPT_BYTES + 1, EXCERPT_BYTES + 1, undefined]);
  });
});
