// One row of the proxy matrix (./proxy-detection.ts) run: the reference server over TLS (with the row's fault or
// choices), the intercepting proxy in this process in front of it, the example client as a child process once per
// scenario with HTTPS_PROXY and the proxy's CA, then the session's traffic judged on both sides by judgeTraffic, as
// `conformance proxy` does when its session ends. Cheaper than a `conformance proxy` child per row.
//
// The webhooks scenario runs with the webhook leg (`conformance proxy --receiver`): the client's receiver listens on a
// port chosen here, the proxy's leg fronts it, the client registers the leg's URL, and the server trusts the proxy's
// CA for its deliveries. The client keeps its receiver running until told to stop, so the session ends on events: the
// client has fetched the delivery key (or exited), and every delivery the server caused so far has been answered and
// recorded by the leg. Then the proxy closes (the session's end, as Ctrl-C ends `conformance proxy`) and the client
// gets its SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Choices } from '../reference/choices/index.js';
import { judgeTraffic } from '../judge-api.js';
import { loadOrCreateCa } from '../proxy/ca.js';
import { startInterceptingProxy, type InterceptingProxy } from '../proxy/proxy.js';
import { prepareReports } from '../reports.js';
import { startLocalTarget, type LocalTarget } from '../targets/local.js';
import type { TrafficExchange } from '../traffic/exchange.js';
import { toTarget } from '../traffic/scope.js';
import { unansweredDeliveries, type JudgedSession, type ProxyCase } from './proxy-detection.js';
import { clientEnv, type ClientEnvValues } from '../client/client-env.js';

export interface ProxyRunSettings {
  /** The repository's root: where the client's command runs. */
  root: string;
  /** A private scratch folder (the client's key file). */
  dir: string;
  /** The server's certificate and key (PEM) for 127.0.0.1, made once for every row. */
  tls: { cert: string; key: string };
  /** The proxy's CA file, made by the first session and reused. */
  caOut: string;
  /** A scenario's client is killed past this. */
  timeLimitMs: number;
}

let sessions = 0;

/** Runs the case's proxy session and judges it; `choices` are the bundle's (for a `choices` row). */
export async function runProxyCase(
  c: ProxyCase,
  choices: Partial<Choices> | undefined,
  settings: ProxyRunSettings,
): Promise<JudgedSession> {
  const webhooks = c.scenarios.includes('webhooks');
  // Made before the server starts: the server trusts it for its deliveries (the leg's certificate is signed by it).
  const ca = webhooks ? await loadOrCreateCa(settings.caOut) : undefined;
  const local = await startLocalTarget({
    tls: settings.tls,
    ...(c.fault !== undefined ? { faults: [c.fault] } : {}),
    ...(choices !== undefined ? { choices } : {}),
    ...(ca !== undefined ? { webhookCa: ca.cert } : {}),
  });
  try {
    const t = local.target;
    const session = await proxiedSession(c, local, settings, webhooks);
    const scoped = toTarget(session.exchanges, new URL(t.baseUrl)).exchanges;
    const result = await judgeTraffic({
      reports: await prepareReports({}),
      target: t,
      exchanges: scoped,
      ...(webhooks ? { deliveries: session.deliveries } : {}),
      notes: [],
      side: 'both',
    });
    const unanswered = unansweredDeliveries(local.server.deliveries);
    return {
      exchanges: scoped.length,
      ...(webhooks ? { deliveries: session.deliveries.length } : {}),
      ...(unanswered.length > 0 ? { unanswered } : {}),
      ...(session.unsettled !== undefined ? { unsettled: session.unsettled } : {}),
      clients: session.clients,
      checks: result.checks.map((x) => ({
        id: x.id,
        outcome: x.outcome,
        // A finding one cause made, judged for its owner (ctx.alsoSee), names its exchange by number only.
        cited: x.exchanges.some((e) => e.checkId === 'observed') || x.finding?.exchangeSeq !== undefined,
        ...(x.skipReason !== undefined ? { skipReason: x.skipReason } : {}),
      })),
    };
  } finally {
    await local.stop();
  }
}

interface ProxiedSession {
  exchanges: TrafficExchange[];
  deliveries: TrafficExchange[];
  clients: JudgedSession['clients'];
  unsettled?: string;
}

/** The proxy in front of the server (and, for webhooks, of the client's receiver), the client through it once per scenario. */
async function proxiedSession(
  c: ProxyCase,
  local: LocalTarget,
  settings: ProxyRunSettings,
  webhooks: boolean,
): Promise<ProxiedSession> {
  const t = local.target;
  const n = ++sessions;
  const keyFile = join(settings.dir, `key-${n}.pem`);
  writeFileSync(keyFile, t.privateKeyPem, { mode: 0o600 });
  // The client's receiver: a free port chosen first, the leg in front of it.
  const receiverPort = webhooks ? await freePort() : undefined;
  const proxy = await startInterceptingProxy({
    target: t,
    caOut: settings.caOut,
    ...(receiverPort !== undefined ? { receiver: new URL(`https://127.0.0.1:${receiverPort}/webhooks`) } : {}),
  });
  const session: ProxiedSession = { exchanges: [], deliveries: [], clients: [] };
  proxy.on('exchange', (e) => session.exchanges.push(e));
  proxy.on('delivery', (d) => session.deliveries.push(d));
  // What ends after the session (a request cut by the close) is not the session's, as in `conformance proxy`.
  let closing: Promise<void> | undefined;
  const endSession = () =>
    (closing ??= (async () => {
      proxy.removeAllListeners('exchange').removeAllListeners('delivery');
      await proxy.close();
    })());
  try {
    for (const scenario of c.scenarios) {
      if (scenario !== 'webhooks' || receiverPort === undefined) {
        session.clients.push(await runClient(c.client, proxiedEnv(scenario, t, proxy, keyFile), settings));
        continue;
      }
      const env = proxiedEnv(scenario, t, proxy, keyFile, receiverOf(settings, n, receiverPort, proxy));
      const ran = await runReceivingClient(c.client, env, settings, (exited) =>
        settledSession(proxy, local, session.deliveries, exited).then(endSession),
      );
      session.clients.push(ran.end);
      session.unsettled ??= ran.unsettled;
    }
  } finally {
    await endSession();
  }
  return session;
}

/** The environment `conformance client` hands a client, for this target and scenario, through the proxy. */
function proxiedEnv(
  scenario: string,
  t: LocalTarget['target'],
  proxy: InterceptingProxy,
  keyFile: string,
  receiver?: ClientEnvValues['receiver'],
): NodeJS.ProcessEnv {
  return clientEnv(
    {
      scenario,
      baseUrl: t.baseUrl,
      clientId: t.clientId,
      clientSecret: t.clientSecret,
      keyId: t.keyId,
      privateKeyFile: keyFile,
      // The client trusts the proxy's CA: the proxy presents a certificate for the target's host made with it.
      caFile: proxy.lines[1]!,
      // The USSD walk: home, then options 4 and 1 (as test/e2e/proxy-clients.sweep.test.ts walks it).
      fixtures: { ...t.fixtures, ussdOptions: [4, 1] },
      ...(receiver !== undefined ? { receiver } : {}),
    },
    { ...process.env, HTTPS_PROXY: proxy.url, NO_PROXY: '' },
  );
}

/**
 * The webhooks scenario's receiver: on the port chosen, registered at the leg's URL. Its certificate is the server's,
 * which the leg trusts as the target's CA when it forwards a delivery.
 */
function receiverOf(
  settings: ProxyRunSettings,
  n: number,
  port: number,
  proxy: InterceptingProxy,
): NonNullable<ClientEnvValues['receiver']> {
  const certFile = join(settings.dir, `receiver-${n}.pem`);
  const keyFile = join(settings.dir, `receiver-key-${n}.pem`);
  writeFileSync(certFile, settings.tls.cert);
  writeFileSync(keyFile, settings.tls.key, { mode: 0o600 });
  return { certFile, keyFile, port, webhookUrl: proxy.receiverLeg!.url };
}

type ClientEnd = JudgedSession['clients'][number];

/** How the client ended: its exit code (null when killed at the time limit) and its last line on stderr. */
function runClient(args: string[], env: NodeJS.ProcessEnv, settings: ProxyRunSettings): Promise<ClientEnd> {
  return startClient(args, env, settings).ended;
}

function startClient(
  args: string[],
  env: NodeJS.ProcessEnv,
  settings: ProxyRunSettings,
): { child: ChildProcess; ended: Promise<ClientEnd> } {
  const child = spawn(process.execPath, args, { cwd: settings.root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-400)));
  const timer = setTimeout(() => child.kill('SIGKILL'), settings.timeLimitMs);
  const ended = (once(child, 'exit') as Promise<[number | null]>).then(([code]) => {
    clearTimeout(timer);
    return { code, said: err.trim().split('\n').pop() ?? '' };
  });
  return { child, ended };
}

/**
 * A client that keeps running until told to stop (its webhook receiver): `sessionEnded` resolves when the session is
 * over (given the client's exit, which may come first); then the client gets SIGTERM (it revokes its token and exits
 * 0). Within the client's time limit, else `unsettled` says what did not come.
 */
async function runReceivingClient(
  args: string[],
  env: NodeJS.ProcessEnv,
  settings: ProxyRunSettings,
  sessionEnded: (exited: Promise<unknown>) => Promise<void>,
): Promise<{ end: ClientEnd; unsettled?: string }> {
  const { child, ended } = startClient(args, env, settings);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((done) => {
    timer = setTimeout(
      () => done(`the session did not settle within ${settings.timeLimitMs} ms`),
      settings.timeLimitMs,
    );
  });
  const unsettled = await Promise.race([sessionEnded(ended).then(() => undefined), late]).finally(() =>
    clearTimeout(timer),
  );
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  return { end: await ended, ...(unsettled !== undefined ? { unsettled } : {}) };
}

/**
 * Resolves when the webhooks session is over: the client has GET /webhooks/key answered 2xx (its last step after
 * registering) or has exited, then the server's deliveries caused so far have all had their last attempt
 * (ReferenceServer.deliveriesSettled), and the leg has recorded each one the server got an answer to.
 */
async function settledSession(
  proxy: InterceptingProxy,
  local: LocalTarget,
  deliveries: readonly TrafficExchange[],
  exited: Promise<unknown>,
): Promise<void> {
  await Promise.race([keyFetched(proxy), exited]);
  await local.server.deliveriesSettled();
  const answered = local.server.deliveries.filter((a) => a.status !== undefined).length;
  if (deliveries.length >= answered) return;
  await new Promise<void>((done) => {
    const recorded = () => {
      if (deliveries.length < answered) return;
      proxy.off('delivery', recorded);
      done();
    };
    proxy.on('delivery', recorded);
  });
}

/** Resolves on the first GET /webhooks/key the server answered 2xx through the proxy. */
function keyFetched(proxy: InterceptingProxy): Promise<void> {
  return new Promise((done) => {
    const seen = (e: TrafficExchange) => {
      const status = e.response?.status ?? 0;
      if (e.request.method !== 'GET' || !new URL(e.request.url).pathname.endsWith('/webhooks/key')) return;
      if (status < 200 || status > 299) return;
      proxy.off('exchange', seen);
      done();
    };
    proxy.on('exchange', seen);
  });
}

/** A TCP port free on loopback now: the client's receiver listens on it. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}
