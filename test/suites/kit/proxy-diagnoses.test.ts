// What the run says when a proxy stands in front of the server (issue 26): the proxy's own error page is the proxy's,
// never "the server said: <html>"; a 401 to every signing shape through a proxy points first at what the proxy changes
// of the address the server checks the signature against, then at the credentials; and a profile that had to leave
// @target-uri out says why.
import { afterEach, describe, expect, it } from 'vitest';
import { pack } from '../../../suites/index.js';
import { runChecks } from '../../../src/engine/index.js';
import { TargetError } from '../../../src/errors.js';
import { generateEd25519 } from '../../../src/http/keys.js';
import type { HttpResponse } from '../../../src/http/client.js';
import type { ResolvedTarget } from '../../../src/config/types.js';
import { describeResponse } from '../../../suites/kit/expect.js';
import { signingNote } from '../../../suites/kit/signing-profile.js';
import { startEchoServer } from '../../helpers/echo-server.js';

const key = generateEd25519();
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

const NGINX_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n';

/** A server answering every request with `status`, `headers` and `body`; it counts the requests. */
async function answering(status: number, headers: Record<string, string>, body: string) {
  const server = await startEchoServer((_req, res) => {
    res.statusCode = status;
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    res.end(body);
  });
  stops.push(() => server.close());
  return server;
}

async function noToken(baseUrl: string): Promise<string> {
  const target: ResolvedTarget = {
    name: 't',
    baseUrl,
    clientId: 'c',
    clientSecret: 'the-secret-value',
    keyId: 'k',
    privateKeyPem: key.privateKeyPem,
    privateKey: key.seed,
    fixtures: {},
    webhook: { listen: '127.0.0.1:0', tls: 'none' },
  };
  const err = await runChecks({ pack, target, suites: [pack.suites[0]!] }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(TargetError);
  return (err as TargetError).message;
}

describe('a token request a proxy answered', () => {
  it("with its own 502 page: names the proxy and why, never the page as the server's words, after one request", async () => {
    const server = await answering(502, { server: 'nginx/1.22.1', 'content-type': 'text/html' }, NGINX_502);
    expect(await noToken(`${server.origin}/v1`)).toBe(
      `no token: POST ${server.origin}/v1/oauth/token: the proxy in front of the server (Server: nginx/1.22.1) answered 502 with its own error page: the server behind it did not answer; check that it runs and that the proxy points at it`,
    );
    expect(server.received).toHaveLength(1);
  });

  it('with its own 403 page (a firewall in front): the proxy refused it, and no signing shape is tried', async () => {
    const server = await answering(
      403,
      { server: 'cloudflare', 'content-type': 'text/html; charset=UTF-8' },
      '<!DOCTYPE html>\n<html><head><title>Attention Required! | Cloudflare</title></head><body>…</body></html>',
    );
    expect(await noToken(`${server.origin}/v1`)).toBe(
      `no token: POST ${server.origin}/v1/oauth/token: the proxy in front of the server (Server: cloudflare) answered 403 with its own error page ("Attention Required! | Cloudflare"): it refused the request itself (an access rule or a firewall in front of the server), and the server never saw it; ask whoever runs the proxy to let this client through`,
    );
    expect(server.received).toHaveLength(1);
  });

  it("with the server's 401 to every signing shape: what the proxy changes of the address first, the credentials after", async () => {
    const server = await answering(
      401,
      { server: 'nginx/1.22.1', 'content-type': 'application/json' },
      JSON.stringify({ code: '401', message: 'Unauthorized' }),
    );
    const tried =
      'tried: window 60/30/10 s; over @target-uri with @path+@query, @path+@query alone, @target-uri alone; label sig1; 8 token requests';
    const address =
      "its Host (nginx passes its upstream's, `Host $proxy_host`, unless told `proxy_set_header Host $http_host`) or its scheme (http where the proxy terminates TLS, unless the server reads X-Forwarded-Proto)";
    const fix =
      'a server that checks the signature against the address it sees then refuses every signature a client can make: have the proxy pass the address clients use and the server check the signature against it (or against @path and @query); once it does, a 401 is about the credentials (clientId, clientSecret, keyId, the private key)';
    const message = await noToken(`${server.origin}/v1`);
    expect(message).toBe(
      `no token: POST ${server.origin}/v1/oauth/token answered 401 (the server said: code "401", message "Unauthorized"); every signing shape tried was refused with 401, the same answer each time; ${tried}; the answers came through a proxy (Server: nginx/1.22.1), which may change what the server sees of the address the client signed: ${address}; ${fix}`,
    );
    expect(message).not.toContain('check clientId');
    // Under a prefix, the path is one more thing the proxy may change.
    expect(await noToken(`${server.origin}/api/v1`)).toContain(
      `${address}, or its path (the /api before the version in baseUrl, which a proxy may take off before forwarding, unless the server reads X-Forwarded-Prefix); `,
    );
  });
});

describe('the signing note, when the profile leaves @target-uri out', () => {
  const refused = [60, 30, 10].map((windowSeconds) => ({
    profile: { windowSeconds, components: ['@method', '@target-uri', '@path', '@query'] as const, label: 'sig1' },
    status: 401,
    said: 'code "401", message "Unauthorized"',
  }));
  const profile = { windowSeconds: 60, components: ['@method', '@path', '@query'] as const, label: 'sig1' };
  const start =
    'signing: the server took sig1 over @method @path @query with a 60 s window (the headers each request carries covered too), and every request of the run was signed so; refused first: sig1 over @method @target-uri @path @query with a 60, 30 or 10 s window (401, code "401", message "Unauthorized"); why: the same signature without @target-uri was taken, so the server checks @target-uri against another address than the client sent: ';
  const end =
    ", its Host (nginx passes its upstream's, `Host $proxy_host`, unless told `proxy_set_header Host $http_host`) or its scheme (http where the proxy terminates TLS, unless the server reads X-Forwarded-Proto); @path and @query come through unchanged; set `signing` in the target's config to skip this search";

  it('says why: the proxy named in the answers changes what the server sees of the address', () => {
    expect(signingNote({ profile, fixed: [], refused, proxy: 'Server: nginx/1.22.1' })).toBe(
      `${start}the proxy in front of it (Server: nginx/1.22.1) changes what the server sees of the address${end}`,
    );
  });

  it('says the same, and that no proxy named itself, when none did', () => {
    expect(signingNote({ profile, fixed: [], refused })).toBe(
      `${start}a proxy in front of it may change what the server sees of the address (none named itself in the answers)${end}`,
    );
  });
});

describe("a check's finding on a proxy's error page", () => {
  it("says the proxy answered, and why, in place of the page's HTML", () => {
    const headers: Array<[string, string]> = [
      ['server', 'nginx/1.22.1'],
      ['content-type', 'text/html'],
    ];
    const res = {
      status: 502,
      headers,
      body: Buffer.from(NGINX_502),
      text: NGINX_502,
      header: (name: string) => headers.find(([n]) => n === name)?.[1],
      exchange: {
        seq: 1,
        checkId: 'x',
        startedAt: '2026-01-12T09:30:02.000Z',
        durationMs: 3,
        request: { method: 'GET', url: 'https://api.example/v1/accounts', headers: [], bodySize: 0 },
        response: { status: 502, headers, bodySize: NGINX_502.length, bodyExcerpt: NGINX_502 },
      },
    } as HttpResponse;
    expect(describeResponse(res)).toBe(
      '502: the proxy in front of the server (Server: nginx/1.22.1) answered 502 with its own error page: the server behind it did not answer; check that it runs and that the proxy points at it',
    );
  });
});
