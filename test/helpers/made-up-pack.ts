// What a test of the engine needs to run a made-up pack: a target nothing listens at (no check of such a test sends a
// request) and a session that holds nothing, logging its steps when given a log.
import type { RunSession } from '../../src/engine/index.js';
import { generateEd25519 } from '../../src/http/keys.js';
import type { ResolvedTarget } from '../../src/config/types.js';

const key = generateEd25519();

export const madeUpTarget: ResolvedTarget = {
  name: 't',
  baseUrl: 'http://127.0.0.1:9/v1',
  clientId: 'c',
  clientSecret: 's',
  keyId: 'k',
  privateKeyPem: key.privateKeyPem,
  privateKey: key.seed,
  fixtures: {},
  webhook: { listen: '127.0.0.1:0', tls: 'none' },
};

/** A session with a fixed token; `openFails` makes its open throw, as a refused token request would. */
export function quietSession(log: string[] = [], openFails = false): RunSession {
  return {
    open: async () => {
      log.push('session open');
      if (openFails) throw new Error('no credentials');
    },
    token: async () => 'tok',
    withToken: (send) => send('tok'),
    accepts: async () => true,
    sendChanging: (_state, send) => send(),
    runCheck: (_check, body) => body(),
    notes: () => [],
    close: async () => {
      log.push('session close');
      return undefined;
    },
  };
}
