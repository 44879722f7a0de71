import { run } from '../api.js';
import { humanReporterForStdout } from '../report/human.js';

export interface RunCommandOptions {
  target: string;
  config?: string;
  suite?: string;
  grep?: string;
  junit?: string;
  json?: string;
  failOn: 'must' | 'should';
  long: boolean;
  allowMutations: boolean;
  ussdMaxViews?: number;
  ussdMaxDepth?: number;
  timeout: number;
  maxBody: number;
  variant?: 'strict' | 'alt';
  fault?: string;
}

/** `conformance run`: returns the exit code (0 pass, 1 a check that fails the run failed). */
export async function runCommand(opts: RunCommandOptions): Promise<number> {
  const result = await run({
    target: opts.target,
    config: opts.config,
    suites: opts.suite?.split(','),
    grep: opts.grep,
    junit: opts.junit,
    json: opts.json,
    failOn: opts.failOn,
    long: opts.long,
    allowMutations: opts.allowMutations,
    ussdMaxViews: opts.ussdMaxViews,
    ussdMaxDepth: opts.ussdMaxDepth,
    requestTimeoutMs: opts.timeout,
    maxBodyBytes: opts.maxBody,
    reporters: [humanReporterForStdout()],
    local: { ...(opts.variant ? { variant: opts.variant } : {}), ...(opts.fault ? { faults: opts.fault.split(',').map((f) => f.trim()).filter(Boolean) } : {}) },
  });
  return result.exitCode;
}
