// Which browser prints --pdf, and the one line a missing one costs (before any run: src/reports.ts asks first).
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { findChromium } from '../../src/report/pdf.js';
import { prepareReports } from '../../src/reports.js';

const dir = mkdtempSync(join(tmpdir(), 'conformance-pdf-'));
const fake = join(dir, 'google-chrome');
writeFileSync(fake, '#!/bin/sh\nexit 0\n');
chmodSync(fake, 0o755);
const notExecutable = join(dir, 'chromium.txt');
writeFileSync(notExecutable, 'not a browser');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('findChromium', () => {
  it('takes --chromium first, then CONFORMANCE_CHROMIUM', () => {
    expect(findChromium(fake, { CONFORMANCE_CHROMIUM: '/nowhere/chromium' })).toBe(fake);
    expect(findChromium(undefined, { CONFORMANCE_CHROMIUM: fake })).toBe(fake);
  });

  it('refuses a named path that is not an executable file, naming where it came from', () => {
    expect(() => findChromium(notExecutable, {})).toThrow(
      `--pdf: --chromium names ${notExecutable}, which is not an executable file; give the path of Chromium or Chrome`,
    );
    expect(() => findChromium(undefined, { CONFORMANCE_CHROMIUM: join(dir, 'none') })).toThrow(
      /^--pdf: CONFORMANCE_CHROMIUM names .*none, which is not an executable file/,
    );
  });

  it('falls back to /usr/bin/chromium, then to a browser on PATH; none is a usage error saying what to install', () => {
    const found = findChromium(undefined, { PATH: dir });
    // Debian's browser wins where it is installed (CI installs it); else the one on PATH.
    expect(['/usr/bin/chromium', fake]).toContain(found);
    let error: unknown;
    try {
      findChromium(undefined, { PATH: join(dir, 'empty') }, '/nowhere/chromium');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).exitCode).toBe(2);
    expect((error as ConfigError).message).toBe(
      '--pdf: no Chromium found (looked for /nowhere/chromium and chromium, chromium-browser, google-chrome, google-chrome-stable on PATH); install it (Debian, Ubuntu: apt-get install chromium) or name one with --chromium PATH or CONFORMANCE_CHROMIUM',
    );
  });

  it('is asked before the run: prepareReports fails on a missing browser, and loads nothing for a run without --pdf', async () => {
    await expect(prepareReports({ pdf: join(dir, 'r.pdf'), chromium: notExecutable })).rejects.toThrow(ConfigError);
    await expect(prepareReports({ pdf: join(dir, 'r.pdf'), chromium: fake })).resolves.toBeDefined();
  });
});
