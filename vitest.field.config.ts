import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// The field set-ups (issue 26): whole runs through Debian's nginx, a forward proxy, TLS terminated elsewhere, runs
// repeated and interrupted. Minutes of runs in all, beyond the `npm test` budget: `.ci/run` runs them after it, as it
// runs the matrices (`npm run test:field`). The base's settings, but only test/field (mergeConfig would add the lists).
export default defineConfig({
  test: { ...base.test, include: ['test/field/**/*.test.ts'], exclude: ['**/node_modules/**'] },
});
