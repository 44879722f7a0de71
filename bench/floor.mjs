// 8. floor (issue 29): how far a run against a server across a network is from its dependency floor, the least time
// any scheduler could take given what must follow what. `conformance serve --latency 50` and `--latency 150` (every
// answer held that long), `conformance run --json` against each, and the floor computed from the run's own record.
//
// The floor, from a JSON report (`floorOf`, below) and the checks' declarations (`uses`, `alone`):
// - A link is one exchange: a request and the answer it waited for. A check's chain is the longest sequence of its
//   exchanges each starting after the one before it ended (two that overlap were sent side by side), counted in round
//   trips. Its time is the time its exchanges cover plus its waits that are no request: the time in the check covered
//   by none of its exchanges, when a stretch is at least LOCAL_GAP_MS = 50 ms (a delivery awaited, an absence window,
//   the shared USSD crawl, whose exchanges the report does not list). Shorter stretches are the client's own work
//   (signing, judging, the restore journal's writes): not in the floor. The report cannot tell a long stretch of the
//   client's own work (a machine under load) from a wait: it counts as a wait, and `floorWaitMs` shows how much of the
//   floor waits are.
// - Two stretches are the session's, not the check's: before the check's first request, and after an answer 401 to
//   the check, the session exchanges inside the stretch (the token probe the kit sends after a 401 to a request with
//   the run's token, other checks' probes and renewals) and the time before them are the session's turn; after a 401,
//   the last of them is the check's probe, one more link of its chain.
// - The run: the session's own exchanges before the first check starts (the token) open it and those after the last
//   check ends (teardowns, the revocation) close it. Checks the engine keeps apart cannot overlap: those declaring one
//   shared state (`uses`) take turns, an `alone` check runs with nothing beside it. So
//     floor = open + Σ alone chains + max(longest other chain, max over each shared state of Σ its checks' chains) + close
//   (the floor's round trips are those of the terms that give its time). Free checks overlap fully; the number of
//   slots (--concurrency) is not a dependency and is left out. The ratio is the wall time of `conformance run` (process
//   start to exit, what a user waits) over the floor; `runMs` is the report's own `run.durationMs`.
// - Two more bounds, of today's engine and not of the dependencies: `orderedFloorMs` (below) and `slotFloorMs`, the
//   chains' sum over the run's `concurrency` slots. BENCH_FLOOR_KEEP=<dir> keeps each run's JSON report there.
// - Simplifications: a check's chain is the check as written (a check that walks three lists one after another counts
//   three walks: issue 29 item 2 may change the checks, and the floor falls with them); the time of a link is as the
//   run measured it (at latency L, L plus the server's and the client's work on it). `orderedFloorMs` is the floor of
//   today's scheduler, whose turns over one state follow declaration order (over a state of the pack's
//   `suiteOrderStates`, within a suite only; over one of its `turnStates`, none), an `alone` check waiting for every
//   earlier one: the difference between it and the floor is the scheduler's, the rest of the gap to the wall the slots', the
//   session's turn and the client's own work.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, round, ROOT, spawnChecked } from './lib.mjs';

export const name = 'floor';
export const goal = 'against serve --latency 50, wall ≤ 1.3 × the dependency floor';

const RATIO_GOAL = 1.3;
const LATENCIES = [50, 150];
/** A stretch of a check covered by none of its exchanges shorter than this is the client's own work, not a wait. */
export const LOCAL_GAP_MS = 50;

/** An exchange as an interval in ms after the run started, with the status of its answer (undefined: none). */
function intervalOf(e, t0) {
  const s = Date.parse(e.startedAt) - t0;
  return { s, e: s + e.durationMs, status: e.response?.status, seq: e.seq };
}

/** The longest sequence of intervals each starting at or after the end of the one before. */
function longestSequence(intervals) {
  const sorted = [...intervals].sort((a, b) => a.s - b.s || a.e - b.e);
  const best = [];
  let most = 0;
  for (let i = 0; i < sorted.length; i++) {
    best[i] = 1;
    for (let j = 0; j < i; j++) if (sorted[j].e <= sorted[i].s && best[j] + 1 > best[i]) best[i] = best[j] + 1;
    most = Math.max(most, best[i]);
  }
  return most;
}

/** The time the union of intervals covers. */
function coveredMs(intervals) {
  const sorted = [...intervals].sort((a, b) => a.s - b.s);
  let total = 0;
  let from = -Infinity;
  let to = -Infinity;
  for (const x of sorted) {
    if (x.s > to) {
      if (to > from) total += to - from;
      from = x.s;
      to = x.e;
    } else to = Math.max(to, x.e);
  }
  return to > from ? total + (to - from) : total;
}

/**
 * One check's chain over [start, end]: its round trips, and its time (requests covered + waits), with the session's
 * turn and the client's own work set apart. `own` are its exchanges, `session` the run's session exchanges.
 */
function chainOf(start, end, own, session, localGapMs) {
  const links = own
    .filter((x) => x.e > start && x.s < end)
    .map((x) => ({ ...x, s: Math.max(x.s, start), e: Math.min(x.e, end) }));
  const sorted = [...links].sort((a, b) => a.s - b.s);
  const probes = [];
  let waitMs = 0;
  let turnMs = 0;
  let localMs = 0;
  const stretch = (from, to, kind) => {
    if (to <= from) return;
    let rest = to - from;
    if (kind === 'leading' || kind === 401) {
      // Before the first request, a session exchange that ended in the stretch kept the check waiting (the turn, the
      // token); after a 401, the probe is sent after the answer.
      const inside = session.filter((x) => x.e > from && x.e <= to && (kind === 'leading' || x.s >= from));
      if (inside.length > 0) {
        const last = inside.reduce((a, b) => (b.e > a.e ? b : a));
        if (kind === 401) {
          probes.push(last);
          turnMs += last.s - from;
        } else turnMs += last.e - from;
        rest = to - last.e;
      }
    }
    if (rest >= localGapMs) waitMs += rest;
    else localMs += rest;
  };
  let at = start;
  let after = 'leading';
  for (const x of sorted) {
    if (x.s > at) stretch(at, x.s, after);
    if (x.e >= at) {
      at = x.e;
      after = x.status === 401 ? 401 : 'answer';
    }
  }
  stretch(at, end, after);
  const all = [...links, ...probes];
  return {
    roundTrips: longestSequence(all),
    requestMs: coveredMs(all),
    waitMs,
    turnMs,
    localMs,
    ms: coveredMs(all) + waitMs,
    exchanges: links.length,
    probes: probes.length,
  };
}

const sum = (terms) =>
  terms.reduce((a, t) => ({ roundTrips: a.roundTrips + t.roundTrips, ms: a.ms + t.ms, waitMs: a.waitMs + t.waitMs }), {
    roundTrips: 0,
    ms: 0,
    waitMs: 0,
  });

/**
 * The dependency floor of a run (see the header): `report` a parsed JSON report (`conformance run --json`),
 * `declarations` a map from check id to `{ uses: string[], alone: boolean, turns?: string[], suiteOrder?: string[] }`
 * (the checks as the engine schedules them, `turns` and `suiteOrder` the states of `uses` it keeps no order over, or
 * keeps it within the check's suite only; a check not in it shares nothing).
 */
export function floorOf(report, declarations = new Map(), { localGapMs = LOCAL_GAP_MS } = {}) {
  const t0 = Date.parse(report.run.startedAt);
  const session = report.sessionExchanges.map((e) => intervalOf(e, t0));
  const timed = report.checks.filter((c) => typeof c.startMs === 'number');
  const firstStart = Math.min(...timed.map((c) => c.startMs));
  const lastEnd = Math.max(...timed.map((c) => c.startMs + c.durationMs));
  const chains = report.checks.map((c) => {
    const d = declarations.get(c.id) ?? {};
    const own = c.exchanges.map((e) => intervalOf(e, t0));
    const chain =
      typeof c.startMs === 'number'
        ? chainOf(c.startMs, c.startMs + c.durationMs, own, session, localGapMs)
        : { roundTrips: 0, requestMs: 0, waitMs: 0, turnMs: 0, localMs: 0, ms: 0, exchanges: 0, probes: 0 };
    return {
      id: c.id,
      suite: c.suite,
      uses: d.uses ?? [],
      alone: d.alone === true,
      turns: d.turns ?? [],
      suiteOrder: d.suiteOrder ?? [],
      durationMs: c.durationMs,
      ...chain,
    };
  });
  const sessionPart = (list) =>
    list.length === 0
      ? { roundTrips: 0, ms: 0, waitMs: 0, exchanges: 0 }
      : chainOf(Math.min(...list.map((x) => x.s)), Math.max(...list.map((x) => x.e)), list, [], localGapMs);
  const open = sessionPart(session.filter((x) => x.s < firstStart));
  const close = sessionPart(session.filter((x) => x.s >= lastEnd));
  const alone = chains.filter((c) => c.alone);
  const free = chains.filter((c) => !c.alone);
  const states = [...new Set(free.flatMap((c) => c.uses))];
  const resources = states
    .map((state) => {
      const checks = free.filter((c) => c.uses.includes(state));
      return { state, checks: checks.length, ...sum(checks) };
    })
    .sort((a, b) => b.ms - a.ms);
  const longest = free.reduce((a, b) => (b.ms > a.ms ? b : a), { id: '-', roundTrips: 0, ms: 0, waitMs: 0 });
  const middle =
    resources.length > 0 && resources[0].ms > longest.ms
      ? { by: `shared state ${resources[0].state}`, ...resources[0] }
      : { by: `check ${longest.id}`, roundTrips: longest.roundTrips, ms: longest.ms, waitMs: longest.waitMs };
  const floor = sum([open, ...alone, middle, close]);
  // Today's scheduler: a check waits for every earlier check it conflicts with (declaration order), slots unlimited.
  const follows = (c, p) =>
    p.uses.some(
      (u) => c.uses.includes(u) && !c.turns.includes(u) && (p.suite === c.suite || !c.suiteOrder.includes(u)),
    );
  const finish = [];
  for (let i = 0; i < chains.length; i++) {
    const c = chains[i];
    let ready = 0;
    for (let j = 0; j < i; j++) {
      const p = chains[j];
      if (c.alone || p.alone || follows(c, p)) ready = Math.max(ready, finish[j]);
    }
    finish[i] = ready + c.ms;
  }
  const orderedFloorMs = open.ms + Math.max(0, ...finish) + close.ms;
  const seqs = new Set(report.sessionExchanges.map((e) => e.seq));
  for (const c of report.checks) for (const e of c.exchanges) seqs.add(e.seq);
  const suites = [...new Set(timed.map((c) => c.suite))].map((suite) => {
    const of = timed.filter((c) => c.suite === suite);
    return {
      suite,
      startMs: Math.min(...of.map((c) => c.startMs)),
      endMs: Math.max(...of.map((c) => c.startMs + c.durationMs)),
      checks: of.length,
    };
  });
  return {
    runMs: report.run.durationMs,
    concurrency: report.run.concurrency,
    floorMs: floor.ms,
    floorRoundTrips: floor.roundTrips,
    floorWaitMs: floor.waitMs,
    bound: middle.by,
    open: { roundTrips: open.roundTrips, ms: open.ms },
    close: { roundTrips: close.roundTrips, ms: close.ms },
    alone: alone.map((c) => ({ id: c.id, roundTrips: c.roundTrips, ms: c.ms })),
    longest: { id: longest.id, roundTrips: longest.roundTrips, ms: longest.ms },
    resources,
    orderedFloorMs,
    workMs: chains.reduce((a, c) => a + c.ms, 0),
    // Today's engine runs `concurrency` checks at once, each holding its slot for at least its chain: the run takes at
    // least the chains' sum over the slots. Not a dependency (item 2 makes the slots adapt), so not in the floor.
    slotFloorMs: chains.reduce((a, c) => a + c.ms, 0) / (report.run.concurrency ?? 1),
    turnMs: chains.reduce((a, c) => a + c.turnMs, 0),
    chains: [...chains].sort((a, b) => b.ms - a.ms),
    suites,
    // Exchanges the run sent that the report does not list (seq numbers missing: the USSD crawl's, kept with the crawl).
    unrecorded: Math.max(0, ...seqs) - seqs.size,
  };
}

/**
 * The checks as the engine schedules them, from the compiled pack: id → `{ uses, alone, turns, suiteOrder }` under the
 * run's flags.
 */
export async function declarationsOf(flags = {}) {
  const { pack } = await import('../dist/suites/index.js');
  const runFlags = { long: false, allowMutations: false, ...flags };
  const among = (uses, states = []) => uses.filter((u) => states.includes(u));
  return new Map(
    pack.suites.flatMap((s) =>
      s.checks.map((c) => {
        const uses = [...(c.uses ?? [])];
        const alone = c.alone?.(runFlags) ?? false;
        return [
          c.id,
          { uses, alone, turns: among(uses, pack.turnStates), suiteOrder: among(uses, pack.suiteOrderStates) },
        ];
      }),
    ),
  );
}

/** `conformance serve --latency <ms>` in `dir`, until `stop()`; resolves once it listens and its config is written. */
function serve(dir, latencyMs) {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'bin/conformance.js'), 'serve', '--quiet', '--latency', String(latencyMs), '--config-out', 't.json'],
    { cwd: dir, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`serve --latency ${latencyMs} did not start within 30 s: ${out}`));
    }, 30_000);
    const read = (chunk) => {
      out += chunk.toString();
      if (out.includes('Press Ctrl-C to stop.')) {
        clearTimeout(timer);
        resolve({ stop });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`serve --latency ${latencyMs} exited before it listened: ${out}`));
    });
  });
}

/** One run against a fresh `serve --latency`: the process's wall time and the floor of its report. */
async function runAgainst(latencyMs, runArgs, declarations) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-floor-'));
  try {
    const server = await serve(dir, latencyMs);
    try {
      const r = await spawnChecked(
        [
          join(ROOT, 'bin/conformance.js'),
          'run',
          '--config',
          't.json',
          '--target',
          'sandbox',
          '--json',
          'r.json',
          ...runArgs,
        ],
        { cwd: dir, rss: false },
      );
      if (process.env.BENCH_FLOOR_KEEP)
        copyFileSync(join(dir, 'r.json'), join(process.env.BENCH_FLOOR_KEEP, `floor-${latencyMs}-${Date.now()}.json`));
      return { wallMs: r.wallMs, floor: floorOf(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')), declarations) };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

export async function measure({ quick = false, runArgs = [] } = {}) {
  const runs = quick ? 1 : 3;
  const declarations = await declarationsOf({
    long: runArgs.includes('--long'),
    allowMutations: runArgs.includes('--allow-mutations'),
  });
  const figures = { runs, ...(runArgs.length ? { runArgs: runArgs.join(' ') } : {}) };
  const notes = [];
  let met = true;
  for (const latencyMs of LATENCIES) {
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await runAgainst(latencyMs, runArgs, declarations));
    // The figures are medians; the chains and spans shown are those of the run with the median wall time.
    const typical = [...results].sort((a, b) => a.wallMs - b.wallMs)[Math.floor(results.length / 2)];
    const f = typical.floor;
    const ratio = median(results.map((r) => r.wallMs / r.floor.floorMs));
    const at = (key) => `${key}${latencyMs}`;
    Object.assign(figures, {
      [at('wallMs')]: round(median(results.map((r) => r.wallMs))),
      [at('runMs')]: round(median(results.map((r) => r.floor.runMs))),
      [at('floorMs')]: round(median(results.map((r) => r.floor.floorMs))),
      [at('floorRoundTrips')]: median(results.map((r) => r.floor.floorRoundTrips)),
      [at('floorWaitMs')]: round(median(results.map((r) => r.floor.floorWaitMs))),
      [at('ratio')]: round(ratio),
      [at('orderedFloorMs')]: round(median(results.map((r) => r.floor.orderedFloorMs))),
      [at('slotFloorMs')]: round(median(results.map((r) => r.floor.slotFloorMs))),
      [at('detail')]: {
        bound: f.bound,
        concurrency: f.concurrency,
        open: f.open,
        close: f.close,
        alone: f.alone.map((c) => ({ ...c, ms: round(c.ms) })),
        resources: f.resources.map((r) => ({ ...r, ms: round(r.ms), waitMs: round(r.waitMs) })),
        topChains: f.chains
          .slice(0, 10)
          .map((c) => ({ id: c.id, roundTrips: c.roundTrips, ms: round(c.ms), waitMs: round(c.waitMs) })),
        suites: f.suites.map((s) => ({ ...s, startMs: round(s.startMs), endMs: round(s.endMs) })),
        workMs: round(f.workMs),
        turnMs: round(f.turnMs),
        unrecorded: f.unrecorded,
      },
    });
    if (latencyMs === LATENCIES[0]) met = ratio <= RATIO_GOAL;
    notes.push(
      `latency ${latencyMs}: wall ${seconds(figures[at('wallMs')])} (run ${seconds(figures[at('runMs')])}), floor ${figures[at('floorRoundTrips')]} round trips ${seconds(figures[at('floorMs')])} (set by ${f.bound}; open ${f.open.roundTrips} / close ${f.close.roundTrips} round trips${f.alone.length ? `, alone ${f.alone.map((c) => c.id).join(', ')}` : ''}), ratio ${figures[at('ratio')]}; today's scheduler, slots unlimited: ${seconds(figures[at('orderedFloorMs')])}; the chains over ${f.concurrency} slots: ${seconds(figures[at('slotFloorMs')])}; checks waiting for the session's turn: ${seconds(f.turnMs)}`,
      `latency ${latencyMs}: shared states ${f.resources.map((r) => `${r.state} ${r.checks} checks ${r.roundTrips} round trips ${seconds(r.ms)}`).join('; ')}`,
      `latency ${latencyMs}: longest chains ${f.chains
        .slice(0, 5)
        .map(
          (c) =>
            `${c.id} ${c.roundTrips} round trips ${seconds(c.ms)}${c.waitMs > 0 ? ` (waits ${seconds(c.waitMs)})` : ''}`,
        )
        .join('; ')}`,
      `latency ${latencyMs}: suites ${f.suites.map((s) => `${s.suite} ${seconds(s.startMs)}–${seconds(s.endMs)}`).join(', ')}`,
    );
  }
  return { figures, met, notes };
}
