// Bundles the compiled CLI (dist/src/cli/main.js and what it imports) into dist/cli/, the files bin/conformance.js
// loads. Node resolves, reads and links every ES module of a run one by one: some 290 files, about 0.3 s of CPU at
// each start of the command (half of a narrowed run's CPU, bench/RESULTS.md issue 29). In a few chunks the same code
// loads in about half that. Dynamic imports stay chunks of their own, so a command still loads only what it runs; the
// packages of node_modules stay outside. The library (dist/src/index.js) is not bundled: its callers import modules.
//
// The certificate worker is an entry of its own: src/receiver/certificate.ts starts it from the file beside itself
// (`new URL('./certificate-worker.js', import.meta.url)`), which in the bundle is dist/cli/certificate-worker.js.
// rolldown: already installed with vitest (vite's bundler), so no other bundler comes with the project.
import { build } from 'rolldown';
import { fileURLToPath } from 'node:url';

const dist = (path) => fileURLToPath(new URL(`../dist/${path}`, import.meta.url));

await build({
  input: {
    main: dist('src/cli/main.js'),
    'certificate-worker': dist('src/receiver/certificate-worker.js'),
  },
  platform: 'node',
  // A bare specifier is a package (or node: builtin): loaded from node_modules as the library loads it.
  external: (id) => !id.startsWith('.') && !id.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(id),
  output: { dir: dist('cli'), format: 'esm' },
  logLevel: 'warn',
});
