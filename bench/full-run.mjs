// 1. full-run: `conformance run` against the embedded reference server, as a user starts it, from process start to
// exit: median wall time over several runs, and the largest peak RSS any of them reached.
import { kibToMb, median, round, spawnChecked } from './lib.mjs';

export const name = 'full-run';
export const goal = 'wall < 3 s, peak RSS < 150 MB';

const WALL_GOAL_MS = 3000;
const RSS_GOAL_MB = 150;

export async function measure({ quick = false, runArgs = [] } = {}) {
  const runs = quick ? 2 : 5;
  const walls = [];
  const rss = [];
  for (let i = 0; i < runs; i++) {
    const r = await spawnChecked(['bin/conformance.js', 'run', ...runArgs]);
    walls.push(r.wallMs);
    rss.push(kibToMb(r.peakRssKiB));
  }
  const wallMs = round(median(walls));
  const peakRssMb = Math.max(...rss);
  return {
    figures: {
      runs,
      wallMs,
      minWallMs: round(Math.min(...walls)),
      peakRssMb,
      medianRssMb: round(median(rss)),
      ...(runArgs.length ? { runArgs: runArgs.join(' ') } : {}),
    },
    met: wallMs < WALL_GOAL_MS && peakRssMb < RSS_GOAL_MB,
  };
}
