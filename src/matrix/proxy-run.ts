// One row of the proxy matrix (./proxy-detection.ts) run: the reference server over TLS (with the row's fault or
// choices), the intercepting proxy in this process in front of it, the example client as a child process once per
// scenario with HTTPS_PROXY and the proxy's CA, then the session's traffic judged on both sides by judgeTraffic, as
// `conformance proxy` does when its session ends. Cheaper than a `conformance proxy` child per row.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Choices } from '../reference/choices/index.js';
import { judgeTraffic } from '../judge-api.js';
import { startInterceptingProxy } from '../proxy/proxy.js';
import { prepareReports } from '../reports.js';
import { startLocalTarget } from '../targets/local.js';
import type { TrafficExchange } from '../traffic/exchange.js';
import { toTarget } from '../traffic/scope.js';
import type { JudgedSession, ProxyCase } from './proxy-detection.js';

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
  const local = await startLocalTarget({
    tls: settings.tls,
    ...(c.fault !== undefined ? { faults: [c.fault] } : {}),
    ...(choices !== undefined ? { choices } : {}),
  });
  try {
    const t = local.target;
    const keyFile = join(settings.dir, `key-${++sessions}.pem`);
    writeFileSync(keyFile, t.privateKeyPem, { mode: 0o600 });
    const proxy = await startInterceptingProxy({ target: t, caOut: settings.caOut });
    const exchanges: TrafficExchange[] = [];
    proxy.on('exchange', (e) => exchanges.push(e));
    const clients: JudgedSession['clients'] = [];
    try {
      for (const scenario of c.scenarios) {
        const env = {
          ...process.env,
          HTTPS_PROXY: proxy.url,
          NO_PROXY: '',
          CONFORMANCE_SCENARIO: scenario,
          CONFORMANCE_BASE_URL: t.baseUrl,
          CONFORMANCE_CLIENT_ID: t.clientId,
          CONFORMANCE_CLIENT_SECRET: t.clientSecret,
          CONFORMANCE_KEY_ID: t.keyId,
          CONFORMANCE_PRIVATE_KEY_FILE: keyFile,
          // The client trusts the proxy's CA: the proxy presents a certificate for the target's host made with it.
          CONFORMANCE_CA_FILE: proxy.lines[1],
          // The USSD walk: home, then options 4 and 1 (as test/e2e/proxy-clients.test.ts walks it).
          CONFORMANCE_FIXTURES: JSON.stringify({ ...t.fixtures, ussdOptions: [4, 1] }),
        };
        clients.push(await runClient(c.client, env, settings));
      }
    } finally {
      proxy.removeAllListeners('exchange');
      await proxy.close();
    }
    const scoped = toTarget(exchanges, new URL(t.baseUrl)).exchanges;
    const result = await judgeTraffic({
      reports: await prepareReports({}),
      target: t,
      exchanges: scoped,
      notes: [],
      side: 'both',
    });
    return {
      exchanges: scoped.length,
      clients,
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

/** How the client ended: its exit code (null when killed at the time limit) and its last line on stderr. */
async function runClient(
  args: string[],
  env: NodeJS.ProcessEnv,
  settings: ProxyRunSettings,
): Promise<JudgedSession['clients'][number]> {
  const child = spawn(process.execPath, args, { cwd: settings.root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-400)));
  const timer = setTimeout(() => child.kill('SIGKILL'), settings.timeLimitMs);
  try {
    const [code] = (await once(child, 'exit')) as [number | null];
    return { code, said: err.trim().split('\n').pop() ?? '' };
  } finally {
    clearTimeout(timer);
  }
}
