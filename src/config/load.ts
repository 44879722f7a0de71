// Reads conformance.config.json (or --config FILE) into resolved targets. Every problem a user can cause becomes one
// ConfigError line naming the field and what to do; no message ever quotes a secret (client secret, key text).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { schemaValidator } from '../schemas.js';
import { ConfigError } from '../errors.js';
import { closestWord } from '../suggest.js';
import { formatPath, substituteEnv } from './env.js';
import { isObject, parseJson } from './json-error.js';
import { schemaMessage } from './messages.js';
import { errorCode, fsProblem, resolveTarget, type RawTarget } from './resolve.js';
import type { LoadedConfig, ResolvedTarget } from './types.js';
import { BUILTIN_TARGET, CONFIG_FILE_NAME } from './names.js';

export { BUILTIN_TARGET, CONFIG_FILE_NAME } from './names.js';

export interface LoadConfigOptions {
  /** `--config FILE`, relative to cwd. When given, the file must exist. */
  configPath?: string;
  /** Folder to look in for conformance.config.json and to resolve configPath against; default process.cwd(). */
  cwd?: string;
  /** Variables for ${NAME}; default process.env. */
  env?: NodeJS.ProcessEnv;
  /**
   * Resolve only this target. The whole file is still checked against the schema, but the other targets' variables
   * need not be set nor their files exist, so a CI job for staging does not need production's secrets. An unknown
   * name (other than the built-in one) is a ConfigError listing the known names.
   */
  target?: string;
  /** Where a warning goes (a private key file others can read); default stderr, one line each. */
  warn?: (line: string) => void;
}

interface RawDocument {
  targets: Record<string, unknown>;
}

/**
 * Loads `--config FILE` or `conformance.config.json` in cwd. No file and no --config: `{ targets: {} }` (only the
 * built-in target). Throws ConfigError (exit 2) with one line naming the field and what to do.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const explicit = options.configPath !== undefined;
  const file = path.resolve(cwd, options.configPath ?? CONFIG_FILE_NAME);

  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if (!explicit && errorCode(err) === 'ENOENT') return { targets: {} };
    const what = explicit ? `--config ${file}` : file;
    throw new ConfigError(
      `config: ${what} ${fsProblem(err)}: check the path${explicit ? ' (relative to the current folder)' : ''}`,
      'CONFORMANCE_ERR_CONFIG_NOT_FOUND',
    );
  }

  const doc = parseJson(text, file);
  const targets = isObject(doc) ? doc.targets : undefined;
  // Checked before the schema so the message says why rather than "must NOT be valid".
  if (isObject(targets) && Object.hasOwn(targets, BUILTIN_TARGET)) {
    throw new ConfigError(
      `config: targets.${BUILTIN_TARGET} is not allowed: "${BUILTIN_TARGET}" is the name of the built-in target; rename this one, e.g. "${BUILTIN_TARGET}-dev"`,
    );
  }
  const document = schemaValidator('config');
  const targetValidator = schemaValidator('config', 'target');
  if (!document(doc)) throw new ConfigError(schemaMessage(document.errors ?? [], [], file));
  const raw = doc as RawDocument;
  const names = Object.keys(raw.targets);

  let selected = names;
  if (options.target !== undefined) {
    if (options.target !== BUILTIN_TARGET && !names.includes(options.target))
      throw unknownTarget(options.target, names, file);
    selected = names.filter((name) => name === options.target);
  }

  const dir = path.dirname(file);
  const resolved: Record<string, ResolvedTarget> = {};
  for (const name of selected) {
    const prefix = ['targets', name];
    passphraseFromEnv(raw.targets[name], prefix);
    // Substitution comes before the second validation so a ${VAR} value is checked for what it turned out to be.
    const substituted = substituteEnv(raw.targets[name], env, prefix);
    if (!targetValidator(substituted)) throw new ConfigError(schemaMessage(targetValidator.errors ?? [], prefix, file));
    resolved[name] = await resolveTarget(
      name,
      substituted as RawTarget,
      dir,
      options.warn ?? ((line) => process.stderr.write(`${line}\n`)),
    );
  }
  return { path: file, targets: resolved };
}

/**
 * clientKeyPassphrase is taken from the environment only: written in the file, it would be a secret in plain text beside
 * the key it opens. Checked before substitution, on what the file says.
 */
function passphraseFromEnv(target: unknown, prefix: string[]): void {
  if (!isObject(target) || typeof target.clientKeyPassphrase !== 'string') return;
  if (/^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(target.clientKeyPassphrase)) return;
  throw new ConfigError(
    `config: ${formatPath([...prefix, 'clientKeyPassphrase'])} must name an environment variable, e.g. "\${CONFORMANCE_CLIENT_KEY_PASSPHRASE}": a passphrase written in the file is a secret in plain text; move it to the environment`,
  );
}

/** The named target, or a ConfigError listing the targets there are (and the built-in one). */
export function selectTarget(config: LoadedConfig, name: string): ResolvedTarget {
  if (Object.hasOwn(config.targets, name)) return config.targets[name]!;
  if (name === BUILTIN_TARGET) {
    throw new ConfigError(
      `config: "${BUILTIN_TARGET}" is the built-in target; it is not defined in a config file and has no settings to select`,
      'CONFORMANCE_ERR_UNKNOWN_TARGET',
    );
  }
  throw unknownTarget(name, Object.keys(config.targets), config.path);
}

function unknownTarget(name: string, names: string[], file: string | undefined): ConfigError {
  const guess = closestWord(name, [...names, BUILTIN_TARGET]);
  const hint = guess ? `did you mean "${guess}"? ` : '';
  if (file === undefined) {
    return new ConfigError(
      `config: no target named ${JSON.stringify(name)}: there is no ${CONFIG_FILE_NAME} here and no --config, so the only target is the built-in "${BUILTIN_TARGET}"; ${hint}` +
        `create ${CONFIG_FILE_NAME} (see fixtures/example.config.json in the package) or pass --config FILE`,
      'CONFORMANCE_ERR_UNKNOWN_TARGET',
    );
  }
  const known =
    names.length > 0
      ? `${names.map((n) => JSON.stringify(n)).join(', ')} and the built-in "${BUILTIN_TARGET}"`
      : `only the built-in "${BUILTIN_TARGET}"`;
  return new ConfigError(
    `config: no target named ${JSON.stringify(name)} in ${file}: ${hint}known targets are ${known}`,
    'CONFORMANCE_ERR_UNKNOWN_TARGET',
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Resolution of one validated target: files read, paths absolute, key parsed.
