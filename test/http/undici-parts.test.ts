// src/http/undici.ts loads undici's Agent, ProxyAgent and request call from their own modules, and the whole package
// only when those are not where undici 7.30 keeps them.
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadUndici, request, Agent } from '../../src/http/undici.js';

const realRequire = createRequire(import.meta.url);

describe("undici's parts", () => {
  it('come from their own modules, without the package index and its global dispatcher', () => {
    const asked: string[] = [];
    const parts = loadUndici(Object.assign((id: string) => (asked.push(id), realRequire(id)), realRequire));
    expect(asked).toEqual([
      'undici/lib/dispatcher/agent.js',
      'undici/lib/dispatcher/proxy-agent.js',
      'undici/lib/api/api-request.js',
    ]);
    expect(typeof parts.requestOn).toBe('function');
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
    expect(asked).toEqual(['undici/lib/dispatcher/agent.js', 'undici']);
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
