// The lint that keeps the rooms apart (issue 16 item 9): eslint.config.js fails an import that crosses a boundary and
// an import cycle. Source text is linted as if it lived at a path of the project (ESLint's lintText with a filePath),
// so the boundaries are judged by where the file would be; the cycle is two fixture files importing each other.
import { beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const root = fileURLToPath(new URL('../..', import.meta.url));
const configFile = fileURLToPath(new URL('../../eslint.config.js', import.meta.url));
let eslint: ESLint;
/**
 * The project's config with import-x/no-cycle off, for the boundary texts: no-cycle parses every file the text imports
 * and the imports of those (the whole project, ~10 s of CPU for the first text), and the boundary tests read only
 * import-x/no-restricted-paths. The cycle tests below use the config as it is.
 */
let boundaries: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root, overrideConfigFile: configFile });
  boundaries = new ESLint({
    cwd: root,
    overrideConfigFile: configFile,
    overrideConfig: { rules: { 'import-x/no-cycle': 'off' } },
  });
});

/** The messages of one rule when `code` is linted as the file at `filePath` (relative to the project). */
async function messages(code: string, filePath: string, rule: string): Promise<string[]> {
  const [result] = await boundaries.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === rule).map((m) => m.message);
}

const boundary = (code: string, filePath: string) => messages(code, filePath, 'import-x/no-restricted-paths');

describe('import boundaries', () => {
  it('fail an engine file that imports a reporter, a suite or the reference server', async () => {
    const found = await boundary(
      [
        "import { HumanReporter } from '../report/human.js';",
        "import { suites } from '../../suites/index.js';",
        "import { startReferenceServer } from '../reference/server.js';",
        'export const all = [HumanReporter, suites, startReferenceServer];',
      ].join('\n'),
      'src/engine/x.ts',
    );
    expect(found).toHaveLength(3);
    for (const m of found) expect(m).toContain('src/engine/ knows no suite, reporter or reference server');
  });

  it('let an engine file import the rest of the engine and src/http/', async () => {
    const code =
      "import { defineCheck } from './check.js';\nimport { SignedClient } from '../http/client.js';\nexport const x = [defineCheck, SignedClient];";
    expect(await boundary(code, 'src/engine/x.ts')).toEqual([]);
  });

  it('fail a suite file that imports a module of src/ other than the engine’s face, or the kit past its face', async () => {
    const deep = await boundary(
      "import { SignedClient } from '../src/http/client.js';\nexport const x = SignedClient;",
      'suites/x.ts',
    );
    expect(deep).toEqual([expect.stringContaining('A suite imports from src/ only the engine’s face')]);
    const kit = await boundary(
      "import { tokenRequest } from './kit/session.js';\nexport const x = tokenRequest;",
      'suites/x.ts',
    );
    expect(kit).toEqual([expect.stringContaining('A suite uses the kit through its face')]);
    const engine = await boundary(
      "import { defineCheck } from '../../src/engine/check.js';\nexport const x = defineCheck;",
      'suites/ussd/x.ts',
    );
    expect(engine).toEqual([expect.stringContaining('A suite imports from src/ only the engine’s face')]);
  });

  it('fail a suite folder that imports another suite’s files', async () => {
    const found = await boundary(
      "import webhooks from '../webhooks/index.js';\nexport const x = webhooks;",
      'suites/ussd/x.ts',
    );
    expect(found).toEqual([expect.stringContaining('suites/ussd/ imports only its own files')]);
  });

  it('let a suite import the two faces and its own folder', async () => {
    const code = [
      "import { defineCheck } from '../../src/engine/index.js';",
      "import { expectStatus } from '../kit/index.js';",
      "import { crawl } from './crawler.js';",
      'export const x = [defineCheck, expectStatus, crawl];',
    ].join('\n');
    expect(await boundary(code, 'suites/ussd/x.ts')).toEqual([]);
  });

  it('fail the reference server importing anything of src/ but src/http/ and the schemas', async () => {
    const found = await boundary(
      "import { HumanReporter } from '../report/human.js';\nexport const x = HumanReporter;",
      'src/reference/x.ts',
    );
    expect(found).toEqual([expect.stringContaining('src/reference/ imports only src/http/')]);
    const allowed =
      "import { SignedClient } from '../http/client.js';\nimport { compiledSchemaPath } from '../schemas.js';\nexport const x = [SignedClient, compiledSchemaPath];";
    expect(await boundary(allowed, 'src/reference/x.ts')).toEqual([]);
  });

  it('fail the proxy importing the engine, the reference server or a reporter; let it import traffic, http, errors', async () => {
    // One import per [name, module] and an export of them all, linted as a file of src/proxy/.
    const proxyFile = (imports: Array<[string, string]>) =>
      boundary(
        `${imports.map(([name, from]) => `import { ${name} } from '${from}';`).join('\n')}\nexport const x = [${imports.map(([n]) => n).join(', ')}];`,
        'src/proxy/x.ts',
      );
    const refused = await proxyFile([
      ['runChecks', '../engine/index.js'],
      ['startReferenceServer', '../reference/server.js'],
      ['HumanReporter', '../report/human.js'],
    ]);
    expect(refused).toEqual(
      Array(3).fill(expect.stringContaining('src/proxy/ imports only src/traffic/, src/http/, src/errors.ts')),
    );
    const allowed = await proxyFile([
      ['SignedClient', '../http/client.js'],
      ['ProxyCaError', '../errors.js'],
      ['leafFor', './ca.js'],
      ['TrafficExchange', '../traffic/exchange.js'],
    ]);
    expect(allowed).toEqual([]);
  });
});

describe('the pack stands above the rest of src/', () => {
  it('fails a file of src/ below the pack (the client harness, the receiver, a top-level module) that imports suites/', async () => {
    for (const filePath of ['src/client/x.ts', 'src/receiver/x.ts', 'src/reports.ts']) {
      const depth = filePath.split('/').length - 1;
      const found = await boundary(
        `import { clientPack } from '${'../'.repeat(depth)}suites/client/index.js';\nexport const x = clientPack;`,
        filePath,
      );
      expect(found, filePath).toEqual([expect.stringContaining('stand above the pack and import suites/')]);
    }
  });

  it('lets the entry points, the commands and the matrices import the packs', async () => {
    for (const filePath of ['src/client-api.ts', 'src/api.ts', 'src/cli/x.ts', 'src/matrix/x.ts']) {
      const depth = filePath.split('/').length - 1;
      const code = `import { clientPack } from '${'../'.repeat(depth)}suites/client/index.js';\nexport const x = clientPack;`;
      expect(await boundary(code, filePath), filePath).toEqual([]);
    }
  });
});

describe('import cycles', () => {
  it('are errors in src/ and suites/', async () => {
    for (const file of ['src/x.ts', 'src/engine/x.ts', 'suites/x.ts', 'suites/kit/x.ts']) {
      expect((await eslint.calculateConfigForFile(file)).rules?.['import-x/no-cycle']?.[0], file).toBe(2);
    }
  });

  it('fail two files that import each other (test/fixtures/lint-cycle/)', async () => {
    // The fixtures lie outside src/ and suites/, where the rule is on: the same rule and settings, switched on for them.
    const cycles = new ESLint({
      cwd: root,
      overrideConfigFile: fileURLToPath(new URL('../../eslint.config.js', import.meta.url)),
      overrideConfig: { files: ['test/fixtures/lint-cycle/**'], rules: { 'import-x/no-cycle': 'error' } },
    });
    const results = await cycles.lintFiles(['test/fixtures/lint-cycle/']);
    const found = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId === 'import-x/no-cycle')
        .map((m) => `${r.filePath.slice(root.length)}: ${m.message}`),
    );
    expect(found).toEqual([
      'test/fixtures/lint-cycle/a.ts: Dependency cycle detected',
      'test/fixtures/lint-cycle/b.ts: Dependency cycle detected',
    ]);
  });
});
