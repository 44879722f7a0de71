// `conformance proxy --target NAME` (issue 30): the intercepting proxy (src/proxy/) in front of the target, a line per
// exchange as it happens, and on Ctrl-C or --duration the session's traffic judged by the same judge as `conformance
// judge` (judge-api.ts judgeTraffic) with the usual reports. The proxy knows no check: this command wires the two.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { CheckResult } from '../engine/index.js';
import { ProxyCaError } from '../errors.js';
import { configTarget, judgeAlone, judgeTraffic, NOT_EXERCISED_FOLDS, proxySide, sideNote } from '../judge-api.js';
import { startInterceptingProxy, type InterceptingProxy } from '../proxy/proxy.js';
import { prepareReports } from '../reports.js';
import { humanReporterForStdout } from '../report/human.js';
import { checkReason } from '../report/reason.js';
import { visibleLine } from '../report/visible.js';
import { KeptTraffic } from '../traffic/kept.js';
import { leftOutLine, toTarget } from '../traffic/scope.js';
import type { TrafficExchange } from '../traffic/exchange.js';
import { observedNumber } from '../traffic/responses.js';
import { humanStyleOf, reportSettings, type ReportCommandOptions } from './report-options.js';
import { writeReportsLine } from './reports-written.js';

export interface ProxyCommandOptions extends ReportCommandOptions {
  target: string;
  config?: string;
  /** 0: a free port. */
  port: number;
  /** The CA certificate's file; by default .conformance/proxy-ca.pem beside the config file (else here). */
  caOut?: string;
  /** Milliseconds, parsed from "30s", "10m"; absent: until SIGINT or SIGTERM. */
  duration?: number;
  /** server, client or both; absent: both when the target names the client, else server (judge-api.ts proxySide). */
  side?: string;
  /** The client's webhook receiver URL: the proxy fronts it too (the webhook leg, receiverLines). */
  receiver?: URL;
}

/**
 * Returns the exit code, as `judge`'s: 0, or 1 when a check that fails the run failed (or INCOMPLETE under --fail-on
 * incomplete). SIGINT or SIGTERM ends the session (a second one stops at once, judging nothing).
 */
export async function proxyCommand(opts: ProxyCommandOptions): Promise<number> {
  // What the user can get wrong is found before the proxy listens: report paths, the target, the CA.
  const reports = await prepareReports({
    ...reportSettings(opts),
    reporters: [humanReporterForStdout({ style: humanStyleOf(opts), foldedSkips: NOT_EXERCISED_FOLDS })],
  });
  const target = await configTarget({
    target: opts.target,
    ...(opts.config !== undefined ? { config: opts.config } : {}),
  });
  const { side, line: sideLine } = proxySide(opts.side, target);
  const caOut = opts.caOut ?? defaultCaFile(target.configFolder);
  const proxy = await startInterceptingProxy({ target, caOut, port: opts.port, receiver: opts.receiver });
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const banner = setUpLines(proxy, target.baseUrl, opts.duration);
  // Whose side the session judges, before the line that says how it ends.
  for (const line of [...banner.slice(0, -1), sideLine, ...banner.slice(-1)]) out(line);

  const kept = new KeptTraffic();
  const base = new URL(target.baseUrl);
  // Each exchange's line, with what the judges find in it alone, in the order the exchanges ended.
  let lines = Promise.resolve();
  proxy.on('exchange', (exchange) => {
    kept.add(exchange);
    lines = lines.then(async () => {
      const found = await judgeAlone(target, exchange, side).catch(() => []);
      out(exchangeLine(exchange, base));
      for (const check of found) out(findingLine(check));
    });
  });
  // The webhook leg's deliveries: a line each as it happens; judged with the session's traffic at its end.
  const deliveries = new KeptTraffic(DELIVERY_BODY_BUDGET_BYTES);
  proxy.on('delivery', (delivery) => {
    deliveries.add(delivery);
    lines = lines.then(() => void out(deliveryLine(delivery)));
  });
  proxy.once('receiverTlsFailure', (reason) => {
    lines = lines.then(
      () =>
        void out(
          `  webhooks: the server's TLS handshake with the webhook leg failed (${reason}): it must trust the proxy's CA`,
        ),
    );
  });
  const started = Date.now();
  const why = await sessionEnd(opts.duration);
  // What ends after this (a request cut by the close) is not the session's: judged now is what was recorded until now.
  proxy.removeAllListeners('exchange').removeAllListeners('delivery').removeAllListeners('receiverTlsFailure');
  await proxy.close();
  await lines;

  const scoped = toTarget(kept.exchanges, base);
  const notKept = kept.note();
  const leftOut = leftOutLine(scoped, base);
  const passed = proxy.counts.passedThrough;
  const notes = [
    `judged ${scoped.exchanges.length} exchange(s) proxied in a session of ${seconds(Date.now() - started)} (ended by ${why}) against ${target.baseUrl}; ${sideNote(side, target)}`,
    ...(leftOut !== undefined ? [leftOut] : []),
    ...(notKept !== undefined ? [notKept] : []),
    ...(passed > 0 ? [`${passed} request(s) or tunnel(s) to other hosts passed through, not recorded`] : []),
    ...(proxy.receiverLeg !== undefined ? [legNote(proxy.receiverLeg, deliveries.exchanges.length)] : []),
    ...(deliveries.note() !== undefined ? [`webhook deliveries: ${deliveries.note()!}`] : []),
  ];
  out(`conformance proxy: ${why}: ${notes.slice(1).concat('judging').join('; ')}`);
  out('');
  const result = await judgeTraffic({
    reports,
    target,
    exchanges: scoped.exchanges,
    deliveries: deliveries.exchanges,
    notes,
    side,
    ...reportSettings(opts),
  });
  writeReportsLine(opts);
  return result.exitCode;
}

/** Where the CA is kept when --ca-out is not given: beside the config's other state, made on first use. */
function defaultCaFile(configFolder: string | undefined): string {
  const file = join(configFolder ?? resolve('.'), '.conformance', 'proxy-ca.pem');
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch (err) {
    throw new ProxyCaError(
      `proxy CA: cannot make the folder ${dirname(file)} (${(err as NodeJS.ErrnoException).code ?? 'error'}); give --ca-out a path you can write`,
    );
  }
  return file;
}

/** What a client needs: the proxy's address and the CA to trust, as each kind of client takes them. */
function setUpLines(proxy: InterceptingProxy, baseUrl: string, duration: number | undefined): string[] {
  const [httpsProxy, ca] = proxy.lines;
  return [
    `conformance proxy: intercepting ${new URL(baseUrl).origin} for ${baseUrl}; traffic to other hosts passes through, unrecorded`,
    `  ${httpsProxy}`,
    `  CA: ${ca}${proxy.ca.created ? ' (made now; kept for the next sessions, its key beside it with mode 0600)' : ''}`,
    `    Node:   NODE_EXTRA_CA_CERTS=${ca} (or undici ProxyAgent requestTls.ca)`,
    `    Python: REQUESTS_CA_BUNDLE=${ca}`,
    `    curl:   curl --proxy ${proxy.url} --cacert ${ca} ...`,
    ...receiverLines(proxy),
    duration !== undefined
      ? `the session ends after ${seconds(duration)} (or at Ctrl-C), then the traffic is judged`
      : 'Ctrl-C ends the session; the traffic is then judged',
  ];
}

/** With --receiver: the webhook URL the client registers instead of its receiver's, and what the server must trust. */
function receiverLines(proxy: InterceptingProxy): string[] {
  const leg = proxy.receiverLeg;
  if (leg === undefined) return [];
  return [
    `  webhooks: register ${leg.url} as the webhook URL (POST or PUT /webhooks) in place of ${leg.receiver.href}:`,
    `    each delivery is verified with the key of GET /webhooks/key and forwarded unchanged to ${leg.receiver.origin}; the server must trust the CA above`,
  ];
}

/** The delivery bodies a session keeps (the run's receiver keeps as many): deliveries are small, and many. */
const DELIVERY_BODY_BUDGET_BYTES = 32 * 1024 * 1024;

/** What the webhook leg saw, for the session's notes: deliveries forwarded, and TLS handshakes the server failed. */
function legNote(leg: NonNullable<InterceptingProxy['receiverLeg']>, delivered: number): string {
  const { count, last } = leg.tlsFailures;
  const failed =
    count > 0
      ? `; ${count} TLS handshake(s) of the server with the webhook leg failed (${last ?? 'no reason given'}): it must trust the proxy's CA`
      : '';
  return `${delivered} webhook deliver(ies) forwarded to ${leg.receiver.href}${failed}`;
}

/** `  #9 delivery POST /hook → 200 from the client's receiver (3 ms)`: one line per delivery of the webhook leg. */
function deliveryLine(delivery: TrafficExchange): string {
  const url = URL.canParse(delivery.request.url) ? new URL(delivery.request.url) : undefined;
  const answer =
    delivery.response !== undefined
      ? `${delivery.response.status} from the client's receiver`
      : `not forwarded: ${delivery.error ?? 'the connection closed'}`;
  const took = delivery.durationMs !== undefined ? ` (${Math.round(delivery.durationMs)} ms)` : '';
  return visibleLine(
    `  #${observedNumber(delivery)} delivery ${delivery.request.method} ${url !== undefined ? `${url.pathname}${url.search}` : delivery.request.url} → ${answer}${took}`,
  );
}

/** `  #3 GET /accounts?customerId=1042 → 200 (12 ms)`: one line per exchange of the target, numbered as the reports do. */
function exchangeLine(exchange: TrafficExchange, base: URL): string {
  const url = URL.canParse(exchange.request.url) ? new URL(exchange.request.url) : undefined;
  // The proxy records the target's origin; what is outside its base path is left out of the judging, as by `judge`.
  const inside = toTarget([exchange], base).exchanges.length > 0;
  const prefix = base.pathname.replace(/\/+$/, '');
  const path =
    url === undefined
      ? exchange.request.url
      : `${inside ? url.pathname.slice(prefix.length) || '/' : url.pathname}${url.search}`;
  const answer =
    exchange.response !== undefined
      ? `${exchange.response.status}`
      : `no answer: ${exchange.error ?? 'the connection closed'}`;
  const took = exchange.durationMs !== undefined ? ` (${Math.round(exchange.durationMs)} ms)` : '';
  const outside = inside ? '' : ' (outside the base URL: not judged)';
  return visibleLine(`  #${observedNumber(exchange)} ${exchange.request.method} ${path} → ${answer}${took}${outside}`);
}

/** `      ✗ pagination.meta.present  MUST  meta is absent`: what a judge found in the exchange above, alone. */
function findingLine(check: CheckResult): string {
  const mark = { fail: '✗', warn: '!', error: 'E' }[check.outcome as 'fail' | 'warn' | 'error'];
  return `      ${mark} ${check.id}  ${check.level}  ${checkReason(check)}`;
}

/** Resolves with what ended the session: the duration, or SIGINT/SIGTERM (a second signal stops at once). */
function sessionEnd(duration: number | undefined): Promise<string> {
  return new Promise((done) => {
    let timer: NodeJS.Timeout | undefined;
    const end = (why: string) => {
      clearTimeout(timer);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      // A second signal while judging: stop at once.
      process.once('SIGINT', () => process.exit(130));
      process.once('SIGTERM', () => process.exit(143));
      done(why);
    };
    const onSignal = (signal: NodeJS.Signals) => end(signal);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    if (duration !== undefined) timer = setTimeout(() => end(`--duration ${seconds(duration)}`), duration);
  });
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}
