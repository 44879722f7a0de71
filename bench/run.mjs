// `npm run bench`: the five measurements of issue 10, whether a run's waits overlap, the sizes of a run's report files
// (issue 27) and how far a run against a server across a network is from its dependency floor (issue 29), one JSON
// line each as it finishes, then a table.
// Usage: node bench/run.mjs [--only name[,name]] [--quick] [--run-args "--concurrency 4"] [--run-options '{"concurrency":4}']
//   --only         run only these measurements (full-run, overhead, startup, scale, signing, concurrency, report-sizes,
//                  floor)
//   --quick        fewer repetitions and smaller timing windows: a smoke test of the benchmarks, not figures to record
//   --run-args     extra arguments for `conformance run` in full-run, report-sizes and floor
//   --run-options  extra runChecks options (JSON) for the in-process runs of overhead and signing
import { execSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { printTable, round, splitArgs } from './lib.mjs';

const MEASUREMENTS = ['full-run', 'overhead', 'startup', 'scale', 'signing', 'concurrency', 'report-sizes', 'floor'];

function option(name) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

const only =
  option('only')
    ?.split(',')
    .map((s) => s.trim()) ?? MEASUREMENTS;
const unknown = only.filter((n) => !MEASUREMENTS.includes(n));
if (unknown.length > 0) {
  console.error(`bench: unknown measurement ${unknown.join(', ')}; known: ${MEASUREMENTS.join(', ')}`);
  process.exit(2);
}
const context = {
  quick: process.argv.includes('--quick'),
  runArgs: splitArgs(option('run-args')),
  runOptions: JSON.parse(option('run-options') ?? '{}'),
};

let commit = 'unknown';
try {
  commit = execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
    .toString()
    .trim();
  if (
    execSync('git status --porcelain -- src suites bin bench', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim() !== ''
  )
    commit += '+dirty';
} catch {
  // Not a git checkout: the commit stays 'unknown'.
}
const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  ramGb: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  os: `${process.platform} ${process.arch}`,
};

const lines = [];
let failed = false;
for (const name of MEASUREMENTS.filter((n) => only.includes(n))) {
  const m = await import(`./${name}.mjs`);
  let line;
  try {
    const r = await m.measure(context);
    // The load average says whether something else was running: on a shared 2-core machine it moves every figure.
    line = {
      measurement: name,
      figures: r.figures,
      goal: m.goal,
      met: r.met,
      ...(r.notes ? { notes: r.notes } : {}),
      quick: context.quick,
      commit,
      machine,
      load1: round(loadavg()[0]),
    };
  } catch (e) {
    failed = true;
    line = {
      measurement: name,
      figures: {},
      goal: m.goal,
      met: false,
      error: e instanceof Error ? e.message : String(e),
      commit,
      machine,
      load1: round(loadavg()[0]),
    };
  }
  lines.push(line);
  console.log(JSON.stringify(line));
}
console.log('');
console.log(
  `${machine.cpu}, ${machine.cores} cores, ${machine.ramGb} GiB, Node ${machine.node}, ${machine.os}, commit ${commit}${context.quick ? ' (--quick)' : ''}, load average at the end ${loadavg()
    .map((l) => round(l))
    .join(' ')}`,
);
printTable(lines);
for (const l of lines) for (const n of l.notes ?? []) console.log(`${l.measurement}: ${n}`);
for (const l of lines) if (l.error) console.log(`${l.measurement}: ERROR ${l.error}`);
// A goal not met is a figure to record, not a failure of the command; a measurement that broke is.
process.exitCode = failed ? 1 : 0;
