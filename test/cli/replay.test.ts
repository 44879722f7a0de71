// conformance replay: which target it aims at (the report's own unless the command line names one), and the verdict it
// ends with. The whole command runs end to end in test/e2e/curl-replay.test.ts.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replayCommand, replayVerdict, targetOf, type ReplayCommandOptions } from '../../src/cli/replay.js';
import { ConformanceError } from '../../src/errors.js';

const NONE: ReplayCommandOptions = { long: false, allowMutations: false, timeout: 10_000 };

describe('replay: the target', () => {
  it("is the report's own: its recorded target, config, variant, choices and faults", () => {
    expect(
      targetOf(NONE, {
        target: 'local',
        replay: {
          targetArgs: [
            '--target',
            'local',
            '--variant',
            'alt',
            '--choice',
            'token-envelope=bare',
            '--fault',
            'signing.keyid-ignored,signing.expired-accepted',
          ],
        },
      }),
    ).toEqual({
      target: 'local',
      local: {
        variant: 'alt',
        choices: { tokenEnvelope: 'bare' },
        faults: ['signing.keyid-ignored', 'signing.expired-accepted'],
      },
    });
    expect(
      targetOf(NONE, { target: 'staging', replay: { targetArgs: ['--target', 'staging', '--config', 'c.json'] } }),
    ).toEqual({ target: 'staging', config: 'c.json' });
    // A report of a version before run.replay: its target's name.
    expect(targetOf(NONE, { target: 'staging' })).toEqual({ target: 'staging' });
  });

  it('is the one the command line names, in place of the report’s: --target local alone is a clean server', () => {
    const faulty = {
      target: 'local',
      replay: { targetArgs: ['--target', 'local', '--fault', 'signing.keyid-ignored'] },
    };
    expect(targetOf({ ...NONE, target: 'local' }, faulty)).toEqual({ target: 'local' });
    expect(targetOf({ ...NONE, fault: 'signing.expired-accepted' }, faulty)).toEqual({
      target: 'local',
      local: { faults: ['signing.expired-accepted'] },
    });
  });

  it('refuses recorded arguments it cannot read, naming the way out', () => {
    for (const targetArgs of [['--target'], ['--shell', 'rm'], ['--choice', 'no-such-choice=x']]) {
      let err: unknown;
      try {
        targetOf(NONE, { target: 'local', replay: { targetArgs } });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConformanceError);
      expect((err as ConformanceError).code).toBe('CONFORMANCE_ERR_RERUN_REPORT');
      expect((err as Error).message).toMatch(/give the target with --target$/);
    }
  });
});

describe('replay: the verdict', () => {
  it('is FIXED when the check passes now, STILL FAILING when it fails or warns again, CHANGED otherwise', () => {
    expect(replayVerdict('fail', 'pass')).toBe('FIXED');
    expect(replayVerdict('error', 'pass')).toBe('FIXED');
    expect(replayVerdict('fail', 'fail')).toBe('STILL FAILING');
    expect(replayVerdict('warn', 'fail')).toBe('STILL FAILING');
    expect(replayVerdict('pass', 'pass')).toBe('STILL PASSING');
    expect(replayVerdict('pass', 'fail')).toBe('CHANGED');
    expect(replayVerdict('fail', 'skip')).toBe('CHANGED');
    expect(replayVerdict('fail', 'error')).toBe('CHANGED');
  });
});

describe('replay: a report or check it cannot use', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-replay-'));
  const io = { out: { write: () => true }, err: { write: () => true }, cwd: dir };
  const failure = async (file: string, id: string) => {
    let err: unknown;
    await replayCommand(file, id, NONE, io).catch((e: unknown) => {
      err = e;
    });
    expect(err).toBeInstanceOf(ConformanceError);
    return err as ConformanceError;
  };

  it('is a usage error, exit 2, before any server starts', async () => {
    expect((await failure('missing.json', 'x')).code).toBe('CONFORMANCE_ERR_OPTION_FILE');
    writeFileSync(join(dir, 'other.json'), '{"checks": []}');
    expect((await failure('other.json', 'x')).code).toBe('CONFORMANCE_ERR_RERUN_REPORT');
    writeFileSync(
      join(dir, 'r.json'),
      JSON.stringify({
        format: 'conformance-report',
        run: { target: 'local' },
        checks: [
          { id: 'signing.reject.unknown-keyid', outcome: 'fail' },
          { id: 'signing.gone-since', outcome: 'fail' },
        ],
      }),
    );
    const typo = await failure('r.json', 'signing.reject.unknwn-keyid');
    expect(typo.code).toBe('CONFORMANCE_ERR_USAGE');
    expect(typo.message).toContain(
      'has no check "signing.reject.unknwn-keyid" (did you mean signing.reject.unknown-keyid?)',
    );
    const gone = await failure('r.json', 'signing.gone-since');
    expect(gone.code).toBe('CONFORMANCE_ERR_USAGE');
    expect(gone.message).toMatch(/^signing\.gone-since: this version of conformance has no such check/);
  });
});
