// What a partner installs is the packed tarball, not this clone: every file the README, the CLI's --help texts and its
// messages point a reader to must be in it. The pointers are collected, not listed by hand: the README's Markdown
// links and the paths it names, the paths every command's --help names, and the paths in the string literals of src/
// and suites/ (the messages the CLI can print), then the links of each packed Markdown file in turn. The packed file
// list is `npm pack --dry-run`'s own (local, no network).
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  bin: Record<string, string>;
  scripts: Record<string, string>;
};

/**
 * The repository's top-level folders that hold its own development, never a partner's reading: a mention of them
 * (`test/e2e/hostile.sweep.test.ts`, `src/`) describes the clone. Every other top-level folder is what the package ships,
 * and a path into it must be packed. A new folder fails the test below until it is placed on one side.
 */
const DEVELOPMENT_FOLDERS = ['src', 'suites', 'test', 'scripts', 'bench', 'dist', 'node_modules'];
const SHIPPED_FOLDERS = readdirSync(ROOT, { withFileTypes: true })
  .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !DEVELOPMENT_FOLDERS.includes(e.name))
  .map((e) => e.name);

/** A path into a shipped folder (`docs/errors.md`, `schemas/`), not part of a longer path such as `test/fixtures/…`. */
const SHIPPED_PATH = new RegExp(`(?<![\\w./-])(?:${SHIPPED_FOLDERS.join('|')})/[\\w./*-]*`, 'g');
/** `node_modules/<package>/<path>`: where a project that installed the package finds one of its files. */
const INSTALLED_PATH = /node_modules\/((?:@[\w.-]+\/)?[\w.-]+)\/([\w./-]+)/g;

interface Pointer {
  /** A path relative to the package root; ending in `/` or `*`, a folder or pattern any packed file may satisfy. */
  path: string;
  /** Where the pointer was found, for the failure message. */
  from: string;
}

/** The relative targets of a Markdown text's links: inline `[t](target)`, images, and `[ref]: target` definitions. */
function markdownLinks(markdown: string): string[] {
  const targets = [
    ...[...markdown.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
    ...[...markdown.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!),
  ];
  return targets
    .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('#'))
    .map((t) => decodeURIComponent(t.replace(/[#?].*$/, '')));
}

/** The paths a text names: into a shipped folder, and into the installed package (under its name). */
function namedPaths(text: string, from: string): { pointers: Pointer[]; installedAs: string[] } {
  const clean = (p: string) => p.replace(/[.,;:]+$/, '');
  const pointers = [...text.matchAll(SHIPPED_PATH)].map((m) => ({ path: clean(m[0]), from }));
  const installedAs: string[] = [];
  for (const m of text.matchAll(INSTALLED_PATH)) {
    installedAs.push(m[1]!);
    pointers.push({ path: clean(m[2]!), from: `${from} (node_modules/${m[1]}/…)` });
  }
  return { pointers, installedAs };
}

/** The text of every string and template literal of a TypeScript file: what its messages and outputs can say. */
function stringLiterals(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) found.push(node.text);
    node.forEachChild(visit);
  };
  visit(source);
  return found;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
}

function packedFiles(): Promise<string[]> {
  return new Promise((resolve, reject) => {
    // --ignore-scripts: list what `files` packs without building again (npm test has built dist/ already).
    execFile(
      'npm',
      ['pack', '--dry-run', '--json', '--ignore-scripts'],
      { cwd: ROOT, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`npm pack --dry-run failed: ${stderr}`));
        const [pack] = JSON.parse(stdout) as Array<{ name: string; files: Array<{ path: string }> }>;
        resolve(pack!.files.map((f) => f.path));
      },
    );
  });
}

/** Every command's --help, the commands read from the top-level --help. */
async function helpTexts(): Promise<Array<{ command: string; text: string }>> {
  const top = await runCli(['--help']);
  expect(top.code).toBe(0);
  const commands = [...top.stdout.slice(top.stdout.indexOf('\nCommands:\n')).matchAll(/^ {2}([a-z][\w-]*)/gm)]
    .map((m) => m[1]!)
    .filter((c) => c !== 'help');
  const texts = await Promise.all(
    commands.map(async (command) => {
      const r = await runCli([command, '--help']);
      expect(r.code, `${command} --help`).toBe(0);
      return { command, text: r.stdout };
    }),
  );
  return [{ command: '', text: top.stdout }, ...texts];
}

let packed: string[];
let help: Array<{ command: string; text: string }>;
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

beforeAll(async () => {
  [packed, help] = await Promise.all([packedFiles(), helpTexts()]);
});

function isPacked(path: string): boolean {
  const p = posix.normalize(path).replace(/^\.\//, '');
  if (p.endsWith('/')) return packed.some((f) => f.startsWith(p));
  if (p.includes('*')) {
    const pattern = new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
    return packed.some((f) => pattern.test(f));
  }
  return packed.includes(p);
}

function missing(pointers: Pointer[]): string[] {
  return [...new Set(pointers.filter((p) => !isPacked(p.path)).map((p) => `${p.path} (named in ${p.from})`))];
}

describe('the packed tarball', () => {
  it('is named as package.json says, with the bin conformance, and places every top-level folder on one side', () => {
    expect(PACKAGE.bin).toEqual({ conformance: 'bin/conformance.js' });
    expect(isPacked(PACKAGE.bin.conformance!)).toBe(true);
    expect(SHIPPED_FOLDERS.sort()).toEqual(['bin', 'docs', 'examples', 'fixtures', 'schemas', 'spec']);
    for (const folder of SHIPPED_FOLDERS) expect(isPacked(`${folder}/`), folder).toBe(true);
    // The sources and tests stay in the clone (dist/ carries the compiled code; bench/ ships its RESULTS.md only).
    for (const folder of ['src', 'suites', 'test', 'scripts']) expect(isPacked(`${folder}/`), folder).toBe(false);
  });

  it("holds every file the README links to or names, and names the package's install folder by its name", () => {
    const links = markdownLinks(readme).map((path) => ({ path, from: 'README.md (link)' }));
    const { pointers, installedAs } = namedPaths(readme, 'README.md');
    // The README links to the docs a partner needs; a collection that found none would prove nothing.
    expect(links.map((l) => l.path)).toEqual(
      expect.arrayContaining([
        'docs/webhook-receiver.md',
        'docs/errors.md',
        'docs/json-report.md',
        'docs/reference-server.md',
        'docs/open-points.md',
        'spec/requirements.json',
      ]),
    );
    expect(pointers.map((p) => p.path)).toEqual(
      expect.arrayContaining(['schemas/report.schema.json', 'schemas/expected-failures.schema.json']),
    );
    // Named at least once, and only by the package's name (the README names it for each file it points into).
    expect([...new Set(installedAs)]).toEqual([PACKAGE.name]);
    expect(missing([...links, ...pointers])).toEqual([]);
    // The install the README's first section gives uses the same name.
    expect(readme).toContain(`npm install --save-dev ${PACKAGE.name}\n`);
  });

  it('holds every file the --help of every command names', () => {
    expect(help.map((h) => h.command)).toEqual(expect.arrayContaining(['', 'run', 'serve', 'init', 'keygen']));
    const found = help.flatMap((h) => namedPaths(h.text, `conformance ${h.command} --help`.replace('  ', ' ')));
    for (const f of found) expect(f.installedAs.every((name) => name === PACKAGE.name)).toBe(true);
    expect(missing(found.flatMap((f) => f.pointers))).toEqual([]);
  });

  it('holds every file a message of the CLI, the engine or a suite names (string literals of src/ and suites/)', () => {
    const found = [...tsFiles(join(ROOT, 'src')), ...tsFiles(join(ROOT, 'suites'))].flatMap((file) =>
      stringLiterals(file).map((text) => namedPaths(text, relative(ROOT, file))),
    );
    const pointers = found.flatMap((f) => f.pointers);
    // Among them, those the issue names: serve's receiver line, the open points, the schemas, the catalog.
    expect(pointers.map((p) => p.path)).toEqual(
      expect.arrayContaining(['docs/webhook-receiver.md', 'docs/open-points.md', 'spec/requirements.json']),
    );
    for (const f of found) expect(f.installedAs.every((name) => name === PACKAGE.name)).toBe(true);
    expect(missing(pointers)).toEqual([]);
  });

  it('holds every file a packed Markdown file links to', () => {
    const links = packed
      .filter((f) => f.endsWith('.md'))
      .flatMap((f) =>
        markdownLinks(readFileSync(join(ROOT, f), 'utf8')).map((target) => ({
          path: posix.join(dirname(f), target),
          from: `${f} (link)`,
        })),
      );
    expect(links.length).toBeGreaterThan(0);
    expect(missing(links)).toEqual([]);
  });

  it('runs no script when installed: the build is in prepack, not prepare (a clone builds in "dependencies")', () => {
    // npm lists preinstall, install, postinstall, and prepare for a tarball or git source, as "install scripts not yet
    // covered by allowScripts": a security review stops there. "dependencies" runs only in the project's own root.
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(PACKAGE.scripts[script], script).toBeUndefined();
    expect(PACKAGE.scripts.prepack).toBe('npm run build');
    expect(PACKAGE.scripts.dependencies).toBe('npm run build');
  });

  it('holds no source map, and no compiled file names one, whose target is not in it', () => {
    const js = packed.filter((f) => f.endsWith('.js'));
    expect(js.length).toBeGreaterThan(100);
    const dangling: string[] = [];
    for (const file of js) {
      const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(join(ROOT, file), 'utf8'))?.[1];
      if (url !== undefined && !url.startsWith('data:') && !isPacked(posix.join(dirname(file), url)))
        dangling.push(`${file} -> ${url}`);
    }
    for (const map of packed.filter((f) => f.endsWith('.map'))) {
      const { sources = [], sourceRoot = '' } = JSON.parse(readFileSync(join(ROOT, map), 'utf8')) as {
        sources?: string[];
        sourceRoot?: string;
      };
      for (const source of sources) {
        const target = posix.join(dirname(map), sourceRoot, source);
        if (!isPacked(target)) dangling.push(`${map} -> ${target}`);
      }
    }
    expect(dangling).toEqual([]);
  });
});
