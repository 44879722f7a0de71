// The environment a client application under test is handed (src/client/client-env.ts).
import { describe, expect, it } from 'vitest';
import { clientEnv, type ClientEnvValues } from '../../src/client/client-env.js';

const values: ClientEnvValues = {
  scenario: 'read',
  baseUrl: 'http://127.0.0.1:1/v1',
  clientId: 'c',
  clientSecret: 's',
  keyId: 'k',
  privateKeyFile: '/k.pem',
  caFile: '/ca.pem',
  fixtures: { customerId: 'x' },
};

describe('a client application’s environment', () => {
  it('carries the scenario’s variables, and no receiver’s outside the webhooks scenario', () => {
    const env = clientEnv(values, { PATH: '/bin' });
    expect(env).toEqual({
      PATH: '/bin',
      CONFORMANCE_SCENARIO: 'read',
      CONFORMANCE_BASE_URL: 'http://127.0.0.1:1/v1',
      CONFORMANCE_CLIENT_ID: 'c',
      CONFORMANCE_CLIENT_SECRET: 's',
      CONFORMANCE_KEY_ID: 'k',
      CONFORMANCE_PRIVATE_KEY_FILE: '/k.pem',
      CONFORMANCE_CA_FILE: '/ca.pem',
      CONFORMANCE_FIXTURES: '{"customerId":"x"}',
    });
  });

  it('drops every harness variable the caller inherited, the proxy’s receiver port and URL among them', () => {
    // Left in a shell after trying `conformance proxy`: a `conformance client` scenario must not register that URL.
    const env = clientEnv(values, {
      CONFORMANCE_WEBHOOK_URL: 'https://127.0.0.1:9/leg',
      CONFORMANCE_RECEIVER_PORT: '9',
      CONFORMANCE_ACCEPTED_FILE: '/old',
      CONFORMANCE_SCENARIO: 'other',
      KEEP: '1',
    });
    expect(env).toEqual({ ...clientEnv(values, {}), KEEP: '1' });
  });

  it('lets a config’s env add variables, and the scenario’s win over it', () => {
    const env = clientEnv(values, {}, { EXTRA: 'yes', CONFORMANCE_SCENARIO: 'mine' });
    expect(env.EXTRA).toBe('yes');
    expect(env.CONFORMANCE_SCENARIO).toBe('read');
  });

  it('gives the webhooks scenario its receiver: files, and the port and URL behind a proxy', () => {
    const env = clientEnv({
      ...values,
      receiver: { certFile: '/r.pem', keyFile: '/rk.pem', port: 4443, webhookUrl: 'https://127.0.0.1:5/leg' },
    });
    expect(env).toMatchObject({
      CONFORMANCE_RECEIVER_CERT_FILE: '/r.pem',
      CONFORMANCE_RECEIVER_KEY_FILE: '/rk.pem',
      CONFORMANCE_RECEIVER_PORT: '4443',
      CONFORMANCE_WEBHOOK_URL: 'https://127.0.0.1:5/leg',
    });
    expect(env.CONFORMANCE_ACCEPTED_FILE).toBeUndefined();
  });
});
