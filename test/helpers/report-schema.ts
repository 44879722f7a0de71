// The JSON report's schema (schemas/report.schema.json) as tests check a report against it: every error listed, the
// formats (date-time, uri) checked.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  a: Ajv2020,
) => Ajv2020;
const reportSchema = JSON.parse(
  readFileSync(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8'),
) as object;

/** The schema's errors for a report as written (JSON text and back), or undefined when it is valid. */
export function reportSchemaErrors(report: unknown): string | undefined {
  const validate = addFormats(new Ajv2020({ allErrors: true, strict: false })).compile(reportSchema);
  return validate(JSON.parse(JSON.stringify(report))) ? undefined : JSON.stringify(validate.errors);
}
