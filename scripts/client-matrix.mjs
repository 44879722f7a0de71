// The client detection matrix from real runs of `conformance client` (npm run matrix): the good example client, the
// client written without our code, and one broken client per client rule (examples/clients/), each against every
// scenario. Writes docs/client-matrix.md and .json; with --check (npm run matrix:check, run by CI) it writes nothing and
// fails when either file is not what the runs give. Either way it fails on a flaw not caught by its own check, a check
// failing that the flaw does not claim, a correct client not judged so, or a check no flaw makes fail. Uses the
// compiled engine and the compiled example clients.
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import {
  clientMatrix,
  clientMatrixProblems,
  renderClientMatrix,
  renderClientMatrixJson,
} from '../dist/src/matrix/client-detection.js';
import { exampleClients } from '../dist/src/matrix/example-clients.js';
import { runClient } from '../dist/src/client-api.js';
import { clientSuites } from '../dist/suites/client/index.js';
import { FLAWS } from '../dist/examples/clients/ts/flaws.js';

const check = process.argv.includes('--check');
const files = {
  md: new URL('../docs/client-matrix.md', import.meta.url),
  json: new URL('../docs/client-matrix.json', import.meta.url),
};
const clients = exampleClients(FLAWS);
// The runs mostly wait (on a 429's Retry-After, on deliveries): two per core keep the machine busy.
const matrix = await clientMatrix(
  clientSuites,
  clients,
  (c) => runClient({ command: c.command, ...(c.scenarios ? { scenarios: c.scenarios } : {}) }),
  2 * availableParallelism(),
);
const generated = { md: renderClientMatrix(matrix), json: renderClientMatrixJson(matrix) };
const problems = clientMatrixProblems(matrix);
if (check) {
  for (const [kind, url] of Object.entries(files)) {
    if (readFileSync(url, 'utf8') !== generated[kind])
      problems.push(`docs/client-matrix.${kind} is not current: run npm run matrix and commit it`);
  }
} else {
  writeFileSync(files.md, generated.md);
  writeFileSync(files.json, generated.json);
}
console.log(
  `client matrix: ${matrix.rows.length} example clients against ${clientSuites.flatMap((s) => s.checks).length} client checks, ${problems.length} problems${check ? '' : '; docs/client-matrix.md and .json written'}`,
);
for (const p of problems) console.log(`  ${p}`);
process.exitCode = problems.length > 0 ? 1 : 0;
