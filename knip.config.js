// knip: exports and types that no other file imports (issue 16 item 9), run by `npm run lint`.
// scripts/, bench/ and bin/ import the compiled code (../dist/src/…); knip maps those imports back to src/ through
// tsconfig.json's outDir, which needs dist/ to exist: npm test builds before it lints.
import { existsSync } from 'node:fs';

if (!existsSync(new URL('./dist/src/cli/main.js', import.meta.url))) {
  throw new Error('knip reads the imports of dist/ as imports of src/: run `npm run build` first');
}

/** @type {import('knip').KnipConfig} */
export default {
  // bin/conformance.js, package.json's scripts and the tests (vitest) are found by knip itself; bench/ spawns its
  // measurements as child processes, by file name, and scripts/ holds tools run by hand (compare-reports.mjs).
  // examples/clients/ts/{good,broken,own-route}.ts are programs `conformance client` runs, by file name.
  entry: [
    'bench/*.mjs',
    'scripts/*.mjs',
    'examples/clients/ts/good.ts',
    'examples/clients/ts/broken.ts',
    'examples/clients/ts/own-route.ts',
  ],
  project: [
    'src/**/*.ts',
    'suites/**/*.ts',
    'examples/**/*.ts',
    'test/**/*.ts',
    'scripts/**/*.mjs',
    'bench/**/*.mjs',
    'bin/**/*.js',
  ],
  // The shell example client's tools, which its test looks for (and skips without): not packages.
  ignoreBinaries: ['openssl'],
  // Files the tests lint as data (test/engine/lint-boundaries.test.ts), imported by nothing.
  ignore: ['test/fixtures/**'],
};
