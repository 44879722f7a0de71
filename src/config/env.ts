// ${NAME} substitution in the config file, so secrets stay in the environment (CI secret stores) and out of the file.
import { ConfigError } from '../errors.js';

export type JsonPath = ReadonlyArray<string | number>;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Dotted form of a JSON path for messages, e.g. `targets.staging.clientSecret`; array items as `[0]`. A key that
 * would read ambiguously in dotted form (a dot, a space, empty) is quoted in brackets.
 */
export function formatPath(path: JsonPath): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (part === '' || /[.\s[\]"]/.test(part)) out += `[${JSON.stringify(part)}]`;
    else out += out === '' ? part : `.${part}`;
  }
  return out === '' ? '(top level)' : out;
}

/**
 * Replaces `${NAME}` in one string (whole or embedded); `$${` gives a literal `${`. Substituted text is not scanned
 * again, so a secret that happens to contain `${` is taken as is.
 */
function substituteString(text: string, env: NodeJS.ProcessEnv, path: JsonPath): string {
  let out = '';
  let i = 0;
  for (;;) {
    const dollar = text.indexOf('$', i);
    if (dollar < 0) return out + text.slice(i);
    out += text.slice(i, dollar);
    if (text.startsWith('$${', dollar)) {
      out += '${';
      i = dollar + 3;
    } else if (text.startsWith('${', dollar)) {
      const close = text.indexOf('}', dollar + 2);
      const name = close < 0 ? undefined : text.slice(dollar + 2, close);
      if (name === undefined || !NAME.test(name)) {
        // The text may be a secret written inline: name the field, never quote it.
        throw new ConfigError(
          `config: ${formatPath(path)} has a "\${" that does not start a \${NAME} reference: ` +
            'write ${NAME} with letters, digits and _ only, or $${ for a literal ${',
          'CONFORMANCE_ERR_CONFIG_ENV',
        );
      }
      const value = env[name];
      if (value === undefined) {
        throw new ConfigError(
          `config: ${formatPath(path)} uses \${${name}}, which is not set: export ${name} before running`,
          'CONFORMANCE_ERR_CONFIG_ENV',
        );
      }
      // CI systems hand an undefined secret over as an empty string; taking it as a value would fail later, obscurely.
      if (value === '') {
        throw new ConfigError(
          `config: ${formatPath(path)} uses \${${name}}, which is empty: set ${name} to a value before running`,
          'CONFORMANCE_ERR_CONFIG_ENV',
        );
      }
      out += value;
      i = close + 1;
    } else {
      out += '$';
      i = dollar + 1;
    }
  }
}

/**
 * A copy of a parsed JSON value with `${NAME}` substituted in every string value (keys are left alone).
 * Throws ConfigError naming the field and the variable when a variable is not set.
 */
export function substituteEnv(value: unknown, env: NodeJS.ProcessEnv, path: JsonPath = []): unknown {
  if (typeof value === 'string') return substituteString(value, env, path);
  if (Array.isArray(value)) return value.map((item, index) => substituteEnv(item, env, [...path, index]));
  if (value !== null && typeof value === 'object') {
    // fromEntries defines own properties, so a "__proto__" key in the file stays data.
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, substituteEnv(item, env, [...path, key])]),
    );
  }
  return value;
}
