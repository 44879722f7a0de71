// `conformance keygen [--out DIR]`: the client's Ed25519 request-signing key. The private half goes to a file only its
// owner can read and never to the terminal; the public half is printed in the forms a provider registers (SPKI PEM,
// JWK) with the config lines that use the key.
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../errors.js';

export const KEY_FILE_NAME = 'conformance-ed25519.pem';

export interface KeygenOptions {
  /** Folder for the private key file; the current folder by default. */
  out?: string;
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
  const key = await generateKeyFile(opts);
  const cwd = opts.cwd ?? process.cwd();
  const relative = path.relative(cwd, key.privateKeyFile);
  const shown =
    relative.startsWith('..') || path.isAbsolute(relative)
      ? key.privateKeyFile
      : `./${relative.split(path.sep).join('/')}`;
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
    ].join('\n'),
  );
  return 0;
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
