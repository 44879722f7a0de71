import path from 'node:path';

/** A path as a command's output shows it: ./relative under the current folder (what a config line can use), else absolute. */
export function shownPath(cwd: string, file: string): string {
  const relative = path.relative(cwd, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : `./${relative.split(path.sep).join('/')}`;
}
