// The build's standalone validators (scripts/compile-schemas.mjs) must judge exactly as ajv compiling the schema at run
// time would, and be current: `npm test` builds first, so a compiled module that is missing or stale here is a bug.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { compiledSchemaPath, schemaDigest, schemaValidator } from '../../src/schemas.js';
import { compileValidators, schemaSource } from '../../src/schema-compile.js';

const require = createRequire(import.meta.url);
const names = readdirSync(new URL('../../schemas/', import.meta.url))
  .filter((f) => f.endsWith('.schema.json'))
  .map((f) => f.slice(0, -'.schema.json'.length));

describe('compiled schemas', () => {
  it('exist for every schema and record the digest of the schema as it is now', () => {
    expect(names.length).toBeGreaterThanOrEqual(15);
    for (const name of names) {
      const built = require(compiledSchemaPath(name)) as { default: unknown; sourceDigest: string };
      expect(typeof built.default, name).toBe('function');
      expect(built.sourceDigest, name).toBe(schemaDigest(schemaSource(name)));
    }
  });

  it('are what schemaValidator hands out, not a run-time compilation', () => {
    for (const name of names)
      expect(schemaValidator(name), name).toBe((require(compiledSchemaPath(name)) as { default: unknown }).default);
    expect(schemaValidator('config', 'target')).toBe(
      (require(compiledSchemaPath('config')) as { target: unknown }).target,
    );
  });

  it('give the same verdict and the same errors as ajv compiling at run time, formats and verbose errors included', () => {
    const config = JSON.parse(readFileSync(new URL('../../fixtures/example.config.json', import.meta.url), 'utf8')) as {
      targets: Record<string, Record<string, unknown>>;
    };
    const target = Object.values(config.targets)[0]!;
    const cases: Array<[string, string, unknown]> = [
      ['config', 'default', config],
      ['config', 'default', { targets: { s: { ...target, baseUrl: 'ftp://x', concurrency: 0, extra: 1 } } }],
      ['config', 'target', { ...target, fixtures: { customerId: 'abc' } }],
      ['expected-failures', 'default', { expectedFailures: [{ id: 'auth.x', reason: '', expires: 'soon' }] }],
      ['customer', 'default', { customerId: 1, firstName: 'A', createdAt: 'not a date', status: 'ACTIVE' }],
      [
        'webhook',
        'default',
        {
          webhookId: 'w1',
          url: 'https://hooks.example.com/x',
          subscriptions: ['ALL'],
          status: 'ACTIVE',
          createdAt: 1795428000,
          updatedAt: 1795428000,
        },
      ],
      [
        'report',
        'default',
        {
          format: 'conformance-report',
          formatVersion: 1,
          run: {},
          totals: {},
          checks: [],
          sessionExchanges: [],
          exitCode: 2,
        },
      ],
    ];
    for (const [name, fragment, doc] of cases) {
      const built = schemaValidator(name, fragment);
      const fresh = compileValidators(name)[fragment]!;
      const verdict = built(doc);
      expect(verdict, `${name}#${fragment}`).toBe(fresh(doc));
      expect(JSON.parse(JSON.stringify(built.errors ?? null)), `${name}#${fragment}`).toEqual(
        JSON.parse(JSON.stringify(fresh.errors ?? null)),
      );
    }
    // The cases must exercise both outcomes, or the comparison proves little.
    expect(cases.map(([n, f, d]) => schemaValidator(n, f)(d))).toEqual([true, false, false, false, false, true, false]);
  });
});
