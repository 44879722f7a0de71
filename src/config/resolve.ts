// A target of the config file, checked by the schema, made ready to use: fixture ids as numbers, the private key read
// and parsed, files found relative to the config, the webhook receiver's address and TLS. Every problem is one
// ConfigError line naming the field; no message quotes a secret.
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { statSync } from 'node:fs';
import { access, constants, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import { KeyError, parsePrivateKeyPem, type Ed25519KeyPair } from '../http/keys.js';
import { formatPath } from './env.js';
import { isObject } from './json-error.js';
import { TARGET_COMPONENTS, type SigningProfile, type TargetComponent } from '../http/signature.js';
import { parseProxyUrl, type ClientCertificate } from '../http/route.js';
import type { FixtureName, Fixtures, ResolvedTarget, RevokeBody, WebhookConfig, WebhookTls } from './types.js';
import { clip, redactUserinfo } from './messages.js';

/** Where the webhook receiver listens when the config does not say: loopback, any free port. */
const DEFAULT_WEBHOOK_LISTEN = '127.0.0.1:0';

export interface RawTarget {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  keyId: string;
  privateKey?: string;
  privateKeyFile?: string;
  caFile?: string;
  proxy?: string;
  clientCertFile?: string;
  clientKeyFile?: string;
  clientKeyPassphrase?: string;
  concurrency?: number;
  fixtures?: Partial<Record<FixtureName, number | string>> & { $comment?: string };
  webhook?: { listen?: string; publicUrl?: string; tls?: string | { certFile: string; keyFile: string } };
  revoke?: { body: RevokeBody; $comment?: string };
  signing?: { windowSeconds?: number; components?: string[]; label?: string; $comment?: string };
  webhookClient?: {
    clientId: string;
    clientSecret: string;
    keyId?: string;
    privateKey?: string;
    privateKeyFile?: string;
  };
}

export async function resolveTarget(
  name: string,
  t: RawTarget,
  dir: string,
  warn: (line: string) => void,
): Promise<ResolvedTarget> {
  const at = (...rest: string[]): string => formatPath(['targets', name, ...rest]);

  const baseUrl = t.baseUrl.replace(/\/+$/, '');
  if (!isHttpUrl(baseUrl, ['http:', 'https:'])) {
    throw new ConfigError(
      `config: ${at('baseUrl')} is not a valid http or https URL: give the base URL including /v1, e.g. "https://staging.example.com/v1"`,
    );
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
      throw new ConfigError(
        `config: ${label} holds no PEM certificate ("-----BEGIN CERTIFICATE-----"): give the CA certificates the target's TLS certificate chains to, in PEM form`,
        'CONFORMANCE_ERR_CONFIG_FILE',
      );
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
  if (t.proxy !== undefined) target.proxy = resolveProxy(t.proxy, at('proxy'));
  const clientCertificate = await resolveClientCertificate(t, dir, at, warn);
  if (clientCertificate !== undefined) target.clientCertificate = clientCertificate;
  if (t.concurrency !== undefined) target.concurrency = t.concurrency;
  if (t.revoke !== undefined) target.revoke = { body: t.revoke.body };
  if (t.signing !== undefined) target.signing = resolveSigning(t.signing, at);
  if (t.webhookClient !== undefined) target.webhookClient = await resolveWebhookClient(t, pair, dir, at, warn);
  target.configFolder = dir;
  return target;
}

/** The second client of `webhookClient`: its key and key id are the target's unless it gives its own. */
async function resolveWebhookClient(
  t: RawTarget,
  targetKey: Ed25519KeyPair,
  dir: string,
  at: (...rest: string[]) => string,
  warn: (line: string) => void,
): Promise<NonNullable<ResolvedTarget['webhookClient']>> {
  const c = t.webhookClient!;
  let key = targetKey;
  if (c.privateKeyFile !== undefined) {
    const label = `${at('webhookClient', 'privateKeyFile')} (${c.privateKeyFile})`;
    const pem = await readText(dir, c.privateKeyFile, label);
    warnIfExposed(path.resolve(dir, c.privateKeyFile), label, warn);
    key = parseKey(pem, label, false);
  } else if (c.privateKey !== undefined) {
    key = parseKey(unescapeNewlines(c.privateKey), at('webhookClient', 'privateKey'), true);
  }
  return { clientId: c.clientId, clientSecret: c.clientSecret, keyId: c.keyId ?? t.keyId, privateKey: key.seed };
}

/**
 * The fields of the signing profile the config fixes. The schema has checked each field's form; what is left is the
 * one rule across the list: the components cover the method and the whole target, or a signature over them would be
 * valid for another method, path or query.
 */
function resolveSigning(
  s: NonNullable<RawTarget['signing']>,
  at: (...rest: string[]) => string,
): Partial<SigningProfile> {
  const fixed: { -readonly [K in keyof SigningProfile]?: SigningProfile[K] } = {};
  if (s.windowSeconds !== undefined) fixed.windowSeconds = s.windowSeconds;
  if (s.label !== undefined) fixed.label = s.label;
  if (s.components !== undefined) {
    const given = s.components as TargetComponent[];
    const shown = JSON.stringify(given);
    const fix = 'e.g. ["@method", "@target-uri", "@path", "@query"] or ["@method", "@path", "@query"]';
    if (!given.includes('@method'))
      throw new ConfigError(
        `config: ${at('signing', 'components')} is ${shown}: it must include "@method" (a signature without it would be valid for any method), ${fix}`,
      );
    if (!given.includes('@target-uri') && !(given.includes('@path') && given.includes('@query')))
      throw new ConfigError(
        `config: ${at('signing', 'components')} is ${shown}: it must cover the target, with "@target-uri" or with "@path" and "@query" together (else a signature would be valid on another path or with another query), ${fix}`,
      );
    // In the spec's order, whatever order the file lists them in: the order requests are signed in.
    fixed.components = TARGET_COMPONENTS.filter((c) => given.includes(c));
  }
  return fixed;
}

/** `proxy`: "none", or a proxy URL (http or https, credentials allowed: never quoted). */
function resolveProxy(given: string, label: string): string {
  if (given.trim() === 'none') return 'none';
  const parsed = parseProxyUrl(given);
  if ('problem' in parsed)
    throw new ConfigError(`config: ${label} ${parsed.problem}, or "none" to reach the target directly`);
  return given.trim();
}

/**
 * The client certificate for mutual TLS: clientCertFile (PEM, the chain after it) and its key, from clientKeyFile or
 * the same file, opened with clientKeyPassphrase when it is encrypted. Each problem is one line: a file missing or
 * unreadable, no PEM certificate or key in it, a passphrase missing or wrong, a key that is not the certificate's.
 */
async function resolveClientCertificate(
  t: RawTarget,
  dir: string,
  at: (...rest: string[]) => string,
  warn: (line: string) => void,
): Promise<ClientCertificate | undefined> {
  if (t.clientCertFile === undefined) {
    refuseKeyWithoutCertificate(t, at);
    return undefined;
  }
  const cert = await readClientCertificate(t.clientCertFile, dir, at);
  const { keyPem, keyLabel } = await readClientKey(t, dir, at, cert, warn);
  const key = openClientKey(keyPem, t.clientKeyPassphrase, keyLabel);
  const { x509, certLabel } = cert;
  if (!x509.checkPrivateKey(key))
    throw new ConfigError(
      `config: ${keyLabel} is not the key of ${certLabel} (subject ${oneLine(x509.subject)}): give the key that belongs to that certificate`,
      'CONFORMANCE_ERR_CONFIG_FILE',
    );
  const until = new Date(x509.validTo);
  if (until.getTime() < Date.now())
    warn(
      `conformance: warning: ${certLabel} expired on ${until.toISOString().slice(0, 10)}; a server checking client certificates will refuse it: ask the provider for a new one`,
    );
  return {
    cert: `${cert.certs.join('\n')}\n`,
    key: `${keyPem}\n`,
    ...(t.clientKeyPassphrase !== undefined ? { passphrase: t.clientKeyPassphrase } : {}),
    label: `${t.clientCertFile} (subject ${oneLine(x509.subject)}, issuer ${oneLine(x509.issuer)}, valid until ${until.toISOString().slice(0, 10)})`,
  };
}

/** clientKeyFile or clientKeyPassphrase without clientCertFile: a key alone authenticates nothing. */
function refuseKeyWithoutCertificate(t: RawTarget, at: (...rest: string[]) => string): void {
  const stray =
    t.clientKeyFile !== undefined
      ? 'clientKeyFile'
      : t.clientKeyPassphrase !== undefined
        ? 'clientKeyPassphrase'
        : undefined;
  if (stray !== undefined)
    throw new ConfigError(
      `config: ${at(stray)} is given without ${at('clientCertFile')}: add clientCertFile, the PEM certificate the key belongs to, or remove ${stray}`,
    );
}

/** clientCertFile read: its text, its certificate blocks (the client's first, the chain after) and the first parsed. */
async function readClientCertificate(
  file: string,
  dir: string,
  at: (...rest: string[]) => string,
): Promise<{ certLabel: string; certPem: string; certs: string[]; x509: X509Certificate }> {
  const certLabel = `${at('clientCertFile')} (${file})`;
  const certPem = await readText(dir, file, certLabel);
  const pkcs12 = /\.(p12|pfx)$/i.test(file)
    ? ` (a .p12/.pfx file is not PEM: convert it with 'openssl pkcs12 -in ${file} -out client.pem -nodes')`
    : '';
  if (!certPem.includes('-----BEGIN CERTIFICATE-----'))
    throw new ConfigError(
      `config: ${certLabel} holds no PEM certificate ("-----BEGIN CERTIFICATE-----")${pkcs12}: give the client certificate the provider issued, in PEM form`,
      'CONFORMANCE_ERR_CONFIG_FILE',
    );
  // The certificate blocks alone (a file may hold the key too): the first is the client's, the chain follows.
  const certs = certPem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  try {
    return { certLabel, certPem, certs, x509: new X509Certificate(certs[0] ?? '') };
  } catch {
    throw new ConfigError(
      `config: ${certLabel} holds a PEM certificate block that cannot be read as an X.509 certificate: give the client certificate the provider issued, in PEM form`,
      'CONFORMANCE_ERR_CONFIG_FILE',
    );
  }
}

/** The PEM private key block, from clientKeyFile (warned about when others can read it) or the certificate's file. */
async function readClientKey(
  t: RawTarget,
  dir: string,
  at: (...rest: string[]) => string,
  { certLabel, certPem }: { certLabel: string; certPem: string },
  warn: (line: string) => void,
): Promise<{ keyPem: string; keyLabel: string }> {
  const keyLabel =
    t.clientKeyFile !== undefined ? `${at('clientKeyFile')} (${t.clientKeyFile})` : `${certLabel}, read for its key`;
  const keyText = t.clientKeyFile !== undefined ? await readText(dir, t.clientKeyFile, keyLabel) : certPem;
  // The key block alone (PKCS8, encrypted or not, or a traditional RSA or EC one).
  const keyPem = /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY-----[\s\S]*?-----END \1PRIVATE KEY-----/.exec(keyText)?.[0];
  if (keyPem === undefined)
    throw new ConfigError(
      t.clientKeyFile !== undefined
        ? `config: ${keyLabel} holds no PEM private key ("-----BEGIN … PRIVATE KEY-----"): give the private key of clientCertFile, in PEM form`
        : `config: ${certLabel} holds no private key, and no clientKeyFile is given: add "clientKeyFile", the path of the certificate's PEM private key`,
      'CONFORMANCE_ERR_CONFIG_FILE',
    );
  if (t.clientKeyFile !== undefined) warnIfExposed(path.resolve(dir, t.clientKeyFile), keyLabel, warn);
  return { keyPem, keyLabel };
}

/** The key opened, with the passphrase when one is given; a missing or wrong passphrase is said as such. */
function openClientKey(keyPem: string, passphrase: string | undefined, keyLabel: string): KeyObject {
  try {
    return createPrivateKey({ key: keyPem, ...(passphrase !== undefined ? { passphrase } : {}) });
  } catch (err) {
    const code = errorCode(err);
    const encrypted = /ENCRYPTED/.test(keyPem);
    const problem =
      code === 'ERR_MISSING_PASSPHRASE' || (encrypted && passphrase === undefined)
        ? `is encrypted and no passphrase is given: add "clientKeyPassphrase": "\${CONFORMANCE_CLIENT_KEY_PASSPHRASE}" and export that variable`
        : encrypted
          ? `cannot be opened with clientKeyPassphrase (wrong passphrase?): check the variable it names`
          : `cannot be read as a private key (${code ?? 'unknown error'}): give the PEM private key of clientCertFile`;
    throw new ConfigError(`config: ${keyLabel} ${problem}`, 'CONFORMANCE_ERR_CONFIG_FILE');
  }
}

/** A certificate's subject or issuer (one attribute a line) on one line. */
function oneLine(name: string): string {
  return name.split('\n').filter(Boolean).join(', ');
}

function parseKey(pem: string, label: string, inline: boolean): Ed25519KeyPair {
  try {
    return parsePrivateKeyPem(pem);
  } catch (err) {
    if (!(err instanceof KeyError)) {
      throw new ConfigError(
        `config: ${label} could not be read as an Ed25519 private key: give a PKCS8 PEM key, e.g. generate one with 'openssl genpkey -algorithm ed25519'`,
        'CONFORMANCE_ERR_KEY',
      );
    }
    // keys.ts says "is a rsa key"; key type names are read as letters ("an RSA", "an EC", "an X25519", "a DSA").
    const reason = err.message.replace(/^is a (?=[aeiourx])/i, 'is an ');
    const fileHint = inline && !pem.includes('-----BEGIN') ? ' (to give a file path, use privateKeyFile instead)' : '';
    throw new ConfigError(
      `config: ${label} ${reason}${fileHint}: generate one with 'openssl genpkey -algorithm ed25519'`,
      'CONFORMANCE_ERR_KEY',
    );
  }
}

async function resolveWebhook(
  w: NonNullable<RawTarget['webhook']>,
  dir: string,
  at: (...rest: string[]) => string,
): Promise<WebhookConfig> {
  const listen = w.listen ?? DEFAULT_WEBHOOK_LISTEN;
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):([0-9]{1,5})$/.exec(listen);
  if (!match || Number(match[2]) > 65535) {
    throw new ConfigError(
      `config: ${at('webhook', 'listen')} is ${JSON.stringify(clip(listen))}: it must be host:port with a port from 0 to 65535, e.g. "${DEFAULT_WEBHOOK_LISTEN}" (port 0 picks a free port)`,
    );
  }

  if (w.publicUrl !== undefined && !isHttpUrl(w.publicUrl, ['https:'])) {
    throw new ConfigError(
      `config: ${at('webhook', 'publicUrl')} is ${JSON.stringify(clip(redactUserinfo(w.publicUrl)))}: it must be an https URL (the spec requires https for webhooks), e.g. "https://hooks.example.com/conformance"`,
    );
  }

  let tls: WebhookTls;
  const given = w.tls ?? 'self-signed';
  if (typeof given === 'string') {
    if (given !== 'self-signed' && given !== 'none') {
      throw new ConfigError(
        `config: ${at('webhook', 'tls')} is ${JSON.stringify(clip(given))}: it must be "self-signed", "none" or {"certFile": "...", "keyFile": "..."}`,
      );
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
    throw new ConfigError(
      `config: ${label} is ${JSON.stringify(clip(value))}: it must be a non-negative integer id, or a string of digits such as "\${CONFORMANCE_CUSTOMER_ID}"`,
    );
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
    throw new ConfigError(
      `config: ${label} ${fsProblem(err)}${located(file, given)}: check the path; a relative path starts from the config file's folder`,
      'CONFORMANCE_ERR_CONFIG_FILE',
    );
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
  warn(
    `conformance: warning: ${label} is readable by ${mode & 0o007 ? 'others' : 'its group'} (mode ${mode.toString(8).padStart(4, '0')}); a private key must be readable by you only: chmod 600 ${file}`,
  );
}

async function readablePath(dir: string, given: string, label: string): Promise<string> {
  const file = path.resolve(dir, given);
  try {
    await access(file, constants.R_OK);
  } catch (err) {
    throw new ConfigError(
      `config: ${label} ${fsProblem(err)}${located(file, given)}: check the path; a relative path starts from the config file's folder`,
      'CONFORMANCE_ERR_CONFIG_FILE',
    );
  }
  return file;
}

function located(file: string, given: string): string {
  return file === given ? '' : ` (looked at ${file})`;
}

export function fsProblem(err: unknown): string {
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

export function errorCode(err: unknown): string | undefined {
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
