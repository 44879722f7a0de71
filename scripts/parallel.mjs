// Runs shell commands at once and fails if any fails: `npm test`'s static checks (eslint, knip, prettier, tsc of the
// tests) are each single-threaded and independent, so on a 2-core machine one after the other leaves a core idle for
// their ~38 s of CPU. Each command's output is held and printed whole when it ends, so outputs never interleave.
import { spawn } from 'node:child_process';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error('usage: node scripts/parallel.mjs "<command>" ["<command>" …]');
  process.exit(2);
}

function run(command) {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('close', (code, signal) => {
      const output = Buffer.concat(chunks).toString();
      const status = code === 0 ? 'ok' : `failed (${signal ?? `exit ${code}`})`;
      process.stdout.write(`> ${command}: ${status}\n${output}${output && !output.endsWith('\n') ? '\n' : ''}`);
      resolve(code === 0);
    });
  });
}

const passed = await Promise.all(commands.map(run));
process.exit(passed.every(Boolean) ? 0 : 1);
