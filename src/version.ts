import { readFileSync } from 'node:fs';
import { fromPackageRoot } from './paths.js';

/** The version of the specification the checks are written against ("The interface description itself carries the version number 0.0.1"). */
export const SPEC_VERSION = '0.0.1';

let cached: { name: string; version: string } | undefined;
function packageJson(): { name: string; version: string } {
  cached ??= JSON.parse(readFileSync(fromPackageRoot('package.json'), 'utf8')) as { name: string; version: string };
  return cached;
}

export function suiteVersion(): string {
  return packageJson().version;
}

/** The name the package is installed under (`node_modules/<name>`), read from package.json so a rename is one edit. */
export function packageName(): string {
  return packageJson().name;
}

/** The config schema as a project that installed the package reaches it from its own folder. */
export function installedConfigSchema(): string {
  return `./node_modules/${packageName()}/schemas/config.schema.json`;
}
