// The engine's defences against a hostile server, one by one, without the CLI: credentials only to the target's origin,
// redirects and content encodings left alone, the whole-run budget, redaction of echoed signatures and of crash output,
// and the warning for a private key file others can read. test/e2e/hostile.sweep.test.ts shows them end to end.
import { CITES } from '../helpers/requirements.js';
import { pack } from '../../suites/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CredentialsRefused, SignedClient, TransportError } from '../../src/http/client.js';
import { generateEd25519 } from '../../src/http/keys.js';
import { processRedactor, Redactor } from '../../src/http/redact.js';
import { contentDigest } from '../../src/http/digest.js';
import { defineCheck, defineSuite, formatBudget, parseDuration, runChecks } from '../../src/engine/index.js';
import { loadConfig } from '../../src/config/load.js';
import type { ResolvedTarget } from '../../src/config/types.js';
import { startEchoServer } from '../helpers/echo-server.js';
import { startForeign } from '../helpers/hostile/foreign.js';
import { LIMIT_MS, WAIT_MS } from '../helpers/waits.js';

const key = generateEd25519();
const TOKEN = 'tok_hostile_0123456789abcdefghij';
let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function clientFor(handler: Parameters<typeof startEchoServer>[0]) {
  const server = await startEchoServer(handler);
  const client = new SignedClient({
    baseUrl: `${server.origin}/v1`,
    clientId: 'acme',
    keyId: 'k',
    privateKey: key.seed,
    timeoutMs: WAIT_MS,
  });
  cleanup.push(
    () => client.close(),
    () => server.close(),
  );
  return { server, client };
}

describe('SignedClient against a hostile server', () => {
  it('refuses to send anything to another origin, in one place for every request, and records why', async () => {
    const foreign = await startForeign();
    cleanup.push(() => foreign.close());
    const { client } = await clientFor((_r, res) => res.end('{}'));
    const seen: string[] = [];
    const err = await client
      .send({ method: 'GET', path: `${foreign.origin}/v1/ussd/stocks?customerId=1`, token: TOKEN }, (e) =>
        seen.push(e.error ?? 'none'),
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CredentialsRefused);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as Error).message).toBe(`refused to send credentials to ${foreign.origin} (not the target's origin)`);
    expect(seen).toEqual([(err as Error).message]);
    // Even a request built by hand and sent unsigned, without a token.
    const prepared = client.prepare({ method: 'GET', path: `${foreign.origin}/x`, sign: false });
    await expect(client.sendPrepared(prepared, {})).rejects.toBeInstanceOf(CredentialsRefused);
    // Another scheme or port of the same host is another origin too.
    await expect(
      client.send({ method: 'GET', path: client.identity.baseUrl.replace('http:', 'https:') }),
    ).rejects.toBeInstanceOf(CredentialsRefused);
    expect(foreign.received).toEqual([]);
  });

  it('does not follow a redirect, even to its own origin, and never to another', async () => {
    const foreign = await startForeign();
    cleanup.push(() => foreign.close());
    const { server, client } = await clientFor((req, res) => {
      res.writeHead(307, { location: req.url === '/v1/a' ? `${foreign.origin}/v1/a` : '/v1/a' }).end();
    });
    expect((await client.send({ method: 'GET', path: '/a', token: TOKEN })).status).toBe(307);
    expect((await client.send({ method: 'GET', path: '/b', token: TOKEN })).status).toBe(307);
    expect(server.received.map((r) => r.url)).toEqual(['/v1/a', '/v1/b']);
    expect(foreign.received).toEqual([]);
  });

  it('asks for no content encoding and never decompresses one it is sent anyway', async () => {
    const packed = gzipSync(Buffer.alloc(8 * 1024 * 1024));
    const { server, client } = await clientFor((_r, res) =>
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(packed),
    );
    const res = await client.send({ method: 'GET', path: '/bomb', token: TOKEN });
    expect(server.received[0]!.headers.some(([n]) => n.toLowerCase() === 'accept-encoding')).toBe(false);
    expect(res.body.byteLength).toBe(packed.byteLength);
    expect([...res.body.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
  });

  it('says what the server did: headers then silence, a short body, a header flood', async () => {
    const { client } = await clientFor((req, res) => {
      if (req.url === '/v1/stall') {
        res.writeHead(200, { 'content-length': '100' });
        res.write('{"da');
      } else if (req.url === '/v1/short') {
        res.writeHead(200, { 'content-length': '100' });
        // Closed once the first bytes are out: the client sees them, then the end, whatever the machine's load.
        res.write('{"da', () => res.socket?.destroy());
      } else {
        res.writeHead(200, { 'x-big': 'a'.repeat(64 * 1024) }).end();
      }
    });
    // Only the stalled body waits out a (short) limit; the others end on what the server does, long before theirs.
    const message = (path: string, timeoutMs = WAIT_MS) =>
      client.send({ method: 'GET', path, timeoutMs }).then(
        () => 'answered',
        (e: Error) => e.message,
      );
    expect(await message('/stall', 500)).toBe(
      'the response body did not finish within 500 ms: 4 bytes received of the 100 its Content-Length announced',
    );
    expect(await message('/short')).toMatch(
      /^the server closed the connection after 4 of the 100 body bytes its Content-Length announced/,
    );
    expect(await message('/big')).toMatch(
      /^response headers exceeded the client's limit of 16 KiB \(UND_ERR_HEADERS_OVERFLOW\)$/,
    );
  });
});

describe('redaction of what a hostile server echoes', () => {
  it('masks an echoed signature wherever it appears, but not a content digest', () => {
    const signature = Buffer.alloc(64, 9).toString('base64');
    const digest = contentDigest(Buffer.from('{}'));
    const text = `you sent sig1=:${signature}: with content-digest: ${digest}`;
    expect(new Redactor().text(text)).toBe(`you sent sig1=:[redacted]: with content-digest: ${digest}`);
  });

  it('learns a token from anywhere in a large body, and every secret of the process masks crash output', () => {
    const r = new Redactor();
    r.learn(`{"padding":"${'x'.repeat(10_000)}","data":{"token":"late-token-abcdef123456"}}`);
    expect(r.text('echo late-token-abcdef123456')).toBe('echo [redacted]');
    new Redactor(['a-secret-only-a-run-knows-42']);
    expect(processRedactor.text('internal error: a-secret-only-a-run-knows-42 and late-token-abcdef123456')).toBe(
      'internal error: [redacted] and [redacted]',
    );
  });
});

describe('the whole-run budget', () => {
  it('parses 90s, 10m, 1h and combinations, and names them back the same way', () => {
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('10m')).toBe(600_000);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('250ms')).toBe(250);
    for (const bad of ['10', '', '0s', 'ten minutes', '-5s', '5 m']) expect(parseDuration(bad), bad).toBeUndefined();
    expect(['90s', '10m', '1h', '1h30m', '250ms', '1m30s'].map((t) => formatBudget(parseDuration(t)!))).toEqual([
      '90s',
      '10m',
      '1h',
      '90m',
      '250ms',
      '90s',
    ]);
  });

  it('stops the check running when the budget ends, reports the checks left as errors naming it, and fails the run', async () => {
    const server = await startEchoServer((req, res) => {
      if (req.url === '/v1/oauth/token')
        res.end(JSON.stringify({ data: { token: TOKEN }, code: '200', message: 'Success' }));
      else if (req.url !== '/v1/hang') res.end('{}');
    });
    cleanup.push(() => server.close());
    const target: ResolvedTarget = {
      name: 't',
      baseUrl: `${server.origin}/v1`,
      clientId: 'c',
      clientSecret: 'secret-value',
      keyId: 'k',
      privateKeyPem: key.privateKeyPem,
      privateKey: key.seed,
      fixtures: {},
      webhook: { listen: '127.0.0.1:0', tls: 'none' },
    };
    const suite = defineSuite({
      name: 'auth',
      title: 'test',
      checks: [
        defineCheck({
          id: 'auth.a.quick',
          title: 'passes',
          level: 'MUST',
          requirements: CITES.MUST,
          async run(ctx) {
            await ctx.send({ method: 'GET', path: '/ok' });
            ctx.judged('the answer');
          },
        }),
        defineCheck({
          id: 'auth.b.hang',
          title: 'hangs',
          level: 'MUST',
          requirements: CITES.MUST,
          async run(ctx) {
            // Its own limit is past the budget's end: only the budget can stop it.
            await ctx.send({ method: 'GET', path: '/hang', timeoutMs: WAIT_MS });
          },
        }),
        defineCheck({
          id: 'auth.c.late',
          title: 'never runs',
          level: 'MUST',
          requirements: CITES.MUST,
          async run() {
            throw new Error('ran past the budget');
          },
        }),
      ],
    });
    // One at a time, so the last check is still waiting when the budget ends. The token and the quick check must be
    // answered within the budget, which the test then waits out: LIMIT_MS.
    const result = await runChecks({ pack, target, suites: [suite], budgetMs: LIMIT_MS, concurrency: 1 });
    const spent = `run budget of ${formatBudget(LIMIT_MS)} spent`;
    expect(result.checks.map((c) => [c.id, c.outcome, c.finding?.message])).toEqual([
      ['auth.a.quick', 'pass', undefined],
      ['auth.b.hang', 'error', spent],
      ['auth.c.late', 'error', spent],
    ]);
    expect(result.exitCode).toBe(1);
  });
});

describe('a private key file others can read', () => {
  it('gets a one-line warning, like ssh; a key readable by its owner only gets none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-keymode-'));
    writeFileSync(join(dir, 'k.pem'), key.privateKeyPem);
    writeFileSync(
      join(dir, 'c.json'),
      JSON.stringify({
        targets: {
          s: { baseUrl: 'https://s.example/v1', clientId: 'c', clientSecret: 'x', keyId: 'k', privateKeyFile: 'k.pem' },
        },
      }),
    );
    const warnings: string[] = [];
    chmodSync(join(dir, 'k.pem'), 0o644);
    await loadConfig({ configPath: join(dir, 'c.json'), warn: (l) => warnings.push(l) });
    chmodSync(join(dir, 'k.pem'), 0o600);
    await loadConfig({ configPath: join(dir, 'c.json'), warn: (l) => warnings.push(l) });
    if (process.platform === 'win32') return expect(warnings).toEqual([]);
    expect(warnings).toEqual([
      `conformance: warning: targets.s.privateKeyFile (k.pem) is readable by others (mode 0644); a private key must be readable by you only: chmod 600 ${join(dir, 'k.pem')}`,
    ]);
    expect(warnings[0]).not.toContain(key.privateKeyPem.split('\n')[1]!);
  });
});
