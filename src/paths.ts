import { fileURLToPath } from 'node:url';

/** The package's root folder, found from the compiled module (dist/src/paths.js) so it works from any install location. */
export const packageRoot: string = fileURLToPath(new URL('../../', import.meta.url));

export function fromPackageRoot(...parts: string[]): string {
  return [packageRoot.replace(/\/$/, ''), ...parts].join('/');
}
