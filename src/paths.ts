import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's root folder: the nearest folder above this module holding package.json. Found by walking up so the
 * same code works compiled (dist/src/paths.js), from source under vitest, and from any install location.
 */
function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above the conformance modules');
    dir = parent;
  }
  return dir;
}

export const packageRoot: string = findPackageRoot();

export function fromPackageRoot(...parts: string[]): string {
  return join(packageRoot, ...parts);
}
