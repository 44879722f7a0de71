import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest from start to end (whole runs of the CLI, waits for deliveries and timeouts), slowest
 * first, as measured on a 2-core machine (bench/RESULTS.md, issue 29). They start first so that none of them is still
 * running alone at the end while the other workers have nothing left: vitest orders files by their last duration only
 * when it has run them before, and a fresh clone (the CI) has no such record, so it would keep the folders' order and
 * start the e2e and suite files last.
 */
const LONGEST_FIRST = [
  // npm test's (vitest.config.ts): CLI runs, waits for deliveries and timeouts, 10 to 25 s each on an idle machine.
  'test/e2e/cli.test.ts',
  'test/e2e/verdict.test.ts',
  'test/suites/webhooks/end-to-end.test.ts',
  'test/e2e/proxy-receiver.test.ts',
  'test/e2e/webhook-receiver.test.ts',
  'test/suites/ussd/reference-server.test.ts',
  'test/e2e/curl-replay.test.ts',
  'test/e2e/serve.test.ts',
  'test/cli/judge-deliveries.test.ts',
  'test/client/client-matrix.test.ts',
  'test/reference/webhooks.test.ts',
  'test/suites/kit/session-renewal.test.ts',
  // Whole in-process runs of the suites and their waits, 5 to 10 s each on an idle machine: left to vitest's order some
  // started last (test/suites/pagination/shared-walks and test/report/terminal-length started 57 and 40 s before the end
  // of a loaded 755 s run, and ended it, stop 39).
  'test/suites/pagination/reference-server.test.ts',
  'test/suites/no-vacuous-pass.test.ts',
  'test/suites/pagination/shared-walks.test.ts',
  'test/suites/resources/reference-server.test.ts',
  'test/suites/ussd/proxy.test.ts',
  'test/engine/hostile.test.ts',
  'test/report/terminal-length.test.ts',
  'test/suites/kit/restore.test.ts',
  // the sweeps' (vitest.sweeps.config.ts)
  'test/e2e/hostile.sweep.test.ts',
  'test/e2e/proxy-clients.sweep.test.ts',
  'test/suites/resources/faults.sweep.test.ts',
  'test/suites/pagination/every-list.sweep.test.ts',
  'test/suites/webhooks/findings.sweep.test.ts',
  'test/reference/detection-sample.sweep.test.ts',
  'test/reference/choices-sample.sweep.test.ts',
  'test/client/examples.sweep.test.ts',
  'test/suites/client/judge-traffic.sweep.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification): number => {
      const i = LONGEST_FIRST.indexOf(relative(file.project.config.root, file.moduleId));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    // Stable: the files not listed keep vitest's order (the longest last time first, when it knows).
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The field set-ups and the sweeps run apart, after `npm test` (vitest.field.config.ts, `npm run test:field`;
    // vitest.sweeps.config.ts, `npm run test:sweeps`): CI runs both.
    exclude: ['test/field/**', '**/*.sweep.test.ts', '**/node_modules/**'],
    // A safety net for a test that hangs, never a measure of speed: above every deadline a test sets itself
    // (test/helpers/waits.ts; a CLI run killed at its budget plus 30 s), so a test that fails says why. The slowest
    // test takes about 20 s on an idle machine; a set-up of eight whole runs at once (the detection matrix's sample)
    // took over 180 s on 2 cores loaded twenty times over (stop 39), which is a busy machine, not a hang.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    // A worker keeps the modules it loaded from one test file to the next instead of loading the engine, the reference
    // server and the schemas again for each (import time 44 s → 15 s of a 2-core run). Test files own their servers and
    // state; what is process-wide (the redactor of crash output, the receiver's certificates) holds across files.
    isolate: false,
    // vitest's default is one worker per core but one (a single worker on a 2-core machine), while our test files
    // mostly wait on loopback servers and child processes: three at once keep both cores busy.
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
  },
});
