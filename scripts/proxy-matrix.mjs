// The proxy matrix from real proxy sessions (npm run matrix): the example clients (examples/clients/ts) through the
// intercepting proxy of `conformance proxy` against the reference server, judged on both sides (src/matrix/
// proxy-detection.ts says what a row is and must give). Writes docs/proxy-matrix.md and .json; with --check (npm run
// matrix:check, run by CI) it writes nothing and fails when either file is not what the sessions give. Either way it
// fails on any problem: a finding on a clean row, a flaw not caught, a collateral failure. `--only TEXT` runs the rows
// whose name contains TEXT and writes nothing. Uses the compiled code and the compiled example clients.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  HELD_POINTS,
  notRunRow,
  PROXY_BUNDLES,
  proxyCases,
  proxyFingerprint,
  proxyMatrixProblems,
  proxyRow,
  renderProxyMatrix,
  renderProxyMatrixJson,
  withoutHeld,
} from '../dist/src/matrix/proxy-detection.js';
import { runProxyCase } from '../dist/src/matrix/proxy-run.js';
import { choiceBundles } from '../dist/src/matrix/choices.js';
import { pool } from '../dist/src/pool.js';
import { makeCertificate } from '../dist/src/receiver/certificate.js';
import { FAULTS } from '../dist/src/reference/faults/catalog.js';
import { suites } from '../dist/suites/index.js';
import { clientSuites } from '../dist/suites/client/index.js';
import { FLAWS } from '../dist/examples/clients/ts/flaws.js';

const check = process.argv.includes('--check');
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt > 0 ? process.argv[onlyAt + 1] : undefined;
const root = fileURLToPath(new URL('..', import.meta.url));
const files = {
  md: new URL('../docs/proxy-matrix.md', import.meta.url),
  json: new URL('../docs/proxy-matrix.json', import.meta.url),
};

const bundles = new Map(choiceBundles().map((b) => [b.name, withoutHeld(b.choices)]));
const detection = JSON.parse(readFileSync(new URL('../docs/detection-matrix.json', import.meta.url), 'utf8'));
const catchers = new Map(detection.faults.map((f) => [f.name, f.caughtBy]));
const cases = proxyCases(
  PROXY_BUNDLES,
  HELD_POINTS,
  FLAWS,
  FAULTS.map((f) => ({ name: f.name, suite: f.suite })),
  catchers,
);
const selected = cases.filter((c) => only === undefined || c.name.includes(only));
const checks = [...suites, ...clientSuites].flatMap((s) =>
  s.checks.map((c) => ({ id: c.id, level: c.level, observes: c.observe !== undefined })),
);
const observable = new Set(checks.filter((c) => c.observes).map((c) => c.id));

const dir = mkdtempSync(join(tmpdir(), 'conformance-proxy-matrix-'));
const started = Date.now();
let rows;
try {
  const settings = {
    root,
    dir,
    tls: await makeCertificate(['127.0.0.1']),
    caOut: join(dir, 'proxy-ca.pem'),
    timeLimitMs: 30_000,
  };
  // The first session makes the proxy's CA; the others reuse it.
  const first = selected.find((c) => c.notRun === undefined);
  const firstRow =
    first && proxyRow(first, said(first, await runProxyCase(first, bundles.get(first.bundle), settings)), observable);
  // Each row waits on its client processes: two at a time keep a 2-core machine busy.
  rows = await pool(selected, Math.max(2, availableParallelism()), async (c) => {
    if (c === first) return firstRow;
    if (c.notRun !== undefined) return notRunRow(c);
    const row = proxyRow(c, said(c, await runProxyCase(c, bundles.get(c.bundle), settings)), observable);
    if (row.clientFailed === undefined) return row;
    // The good client is a child process with a time limit: on a loaded machine it can be killed or time out once.
    // Said, and run once more; a second failure stands as the row's problem.
    console.log(`  ${c.name}: the good client did not finish (${row.clientFailed}); running the row once more`);
    return proxyRow(c, said(c, await runProxyCase(c, bundles.get(c.bundle), settings)), observable);
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const matrix = { fingerprint: proxyFingerprint(checks, cases), rows };
const problems = proxyMatrixProblems(matrix);
if (only === undefined) {
  const generated = { md: renderProxyMatrix(matrix), json: renderProxyMatrixJson(matrix) };
  if (check) {
    for (const [kind, url] of Object.entries(files)) {
      let committed = '';
      try {
        committed = readFileSync(url, 'utf8');
      } catch {
        // Absent: not current.
      }
      if (committed !== generated[kind])
        problems.push(
          `docs/proxy-matrix.${kind} is not current: run npm run matrix and commit it${changedLines(committed, generated[kind])}`,
        );
    }
  } else {
    writeFileSync(files.md, generated.md);
    writeFileSync(files.json, generated.json);
  }
} else {
  for (const r of rows)
    console.log(
      `  ${r.name}: ${[...r.caught, ...r.collateral.map((id) => `${id} (collateral)`)].join(', ') || '—'}${r.notVisible ? `; ${r.notVisible}` : ''}`,
    );
}
console.log(
  `proxy matrix: ${rows.length} proxy sessions in ${Math.round((Date.now() - started) / 1000)} s, ${problems.length} problems${check || only ? '' : '; docs/proxy-matrix.md and .json written'}`,
);
for (const p of problems) console.log(`  ${p}`);
process.exitCode = problems.length > 0 ? 1 : 0;

// A delivery the server could not hand to the proxy's leg (no answer at all) is said beside its row: should the row's
// delivery count then differ from the committed one, the log names why, on the machine where it happened.
function said(c, judged) {
  for (const u of judged.unanswered ?? []) console.log(`  ${c.name}: a delivery got no answer: ${u}`);
  return judged;
}

// The lines that differ say which row came out otherwise, without re-running the matrix on that machine.
function changedLines(before, after) {
  const was = new Set(before.split('\n'));
  const now = new Set(after.split('\n'));
  const gone = [...was].filter((l) => !now.has(l)).slice(0, 8);
  const added = [...now].filter((l) => !was.has(l)).slice(0, 8);
  return [...gone.map((l) => `\n    - ${l}`), ...added.map((l) => `\n    + ${l}`)].join('');
}
