// A default run through the library, in this process, against a fresh local target, with what the run itself does not
// report: every exchange the client sent (the USSD suite keeps only the crawl exchanges that prove a finding, so the
// run's result lists fewer), and how long checks spent waiting for webhook deliveries.
//
// Exchanges are taken from the client's diagnostics channel (EXCHANGE_CHANNEL), on which every attempt of every
// request is published once it ends; waits by wrapping WebhookReceiver.waitFor, the one way a check waits for a
// delivery, for the length of the run.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';

const { startLocalTarget } = await import('../dist/src/targets/local.js');
const { runChecks } = await import('../dist/src/engine/index.js');
const { pack } = await import('../dist/suites/index.js');
const { EXCHANGE_CHANNEL } = await import('../dist/src/http/exchange.js');
const { WebhookReceiver } = await import('../dist/src/receiver/receiver.js');

/**
 * Runs the default suites with `runOptions` added to runChecks' options (e.g. a concurrency), against a local target
 * started with `localOptions` (e.g. a latency). Returns the result, the run's time in ms, every exchange sent (in send
 * order), the webhook waits and the URL of the run's webhook receiver.
 */
export async function runInProcess(runOptions = {}, localOptions = {}) {
  const local = await startLocalTarget(localOptions);
  const sent = [];
  const waits = [];
  let receiverUrl;
  const originalWait = WebhookReceiver.prototype.waitFor;
  const onExchange = (exchange) => sent.push(exchange);
  subscribe(EXCHANGE_CHANNEL, onExchange);
  WebhookReceiver.prototype.waitFor = function (...args) {
    receiverUrl = this.url;
    const started = performance.now();
    return originalWait.apply(this, args).finally(() => waits.push([started, performance.now()]));
  };
  try {
    const started = performance.now();
    const result = await runChecks({ target: local.target, pack, ...runOptions });
    const runMs = performance.now() - started;
    sent.sort((a, b) => a.seq - b.seq);
    return { result, runMs, sent, waitMs: unionMs(waits), waits: waits.length, receiverUrl, target: local.target };
  } finally {
    unsubscribe(EXCHANGE_CHANNEL, onExchange);
    WebhookReceiver.prototype.waitFor = originalWait;
    await local.stop();
  }
}

/** Exchanges the run's result lists (checks and session), without repeats: a check may attach one it did not send. */
export function recordedCount(result) {
  const seqs = new Set(result.sessionExchanges.map((e) => e.seq));
  for (const c of result.checks) for (const e of c.exchanges) seqs.add(e.seq);
  return seqs.size;
}

/** Time covered by at least one interval: waits that overlap count once. */
function unionMs(intervals) {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = -Infinity;
  for (const [s, e] of sorted) {
    if (e <= end) continue;
    total += e - Math.max(s, end);
    end = e;
  }
  return total;
}
