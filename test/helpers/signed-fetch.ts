// A minimal signing client for tests against the reference server: a registered client with a fresh Ed25519 key, its
// token, and signed requests to absolute URLs (so a test can follow a URL the server handed out, as it is).
import { request as httpRequest } from 'node:http';
import { contentDigest } from '../../src/http/digest.js';
import { generateEd25519 } from '../../src/http/keys.js';
import { signRequest } from '../../src/http/signature.js';
import type { ClientRegistration } from '../../src/reference/clients.js';

export interface TestClient {
  clientId: string;
  clientSecret: string;
  keyId: string;
  keys: ReturnType<typeof generateEd25519>;
}

export function newTestClient(clientId = 'acme'): TestClient {
  return {
    clientId,
    clientSecret: `${clientId}-secret-0123456789`,
    keyId: `${clientId}-2026`,
    keys: generateEd25519(),
  };
}

export function registrationOf(client: TestClient): ClientRegistration {
  return {
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    keyId: client.keyId,
    publicKey: client.keys.publicKey,
  };
}

export interface SignedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or undefined for an empty body. */
  body: any;
}

export interface SignedRequest {
  method?: string;
  /** Absolute URL. */
  url: string;
  client: TestClient;
  /** Bearer token; left out when undefined (the token request). */
  token?: string;
  body?: string;
  contentType?: string;
  /** Sent as X-Client-Id unless false (the token request may omit it). */
  sendClientId?: boolean;
  /**
   * Connect to this origin instead of the URL's own, while Host and the signature name the URL's host: how a test
   * reaches the loopback server under another name without DNS.
   */
  via?: string;
}

let keySeq = 0;

/** Sends one signed request; mutating methods get a fresh X-Idempotency-Key. */
export function signedFetch(req: SignedRequest): Promise<SignedResponse> {
  const method = req.method ?? 'GET';
  const headers: Record<string, string> = {};
  if (req.token !== undefined) headers['authorization'] = `Bearer ${req.token}`;
  if (req.body !== undefined) {
    headers['content-digest'] = contentDigest(req.body);
    headers['content-length'] = String(Buffer.byteLength(req.body));
    headers['content-type'] = req.contentType ?? 'application/json';
  }
  if (req.sendClientId !== false) headers['x-client-id'] = req.client.clientId;
  if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(method))
    headers['x-idempotency-key'] = `test-${process.pid}-${++keySeq}`;
  const signed = signRequest(
    { method, url: req.url, headers: Object.entries(headers) },
    { keyId: req.client.keyId, privateKey: req.client.keys.seed },
  );
  headers['signature-input'] = signed.signatureInput;
  headers['signature'] = signed.signature;
  return new Promise((resolve, reject) => {
    // No keep-alive agent: a closed server then never leaves a socket behind.
    const target = new URL(req.url);
    const connect = new URL(req.via ?? req.url);
    const options = {
      method,
      headers: { ...headers, host: target.host },
      agent: false as const,
      host: connect.hostname.replace(/^\[|\]$/g, ''),
      port: connect.port,
      path: `${target.pathname}${target.search}`,
    };
    const r = httpRequest(options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text === '' ? undefined : JSON.parse(text),
          });
        } catch (e) {
          reject(new Error(`${method} ${req.url}: the body is not JSON: ${text.slice(0, 200)}`, { cause: e }));
        }
      });
      res.on('error', reject);
    });
    r.on('error', reject);
    r.end(req.body);
  });
}

/** POST /oauth/token; accepts the record inside the envelope (strict) or bare (alt). */
async function obtainToken(baseUrl: string, client: TestClient): Promise<string> {
  const res = await signedFetch({
    method: 'POST',
    url: `${baseUrl}/oauth/token`,
    client,
    body: new URLSearchParams({ clientId: client.clientId, clientSecret: client.clientSecret }).toString(),
    contentType: 'application/x-www-form-urlencoded',
    sendClientId: false,
  });
  if (res.status < 200 || res.status > 299)
    throw new Error(`token request failed: ${res.status} ${JSON.stringify(res.body)}`);
  const token = res.body?.data?.token ?? res.body?.token;
  if (typeof token !== 'string') throw new Error(`token request: no token in ${JSON.stringify(res.body)}`);
  return token;
}

/** A client bound to one server: `get(url)` with a token obtained once. */
export async function signedSession(
  baseUrl: string,
  client: TestClient,
): Promise<{ get(url: string): Promise<SignedResponse>; token: string }> {
  const token = await obtainToken(baseUrl, client);
  return { token, get: (url) => signedFetch({ url, client, token }) };
}
