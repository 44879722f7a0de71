// A config file for the CLI aimed at an embedded reference server (started by the test, in its process), the way a
// partner's config is aimed at a staging server: the client's key, the server's CA, the receiver certificate the
// server trusts, and the fields of the set-up under test (proxy, client certificate). For the field set-ups of issue 26.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { expect } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { receiverTls } from '../../src/receiver/certificate.js';
import type { LocalTarget } from '../../src/targets/local.js';

export interface NetworkConfig {
  dir: string;
  /** The config file: `--config FILE`. */
  file: string;
  /** Writes a file into the config's folder (a certificate, a key), for a relative path in a target. */
  put(name: string, text: string): string;
  remove(): void;
}

/**
 * A folder with `conformance.config.json` holding one target per entry of `targets`, each the local target's client
 * at `baseUrl` (default the server's own) with the extra fields given.
 */
export async function writeNetworkConfig(
  local: LocalTarget,
  targets: Record<string, { baseUrl?: string } & Record<string, unknown>>,
): Promise<NetworkConfig> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-network-'));
  const put = (name: string, text: string) => {
    writeFileSync(join(dir, name), text, { mode: 0o600 });
    return `./${name}`;
  };
  const t = local.target;
  put('client-ed25519.pem', t.privateKeyPem);
  if (t.ca !== undefined) put('server-ca.pem', t.ca);
  // The receiver of the CLI's run presents the certificate the embedded server trusts (this process's own).
  const receiver = (await receiverTls(t.webhook))!;
  put('receiver-cert.pem', receiver.cert);
  put('receiver-key.pem', receiver.key);
  const config = {
    targets: Object.fromEntries(
      Object.entries(targets).map(([name, extra]) => [
        name,
        {
          baseUrl: t.baseUrl,
          clientId: t.clientId,
          clientSecret: t.clientSecret,
          keyId: t.keyId,
          privateKeyFile: './client-ed25519.pem',
          ...(t.ca !== undefined ? { caFile: './server-ca.pem' } : {}),
          fixtures: t.fixtures,
          webhook: { listen: '127.0.0.1:0', tls: { certFile: './receiver-cert.pem', keyFile: './receiver-key.pem' } },
          ...extra,
        },
      ]),
    ),
  };
  const file = join(dir, 'conformance.config.json');
  writeFileSync(file, JSON.stringify(config, null, 2), { mode: 0o600 });
  return { dir, file, put, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The environment of a CLI run with no proxy variable of this machine's: each test sets the ones it means. */
export const NO_PROXY_ENV = {
  HTTPS_PROXY: undefined,
  https_proxy: undefined,
  HTTP_PROXY: undefined,
  http_proxy: undefined,
  NO_PROXY: undefined,
  no_proxy: undefined,
} as const;

/**
 * A whole run that passed, from the CLI's output: 0 failed, 0 warned, and the verdict CONFORMANT but for the token's
 * 60-minute expiry, which only --long waits for (every requirement not exercised is that check's).
 */
export function expectPassedWhole(stdout: string): void {
  expect(stdout).toMatch(/^\d+ passed, 0 failed, 0 warned, \d+ skipped$/m);
  const verdict = /^(CONFORMANT|INCOMPLETE|NOT CONFORMANT)\b.*$/m.exec(stdout)?.[0] ?? '';
  if (verdict.startsWith('CONFORMANT')) return;
  expect(verdict).toMatch(/^INCOMPLETE: \d+ MUST requirements not exercised \(of \d+\), none failed/);
  // The lines under the verdict: one per cause by default (\`    5 MUST requirements: <check> skipped: …\`), one per
  // requirement with --verbose (\`    REQ-… "…" — <check> skipped: …\`).
  const causes = stdout.split('\n').filter((l) => /^ {4}(REQ-|\d+ MUST requirements?:)/.test(l));
  expect(causes.length).toBeGreaterThan(0);
  for (const line of causes) expect(line).toMatch(/auth\.expiry\.after-60-minutes skipped: runs only with --long/);
}
