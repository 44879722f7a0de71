// The library API as a script author uses it: the compiled package entry (`npm test` builds it first).
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, generateKeyPairSync, createPublicKey } from 'node:crypto';
import * as api from '../../dist/src/index.js';

describe('library API', () => {
  it('exports loadConfig, run, signRequest, verifySignature and contentDigest', () => {
    for (const name of ['loadConfig', 'run', 'signRequest', 'verifySignature', 'contentDigest'])
      expect(typeof (api as Record<string, unknown>)[name], name).toBe('function');
  });

  it('signs with signRequest, verifies with verifySignature, and digests with contentDigest', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const seed = Buffer.from(privateKey.export({ format: 'jwk' }).d as string, 'base64url');
    const body = '{"hello": "world"}';
    const message = {
      method: 'POST',
      url: 'https://example.com/v1/webhooks',
      headers: [
        ['Content-Digest', api.contentDigest(body)],
        ['X-Client-Id', 'acme'],
      ] as Array<[string, string]>,
    };
    expect(api.contentDigest(body)).toBe(
      'sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:',
    );
    const signed = api.signRequest(message, { keyId: 'acme-key', privateKey: seed });
    const verdict = api.verifySignature(
      { ...message, signatureInput: signed.signatureInput, signature: signed.signature },
      { key: createPublicKey(privateKey) },
    );
    expect(verdict).toMatchObject({
      ok: true,
      keyId: 'acme-key',
      components: ['@method', '@target-uri', '@path', 'content-digest', 'x-client-id'],
    });
  });

  it('loads a config and runs a selection against the embedded reference server, returning the results', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-api-'));
    const { privateKey } = generateKeyPairSync('ed25519');
    writeFileSync(join(dir, 'k.pem'), privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
    writeFileSync(
      join(dir, 'c.json'),
      JSON.stringify({
        targets: {
          s: {
            baseUrl: 'https://s.example/v1/',
            clientId: 'c',
            clientSecret: '${S}',
            keyId: 'k',
            privateKeyFile: 'k.pem',
          },
        },
      }),
    );
    const config = await api.loadConfig({ configPath: join(dir, 'c.json'), env: { S: 'secret' } });
    expect(config.targets.s).toMatchObject({ baseUrl: 'https://s.example/v1', clientSecret: 'secret', keyId: 'k' });

    const result = await api.run({ suites: ['resources'] });
    expect(result.run.target).toBe('local');
    expect(result.checks.map((c) => c.id)).toEqual(
      expect.arrayContaining(['resources.customers.get', 'resources.customers.no-token']),
    );
    expect(result.checks.every((c) => c.suite === 'resources')).toBe(true);
    expect(result.checks.filter((c) => c.failsRun || c.outcome === 'error')).toEqual([]);
    expect(result.totals).toMatchObject({ failed: 0, errored: 0, total: result.checks.length });
    expect(result.exitCode).toBe(0);
  });

  it("records in the result what changed what was tested: the options, the files with their SHA-256, the catalog's digest", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-api-'));
    const known = JSON.stringify({
      expectedFailures: [{ id: 'auth.token.type-bearer', reason: 'fix in 4.2', expires: '2099-01-01' }],
    });
    writeFileSync(join(dir, 'known.json'), known);
    const result = await api.run({
      cwd: dir,
      suites: ['auth'],
      grep: 'token',
      expectedFailures: 'known.json',
      long: false,
      requestTimeoutMs: 7000,
      budgetMs: 120_000,
      ussdMaxDepth: 3,
      local: { variant: 'strict', faults: ['auth.token-type-lowercase'] },
    });
    const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
    expect(result.run.options).toEqual({
      long: false,
      allowMutations: false,
      requestTimeoutMs: 7000,
      maxBodyBytes: 4 * 1024 * 1024,
      budgetMs: 120_000,
      suites: ['auth'],
      expectedFailures: { file: 'known.json', sha256: sha(known), entries: 1 },
      ussd: { maxDepth: 3 },
      local: { variant: 'strict', choices: {}, faults: ['auth.token-type-lowercase'] },
    });
    expect(result.run.selection.grep).toBe('token');
    expect(result.run.catalogSha256).toBe(sha(readFileSync(new URL('../../spec/requirements.json', import.meta.url))));
    expect(result.verdict.outOfReachRequirements?.map((r) => r.id)).toContain('REQ-SVC-10');
  });
});
