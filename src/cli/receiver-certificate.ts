// The webhook receiver's lasting certificate, made by `conformance init` and `keygen` beside the config. A certificate
// made afresh for each run (tls "self-signed") can be trusted only by a server on this machine; this one lasts a year,
// so the provider trusts it once. Neither command ever replaces it: the provider may trust it already.
import { X509Certificate } from 'node:crypto';
import { open, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import { certificateFingerprint, makeCertificate } from '../receiver/certificate.js';
import { isLoopbackHost } from '../http/loopback.js';

export const RECEIVER_CERT_FILE = 'conformance-receiver-cert.pem';
export const RECEIVER_KEY_FILE = 'conformance-receiver-key.pem';

/** How long the certificate is valid: a year, so a CI job's runs keep the one the provider trusts. */
const VALID_DAYS = 365;

export interface ReceiverCertificate {
  /** Absolute paths of the two files. */
  certFile: string;
  keyFile: string;
  certPem: string;
  /** SHA-256 fingerprint, `AA:BB:…`. */
  fingerprint: string;
  /** The names its SANs cover and its last day, as the certificate says. */
  names: string[];
  validTo: string;
  /** False when both files existed and were kept. */
  created: boolean;
}

/** Whether the certificate and key exist in `dir`: both, neither, or one alone (a ConfigError: nothing is replaced). */
export async function receiverCertificateState(dir: string): Promise<'both' | 'none'> {
  const cert = path.join(dir, RECEIVER_CERT_FILE);
  const key = path.join(dir, RECEIVER_KEY_FILE);
  const [hasCert, hasKey] = await Promise.all([exists(cert), exists(key)]);
  if (hasCert && hasKey) return 'both';
  if (!hasCert && !hasKey) return 'none';
  const [there, missing] = hasCert ? [cert, key] : [key, cert];
  throw new ConfigError(
    `${there} exists but ${missing} does not: the webhook receiver needs both; restore ${path.basename(missing)}, or move ${path.basename(there)} away to make a new pair`,
    'CONFORMANCE_ERR_OUTPUT_PATH',
  );
}

/**
 * The receiver's certificate and key in `dir`: kept when both exist, else made for `names` (the key created 0600).
 * Files are created exclusively, so one that appears meanwhile is never overwritten.
 */
export async function ensureReceiverCertificate(dir: string, names: readonly string[]): Promise<ReceiverCertificate> {
  const certFile = path.join(dir, RECEIVER_CERT_FILE);
  const keyFile = path.join(dir, RECEIVER_KEY_FILE);
  if ((await receiverCertificateState(dir)) === 'both')
    return describe(certFile, keyFile, await readFile(certFile, 'utf8'), false);
  const material = await makeCertificate(names, new Date(Date.now() + VALID_DAYS * 24 * 60 * 60 * 1000));
  await writeNew(keyFile, material.key, 0o600);
  await writeNew(certFile, material.cert, 0o644);
  return describe(certFile, keyFile, material.cert, true);
}

/** What `init` and `keygen` print: where the files are, and the certificate to hand to the provider. */
export function receiverCertificateLines(cert: ReceiverCertificate, shown: (file: string) => string): string[] {
  const head = cert.created
    ? `Webhook receiver certificate written to ${shown(cert.certFile)}, its key to ${shown(cert.keyFile)} (mode 0600: never send the key).`
    : `Webhook receiver certificate ${shown(cert.certFile)} exists and is kept, with its key ${shown(cert.keyFile)}: the provider may trust it already.`;
  const local = cert.names.length > 0 && cert.names.every(isLoopbackHost);
  return [
    head,
    `Valid until ${cert.validTo} for ${cert.names.join(', ')}. Hand it to the provider for their server to trust when it delivers`,
    'webhooks (docs/webhook-receiver.md also shows the other set-ups: a certificate from their CA, a tunnel or proxy).',
    ...(local
      ? [
          'Those names reach this machine only: when the server reaches the receiver at another name (webhook.publicUrl or',
          'webhook.listen), delete both files and run `npx conformance keygen` for a certificate with that name.',
        ]
      : []),
    '',
    `SHA-256 fingerprint ${cert.fingerprint}`,
    '',
    cert.certPem.trimEnd(),
    '',
  ];
}

/**
 * What `keygen` prints of a certificate it kept: one line. `init` or an earlier keygen printed it whole when it was
 * made, and the provider may trust it already; printing it again said nothing new and read as if it had changed.
 */
export function keptCertificateLines(cert: ReceiverCertificate, shown: (file: string) => string): string[] {
  return [
    `Webhook receiver certificate ${shown(cert.certFile)} exists and is kept, with its key ${shown(cert.keyFile)}: unchanged (SHA-256 fingerprint ${cert.fingerprint}, valid until ${cert.validTo}), nothing new to hand to the provider.`,
    '',
  ];
}

function describe(certFile: string, keyFile: string, certPem: string, created: boolean): ReceiverCertificate {
  let names: string[] = [];
  let validTo = '(unreadable)';
  let fingerprint = '(unreadable)';
  try {
    const x509 = new X509Certificate(certPem);
    fingerprint = certificateFingerprint(certPem);
    validTo = new Date(x509.validTo).toISOString().slice(0, 10);
    names = (x509.subjectAltName ?? '').split(', ').flatMap(sanName);
  } catch {
    // A kept file that is not a certificate: the run says so when the receiver starts; here it is only described.
  }
  return { certFile, keyFile, certPem, fingerprint, names, validTo, created };
}

/** A SAN entry as a person writes it: "DNS:a.example" → a.example, "IP Address:0:0:…:1" → ::1. */
function sanName(entry: string): string[] {
  const [kind, value] = [entry.slice(0, entry.indexOf(':')), entry.slice(entry.indexOf(':') + 1)];
  if (kind === 'DNS') return [value];
  if (kind !== 'IP Address') return [];
  return [value.includes(':') ? new URL(`http://[${value}]`).hostname.slice(1, -1) : value];
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new ConfigError(
      `cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? 'unknown error'})`,
      'CONFORMANCE_ERR_OUTPUT_PATH',
    );
  }
}

async function writeNew(file: string, text: string, mode: number): Promise<void> {
  let handle;
  try {
    handle = await open(file, 'wx', mode);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigError(
      code === 'EEXIST'
        ? `${file} appeared while it was being made and is not overwritten: run the command again to keep it`
        : `cannot write ${file} (${code ?? 'unknown error'}): check the folder exists and is writable`,
      'CONFORMANCE_ERR_OUTPUT_PATH',
    );
  }
  try {
    await handle.writeFile(text, 'utf8');
    // The umask can only narrow the mode open() was given; chmod states it whatever the umask.
    await handle.chmod(mode);
  } finally {
    await handle.close();
  }
}
