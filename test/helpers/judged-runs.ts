// A suite's run against the embedded reference server with --har, and `conformance judge` of that HAR (issue 30): the
// set-up of the tests that hold the judge to what the run found. The HAR files live in a folder of the test file's,
// removed after it.
import { afterAll, beforeAll } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../src/api.js';
import { judge } from '../../src/judge-api.js';
import type { RunResult } from '../../src/engine/index.js';

const quiet = { onNote: () => undefined };

/** Runs `suite` with `faults` into `<name>.har`, then judges that file (server side). */
export type RunAndJudge = (
  suite: string,
  faults: string[],
  name?: string,
) => Promise<{ ran: RunResult; judged: RunResult; har: string }>;

async function runAndJudge(har: string, suite: string, faults: string[]) {
  const ran = await run({ suites: [suite], har, local: { faults }, ...quiet });
  return { ran, judged: await judge({ file: har, ...quiet }), har };
}

/** Registers the folder's set-up and removal with the calling test file; `label` names the folder. */
export function judgedRuns(label: string): RunAndJudge {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `conformance-${label}-`));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  // The same run asked for twice in a file (several tests read it) is made once.
  const made = new Map<string, ReturnType<RunAndJudge>>();
  return (suite, faults, name = `${suite}-${faults.join('+') || 'clean'}`) => {
    // The name is the HAR's file: one name, one run.
    let once = made.get(name);
    if (once === undefined) made.set(name, (once = runAndJudge(join(dir, `${name}.har`), suite, faults)));
    return once;
  };
}
