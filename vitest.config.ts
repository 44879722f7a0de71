import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The field set-ups run apart, after `npm test` (vitest.field.config.ts, `npm run test:field`).
    exclude: ['test/field/**', '**/node_modules/**'],
    // A safety net for a test that hangs, never a measure of speed: above every deadline a test sets itself
    // (test/helpers/waits.ts; a CLI run killed at its budget plus 30 s), so a test that fails says why. The slowest
    // test takes about 20 s on an idle machine, and two `npm test` at once on 2 cores make each take 2 to 3 times longer.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // A worker keeps the modules it loaded from one test file to the next instead of loading the engine, the reference
    // server and the schemas again for each (import time 44 s → 15 s of a 2-core run). Test files own their servers and
    // state; what is process-wide (the redactor of crash output, the receiver's certificates) holds across files.
    isolate: false,
    // vitest's default is one worker per core but one (a single worker on a 2-core machine), while our test files
    // mostly wait on loopback servers and child processes: three at once keep both cores busy.
    maxWorkers: 3,
  },
});
