// What the receiver's tests share: the key a "server" signs its deliveries with, the components of a signed delivery,
// and the receivers and HTTP agents a test starts, stopped after each test.
import { afterEach } from 'vitest';
import { createPublicKey } from 'node:crypto';
import type { Agent } from 'undici';
import { generateEd25519 } from '../../src/http/keys.js';
import type { WebhookReceiver } from '../../src/receiver/receiver.js';

export const serverKey = generateEd25519();
export const publicKey = createPublicKey(serverKey.publicKeyPem);
export const COMPONENTS = ['@method', '@target-uri', 'content-digest', 'content-length', 'content-type'];

/** Lists a test file fills with what it starts; each is stopped (receivers) or closed (agents) after every test. */
export function stoppedAfterEach(): { running: WebhookReceiver[]; agents: Agent[] } {
  const running: WebhookReceiver[] = [];
  const agents: Agent[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.stop()));
    await Promise.all(agents.splice(0).map((a) => a.close()));
  });
  return { running, agents };
}
