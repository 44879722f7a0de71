// parseJson keeps what JSON.parse gives and, beside it, the exact literal of every integer a double cannot hold, so
// ids beyond 2^53 are reported and compared exactly.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  canonicalInteger,
  exactNumber,
  idKey,
  isUnsafeNumber,
  MAX_JSON_DEPTH,
  parseJson,
} from '../../src/http/json.js';
import { validateAgainst } from '../../src/schemas.js';

function parsed(text: string) {
  const r = parseJson(text);
  if (!r.ok) throw new Error(r.error);
  return r;
}

describe('parseJson', () => {
  it('keeps its contract: ok with the value, or an error for an empty or invalid body', () => {
    expect(parseJson('{"a":1}')).toEqual({ ok: true, value: { a: 1 }, unsafeNumbers: [] });
    expect(parseJson('  ')).toEqual({ ok: false, error: 'the body is empty' });
    const bad = parseJson('{"a":');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/^the body is not JSON \(/);
  });

  it('reports integers beyond 2^53 − 1 with their path and exact literal', () => {
    const r = parsed(
      '{"data":[{"transactionId":9007199254740993,"amount":25.5},{"transactionId":42}],"meta":{"totalCount":-9007199254740993}}',
    );
    expect(r.unsafeNumbers).toEqual([
      { path: 'data[0].transactionId', text: '9007199254740993', parsed: 9007199254740992 },
      { path: 'meta.totalCount', text: '-9007199254740993', parsed: -9007199254740992 },
    ]);
  });

  it('does not flag the largest safe integer, 16-digit safe ids, decimals or digits inside strings', () => {
    const r = parsed(
      '{"a":9007199254740991,"b":-9007199254740991,"c":1234567890123456,"d":0.12345678901234567890,"e":"90071992547409931234","f":1.5e3}',
    );
    expect(r.unsafeNumbers).toEqual([]);
  });

  it('flags integers written with an exponent or a fraction of zeros, and numbers beyond the double range', () => {
    const r = parsed('[1e20, 9007199254740993.0, 1e400, 2.5]');
    expect(r.unsafeNumbers.map((u) => u.path)).toEqual(['[0]', '[1]', '[2]']);
  });

  it('compares two ids exactly where JSON.parse makes them equal', () => {
    const { value } = parsed('{"data":[{"id":9007199254740992},{"id":9007199254740993}]}') as {
      value: { data: Array<{ id: number }> };
    };
    const [a, b] = value.data;
    expect(a!.id).toBe(b!.id);
    expect(idKey(a, 'id')).toBe('9007199254740992');
    expect(idKey(b, 'id')).toBe('9007199254740993');
    expect(isUnsafeNumber(b, 'id')).toBe(true);
    expect(exactNumber(b, 'id')).toBe('9007199254740993');
  });

  it('gives ids keys that tell numbers from strings and read safe numbers canonically', () => {
    const { value } = parsed('{"n":7,"s":"7","f":1.5,"big":1.0E17,"neg":-0,"o":{}}');
    expect(idKey(value, 'n')).toBe('7');
    expect(idKey(value, 's')).toBe('"7"');
    expect(idKey(value, 'f')).toBe('1.5');
    expect(idKey(value, 'big')).toBe('100000000000000000');
    expect(idKey(value, 'neg')).toBe('0');
    expect(idKey(value, 'o')).toBeUndefined();
    expect(idKey(value, 'missing')).toBeUndefined();
  });

  it('keeps the exact literal in arrays, nested objects and under member names that need escaping', () => {
    const { value, unsafeNumbers } = parsed(
      '{"a b":{"ids":[1,18446744073709551615]},"q\\"x":[[12345678901234567890]]}',
    );
    const v = value as Record<string, any>;
    expect(idKey(v['a b'].ids, 1)).toBe('18446744073709551615');
    expect(idKey(v['q"x'][0], 0)).toBe('12345678901234567890');
    expect(unsafeNumbers.map((u) => u.path)).toEqual(['["a b"].ids[1]', '["q\\"x"][0][0]']);
  });

  it('reports a bare number, and registers only the value a repeated member keeps', () => {
    expect(parsed('12345678901234567890').unsafeNumbers).toEqual([
      { path: '(root)', text: '12345678901234567890', parsed: 12345678901234567000 },
    ]);
    const r = parsed('{"id":12345678901234567890,"id":5}');
    expect(r.unsafeNumbers).toEqual([]);
    expect(idKey(r.value, 'id')).toBe('5');
  });

  it('still validates against the schemas: an unsafe id is an integer to ajv, as it is to the spec', () => {
    const { value } = parsed(
      '{"transactionId":9007199254740993,"assetId":1,"customerId":2,"amount":3,"currency":"USD","requestType":"BUY","status":"X","createdAt":1,"updatedAt":1}',
    );
    expect(validateAgainst('transaction', value)).toEqual([]);
  });

  it('refuses nesting deeper than its guard at once, finds numbers up to it, and survives large bodies', () => {
    // A hostile body nested 200,000 deep would overflow whatever walks the value later (schemas, reports).
    const hostile = `${'['.repeat(200_000)}1${']'.repeat(200_000)}`;
    // At once: it stopped reading at the offset it names, not after the 400,000 bytes.
    expect(parseJson(hostile)).toEqual({
      ok: false,
      error: `the body is not usable JSON: nesting deeper than ${MAX_JSON_DEPTH} levels (at offset ${MAX_JSON_DEPTH})`,
    });
    // Brackets inside strings are text, not nesting.
    expect(parseJson(JSON.stringify({ s: '['.repeat(10_000) })).ok).toBe(true);
    const deep = `${'['.repeat(MAX_JSON_DEPTH)}12345678901234567890${']'.repeat(MAX_JSON_DEPTH)}`;
    const r = parseJson(deep);
    expect(r.ok).toBe(true);
    expect(r.ok && r.unsafeNumbers[0]!.text).toBe('12345678901234567890');
    const big = JSON.stringify({
      data: Array.from({ length: 20_000 }, (_, i) => ({ id: 9_007_199_254_740_000 + i * 7, name: `item ${i} e5` })),
    });
    const many = parsed(big);
    expect(many.unsafeNumbers.length).toBeGreaterThan(0);
  });
});

describe('canonicalInteger', () => {
  it('expands integer literals exactly and refuses fractions', () => {
    expect(canonicalInteger('1.5e3')).toBe('1500');
    expect(canonicalInteger('-0')).toBe('0');
    expect(canonicalInteger('120e-1')).toBe('12');
    expect(canonicalInteger('1.25e1')).toBeUndefined();
    expect(canonicalInteger('0.5')).toBeUndefined();
    expect(canonicalInteger('1e999999')).toBeUndefined();
    expect(canonicalInteger('abc')).toBeUndefined();
  });
});

describe('list-envelope.schema.json', () => {
  it('carries the same paging meta as paging-meta.schema.json', () => {
    const read = (name: string) =>
      JSON.parse(readFileSync(new URL(`../../schemas/${name}.schema.json`, import.meta.url), 'utf8')) as Record<
        string,
        any
      >;
    const meta = read('paging-meta');
    const copy = read('list-envelope').$defs.pagingMeta;
    expect(copy).toEqual({ type: meta.type, required: meta.required, properties: meta.properties });
  });
});
