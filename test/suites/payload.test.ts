// What the webhook checks read in a delivery's payload (src/receiver/payload.ts): any shape a server may choose.
import { describe, expect, it } from 'vitest';
import { containsValue, eventNameOf, valuesNamed } from '../../src/receiver/payload.js';

describe('webhook payload helpers', () => {
  it('finds the token ids a payload names, at any depth and in arrays, and none in one that names none', () => {
    const payload = {
      event: 'AUTH.CREATED',
      data: { token: { tokenId: 'a1' }, related: [{ tokenId: 7 }, { tokenId: { nested: true } }] },
    };
    expect(valuesNamed(payload, 'tokenId').sort()).toEqual(['7', 'a1']);
    expect(valuesNamed({ event: 'WEBHOOK.UPDATED', data: { url: 'https://x' } }, 'tokenId')).toEqual([]);
    expect(valuesNamed('not an object', 'tokenId')).toEqual([]);
  });

  it('stops walking a payload too large to search whole, instead of hanging', () => {
    // Members are searched from the end: the first of 20,000 items is past the node budget.
    const wide = { data: [{ tokenId: 'first' }, ...Array.from({ length: 20_000 }, (_, i) => ({ id: i }))] };
    expect(valuesNamed(wide, 'tokenId')).toEqual([]);
    expect(containsValue(wide, 'first')).toBe(false);
    expect(valuesNamed({ data: [{ tokenId: 'first' }, { id: 1 }] }, 'tokenId')).toEqual(['first']);
  });

  it('names the event wherever the payload carries it', () => {
    expect(eventNameOf({ event: 'AUTH.DELETED' })?.name).toBe('AUTH.DELETED');
    expect(eventNameOf({ meta: { type: 'WEBHOOK.CREATED' } })?.name).toBe('WEBHOOK.CREATED');
  });
});
