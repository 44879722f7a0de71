// Where a check is declared, by the layout rule of issue 28: the id `<suite>.<area>.<what>` is written out literally
// in `suites/<suite>/<area>.ts`. The client pack follows the same rule (`client.<area>.<what>` in
// `suites/client/<area>.ts`). `list --json`, `explain` and `coverage` print it; test/suites/layout.test.ts holds it.

/** The file (relative to the package root, with `/`) that declares the check `id`. */
export function checkFile(id: string): string {
  const [suite, area, ...what] = id.split('.');
  if (!suite || !area || what.length === 0 || what.some((part) => part === ''))
    throw new Error(`check id "${id}" is not <suite>.<area>.<what>: the layout rule names no file for it`);
  return `suites/${suite}/${area}.ts`;
}
