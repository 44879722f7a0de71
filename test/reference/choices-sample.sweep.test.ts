// A bundle of the choices matrix run afresh (a sweep: `npm run test:sweeps`): one that changes many choices at once must
// still give 0 failures, 0 warnings and every reading recorded, as docs/choices-matrix.json holds it. The committed
// matrix against the registry is choices.test.ts's (npm test); every bundle is `npm run matrix:check`'s (CI).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { bundleRow, choiceBundles, runBundle, type ChoicesJson } from '../../src/matrix/choices.js';
import { suites } from '../../suites/index.js';
import { DELIVERY_DEADLINE_MS } from '../helpers/waits.js';

const doc = (): ChoicesJson =>
  JSON.parse(readFileSync(new URL('../../docs/choices-matrix.json', import.meta.url), 'utf8')) as ChoicesJson;

describe('a bundle of the choices matrix, run afresh', () => {
  // One bundle that changes many choices at once (all-second alone takes half a minute of a worker).
  it.each(['random-1'])(
    'runs bundle %s afresh: 0 failures, 0 warnings, every reading recorded, as committed',
    async (name) => {
      const bundle = choiceBundles().find((b) => b.name === name)!;
      // Beside other tests a delivery can take seconds; neither bundle waits one out, so a longer deadline costs nothing.
      const row = bundleRow(bundle, await runBundle(suites, bundle, DELIVERY_DEADLINE_MS));
      expect(row.problems).toEqual([]);
      expect(row.unrecorded).toEqual([]);
      expect(row.choices).toEqual(doc().bundles.find((b) => b.name === name)!.choices);
    },
  );
});
