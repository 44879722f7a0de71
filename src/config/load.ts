// Reads conformance.config.json (or --config FILE) into resolved targets. Every problem a user can cause becomes one
// ConfigError line naming the field and what to do; no message ever quotes a secret (client secret, key text).
import { statSync } from 'node:fs';
import { access, constants, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { schemaValidator } from '../schemas.js';
import { ConfigError } from '../errors.js';
import { KeyError, parsePrivateKeyPem, type Ed25519KeyPair } from '../http/keys.js';
import { formatPath, substituteEnv, type JsonPath } from './env.js';
import type { FixtureName, Fixtures, LoadedConfig, ResolvedTarget, WebhookConfig, WebhookTls } from './types.js';

export const CONFIG_FILE_NAME = 'conformance.config.json';
/** The built-in target's name: reserved, a config file may not define it. */
export const BUILTIN_TARGET = 'local';
export const DEFAULT_WEBHOOK_LISTEN = '127.0.0.1:0';

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


interface RawTarget {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  keyId: string;
  privateKey?: string;
  privateKeyFile?: string;
  caFile?: string;
  concurrency?: number;
  fixtures?: Partial<Record<FixtureName, number | string>> & { $comment?: string };
  webhook?: { listen?: string; publicUrl?: string; tls?: string | { certFile: string; keyFile: string } };
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
    throw new ConfigError(`config: ${what} ${fsProblem(err)}: check the path${explicit ? ' (relative to the current folder)' : ''}`);
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
    if (options.target !== BUILTIN_TARGET && !names.includes(options.target)) throw unknownTarget(options.target, names, file);
    selected = names.filter((name) => name === options.target);
  }

  const dir = path.dirname(file);
  const resolved: Record<string, ResolvedTarget> = {};
  for (const name of selected) {
    const prefix = ['targets', name];
    // Substitution comes before the second validation so a ${VAR} value is checked for what it turned out to be.
    const substituted = substituteEnv(raw.targets[name], env, prefix);
    if (!targetValidator(substituted)) throw new ConfigError(schemaMessage(targetValidator.errors ?? [], prefix, file));
    resolved[name] = await resolveTarget(name, substituted as RawTarget, dir, options.warn ?? ((line) => process.stderr.write(`${line}\n`)));
  }
  return { path: file, targets: resolved };
}

/** The named target, or a ConfigError listing the targets there are (and the built-in one). */
export function selectTarget(config: LoadedConfig, name: string): ResolvedTarget {
  if (Object.hasOwn(config.targets, name)) return config.targets[name]!;
  if (name === BUILTIN_TARGET) {
    throw new ConfigError(`config: "${BUILTIN_TARGET}" is the built-in target; it is not defined in a config file and has no settings to select`);
  }
  throw unknownTarget(name, Object.keys(config.targets), config.path);
}

function unknownTarget(name: string, names: string[], file: string | undefined): ConfigError {
  const guess = closest(name, [...names, BUILTIN_TARGET]);
  const hint = guess ? `did you mean "${guess}"? ` : '';
  if (file === undefined) {
    return new ConfigError(
      `config: no target named ${JSON.stringify(name)}: there is no ${CONFIG_FILE_NAME} here and no --config, so the only target is the built-in "${BUILTIN_TARGET}"; ${hint}` +
        `create ${CONFIG_FILE_NAME} (see fixtures/example.config.json in the package) or pass --config FILE`,
    );
  }
  const known = names.length > 0 ? `${names.map((n) => JSON.stringify(n)).join(', ')} and the built-in "${BUILTIN_TARGET}"` : `only the built-in "${BUILTIN_TARGET}"`;
  return new ConfigError(`config: no target named ${JSON.stringify(name)} in ${file}: ${hint}known targets are ${known}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Resolution of one validated target: files read, paths absolute, key parsed.

async function resolveTarget(name: string, t: RawTarget, dir: string, warn: (line: string) => void): Promise<ResolvedTarget> {
  const at = (...rest: string[]): string => formatPath(['targets', name, ...rest]);

  const baseUrl = t.baseUrl.replace(/\/+$/, '');
  if (!isHttpUrl(baseUrl, ['http:', 'https:'])) {
    throw new ConfigError(`config: ${at('baseUrl')} is not a valid http or https URL: give the base URL including /v1, e.g. "https://staging.example.com/v1"`);
  }

  let privateKeyPem: string;
  let keyLabel: string;
  if (t.privateKeyFile !== undefined) {
    keyLabel = `${at('privateKeyFile')} (${t.privateKeyFile})`;
    privateKeyPem = await readText(dir, t.privateKeyFile, keyLabel);
    warnIfExposed(path.resolve(dir, t.privateKeyFile), keyLabel, warn);
  } else {
    keyLabel = at('privateKey');
    privateKeyPem = unescapeNewlines(t.privateKey ?? '');
  }
  const pair = parseKey(privateKeyPem, keyLabel, t.privateKeyFile === undefined);

  let ca: string | undefined;
  if (t.caFile !== undefined) {
    const label = `${at('caFile')} (${t.caFile})`;
    ca = await readText(dir, t.caFile, label);
    if (!ca.includes('-----BEGIN CERTIFICATE-----')) {
      throw new ConfigError(`config: ${label} holds no PEM certificate ("-----BEGIN CERTIFICATE-----"): give the CA certificates the target's TLS certificate chains to, in PEM form`);
    }
  }

  const fixtures: Fixtures = {};
  for (const [key, value] of Object.entries(t.fixtures ?? {}) as Array<[FixtureName | '$comment', number | string]>) {
    if (key === '$comment') continue;
    fixtures[key] = toId(value, at('fixtures', key));
  }

  const target: ResolvedTarget = {
    name,
    baseUrl,
    clientId: t.clientId,
    clientSecret: t.clientSecret,
    keyId: t.keyId,
    privateKeyPem,
    privateKey: pair.seed,
    fixtures,
    webhook: await resolveWebhook(t.webhook ?? {}, dir, at),
  };
  if (ca !== undefined) target.ca = ca;
  if (t.concurrency !== undefined) target.concurrency = t.concurrency;
  return target;
}

function parseKey(pem: string, label: string, inline: boolean): Ed25519KeyPair {
  try {
    return parsePrivateKeyPem(pem);
  } catch (err) {
    if (!(err instanceof KeyError)) {
      throw new ConfigError(`config: ${label} could not be read as an Ed25519 private key: give a PKCS8 PEM key, e.g. generate one with 'openssl genpkey -algorithm ed25519'`);
    }
    // keys.ts says "is a rsa key"; key type names are read as letters ("an RSA", "an EC", "an X25519", "a DSA").
    const reason = err.message.replace(/^is a (?=[aeiourx])/i, 'is an ');
    const fileHint = inline && !pem.includes('-----BEGIN') ? ' (to give a file path, use privateKeyFile instead)' : '';
    throw new ConfigError(`config: ${label} ${reason}${fileHint}: generate one with 'openssl genpkey -algorithm ed25519'`);
  }
}

async function resolveWebhook(w: NonNullable<RawTarget['webhook']>, dir: string, at: (...rest: string[]) => string): Promise<WebhookConfig> {
  const listen = w.listen ?? DEFAULT_WEBHOOK_LISTEN;
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):([0-9]{1,5})$/.exec(listen);
  if (!match || Number(match[2]) > 65535) {
    throw new ConfigError(`config: ${at('webhook', 'listen')} is ${JSON.stringify(clip(listen))}: it must be host:port with a port from 0 to 65535, e.g. "${DEFAULT_WEBHOOK_LISTEN}" (port 0 picks a free port)`);
  }

  if (w.publicUrl !== undefined && !isHttpUrl(w.publicUrl, ['https:'])) {
    throw new ConfigError(`config: ${at('webhook', 'publicUrl')} is ${JSON.stringify(clip(redactUserinfo(w.publicUrl)))}: it must be an https URL (the spec requires https for webhooks), e.g. "https://hooks.example.com/conformance"`);
  }

  let tls: WebhookTls;
  const given = w.tls ?? 'self-signed';
  if (typeof given === 'string') {
    if (given !== 'self-signed' && given !== 'none') {
      throw new ConfigError(`config: ${at('webhook', 'tls')} is ${JSON.stringify(clip(given))}: it must be "self-signed", "none" or {"certFile": "...", "keyFile": "..."}`);
    }
    tls = given;
  } else {
    tls = {
      certFile: await readablePath(dir, given.certFile, `${at('webhook', 'tls', 'certFile')} (${given.certFile})`),
      keyFile: await readablePath(dir, given.keyFile, `${at('webhook', 'tls', 'keyFile')} (${given.keyFile})`),
    };
  }

  const webhook: WebhookConfig = { listen, tls };
  if (w.publicUrl !== undefined) webhook.publicUrl = w.publicUrl;
  return webhook;
}

function toId(value: number | string, label: string): number {
  if (typeof value === 'string' && !/^[0-9]+$/.test(value)) {
    throw new ConfigError(`config: ${label} is ${JSON.stringify(clip(value))}: it must be a non-negative integer id, or a string of digits such as "\${CONFORMANCE_CUSTOMER_ID}"`);
  }
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id < 0) {
    throw new ConfigError(
      `config: ${label} is ${typeof value === 'string' ? value : 'too large'}: ids above ${Number.MAX_SAFE_INTEGER} (2^53 - 1) cannot be held exactly; choose a fixture record with a smaller id`,
    );
  }
  return id;
}

// CI secret stores and .env files often hold a PEM on one line with literal \n sequences.
function unescapeNewlines(pem: string): string {
  return pem.includes('\n') || !pem.includes('\\n') ? pem : pem.replace(/(?:\\r)?\\n/g, '\n');
}

async function readText(dir: string, given: string, label: string): Promise<string> {
  const file = path.resolve(dir, given);
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`config: ${label} ${fsProblem(err)}${located(file, given)}: check the path; a relative path starts from the config file's folder`);
  }
}

/** Like ssh: a private key that group or others may read is a key that may have leaked. Warned, not refused. */
function warnIfExposed(file: string, label: string, warn: (line: string) => void): void {
  if (process.platform === 'win32') return;
  let mode: number;
  try {
    mode = statSync(file).mode & 0o777;
  } catch {
    return;
  }
  if ((mode & 0o077) === 0) return;
  warn(`conformance: warning: ${label} is readable by ${mode & 0o007 ? 'others' : 'its group'} (mode ${mode.toString(8).padStart(4, '0')}); a private key must be readable by you only: chmod 600 ${file}`);
}

async function readablePath(dir: string, given: string, label: string): Promise<string> {
  const file = path.resolve(dir, given);
  try {
    await access(file, constants.R_OK);
  } catch (err) {
    throw new ConfigError(`config: ${label} ${fsProblem(err)}${located(file, given)}: check the path; a relative path starts from the config file's folder`);
  }
  return file;
}

function located(file: string, given: string): string {
  return file === given ? '' : ` (looked at ${file})`;
}

function fsProblem(err: unknown): string {
  switch (errorCode(err)) {
    case 'ENOENT':
      return 'does not exist';
    case 'EACCES':
    case 'EPERM':
      return 'cannot be read (permission denied)';
    case 'EISDIR':
      return 'is a folder, not a file';
    case 'ENOTDIR':
      return 'does not exist (a part of its path is a file)';
    default:
      return `cannot be read (${errorCode(err) ?? 'unknown error'})`;
  }
}

function errorCode(err: unknown): string | undefined {
  return isObject(err) && typeof err.code === 'string' ? err.code : undefined;
}

function isHttpUrl(text: string, protocols: string[]): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return protocols.includes(url.protocol) && url.hostname !== '' && url.username === '' && url.password === '';
}

// ---------------------------------------------------------------------------------------------------------------
// JSON syntax errors. V8's message can quote the surrounding source ("…" is not valid JSON), which may hold an inline
// secret, so it is never shown: a small scanner finds the line, the column and a reason of our own instead.

function parseJson(text: string, file: string): unknown {
  // Editors on Windows may save a byte order mark, which JSON.parse rejects.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    const found = locateJsonError(body);
    if (!found) throw new ConfigError(`config: ${file} is not valid JSON: check its syntax`);
    const before = body.slice(0, found.offset);
    const line = before.split('\n').length;
    const column = found.offset - before.lastIndexOf('\n');
    throw new ConfigError(`config: ${file}:${line}:${column} is not valid JSON: ${found.reason}`);
  }
}

class JsonStop {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {}
}

/** Where and why a text is not JSON (RFC 8259); undefined when it is, or when nesting is too deep to scan. */
export function locateJsonError(text: string): { offset: number; reason: string } | undefined {
  let i = 0;
  const stop = (reason: string, at = i): never => {
    throw new JsonStop(at, reason);
  };
  const space = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const string = (): void => {
    const start = i++;
    for (;;) {
      const c = text[i];
      if (c === undefined) stop('a string is not closed', start);
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        const e = text[i + 1];
        if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else if (e === 'u' && /^[0-9A-Fa-f]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else stop('invalid escape in a string (valid: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)');
      } else if (c!.charCodeAt(0) < 0x20) {
        stop('a line break or control character inside a string (write \\n for a line break)');
      } else {
        i++;
      }
    }
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === undefined) return stop('the text ends where a value is expected');
    if (c === '{') {
      i++;
      space();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        space();
        if (text[i] === '}') stop('a trailing comma before } (JSON allows none)');
        if (text[i] !== '"') stop(text[i] === '/' ? 'comments are not allowed in JSON' : 'expected a property name in double quotes');
        string();
        space();
        if (text[i] !== ':') stop("expected ':' after the property name");
        i++;
        value();
        space();
        if (text[i] === '}') {
          i++;
          return;
        }
        if (text[i] !== ',') stop("expected ',' or '}' after a property value");
        i++;
      }
    }
    if (c === '[') {
      i++;
      space();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        space();
        if (text[i] === ']') stop('a trailing comma before ] (JSON allows none)');
        value();
        space();
        if (text[i] === ']') {
          i++;
          return;
        }
        if (text[i] !== ',') stop("expected ',' or ']' after an array item");
        i++;
      }
    }
    if (c === '"') return string();
    if (c === '-' || (c >= '0' && c <= '9')) {
      const number = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
      number.lastIndex = i;
      if (!number.exec(text)) stop('invalid number');
      i = number.lastIndex;
      return;
    }
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, i)) {
        i += literal.length;
        return;
      }
    }
    if (c === '/') stop('comments are not allowed in JSON');
    if (c === "'") stop('strings must use double quotes');
    stop('unexpected character where a value is expected (a string needs double quotes)');
  };
  try {
    value();
    space();
    if (i < text.length) stop('unexpected text after the end of the JSON value');
    return undefined;
  } catch (err) {
    if (err instanceof JsonStop) return { offset: err.offset, reason: err.reason };
    if (err instanceof RangeError) return undefined;
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Schema errors → one line. The hints are keyed by the field's place in a target ("baseUrl", "fixtures.*", …).

const FIXTURE_HINT = 'a non-negative integer id, or a string of digits such as "${CONFORMANCE_CUSTOMER_ID}"';

const MISSING_HINT: Record<string, string> = {
  targets: 'add "targets", an object mapping each target name to its settings (see fixtures/example.config.json in the package)',
  baseUrl: `add the target's base URL including /v1, e.g. "https://staging.example.com/v1"`,
  clientId: 'add the client id the server issued for conformance runs, e.g. "acme"',
  clientSecret: 'add the client secret, normally from the environment: "clientSecret": "${CONFORMANCE_CLIENT_SECRET}"',
  keyId: `add the id under which the server knows the client's Ed25519 public key (the signature keyid), e.g. "acme-2026"`,
  privateKeyFile:
    'give "privateKeyFile" (path of a PKCS8 PEM Ed25519 key, relative to the config file) or "privateKey" (the PEM text, e.g. "${CONFORMANCE_PRIVATE_KEY}")',
  'webhook.tls.certFile': 'add the path of the PEM certificate the receiver presents, relative to the config file',
  'webhook.tls.keyFile': 'add the path of the PEM private key of certFile, relative to the config file',
};

const EXPECTED: Record<string, string> = {
  '': 'a JSON object with "targets", e.g. {"targets": {"staging": {…}}}',
  $schema: 'a path or URL of the schema, e.g. "./node_modules/conformance/schemas/config.schema.json"',
  $comment: 'a string (a note for people, ignored)',
  'target.$comment': 'a string (a note for people, ignored)',
  'fixtures.$comment': 'a string (a note for people, ignored)',
  'webhook.$comment': 'a string (a note for people, ignored)',
  targets: 'an object mapping each target name to its settings',
  target: 'an object with baseUrl, clientId, clientSecret, keyId and privateKeyFile or privateKey',
  baseUrl: 'an http or https URL including /v1, without query, fragment or user name, e.g. "https://staging.example.com/v1"',
  clientId: 'a non-empty string',
  clientSecret: 'a non-empty string, normally "${CONFORMANCE_CLIENT_SECRET}"',
  keyId: 'a non-empty string',
  privateKey: 'the PKCS8 PEM text of an Ed25519 key, normally "${CONFORMANCE_PRIVATE_KEY}"',
  privateKeyFile: 'the path of a PKCS8 PEM Ed25519 key file, relative to the config file',
  caFile: 'the path of a PEM file of CA certificates, relative to the config file',
  concurrency: 'a whole number from 1 to 64: how many checks may run at once',
  fixtures: 'an object of record ids (customerId, otherCustomerId, accountId, assetId, transactionId, mutableCustomerId, paginationCustomerId, unknownId)',
  'fixtures.*': FIXTURE_HINT,
  webhook: 'an object with listen, publicUrl and tls, all optional',
  'webhook.listen': 'host:port the receiver binds, e.g. "127.0.0.1:0" (port 0 picks a free port)',
  'webhook.publicUrl': 'an https URL (the spec requires https for webhooks), e.g. "https://hooks.example.com/conformance"',
  'webhook.tls': '"self-signed", "none" or {"certFile": "...", "keyFile": "..."}',
  'webhook.tls.certFile': 'the path of a PEM certificate, relative to the config file',
  'webhook.tls.keyFile': 'the path of a PEM private key, relative to the config file',
};

// Fields whose value may be quoted in a message: none of them is a secret.
const SHOWN = new Set(['$schema', 'baseUrl', 'fixtures.*', 'webhook.listen', 'webhook.publicUrl', 'webhook.tls']);

const PRIORITY: Record<string, number> = { additionalProperties: 0, propertyNames: 0, required: 1, oneOf: 1, type: 2 };

function schemaMessage(errors: ErrorObject[], prefix: JsonPath, file: string): string {
  const oneOfs = errors.filter((e) => e.keyword === 'oneOf');
  const wrongType = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  const relevant = errors.filter(
    (e) =>
      // A failed oneOf also reports each branch's own errors; the oneOf itself says it better.
      !oneOfs.some((o) => o !== e && e.schemaPath.startsWith(`${o.schemaPath}/`)) &&
      // A value of the wrong type also fails keywords meant for the right one: the type is the problem.
      (e.keyword === 'type' || !wrongType.has(e.instancePath)),
  );
  const [first] = [...relevant].sort((a, b) => (PRIORITY[a.keyword] ?? 3) - (PRIORITY[b.keyword] ?? 3));
  if (!first) return `config: ${file} does not match the config schema`;
  const where = [...prefix, ...pointerParts(first.instancePath)];
  const params = first.params as Record<string, unknown>;
  // Errors about a key rather than a value: only target names are constrained (propertyNames).
  if (first.keyword === 'propertyNames' || first.propertyName !== undefined) {
    return `config: ${formatPath(where)} has a target with an empty or reserved name: give each target a name other than "${BUILTIN_TARGET}"`;
  }

  switch (first.keyword) {
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      // $comment (and $schema) are allowed but are no setting a typo could have meant.
      const known = Object.keys((first.parentSchema?.properties as object | undefined) ?? {}).filter((k) => k !== '$comment');
      const guess = closest(extra, known);
      const fix = guess ? `did you mean "${guess}"?` : `remove it, or use one of ${known.join(', ')}`;
      return `config: ${formatPath([...where, extra])} is not a known property: ${fix}`;
    }
    case 'required': {
      const missing = String(params.missingProperty);
      const key = fieldKey([...where, missing]);
      return `config: ${formatPath([...where, missing])} is missing: ${MISSING_HINT[key] ?? `add it (${EXPECTED[key] ?? 'see the config schema'})`}`;
    }
    case 'oneOf': {
      const data = isObject(first.data) ? first.data : {};
      if (Object.hasOwn(data, 'privateKey') && Object.hasOwn(data, 'privateKeyFile')) {
        return `config: ${formatPath(where)} has both privateKey and privateKeyFile: keep only one`;
      }
      return `config: ${formatPath([...where, 'privateKeyFile'])} is missing: ${MISSING_HINT.privateKeyFile}`;
    }
    case 'minLength': {
      const key = fieldKey(where);
      return `config: ${formatPath(where)} is empty: ${MISSING_HINT[key] ?? `give ${EXPECTED[key] ?? 'a value'}, or remove it`}`;
    }
    default: {
      if (where.length === 0) return `config: ${file} must hold ${EXPECTED['']}`;
      const key = fieldKey(where);
      const expected = EXPECTED[key];
      const shown = describeValue(first.data, SHOWN.has(key));
      if (expected) return `config: ${formatPath(where)} is ${shown}: it must be ${expected}`;
      return `config: ${formatPath(where)} is ${shown}: it ${first.message ?? 'does not match the config schema'}`;
    }
  }
}

/** A field's place inside a target, for the hint tables: "baseUrl", "fixtures.*", "webhook.tls.certFile"; top-level keys as is. */
function fieldKey(where: JsonPath): string {
  const parts = where.map(String);
  if (parts[0] !== 'targets' || parts.length < 2) return parts.join('.');
  const inner = parts.slice(2);
  if (inner.length === 0) return 'target';
  if (inner.length === 1 && inner[0] === '$comment') return 'target.$comment';
  if (inner[0] === 'fixtures' && inner.length === 2 && inner[1] !== '$comment') return 'fixtures.*';
  return inner.join('.');
}

function pointerParts(pointer: string): string[] {
  return pointer === '' ? [] : pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function describeValue(value: unknown, show: boolean): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return show ? JSON.stringify(clip(redactUserinfo(value))) : value === '' ? 'empty' : 'a string';
  if (typeof value === 'number') return show ? String(value) : 'a number';
  if (typeof value === 'boolean') return show ? String(value) : 'a boolean';
  return typeof value;
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function redactUserinfo(text: string): string {
  return text.replace(/(\/\/)[^/@\s]*@/, '$1[redacted]@');
}

/** The candidate a typo most likely meant: same letters in another case, or at most 2 edits away. */
function closest(word: string, candidates: string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = name.toLowerCase() === lower ? 0 : editDistance(lower, name.toLowerCase());
    if (distance <= Math.min(2, Math.floor(name.length / 3)) && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
