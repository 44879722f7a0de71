// bin/conformance.js loads the bundled CLI (dist/cli/, scripts/bundle-cli.mjs). In a clone that has not been built, the
// command says so in one line and exits 2, instead of a module-not-found stack.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { WAIT_MS } from '../helpers/waits.js';

describe('the command in a clone without dist/', () => {
  it('says to build, in one line, exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-no-dist-'));
    try {
      mkdirSync(join(dir, 'bin'));
      copyFileSync(BIN, join(dir, 'bin', 'conformance.js'));
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
      const failed = await promisify(execFile)(process.execPath, [join(dir, 'bin', 'conformance.js'), '--version'], {
        timeout: WAIT_MS,
      }).then(
        () => expect.fail('the command succeeded without dist/'),
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
      expect(failed.code).toBe(2);
      expect(failed.stdout).toBe('');
      expect(failed.stderr).toBe(
        'conformance: the compiled CLI (dist/) is missing: in a clone of the repository, run `npm run build`\n',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
