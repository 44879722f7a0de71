// The layout rule of issue 28 (test/helpers/layout-rule.ts): a check id `<suite>.<area>.<what>` lives, written out
// literally, in `suites/<suite>/<area>.ts`; a server suite's folder holds only index.ts, its area files and helpers/
// shared by more than one of its files; no file under suites/ is over 700 lines. The rule is shown to pass a good
// layout and name each break of a bad one on small fake folders, then held on the package.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { layoutViolations } from '../helpers/layout-rule.js';
import { suites } from '../../suites/index.js';
import { clientSuites } from '../../suites/client/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the layout rule (issue 28)', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  /** A fake package root holding these files under suites/. */
  function fake(files: Record<string, string>): string {
    dir = mkdtempSync(join(tmpdir(), 'conformance-layout-'));
    for (const [path, body] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, 'suites', path)), { recursive: true });
      writeFileSync(join(dir, 'suites', path), body);
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
});
