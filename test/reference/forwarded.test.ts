// A reference server behind a proxy that tells it where clients reach it (trustForwarded, the field set-ups of issue
// 26): it checks a signature's @target-uri against the address the client used, rebuilt from X-Forwarded-Proto,
// -Host and -Prefix, and starts its USSD links there; without the option it sees the proxy's request as it came.
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { contentDigest } from '../../src/http/digest.js';
import { generateEd25519 } from '../../src/http/keys.js';
import { signRequest } from '../../src/http/signature.js';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js';

const key = generateEd25519();
const CLIENT = { clientId: 'acme', clientSecret: 'acme-secret', keyId: 'acme-key', publicKey: key.publicKey };
/** Where clients reach the server: the proxy's address, with the prefix it takes off. */
const PUBLIC = 'https://api.example:8443/api';
const FORWARDED = {
  'x-forwarded-proto': 'https',
  'x-forwarded-host': 'api.example:8443',
  'x-forwarded-prefix': '/api',
};

const servers: ReferenceServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** Sends `path` (under /v1) to the server as a proxy forwards it, signed over the public address. */
function send(
  server: ReferenceServer,
  path: string,
  options: { method?: string; form?: Record<string, string>; token?: string; headers?: Record<string, string> },
): Promise<{ status: number; body: any }> {
  const method = options.method ?? 'GET';
  const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  if (options.token) headers['x-client-id'] = CLIENT.clientId;
  if (body !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['content-length'] = String(Buffer.byteLength(body));
    headers['content-digest'] = contentDigest(body);
  }
  if (method === 'POST') headers['x-idempotency-key'] = `k-${Math.random()}`;
  const signed = signRequest(
    {
      method,
      url: `${PUBLIC}/v1${path}`,
      headers: Object.entries(headers).filter(([n]) => !n.startsWith('x-forwarded')),
    },
    { keyId: CLIENT.keyId, privateKey: key.seed },
  );
  headers['signature-input'] = signed.signatureInput;
  headers['signature'] = signed.signature;
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}/v1${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const tokenOf = (server: ReferenceServer, headers: Record<string, string>) =>
  send(server, '/oauth/token', {
    method: 'POST',
    form: { clientId: CLIENT.clientId, clientSecret: CLIENT.clientSecret },
    headers,
  });

describe('the reference server behind a proxy', () => {
  it('with trustForwarded: takes a signature over the public address, and links under the public prefix', async () => {
    const server = await startReferenceServer({ clients: [CLIENT], trustForwarded: true });
    servers.push(server);
    const token = await tokenOf(server, FORWARDED);
    expect(token.status).toBe(200);
    const home = await send(server, '/ussd/home?customerId=1042', { token: token.body.data.token, headers: FORWARDED });
    expect(home.status).toBe(200);
    const urls = (home.body.data.ussdOptions as Array<{ requestUrl: string }>).map((o) => o.requestUrl);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url.startsWith(`${PUBLIC}/v1/ussd/`)).toBe(true);
  });

  it("without it: sees the proxy's request as it came, so a signature over the public address is refused", async () => {
    const server = await startReferenceServer({ clients: [CLIENT] });
    servers.push(server);
    const token = await tokenOf(server, FORWARDED);
    expect(token.status).toBe(401);
    expect(token.body.code).toBe('SIGNATURE_INVALID');
  });
});
