// 6. concurrency: whether a run's waits overlap. Against the reference server holding every answer back 20 ms (a
// server across a network), the default run one check at a time and four at once, in this process.
import { median, round } from './lib.mjs';
import { runInProcess } from './in-process-run.mjs';

export const name = 'concurrency';
export const goal = 'with 20 ms per answer, 4 checks at once at least 2x as fast as one at a time';

const LATENCY_MS = 20;
const SPEEDUP_GOAL = 2;

export async function measure({ quick = false } = {}) {
  const rounds = quick ? 1 : 3;
  const times = { 1: [], 4: [] };
  let requests = 0;
  for (let i = 0; i < rounds; i++) {
    for (const concurrency of [1, 4]) {
      const r = await runInProcess({ concurrency }, { latencyMs: LATENCY_MS });
      const failed = r.result.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'error').map((c) => c.id);
      if (failed.length > 0) throw new Error(`the run at concurrency ${concurrency} failed ${failed.join(', ')}`);
      times[concurrency].push(r.runMs);
      requests = r.sent.length;
    }
  }
  const one = median(times[1]);
  const four = median(times[4]);
  return {
    figures: {
      rounds,
      latencyMs: LATENCY_MS,
      requests,
      oneAtATimeMs: round(one),
      fourAtOnceMs: round(four),
      speedup: round(one / four),
      waitingSequentialMs: requests * LATENCY_MS,
    },
    met: one / four >= SPEEDUP_GOAL,
    notes: [
      `every answer of the reference server ${LATENCY_MS} ms late; ${requests} requests a run, so one at a time waits at least ${((requests * LATENCY_MS) / 1000).toFixed(1)} s`,
    ],
  };
}
