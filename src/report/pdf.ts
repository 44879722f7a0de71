// `--pdf FILE`: the certification report as a PDF to hand over and sign, printed by a headless Chromium from the same
// HTML page (its print stylesheet lays it out). The browser is the machine's own, started as a plain program: the
// package ships no browser and no driver (playwright-core is the tests' alone), so a run without --pdf needs neither.
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Reporter, RunResult } from '../engine/index.js';
import { ConfigError } from '../errors.js';
import { htmlReport } from './html.js';

/** Where a browser is looked for when neither --chromium nor CONFORMANCE_CHROMIUM names one: Debian's, then PATH. */
const DEFAULT_PATH = '/usr/bin/chromium';
const ON_PATH = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/** How long the browser may take to print: a report of a few pages takes a second or two. */
const PRINT_TIMEOUT_MS = 60_000;

/**
 * The browser that prints --pdf: `--chromium PATH`, else $CONFORMANCE_CHROMIUM, else /usr/bin/chromium, else the first
 * of chromium, chromium-browser, google-chrome, google-chrome-stable on PATH. None: a usage error (exit 2) saying what
 * to install or name, raised before the run starts so a missing browser costs no run.
 */
export function findChromium(
  explicit?: string,
  env: NodeJS.ProcessEnv = process.env,
  debian: string = DEFAULT_PATH,
): string {
  const named = explicit ?? (env.CONFORMANCE_CHROMIUM || undefined);
  if (named !== undefined) {
    const path = resolve(named);
    if (isExecutable(path)) return path;
    const from = explicit !== undefined ? '--chromium' : 'CONFORMANCE_CHROMIUM';
    throw new ConfigError(
      `--pdf: ${from} names ${path}, which is not an executable file; give the path of Chromium or Chrome`,
      'CONFORMANCE_ERR_OPTION_FILE',
    );
  }
  if (isExecutable(debian)) return debian;
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean))
    for (const name of ON_PATH) if (isExecutable(join(dir, name))) return join(dir, name);
  throw new ConfigError(
    `--pdf: no Chromium found (looked for ${debian} and ${ON_PATH.join(', ')} on PATH); install it (Debian, Ubuntu: apt-get install chromium) or name one with --chromium PATH or CONFORMANCE_CHROMIUM`,
    'CONFORMANCE_ERR_OPTION_FILE',
  );
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export class PdfReporter implements Reporter {
  readonly name: string;

  constructor(
    private readonly filePath: string,
    private readonly browser: string,
  ) {
    this.name = `PDF report ${filePath}`;
  }

  async onRunEnd(result: RunResult): Promise<void> {
    await printToPdf(htmlReport(result), resolve(this.filePath), this.browser);
  }
}

/**
 * Prints an HTML page to a PDF file with the browser. The page is written to a private temporary folder with the
 * browser's profile, so nothing of the user's browser is read or changed, and both are removed afterwards.
 */
async function printToPdf(html: string, file: string, browser: string): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'conformance-pdf-'));
  try {
    const page = join(work, 'report.html');
    await writeFile(page, html, 'utf8');
    await mkdir(dirname(file), { recursive: true });
    await rm(file, { force: true });
    await run(browser, [
      '--headless',
      // Root (a CI container) cannot start Chromium's sandbox; the page is our own, offline under its CSP.
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${join(work, 'profile')}`,
      '--no-pdf-header-footer',
      // The name of the same switch in Chromium before 120.
      '--print-to-pdf-no-header',
      `--print-to-pdf=${file}`,
      pathToFileURL(page).href,
    ]);
    const written = await stat(file).catch(() => undefined);
    if (!written || written.size === 0) throw new Error(`${browser} ended without writing ${file}`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      // Only the end matters for the error line; a chatty browser must not grow this without bound.
      stderr = (stderr + chunk).slice(-4000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), PRINT_TIMEOUT_MS);
    child.on('error', (e) => {
      clearTimeout(timer);
      fail(new Error(`${command} could not be started: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return done();
      const last = stderr.trim().split('\n').at(-1) ?? '';
      fail(
        new Error(
          `${command} ${signal ? `was stopped by ${signal}${signal === 'SIGKILL' ? ` after ${PRINT_TIMEOUT_MS / 1000} s` : ''}` : `exited ${code}`}${last ? `: ${last}` : ''}`,
        ),
      );
    });
  });
}
