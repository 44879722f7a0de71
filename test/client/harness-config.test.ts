// `conformance client --config FILE`: what it takes, and one line naming the field for what it refuses.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadClientConfig } from '../../src/client/config.js';
import { parseScenarioList } from '../../src/client/scenarios.js';

const dir = mkdtempSync(join(tmpdir(), 'client-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

describe('client --config', () => {
  it('takes time limits, a CA file relative to the config, and environment', async () => {
    file('ca.pem', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    const path = file(
      'ok.json',
      JSON.stringify({ timeLimitSeconds: { read: 30 }, webhookCa: 'ca.pem', env: { A: '1' } }),
    );
    await expect(loadClientConfig(path)).resolves.toEqual({
      timeLimitSeconds: { read: 30 },
      webhookCa: expect.stringContaining('BEGIN CERTIFICATE'),
      env: { A: '1' },
    });
  });

  it.each([
    ['{"timeLimitSeconds": {"nope": 3}}', /unknown scenario "nope".*token, read/, 'CONFORMANCE_ERR_CONFIG'],
    ['{"timeLimitSeconds": {"read": -1}}', /timeLimitSeconds\.read must be/, 'CONFORMANCE_ERR_CONFIG'],
    ['{"extra": 1}', /unknown field "extra"/, 'CONFORMANCE_ERR_CONFIG'],
    ['{"env": {"CONFORMANCE_SCENARIO": "x"}}', /set by the harness/, 'CONFORMANCE_ERR_CONFIG'],
    ['{"webhookCa": "missing.pem"}', /cannot read .*missing\.pem/, 'CONFORMANCE_ERR_CONFIG_FILE'],
    ['not json', /is not JSON/, 'CONFORMANCE_ERR_CONFIG'],
  ])('refuses %s in one line', async (text, message, code) => {
    const error = await loadClientConfig(file('bad.json', text)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code, message: expect.stringMatching(message) });
    expect((error as Error).message).not.toContain('\n');
  });

  it('a missing file is CONFIG_NOT_FOUND; --scenario keeps the table order and names the scenarios for an unknown one', async () => {
    await expect(loadClientConfig(join(dir, 'none.json'))).rejects.toMatchObject({
      code: 'CONFORMANCE_ERR_CONFIG_NOT_FOUND',
    });
    expect(parseScenarioList('webhooks, token')).toEqual(['token', 'webhooks']);
    expect(() => parseScenarioList('token,bogus')).toThrow(/unknown scenario "bogus"; the scenarios are token, read/);
  });
});
