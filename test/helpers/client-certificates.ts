// TEST KEYS ONLY, made at test time: a CA that issues client certificates, and client certificates it issued (or that
// no one trusts), for the mutual-TLS tests. Nothing here is committed as a file; nothing is a secret.
import { generate } from 'selfsigned';

export interface Pem {
  cert: string;
  key: string;
}

/** A CA for client certificates (what a server's --client-ca names). */
export async function makeClientCa(name = 'conformance test client CA'): Promise<Pem> {
  const pems = await generate([{ name: 'commonName', value: name }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/** A client certificate for TLS client authentication, issued by `ca` (self-signed without one); its key encrypted with `passphrase` when given. */
export async function makeClientCertificate(
  options: { ca?: Pem; name?: string; passphrase?: string } = {},
): Promise<Pem> {
  const pems = await generate([{ name: 'commonName', value: options.name ?? 'conformance test client' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    ...(options.ca ? { ca: { cert: options.ca.cert, key: options.ca.key } } : {}),
    ...(options.passphrase !== undefined ? { passphrase: options.passphrase } : {}),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', clientAuth: true },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}
