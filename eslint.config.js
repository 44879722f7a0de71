// ESLint: typescript-eslint's recommended rules, the import boundaries between the rooms (issue 16) and no import
// cycle. The rooms and their arrows:
//   src/engine/     runs any pack of suites; never imports suites/, src/report/ or src/reference/.
//   suites/kit/     the Investment-API toolbox; imports src/ (not src/report/, src/reference/), never a suite.
//   suites/…        a suite imports from src/ only src/engine/index.js, from the kit only suites/kit/index.js, and
//                   otherwise only files of its own folder (suites/index.ts, the pack, may take a suite folder's index).
//   src/reference/  the reference server; imports only src/http/, the schemas (src/schemas.ts, src/schema-compile.ts,
//                   src/paths.ts) and itself.
//   src/traffic/    traffic read from outside (HAR files, issue 30): only src/http/, src/errors.ts and itself.
//   src/…           below the pack but for the entry points, the commands and the matrices (abovePack): never suites/.
// The boundaries are import-x's no-restricted-paths zones: they compare resolved files, not import strings, so
// '../report/human.js' and '../../src/report/human.js' are the same import.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

const root = import.meta.dirname;
const at = (...parts) => path.join(root, ...parts);

// Each folder under suites/ but the kit is one suite's own folder (suites/ussd/, suites/webhooks/, …).
const suiteFolders = readdirSync(at('suites'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'kit')
  .map((entry) => entry.name);
// Every file under suites/ but the kit's: the pack's index.ts and each suite's folder (index.ts, its areas, helpers/).
const suiteFiles = [at('suites/*.{ts,js}'), ...suiteFolders.map((name) => at('suites', name))];

// The rooms of src/ above the pack, the only ones that import suites/: the library entry points (src/api.ts behind
// `conformance run`, src/client-api.ts behind `conformance client`, the package's face src/index.ts), the commands
// (src/cli/) and the matrices (src/matrix/). Everything else in src/ stands below the pack (the kit and the client pack
// import it), so an import of suites/ from there would run back up.
const abovePack = new Set(['api.ts', 'client-api.ts', 'judge-api.ts', 'index.ts', 'cli', 'matrix']);
// src/engine/ and src/reference/ are below it too; their own zones (below) say so in their words.
const belowPack = readdirSync(at('src'))
  .filter((name) => !abovePack.has(name) && name !== 'engine' && name !== 'reference')
  .map((name) => at('src', name));

const zones = [
  {
    target: at('src/engine'),
    from: [at('suites'), at('src/report'), at('src/reference')],
    message: 'src/engine/ knows no suite, reporter or reference server (issue 16: the engine runs any pack of suites).',
  },
  {
    target: suiteFiles,
    from: at('src'),
    except: ['./engine/index.ts'],
    message:
      'A suite imports from src/ only the engine’s face, src/engine/index.js; what else it needs comes through suites/kit/index.js.',
  },
  {
    target: suiteFiles,
    from: at('suites/kit'),
    except: ['./index.ts'],
    message: 'A suite uses the kit through its face, suites/kit/index.js.',
  },
  // A suite folder imports only its own files (and the two faces above).
  ...suiteFolders.map((name) => ({
    target: at('suites', name),
    from: at('suites'),
    except: [`./${name}`, './kit'],
    message: `suites/${name}/ imports only its own files, src/engine/index.js and suites/kit/index.js.`,
  })),
  // A top-level suite file takes another suite folder only through its index (the pack lists the suites).
  ...suiteFolders.map((name) => ({
    target: at('suites/*.{ts,js}'),
    from: at('suites', name),
    except: ['./index.ts'],
    message: `Outside suites/${name}/, the suite is imported through suites/${name}/index.js.`,
  })),
  {
    target: at('suites/kit'),
    from: [at('src/report'), at('src/reference')],
    message: 'suites/kit/ may use src/ except the reporters (src/report/) and the reference server (src/reference/).',
  },
  {
    target: at('suites/kit'),
    from: at('suites'),
    except: ['./kit'],
    message: 'suites/kit/ is the toolbox the suites use; it never imports a suite.',
  },
  {
    target: at('src/reference'),
    from: at('src'),
    except: ['./reference', './http', './schemas.ts', './schema-compile.ts', './paths.ts'],
    message:
      'src/reference/ imports only src/http/, the schemas (src/schemas.ts, src/schema-compile.ts, src/paths.ts) and itself.',
  },
  {
    target: at('src/reference'),
    from: at('suites'),
    message: 'src/reference/ never imports a suite.',
  },
  // The intercepting proxy (issue 30): below the commands that start it, above the HTTP client and the traffic type;
  // it knows no endpoint, check or pack (cli → proxy → traffic, http).
  {
    target: at('src/proxy'),
    from: at('src'),
    except: ['./proxy', './traffic', './http', './errors.ts'],
    message: 'src/proxy/ imports only src/traffic/, src/http/, src/errors.ts and itself.',
  },
  {
    target: at('src/traffic'),
    from: at('src'),
    except: ['./traffic', './http', './errors.ts'],
    message:
      'src/traffic/ (traffic read from outside: HAR files) imports only src/http/, src/errors.ts and itself: it knows no endpoint, check or report.',
  },
  {
    target: belowPack,
    from: at('suites'),
    message:
      'Only src/api.ts, src/client-api.ts, src/judge-api.ts, src/index.ts, src/cli/ and src/matrix/ stand above the pack and import suites/; the rest of src/ is below it.',
  },
];

export default defineConfig(
  {
    ignores: ['dist/', 'coverage/', 'out*/', '.conformance/', 'node_modules/'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX },
    settings: {
      // The files import-x follows (no-cycle walks the imports of imports) and the parser it reads them with.
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      // NodeNext: an import says '.js' for the '.ts' file beside it.
      'import-x/resolver-next': [
        createNodeResolver({ extensionAlias: { '.js': ['.ts', '.js'], '.mjs': ['.mts', '.mjs'] } }),
      ],
    },
    rules: {
      // This code exists to keep control characters out of terminals, XML and shells: matching them is the point.
      'no-control-regex': 'off',
      // A `let` read by a closure written before the value exists (a server handler, a timer a callback clears) stays a let.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Unused names are tsc's job (noUnusedLocals); the rule adds `_`-prefixed escapes only.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // Tests read whatever JSON a server or a report holds and poke at it: typing each body would add casts, not checks.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/**/*.ts', 'suites/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones }],
      // Type-only imports make no cycle at run time and are skipped.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // A function longer than a screen does several things: split it into named functions that each do one (issue 28).
      // Test files are exempt: a describe block is long by nature.
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
);
