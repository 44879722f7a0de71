// JSON Schemas of schemas/ compiled once with ajv (draft 2020-12), shared by the checks and the tests.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { fromPackageRoot } from './paths.js';

// ajv-formats is CommonJS; its default export arrives as the module object under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

function instance(): Ajv2020 {
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
  }
  return ajv;
}

/** The compiled validator of `schemas/<name>.schema.json`. */
export function schemaValidator(name: string): ValidateFunction {
  let v = compiled.get(name);
  if (!v) {
    const schema = JSON.parse(readFileSync(fromPackageRoot('schemas', `${name}.schema.json`), 'utf8')) as object;
    v = instance().compile(schema);
    compiled.set(name, v);
  }
  return v;
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
  const parts = e.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
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
