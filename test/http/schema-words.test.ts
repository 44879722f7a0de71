// A schema finding reads in the spec's words, with the value the server sent: "data.tokenType is "bearer", the spec's
// table says "Bearer"", never ajv's "must be equal to constant". The path stays the field's, dotted, as the checks'
// one-cause-one-failure grouping reads it (suites/kit/expect.ts fieldOf).
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { schemaProblems, validateAgainst } from '../../src/schemas.js';

// ajv-formats is CommonJS: its default export arrives wrapped under NodeNext resolution.
const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => Ajv2020;

/** The problems of `value` under `schema`, compiled as the project's response schemas are (all errors, formats). */
function problems(schema: object, value: unknown, root = 'data'): string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  expect(validate(value)).toBe(false);
  return schemaProblems(validate.errors ?? [], value, root).map((p) => `${p.path} ${p.message}`);
}

describe('schema problems in the words of the spec', () => {
  it('const: the value found and the one the table says', () => {
    const record = validateAgainst('token-record', { tokenType: 'bearer' }, 'data');
    expect(record.find((p) => p.path === 'data.tokenType')).toEqual({
      path: 'data.tokenType',
      message: 'is "bearer", the spec\'s table says "Bearer"',
    });
  });

  it('enum: the values allowed and the one found', () => {
    expect(validateAgainst('customer', { status: 'DEACTIVED' }, 'data')).toEqual([
      { path: 'data.status', message: 'must be one of "ACTIVE", "SUSPENDED", "CLOSED", got "DEACTIVED"' },
    ]);
  });

  it('type: the type wanted, and what was found named by its type', () => {
    expect(
      validateAgainst('customer', { customerId: 1.5, createdAt: '2024-01-31', updatedAt: null, referenceId: [1, 2] }),
    ).toEqual([
      { path: 'customerId', message: 'must be an integer, got the number 1.5' },
      { path: 'referenceId', message: 'must be an integer or null, got an array of 2 items' },
      { path: 'createdAt', message: 'must be an integer, got a string "2024-01-31"' },
      { path: 'updatedAt', message: 'must be an integer, got null' },
    ]);
    expect(problems({ properties: { a: { type: 'object' }, b: { type: 'string' } } }, { a: true, b: {} })).toEqual([
      'data.a must be an object, got the boolean true',
      'data.b must be a string, got an object',
    ]);
  });

  it('required: the missing field is named by its path', () => {
    const record = validateAgainst('token-record', {}, 'data');
    expect(record).toContainEqual({ path: 'data.message', message: "is missing, a field the spec's table requires" });
  });

  it('minimum and maximum: the bound in words and the value found', () => {
    expect(validateAgainst('paging-meta', { limit: 0, currentPage: -1 }, 'meta')).toEqual(
      expect.arrayContaining([
        { path: 'meta.limit', message: 'must be at least 1, got 0' },
        { path: 'meta.currentPage', message: 'must be at least 0, got -1' },
      ]),
    );
    expect(validateAgainst('paging-meta', { limit: 5000 }, 'meta')).toContainEqual({
      path: 'meta.limit',
      message: 'must be at most 1000, got 5000',
    });
    expect(
      problems({ properties: { a: { exclusiveMinimum: 0 }, b: { exclusiveMaximum: 10 } } }, { a: 0, b: 10 }),
    ).toEqual(['data.a must be more than 0, got 0', 'data.b must be less than 10, got 10']);
  });

  it('format and pattern: what the value should look like, and what it is', () => {
    const hook = validateAgainst('webhook', { url: 'not a url' }, 'data');
    expect(hook).toContainEqual({ path: 'data.url', message: 'must be an absolute URI, got "not a url"' });
    expect(hook).toContainEqual({
      path: 'data.url',
      message: 'must match the pattern ^[Hh][Tt][Tt][Pp][Ss]://, got "not a url"',
    });
    expect(problems({ properties: { at: { format: 'date-time' } } }, { at: 'yesterday' })).toEqual([
      'data.at must be a date-time (RFC 3339, e.g. "2024-01-31T12:00:00Z"), got "yesterday"',
    ]);
  });

  it('minLength and maxLength: an empty string is called empty; a long one is counted, not quoted whole', () => {
    expect(validateAgainst('token-record', { token: '' }, 'data')).toContainEqual({
      path: 'data.token',
      message: 'must not be empty, got ""',
    });
    expect(
      problems({ properties: { a: { minLength: 3 }, b: { maxLength: 4 } } }, { a: 'ab', b: 'x'.repeat(200) }),
    ).toEqual([
      'data.a must be at least 3 characters long, got "ab"',
      'data.b must be at most 4 characters long, got 200 characters',
    ]);
  });

  it('minItems and maxItems: the count wanted and the count found', () => {
    expect(problems({ properties: { a: { minItems: 1 }, b: { maxItems: 1 } } }, { a: [], b: [1, 2, 3] })).toEqual([
      'data.a must have at least 1 item, got 0',
      'data.b must have at most 1 item, got 3',
    ]);
  });

  it('additionalProperties and unevaluatedProperties: the field the table does not list, at the path of its object', () => {
    expect(problems({ properties: { a: {} }, additionalProperties: false }, { a: 1, extra: 2 })).toEqual([
      'data has a field the spec\'s table does not list: "extra"',
    ]);
    expect(problems({ properties: { a: {} }, unevaluatedProperties: false }, { a: 1, more: 2 })).toEqual([
      'data has a field the spec\'s table does not list: "more"',
    ]);
  });

  it("a long string found is cut, and a keyword without words of its own keeps ajv's with the value found", () => {
    expect(problems({ properties: { a: { enum: ['x'] } } }, { a: 'y'.repeat(100) })).toEqual([
      `data.a must be one of "x", got "${'y'.repeat(60)}"…`,
    ]);
    expect(problems({ properties: { a: { multipleOf: 5 } } }, { a: 7 })).toEqual([
      'data.a must be multiple of 5, got 7',
    ]);
  });

  it('no problem uses "; ", which separates the problems of one finding', () => {
    const all = validateAgainst('token-record', { tokenType: 'x', token: '', createdAt: 'a;b' }, 'data');
    for (const p of all) expect(p.message).not.toContain('; ');
  });
});
