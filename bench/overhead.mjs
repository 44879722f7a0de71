// 2. overhead: a default run in this process against the local target, then its exchanges replayed raw and in order
// against a fresh local target (bench/replay.mjs). The ratio is what the suite costs beyond the requests it sends.
import { median, round } from './lib.mjs';
import { recordedCount, runInProcess } from './in-process-run.mjs';
import { planReplay, replay } from './replay.mjs';

const { startLocalTarget } = await import('../dist/src/targets/local.js');

export const name = 'overhead';
export const goal = 'run within 1.3x of its sequential raw replay';

const RATIO_GOAL = 1.3;

export async function measure({ quick = false, runOptions = {} } = {}) {
  const rounds = quick ? 1 : 3;
  const runs = [];
  const replays = [];
  const waits = [];
  let last;
  // Round 0 is not counted: it compiles and warms both the run's code and the replay's, which the first of them would
  // otherwise pay for alone.
  for (let i = 0; i <= rounds; i++) {
    const run = await runInProcess(runOptions);
    if (run.result.exitCode !== 0) throw new Error(`the in-process run failed (${JSON.stringify(run.result.totals)}): its time would not be a run's`);
    const fresh = await startLocalTarget();
    try {
      const { plan, notes } = planReplay(run.sent, fresh.target);
      const r = await replay(plan, fresh.target);
      if (i === 0) continue;
      runs.push(run.runMs);
      replays.push(r.replayMs);
      waits.push(run.waitMs);
      last = { run, notes, statuses: r.statuses };
    } finally {
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
      ratioWithoutWebhookWaits: round((runMs - webhookWaitMs) / replayMs),
      replayNotes: last.notes,
      replayStatuses: last.statuses,
      ...(Object.keys(runOptions).length ? { runOptions } : {}),
    },
    met: ratio <= RATIO_GOAL,
    notes: [
      `recorded exchanges are redacted (tokens, signatures, the client secret): the replay re-signs ${last.notes.resigned} requests with its own key and fresh created/expires, ` +
        `sends a token it obtained itself on ${last.notes.freshToken}, and rebuilds ${last.notes.rebuiltBody} token request bodies`,
      `negative checks' deliberate faults (bad signatures, wrong digests) are signed correctly in the replay, so its statuses differ from the run's`,
      `webhook checks waited ${webhookWaitMs} ms of the run for deliveries (overlapping waits counted once); the replay does not wait`,
    ],
  };
}
