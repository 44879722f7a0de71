// A server behind nginx that does not know it is (issue 26): nginx's defaults pass the upstream's address as Host
// (`Host $proxy_host`) and terminate TLS, and the server, reading no X-Forwarded-* field, sees http and the upstream's
// host and port. Each set-up has its verdict, or the one line a run that cannot start says, word for word.
//   (d) the server checks @target-uri against that address: the run's signing discovery finds @path and @query, which
//       come through unchanged, and says why; the run reaches its verdict.
//   (e) the same server builds its USSD links from that address: ussd.options.request-url fails, rightly, and nothing
//       else does (one cause, one failure).
//   (d') a server that requires @target-uri behind the same nginx: no signing shape can get a token; the line names
//       what the proxy changes of the address before the credentials.
//   (c') the server mounted under /api, which nginx takes off, and which the server does not know: the same, and the path.
//   (f) nginx answering its own 502 page (nothing listens behind it): the proxy is named, not quoted as the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/engine/index.js';
import { TargetError } from '../../src/errors.js';
import { NGINX_MISSING, skipWithoutNginx, startNginx, type Nginx } from '../helpers/nginx.js';
import {
  LONG_ONLY,
  makeTestCa,
  outcome,
  SKIPPED_BY_FLAGS,
  startProxiedServer,
  wholeRun,
  type ProxiedServer,
  type TestCa,
} from '../helpers/proxied-server.js';

/** A port nothing listens on (the discard port; no test here starts a server on it). */
const DOWN = 9;

/** What nginx's defaults change of the address, in the run's words (suites/kit/signing-profile.ts addressRewrites). */
const ADDRESS =
  "its Host (nginx passes its upstream's, `Host $proxy_host`, unless told `proxy_set_header Host $http_host`) or its scheme (http where the proxy terminates TLS, unless the server reads X-Forwarded-Proto)";
const FIX =
  'a server that checks the signature against the address it sees then refuses every signature a client can make: have the proxy pass the address clients use and the server check the signature against it (or against @path and @query); once it does, a 401 is about the credentials (clientId, clientSecret, keyId, the private key)';
const TRIED =
  'tried: window 60/30/10 s; over @target-uri with @path+@query, @path+@query alone, @target-uri alone; label sig1; 8 token requests';

describe.skipIf(skipWithoutNginx)(
  `a server behind nginx that does not know it${NGINX_MISSING ? ` (${NGINX_MISSING})` : ''}`,
  () => {
    let ref: ProxiedServer;
    let strict: ProxiedServer;
    let nginx: Nginx;
    let tls: TestCa;
    /** nginx's Server field as this machine's nginx sends it (`nginx/1.22.1` on Debian 12). */
    let server: string;

    beforeAll(async () => {
      tls = await makeTestCa();
      ref = await startProxiedServer(['rewritten', 'prefix', 'down']);
      // A server whose policy is @target-uri (RFC 9421 §3.2 leaves the components to the verifier).
      strict = await startProxiedServer(['strict'], { choices: { signatureTarget: 'target-uri' } });
      nginx = await startNginx({
        ports: ['rewritten', 'strict', 'prefix', 'down'],
        files: { 'cert.pem': tls.cert, 'key.pem': tls.key },
        http: (p, prefix) => `
  ssl_certificate ${prefix}/cert.pem;
  ssl_certificate_key ${prefix}/key.pem;
  server {
    listen 127.0.0.1:${p.rewritten} ssl;
    location / { proxy_pass http://127.0.0.1:${ref.server.port}; }
  }
  server {
    listen 127.0.0.1:${p.strict} ssl;
    location / { proxy_pass http://127.0.0.1:${strict.server.port}; }
  }
  server {
    listen 127.0.0.1:${p.prefix};
    location /api/ { proxy_pass http://127.0.0.1:${ref.server.port}/; }
  }
  server {
    listen 127.0.0.1:${p.down};
    location / { proxy_pass http://127.0.0.1:${DOWN}; }
  }`,
      });
      server = (await fetch(`http://127.0.0.1:${nginx.port('down')}/`)).headers.get('server') ?? '';
      expect(server).toMatch(/^nginx\//);
    });
    afterAll(async () => {
      await nginx?.stop();
      await ref?.server.close();
      await strict?.server.close();
    });

    /** The one line a run that cannot start says. */
    async function stopsWith(run: Promise<RunResult>): Promise<string> {
      const error = await run.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TargetError);
      return (error as TargetError).message;
    }

    // (d) and (e) are one run: one server that does not know its address gets both.
    let rewritten: Promise<RunResult> | undefined;
    const rewrittenRun = () =>
      (rewritten ??= wholeRun(ref.target('rewritten', `https://127.0.0.1:${nginx.port('rewritten')}/v1`, tls.ca)));

    it('(d) Host and scheme rewritten: signed over @path and @query, and the note says why', async () => {
      const result = await rewrittenRun();
      expect(result.run.notes).toContain(
        `signing: the server took sig1 over @method @path @query with a 60 s window (the headers each request carries covered too), and every request of the run was signed so; refused first: sig1 over @method @target-uri @path @query with a 60, 30 or 10 s window (401, code "SIGNATURE_INVALID", message "Unauthorized"); why: the same signature without @target-uri was taken, so the server checks @target-uri against another address than the client sent: the proxy in front of it (Server: ${server}) changes what the server sees of the address, ${ADDRESS}; @path and @query come through unchanged; set \`signing\` in the target's config to skip this search`,
      );
      // The run reached its verdict: every check ran, none warned or broke. NOT CONFORMANT is (e)'s, below.
      const { status, warned, errored, skipped, notExercised } = outcome(result);
      expect({ status, warned, errored }).toEqual({ status: 'NOT CONFORMANT', warned: [], errored: [] });
      // At least the skips of a direct run: the no-vacuous-pass rule may skip more where a crawl judged nothing.
      expect(skipped).toEqual(expect.arrayContaining(SKIPPED_BY_FLAGS));
      expect(notExercised).toEqual(expect.arrayContaining(LONG_ONLY));
    });

    it('(e) USSD links built from the address behind the proxy: ussd.options.request-url fails, and no other check', async () => {
      const result = await rewrittenRun();
      // One cause, one failure: the link rules judge each link's path and query (issue 26 problem 4).
      expect(outcome(result).failed).toEqual(['ussd.options.request-url']);
      const finding = result.checks.find((c) => c.id === 'ussd.options.request-url')?.finding;
      expect(finding?.message).toMatch(/^a follow-up URL a client cannot use as given: /);
      expect(finding?.message).toContain(
        `is on http://127.0.0.1:${ref.server.port}, not on the target's origin https://127.0.0.1:${nginx.port('rewritten')}`,
      );
    });

    it("(d') a server that requires @target-uri: no token, and the line names the proxy's rewrite before the credentials", async () => {
      const origin = `https://127.0.0.1:${nginx.port('strict')}`;
      const message = await stopsWith(wholeRun(strict.target('strict', `${origin}/v1`, tls.ca)));
      expect(message).toBe(
        `no token: POST ${origin}/v1/oauth/token answered 401 (the server said: code "SIGNATURE_INVALID", message "Unauthorized"); every signing shape tried was refused with answers that differ by shape (sig1 over @method @path @query with a 60 s window: 401, code "COMPONENT_NOT_COVERED", message "Unauthorized"); ${TRIED}; the answers came through a proxy (Server: ${server}), which may change what the server sees of the address the client signed: ${ADDRESS}; ${FIX}`,
      );
    });

    it("(c') a prefix taken off that the server does not know: no token, and the line names the path too", async () => {
      const origin = `http://127.0.0.1:${nginx.port('prefix')}`;
      const message = await stopsWith(wholeRun(ref.target('prefix', `${origin}/api/v1`)));
      expect(message).toBe(
        `no token: POST ${origin}/api/v1/oauth/token answered 401 (the server said: code "SIGNATURE_INVALID", message "Unauthorized"); every signing shape tried was refused with 401, the same answer each time; ${TRIED}; the answers came through a proxy (Server: ${server}), which may change what the server sees of the address the client signed: ${ADDRESS}, or its path (the /api before the version in baseUrl, which a proxy may take off before forwarding, unless the server reads X-Forwarded-Prefix); ${FIX}`,
      );
    });

    it("(f) nginx's own 502 page, nothing behind it: the proxy is named, never quoted as the server", async () => {
      const origin = `http://127.0.0.1:${nginx.port('down')}`;
      const message = await stopsWith(wholeRun(ref.target('down', `${origin}/v1`)));
      expect(message).toBe(
        `no token: POST ${origin}/v1/oauth/token: the proxy in front of the server (Server: ${server}) answered 502 with its own error page: the server behind it did not answer; check that it runs and that the proxy points at it`,
      );
      expect(nginx.accessLog().match(/"POST \/v1\/oauth\/token HTTP\/1\.1" 502/g)).toHaveLength(1);
    });
  },
);
