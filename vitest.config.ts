import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // vitest's default is one worker per core but one (a single worker on a 2-core machine), while our test files
    // mostly wait on loopback servers and child processes: three at once keep both cores busy.
    maxWorkers: 3,
  },
});
