// The built-in target's webhook receiver: a loopback port of the system's choosing, TLS with the process's self-signed
// certificate. Apart from local.ts so that a command can ask for that certificate (made in a worker thread,
// receiver/certificate.ts) before it loads the reference server, and have it made meanwhile.
import type { WebhookConfig } from '../config/types.js';
import { receiverTls } from '../receiver/certificate.js';

export function localWebhook(): WebhookConfig {
  return { listen: '127.0.0.1:0', tls: 'self-signed' };
}

/**
 * Starts making the local receiver's certificate; local.ts's `receiverTls(localWebhook())` gets the same one (it is
 * memoised). A failure is left to that call, which reports it.
 */
export function startLocalCertificate(): void {
  receiverTls(localWebhook()).catch(() => undefined);
}
