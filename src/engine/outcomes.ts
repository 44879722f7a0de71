import type { Finding, SkipRemedy } from './types.js';

/** Thrown by a check (through ctx.fail) when the server did not do what the spec requires. */
export class CheckFailed extends Error {
  constructor(readonly finding: Finding) {
    super(finding.message);
    this.name = 'CheckFailed';
  }
}

/**
 * Thrown by a check (through ctx.skip) when it cannot run here: a missing fixture, a --long-only check. `remedy`, when
 * the way round is a setting of the run, lets the verdict say what to do without reading the reason.
 */
export class CheckSkipped extends Error {
  constructor(
    readonly reason: string,
    readonly remedy?: SkipRemedy,
  ) {
    super(reason);
    this.name = 'CheckSkipped';
  }
}
