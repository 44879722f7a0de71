// `conformance run` against the built-in target needs its receiver's certificate, which a worker thread makes in about
// half a second (src/receiver/certificate.ts). Asked for before the run's own modules load, it is made on the other core
// while they do, and the run starts without waiting for it. It is asked for once the command line is known to be a
// run (not `run --help`, not a usage error): a command that ends at once would pay the worker for nothing. And only
// when --suite leaves in a suite that starts the receiver: a run of others draws no delivery, so never needs it.
import { BUILTIN_TARGET } from '../config/names.js';
import { wantedSuites } from '../engine/select.js';
import { RECEIVER_SUITES, SUITE_NAMES } from './early-checks.js';

/**
 * Starts making the built-in target's receiver certificate when the run's target is that target and may need it;
 * says whether it did.
 */
export async function startEarlyCertificate(target: string, suite: string | undefined): Promise<boolean> {
  if (target !== BUILTIN_TARGET) return false;
  const wanted = wantedSuites(SUITE_NAMES, suite?.split(','));
  if (wanted !== undefined && !wanted.some((s) => RECEIVER_SUITES.includes(s))) return false;
  (await import('../targets/local-webhook.js')).startLocalCertificate();
  return true;
}
