// Validators of the JSON Schemas in schemas/ (draft 2020-12), shared by the checks, the config loader and the tests.
// Built ahead of time (dist/schemas/*.cjs, see src/schema-compile.ts) and compiled here only when those are missing
// or stale.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { fromPackageRoot } from './paths.js';
import { compileValidators, schemaSource } from './schema-compile.js';

const require = createRequire(import.meta.url);
const loaded = new Map<string, Record<string, ValidateFunction>>();
const documents = new Map<string, Record<string, unknown>>();

/** Where the build writes a schema's standalone validators. */
export function compiledSchemaPath(name: string): string {
  return fromPackageRoot('dist', 'schemas', `${name}.cjs`);
}

/** The digest a compiled module records of the schema it was built from. */
export function schemaDigest(source: string): string {
  return createHash('sha256').update(source).digest('hex');
}

function validators(name: string): Record<string, ValidateFunction> {
  let v = loaded.get(name);
  if (!v) {
    const source = schemaSource(name);
    const path = compiledSchemaPath(name);
    const built = existsSync(path)
      ? (require(path) as Record<string, ValidateFunction> & { sourceDigest?: string })
      : undefined;
    v = built && built.sourceDigest === schemaDigest(source) ? built : compileValidators(name, source);
    loaded.set(name, v);
  }
  return v;
}

/** The validator of `schemas/<name>.schema.json`, or of one of its named fragments (config: `target`). */
export function schemaValidator(name: string, fragment = 'default'): ValidateFunction {
  const v = validators(name)[fragment];
  if (!v) throw new Error(`schemas/${name}.schema.json has no compiled fragment "${fragment}"`);
  return v;
}

/** The schema itself, parsed. */
export function schemaDocument(name: string): Record<string, unknown> {
  let d = documents.get(name);
  if (!d) documents.set(name, (d = JSON.parse(schemaSource(name)) as Record<string, unknown>));
  return d;
}

export interface SchemaProblem {
  /** JSON path of the field, dotted (e.g. "data.status"). */
  path: string;
  message: string;
}

/** Validates a value; returns the problems, empty when valid. */
export function validateAgainst(name: string, value: unknown, rootPath = ''): SchemaProblem[] {
  const validate = schemaValidator(name);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => ({ path: joinPath(rootPath, e), message: describe(e) }));
}

function joinPath(root: string, e: ErrorObject): string {
  const parts = e.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'required') parts.push(String((e.params as { missingProperty: string }).missingProperty));
  const path = parts.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('');
  return `${root}${path}`.replace(/^\./, '') || '(root)';
}

function describe(e: ErrorObject): string {
  switch (e.keyword) {
    case 'required':
      return 'is missing';
    case 'enum':
      return `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'type':
      return `must be ${(e.params as { type: string }).type}`;
    default:
      return e.message ?? e.keyword;
  }
}
