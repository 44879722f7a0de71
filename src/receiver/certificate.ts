// The TLS material the webhook receiver presents. A self-signed certificate is made once per process and set of names,
// so the built-in target can trust exactly the certificate the receiver of the same process will present, without
// either side handing it to the other.
import { X509Certificate, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { Worker } from 'node:worker_threads';
import type { WebhookConfig } from '../config/types.js';
import { ConfigError } from '../errors.js';
import { isLoopbackHost } from '../http/loopback.js';
import type { CertificateRequest } from './self-signed.js';

export interface TlsMaterial {
  /** PEM certificate (chain) the receiver presents; what a server delivering to it must trust. */
  cert: string;
  /** PEM private key of `cert`. */
  key: string;
}

/** Names a loopback receiver is reached by, whichever the server's resolver prefers. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '']);

/** host and port of `webhook.listen` ("127.0.0.1:0", "[::1]:8443", "hooks.local:9000"). */
export function parseListen(listen: string): { host: string; port: number } {
  const at = listen.lastIndexOf(':');
  const host = listen.slice(0, Math.max(at, 0)).replace(/^\[(.*)\]$/, '$1');
  const port = Number(listen.slice(at + 1));
  if (at < 0 || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`webhook.listen "${listen}" is not host:port`);
  return { host, port };
}

/** The names a self-signed receiver certificate covers: the listen host, the public URL's host, and loopback. */
export function certificateNames(webhook: WebhookConfig): string[] {
  const names = new Set<string>();
  const { host } = parseListen(webhook.listen);
  if (!WILDCARD_HOSTS.has(host)) names.add(host);
  if (webhook.publicUrl) names.add(new URL(webhook.publicUrl).hostname.replace(/^\[(.*)\]$/, '$1'));
  for (const n of LOOPBACK_NAMES) names.add(n);
  return [...names];
}

/**
 * The names a lasting receiver certificate (`conformance init`, `keygen`) covers: the hosts of `publicUrl` and
 * `listen`, and loopback when the receiver is reached on this machine (a loopback host, or no host named at all). Each
 * webhook setting given adds its own (a config may hold several targets).
 */
export function lastingCertificateNames(webhooks: ReadonlyArray<{ listen?: string; publicUrl?: string }>): string[] {
  const names = new Set<string>();
  for (const w of webhooks) {
    if (w.listen !== undefined) {
      const host = w.listen.slice(0, Math.max(w.listen.lastIndexOf(':'), 0)).replace(/^\[(.*)\]$/, '$1');
      if (!WILDCARD_HOSTS.has(host)) names.add(host);
    }
    const url = w.publicUrl !== undefined && URL.canParse(w.publicUrl) ? new URL(w.publicUrl) : undefined;
    if (url !== undefined) names.add(url.hostname.replace(/^\[(.*)\]$/, '$1'));
  }
  if (names.size === 0 || [...names].some(isLoopbackHost)) for (const n of LOOPBACK_NAMES) names.add(n);
  return [...names];
}

/** The SHA-256 fingerprint of a PEM certificate (the first of a chain), as `AA:BB:…`: what a provider compares. */
export function certificateFingerprint(pem: string): string {
  return new X509Certificate(pem).fingerprint256;
}

/** Whether a PEM certificate (the first of a chain) names `host`, as a server checks it: an IP SAN, or a DNS name. */
export function certificateCovers(pem: string, host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const x509 = new X509Certificate(pem);
  return (isIP(bare) ? x509.checkIP(bare) : x509.checkHost(bare)) !== undefined;
}

const generated = new Map<string, Promise<TlsMaterial>>();

const CERTIFICATE_WORKER = new URL('./certificate-worker.js', import.meta.url);

/** An EC P-256 / SHA-256 self-signed certificate for these names (IPs as IP SANs, others as DNS SANs), memoised. */
export function selfSignedCertificate(names: readonly string[]): Promise<TlsMaterial> {
  const key = [...names].sort().join(' ');
  let pending = generated.get(key);
  if (pending === undefined) {
    pending = makeCertificate(names);
    generated.set(key, pending);
    // A failed generation must not be served from the memo forever.
    pending.catch(() => generated.delete(key));
  }
  return pending;
}

/**
 * An EC P-256 / SHA-256 self-signed certificate for these names (IPs as IP SANs, others as DNS SANs), valid from an
 * hour ago until `notAfter` (by default a year on).
 */
export async function makeCertificate(names: readonly string[], notAfter?: Date): Promise<TlsMaterial> {
  const now = Date.now();
  // A server whose clock is a little behind must not see a certificate from the future.
  const notBeforeDate = new Date(now - 60 * 60 * 1000);
  const notAfterDate = notAfter ?? new Date(now + 365 * 24 * 60 * 60 * 1000);
  // A subject of its own: a TLS client finds a trusted certificate by its subject, so two trusted self-signed ones with
  // the same subject (the sandbox's own and one given with `serve --webhook-ca`, both for 127.0.0.1) hide each other,
  // and only the first listed verifies. The names a server checks are the SANs.
  const subject = `conformance webhook receiver ${randomBytes(6).toString('hex')} ${names[0] ?? 'localhost'}`;
  const request: CertificateRequest = { subject, names, notBeforeDate, notAfterDate };
  // Compiled (dist/), a worker thread makes it, so its libraries do not stay in this process: ~5 MB less at the peak of
  // a local run. From the sources (the tests), where no compiled worker sits beside this module, this process does.
  if (!existsSync(CERTIFICATE_WORKER)) return (await import('./self-signed.js')).selfSigned(request);
  const worker = new Worker(CERTIFICATE_WORKER, { workerData: request });
  try {
    return await new Promise<TlsMaterial>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) =>
        reject(new Error(`the certificate worker ended with code ${code} and no certificate`)),
      );
    });
  } finally {
    await worker.terminate();
  }
}

/** What the receiver of this config presents: a memoised self-signed certificate, the given files, or nothing (plain HTTP). */
export async function receiverTls(webhook: WebhookConfig): Promise<TlsMaterial | undefined> {
  const tls = webhook.tls;
  if (tls === 'none') return undefined;
  if (tls === 'self-signed') return selfSignedCertificate(certificateNames(webhook));
  const read = async (file: string, what: string) => {
    try {
      return await readFile(file, 'utf8');
    } catch (e) {
      throw new ConfigError(
        `webhook.tls.${what}: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
        'CONFORMANCE_ERR_CONFIG_FILE',
      );
    }
  };
  return { cert: await read(tls.certFile, 'certFile'), key: await read(tls.keyFile, 'keyFile') };
}
