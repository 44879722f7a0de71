// Validators of the JSON Schemas in schemas/ (draft 2020-12), shared by the checks, the config loader and the tests.
// Built ahead of time (dist/schemas/*.cjs, see src/schema-compile.ts) and compiled here only when those are missing
// or stale.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { fromPackageRoot } from './paths.js';
import { sha256Hex } from './hash.js';
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
  return sha256Hex(source);
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
  return schemaProblems(validate.errors ?? [], value, rootPath);
}

/** ajv's errors of `value` as problems: the path of each, dotted under `rootPath`, and what is wrong in the spec's words. */
export function schemaProblems(errors: readonly ErrorObject[], value: unknown, rootPath = ''): SchemaProblem[] {
  return errors.map((e) => ({ path: joinPath(rootPath, e), message: describe(e, value) }));
}

function pointerParts(e: ErrorObject): string[] {
  return e.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function joinPath(root: string, e: ErrorObject): string {
  const parts = pointerParts(e);
  if (e.keyword === 'required') parts.push(String((e.params as { missingProperty: string }).missingProperty));
  const path = parts.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('');
  return `${root}${path}`.replace(/^\./, '') || '(root)';
}

/** The value the error is about: the member its instance path names in the validated value. */
function valueAt(root: unknown, e: ErrorObject): unknown {
  let at = root;
  for (const part of pointerParts(e)) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/** How much of a string a message quotes. */
const QUOTE_LIMIT = 60;

/** A value as a message shows it: JSON, a long string cut. */
function shown(value: unknown): string {
  if (typeof value === 'string' && value.length > QUOTE_LIMIT) return `${JSON.stringify(value.slice(0, QUOTE_LIMIT))}…`;
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (typeof value === 'object' && value !== null) return 'an object';
  return JSON.stringify(value) ?? String(value);
}

/** What was found, named by its JSON type: `a string "…"`, `the number 1.5`, `null`, `an array of 2 items`. */
function found(value: unknown): string {
  if (typeof value === 'string') return `a string ${shown(value)}`;
  if (typeof value === 'number') return `the number ${shown(value)}`;
  if (typeof value === 'boolean') return `the boolean ${String(value)}`;
  return shown(value);
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

const COMPARISONS: Record<string, string> = { '>=': 'at least', '<=': 'at most', '>': 'more than', '<': 'less than' };

const FORMATS: Record<string, string> = {
  'date-time': 'a date-time (RFC 3339, e.g. "2024-01-31T12:00:00Z")',
  date: 'a date (YYYY-MM-DD)',
  time: 'a time (RFC 3339)',
  uri: 'an absolute URI',
  email: 'an email address',
  uuid: 'a UUID',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
};

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * A problem in the spec's words, read after its path ("data.tokenType is "bearer", the spec's table says "Bearer""),
 * with the value found. Problems are listed with "; " between them, so none of these uses one.
 */
function describe(e: ErrorObject, root: unknown): string {
  const value = valueAt(root, e);
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return "is missing, a field the spec's table requires";
    case 'const':
      return `is ${shown(value)}, the spec's table says ${shown(params.allowedValue)}`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, got ${shown(value)}`;
    case 'type':
      return `must be ${String(params.type)
        .split(',')
        .map((t) => TYPE_WORDS[t] ?? t)
        .join(' or ')}, got ${found(value)}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${COMPARISONS[String(params.comparison)] ?? params.comparison} ${String(params.limit)}, got ${shown(value)}`;
    case 'minLength':
      return params.limit === 1
        ? 'must not be empty, got ""'
        : `must be at least ${plural(Number(params.limit), 'character')} long, got ${shown(value)}`;
    case 'maxLength':
      return `must be at most ${plural(Number(params.limit), 'character')} long, got ${plural(String(value).length, 'character')}`;
    case 'minItems':
      return `must have at least ${plural(Number(params.limit), 'item')}, got ${Array.isArray(value) ? value.length : 0}`;
    case 'maxItems':
      return `must have at most ${plural(Number(params.limit), 'item')}, got ${Array.isArray(value) ? value.length : 0}`;
    case 'format':
      return `must be ${FORMATS[String(params.format)] ?? `of the format "${String(params.format)}"`}, got ${shown(value)}`;
    case 'pattern':
      return `must match the pattern ${String(params.pattern)}, got ${shown(value)}`;
    case 'additionalProperties':
      return `has a field the spec's table does not list: ${JSON.stringify(params.additionalProperty)}`;
    case 'unevaluatedProperties':
      return `has a field the spec's table does not list: ${JSON.stringify(params.unevaluatedProperty)}`;
    default:
      return `${e.message ?? e.keyword}, got ${shown(value)}`;
  }
}
