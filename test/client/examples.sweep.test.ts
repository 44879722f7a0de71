// The example clients (examples/clients/) against a sandbox this test starts itself, https as `conformance client`
// serves it, with the environment the harness hands a client: the requests they make are read from the server's
// observer. The compiled clients are run (`npm run test:sweeps` builds first), as a user runs them.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ServedExchange } from '../../src/reference/server.js';
import { defaultFixtures } from '../../src/reference/store.js';
import { generateEd25519 } from '../../src/http/keys.js';
import { makeCertificate, type TlsMaterial } from '../../src/receiver/certificate.js';
import { contentDigest } from '../../src/http/digest.js';
import { signRequest } from '../../src/http/signature.js';
import { FLAWS } from '../../examples/clients/ts/flaws.js';
import { WAIT_MS } from '../helpers/waits.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const GOOD = path.join(root, 'dist/examples/clients/ts/good.js');
const BROKEN = path.join(root, 'dist/examples/clients/ts/broken.js');
const SH = path.join(root, 'examples/clients/sh/client.sh');

let dir: string;
let sandboxTls: TlsMaterial;
let receiverTls: TlsMaterial;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'conformance-examples-'));
  [sandboxTls, receiverTls] = await Promise.all([makeCertificate(['127.0.0.1']), makeCertificate(['127.0.0.1'])]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stderr: string;
  served: ServedExchange[];
}

interface Sandbox {
  /** Resolves when the command has ended; the server is closed by then. */
  ended: Promise<Run>;
  served: ServedExchange[];
  /** The first request served that matches, when it has been answered (with the test's deadline). */
  seen(match: (s: ServedExchange) => boolean): Promise<ServedExchange>;
  acceptedFile: string;
  /** Sends SIGTERM to the command. */
  terminate(): void;
}

/** Starts a sandbox for one scenario and the command against it, with the environment `conformance client` gives. */
async function startScenario(
  scenario: string,
  command: string[],
  extra: { fixtures?: Record<string, unknown>; webhookKey?: string } = {},
): Promise<Sandbox> {
  const key = generateEd25519();
  const clientId = 'example-client';
  const clientSecret = randomBytes(16).toString('base64url');
  const keyId = `example-${randomBytes(3).toString('hex')}`;
  const served: ServedExchange[] = [];
  const waiting: Array<(s: ServedExchange) => void> = [];
  const server = await startReferenceServer({
    clients: [{ clientId, clientSecret, keyId, publicKey: key.publicKey }],
    choices: { pageMode: 'offset' },
    tls: sandboxTls,
    webhookCa: receiverTls.cert,
    ...(extra.webhookKey ? { webhookKey: extra.webhookKey } : {}),
    observe: (s) => {
      served.push(s);
      for (const wake of [...waiting]) wake(s);
    },
  });
  const at = mkdtempSync(path.join(dir, `${scenario}-`));
  const file = (name: string, text: string) => {
    writeFileSync(path.join(at, name), text);
    return path.join(at, name);
  };
  const env = {
    PATH: process.env.PATH,
    CONFORMANCE_SCENARIO: scenario,
    CONFORMANCE_BASE_URL: server.baseUrl,
    CONFORMANCE_CLIENT_ID: clientId,
    CONFORMANCE_CLIENT_SECRET: clientSecret,
    CONFORMANCE_KEY_ID: keyId,
    CONFORMANCE_PRIVATE_KEY_FILE: file('client-key.pem', key.privateKeyPem),
    CONFORMANCE_CA_FILE: file('ca.pem', sandboxTls.cert),
    CONFORMANCE_FIXTURES: JSON.stringify({ ...defaultFixtures(), ...extra.fixtures }),
    CONFORMANCE_ACCEPTED_FILE: path.join(at, 'accepted'),
    CONFORMANCE_RECEIVER_CERT_FILE: file('receiver.pem', receiverTls.cert),
    CONFORMANCE_RECEIVER_KEY_FILE: file('receiver-key.pem', receiverTls.key),
  };
  const child = spawn(command[0]!, command.slice(1), { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const limit = setTimeout(() => child.kill('SIGKILL'), WAIT_MS);
  const ended = new Promise<Run>((resolve) => {
    child.on('close', (code) => {
      clearTimeout(limit);
      void server.close().then(() => resolve({ code, stderr, served }));
    });
  });
  const seen = (match: (s: ServedExchange) => boolean) =>
    new Promise<ServedExchange>((resolve, reject) => {
      const already = served.find(match);
      if (already) return resolve(already);
      const deadline = setTimeout(() => reject(new Error('the client never made the request awaited')), WAIT_MS);
      const wake = (s: ServedExchange) => {
        if (!match(s)) return;
        clearTimeout(deadline);
        waiting.splice(waiting.indexOf(wake), 1);
        resolve(s);
      };
      waiting.push(wake);
    });
  return { ended, served, seen, acceptedFile: env.CONFORMANCE_ACCEPTED_FILE, terminate: () => child.kill('SIGTERM') };
}

async function runScenario(scenario: string, command: string[], fixtures?: Record<string, unknown>): Promise<Run> {
  return (await startScenario(scenario, command, fixtures ? { fixtures } : {})).ended;
}

/** Method and path (with the query) of each request, in order. */
function requestLines(served: ServedExchange[]): string[] {
  return served.map((s) => {
    const url = new URL(s.targetUri);
    return `${s.method} ${url.pathname.replace(/^\/v1/, '')}${url.search}`;
  });
}

function expectAllServed(run: Run): void {
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(
    run.served.filter((s) => s.status < 200 || s.status >= 300 || s.rejection),
    'no request refused',
  ).toEqual([]);
}

const fixtures = defaultFixtures();
const TOKEN_TASK = ['POST /oauth/token', `GET /customers/${fixtures.customerId}`, 'POST /oauth/revoke'];
const READ_TASK = [
  'POST /oauth/token',
  `GET /customers/${fixtures.customerId}`,
  `GET /accounts?customerId=${fixtures.customerId}`,
  // 250 transactions, 100 a page, offsets: the pages the sandbox names in meta.nextPage.
  `GET /transactions?customerId=${fixtures.paginationCustomerId}`,
  `GET /transactions?customerId=${fixtures.paginationCustomerId}&page=100`,
  `GET /transactions?customerId=${fixtures.paginationCustomerId}&page=200`,
  'POST /oauth/revoke',
];

/** USSD: each request after home is for a requestUrl the reply before it gave, character for character. */
function expectGivenUssdUrls(served: ServedExchange[], options: number[]): void {
  const ussd = served.filter((s) => s.targetUri.includes('/ussd/'));
  expect(ussd).toHaveLength(options.length + 1);
  expect(new URL(ussd[0]!.targetUri).pathname).toBe('/v1/ussd/home');
  options.forEach((option, i) => {
    const given = JSON.parse(ussd[i]!.replyBody).data.ussdOptions.find((o: any) => o.option === option);
    expect(ussd[i + 1]!.targetUri).toBe(given.requestUrl);
  });
}

describe('the TypeScript example client (good.js)', () => {
  it('token: obtains a token, reads a customer, revokes, every request accepted', async () => {
    const run = await runScenario('token', [process.execPath, GOOD]);
    expectAllServed(run);
    expect(requestLines(run.served)).toEqual(TOKEN_TASK);
    const [token, read, revoke] = run.served;
    const header = (s: ServedExchange, name: string) => s.headers.find(([n]) => n.toLowerCase() === name)?.[1];
    expect(header(token!, 'content-type')).toBe('application/x-www-form-urlencoded');
    expect(header(token!, 'authorization')).toBeUndefined();
    expect(header(read!, 'x-idempotency-key')).toBeUndefined();
    expect(header(revoke!, 'x-idempotency-key')).not.toBe(header(token!, 'x-idempotency-key'));
  });

  it('read: walks the transactions by meta.nextPage to the end', async () => {
    const run = await runScenario('read', [process.execPath, GOOD]);
    expectAllServed(run);
    expect(requestLines(run.served)).toEqual(READ_TASK);
  });

  it('ussd: follows the requestUrls the views give', async () => {
    const options = [1, 1, 1];
    const run = await runScenario('ussd', [process.execPath, GOOD], { ussdOptions: options });
    expectAllServed(run);
    expectGivenUssdUrls(run.served, options);
    expect(requestLines(run.served).at(-1)).toBe('POST /oauth/revoke');
  });

  it('webhooks: registers its receiver, accepts a valid delivery, refuses forged ones, revokes on SIGTERM', async () => {
    const { answers, accepted, run } = await deliverTo([process.execPath, GOOD]);
    expect(answers).toEqual({ valid: 204, 'body-altered': 401, expired: 401, 'other-key': 401 });
    expect(accepted).toEqual(['valid']);
    expect(run.code).toBe(0);
    expect(requestLines(run.served).at(-1)).toBe('POST /oauth/revoke');
    expect(run.served.at(-1)!.status).toBe(200);
  });
});

const KINDS = ['valid', 'body-altered', 'expired', 'other-key'] as const;
type Kind = (typeof KINDS)[number];

/**
 * Runs the webhooks scenario: once the client has fetched the key, sends its receiver one delivery of each kind
 * (signed with the sandbox's delivery key, or forged), then SIGTERM. What each was answered, and which were accepted.
 */
async function deliverTo(command: string[]): Promise<{ answers: Record<Kind, number>; accepted: Kind[]; run: Run }> {
  const webhookKey = generateEd25519().privateKeyPem;
  const sandbox = await startScenario('webhooks', command, { webhookKey });
  const keyFetched = await sandbox.seen((s) => s.targetUri.endsWith('/webhooks/key'));
  expect(keyFetched.status).toBe(200);
  const registration = sandbox.served.find((s) => s.method === 'POST' && s.targetUri.endsWith('/webhooks'))!;
  const { url, subscriptions } = JSON.parse(registration.body.toString());
  expect(subscriptions).toEqual(['ALL']);
  const eventIds = {} as Record<Kind, string>;
  const answers = {} as Record<Kind, number>;
  for (const kind of KINDS) {
    eventIds[kind] = randomUUID();
    const body = JSON.stringify({ eventId: eventIds[kind], event: 'AUTH.CREATED', data: {} });
    const headers: Array<[string, string]> = [
      ['content-type', 'application/json'],
      ['content-digest', contentDigest(body)],
    ];
    const created = Math.floor(Date.now() / 1000) - (kind === 'expired' ? 900 : 0);
    const privateKey = kind === 'other-key' ? generateEd25519().privateKeyPem : webhookKey;
    const signed = signRequest({ method: 'POST', url, headers }, { keyId: 'sandbox', privateKey, created });
    headers.push(['signature-input', signed.signatureInput], ['signature', signed.signature]);
    const sent = kind === 'body-altered' ? body.replace('AUTH.CREATED', 'AUTH.DELETED') : body;
    answers[kind] = await new Promise<number>((resolve, reject) => {
      const options = { method: 'POST', ca: receiverTls.cert, headers: Object.fromEntries(headers) };
      const req = request(url, options, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(sent);
    });
  }
  const lines = existsSync(sandbox.acceptedFile) ? readFileSync(sandbox.acceptedFile, 'utf8').split('\n') : [];
  sandbox.terminate();
  return { answers, accepted: KINDS.filter((k) => lines.includes(eventIds[k])), run: await sandbox.ended };
}

describe('the broken example client (broken.js)', () => {
  it('refuses a flaw it does not know, naming the ones it does', () => {
    const run = spawnSync(process.execPath, [BROKEN, 'no-such-flaw'], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    for (const name of Object.keys(FLAWS)) expect(run.stderr).toContain(name);
  });

  // Each broken receiver does what its line in FLAWS says, and nothing else: the other deliveries as the good client.
  it.each([
    ['accepts-forged-deliveries', { valid: 204, 'body-altered': 204, expired: 204, 'other-key': 204 }, KINDS],
    [
      'skips-digest-check',
      { valid: 204, 'body-altered': 204, expired: 401, 'other-key': 401 },
      ['valid', 'body-altered'],
    ],
    [
      'skips-signature-check',
      { valid: 204, 'body-altered': 401, expired: 401, 'other-key': 204 },
      ['valid', 'other-key'],
    ],
    ['skips-window-check', { valid: 204, 'body-altered': 401, expired: 204, 'other-key': 401 }, ['valid', 'expired']],
    ['answers-200-to-forged', { valid: 204, 'body-altered': 200, expired: 200, 'other-key': 200 }, ['valid']],
    ['rejects-all-deliveries', { valid: 401, 'body-altered': 401, expired: 401, 'other-key': 401 }, []],
  ] as const)('%s', async (flaw, answers, accepted) => {
    const result = await deliverTo([process.execPath, BROKEN, flaw]);
    expect(result.answers).toEqual(answers);
    expect(result.accepted).toEqual(accepted);
  });

  it('each flaw names its failing checks as client.<area>.<what>, one each but the acceptance example', () => {
    for (const [name, flaw] of Object.entries(FLAWS)) {
      expect(flaw.fails.length, name).toBe(name === 'accepts-forged-deliveries' ? 2 : 1);
      for (const id of flaw.fails) expect(id).toMatch(/^client\.[a-z]+\.[a-z-]+$/);
    }
  });
});

/** Whether this machine's openssl signs Ed25519 messages whole (`pkeyutl -rawin`, OpenSSL 3), and curl and jq exist. */
function shellClientTools(): string | undefined {
  for (const tool of ['curl', 'jq', 'openssl']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `${tool} is not installed`;
  }
  // A file, not stdin: Ed25519 signs the message in one shot, and OpenSSL reads one only from a file of known size.
  const probe = mkdtempSync(path.join(tmpdir(), 'conformance-openssl-'));
  try {
    writeFileSync(path.join(probe, 'message'), 'probe');
    const made = spawnSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', path.join(probe, 'key.pem')]);
    const signed = spawnSync('openssl', [
      'pkeyutl',
      '-sign',
      '-rawin',
      '-inkey',
      path.join(probe, 'key.pem'),
      '-in',
      path.join(probe, 'message'),
    ]);
    return made.status === 0 && signed.status === 0 && signed.stdout.length === 64
      ? undefined
      : 'openssl cannot sign Ed25519 with pkeyutl -rawin (OpenSSL 3 needed)';
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

const missing = shellClientTools();

describe.skipIf(missing !== undefined)(
  `the shell example client (client.sh)${missing ? `: skipped, ${missing}` : ''}`,
  () => {
    it('token: every request accepted', async () => {
      const run = await runScenario('token', ['bash', SH]);
      expectAllServed(run);
      expect(requestLines(run.served)).toEqual(TOKEN_TASK);
    });

    it('read: walks the transactions by meta.nextPage to the end', async () => {
      const run = await runScenario('read', ['bash', SH]);
      expectAllServed(run);
      expect(requestLines(run.served)).toEqual(READ_TASK);
    });
  },
);
