// Runs the compiled CLI the way a user does (`npm test` builds it first), with a hard limit so a hang fails the test.
import { execFile, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { RUN_LIMIT_MS, WAIT_MS } from './waits.js';

export const BIN = fileURLToPath(new URL('../../bin/conformance.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export function runCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string | undefined>; limitMs?: number } = {},
): Promise<CliResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      {
        cwd: options.cwd,
        env: { ...process.env, NO_COLOR: '1', ...options.env },
        timeout: options.limitMs ?? RUN_LIMIT_MS,
        maxBuffer: 32 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr, ms: Date.now() - started });
      },
    );
  });
}

/** Resolves with stdout once `pattern` appears in it; rejects when the process exits first or the deadline passes. */
export function waitForOutput(child: ChildProcess, pattern: RegExp, deadlineMs = WAIT_MS): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} within ${deadlineMs} ms; got: ${out}`)), deadlineMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (pattern.test(out)) {
        clearTimeout(timer);
        resolve(out);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ${pattern}; got: ${out}`));
    });
  });
}
