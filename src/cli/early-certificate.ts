// `conformance run` against the built-in target needs its receiver's certificate, which a worker thread makes in about
// half a second (src/receiver/certificate.ts). Asked for before commander, the commands and the run's own modules load,
// it is made on the other core while they do, and the run starts without waiting for it.
import { BUILTIN_TARGET } from '../config/names.js';

/** The target a `run` command line names (`-t NAME`, `--target NAME`, `--target=NAME`, `-tNAME`), or the built-in one. */
export function runTargetOf(args: readonly string[]): string {
  let target = BUILTIN_TARGET;
  for (let i = 1; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a === '-t' || a === '--target') target = args[++i] ?? target;
    else if (a.startsWith('--target=')) target = a.slice('--target='.length);
    else if (/^-t[^-]/.test(a)) target = a.slice(2);
  }
  return target;
}

/** Starts making the built-in target's receiver certificate when `args` are a run against that target. */
export async function startEarlyCertificate(args: readonly string[]): Promise<void> {
  if (args[0] !== 'run' || runTargetOf(args) !== BUILTIN_TARGET) return;
  (await import('../targets/local-webhook.js')).startLocalCertificate();
}
