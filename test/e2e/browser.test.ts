// The HTML report as a reviewer sees it: the compiled CLI (`npm test` builds it) runs against the reference server
// with a fault, and headless Chromium (Debian's, driven by playwright-core) opens the page offline. What is asserted
// is what is on screen, not what is in the markup.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { runCli } from '../helpers/cli.js';
import { WAIT_MS } from '../helpers/waits.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
const FAULT = 'auth.token-type-lowercase';
const FAILING_CHECK = 'auth.token.type-bearer';

const missing = existsSync(CHROMIUM)
  ? undefined
  : `${CHROMIUM} is absent: install it with "apt-get install -y chromium" (.ci/run does)`;

describe('the HTML report in headless Chromium', () => {
  // In CI a missing browser is a broken environment, not a reason to pass quietly.
  if (missing !== undefined && !process.env.CI) {
    it.skip(`shows a failing run to a reviewer (skipped: ${missing})`, () => {});
    return;
  }

  it('shows a failing run to a reviewer: verdict NOT CONFORMANT, the failing check, its spec sentence and a replay line', async () => {
    if (missing !== undefined) throw new Error(missing);
    const dir = mkdtempSync(join(tmpdir(), 'conformance-browser-'));
    const file = join(dir, 'report.html');
    const profile = join(dir, 'profile');
    try {
      const cli = await runCli(['run', '--suite', 'auth', '--fault', FAULT, '--html', file]);
      expect(cli.stderr).toBe('');
      expect(cli.code).toBe(1);

      const context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        viewport: { width: 1280, height: 1000 },
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
        timeout: WAIT_MS,
      });
      try {
        // Offline: anything but the file itself would be an external asset.
        const external: string[] = [];
        await context.route('**/*', (route) => {
          const url = route.request().url();
          if (url.startsWith('file:')) return route.continue();
          external.push(url);
          return route.abort();
        });
        const page = await context.newPage();
        const problems: string[] = [];
        page.on('console', (m) => {
          if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
        });
        page.on('pageerror', (e) => problems.push(e.message));
        await page.goto(pathToFileURL(file).href);

        const verdict = page.locator('.verdict');
        expect(await verdict.isVisible()).toBe(true);
        expect(await verdict.innerText()).toBe('NOT CONFORMANT');
        expect(await page.locator('#verdict .verdict-line').innerText()).toMatch(
          /^NOT CONFORMANT: 1 MUST check failed, on \d+ MUST requirements: .*REQ-TOKEN-06/,
        );

        const failure = page.locator(`details.finding[id="check-${FAILING_CHECK}"]`);
        expect(await failure.locator(':scope > summary').innerText()).toContain(FAILING_CHECK);
        // The verdict's own evidence, not the folded set-up exchanges below it.
        const evidence = failure.locator(':scope > dl.evidence');
        const spec = evidence.locator('dd.spec');
        expect(await spec.isVisible()).toBe(true);
        expect(await spec.innerText()).toContain('| tokenType | Authorization type; always `Bearer` |');
        expect(await evidence.locator('dd.observed').innerText()).toContain('tokenType is "bearer", not "Bearer"');
        const curl = evidence.locator('pre.curl');
        expect(await curl.isVisible()).toBe(true);
        const curlText = await curl.innerText();
        expect(curlText).toMatch(
          /^npx conformance curl \/oauth\/token -d 'clientId=conformance-local&clientSecret=\{\{clientSecret\}\}'/,
        );
        expect(curlText).toContain(`--target local --fault ${FAULT}`);

        // The failing check's row in the auth table links to its details.
        const row = page.locator('#suites tr', { has: page.locator(`code:text-is("${FAILING_CHECK}")`) });
        expect(await row.locator('.pill').innerText()).toBe('FAIL');
        expect(await page.locator('#choices h2').innerText()).toBe('Choices this server made where the spec is open');
        expect(await page.locator('footer .digest').innerText()).toMatch(/^[0-9a-f]{64}$/);

        // The copy button is the page's one script at work (a CSP block would have left it out).
        expect(await evidence.locator('button.copy').count()).toBe(1);
        expect(external).toEqual([]);
        expect(problems).toEqual([]);

        mkdirSync(ARTIFACTS, { recursive: true });
        await page.screenshot({ path: join(ARTIFACTS, 'report.png'), fullPage: true });
      } finally {
        await context.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
