// src/http/undici.ts loads undici's Agent, ProxyAgent and the dispatchers' API from their own modules, and the whole
// package only when those are not where undici 7.30 keeps them.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadUndici, request, Agent } from '../../src/http/undici.js';

const realRequire = createRequire(import.meta.url);
const COMPILED = fileURLToPath(new URL('../../dist/src/http/undici.js', import.meta.url));

describe("undici's parts", () => {
  // In a process of its own: this one may have loaded undici's index already, which would hide a part left out.
  it('come from their own modules: no package index, and the API ProxyAgent needs is on every dispatcher', () => {
    const program = `
      import { createRequire } from 'node:module';
      const { Agent, ProxyAgent } = await import(${JSON.stringify(COMPILED)});
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      const agent = new Agent();
      console.log(JSON.stringify({
        index: loaded.some((f) => /undici[\\\\/]index\\.js$/.test(f)),
        fetch: loaded.some((f) => /undici[\\\\/]lib[\\\\/]web[\\\\/]/.test(f)),
        request: typeof agent.request,
        connect: typeof agent.connect,
        proxy: typeof ProxyAgent,
        global: globalThis[Symbol.for('undici.globalDispatcher.1')] !== undefined,
      }));
      await agent.close();`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', program], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({
      index: false,
      fetch: false,
      request: 'function',
      connect: 'function',
      proxy: 'function',
      global: false,
    });
  });

  it('come from the package index when a later undici keeps them elsewhere', () => {
    const asked: string[] = [];
    const lacking = (id: string) => {
      asked.push(id);
      if (id.startsWith('undici/lib/'))
        throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
      return realRequire(id);
    };
    const parts = loadUndici(Object.assign(lacking, realRequire));
    expect(asked).toEqual(['undici/lib/dispatcher/dispatcher.js', 'undici']);
    expect(parts.Agent).toBe(realRequire('undici').Agent);
  });

  it('send a request through our own dispatcher, path and query as given', async () => {
    const server = createServer((req, res) => res.end(`${req.method} ${req.url}`)).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const dispatcher = new Agent();
    try {
      const { port } = server.address() as AddressInfo;
      const res = await request(`http://127.0.0.1:${port}/v1/accounts?customerId=7`, { method: 'PUT', dispatcher });
      expect(res.statusCode).toBe(200);
      expect(await res.body.text()).toBe('PUT /v1/accounts?customerId=7');
    } finally {
      await dispatcher.close();
      server.close();
    }
  });
});
