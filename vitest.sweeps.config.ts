import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// The sweeps (`*.sweep.test.ts`): the same surface against every fault, every hostile server, every broken example
// client, every reading of the open points, each asserting what is found and that nothing else fails. Minutes of whole
// runs, beyond the `npm test` budget (3 minutes on 2 cores): `.ci/run` runs them after it (`npm run test:sweeps`), as it
// runs the matrices and the field set-ups. The base's settings, but only the sweeps.
export default defineConfig({
  test: { ...base.test, include: ['test/**/*.sweep.test.ts'], exclude: ['test/field/**', '**/node_modules/**'] },
});
