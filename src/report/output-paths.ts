// The files a run is asked to write, checked before the first request: a report that cannot be written should cost a
// one-line usage error up front, not a whole run against a partner's server and then a lost report.
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from '../errors.js';

/** The report files a run writes, by their options: what checkReportFiles checks. */
export interface ReportFiles {
  junit?: string;
  json?: string;
  html?: string;
  pdf?: string;
  har?: string;
}

/** checkOutputPaths over a run's report files: from the command line before anything loads, and again by the run. */
export function checkReportFiles(files: ReportFiles): void {
  checkOutputPaths([
    { option: '--junit', path: files.junit },
    { option: '--json', path: files.json },
    { option: '--html', path: files.html },
    { option: '--pdf', path: files.pdf },
    { option: '--har', path: files.har },
  ]);
}

/**
 * Refuses (ConfigError, exit 2) a report path that is a folder, whose folder cannot be written, or whose folder is
 * missing together with its parent.
 */
export function checkOutputPaths(
  outputs: ReadonlyArray<{ option: string; path: string | undefined }>,
  cwd = process.cwd(),
): void {
  for (const { option, path } of outputs) {
    if (path === undefined) continue;
    const file = resolve(cwd, path);
    if (isDirectory(file))
      throw new ConfigError(
        `${option}: ${path} is a folder; give the path of a file to write`,
        'CONFORMANCE_ERR_OUTPUT_PATH',
      );
    // A missing last folder is made when the report is written (`--junit reports/junit.xml` in a fresh CI workspace);
    // a path deeper into nothing is more likely a typo than a wish for a tree of new folders.
    const folder = dirname(file);
    if (existsSync(folder) && !isDirectory(folder))
      throw new ConfigError(
        `${option}: ${folder} is a file, not a folder; write the report elsewhere`,
        'CONFORMANCE_ERR_OUTPUT_PATH',
      );
    const existing = isDirectory(folder) ? folder : isDirectory(dirname(folder)) ? dirname(folder) : undefined;
    if (existing === undefined)
      throw new ConfigError(
        `${option}: the folder ${folder} does not exist; create it or write the report elsewhere`,
        'CONFORMANCE_ERR_OUTPUT_PATH',
      );
    try {
      accessSync(existing, constants.W_OK);
    } catch {
      throw new ConfigError(
        `${option}: the folder ${existing} cannot be written by this user; write the report elsewhere`,
        'CONFORMANCE_ERR_OUTPUT_PATH',
      );
    }
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
