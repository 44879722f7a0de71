// What every measurement of `npm run bench` shares: statistics, a child process timed from the outside with its peak
// memory read from the inside, and the figures as one JSON line and as a table row.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PEAK_RSS = new URL('./peak-rss.mjs', import.meta.url).href;

export function median(values) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Rounded for a figure a person reads: 3 significant digits is finer than these measurements' own noise. */
export function round(value, digits = 3) {
  if (!Number.isFinite(value) || value === 0) return value;
  const scale = 10 ** Math.max(0, digits - 1 - Math.floor(Math.log10(Math.abs(value))));
  return Math.round(value * scale) / scale;
}

export function kibToMb(kib) {
  return round((kib * 1024) / 1e6);
}

/**
 * Runs `node <args>` with a preload that writes the process's peak RSS (KiB) to a file at exit: a figure of that
 * child alone, where /usr/bin/time may be missing and the parent's own figure would mix in the harness. `rss: false`
 * leaves the preload out, for a start-up time that must not include loading it.
 */
export function spawnMeasured(args, { env = {}, cwd = ROOT, rss = true } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-rss-'));
  const rssFile = join(dir, 'maxrss');
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, rss ? ['--import', PEAK_RSS, ...args] : args, {
      cwd,
      env: { ...process.env, ...env, BENCH_PEAK_RSS_FILE: rssFile, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = [];
    const err = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      let peakRssKiB = NaN;
      try {
        peakRssKiB = Number(readFileSync(rssFile, 'utf8'));
      } catch {
        // No figure written (the child died first): the peak stays NaN.
      }
      rmSync(dir, { recursive: true, force: true });
      resolve({
        code,
        wallMs,
        peakRssKiB,
        stdout: Buffer.concat(out).toString(),
        stderr: Buffer.concat(err).toString(),
      });
    });
  });
}

/** Runs `node <args>` and fails loudly when it does not exit 0: a broken run must not pass for a fast one. */
export async function spawnChecked(args, options) {
  const r = await spawnMeasured(args, options);
  if (r.code !== 0)
    throw new Error(
      `node ${args.join(' ')} exited ${r.code}: ${(r.stderr || r.stdout).trim().split('\n').slice(-5).join(' | ')}`,
    );
  return r;
}

/** Splits a shell-like argument string on white space, honouring single and double quotes. */
export function splitArgs(text) {
  const args = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  let m;
  while ((m = re.exec(text ?? '')) !== null) args.push(m[1] ?? m[2] ?? m[3]);
  return args;
}

/** Repeats `work` for at least `ms` (and `minOps` times): operations per second and microseconds per operation. */
export function rate(work, { ms = 1000, minOps = 100 } = {}) {
  for (let i = 0; i < Math.min(200, minOps); i++) work(i);
  let ops = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < ms || ops < minOps) {
    for (let i = 0; i < 50; i++) work(ops++);
    elapsed = performance.now() - started;
  }
  return { opsPerSecond: round((ops * 1000) / elapsed), usPerOp: round((elapsed * 1000) / ops) };
}

/** One table of measurement lines: what a person reads after the JSON lines. */
export function printTable(lines, write = (s) => process.stdout.write(s)) {
  const rows = [
    ['measurement', 'figures', 'goal', 'met'],
    ...lines.map((l) => [l.measurement, summary(l.figures), l.goal, l.met === null ? '-' : l.met ? 'yes' : 'NO']),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |\n`;
  write(line(rows[0]));
  write(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n`);
  for (const r of rows.slice(1)) write(line(r));
}

function summary(figures) {
  return Object.entries(figures)
    .filter(([, v]) => typeof v !== 'object')
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}
