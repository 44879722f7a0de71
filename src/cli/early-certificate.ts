// `conformance run` against the built-in target needs its receiver's certificate, which a worker thread makes in about
// half a second (src/receiver/certificate.ts). Asked for before the run's own modules load, it is made on the other core
// while they do, and the run starts without waiting for it. It is asked for once the command line is known to be a
// run (not `run --help`, not a usage error): a command that ends at once would pay the worker for nothing.
import { BUILTIN_TARGET } from '../config/names.js';

/** Starts making the built-in target's receiver certificate when the run's target is that target. */
export async function startEarlyCertificate(target: string): Promise<void> {
  if (target !== BUILTIN_TARGET) return;
  (await import('../targets/local-webhook.js')).startLocalCertificate();
}
