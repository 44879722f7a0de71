// The harness of `conformance client` (src/client/scenario.ts) with a tiny client written here: the environment it
// hands over, the traffic it records, how it ends a command, and what the sandbox does on purpose (renew, throttle).
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../../src/client/scenario.js';
import { runCli } from '../helpers/cli.js';
import { WAIT_MS } from '../helpers/waits.js';

const LIBRARY = fileURLToPath(new URL('../../dist/src/signing.js', import.meta.url));

// A client as a partner would write one, on node:https and the project's signing library: one mode per test.
const CLIENT = `
import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { signRequest, contentDigest } from ${JSON.stringify(LIBRARY)};

const env = process.env;
const [mode, out] = process.argv.slice(2);
const agent = new https.Agent({ ca: readFileSync(env.CONFORMANCE_CA_FILE, 'utf8'), keepAlive: true });
const key = readFileSync(env.CONFORMANCE_PRIVATE_KEY_FILE, 'utf8');
const fixtures = JSON.parse(env.CONFORMANCE_FIXTURES);

function send(method, path, { token, form, json } = {}) {
  const url = env.CONFORMANCE_BASE_URL + path;
  const headers = {};
  let body;
  if (form) { body = new URLSearchParams(form).toString(); headers['content-type'] = 'application/x-www-form-urlencoded'; }
  if (json) { body = JSON.stringify(json); headers['content-type'] = 'application/json'; }
  if (body !== undefined) {
    headers['content-length'] = String(Buffer.byteLength(body));
    headers['content-digest'] = contentDigest(Buffer.from(body));
  }
  if (token) { headers.authorization = 'Bearer ' + token; headers['x-client-id'] = env.CONFORMANCE_CLIENT_ID; }
  if (method !== 'GET') headers['x-idempotency-key'] = randomUUID();
  const signed = signRequest({ method, url, headers }, { keyId: env.CONFORMANCE_KEY_ID, privateKey: key });
  headers['signature-input'] = signed.signatureInput;
  headers.signature = signed.signature;
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method, headers, agent }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
const token = async () =>
  (await send('POST', '/oauth/token', { form: { clientId: env.CONFORMANCE_CLIENT_ID, clientSecret: env.CONFORMANCE_CLIENT_SECRET } })).body.data.token;
const customer = '/customers/' + fixtures.customerId;

if (mode === 'env') {
  const names = Object.keys(env).filter((n) => n.startsWith('CONFORMANCE_') || n === 'EXTRA_FROM_CONFIG');
  const files = {};
  for (const n of names) if (n.endsWith('_FILE')) files[n] = existsSync(env[n]) ? (statSync(env[n]).mode & 0o777) : null;
  writeFileSync(out, JSON.stringify({ env: Object.fromEntries(names.map((n) => [n, env[n]])), files }));
} else if (mode === 'token') {
  const t = await token();
  await send('GET', customer, { token: t });
  await send('POST', '/oauth/revoke', { token: t });
  process.stderr.write('done\\n');
} else if (mode === 'hang') {
  // A child of its own that would outlive the command if only the command were ended.
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  writeFileSync(out, String(child.pid));
  setInterval(() => {}, 1000);
} else if (mode === 'renew') {
  let t = await token();
  for (let i = 0; i < 2; i++) await send('GET', customer, { token: t });
  const refused = await send('GET', customer, { token: t });
  if (refused.status === 401) t = await token();
  await send('GET', customer, { token: t });
} else if (mode === 'throttle') {
  const t = await token();
  await send('GET', customer, { token: t });
  await send('GET', customer, { token: t });
  await send('GET', '/accounts?customerId=' + fixtures.customerId, { token: t });
  process.exit(3);
} else if (mode === 'webhooks') {
  const receiver = https.createServer(
    { cert: readFileSync(env.CONFORMANCE_RECEIVER_CERT_FILE), key: readFileSync(env.CONFORMANCE_RECEIVER_KEY_FILE) },
    (req, res) => { req.resume(); req.on('end', () => res.writeHead(400).end()); },
  );
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  appendFileSync(env.CONFORMANCE_ACCEPTED_FILE, 'evt-written-by-the-client\\n\\n');
  const t = await token();
  await send('POST', '/webhooks', { token: t, json: { url: 'https://127.0.0.1:' + receiver.address().port + '/hook', subscriptions: ['ALL'] } });
  await send('GET', '/webhooks/key', { token: t });
  // Keeps the receiver up until the harness ends the command.
}
`;

let dir: string;
let client: string;
let seq = 0;
const nextSeq = () => ++seq;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'harness-test-'));
  client = join(dir, 'client.mjs');
  writeFileSync(client, CLIENT);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Resolves once no process has this id; a signal 0 only asks. */
async function waitUntilGone(pid: number): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    if (Date.now() > deadline) throw new Error(`process ${pid} is still running`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('conformance client harness', () => {
  it('hands the command the whole environment, and every file it names exists (keys 0600)', async () => {
    const out = join(dir, 'env.json');
    const record = await runScenario('webhooks', [process.execPath, client, 'env', out], {
      nextSeq,
      env: { EXTRA_FROM_CONFIG: 'yes', CONFORMANCE_SCENARIO: 'overridden?' },
    });
    const seen = JSON.parse(readFileSync(out, 'utf8')) as {
      env: Record<string, string>;
      files: Record<string, number | null>;
    };
    expect(seen.env.CONFORMANCE_SCENARIO).toBe('webhooks');
    expect(seen.env.EXTRA_FROM_CONFIG).toBe('yes');
    expect(seen.env.CONFORMANCE_BASE_URL).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(seen.env.CONFORMANCE_BASE_URL).toBe(record.baseUrl);
    expect(seen.env.CONFORMANCE_CLIENT_ID).toBe(record.clientId);
    expect(seen.env.CONFORMANCE_CLIENT_ID).toMatch(/^client-[0-9a-f]+$/);
    expect(seen.env.CONFORMANCE_KEY_ID).toBe(record.keyId);
    expect(seen.env.CONFORMANCE_CLIENT_SECRET!.length).toBeGreaterThanOrEqual(16);
    expect(JSON.parse(seen.env.CONFORMANCE_FIXTURES!)).toEqual(record.fixtures);
    expect(record.fixtures).toMatchObject({
      customerId: expect.any(Number),
      accountId: expect.any(Number),
      paginationCustomerId: expect.any(Number),
      mutableCustomerId: expect.any(Number),
    });
    expect(Object.keys(seen.files).sort()).toEqual([
      'CONFORMANCE_ACCEPTED_FILE',
      'CONFORMANCE_CA_FILE',
      'CONFORMANCE_PRIVATE_KEY_FILE',
      'CONFORMANCE_RECEIVER_CERT_FILE',
      'CONFORMANCE_RECEIVER_KEY_FILE',
    ]);
    for (const [name, mode] of Object.entries(seen.files)) expect(mode, name).not.toBeNull();
    expect(seen.files.CONFORMANCE_PRIVATE_KEY_FILE).toBe(0o600);
    expect(seen.files.CONFORMANCE_RECEIVER_KEY_FILE).toBe(0o600);
    expect(record.end).toMatchObject({ code: 0, endedBy: 'exit' });
    expect(record.webhookPublicKeyPem).toMatch(/BEGIN PUBLIC KEY/);
  });

  it('token: records each request (method, path, status, in the run numbering) and how the command ended', async () => {
    const record = await runScenario('token', [process.execPath, client, 'token'], { nextSeq });
    expect(record.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /oauth/token 200',
      `GET /customers/${String(record.fixtures.customerId)} 200`,
      'POST /oauth/revoke 200',
    ]);
    const seqs = record.requests.map((r) => r.seq);
    expect(seqs).toEqual([seqs[0], seqs[0]! + 1, seqs[0]! + 2]);
    const [tokenRequest] = record.requests;
    expect(tokenRequest!.scenario).toBe('token');
    expect(tokenRequest!.url).toBe(`${record.baseUrl}/oauth/token`);
    expect(tokenRequest!.body.toString()).toContain(`clientId=${record.clientId}`);
    expect((tokenRequest!.reply as { data: { token: string } }).data.token).toEqual(expect.any(String));
    // The report's copy knows no secret.
    expect(tokenRequest!.exchange.checkId).toBe('client:token');
    expect(tokenRequest!.exchange.request.bodyExcerpt).not.toContain(
      new URLSearchParams(tokenRequest!.body.toString()).get('clientSecret'),
    );
    expect(record.end).toMatchObject({ code: 0, signal: null, endedBy: 'exit', stderrTail: 'done\n' });
    expect(record.acts).toEqual([]);
  });

  it('ends a command that never exits at the time limit, its whole process group', async () => {
    const out = join(dir, 'grandchild.pid');
    const record = await runScenario('token', [process.execPath, client, 'hang', out], { nextSeq, timeLimitMs: 2000 });
    expect(record.end).toMatchObject({ endedBy: 'time-limit', code: null, signal: 'SIGTERM' });
    await waitUntilGone(Number(readFileSync(out, 'utf8')));
  });

  it('renew: ends every token of the client once its 2nd request with a token is answered', async () => {
    const record = await runScenario('renew', [process.execPath, client, 'renew'], { nextSeq });
    const statuses = record.requests.map((r) => `${r.method} ${r.path.replace(/\d+$/, 'N')} ${r.status}`);
    expect(statuses).toEqual([
      'POST /oauth/token 200',
      'GET /customers/N 200',
      'GET /customers/N 200',
      'GET /customers/N 401',
      'POST /oauth/token 200',
      'GET /customers/N 200',
    ]);
    expect(record.acts).toEqual([
      {
        kind: 'token-ended',
        afterSeq: record.requests[2]!.seq,
        tokenIds: [expect.any(String)],
        at: expect.any(Number),
      },
    ]);
    expect(record.requests[3]!.rejection?.code).toMatch(/^TOKEN_(REVOKED|UNKNOWN)$/);
  });

  it('throttle: the first read of the customer and every read of the accounts get 429 with Retry-After: 1', async () => {
    const record = await runScenario('throttle', [process.execPath, client, 'throttle'], { nextSeq });
    const [, first, second, accounts] = record.requests;
    expect([first!.status, second!.status, accounts!.status]).toEqual([429, 200, 429]);
    for (const r of [first!, accounts!]) {
      expect(r.replyHeaders['retry-after']).toBe('1');
      expect(r.reply).toEqual({ code: '429', message: expect.any(String) });
    }
    expect(record.acts).toEqual([
      { kind: 'throttled', seq: first!.seq, retryAfterSeconds: 1, at: expect.any(Number), persistent: false },
      { kind: 'throttled', seq: accounts!.seq, retryAfterSeconds: 1, at: expect.any(Number), persistent: true },
    ]);
    expect(record.end).toMatchObject({ code: 3, endedBy: 'exit' });
  });

  it('webhooks: after the key is fetched, delivers and ends the command (scenario-done), then reads the accepted file', async () => {
    const record = await runScenario('webhooks', [process.execPath, client, 'webhooks'], {
      nextSeq,
      timeLimitMs: WAIT_MS,
    });
    expect(record.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /oauth/token 200',
      'POST /webhooks 200',
      'GET /webhooks/key 200',
    ]);
    expect(record.end.endedBy).toBe('scenario-done');
    expect(record.accepted).toEqual(['evt-written-by-the-client']);
  });

  it('a command that cannot be started: one line, exit 2, before any sandbox', async () => {
    const result = await runCli(['client', '--', join(dir, 'no-such-client')]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/cannot be started .*\[CONFORMANCE_ERR_CLIENT_COMMAND\]/);
  });
});
