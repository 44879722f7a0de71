// A schema error of the config file as one line: the field, what was expected, what to do, a "did you mean" for a
// mistyped name; values shown only where they cannot be secret.
import type { ErrorObject } from 'ajv/dist/2020.js';
import { closestWord } from '../suggest.js';
import { formatPath, type JsonPath } from './env.js';
import { isObject } from './json-error.js';
import { BUILTIN_TARGET } from './names.js';
import { installedConfigSchema } from '../version.js';

const FIXTURE_HINT = 'a non-negative integer id, or a string of digits such as "${CONFORMANCE_CUSTOMER_ID}"';

const MISSING_HINT: Record<string, string> = {
  targets:
    'add "targets", an object mapping each target name to its settings (see fixtures/example.config.json in the package)',
  baseUrl: `add the target's base URL including /v1, e.g. "https://staging.example.com/v1"`,
  clientId: 'add the client id the server issued for conformance runs, e.g. "acme"',
  clientSecret: 'add the client secret, normally from the environment: "clientSecret": "${CONFORMANCE_CLIENT_SECRET}"',
  keyId: `add the id under which the server knows the client's Ed25519 public key (the signature keyid), e.g. "acme-2026"`,
  privateKeyFile:
    'give "privateKeyFile" (path of a PKCS8 PEM Ed25519 key, relative to the config file) or "privateKey" (the PEM text, e.g. "${CONFORMANCE_PRIVATE_KEY}")',
  'webhook.tls.certFile': 'add the path of the PEM certificate the receiver presents, relative to the config file',
  'webhook.tls.keyFile': 'add the path of the PEM private key of certFile, relative to the config file',
  'revoke.body': 'add "body": "none", "form" or "json" (how POST /oauth/revoke carries the token), or remove "revoke"',
};

const EXPECTED: Record<string, string> = {
  '': 'a JSON object with "targets", e.g. {"targets": {"staging": {…}}}',
  $schema: `a path or URL of the schema, e.g. "${installedConfigSchema()}"`,
  $comment: 'a string (a note for people, ignored)',
  'target.$comment': 'a string (a note for people, ignored)',
  'fixtures.$comment': 'a string (a note for people, ignored)',
  'webhook.$comment': 'a string (a note for people, ignored)',
  'revoke.$comment': 'a string (a note for people, ignored)',
  'signing.$comment': 'a string (a note for people, ignored)',
  targets: 'an object mapping each target name to its settings',
  target: 'an object with baseUrl, clientId, clientSecret, keyId and privateKeyFile or privateKey',
  baseUrl:
    'an http or https URL including /v1, without query, fragment or user name, e.g. "https://staging.example.com/v1"',
  clientId: 'a non-empty string',
  clientSecret: 'a non-empty string, normally "${CONFORMANCE_CLIENT_SECRET}"',
  keyId: 'a non-empty string',
  privateKey: 'the PKCS8 PEM text of an Ed25519 key, normally "${CONFORMANCE_PRIVATE_KEY}"',
  privateKeyFile: 'the path of a PKCS8 PEM Ed25519 key file, relative to the config file',
  caFile: 'the path of a PEM file of CA certificates, relative to the config file',
  proxy:
    'an http or https proxy URL, e.g. "http://proxy.example.com:3128", or "none" to reach the target directly whatever HTTPS_PROXY says',
  clientCertFile: 'the path of the PEM client certificate for mutual TLS, relative to the config file',
  clientKeyFile: 'the path of the PEM private key of clientCertFile, relative to the config file',
  clientKeyPassphrase:
    'an environment variable holding the passphrase of clientKeyFile, e.g. "${CONFORMANCE_CLIENT_KEY_PASSPHRASE}"',
  concurrency: 'a whole number from 1 to 64: how many checks may run at once',
  fixtures:
    'an object of record ids (customerId, otherCustomerId, accountId, assetId, transactionId, mutableCustomerId, paginationCustomerId, unknownId)',
  'fixtures.*': FIXTURE_HINT,
  webhook: 'an object with listen, publicUrl and tls, all optional',
  signing: 'an object with windowSeconds, components and label, all optional',
  'signing.windowSeconds': 'a whole number of seconds from 1 to 3600 between created and expires, e.g. 60',
  'signing.components':
    'a list of the derived components covering the method and the target, each once, e.g. ["@method", "@path", "@query"]',
  'signing.components.*': 'one of "@method", "@target-uri", "@path", "@query"',
  'signing.label': 'a structured-field key (lowercase letters, digits, _ - . *), e.g. "sig1"',
  'webhook.listen': 'host:port the receiver binds, e.g. "127.0.0.1:0" (port 0 picks a free port)',
  'webhook.publicUrl':
    'an https URL (the spec requires https for webhooks), e.g. "https://hooks.example.com/conformance"',
  'webhook.tls': '"self-signed", "none" or {"certFile": "...", "keyFile": "..."}',
  'webhook.tls.certFile': 'the path of a PEM certificate, relative to the config file',
  'webhook.tls.keyFile': 'the path of a PEM private key, relative to the config file',
  revoke: 'an object {"body": "none" | "form" | "json"}: how POST /oauth/revoke carries the token',
  'revoke.body':
    '"none" (the token in Authorization alone), "form" (a form body token=, RFC 7009) or "json" (a JSON body {"token": …})',
};

// Fields whose value may be quoted in a message: none of them is a secret.
const SHOWN = new Set([
  '$schema',
  'baseUrl',
  'proxy',
  'fixtures.*',
  'webhook.listen',
  'webhook.publicUrl',
  'webhook.tls',
  'revoke.body',
  'signing.windowSeconds',
  'signing.components.*',
  'signing.label',
]);

const PRIORITY: Record<string, number> = { additionalProperties: 0, propertyNames: 0, required: 1, oneOf: 1, type: 2 };

export function schemaMessage(errors: ErrorObject[], prefix: JsonPath, file: string): string {
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
      const known = Object.keys((first.parentSchema?.properties as object | undefined) ?? {}).filter(
        (k) => k !== '$comment',
      );
      const guess = closestWord(extra, known);
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
  if (inner[0] === 'signing' && inner[1] === 'components' && inner.length === 3) return 'signing.components.*';
  return inner.join('.');
}

function pointerParts(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .split('/')
        .slice(1)
        .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function describeValue(value: unknown, show: boolean): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string')
    return show ? JSON.stringify(clip(redactUserinfo(value))) : value === '' ? 'empty' : 'a string';
  if (typeof value === 'number') return show ? String(value) : 'a number';
  if (typeof value === 'boolean') return show ? String(value) : 'a boolean';
  return typeof value;
}

export function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

export function redactUserinfo(text: string): string {
  return text.replace(/(\/\/)[^/@\s]*@/, '$1[redacted]@');
}

/** The candidate a typo most likely meant: same letters in another case, or at most 2 edits away. */
