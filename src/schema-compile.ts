// How each schema of schemas/ is compiled with ajv. The build turns them into standalone validator modules
// (scripts/compile-schemas.mjs, dist/schemas/*.cjs), so a run neither loads ajv's compiler nor compiles anything; when
// those are missing or older than the schema (a schema edited since the last build), src/schemas.ts compiles here at
// run time with the same options. ajv is loaded only then.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020, Options, ValidateFunction } from 'ajv/dist/2020.js';
import { fromPackageRoot } from './paths.js';

const require = createRequire(import.meta.url);

/** The options of a schema: config and expected-failures are user files, checked strictly and verbosely for messages. */
function optionsOf(name: string): { options: Options; formats: boolean; fragments: Record<string, string> } {
  switch (name) {
    case 'config':
      // verbose: errors carry the offending data and schema, so messages can show a value and list known properties.
      return {
        options: { allErrors: true, verbose: true, strict: true, strictRequired: false, allowUnionTypes: true },
        formats: false,
        fragments: { target: '#/$defs/target' },
      };
    case 'expected-failures':
      return { options: { allErrors: true, strict: true }, formats: false, fragments: {} };
    default:
      return { options: { allErrors: true, strict: false }, formats: true, fragments: {} };
  }
}

export function schemaSource(name: string): string {
  return readFileSync(fromPackageRoot('schemas', `${name}.schema.json`), 'utf8');
}

/** An ajv with the schema added, and the refs of its validators: `default` the whole schema, others fragments. */
export function ajvFor(
  name: string,
  source = schemaSource(name),
  code?: Options['code'],
): { ajv: Ajv2020; refs: Record<string, string> } {
  const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const { options, formats, fragments } = optionsOf(name);
  const ajv = new Ajv2020({ ...options, ...(code ? { code } : {}) });
  if (formats) {
    const addFormats = require('ajv-formats') as (ajv: Ajv2020) => Ajv2020;
    addFormats(ajv);
  }
  const schema = JSON.parse(source) as { $id?: string };
  const id = schema.$id ?? `${name}.schema.json`;
  ajv.addSchema(schema, id);
  const refs: Record<string, string> = { default: id };
  for (const [exportName, pointer] of Object.entries(fragments)) refs[exportName] = `${id}${pointer}`;
  return { ajv, refs };
}

/** Compiles the schema's validators at run time. */
export function compileValidators(name: string, source?: string): Record<string, ValidateFunction> {
  const { ajv, refs } = ajvFor(name, source);
  const out: Record<string, ValidateFunction> = {};
  for (const [exportName, ref] of Object.entries(refs)) {
    const v = ajv.getSchema(ref);
    if (!v) throw new Error(`schemas/${name}.schema.json has no ${ref}`);
    out[exportName] = v;
  }
  return out;
}
