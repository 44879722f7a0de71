// Why a run gets no token, told as the server told it: its status and its {code, message}, and advice for that status.
// Only a 401 or 403 points at the credentials; a 404 at the base URL (its /v1); another 4xx at the server's own words.
import { afterEach, describe, expect, it } from 'vitest';
import { pack } from '../../suites/index.js';
import { runChecks } from '../../src/engine/index.js';
import { TargetError } from '../../src/errors.js';
import { generateEd25519 } from '../../src/http/keys.js';
import type { ResolvedTarget } from '../../src/config/types.js';
import { startEchoServer } from '../helpers/echo-server.js';

const key = generateEd25519();
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
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

describe('a token request that gives no token', () => {
  it("says the server's words on a 400 and blames no credential", async () => {
    const origin = await refusing(
      400,
      JSON.stringify({ code: '400', message: 'X-Idempotency-Key is required on POST requests' }),
    );
    const message = await noToken(`${origin}/v1`);
    expect(message).toBe(
      `no token: POST ${origin}/v1/oauth/token answered 400 (the server said: code "400", message "X-Idempotency-Key is required on POST requests"); the server refused the token request itself: its answer says why`,
    );
  });

  it('points at the base URL on a 404 (a baseUrl without /v1)', async () => {
    const origin = await refusing(404, JSON.stringify({ code: '404', message: 'Not Found' }));
    const message = await noToken(origin);
    expect(message).toMatch(
      /answered 404 \(the server said: code "404", message "Not Found"\); check baseUrl: the token endpoint is POST <baseUrl>\/oauth\/token, so baseUrl usually ends with the API version \(e\.g\. \/v1\)$/,
    );
    expect(message).not.toContain('clientSecret');
  });

  it('points at the credentials on a 401, and never shows the secret even when the server echoes it', async () => {
    const origin = await refusing(401, JSON.stringify({ code: '401', message: 'bad secret the-secret-value' }));
    const message = await noToken(`${origin}/v1`);
    expect(message).toMatch(
      /answered 401 \(the server said: code "401", message "bad secret \[redacted\]"\); check clientId, clientSecret, keyId and the private key of this target$/,
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
