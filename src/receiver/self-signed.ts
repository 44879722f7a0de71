// The one call of selfsigned (with @peculiar/x509, pkijs and asn1js: about 15 MB of a process's memory once loaded),
// made in a worker thread of its own (./certificate-worker.ts) so that a run does not keep those libraries for its
// whole length to make one certificate at its start.
import { isIP } from 'node:net';
import { generate } from 'selfsigned';
import type { TlsMaterial } from './certificate.js';

/** What a certificate is made of: its subject's common name, the names it covers, its validity. */
export interface CertificateRequest {
  subject: string;
  names: readonly string[];
  notBeforeDate: Date;
  notAfterDate: Date;
}

/** An EC P-256 / SHA-256 self-signed certificate (IPs as IP SANs, other names as DNS SANs). */
export async function selfSigned(request: CertificateRequest): Promise<TlsMaterial> {
  const pems = await generate([{ name: 'commonName', value: request.subject }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: request.notBeforeDate,
    notAfterDate: request.notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: request.names.map((n) => (isIP(n) ? { type: 7 as const, ip: n } : { type: 2 as const, value: n })),
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}
