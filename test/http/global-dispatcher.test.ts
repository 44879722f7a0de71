// Importing this package leaves the process's own fetch as it was: undici 7's package index makes undici the global
// dispatcher when it loads, and Node 20's fetch then fails a request with a Content-Length header ("invalid
// content-length header"). src/http/undici.ts loads only the undici modules it uses, which install nothing; a program
// that imports us and uses fetch (the README's signing example does) must work.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WAIT_MS } from '../helpers/waits.js';

const INDEX = fileURLToPath(new URL('../../dist/src/index.js', import.meta.url));

const PROGRAM = `
import { createServer } from 'node:http';
await import(${JSON.stringify(INDEX)});
const server = createServer((req, res) => { let n = 0; req.on('data', (d) => (n += d.length)); req.on('end', () => res.end(String(n))); }).listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const res = await fetch('http://127.0.0.1:' + server.address().port + '/', { method: 'POST', body: 'abc', headers: { 'content-length': '3' } });
console.log(res.status, await res.text());
server.close();
`;

describe('the package and the process fetch', () => {
  it("leaves Node's fetch working after the package is imported (a POST with Content-Length)", async () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', PROGRAM]);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), WAIT_MS);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(err).toBe('');
    expect(out.trim()).toBe('200 3');
    expect(code).toBe(0);
  });
});
