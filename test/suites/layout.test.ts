// The layout rule of issue 28 (test/helpers/layout-rule.ts): a check id `<suite>.<area>.<what>` lives, written out
// literally, in `suites/<suite>/<area>.ts`; a server suite's folder holds only index.ts, its area files and helpers/
// shared by more than one of its files; no file under suites/ is over 700 lines. Their tests mirror that layout: a
// folder of test/suites/ for each folder of suites/ it tests, and only the tests of the packs as a whole directly in
// test/suites/ (PACK_WIDE). The rule is shown to pass a good layout and name each break of a bad one on small fake
// folders, then held on the package.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { layoutViolations, testLayoutViolations } from '../helpers/layout-rule.js';
import { suites } from '../../suites/index.js';
import { clientSuites } from '../../suites/client/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The tests that sit directly in test/suites/, each about the packs as a whole rather than one suite, kit or client;
 * every other test of suites/ code sits in the folder of what it tests (test/suites/<suite, kit or client>/).
 */
const PACK_WIDE = [
  // Holds where every server and client check id is declared, and what a suite's folder and test/suites/ hold.
  'layout.test.ts',
  // In a clean run of every suite, and of the client pack, no check passes having judged nothing.
  'no-vacuous-pass.test.ts',
  // The requirement catalog against the spec, and against every check of both packs and every fault.
  'requirements.test.ts',
];

describe('the layout rule (issue 28)', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  const prefixed = (base: string, files: Record<string, string>) =>
    Object.fromEntries(Object.entries(files).map(([path, body]) => [`${base}/${path}`, body]));

  /** A fake package root holding these files under suites/, and `tests` under test/suites/. */
  function fake(files: Record<string, string>, tests: Record<string, string> = {}): string {
    dir = mkdtempSync(join(tmpdir(), 'conformance-layout-'));
    const all = { ...prefixed('suites', files), ...prefixed('test/suites', tests) };
    for (const [path, body] of Object.entries(all)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), body);
    }
    return dir;
  }

  const serverIds = ['demo.alpha.one', 'demo.alpha.two', 'demo.beta.three'];
  const clientIds = ['client.ask.first'];
  const good: Record<string, string> = {
    'index.ts': "export { demo } from './demo/index.js';\n",
    'kit/index.ts': 'export const kit = 1;\n',
    'client/index.ts': "import { askChecks } from './ask.js';\nimport './kit.js';\nexport const pack = [askChecks];\n",
    'client/kit.ts': 'export const session = 1;\n',
    'client/ask.ts': "export const askChecks = [{ id: 'client.ask.first' }];\n",
    'demo/index.ts':
      "import { alphaChecks } from './alpha.js';\nimport { beta } from './beta.js';\nexport const demo = [...alphaChecks, beta];\n",
    'demo/alpha.ts':
      "import { walk } from './helpers/walk.js';\nexport const alphaChecks = [{ id: 'demo.alpha.one', walk }, made('demo.alpha.two')];\n",
    'demo/beta.ts': "import { walk } from './helpers/walk.js';\nexport const beta = { id: 'demo.beta.three', walk };\n",
    'demo/helpers/walk.ts': 'export const walk = 1;\n',
  };

  it('passes a good layout: ids in the files the rule names, a factory given the literal id, helpers shared', () => {
    expect(layoutViolations({ root: fake(good), serverIds, clientIds })).toEqual([]);
  });

  it('names each break of a bad layout in one short line', () => {
    const root = fake({
      ...good,
      // An id built from a template, and the other one declared in a second file.
      'demo/alpha.ts':
        "const n = 'one';\nexport const alphaChecks = [{ id: `demo.alpha.${n}` }, { id: 'demo.alpha.two' }];\n",
      'demo/beta.ts': "export const beta = [{ id: 'demo.beta.three' }, { id: 'demo.alpha.two' }];\n",
      // helpers/ used by one area only, and a file that is neither an area nor a helper.
      'demo/helpers/walk.ts': 'export const walk = 1;\n',
      'demo/gamma.ts': "import { walk } from './helpers/walk.js';\nexport const g = walk;\n",
      // A stray file in suites/ and a file over the limit (the client area file is removed below).
      'old.ts': `${'// line\n'.repeat(12)}`,
    });
    rmSync(join(root, 'suites/client/ask.ts'));
    expect(layoutViolations({ root, serverIds, clientIds, maxLines: 10 }).sort()).toEqual(
      [
        "suites/demo/alpha.ts does not hold 1 id literally as '<id>': demo.alpha.one",
        'demo.alpha.two is declared in suites/demo/beta.ts; the rule names suites/demo/alpha.ts',
        'suites/demo/helpers/walk.ts is imported only by suites/demo/gamma.ts: its code belongs in that file',
        'suites/demo/gamma.ts is not index.ts, the file of an area of the demo ids or a file of helpers/',
        "suites/client/ask.ts does not exist: 1 id belongs there (client.ask.first), none declared as id: '<id>' anywhere under suites/",
        "suites/old.ts is not index.ts, kit/, client/ or a server suite's folder",
        'suites/old.ts has 12 lines (at most 10)',
      ].sort(),
    );
  });

  it('says where the ids of a missing area file are declared now, naming a few and counting the rest', () => {
    const root = fake({
      'index.ts': '',
      'demo.ts': `export const all = [${['one', 'two', 'four', 'five'].map((w) => `{ id: 'demo.alpha.${w}' }`).join(', ')}];\n`,
    });
    expect(
      layoutViolations({
        root,
        serverIds: ['demo.alpha.one', 'demo.alpha.two', 'demo.alpha.four', 'demo.alpha.five'],
        clientIds: [],
      }),
    ).toEqual([
      'suites/demo/alpha.ts does not exist: 4 ids belong there (demo.alpha.one, demo.alpha.two, demo.alpha.four, … 1 more), declared now in suites/demo.ts',
      "suites/demo.ts is not index.ts, kit/, client/ or a server suite's folder",
    ]);
  });

  const goodTests: Record<string, string> = {
    'layout.test.ts': '',
    'demo/alpha.test.ts': '',
    'kit/session.test.ts': '',
    'client/ask.test.ts': '',
  };

  it('passes tests laid out like suites/: a folder for a suite, the kit or the client pack, pack-wide tests alone at the top', () => {
    expect(testLayoutViolations({ root: fake(good, goodTests), packWide: ['layout.test.ts'] })).toEqual([]);
  });

  it('names each test out of its place in one short line', () => {
    const root = fake(good, {
      ...goodTests,
      // A test named by history at the top, a folder named for no folder of suites/, a folder inside a suite's tests,
      // and set-up that is not a test.
      'demo-gaps.test.ts': '',
      'alpha/one.test.ts': '',
      'demo/deep/two.test.ts': '',
      'demo/set-up.ts': '',
      'shared.ts': '',
    });
    expect(testLayoutViolations({ root, packWide: ['layout.test.ts', 'gone.test.ts'] })).toEqual([
      'test/suites/alpha/ is named for no folder of suites/ (a server suite, kit or client)',
      'test/suites/demo/deep/ is a folder: the tests of suites/demo/ sit in test/suites/demo/',
      'test/suites/demo/set-up.ts is not a test: shared set-up goes to test/helpers/',
      'test/suites/demo-gaps.test.ts is not about the packs as a whole: it goes in the folder of what it tests, test/suites/<suite, kit or client>/',
      'test/suites/shared.ts is not a test: shared set-up goes to test/helpers/',
      'test/suites/gone.test.ts is named as a test of the packs as a whole but does not exist',
    ]);
  });

  it('holds for the package: every server and client check id in the file the rule names', () => {
    const violations = layoutViolations({
      root: ROOT,
      serverIds: suites.flatMap((s) => s.checks.map((c) => c.id)),
      clientIds: clientSuites.flatMap((s) => s.checks.map((c) => c.id)),
    });
    if (violations.length > 0)
      expect.fail(
        `${violations.length} break${violations.length === 1 ? '' : 's'} of the layout rule (issue 28):\n${violations.join('\n')}`,
      );
  });

  it("holds for the package's tests: test/suites/ mirrors suites/, with only the pack-wide tests at its top", () => {
    const violations = testLayoutViolations({ root: ROOT, packWide: PACK_WIDE });
    if (violations.length > 0)
      expect.fail(
        `${violations.length} break${violations.length === 1 ? '' : 's'} of the layout rule for tests (issue 28):\n${violations.join('\n')}`,
      );
  });
});
