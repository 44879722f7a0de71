// `conformance keygen [--out DIR]`: the client's Ed25519 request-signing key. The private half goes to a file only its
// owner can read and never to the terminal; the public half is printed in the forms a provider registers (SPKI PEM,
// JWK) with the config lines that use the key. It also makes the webhook receiver's lasting certificate beside the
// config when there is none (src/cli/receiver-certificate.ts), for the hosts the config's webhook settings name, and
// prints it then; one it keeps is named in one line.
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdir, open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { CONFIG_FILE_NAME } from '../config/load.js';
import { ConfigError } from '../errors.js';
import { lastingCertificateNames } from '../receiver/certificate.js';
import {
  ensureReceiverCertificate,
  keptCertificateLines,
  receiverCertificateLines,
  receiverCertificateState,
  type ReceiverCertificate,
} from './receiver-certificate.js';
import { shownPath } from './shown-path.js';

export const KEY_FILE_NAME = 'conformance-ed25519.pem';

export interface KeygenOptions {
  /** Folder for the private key file; the current folder by default. */
  out?: string;
  /** The config beside which the receiver's certificate goes, and whose webhook settings it covers; ./conformance.config.json by default. */
  config?: string;
  cwd?: string;
}

interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
}

export interface GeneratedKey {
  privateKeyFile: string;
  publicKeyPem: string;
  jwk: PublicJwk;
}

export async function keygenCommand(
  opts: KeygenOptions = {},
  out: { write(text: string): unknown } = process.stdout,
): Promise<number> {
  const cwd = path.resolve(opts.cwd ?? process.cwd());
  const configFile = path.resolve(cwd, opts.config ?? CONFIG_FILE_NAME);
  // A receiver key without its certificate (or the reverse) is refused before any file is written.
  await receiverCertificateState(path.dirname(configFile));
  const key = await generateKeyFile(opts);
  const shown = shownPath(cwd, key.privateKeyFile);
  const receiver = await receiverCertificateBesideConfig(configFile);
  out.write(
    [
      `Private key written to ${key.privateKeyFile} (mode 0600). Keep it secret: never commit it, never send it to anyone.`,
      '',
      'Public key to register with the provider, as PEM (SPKI):',
      '',
      key.publicKeyPem.trimEnd(),
      '',
      'and as JWK (kid is its RFC 7638 thumbprint):',
      '',
      JSON.stringify(key.jwk, null, 2),
      '',
      'Config lines for your target in conformance.config.json (keyId: the key id the provider registers the key under;',
      'the thumbprint unless they assign another; privateKeyFile is relative to the config file, here assumed in this folder):',
      '',
      `      "keyId": ${JSON.stringify(key.jwk.kid)},`,
      `      "privateKeyFile": ${JSON.stringify(shown)},`,
      '',
      `In CI, rather than a file: store the PEM text in a secret and give "privateKey": "\${CONFORMANCE_PRIVATE_KEY}".`,
      '',
      // Only what is new: the certificate in full when this command made it.
      ...(receiver.certificate.created ? receiverCertificateLines : keptCertificateLines)(receiver.certificate, (f) =>
        shownPath(cwd, f),
      ),
      ...(receiver.named
        ? []
        : [
            'For the receiver to present it, in the "webhook" of your target (paths relative to the config file):',
            '',
            `      "tls": ${JSON.stringify(receiver.tls)}`,
            '',
          ]),
    ].join('\n'),
  );
  return 0;
}

/**
 * The receiver's certificate in the config's folder (kept when it exists, else made for the hosts of the config's
 * webhook settings), and whether every target of the config names it already in webhook.tls.
 */
async function receiverCertificateBesideConfig(
  configFile: string,
): Promise<{ certificate: ReceiverCertificate; named: boolean; tls: { certFile: string; keyFile: string } }> {
  const dir = path.dirname(configFile);
  const webhooks = await webhookSettings(configFile);
  const certificate = await ensureReceiverCertificate(dir, lastingCertificateNames(webhooks));
  const tls = { certFile: shownPath(dir, certificate.certFile), keyFile: shownPath(dir, certificate.keyFile) };
  const names = (file: unknown, own: string) => typeof file === 'string' && path.resolve(dir, file) === own;
  const named =
    webhooks.length > 0 &&
    webhooks.every(
      (w) =>
        typeof w.tls === 'object' &&
        w.tls !== null &&
        names((w.tls as { certFile?: unknown }).certFile, certificate.certFile) &&
        names((w.tls as { keyFile?: unknown }).keyFile, certificate.keyFile),
    );
  return { certificate, named, tls };
}

/**
 * The webhook settings of each target of the config as written (no variable substituted: keygen runs before the
 * secrets are set); none when there is no config, or it cannot be read, or a value is a variable.
 */
async function webhookSettings(
  configFile: string,
): Promise<Array<{ listen?: string; publicUrl?: string; tls?: unknown }>> {
  let doc: unknown;
  try {
    doc = JSON.parse(await readFile(configFile, 'utf8'));
  } catch {
    return [];
  }
  const targets = (doc as { targets?: unknown } | null)?.targets;
  if (typeof targets !== 'object' || targets === null) return [];
  const literal = (v: unknown) => (typeof v === 'string' && !v.includes('${') ? v : undefined);
  return Object.values(targets).map((t) => {
    const w = (t as { webhook?: Record<string, unknown> } | null)?.webhook ?? {};
    const listen = literal(w.listen);
    const publicUrl = literal(w.publicUrl);
    return { ...(listen ? { listen } : {}), ...(publicUrl ? { publicUrl } : {}), tls: w.tls };
  });
}

/** A fresh key pair; the private key as PKCS8 PEM in DIR/conformance-ed25519.pem, created 0600, never overwritten. */
export async function generateKeyFile(opts: KeygenOptions = {}): Promise<GeneratedKey> {
  const dir = path.resolve(opts.cwd ?? process.cwd(), opts.out ?? '.');
  const file = path.join(dir, KEY_FILE_NAME);
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new ConfigError(
      `keygen: cannot create the folder ${dir} (${(err as NodeJS.ErrnoException).code ?? 'unknown error'}): choose another with --out`,
      'CONFORMANCE_ERR_OUTPUT_PATH',
    );
  }
  // 'wx' creates or fails, atomically: an existing key (perhaps already registered) is never replaced.
  let handle;
  try {
    handle = await open(file, 'wx', 0o600);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST')
      throw new ConfigError(
        `keygen: ${file} already exists and is not overwritten: it may be the key the provider knows; move it away first, or use --out DIR`,
        'CONFORMANCE_ERR_OUTPUT_PATH',
      );
    throw new ConfigError(
      `keygen: cannot write ${file} (${code ?? 'unknown error'}): choose another folder with --out`,
      'CONFORMANCE_ERR_OUTPUT_PATH',
    );
  }
  try {
    await handle.writeFile(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), 'utf8');
    // The process umask can only narrow the mode open() was given; chmod states it whatever the umask.
    await handle.chmod(0o600);
  } finally {
    await handle.close();
  }
  return {
    privateKeyFile: file,
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    jwk: publicJwk(publicKey),
  };
}

/** The public JWK with kid = RFC 7638 thumbprint (RFC 8037 §2 names crv, kty, x as the OKP thumbprint members). */
function publicJwk(publicKey: KeyObject): PublicJwk {
  const x = publicKey.export({ format: 'jwk' }).x as string;
  return { kty: 'OKP', crv: 'Ed25519', x, kid: jwkThumbprint(x) };
}

export function jwkThumbprint(x: string): string {
  // Members in lexicographic order, no whitespace: RFC 7638 §3.2.
  return createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url');
}
