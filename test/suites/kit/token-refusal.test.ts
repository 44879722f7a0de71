// Why a run gets no token, told as the server told it: its status and its {code, message}, and advice for that status.
// Only a 401 or 403 points at the credentials; a 404 at the base URL (its /v1); another 4xx at the server's own words.
// When no usable answer comes, ranked by cause: nothing listens, the name does not resolve, no answer in time, a TLS
// certificate not trusted (its CA is the fix) or not for this host, an answer over the cap. Each is one line naming
// what happened and what to do; only a refused connection asks whether the server is running.
import dns from 'node:dns';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { freePort } from '../../helpers/free-port.js';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { generate } from 'selfsigned';
import { pack } from '../../../suites/index.js';
import { runChecks } from '../../../src/engine/index.js';
import { TargetError } from '../../../src/errors.js';
import { generateEd25519 } from '../../../src/http/keys.js';
import type { ResolvedTarget } from '../../../src/config/types.js';
import { startEchoServer } from '../../helpers/echo-server.js';

const key = generateEd25519();
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const stop of stops.splice(0)) await stop();
});

/** A server answering every token request with `status` and `body`. */
async function refusing(status: number, body: string): Promise<string> {
  const server = await startEchoServer((_req, res) => {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.end(body);
  });
  stops.push(() => server.close());
  return server.origin;
}

async function tokenError(
  baseUrl: string,
  options: { ca?: string; requestTimeoutMs?: number; maxBodyBytes?: number } = {},
): Promise<TargetError> {
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
    ...(options.ca !== undefined ? { ca: options.ca } : {}),
  };
  const err = await runChecks({
    pack,
    target,
    suites: [pack.suites[0]!],
    ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
  }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(TargetError);
  return err as TargetError;
}

async function noToken(baseUrl: string): Promise<string> {
  return (await tokenError(baseUrl)).message;
}

describe('a token request that gives no token', () => {
  it("says the server's words on a 400, blames no credential, and says which signing shapes got that answer", async () => {
    const origin = await refusing(
      400,
      JSON.stringify({ code: '400', message: 'X-Idempotency-Key is required on POST requests' }),
    );
    const message = await noToken(`${origin}/v1`);
    expect(message).toBe(
      `no token: POST ${origin}/v1/oauth/token answered 400 (the server said: code "400", message "X-Idempotency-Key is required on POST requests"); the server refused the token request itself: its answer says why; every signing shape tried was refused with 400, the same answer each time (window 60/30/10 s; over @target-uri with @path+@query, @path+@query alone, @target-uri alone; label sig1; 8 token requests); if the answer is about the signature, set \`signing\` in the target's config to a shape the server takes`,
    );
    expect(message).not.toContain('clientSecret');
  });

  it('points at the base URL on a 404 (a baseUrl without /v1), after one token request: no signing shape explains a 404', async () => {
    const origin = await refusing(404, JSON.stringify({ code: '404', message: 'Not Found' }));
    const message = await noToken(origin);
    expect(message).toMatch(
      /answered 404 \(the server said: code "404", message "Not Found"\); check baseUrl: the token endpoint is POST <baseUrl>\/oauth\/token, so baseUrl usually ends with the API version \(e\.g\. \/v1\)$/,
    );
    expect(message).not.toContain('clientSecret');
    expect(message).not.toContain('signing shape');
  });

  it('points at the credentials on a 401 to every signing shape, and never shows the secret even when the server echoes it', async () => {
    const origin = await refusing(401, JSON.stringify({ code: '401', message: 'bad secret the-secret-value' }));
    const message = await noToken(`${origin}/v1`);
    expect(message).toMatch(
      /answered 401 \(the server said: code "401", message "bad secret \[redacted\]"\); check clientId, clientSecret, keyId and the private key of this target: every signing shape tried was refused with 401, the same answer each time \(window 60\/30\/10 s; over @target-uri with @path\+@query, @path\+@query alone, @target-uri alone; label sig1; 8 token requests\); if they are right, set `signing` in the target's config to a shape the server takes$/,
    );
  });

  it('says a 2xx without a token record, with the start of a body that is not JSON', async () => {
    const origin = await refusing(200, '<html>login page</html>');
    const message = await noToken(`${origin}/v1`);
    expect(message).toBe(
      `no token: POST ${origin}/v1/oauth/token answered 200 without a token record in the body (the server said: <html>login page</html>); a token comes as {"data": {"token": …}} or {"token": …}`,
    );
  });
});

type Pems = { cert: string; private: string };
const IP_SAN = [{ name: 'subjectAltName' as const, altNames: [{ type: 7 as const, ip: '127.0.0.1' }] }];
let selfSigned: Pems;
let ca: Pems;
let issued: Pems;
let otherHost: Pems;

beforeAll(async () => {
  const ec = { keyType: 'ec' as const, algorithm: 'sha256' as const };
  selfSigned = await generate([{ name: 'commonName', value: '127.0.0.1' }], { ...ec, extensions: IP_SAN });
  ca = await generate([{ name: 'commonName', value: 'Partner test CA' }], {
    ...ec,
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', keyCertSign: true, digitalSignature: true },
    ],
  });
  issued = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    ...ec,
    extensions: IP_SAN,
    ca: { key: ca.private, cert: ca.cert },
  });
  otherHost = await generate([{ name: 'commonName', value: 'api.other.example' }], {
    ...ec,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2 as const, value: 'api.other.example' }] }],
  });
});

/** An https server presenting `pems`; every request is answered with an empty JSON object. */
async function tlsServer(pems: Pems): Promise<string> {
  const server = createHttpsServer({ key: pems.private, cert: pems.cert }, (_req, res) => res.end('{}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stops.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

describe('a token request that gets no usable answer', () => {
  it('refused: nothing listens at the address, the only cause that asks whether the server is running', async () => {
    const port = await freePort();
    const err = await tokenError(`http://127.0.0.1:${port}/v1`);
    expect(err.message).toBe(
      `target unreachable: POST http://127.0.0.1:${port}/v1/oauth/token: nothing listens at 127.0.0.1:${port} (ECONNREFUSED); check baseUrl, and that the server is running there`,
    );
    expect(err.code).toBe('CONFORMANCE_ERR_TARGET_UNREACHABLE');
    expect(err.exitCode).toBe(3);
  });

  it('a name that does not resolve: the host name in baseUrl', async () => {
    // The resolver answers as a DNS server does for a name it does not know; nothing leaves the machine.
    const lookup = vi.spyOn(dns, 'lookup').mockImplementation(((host: string, ...rest: unknown[]) => {
      const callback = rest.at(-1) as (err: Error) => void;
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND', hostname: host }));
    }) as unknown as typeof dns.lookup);
    const err = await tokenError('https://api.partner.invalid/v1');
    expect(lookup).toHaveBeenCalled();
    expect(err.message).toBe(
      'target unreachable: POST https://api.partner.invalid/v1/oauth/token: the name api.partner.invalid does not resolve (ENOTFOUND); check the host name in baseUrl',
    );
    expect(err.code).toBe('CONFORMANCE_ERR_TARGET_UNREACHABLE');
  });

  it('no answer in time: the address, or --timeout', async () => {
    // Takes the connection and never answers; the client's own time limit ends the wait.
    const sockets = new Set<Socket>();
    const server = createNetServer((s) => sockets.add(s));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    stops.push(
      () =>
        new Promise<void>((resolve) => {
          for (const s of sockets) s.destroy();
          server.close(() => resolve());
        }),
    );
    const port = (server.address() as AddressInfo).port;
    const err = await tokenError(`http://127.0.0.1:${port}/v1`, { requestTimeoutMs: 300 });
    expect(err.message).toBe(
      `target unreachable: POST http://127.0.0.1:${port}/v1/oauth/token: no response within 300 ms; the server took the connection but did not answer: check that baseUrl is the API, or give it longer with --timeout`,
    );
    expect(err.message).not.toMatch(/running/);
  });

  it('a self-signed certificate: not trusted, named by its code; the certificate itself goes in caFile', async () => {
    const baseUrl = await tlsServer(selfSigned);
    const err = await tokenError(baseUrl);
    expect(err.message).toBe(
      `target unreachable: POST ${baseUrl}/oauth/token: TLS: the server's certificate is self-signed, and not trusted (DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate); give that certificate itself in the target's caFile (a PEM file, trusted besides the system's CAs) or in NODE_EXTRA_CA_CERTS`,
    );
    expect(err.code).toBe('CONFORMANCE_ERR_TARGET_UNREACHABLE');
  });

  it('a certificate of a CA not trusted here: its CA goes in caFile, and with it the token request goes out', async () => {
    const baseUrl = await tlsServer(issued);
    const err = await tokenError(baseUrl);
    expect(err.message).toBe(
      `target unreachable: POST ${baseUrl}/oauth/token: TLS: the server's certificate is not trusted: its issuer is unknown here (UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate); give the CA that issued it in the target's caFile (a PEM file, trusted besides the system's CAs) or in NODE_EXTRA_CA_CERTS`,
    );
    // With the CA, TLS passes: what stops the run now is the answer (no token in "{}"), not the certificate.
    const trusted = await tokenError(baseUrl, { ca: ca.cert });
    expect(trusted.message).toMatch(/^no token: POST .* answered 200 without a token record/);
  });

  it('a certificate for another host: the mismatch, and the host name baseUrl should use; not the CA', async () => {
    const baseUrl = await tlsServer(otherHost);
    const err = await tokenError(baseUrl, { ca: otherHost.cert });
    expect(err.message).toMatch(
      /^target unreachable: POST https:\/\/127\.0\.0\.1:\d+\/v1\/oauth\/token: TLS: the server's certificate does not name the host it was reached at \(ERR_TLS_CERT_ALTNAME_INVALID: [^)]*\); use in baseUrl a host name the certificate names, or have the server's certificate name 127\.0\.0\.1$/,
    );
    expect(err.message).not.toMatch(/caFile|running/);
  });

  it('an answer over the cap: no token, the cap and how far the body got; not "unreachable"', async () => {
    const server = await startEchoServer((_req, res) => res.end(JSON.stringify({ token: 'x'.repeat(64 * 1024) })));
    stops.push(() => server.close());
    const err = await tokenError(`${server.origin}/v1`, { maxBodyBytes: 1024 });
    expect(err.message).toMatch(
      new RegExp(
        `^no token: POST ${server.origin}/v1/oauth/token: response body passed the 1 KiB cap on one body \\(--max-body\\) after \\d+ bytes of the 65548 its Content-Length announced, cut off while streaming; if answers that large are right, raise the cap with --max-body$`,
      ),
    );
    expect(err.code).toBe('CONFORMANCE_ERR_NO_TOKEN');
    expect(err.exitCode).toBe(3);
  });
});
