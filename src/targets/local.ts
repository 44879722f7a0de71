// The built-in target `local`: the embedded reference server on an ephemeral loopback port, with a client and key
// made fresh for this run, so `npx conformance run` needs no configuration and no secret ever leaves the process.
import { randomBytes } from 'node:crypto';
import { generateEd25519 } from '../http/keys.js';
import { startReferenceServer } from '../reference/server.js';
import { defaultFixtures } from '../reference/store.js';
import type { ResolvedTarget } from '../config/types.js';
import { BUILTIN_TARGET } from '../config/load.js';

export interface LocalTarget {
  target: ResolvedTarget;
  stop(): Promise<void>;
}

export async function startLocalTarget(): Promise<LocalTarget> {
  const key = generateEd25519();
  const clientId = 'conformance-local';
  const clientSecret = randomBytes(24).toString('base64url');
  const keyId = `local-${randomBytes(4).toString('hex')}`;
  const server = await startReferenceServer({
    host: '127.0.0.1',
    port: 0,
    clients: [{ clientId, clientSecret, keyId, publicKey: key.publicKey, name: 'Local conformance client' }],
  });
  return {
    target: {
      name: BUILTIN_TARGET,
      baseUrl: server.baseUrl,
      clientId,
      clientSecret,
      keyId,
      privateKeyPem: key.privateKeyPem,
      privateKey: key.seed,
      fixtures: defaultFixtures(),
      webhook: { listen: '127.0.0.1:0', tls: 'self-signed' },
    },
    stop: () => server.close(),
  };
}
