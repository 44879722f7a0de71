// `conformance restore --target NAME`: puts back what runs against the target left on it when they were killed before
// their own restores (SIGKILL, a lost machine), from the target's restore journal (src/journal/journal.ts), and does
// nothing else. A run does the same first; this is for a target no run is about to test.
import { restore, restoreFailure } from '../api.js';
import { BUILTIN_TARGET } from '../config/names.js';

export interface RestoreCommandOptions {
  target: string;
  config?: string;
  timeout: number;
}

/** Returns the exit code: 0 nothing was left, or all was put back; 3 (CONFORMANCE_ERR_RESTORE_FAILED) when something could not be. */
export async function restoreCommand(opts: RestoreCommandOptions): Promise<number> {
  const out = (line: string) => process.stdout.write(`conformance: restore: ${line}\n`);
  if (opts.target === BUILTIN_TARGET) {
    out(
      `nothing to put back: the built-in target ${BUILTIN_TARGET} starts a fresh reference server for each run, so no change outlives a run`,
    );
    return 0;
  }
  const r = await restore({
    target: opts.target,
    ...(opts.config !== undefined ? { config: opts.config } : {}),
    requestTimeoutMs: opts.timeout,
  });
  for (const busy of r.busy) out(`${busy} belongs to a run still going on this machine: left alone`);
  if (r.putBack.length === 0 && r.failed.length === 0) {
    out(`nothing to put back for ${r.target}: no run left a change in ${r.folder ?? 'its restore journal'}`);
    return 0;
  }
  if (r.putBack.length > 0) out(`put back what an earlier run against ${r.target} left: ${r.putBack.join('; ')}`);
  if (r.failed.length > 0) throw restoreFailure(r);
  return 0;
}
