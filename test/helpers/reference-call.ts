// A minimal signing client for the reference server's own tests (they must not depend on the project's client): one
// request built from its parts, signed per the profile unless told otherwise, optionally tampered with after signing.
import { request as httpRequest, type Agent } from 'node:http';
import { contentDigest } from '../../src/http/digest.js';
import { signRequest, type SignOptions } from '../../src/http/signature.js';

export interface Signer {
  keyId: string;
  keys: { seed: Uint8Array };
}

export interface SignedCall {
  method?: string;
  /** Relative to the base URL, with the query. */
  path: string;
  body?: string;
  contentType?: string;
  token?: string;
  clientId?: string;
  idempotencyKey?: string;
  /** Content-Digest override; null leaves it out. */
  digest?: string | null;
  extraHeaders?: Record<string, string>;
  /** Signing overrides; false sends no signature. */
  sign?: Partial<SignOptions> | false;
  signer?: Signer;
  /** Sign this path instead of the one sent. */
  signedPath?: string;
  /** Changes the headers after signing (to tamper). */
  after?: (headers: Record<string, string>) => void;
  agent?: Agent | false;
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The signature base the client signed, when it signed. */
  signedBase?: string;
}

/** Sends `call` to `baseUrl`, signed by `defaults.signer` (unless the call names another) with `created` as given. */
export function sendSigned(
  baseUrl: string,
  call: SignedCall,
  defaults: { signer: Signer; created: number; timeoutMs?: number },
): Promise<RawAnswer> {
  const method = call.method ?? 'GET';
  const headers: Record<string, string> = {};
  if (call.token !== undefined) headers['authorization'] = `Bearer ${call.token}`;
  if (call.body !== undefined) {
    if (call.digest !== null) headers['content-digest'] = call.digest ?? contentDigest(call.body);
    headers['content-length'] = String(Buffer.byteLength(call.body));
    headers['content-type'] = call.contentType ?? 'application/json';
  }
  if (call.clientId !== undefined) headers['x-client-id'] = call.clientId;
  if (call.idempotencyKey !== undefined) headers['x-idempotency-key'] = call.idempotencyKey;
  Object.assign(headers, call.extraHeaders);
  let signedBase: string | undefined;
  if (call.sign !== false) {
    const signer = call.signer ?? defaults.signer;
    const signed = signRequest(
      { method, url: `${baseUrl}${call.signedPath ?? call.path}`, headers: Object.entries(headers) },
      { keyId: signer.keyId, privateKey: signer.keys.seed, created: defaults.created, ...call.sign },
    );
    headers['signature-input'] = signed.signatureInput;
    headers['signature'] = signed.signature;
    signedBase = signed.base;
  }
  call.after?.(headers);
  return new Promise((resolve, reject) => {
    const options = {
      method,
      headers,
      agent: call.agent ?? false,
      ...(defaults.timeoutMs ? { timeout: defaults.timeoutMs } : {}),
    };
    const req = httpRequest(`${baseUrl}${call.path}`, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
          ...(signedBase !== undefined ? { signedBase } : {}),
        }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${defaults.timeoutMs} ms`)));
    req.on('error', reject);
    req.end(call.body);
  });
}
