import { describe, expect, it } from 'vitest';
import type { TrafficExchange } from '../../src/traffic/exchange.js';
import { leftOutLine, toTarget } from '../../src/traffic/scope.js';

const at = (url: string, index: number): TrafficExchange => ({
  index,
  request: { method: 'GET', url, headers: [], body: new Uint8Array(0), bodyState: 'empty' },
});

describe('toTarget', () => {
  const base = new URL('https://api.example/v1');
  const urls = [
    'https://api.example/v1', // the base itself
    'https://API.example:443/v1/orders?x=1', // same origin, written otherwise
    'https://api.example/v1/', // trailing slash
    'https://api.example/v10/orders', // a sibling path, not under /v1
    'https://api.example/health', // outside the base path
    'http://api.example/v1/orders', // another scheme
    'https://api.example:8443/v1/orders', // another port
    'https://cdn.other.example/v1/lib.js', // another host
  ];
  const scoped = toTarget(
    urls.map((u, i) => at(u, i)),
    base,
  );

  it('keeps the base origin under the base path, in order, never a sibling path', () => {
    expect(scoped.exchanges.map((e) => e.index)).toEqual([0, 1, 2]);
    expect(scoped).toMatchObject({ otherOrigin: 3, outsideBasePath: 2 });
  });

  it('says what was left out in one line', () => {
    expect(leftOutLine(scoped, base)).toBe('3 entries to other hosts and 2 entries outside /v1 left out');
  });

  it('says when nothing is left, pointing at the base URL', () => {
    const none = toTarget([at('https://other.example/a', 0)], base);
    expect(leftOutLine(none, base)).toBe(
      '1 entry to other hosts left out: none is for https://api.example/v1; check the base URL',
    );
  });

  it('keeps every path of the origin for a base URL at the root, and says nothing when nothing is left out', () => {
    const root = new URL('https://api.example/');
    const kept = toTarget([at('https://api.example/a', 0), at('https://api.example/', 1)], root);
    expect(kept.exchanges).toHaveLength(2);
    expect(leftOutLine(kept, root)).toBeUndefined();
  });

  it('counts a URL that is not absolute as another host, never throws', () => {
    expect(toTarget([at('/v1/orders', 0)], base)).toMatchObject({ exchanges: [], otherOrigin: 1 });
  });
});
