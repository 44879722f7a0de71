// `conformance run | head -1`: the reader closes the pipe after its first line. The run must end as it would have
// (its reports written, its exit code), with nothing on stderr: no "internal error: write EPIPE".
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { WAIT_MS } from '../helpers/waits.js';

describe('a reader that closes stdout early', () => {
  it('leaves the run to finish quietly: the JSON report is written and the exit code is the run’s', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-pipe-'));
    const json = join(dir, 'r.json');
    try {
      const child = spawn(process.execPath, [BIN, 'run', '--suite', 'auth', '--json', json], {
        env: { ...process.env, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      // Like `head -1`: read the first chunk, then close the pipe.
      child.stdout.once('data', () => child.stdout.destroy());
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
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(existsSync(json)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a closed stderr does not turn a SIGTERM into a crash: the run stops with 143, its report written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-pipe-'));
    const json = join(dir, 'r.json');
    try {
      const child = spawn(process.execPath, [BIN, 'run', '--suite', 'auth', '--json', json], {
        env: { ...process.env, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      // Like a harness that gave up waiting: stderr closed, then SIGTERM; the run's "stopping" line meets EPIPE.
      child.stderr.destroy();
      child.stdout.once('data', () => child.kill('SIGTERM'));
      child.stdout.resume();
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
      expect(code).toBe(143);
      expect(existsSync(json)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
