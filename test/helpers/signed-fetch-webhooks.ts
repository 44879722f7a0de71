// A small signing client for the reference server's webhook tests: token, then signed calls with Content-Digest and an
// idempotency key, the way the spec's "Common request rules" want them. It stays independent of src/http/client.ts so
// these tests check the server, not the project's own client.
import { request } from 'undici';
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

export function testClient(clientId: string): TestClient {
  return { clientId, clientSecret: `${clientId}-secret-0123456789`, keyId: `${clientId}-key`, keys: generateEd25519() };
}

export function registration(client: TestClient): ClientRegistration {
  return {
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    keyId: client.keyId,
    publicKey: client.keys.publicKey,
  };
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

let idempotencySeq = 0;

export class SignedCaller {
  constructor(
    private readonly baseUrl: string,
    private readonly client: TestClient,
  ) {}

  /** Issues a token; the record may come in the envelope or bare (the alt variant). */
  async token(): Promise<{ token: string; tokenId: string }> {
    const form = new URLSearchParams({
      clientId: this.client.clientId,
      clientSecret: this.client.clientSecret,
    }).toString();
    const res = await this.send('POST', '/oauth/token', {
      body: form,
      contentType: 'application/x-www-form-urlencoded',
    });
    if (res.status < 200 || res.status > 299)
      throw new Error(`token request failed: ${res.status} ${JSON.stringify(res.body)}`);
    const record = res.body.data ?? res.body;
    return { token: record.token, tokenId: record.tokenId };
  }

  /** An authenticated call; `body` is serialised as JSON unless it is a string already. */
  call(method: string, path: string, options: { token: string; body?: unknown; contentType?: string }): Promise<Reply> {
    const body =
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body);
    return this.send(method, path, {
      token: options.token,
      ...(body !== undefined ? { body, contentType: options.contentType ?? 'application/json' } : {}),
    });
  }

  private async send(
    method: string,
    path: string,
    options: { token?: string; body?: string; contentType?: string },
  ): Promise<Reply> {
    const url = `${this.baseUrl}${path}`;
    const headers: Array<[string, string]> = [];
    if (options.token !== undefined)
      headers.push(['authorization', `Bearer ${options.token}`], ['x-client-id', this.client.clientId]);
    if (options.body !== undefined) {
      headers.push(['content-digest', contentDigest(options.body)]);
      headers.push(['content-length', String(Buffer.byteLength(options.body))]);
      headers.push(['content-type', options.contentType ?? 'application/json']);
    }
    if (method !== 'GET') headers.push(['x-idempotency-key', `wh-${process.pid}-${++idempotencySeq}`]);
    const signed = signRequest(
      { method, url, headers },
      { keyId: this.client.keyId, privateKey: this.client.keys.seed },
    );
    headers.push(['signature-input', signed.signatureInput], ['signature', signed.signature]);
    const res = await request(url, {
      method: method as 'GET',
      headers: headers.flat(),
      ...(options.body !== undefined ? { body: options.body } : {}),
    });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
  }
}
