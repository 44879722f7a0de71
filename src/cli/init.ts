// `conformance init [--target NAME] [--out FILE]`: a starter conformance.config.json. JSON has no comments, so each
// part carries a "$comment" member (the config schema allows it there). Secrets are ${ENV} references, never values,
// and fixtures start empty: a check whose fixture is missing is skipped, whereas a made-up id would fail it falsely.
// Beside it goes the webhook receiver's lasting certificate (src/cli/receiver-certificate.ts), which the config names.
import { open } from 'node:fs/promises';
import path from 'node:path';
import { BUILTIN_TARGET, CONFIG_FILE_NAME } from '../config/load.js';
import { ConfigError } from '../errors.js';
import { fromPackageRoot, packageRoot } from '../paths.js';
import { installedConfigSchema, packageName } from '../version.js';
import { lastingCertificateNames } from '../receiver/certificate.js';
import {
  ensureReceiverCertificate,
  RECEIVER_CERT_FILE,
  RECEIVER_KEY_FILE,
  receiverCertificateLines,
  receiverCertificateState,
  type ReceiverCertificate,
} from './receiver-certificate.js';
import { shownPath } from './shown-path.js';

export interface InitOptions {
  target?: string;
  out?: string;
  cwd?: string;
}

const DEFAULT_INIT_TARGET = 'staging';
/** The environment variables the starter config reads. */
export const INIT_ENV = { clientSecret: 'CONFORMANCE_CLIENT_SECRET', privateKey: 'CONFORMANCE_PRIVATE_KEY' } as const;
/** Where the starter config's receiver listens: this machine only, any free port. */
const STARTER_LISTEN = '127.0.0.1:0';

export async function initCommand(
  opts: InitOptions = {},
  out: { write(text: string): unknown } = process.stdout,
): Promise<number> {
  const { file, target, certificate } = await writeStarterConfig(opts);
  const cwd = path.resolve(opts.cwd ?? process.cwd());
  out.write(
    [
      `Wrote ${file} with the target "${target}". Next:`,
      `  1. replace the example values: baseUrl, clientId, keyId (and add the fixture ids you have)`,
      `  2. make a signing key and register its public half: npx conformance keygen`,
      `  3. hand the webhook receiver's certificate below to the provider, for their server to trust`,
      `  4. export ${INIT_ENV.clientSecret} and ${INIT_ENV.privateKey} (the key's PEM text)`,
      `  5. npx conformance run --target ${target}${path.basename(file) === CONFIG_FILE_NAME && path.dirname(file) === cwd ? '' : ` --config ${path.relative(cwd, file) || file}`}`,
      '',
      ...receiverCertificateLines(certificate, (f) => shownPath(cwd, f)),
    ].join('\n'),
  );
  return 0;
}

export async function writeStarterConfig(
  opts: InitOptions = {},
): Promise<{ file: string; target: string; certificate: ReceiverCertificate }> {
  const target = opts.target ?? DEFAULT_INIT_TARGET;
  if (target.trim() === '')
    throw new ConfigError('init: --target needs a name, e.g. "staging"', 'CONFORMANCE_ERR_USAGE');
  if (target === BUILTIN_TARGET)
    throw new ConfigError(
      `init: "${BUILTIN_TARGET}" is the built-in target (the embedded reference server) and needs no config; choose another name, e.g. "staging"`,
      'CONFORMANCE_ERR_USAGE',
    );
  const cwd = opts.cwd ?? process.cwd();
  const file = path.resolve(cwd, opts.out ?? CONFIG_FILE_NAME);
  const dir = path.dirname(file);
  const text = `${JSON.stringify(starterConfig(target, schemaReference(dir)), null, 2)}\n`;
  // Before the config is written: a receiver key without its certificate (or the reverse) is refused, never replaced.
  await receiverCertificateState(dir);
  let handle;
  try {
    // 'wx': a config someone already edited is never replaced.
    handle = await open(file, 'wx', 0o644);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST')
      throw new ConfigError(
        `init: ${file} already exists and is not overwritten: edit it, or write elsewhere with --out FILE`,
        'CONFORMANCE_ERR_OUTPUT_PATH',
      );
    throw new ConfigError(
      `init: cannot write ${file} (${code ?? 'unknown error'}): check the folder exists, or choose another with --out FILE`,
      'CONFORMANCE_ERR_OUTPUT_PATH',
    );
  }
  try {
    await handle.writeFile(text, 'utf8');
  } finally {
    await handle.close();
  }
  const certificate = await ensureReceiverCertificate(dir, lastingCertificateNames([{ listen: STARTER_LISTEN }]));
  return { file, target, certificate };
}

/** The starter document. Comments name variables without the ${…} form: $comment strings are substituted too. */
function starterConfig(target: string, schema: string): Record<string, unknown> {
  return {
    $schema: schema,
    $comment:
      'Starter configuration written by `conformance init`. Replace the example values with those the provider gave you. Secrets are never written here: any string may read an environment variable with the dollar-brace form used below. Every field is described in the schema named by $schema (editors show it) and in the README section "Pointing it at your server".',
    targets: {
      [target]: {
        $comment: `The server checked by \`npx conformance run --target ${target}\`. baseUrl includes /v1. clientSecret comes from ${INIT_ENV.clientSecret}; privateKey from ${INIT_ENV.privateKey}, the PKCS8 PEM text of the client's Ed25519 key (\`npx conformance keygen\` makes one and prints the public half to register, and the keyId to use). To read the key from a file instead, replace privateKey with "privateKeyFile": "./conformance-ed25519.pem". Behind a corporate proxy, HTTPS_PROXY and NO_PROXY are honoured; add "proxy": "http://HOST:PORT" (or "none") to decide for this target alone. When the server asks for a client certificate (mutual TLS), add "clientCertFile": "./client.pem" and "clientKeyFile": "./client-key.pem" (PEM files the provider issued), and "caFile" when its own certificate comes from a private CA. A client has one webhook and the interface no DELETE, so a webhook's creation is seen once per client: keep .conformance/carried.json between runs (it carries that observation forward), or add "webhookClient": {"clientId", "clientSecret", "keyId"} for a second client of the provider's with no webhook.`,
        baseUrl: `https://${/^[a-z0-9-]+$/i.test(target) ? target.toLowerCase() : 'staging'}.example.com/v1`,
        clientId: 'your-client-id',
        clientSecret: `\${${INIT_ENV.clientSecret}}`,
        keyId: 'your-key-id',
        privateKey: `\${${INIT_ENV.privateKey}}`,
        fixtures: {
          $comment:
            'Ids of existing records on the target; add those you have. customerId: a customer with accounts, assets and transactions; otherCustomerId: a second customer; accountId, assetId, transactionId: records of customerId; mutableCustomerId: the only customer a run changes (PUT /customers, restored afterwards); paginationCustomerId: a customer with enough records for several pages; unknownId: an id no record has. A check whose fixture is missing is skipped, never failed.',
        },
        webhook: {
          $comment: `The receiver the webhooks suite starts. The server must reach it over https and trust its certificate: ${RECEIVER_CERT_FILE}, made with this file and valid for a year, which you hand to the provider. When the server cannot reach this machine directly, put a tunnel or proxy in front, set publicUrl to its https address, and tls to "none" if the proxy terminates TLS. When the server reaches the receiver at another name (publicUrl, listen), delete the two files and run \`npx conformance keygen\` for a certificate with that name. docs/webhook-receiver.md shows each set-up.`,
          listen: STARTER_LISTEN,
          tls: { certFile: `./${RECEIVER_CERT_FILE}`, keyFile: `./${RECEIVER_KEY_FILE}` },
        },
      },
    },
  };
}

/**
 * $schema as editors resolve it: relative to the config's folder. The package's own schema when the package sits in
 * that folder's tree or in a node_modules above it; otherwise (npx from its cache, a global install) where a project
 * install will put it.
 */
function schemaReference(dir: string): string {
  const rel = path.relative(dir, packageRoot).split(path.sep).join('/');
  const inTree = rel === '' || !rel.startsWith('..');
  const installedAt = `node_modules/${packageName()}`;
  const inAncestorModules = rel.endsWith(installedAt) && /^(\.\.\/)*$/.test(rel.slice(0, -installedAt.length));
  if (!inTree && !inAncestorModules) return installedConfigSchema();
  const schema = path.relative(dir, fromPackageRoot('schemas', 'config.schema.json')).split(path.sep).join('/');
  return schema.startsWith('.') ? schema : `./${schema}`;
}
