// `conformance run | head -1`: the reader closes the pipe after its first line. The run must end as it would have
// (its reports written, its exit code), with nothing on stderr: no "internal error: write EPIPE". The same for a closed
// stderr: a harness that killed the run after closing its pipes must get the run's 143, not a silent exit 4.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { WAIT_MS } from '../helpers/waits.js';

/**
 * `run --suite auth --json <dir>/r.json` with both output pipes, `handle` given the child as it starts: its exit code,
 * whether the JSON report was written, and what it said on stderr while the pipe was open.
 */
async function pipedRun(handle: (child: ChildProcessByStdio<null, Readable, Readable>) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-pipe-'));
  const json = join(dir, 'r.json');
  try {
    const child = spawn(process.execPath, [BIN, 'run', '--suite', 'auth', '--json', json], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    handle(child);
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the run did not end within ${WAIT_MS} ms`));
      }, WAIT_MS);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    return { code, stderr, reported: existsSync(json) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a reader that closes a pipe early', () => {
  it('stdout: leaves the run to finish quietly: the JSON report is written and the exit code is the run’s', async () => {
    // Like `head -1`: read the first chunk, then close the pipe.
    const run = await pipedRun((child) => child.stdout.once('data', () => child.stdout.destroy()));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.reported).toBe(true);
  });

  it('stderr: a closed stderr does not turn a SIGTERM into a crash: the run stops with 143, its report written', async () => {
    // Like a harness that gave up waiting: stderr closed, then SIGTERM; the run's "stopping" line meets EPIPE.
    const run = await pipedRun((child) => {
      child.stderr.destroy();
      child.stdout.once('data', () => child.kill('SIGTERM'));
      child.stdout.resume();
    });
    expect(run.code).toBe(143);
    expect(run.reported).toBe(true);
  });
});
