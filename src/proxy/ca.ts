// The proxy's certificate authority: made on first use and kept (the certificate at `caOut`, its key beside it with
// mode 0600), so that a client trusts it once and every later session reuses it. A pair that is there but cannot be
// used is an error naming the file, never silently replaced: the client trusts the old certificate, and a new one
// would make its TLS fail for a reason it cannot see. Leaf certificates for the intercepted host are signed by it.
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isIP } from 'node:net';
import { ProxyCaError } from '../errors.js';

export interface ProxyCa {
  /** PEM certificate, as written at `certFile`. */
  cert: string;
  /** PEM private key, as written at `keyFile`. */
  key: string;
  certFile: string;
  keyFile: string;
  /** True when this call made the pair (first use), false when it read an existing one. */
  created: boolean;
}

/** The key's file beside the certificate's: `ca.pem` → `ca-key.pem` (`ca.crt` → `ca.crt-key.pem`). */
export function caKeyFile(certFile: string): string {
  return certFile.endsWith('.pem') ? `${certFile.slice(0, -4)}-key.pem` : `${certFile}-key.pem`;
}

/** The CA at `certFile`: read and checked when it is there, made and written when neither file is. */
export async function loadOrCreateCa(certFile: string): Promise<ProxyCa> {
  const keyFile = caKeyFile(certFile);
  const haveCert = existsSync(certFile);
  const haveKey = existsSync(keyFile);
  if (haveCert && haveKey) return { ...readCa(certFile, keyFile), certFile, keyFile, created: false };
  if (haveCert !== haveKey) {
    const [there, missing] = haveCert ? [certFile, keyFile] : [keyFile, certFile];
    throw new ProxyCaError(
      `proxy CA: ${there} is there but ${missing} is not; restore it, or delete ${there} and a new CA is made`,
    );
  }
  const made = await makeCa();
  // The key first, created with its mode (never a moment readable by others), and neither file overwritten.
  writeNew(keyFile, made.key, 0o600);
  try {
    writeNew(certFile, made.cert, 0o644);
  } catch (err) {
    // A key without its certificate would be refused at the next start: it goes.
    rmSync(keyFile, { force: true });
    throw err;
  }
  return { ...made, certFile, keyFile, created: true };
}

/** Creates `file` (never overwrites it); a failure is a ProxyCaError naming the file and why. */
function writeNew(file: string, text: string, mode: number): void {
  try {
    writeFileSync(file, text, { mode, flag: 'wx' });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    const why =
      code === 'ENOENT'
        ? `its folder ${dirname(file)} does not exist; create it or give --ca-out a path in a folder that does`
        : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
          ? `no permission to write in ${dirname(file)} (${code}); give --ca-out a path you can write`
          : `${code}; give --ca-out another path`;
    throw new ProxyCaError(`proxy CA: cannot write ${file}: ${why}`);
  }
}

function readCa(certFile: string, keyFile: string): { cert: string; key: string } {
  const mode = statSync(keyFile).mode & 0o777;
  if (mode !== 0o600)
    throw new ProxyCaError(
      `proxy CA: ${keyFile} has mode 0${mode.toString(8)}, readable by others than its owner; run 'chmod 600 ${keyFile}'`,
    );
  const cert = readText(certFile);
  const key = readText(keyFile);
  let x509: X509Certificate;
  let privateKey: KeyObject;
  try {
    x509 = new X509Certificate(cert);
  } catch {
    throw new ProxyCaError(`proxy CA: ${certFile} holds no PEM certificate; delete it and ${keyFile} to make a new CA`);
  }
  try {
    privateKey = createPrivateKey(key);
  } catch {
    throw new ProxyCaError(`proxy CA: ${keyFile} holds no PEM private key; delete it and ${certFile} to make a new CA`);
  }
  if (!x509.checkPrivateKey(privateKey))
    throw new ProxyCaError(`proxy CA: ${keyFile} is not the key of ${certFile}; delete both to make a new CA`);
  if (!x509.ca) throw new ProxyCaError(`proxy CA: ${certFile} is not a CA certificate; delete both files`);
  if (Date.parse(x509.validTo) <= Date.now())
    throw new ProxyCaError(`proxy CA: ${certFile} expired on ${x509.validTo}; delete both files to make a new CA`);
  return { cert, key };
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new ProxyCaError(`proxy CA: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** Ten years: the client is asked to trust the CA once; the leaves it signs are short-lived anyway. */
const CA_YEARS = 10;

async function makeCa(): Promise<{ cert: string; key: string }> {
  // selfsigned (with @peculiar/x509) is loaded only when a certificate is made: about 15 MB a session need not keep.
  const { generate } = await import('selfsigned');
  const now = new Date();
  const pems = await generate([{ name: 'commonName', value: 'conformance proxy CA (local, this machine only)' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - 60_000),
    notAfterDate: new Date(now.getTime() + CA_YEARS * 365 * 24 * 3600_000),
    extensions: [
      { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/** A certificate for `host` (a DNS name or an IP), signed by the CA, valid a day either side of now. */
export async function leafFor(ca: Pick<ProxyCa, 'cert' | 'key'>, host: string): Promise<{ cert: string; key: string }> {
  const { generate } = await import('selfsigned');
  const now = Date.now();
  const pems = await generate([{ name: 'commonName', value: host }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 24 * 3600_000),
    notAfterDate: new Date(now + 30 * 24 * 3600_000),
    ca: { cert: ca.cert, key: ca.key },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [isIP(host) ? { type: 7, ip: host } : { type: 2, value: host }] },
    ],
  });
  // The chain the client is sent: the leaf, then the CA (it trusts the CA; some clients want the chain whole).
  return { cert: `${pems.cert.trimEnd()}\n${ca.cert.trimEnd()}\n`, key: pems.private };
}
