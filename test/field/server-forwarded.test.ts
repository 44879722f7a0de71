// A correct server behind nginx the way partners deploy it (issue 26), told by the proxy where clients reach it
// (X-Forwarded-Host, -Proto, -Prefix; the reference server's trustForwarded, as Spring's ForwardedHeaderFilter or
// ASP.NET Core's forwarded headers have it). Each set-up is a whole run of a client of its own (a run leaves its webhook
// behind), and each gets what a direct run gets: no failure, no warning, and only what --long and --allow-mutations
// exercise left out.
//   (a) TLS terminated by nginx in front of a plain upstream; the run trusts nginx's certificate (a CA made here)
//       through the target's caFile, in a conformance.config.json as a partner writes it.
//   (b) the same with HTTP/2 offered (`listen … ssl http2`), gzip on for JSON and a one-second keepalive that ends a
//       connection's use after ten requests (Connection: close). The client speaks HTTP/1.1 and asks for no content
//       coding, so nginx serves it HTTP/1.1 and uncompressed, as RFC 9110 has it; a client that asks gets h2 and gzip.
//   (c) the server mounted under /api, which nginx takes off before forwarding (`location /api/ { proxy_pass …/; }`),
//       baseUrl …/api/v1: the server signs nothing differently and builds its USSD links under /api.
import { connect } from 'node:http2';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NGINX_MISSING, skipWithoutNginx, startNginx, type Nginx } from '../helpers/nginx.js';
import {
  LONG_ONLY,
  makeTestCa,
  outcome,
  SKIPPED_BY_FLAGS,
  startProxiedServer,
  wholeRun,
  wholeRunFromConfig,
  type ProxiedServer,
  type TestCa,
} from '../helpers/proxied-server.js';

/** What a direct whole run of a correct server gets. */
const AS_DIRECT = {
  status: 'INCOMPLETE',
  failed: [],
  warned: [],
  errored: [],
  skipped: SKIPPED_BY_FLAGS,
  notExercised: LONG_ONLY,
};

const DEFAULT_SIGNING =
  'signing: the server took sig1 over @method @target-uri @path @query with a 60 s window (the headers each request carries covered too) at the first token request (the default profile)';

const FORWARDED = `proxy_set_header X-Forwarded-Host $http_host;
      proxy_set_header X-Forwarded-Proto $scheme;`;

describe.skipIf(skipWithoutNginx)(`a correct server behind nginx${NGINX_MISSING ? ` (${NGINX_MISSING})` : ''}`, () => {
  let ref: ProxiedServer;
  let nginx: Nginx;
  let tls: TestCa;

  beforeAll(async () => {
    tls = await makeTestCa();
    ref = await startProxiedServer(['tls', 'h2', 'prefix'], { trustForwarded: true });
    const up = `127.0.0.1:${ref.server.port}`;
    nginx = await startNginx({
      ports: ['tls', 'h2', 'prefix'],
      files: { 'cert.pem': tls.cert, 'key.pem': tls.key },
      http: (p, prefix) => `
  ssl_certificate ${prefix}/cert.pem;
  ssl_certificate_key ${prefix}/key.pem;
  server {
    listen 127.0.0.1:${p.tls} ssl;
    location / {
      proxy_pass http://${up};
      ${FORWARDED}
    }
  }
  server {
    listen 127.0.0.1:${p.h2} ssl http2;
    keepalive_timeout 1s;
    keepalive_requests 10;
    gzip on;
    gzip_types application/json;
    gzip_min_length 0;
    gzip_proxied any;
    location / {
      proxy_pass http://${up};
      ${FORWARDED}
    }
  }
  server {
    listen 127.0.0.1:${p.prefix};
    location /api/ {
      proxy_pass http://${up}/;
      ${FORWARDED}
      proxy_set_header X-Forwarded-Prefix /api;
    }
  }`,
    });
  });
  afterAll(async () => {
    await nginx?.stop();
    await ref?.server.close();
  });

  /** The access-log lines of requests that came to the port of a set-up's (nginx logs `$server_port` nowhere: by path). */
  const logged = (pattern: RegExp) =>
    nginx
      .accessLog()
      .split('\n')
      .filter((l) => pattern.test(l));

  it("(a) TLS terminated by nginx, its certificate trusted through the target's caFile: what a direct run gets", async () => {
    const result = await wholeRunFromConfig(ref.target('tls', `https://127.0.0.1:${nginx.port('tls')}/v1`, tls.ca));
    expect(outcome(result)).toEqual(AS_DIRECT);
    expect(result.run.notes).toContain(DEFAULT_SIGNING);
  });

  it('(b) HTTP/2 offered, gzip on and a one-second keepalive: what a direct run gets, over HTTP/1.1', async () => {
    const result = await wholeRun(ref.target('h2', `https://127.0.0.1:${nginx.port('h2')}/v1`, tls.ca));
    expect(outcome(result)).toEqual(AS_DIRECT);
    expect(result.run.notes).toContain(DEFAULT_SIGNING);
    // Every tenth answer on a connection ends it: the run notes it, and no check sees it.
    expect(result.run.notes?.find((n) => n.startsWith('connections:'))).toMatch(
      /^connections: \d+ of \d+ answers carried Connection: close; /,
    );
    // The set-up is what it says: a client that asks gets HTTP/2 and a gzip body (nginx compresses 200, 403 and 404).
    const session = connect(`https://127.0.0.1:${nginx.port('h2')}`, { ca: tls.ca });
    try {
      const { headers, body } = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>(
        (resolve, reject) => {
          const stream = session.request({ ':path': '/v1/no-such-endpoint', 'accept-encoding': 'gzip' });
          const chunks: Buffer[] = [];
          let head: Record<string, unknown> = {};
          stream.on('response', (h) => (head = h));
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => resolve({ headers: head, body: Buffer.concat(chunks) }));
          stream.on('error', reject);
        },
      );
      expect(headers[':status']).toBe(404);
      expect(headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(gunzipSync(body).toString())).toMatchObject({ code: expect.any(String) });
    } finally {
      session.close();
    }
    // The run's requests came as HTTP/1.1, the probe's as HTTP/2.
    expect(logged(/"GET \/v1\/instruments\?[^"]*HTTP\/1\.1"/).length).toBeGreaterThan(0);
    expect(logged(/"GET \/v1\/no-such-endpoint HTTP\/2\.0" 404/)).toHaveLength(1);
  });

  it('(c) mounted under /api, which nginx takes off: what a direct run gets', async () => {
    const result = await wholeRun(ref.target('prefix', `http://127.0.0.1:${nginx.port('prefix')}/api/v1`));
    expect(outcome(result)).toEqual(AS_DIRECT);
    expect(result.run.notes).toContain(DEFAULT_SIGNING);
    // The USSD crawl followed the server's links through the prefix.
    expect(logged(/"GET \/api\/v1\/ussd\/home\?[^"]*" 200/).length).toBeGreaterThan(0);
  });
});
