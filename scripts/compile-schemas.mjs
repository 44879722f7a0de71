// Part of the build: turns every schema of schemas/ into a standalone validator module (dist/schemas/<name>.cjs), with
// the options src/schema-compile.ts gives it, so runs need neither ajv's compiler nor compile time. Each module records
// the digest of its schema; src/schemas.ts compiles at run time instead when they differ.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ajvFor, schemaSource } from '../dist/src/schema-compile.js';
import { compiledSchemaPath, schemaDigest } from '../dist/src/schemas.js';

const require = createRequire(import.meta.url);
const standaloneCode = require('ajv/dist/standalone').default;

const names = readdirSync(new URL('../schemas/', import.meta.url))
  .filter((f) => f.endsWith('.schema.json'))
  .map((f) => f.slice(0, -'.schema.json'.length));
for (const name of names) {
  const source = schemaSource(name);
  const { ajv, refs } = ajvFor(name, source, { source: true });
  const code = `${standaloneCode(ajv, refs)}\nmodule.exports.sourceDigest = ${JSON.stringify(schemaDigest(source))};\n`;
  const path = compiledSchemaPath(name);
  mkdirSync(new URL('.', `file://${path}`), { recursive: true });
  writeFileSync(path, code);
}
console.log(`compiled ${names.length} schemas to dist/schemas/`);
