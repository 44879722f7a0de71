// The layout rule of issue 28, as a function over a folder: what in `<root>/suites/` breaks it, one short line each.
// test/suites/layout.test.ts runs it on the package and on small fake folders (to show it passes a good layout and
// names each break of a bad one).
//
// The rule:
// - a check id `<suite>.<area>.<what>` is written out literally (`'<id>'`, in quotes) in `suites/<suite>/<area>.ts`
//   (src/check-file.ts), and no other file under suites/ declares it (`id: '<id>'`); the client pack alike;
// - a server suite's folder holds only `index.ts`, one `<area>.ts` per area of its ids, and `helpers/`, whose files are
//   each imported by more than one file of that folder (else the code belongs to the one area that uses it);
// - suites/ itself holds only `index.ts` (the pack), `kit/`, `client/` and the server suites' folders;
// - no file under suites/ is over 700 lines.
// And for the tests of the packs (testLayoutViolations), mirroring suites/:
// - each folder of test/suites/ is named for a folder of suites/ (a server suite, kit or client) and holds that
//   folder's tests, directly (no folder inside it);
// - a test sits directly in test/suites/ only when it is about the packs as a whole (a list the caller gives, each
//   with why), and each test so named exists;
// - test/suites/ holds only tests (`*.test.ts`): shared set-up goes to test/helpers/.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { checkFile } from '../../src/check-file.js';

export interface LayoutInput {
  /** The folder holding `suites/` (the package root). */
  root: string;
  /** Every check id of the server pack. */
  serverIds: readonly string[];
  /** Every check id of the client pack (`client.<area>.<what>`). */
  clientIds: readonly string[];
  /** The longest a file under suites/ may be; 700 lines by default. */
  maxLines?: number;
}

const MAX_LINES = 700;
/** At most this many ids are named in one line; the rest are counted. */
const SHOWN = 3;

/** What in `<root>/suites/` breaks the layout rule: one line per break, empty when it holds. */
export function layoutViolations(input: LayoutInput): string[] {
  const { root } = input;
  const maxLines = input.maxLines ?? MAX_LINES;
  const files = filesUnder(join(root, 'suites')).map((f) => toPosix(relative(root, f)));
  const text = new Map(files.map((f) => [f, readFileSync(join(root, f), 'utf8')]));
  const out: string[] = [];

  // Where each id is declared today (`id: '<id>'`), to say where the ids of a missing file are.
  const declaredIn = new Map<string, string[]>();
  for (const [file, body] of text)
    for (const m of body.matchAll(/\bid:\s*'([^'\n]+)'/g))
      declaredIn.set(m[1]!, [...(declaredIn.get(m[1]!) ?? []), file]);

  // 1. Each id in the file the rule names, literally; no other file declares it.
  const ids = [...input.serverIds, ...input.clientIds];
  const byFile = new Map<string, string[]>();
  for (const id of ids) byFile.set(checkFile(id), [...(byFile.get(checkFile(id)) ?? []), id]);
  for (const [file, owned] of byFile) {
    const body = text.get(file);
    if (body === undefined) {
      const now = [...new Set(owned.flatMap((id) => declaredIn.get(id) ?? []))];
      out.push(
        `${file} does not exist: ${count(owned.length, 'id')} ${owned.length === 1 ? 'belongs' : 'belong'} there (${shown(owned)}), ${now.length > 0 ? `declared now in ${now.join(', ')}` : "none declared as id: '<id>' anywhere under suites/"}`,
      );
      continue;
    }
    const missing = owned.filter((id) => !body.includes(`'${id}'`));
    if (missing.length > 0)
      out.push(`${file} does not hold ${count(missing.length, 'id')} literally as '<id>': ${shown(missing)}`);
    for (const id of owned) {
      const elsewhere = (declaredIn.get(id) ?? []).filter((f) => f !== file);
      if (elsewhere.length > 0) out.push(`${id} is declared in ${elsewhere.join(', ')}; the rule names ${file}`);
    }
  }

  // 2. A server suite's folder: index.ts, its area files, helpers/ used by more than one of its files.
  const suiteAreas = new Map<string, Set<string>>();
  for (const id of input.serverIds) {
    const [suite, area] = id.split('.') as [string, string];
    suiteAreas.set(suite, (suiteAreas.get(suite) ?? new Set()).add(area));
  }
  for (const [suite, areas] of suiteAreas) {
    const folder = `suites/${suite}`;
    if (!existsSync(join(root, folder))) continue; // its ids' files are missing: said above
    if (!text.has(`${folder}/index.ts`)) out.push(`${folder}/index.ts does not exist: it declares the suite`);
    const own = files.filter((f) => f.startsWith(`${folder}/`));
    for (const file of own) {
      const inside = file.slice(folder.length + 1);
      if (
        inside === 'index.ts' ||
        (!inside.includes('/') && areas.has(inside.replace(/\.ts$/, '')) && inside.endsWith('.ts'))
      )
        continue;
      if (/^helpers\/[^/]+\.ts$/.test(inside)) {
        const users = own.filter((f) => f !== file && importsOf(f, text.get(f)!).includes(file));
        if (users.length < 2)
          out.push(
            users.length === 0
              ? `${file} is imported by no file of ${folder}/`
              : `${file} is imported only by ${users[0]}: its code belongs in that file`,
          );
        continue;
      }
      out.push(`${file} is not index.ts, the file of an area of the ${suite} ids or a file of helpers/`);
    }
  }

  // 3. suites/ itself: the pack, the kit, the client pack and the server suites' folders.
  const allowed = new Set(['index.ts', 'kit', 'client', ...suiteAreas.keys()]);
  for (const entry of readdirSync(join(root, 'suites')))
    if (!allowed.has(entry)) out.push(`suites/${entry} is not index.ts, kit/, client/ or a server suite's folder`);

  // 4. No file over the limit.
  for (const [file, body] of text) {
    const lines = body.split('\n').length - (body.endsWith('\n') ? 1 : 0);
    if (lines > maxLines) out.push(`${file} has ${lines} lines (at most ${maxLines})`);
  }
  return out;
}

export interface TestLayoutInput {
  /** The folder holding `suites/` and `test/suites/` (the package root). */
  root: string;
  /** The tests that may sit directly in test/suites/ (file names), those about the packs as a whole. */
  packWide: readonly string[];
}

/** What in `<root>/test/suites/` breaks the layout rule for tests: one line per break, empty when it holds. */
export function testLayoutViolations(input: TestLayoutInput): string[] {
  const tests = join(input.root, 'test', 'suites');
  const folders = new Set(
    readdirSync(join(input.root, 'suites')).filter((e) => statSync(join(input.root, 'suites', e)).isDirectory()),
  );
  const out: string[] = [];
  for (const entry of readdirSync(tests).sort()) {
    const path = join(tests, entry);
    if (statSync(path).isDirectory()) {
      if (!folders.has(entry))
        out.push(`test/suites/${entry}/ is named for no folder of suites/ (a server suite, kit or client)`);
      for (const inner of readdirSync(path).sort()) {
        if (statSync(join(path, inner)).isDirectory())
          out.push(
            `test/suites/${entry}/${inner}/ is a folder: the tests of suites/${entry}/ sit in test/suites/${entry}/`,
          );
        else if (!inner.endsWith('.test.ts'))
          out.push(`test/suites/${entry}/${inner} is not a test: shared set-up goes to test/helpers/`);
      }
    } else if (!entry.endsWith('.test.ts'))
      out.push(`test/suites/${entry} is not a test: shared set-up goes to test/helpers/`);
    else if (!input.packWide.includes(entry))
      out.push(
        `test/suites/${entry} is not about the packs as a whole: it goes in the folder of what it tests, test/suites/<suite, kit or client>/`,
      );
  }
  for (const name of input.packWide)
    if (!existsSync(join(tests, name)))
      out.push(`test/suites/${name} is named as a test of the packs as a whole but does not exist`);
  return out;
}

/** The files under suites/ a file imports (relative imports, `.js` read as the `.ts` beside it). */
function importsOf(file: string, body: string): string[] {
  const specs = [...body.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specs.map((s) => posix.normalize(posix.join(posix.dirname(file), s.replace(/\.js$/, '.ts'))));
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function shown(ids: readonly string[]): string {
  return ids.length > SHOWN ? `${ids.slice(0, SHOWN).join(', ')}, … ${ids.length - SHOWN} more` : ids.join(', ');
}
