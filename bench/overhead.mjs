// 2. overhead: a default run in this process against the local target, then its exchanges replayed raw and in order
// against a fresh local target (bench/replay.mjs). The ratio is what the suite costs beyond the requests it sends.
import { median, round } from './lib.mjs';
import { recordedCount, runInProcess } from './in-process-run.mjs';
import { planReplay, replay } from './replay.mjs';

const { startLocalTarget } = await import('../dist/src/targets/local.js');
const { startReceiver } = await import('../dist/src/receiver/receiver.js');

export const name = 'overhead';
export const goal = 'run within 1.3x of its sequential raw replay';

const RATIO_GOAL = 1.3;

export async function measure({ quick = false, runOptions = {} } = {}) {
  const rounds = quick ? 1 : 5;
  const runs = [];
  const replays = [];
  const waits = [];
  const deliveries = [];
  let last;
  // Round 0 is not counted: it compiles and warms both the run's code and the replay's, which the first of them would
  // otherwise pay for alone.
  for (let i = 0; i <= rounds; i++) {
    const run = await runInProcess(runOptions);
    if (run.result.exitCode !== 0)
      throw new Error(
        `the in-process run failed (${JSON.stringify(run.result.totals)}): its time would not be a run's`,
      );
    const fresh = await startLocalTarget();
    // A receiver for the replay's deliveries: the server's work for them (connections, TLS, signing) is part of the
    // run's time, so it is part of the replay's too. Nothing waits for them.
    const receiver = await startReceiver(fresh.target.webhook);
    try {
      const { plan, notes } = planReplay(run.sent, fresh.target, { from: run.receiverUrl, to: receiver.url });
      const r = await replay(plan, fresh.target);
      deliveries.push(receiver.arrivals.length);
      if (i === 0) continue;
      runs.push(run.runMs);
      replays.push(r.replayMs);
      waits.push(run.waitMs);
      last = { run, notes, statuses: r.statuses };
    } finally {
      await receiver.stop();
      await fresh.stop();
    }
  }
  const runMs = round(median(runs));
  const replayMs = round(median(replays));
  const webhookWaitMs = round(median(waits));
  const ratio = round(runMs / replayMs);
  return {
    figures: {
      rounds,
      runMs,
      replayMs,
      ratio,
      exchanges: last.run.sent.length,
      recordedInResult: recordedCount(last.run.result),
      webhookWaitMs,
      replayDeliveries: deliveries.at(-1),
      ratioWithoutWebhookWaits: round((runMs - webhookWaitMs) / replayMs),
      replayNotes: last.notes,
      replayStatuses: last.statuses,
      ...(Object.keys(runOptions).length ? { runOptions } : {}),
    },
    met: ratio <= RATIO_GOAL,
    notes: [
      `recorded exchanges are redacted (tokens, signatures, the client secret): the replay re-signs ${last.notes.resigned} requests with its own key and fresh created/expires, ` +
        `sends a token it obtained itself on ${last.notes.freshToken}, and rebuilds ${last.notes.rebuiltBody} token request bodies`,
      `the ${last.notes.brokenSignature} requests the run's server refused as unauthenticated are sent with a broken signature, so the server refuses them again; ` +
        `other deliberate faults of negative checks (a wrong digest, an unsigned header) are signed correctly, so a few statuses differ from the run's`,
      `the replay has a webhook receiver of its own (webhook URLs in ${last.notes.movedReceiverUrl} bodies moved to it), which got ${deliveries.at(-1)} deliveries; nothing waits for them`,
      `webhook checks waited ${webhookWaitMs} ms of the run for deliveries (overlapping waits counted once); the replay does not wait`,
    ],
  };
}
