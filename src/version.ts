import { readFileSync } from 'node:fs';
import { fromPackageRoot } from './paths.js';

/** The version of the specification the checks are written against ("The interface description itself carries the version number 0.0.1"). */
export const SPEC_VERSION = '0.0.1';

let cached: string | undefined;
export function suiteVersion(): string {
  cached ??= (JSON.parse(readFileSync(fromPackageRoot('package.json'), 'utf8')) as { version: string }).version;
  return cached;
}
