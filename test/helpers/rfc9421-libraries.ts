// Two independent RFC 9421 implementations from the npm registry behind one small interface, so the cross-implementation
// tests (test/http/cross-impl.test.ts) can sign and verify with each the same way they do with ours:
// - `http-message-signatures` (github.com/dhensby/node-http-message-signatures), its httpbis API and Node signers;
// - `http-message-sig` (github.com/cloudflare/web-bot-auth, packages/http-message-sig), its descriptors and WebCrypto.
// Each adapter signs with the library's own key helper (node:crypto for the first, WebCrypto for the second) and reports
// the signature base the library signed or verified, byte for byte, so a test can say where a library departs from the
// RFC. Nothing here adds to or corrects what the libraries do.
import { request as httpRequest } from 'node:http';
import { webcrypto, type KeyObject } from 'node:crypto';
import { vi } from 'vitest';
import { createSigner, createVerifier, httpbis } from 'http-message-signatures';
import {
  createSignature,
  verifySignature as cfVerifySignature,
  webcrypto as cfWebcrypto,
  type RequestDescriptor,
  type Signer as CfSigner,
  type Verifier as CfVerifier,
} from 'http-message-sig';
import type { HttpMessage } from '../../src/http/message.js';
import type { SignatureParam } from '../../src/http/signature-base.js';

interface LibrarySignInput {
  message: HttpMessage;
  privateKey: KeyObject;
  /** Covered components, passed to the library as they are (its own normalisation, if any, applies). */
  components: readonly string[];
  /**
   * The signature parameters in order (keyid, created, expires, …; created and expires in Unix seconds). An `alg`
   * other than ed25519 is declared as given: the signature is Ed25519 whatever it says.
   */
  params: readonly SignatureParam[];
  /** Defaults to sig1. */
  label?: string;
}

export interface LibrarySignature {
  signatureInput: string;
  signature: string;
  /** The signature base the library signed. */
  base: string;
}

interface LibraryVerifyInput {
  /** The message with its Signature-Input and Signature fields among the headers. */
  message: HttpMessage;
  /** The only keyid the library is given a key for; signatures with another keyid are unknown to it. */
  keyId: string;
  publicKey: KeyObject;
  /** Unix seconds "now"; the clock when absent. */
  now?: number;
  /** Which signature to verify, for a library that asks (http-message-sig does when there are several). */
  label?: string;
}

type LibraryVerdict =
  /** ok: the library verified the signature. base: what it verified against, when it got that far. */
  { ok: true; base: string } | { ok: false; base?: string; error: string };

export interface Rfc9421Library {
  /** The npm package name. */
  name: 'http-message-signatures' | 'http-message-sig';
  sign(input: LibrarySignInput): Promise<LibrarySignature>;
  verify(input: LibraryVerifyInput): Promise<LibraryVerdict>;
}

const utf8 = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
const message = (e: unknown) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

// ---- http-message-signatures --------------------------------------------------------------------------------------

/** Headers as an object, as http-message-signatures and node:http take them: a repeated field becomes an array, in order. */
function headerObject(pairs: ReadonlyArray<[string, string]>): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  const names = new Map<string, string>();
  for (const [name, value] of pairs) {
    const key = names.get(name.toLowerCase()) ?? name;
    names.set(name.toLowerCase(), key);
    const prev = headers[key];
    headers[key] = prev === undefined ? value : [...(Array.isArray(prev) ? prev : [prev]), value];
  }
  return headers;
}

function dhensbyRequest(m: HttpMessage): { method: string; url: string; headers: Record<string, string | string[]> } {
  return { method: m.method, url: m.url, headers: headerObject(m.headers) };
}

/**
 * It has no "now" option: it reads Date.now() for created and expires. Only Date is faked, and only around the call,
 * so a test can give it the same fixed time as the others.
 */
async function atTime<T>(now: number | undefined, fn: () => Promise<T>): Promise<T> {
  if (now === undefined) return fn();
  vi.useFakeTimers({ toFake: ['Date'], now: now * 1000 });
  try {
    return await fn();
  } finally {
    vi.useRealTimers();
  }
}

const httpMessageSignatures: Rfc9421Library = {
  name: 'http-message-signatures',
  async sign(input) {
    const signer = createSigner(input.privateKey, 'ed25519');
    let base = '';
    // Its parameters: names in order, values apart; created and expires as Dates.
    const paramValues = Object.fromEntries(
      input.params.map(([name, value]) => [
        name,
        (name === 'created' || name === 'expires') && typeof value === 'number' ? new Date(value * 1000) : value,
      ]),
    );
    const signed = await httpbis.signMessage(
      {
        key: {
          ...signer,
          sign: (data) => {
            base = data.toString('utf8');
            return signer.sign(data);
          },
        },
        name: input.label ?? 'sig1',
        fields: [...input.components],
        params: input.params.map(([name]) => name),
        paramValues,
      },
      dhensbyRequest(input.message),
    );
    return {
      signatureInput: String(signed.headers['Signature-Input']),
      signature: String(signed.headers['Signature']),
      base,
    };
  },
  async verify(input) {
    const verify = createVerifier(input.publicKey, 'ed25519');
    let base: string | undefined;
    try {
      const result = await atTime(input.now, () =>
        httpbis.verifyMessage(
          {
            // Signatures by keys it is not given (a proxy's) are passed over, as its README describes.
            keyLookup: async (params) =>
              params.keyid === input.keyId
                ? {
                    id: input.keyId,
                    algs: ['ed25519'],
                    verify: (data, signature, parameters) => {
                      base = data.toString('utf8');
                      return verify(data, signature, parameters);
                    },
                  }
                : null,
          },
          dhensbyRequest(input.message),
        ),
      );
      if (result === true) return { ok: true, base: base! };
      return { ok: false, ...(base !== undefined ? { base } : {}), error: `verifyMessage returned ${result}` };
    } catch (e) {
      return { ok: false, ...(base !== undefined ? { base } : {}), error: message(e) };
    }
  },
};

// ---- http-message-sig ---------------------------------------------------------------------------------------------

function descriptor(m: HttpMessage): RequestDescriptor {
  return {
    kind: 'request',
    method: m.method,
    targetUri: m.url,
    fields: m.headers.map(([name, value]) => ({ name, value })),
  };
}

async function cryptoKeyOf(key: KeyObject): Promise<webcrypto.CryptoKey> {
  const priv = key.type === 'private';
  return webcrypto.subtle.importKey(
    priv ? 'pkcs8' : 'spki',
    key.export({ format: 'der', type: priv ? 'pkcs8' : 'spki' }),
    { name: 'Ed25519' },
    false,
    [priv ? 'sign' : 'verify'],
  );
}

const httpMessageSig: Rfc9421Library = {
  name: 'http-message-sig',
  async sign(input) {
    const inner = cfWebcrypto.signer(await cryptoKeyOf(input.privateKey));
    let base = '';
    const alg = input.params.find(([name]) => name === 'alg')?.[1];
    const signer: CfSigner = {
      // A declared alg other than the key's is refused by createSignature (RFC 9421 §2.3); the signer claims the
      // declared one so that the mismatch can be made and sent to a verifier.
      algorithm: typeof alg === 'string' ? alg : inner.algorithm,
      sign: (data) => {
        base = utf8(data);
        return inner.sign(data);
      },
    };
    const fields = await createSignature(descriptor(input.message), {
      label: input.label ?? 'sig1',
      components: [...input.components],
      parameters: Object.fromEntries(input.params),
      signer,
    });
    return { signatureInput: fields.signatureInput, signature: fields.signature, base };
  },
  async verify(input) {
    const inner = cfWebcrypto.verifier(await cryptoKeyOf(input.publicKey));
    let base: string | undefined;
    const verifier: CfVerifier = {
      algorithm: inner.algorithm,
      verify: (data, signature) => {
        base = utf8(data);
        return inner.verify(data, signature);
      },
    };
    try {
      await cfVerifySignature(descriptor(input.message), {
        ...(input.label !== undefined ? { label: input.label } : {}),
        policy: {
          algorithms: ['ed25519'],
          requiredComponents: [],
          requiredParameters: ['keyid', 'created'],
          ...(input.now !== undefined ? { now: input.now } : {}),
        },
        resolveVerifier: (candidate) => {
          if (candidate.parameters.keyid !== input.keyId)
            throw new Error(`unknown keyid ${String(candidate.parameters.keyid)}`);
          return verifier;
        },
      });
      return { ok: true, base: base! };
    } catch (e) {
      return { ok: false, ...(base !== undefined ? { base } : {}), error: message(e) };
    }
  },
};

export const LIBRARIES: readonly Rfc9421Library[] = [httpMessageSignatures, httpMessageSig];

// ---- sending as is ------------------------------------------------------------------------------------------------

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON when the body is JSON, else the text; undefined when empty. */
  body: any;
}

/**
 * Sends a request with node:http to `baseUrl` followed by `target` exactly as given (no URL parser touches it: `'`
 * stays `'`, `/./` stays), the headers in order (a repeated field as several lines), no keep-alive.
 */
export function sendAsIs(
  baseUrl: string,
  req: { method: string; target: string; headers: Array<[string, string]>; body?: string },
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const r = httpRequest(
      {
        method: req.method,
        host: url.hostname,
        port: url.port,
        path: `${url.pathname.replace(/\/$/, '')}${req.target}`,
        headers: headerObject(req.headers),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text === '' ? undefined : text;
          if (text !== '' && /json/.test(res.headers['content-type'] ?? '')) body = JSON.parse(text);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
        res.on('error', reject);
      },
    );
    r.on('error', reject);
    r.end(req.body);
  });
}
