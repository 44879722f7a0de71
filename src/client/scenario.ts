// One scenario of `conformance client`: a fresh sandbox (the reference server over https, a fresh client and key), the
// command run with the scenario in its environment, every request it makes recorded as the sandbox saw it, and the
// command ended when it exits, when the scenario's time limit passes, or (webhooks) once every delivery was answered.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve as resolvePath } from 'node:path';
import type { Readable } from 'node:stream';
import { UserError } from '../errors.js';
import { generateEd25519 } from '../http/keys.js';
import { Redactor } from '../http/redact.js';
import { WholeBodies } from '../http/whole-bodies.js';
import { makeCertificate } from '../receiver/certificate.js';
import type { Middleware, RequestContext } from '../reference/context.js';
import { fail } from '../reference/respond.js';
import { startReferenceServer, type ReferenceServer, type ServedExchange } from '../reference/server.js';
import { webhookKeyFromPem } from '../reference/webhooks/signing-key.js';
import { sendDeliveries, type DeliveryPlan } from './forgeries.js';
import { recordedExchange } from './record.js';
import { scenarioFixtures, scenarioSpec } from './scenarios.js';
import type { ClientRequest, CommandEnd, SandboxAct, ScenarioName, ScenarioRecord, SentDelivery } from './types.js';
import { clientEnv } from './client-env.js';

export interface ScenarioOptions {
  /** The run's exchange numbering, shared by every scenario and the deliveries. */
  nextSeq: () => number;
  /** Default: the scenario's own (scenarios.ts). */
  timeLimitMs?: number;
  /** Extra CA certificates (PEM) the sandbox trusts for the client's receiver, beside the one handed over. */
  webhookCa?: string;
  /** More environment for the command (config `env`); the CONFORMANCE_* variables of the scenario win. */
  env?: Readonly<Record<string, string>>;
  /** Where the command runs; default the current folder. */
  cwd?: string;
  /** Bound on one delivery to the receiver (webhooks); default 5 s. */
  deliveryTimeoutMs?: number;
}

/** What the report keeps of the command's output: the end of each stream. */
const TAIL_BYTES = 4096;
/** After SIGTERM, the command's process group has this long before SIGKILL. */
const KILL_GRACE_MS = 3000;
/** A background process of the command that holds its stdout open must not hold up the scenario. */
const STREAMS_GRACE_MS = 1000;
const DEFAULT_DELIVERY_TIMEOUT_MS = 5000;
/** Both certificates name loopback as an address and by name, whichever the client dials. */
const LOOPBACK = ['127.0.0.1', 'localhost'];

type PendingAct =
  | { kind: 'token-ended'; serverSeq: number; tokenIds: string[]; at: number }
  | { kind: 'throttled'; serverSeq: number; retryAfterSeconds: number; at: number; persistent: boolean };

export async function runScenario(
  name: ScenarioName,
  command: readonly string[],
  opts: ScenarioOptions,
): Promise<ScenarioRecord> {
  const spec = scenarioSpec(name);
  const client = freshClient();
  const redactor = new Redactor([client.clientSecret]);
  const fixtures = scenarioFixtures(name);
  const webhooks = spec.behaviour === 'webhooks';
  const dir = await mkdtemp(join(tmpdir(), `conformance-client-${name}-`));
  let server: ReferenceServer | undefined;
  try {
    const { tls, files, receiverCa } = await writeSandboxFiles(dir, client.key.privateKeyPem, webhooks, opts.webhookCa);
    // The sandbox signs its deliveries with a key the harness holds, so the forged ones can be signed with it too.
    const webhookKeyPem = generateEd25519().privateKeyPem;
    const webhookKey = webhookKeyFromPem(webhookKeyPem);
    const traffic = new ScenarioTraffic(name, webhooks, {
      receiverCa,
      key: webhookKey,
      nextSeq: opts.nextSeq,
      redactor,
      timeoutMs: opts.deliveryTimeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS,
      acceptedFile: files.accepted,
    });
    server = await startReferenceServer({
      tls,
      clients: [
        {
          clientId: client.clientId,
          clientSecret: client.clientSecret,
          keyId: client.keyId,
          publicKey: client.key.publicKeyPem,
        },
      ],
      choices: spec.choices,
      webhookKey: webhookKeyPem,
      ...(receiverCa !== '' ? { webhookCa: receiverCa } : {}),
      middleware: behaviourMiddleware(spec.behaviour, client.clientId, traffic.pendingActs),
      observe: traffic.observe,
    });
    const env = scenarioEnv(name, server.baseUrl, client, files, fixtures, webhooks, opts.env);
    const run = await runCommand(command, env, opts.cwd, opts.timeLimitMs ?? spec.timeLimitSeconds * 1000, traffic);
    // A delivery still in flight ends with the command.
    traffic.abort.abort();
    await Promise.all([run.stdout.closed(), run.stderr.closed()]);
    await traffic.deliveriesDone;
    if (webhooks && traffic.accepted === undefined) traffic.accepted = await acceptedLines(files.accepted);
    return {
      scenario: name,
      clientId: client.clientId,
      keyId: client.keyId,
      publicKeyPem: client.key.publicKeyPem,
      baseUrl: server.baseUrl,
      fixtures,
      requests: traffic.requests,
      acts: actsOf(traffic.pendingActs, traffic.runSeqOf),
      deliveries: traffic.deliveries,
      accepted: traffic.accepted ?? [],
      ...(webhooks ? { webhookPublicKeyPem: webhookKey.publicKeyPem } : {}),
      end: {
        code: run.status.code,
        signal: run.status.signal,
        endedBy: run.endedBy,
        stderrTail: run.stderr.text(),
        stdoutTail: run.stdout.text(),
        durationMs: run.durationMs,
      },
    };
  } finally {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The client the sandbox registers for one scenario: a fresh Ed25519 key, client id, secret and key id. */
function freshClient(): {
  key: ReturnType<typeof generateEd25519>;
  clientId: string;
  clientSecret: string;
  keyId: string;
} {
  const key = generateEd25519();
  const clientId = `client-${randomBytes(6).toString('hex')}`;
  const clientSecret = randomBytes(24).toString('base64url');
  const keyId = `key-${randomBytes(6).toString('hex')}`;
  return { key, clientId, clientSecret, keyId };
}

/** The files handed to the command, in the scenario's own folder. */
/** The command's environment (client-env.ts): the sandbox's address, the client's credentials, the scenario's files. */
function scenarioEnv(
  scenario: ScenarioName,
  baseUrl: string,
  client: { clientId: string; clientSecret: string; keyId: string },
  files: SandboxFiles,
  fixtures: object,
  webhooks: boolean,
  extra: ScenarioOptions['env'],
): NodeJS.ProcessEnv {
  const { clientId, clientSecret, keyId } = client;
  const receiver = { certFile: files.receiverCert, keyFile: files.receiverKey, acceptedFile: files.accepted };
  return clientEnv(
    {
      ...{ scenario, baseUrl, clientId, clientSecret, keyId, fixtures },
      privateKeyFile: files.privateKey,
      caFile: files.ca,
      ...(webhooks ? { receiver } : {}),
    },
    process.env,
    extra,
  );
}

interface SandboxFiles {
  privateKey: string;
  ca: string;
  receiverCert: string;
  receiverKey: string;
  accepted: string;
}

/**
 * The sandbox's TLS certificate, and the files the command reads: the client's private key, the sandbox's CA and
 * (webhooks) the receiver's certificate and key and the empty accepted-deliveries file. `receiverCa` is what the
 * sandbox trusts for the receiver: its certificate and the extra CA given.
 */
async function writeSandboxFiles(
  dir: string,
  privateKeyPem: string,
  webhooks: boolean,
  webhookCa: string | undefined,
): Promise<{ tls: Awaited<ReturnType<typeof makeCertificate>>; files: SandboxFiles; receiverCa: string }> {
  const tls = await makeCertificate(LOOPBACK);
  const files: SandboxFiles = {
    privateKey: join(dir, 'client-key.pem'),
    ca: join(dir, 'sandbox-ca.pem'),
    receiverCert: join(dir, 'receiver-cert.pem'),
    receiverKey: join(dir, 'receiver-key.pem'),
    accepted: join(dir, 'accepted.txt'),
  };
  await writeFile(files.privateKey, privateKeyPem, { mode: 0o600 });
  await writeFile(files.ca, tls.cert);
  const receiver = webhooks ? await makeCertificate(LOOPBACK) : undefined;
  if (receiver) {
    await writeFile(files.receiverCert, receiver.cert);
    await writeFile(files.receiverKey, receiver.key, { mode: 0o600 });
    await writeFile(files.accepted, '');
  }
  const receiverCa = [receiver?.cert, webhookCa].filter((c) => c !== undefined).join('\n');
  return { tls, files, receiverCa };
}

/**
 * What the sandbox saw of one scenario: each request (numbered in the run), the acts of behaviourMiddleware, and
 * (webhooks) the deliveries, sent once the client has registered its receiver and fetched GET /webhooks/key; when they
 * are all answered, the scenario is done and the command is stopped.
 */
class ScenarioTraffic {
  readonly requests: ClientRequest[] = [];
  /** The sandbox's own sequence number of a request → the run's. */
  readonly runSeqOf = new Map<number, number>();
  readonly pendingActs: PendingAct[] = [];
  readonly abort = new AbortController();
  deliveriesDone: Promise<void> | undefined;
  deliveries: SentDelivery[] = [];
  accepted: string[] | undefined;
  /** Ends the command; runCommand sets it once the command runs. */
  stop: (why: 'time-limit' | 'scenario-done') => void = () => undefined;
  private registered: { url: string; webhookId: string } | undefined;
  /** The bodies of the client's traffic longer than the excerpt, kept whole for the run's HAR. */
  private readonly whole: WholeBodies;

  constructor(
    private readonly name: ScenarioName,
    private readonly webhooks: boolean,
    private readonly plan: Omit<DeliveryPlan, 'url' | 'webhookId' | 'signal'> & { acceptedFile: string },
  ) {
    this.whole = new WholeBodies(plan.redactor);
  }

  /** The sandbox's observe hook: records the request, and starts the deliveries when it is their turn. */
  readonly observe = (served: ServedExchange): void => {
    const request = clientRequestOf(this.name, served, this.plan.nextSeq(), this.plan.redactor, this.whole);
    this.runSeqOf.set(served.seq, request.seq);
    this.requests.push(request);
    if (!this.webhooks || this.deliveriesDone !== undefined) return;
    this.registered = registrationOf(request) ?? this.registered;
    if (this.registered && request.method === 'GET' && request.path === '/webhooks/key' && request.status === 200)
      this.deliveriesDone = this.deliver(this.registered);
  };

  private async deliver(target: { url: string; webhookId: string }): Promise<void> {
    const { acceptedFile, ...plan } = this.plan;
    this.deliveries = await sendDeliveries({
      url: target.url,
      receiverCa: plan.receiverCa,
      key: plan.key,
      webhookId: target.webhookId,
      nextSeq: plan.nextSeq,
      redactor: plan.redactor,
      timeoutMs: plan.timeoutMs,
      signal: this.abort.signal,
    });
    // The receiver writes an accepted delivery's id before it answers: every answer is in, so is every line.
    if (!this.abort.signal.aborted) this.accepted = await acceptedLines(acceptedFile);
    this.stop('scenario-done');
  }
}

/**
 * Runs the command in its own process group until it exits, or is stopped (SIGTERM, then SIGKILL after KILL_GRACE_MS)
 * at the time limit or when the traffic says the scenario is done; then ends what it left running in its group.
 */
async function runCommand(
  command: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string | undefined,
  timeLimitMs: number,
  traffic: ScenarioTraffic,
): Promise<{
  status: { code: number | null; signal: string | null };
  endedBy: CommandEnd['endedBy'];
  durationMs: number;
  stdout: ReturnType<typeof tailOf>;
  stderr: ReturnType<typeof tailOf>;
}> {
  const started = Date.now();
  const child = await startCommand(command, env, cwd);
  const stdout = tailOf(child.stdout!);
  const stderr = tailOf(child.stderr!);
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let endedBy: CommandEnd['endedBy'] = 'exit';
  let exitedYet = false;
  let killTimer: NodeJS.Timeout | undefined;
  const group = child.pid!;
  traffic.stop = (why) => {
    if (exitedYet || endedBy !== 'exit') return;
    endedBy = why;
    signalGroup(group, 'SIGTERM');
    killTimer = setTimeout(() => signalGroup(group, 'SIGKILL'), KILL_GRACE_MS);
  };
  const limit = setTimeout(() => traffic.stop('time-limit'), timeLimitMs);
  const status = await exited;
  exitedYet = true;
  const durationMs = Date.now() - started;
  clearTimeout(limit);
  clearTimeout(killTimer);
  // What the command left running in its group ends with it.
  signalGroup(group, 'SIGTERM');
  return { status, endedBy, durationMs, stdout, stderr };
}

/** The request as the checks read it: the path relative to the base URL, the reply parsed, the exchange for reports. */
function clientRequestOf(
  scenario: ScenarioName,
  served: ServedExchange,
  seq: number,
  redactor: Redactor,
  whole: WholeBodies,
): ClientRequest {
  const replyBody = Buffer.from(served.replyBody, 'utf8');
  const exchange = recordedExchange(
    {
      seq,
      label: `client:${scenario}`,
      startedAt: served.receivedAt,
      durationMs: Math.max(0, Date.now() - served.receivedAt),
      request: { method: served.method, url: served.targetUri, headers: served.headers, body: served.body },
      response: { status: served.status, headers: Object.entries(served.replyHeaders), body: replyBody },
    },
    redactor,
    whole,
  );
  return {
    seq,
    scenario,
    receivedAt: served.receivedAt,
    method: served.method,
    url: served.targetUri,
    path: relativePath(served.targetUri),
    headers: served.headers,
    body: served.body,
    status: served.status,
    replyHeaders: served.replyHeaders,
    reply: parseJson(served.replyBody),
    ...(served.rejection ? { rejection: served.rejection } : {}),
    exchange,
  };
}

function relativePath(targetUri: string): string {
  let url: URL;
  try {
    url = new URL(targetUri);
  } catch {
    return targetUri;
  }
  const path = url.pathname.startsWith('/v1/') ? url.pathname.slice(3) : url.pathname;
  return `${path}${url.search}`;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The receiver a 2xx POST or PUT /webhooks registered: its URL and webhookId from the reply, else the URL sent. */
function registrationOf(request: ClientRequest): { url: string; webhookId: string } | undefined {
  if ((request.method !== 'POST' && request.method !== 'PUT') || request.path !== '/webhooks') return undefined;
  if (request.status < 200 || request.status > 299) return undefined;
  const reply = request.reply as { data?: Record<string, unknown> } | Record<string, unknown> | undefined;
  const data = (reply && typeof reply.data === 'object' && reply.data !== null ? reply.data : reply) as
    Record<string, unknown> | undefined;
  const sent = parseJson(request.body.toString('utf8')) as Record<string, unknown> | undefined;
  const url = typeof data?.url === 'string' ? data.url : typeof sent?.url === 'string' ? sent.url : undefined;
  if (url === undefined) return undefined;
  return { url, webhookId: typeof data?.webhookId === 'string' ? data.webhookId : '' };
}

/** What the sandbox does to the client on purpose: end its tokens part-way (renew), answer 429 (throttle). */
function behaviourMiddleware(
  behaviour: ReturnType<typeof scenarioSpec>['behaviour'],
  clientId: string,
  acts: PendingAct[],
): Middleware[] {
  if (behaviour === 'renew') {
    let withToken = 0;
    return [
      async (ctx, state, _route, next) => {
        const reply = await next();
        if (headerOf(ctx, 'authorization') !== undefined && ++withToken === 2) {
          const ended = state.tokens.revokeClient(clientId, 'ended by the sandbox on purpose (scenario renew)');
          acts.push({
            kind: 'token-ended',
            serverSeq: ctx.seq,
            tokenIds: ended.map((t) => t.tokenId),
            at: state.clock(),
          });
        }
        return reply;
      },
    ];
  }
  if (behaviour === 'throttle') {
    let customerReads = 0;
    return [
      (ctx, state, route, next) => {
        const persistent = route.method === 'GET' && route.path === '/accounts';
        const once = route.method === 'GET' && route.path === '/customers/:customerId' && ++customerReads === 1;
        if (!persistent && !once) return next();
        ctx.rejection = {
          code: 'TOO_MANY_REQUESTS',
          reason: `throttled on purpose (scenario throttle)${persistent ? ': every attempt' : ': the first attempt'}`,
        };
        acts.push({ kind: 'throttled', serverSeq: ctx.seq, retryAfterSeconds: 1, at: state.clock(), persistent });
        return Promise.resolve(fail(429, 'Too Many Requests: retry after 1 second', { 'retry-after': '1' }));
      },
    ];
  }
  return [];
}

function headerOf(ctx: RequestContext, name: string): string | undefined {
  return ctx.headers.find(([n]) => n.toLowerCase() === name)?.[1];
}

/** The acts numbered as the client's requests are (the run's numbering); an act whose request was never answered is dropped. */
function actsOf(pending: readonly PendingAct[], runSeqOf: ReadonlyMap<number, number>): SandboxAct[] {
  return pending.flatMap((act): SandboxAct[] => {
    const seq = runSeqOf.get(act.serverSeq);
    if (seq === undefined) return [];
    return act.kind === 'token-ended'
      ? [{ kind: 'token-ended', afterSeq: seq, tokenIds: act.tokenIds, at: act.at }]
      : [{ kind: 'throttled', seq, retryAfterSeconds: act.retryAfterSeconds, at: act.at, persistent: act.persistent }];
  });
}

/** Spawned in a process group of its own, so that ending the scenario ends whatever the command started too. */
async function startCommand(command: readonly string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<ChildProcess> {
  const [file, ...args] = command;
  if (file === undefined || file === '') throw new UserError('no command given after --', 2);
  const child = spawn(file, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'], ...(cwd ? { cwd } : {}) });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', () => resolve());
    child.once('error', reject);
  }).catch((e: NodeJS.ErrnoException) => {
    throw e.code === 'ENOENT' || e.code === 'EACCES' || e.code === 'ENOTDIR' ? commandError(file, e.code) : e;
  });
  return child;
}

/** A command that cannot be started is the user's to fix: one line, exit 2. */
function commandError(file: string, code: string): UserError {
  return new UserError(
    `the command "${file}" cannot be started (${code === 'ENOENT' ? 'no such file or program on PATH' : 'not executable'}); give a program and its arguments after --`,
    2,
    'CONFORMANCE_ERR_CLIENT_COMMAND',
  );
}

/**
 * Refuses, before any sandbox starts, a command that names no executable file (a path, or a name looked up on PATH
 * as spawn does); a command that passes and still cannot be spawned is refused by the spawn itself.
 */
export async function checkCommand(command: readonly string[], cwd = process.cwd()): Promise<void> {
  const [file] = command;
  if (file === undefined || file === '') throw new UserError('no command given after --', 2);
  const candidates = file.includes('/')
    ? [resolvePath(cwd, file)]
    : (process.env.PATH ?? '').split(delimiter).map((dir) => resolvePath(cwd, dir === '' ? '.' : dir, file));
  let code = 'ENOENT';
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      if ((await stat(candidate)).isFile()) return;
      code = 'EACCES';
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EACCES') code = 'EACCES';
    }
  }
  throw commandError(file, code);
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group has ended already.
  }
}

/** The end of a stream's output; `closed()`, once the command has exited, waits a little for its last bytes. */
function tailOf(stream: Readable): { text(): string; closed(): Promise<void> } {
  let tail = Buffer.alloc(0);
  stream.on('data', (chunk: Buffer) => {
    tail = Buffer.concat([tail, chunk]);
    if (tail.length > TAIL_BYTES) tail = tail.subarray(tail.length - TAIL_BYTES);
  });
  const ended = new Promise<void>((resolve) => stream.once('close', () => resolve()));
  return {
    text: () => tail.toString('utf8'),
    closed: async () => {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([ended, new Promise<void>((resolve) => (timer = setTimeout(resolve, STREAMS_GRACE_MS)))]);
      clearTimeout(timer);
      stream.destroy();
    },
  };
}

async function acceptedLines(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}
