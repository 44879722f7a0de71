import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from './errors.js';

/** Reads a file named by a command-line option; an unreadable one is a usage error (exit 2) saying what to give. */
export async function readOptionFile(
  option: string,
  file: string,
  cwd: string,
  hint: string,
): Promise<{ resolved: string; text: string }> {
  const resolved = path.resolve(cwd, file);
  try {
    return { resolved, text: await readFile(resolved, 'utf8') };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigError(
      `${option}: ${resolved} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? 'unknown error'})`}: ${hint}`,
      'CONFORMANCE_ERR_OPTION_FILE',
    );
  }
}
