// Every JavaScript example of the README runs, as a reader would run it: each ```js block is written into the package
// (so `import … from '<package name>'` resolves to this build, as it does for a user who installed it) and executed with
// node in a folder where `npx conformance serve --config-out sandbox.json` is running, the set-up the README gives. A
// wrong example fails here, not in a partner's hands.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, waitForOutput } from '../helpers/cli.js';
import { WAIT_MS } from '../helpers/waits.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const PACKAGE = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string }).name;
/** Inside the package, so that self-reference resolves the package name to this build (package.json "exports"). */
const EXAMPLES_DIR = join(ROOT, 'test', 'artifacts', 'readme-examples');

/** The ```js blocks of the README, each with the heading it stands under. */
function examples(): Array<{ heading: string; code: string }> {
  const found: Array<{ heading: string; code: string }> = [];
  let heading = '';
  const lines = README.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('#')) heading = line.replace(/^#+\s*/, '');
    if (line.trim() !== '```js') continue;
    const start = i + 1;
    while (i + 1 < lines.length && lines[i + 1]!.trim() !== '```') i++;
    found.push({ heading, code: lines.slice(start, i + 1).join('\n') });
    i++;
  }
  return found;
}

function runNode(
  file: string,
  cwd: string,
  limitMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file], { cwd, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

let sandbox: ChildProcess;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'readme-examples-'));
  sandbox = spawn(process.execPath, [BIN, 'serve', '--config-out', 'sandbox.json'], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1' },
  });
  await waitForOutput(sandbox, /Press Ctrl-C to stop\./);
  mkdirSync(EXAMPLES_DIR, { recursive: true });
});

afterAll(async () => {
  const exited = new Promise((resolve) => sandbox.once('exit', resolve));
  sandbox.kill('SIGINT');
  await exited;
});

describe('README examples', () => {
  const all = examples();
  it('there are some, and they import the package by its name', () => {
    expect(all.length).toBeGreaterThan(0);
    for (const e of all) expect(e.code).toContain(`from '${PACKAGE}'`);
  });

  for (const [i, e] of all.entries()) {
    it(`runs example ${i + 1} (under "${e.heading}") against the sandbox, exit 0`, async () => {
      const file = join(EXAMPLES_DIR, `example-${i + 1}.mjs`);
      writeFileSync(file, `${e.code}\n`);
      const r = await runNode(file, dir, WAIT_MS);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    });
  }
});
