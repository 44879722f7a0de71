// The reference server the way the field set-ups of issue 26 put it behind nginx (test/field/server-*.test.ts): started
// once per file with one client per set-up (a run leaves its webhook behind, and each set-up is a first run of its
// client), its webhook deliveries trusting the receiver a run of this process starts; and a certificate authority with
// a certificate for 127.0.0.1 that nginx presents where it terminates TLS, which the target trusts through its `ca`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { run } from '../../src/api.js';
import { pack } from '../../suites/index.js';
import { runChecks, type RunResult } from '../../src/engine/index.js';
import { generateEd25519 } from '../../src/http/keys.js';
import { startReferenceServer, type ReferenceOptions, type ReferenceServer } from '../../src/reference/server.js';
import { defaultFixtures } from '../../src/reference/store.js';
import { receiverTls } from '../../src/receiver/certificate.js';
import type { ResolvedTarget, WebhookConfig } from '../../src/config/types.js';

/** The receiver of every run here: the local target's, a self-signed certificate the server is given to trust. */
const WEBHOOK: WebhookConfig = { listen: '127.0.0.1:0', tls: 'self-signed' };

export interface ProxiedServer {
  server: ReferenceServer;
  /** The target of set-up `name` reached at `baseUrl` (nginx's address), trusting `ca` when given. */
  target(name: string, baseUrl: string, ca?: string): ResolvedTarget;
}

/** The reference server with a client per set-up name; `options` adds choices, trustForwarded… */
export async function startProxiedServer(
  setups: readonly string[],
  options: Partial<Omit<ReferenceOptions, 'clients'>> = {},
): Promise<ProxiedServer> {
  const keys = new Map<string, ReturnType<typeof generateEd25519>>(setups.map((s) => [s, generateEd25519()]));
  const receiverCa = (await receiverTls(WEBHOOK))!.cert;
  const server = await startReferenceServer({
    ...options,
    clients: setups.map((s) => ({
      clientId: `field-${s}`,
      clientSecret: `field-secret-${s}`,
      keyId: `field-key-${s}`,
      publicKey: keys.get(s)!.publicKey,
      name: `Field set-up ${s}`,
    })),
    webhookCa: receiverCa,
  });
  return {
    server,
    target: (name, baseUrl, ca) => {
      const key = keys.get(name);
      if (key === undefined) throw new Error(`no client for set-up ${name}`);
      return {
        name: `field-${name}`,
        baseUrl,
        clientId: `field-${name}`,
        clientSecret: `field-secret-${name}`,
        keyId: `field-key-${name}`,
        privateKeyPem: key.privateKeyPem,
        privateKey: key.seed,
        fixtures: defaultFixtures(),
        webhook: WEBHOOK,
        ...(ca !== undefined ? { ca } : {}),
      };
    },
  };
}

/**
 * A whole run as a partner starts it: `target` written to a conformance.config.json of a folder of its own, the private
 * key in privateKeyFile and the CA in caFile (what `ca` held), run by name with `--fail-on should`.
 */
export async function wholeRunFromConfig(target: ResolvedTarget): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-field-'));
  try {
    writeFileSync(join(dir, 'key.pem'), target.privateKeyPem, { mode: 0o600 });
    if (target.ca !== undefined) writeFileSync(join(dir, 'ca.pem'), target.ca);
    const config = {
      targets: {
        [target.name]: {
          baseUrl: target.baseUrl,
          clientId: target.clientId,
          clientSecret: target.clientSecret,
          keyId: target.keyId,
          privateKeyFile: 'key.pem',
          ...(target.ca !== undefined ? { caFile: 'ca.pem' } : {}),
          fixtures: target.fixtures,
          webhook: { listen: target.webhook.listen, tls: target.webhook.tls },
        },
      },
    };
    writeFileSync(join(dir, 'conformance.config.json'), JSON.stringify(config), { mode: 0o600 });
    return await run({ cwd: dir, target: target.name, failOn: 'should' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A whole run of every suite against `target`, as `conformance run --fail-on should` makes it. */
export function wholeRun(target: ResolvedTarget): Promise<RunResult> {
  return runChecks({ pack, target, failOn: 'should' });
}

/** The checks a whole run against a correct server skips however it is reached: they need --long or --allow-mutations. */
export const SKIPPED_BY_FLAGS = ['auth.expiry.after-60-minutes', 'ussd.flow.order-cancel'];

/** The MUST requirements only --long exercises: what a correct server's whole run leaves INCOMPLETE, and no more. */
export const LONG_ONLY = ['REQ-TOKEN-03', 'REQ-LIFE-04', 'REQ-TOKEP-04', 'REQ-AUTH-03', 'REQ-LIM-03'];

/** What a run came to, in the terms a set-up asserts: the verdict, its failures and skips, and its notes. */
export function outcome(result: RunResult) {
  return {
    status: result.verdict.status,
    failed: result.checks.filter((c) => c.outcome === 'fail').map((c) => c.id),
    warned: result.checks.filter((c) => c.outcome === 'warn').map((c) => c.id),
    errored: result.checks.filter((c) => c.outcome === 'error').map((c) => c.id),
    skipped: result.checks.filter((c) => c.outcome === 'skip').map((c) => c.id),
    notExercised: result.verdict.notExercised.map((r) => r.id),
  };
}

export interface TestCa {
  /** The CA certificate (PEM): the target's `ca`. */
  ca: string;
  /** A certificate for 127.0.0.1 and localhost issued by the CA, and its key (PEM): what nginx presents. */
  cert: string;
  key: string;
}

/** A CA made for this test, and a server certificate it issued for 127.0.0.1. */
export async function makeTestCa(): Promise<TestCa> {
  const ec = { keyType: 'ec' as const, curve: 'P-256' as const, algorithm: 'sha256' as const };
  const ca = await generate([{ name: 'commonName', value: 'Field set-up test CA' }], {
    ...ec,
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', keyCertSign: true, digitalSignature: true },
    ],
  });
  const leaf = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    ...ec,
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7 as const, ip: '127.0.0.1' },
          { type: 2 as const, value: 'localhost' },
        ],
      },
    ],
    ca: { key: ca.private, cert: ca.cert },
  });
  return { ca: ca.cert, cert: leaf.cert, key: leaf.private };
}
