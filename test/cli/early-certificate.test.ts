// The receiver certificate a run against the built-in target needs is asked for before the CLI loads its commands
// (src/cli/early-certificate.ts): only for `run`, and only when the command line names the built-in target.
import { describe, expect, it } from 'vitest';
import { runTargetOf } from '../../src/cli/early-certificate.js';

describe('the target a run command line names', () => {
  it('is the built-in one when none is named', () => {
    expect(runTargetOf(['run'])).toBe('local');
    expect(runTargetOf(['run', '--suite', 'auth', '--json', 'r.json'])).toBe('local');
  });

  it('is read from every spelling commander takes', () => {
    expect(runTargetOf(['run', '--target', 'staging'])).toBe('staging');
    expect(runTargetOf(['run', '-t', 'staging'])).toBe('staging');
    expect(runTargetOf(['run', '--target=staging'])).toBe('staging');
    expect(runTargetOf(['run', '-tstaging'])).toBe('staging');
    expect(runTargetOf(['run', '--target', 'staging', '--target', 'local'])).toBe('local');
  });

  it('stops at --, and keeps the built-in one for a bare -t at the end', () => {
    expect(runTargetOf(['run', '--', '--target', 'staging'])).toBe('local');
    expect(runTargetOf(['run', '-t'])).toBe('local');
  });
});
