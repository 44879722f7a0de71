// `conformance list`: every check with its id, level, suite and the spec sections of its requirements, for people and (with
// --json, which adds the file that declares each check) scripts.
import { suites } from '../../suites/index.js';
import { clientSuites } from '../../suites/client/index.js';
import { selectChecks } from '../engine/index.js';
import { sectionsOf } from '../report/requirement-text.js';
import { checkFile } from '../check-file.js';

export interface ListOptions {
  suite?: string;
  grep?: string;
  json?: boolean;
  /** The checks of a client application (`conformance client`) instead of a server's. */
  client?: boolean;
}

export function listCommand(opts: ListOptions): number {
  const checks = selectChecks(opts.client ? clientSuites : suites, {
    suites: opts.suite?.split(','),
    grep: opts.grep,
  }).map((c) => ({
    id: c.id,
    level: c.level,
    suite: c.suite,
    title: c.title,
    requirements: c.requirements,
    file: checkFile(c.id),
  }));
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(checks, null, 2)}\n`);
    return 0;
  }
  const idWidth = Math.max(...checks.map((c) => c.id.length));
  for (const c of checks)
    process.stdout.write(
      `${c.id.padEnd(idWidth)}  ${c.level.padEnd(6)}  ${c.suite.padEnd(opts.client ? 15 : 10)}  ${sectionsOf(c)} — ${c.title}\n`,
    );
  process.stdout.write(`${checks.length} checks\n`);
  return 0;
}
