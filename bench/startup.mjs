// 3. startup: `conformance --version` against `node -e 0`, the floor any Node CLI starts from. Runs alternate, so a
// machine that slows down during the measurement slows both alike.
import { median, round, spawnChecked } from './lib.mjs';

export const name = 'startup';
export const goal = 'conformance --version within 1.3x of node -e 0 (issue 29)';

const RATIO_GOAL = 1.3;

export async function measure({ quick = false } = {}) {
  const runs = quick ? 5 : 11;
  const cli = [];
  const bare = [];
  for (let i = 0; i < runs; i++) {
    cli.push((await spawnChecked(['bin/conformance.js', '--version'], { rss: false })).wallMs);
    bare.push((await spawnChecked(['-e', '0'], { rss: false })).wallMs);
  }
  const versionMs = round(median(cli));
  const nodeMs = round(median(bare));
  const ratio = round(versionMs / nodeMs);
  return { figures: { runs, versionMs, nodeMs, ratio }, met: ratio <= RATIO_GOAL };
}
