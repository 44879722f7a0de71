// Every open point of the spec is a switch of the reference server, and the suite passes every reading: the choice
// registry against the catalog (every OPEN entry and every one of its readings has a switch, or a reason it cannot be
// shown), the committed choices matrix current and clean, docs/open-points.md current. A bundle run afresh is the
// sweep choices-sample.sweep.test.ts's; the whole matrix is `npm run matrix:check`'s. CI runs both.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { loadCatalog, findRequirement } from '../../src/catalog/requirements.js';
import { allChoices, parseChoice, resolveChoices, VARIANTS, ChoiceError } from '../../src/reference/choices/index.js';
import { UNSWITCHABLE } from '../../src/reference/choices/unswitchable.js';
import { SEEN_IN, UNSOURCED } from '../../src/reference/choices/seen-in.js';
import {
  choiceBundles,
  choicesFingerprint,
  choicesProblems,
  renderChoicesMatrix,
  type ChoicesJson,
} from '../../src/matrix/choices.js';
import { renderOpenPoints } from '../../src/matrix/open-points.js';
import { suites } from '../../suites/index.js';
import { choiceTable } from '../../src/cli/serve.js';

const catalog = loadCatalog();
const open = catalog.requirements.filter((r) => r.level === 'OPEN');
const choices = allChoices();
const doc = (): ChoicesJson =>
  JSON.parse(readFileSync(new URL('../../docs/choices-matrix.json', import.meta.url), 'utf8')) as ChoicesJson;

describe('the choice registry against the requirement catalog', () => {
  it('gives every open point of the catalog a switch, or a reason no switch can show it', () => {
    for (const r of open) {
      const switched = choices.some((c) => c.def.requirements.includes(r.id));
      expect(
        switched || UNSWITCHABLE[r.id] !== undefined,
        `${r.id} "${r.quote}": no choice cites it and it is not in UNSWITCHABLE`,
      ).toBe(true);
      expect(switched && UNSWITCHABLE[r.id] !== undefined, `${r.id}: switched and called unswitchable`).toBe(false);
    }
  });

  it('realizes every reading of every switchable open point by some value', () => {
    for (const r of open.filter((x) => UNSWITCHABLE[x.id] === undefined)) {
      const values = choices.filter((c) => c.def.requirements.includes(r.id)).flatMap((c) => c.def.values);
      for (const reading of r.readings ?? [])
        expect(
          values.some((v) => v.realizes.includes(reading)),
          `${r.id}: no value realizes "${reading}"`,
        ).toBe(true);
    }
  });

  it('names only catalog requirements and their own readings; two readings at least, distinct values, records that compile', () => {
    for (const c of choices) {
      const reqs = c.def.requirements.map((id) => findRequirement(id));
      expect(reqs.every(Boolean), `${c.name} cites an unknown requirement`).toBe(true);
      expect(
        c.def.requirements.length > 0 || c.def.basis !== undefined,
        `${c.name}: neither a requirement nor a basis`,
      ).toBe(true);
      expect(
        reqs.some((r) => r!.level === 'OPEN') || c.def.basis !== undefined,
        `${c.name}: cites no OPEN requirement, so it must say in basis why the point is open`,
      ).toBe(true);
      expect(c.def.values.length, c.name).toBeGreaterThanOrEqual(2);
      expect(new Set(c.def.values.map((v) => v.value)).size, `${c.name}: repeated value`).toBe(c.def.values.length);
      const readings = new Set(reqs.flatMap((r) => r!.readings ?? []));
      for (const v of c.def.values) {
        for (const reading of v.realizes)
          expect(
            readings.has(reading),
            `${c.name}=${v.value} realizes "${reading}", not a reading of ${c.def.requirements.join(', ')}`,
          ).toBe(true);
        expect(() => new RegExp(v.recorded, 'i'), `${c.name}=${v.value}`).not.toThrow();
        expect(v.recorded.length, `${c.name}=${v.value}: empty record`).toBeGreaterThan(0);
      }
    }
  });

  it('names where real APIs take the readings: every source a value there is, every open point sourced or saying why not', () => {
    const values = new Set(choices.flatMap((c) => c.def.values.map((v) => `${c.name}=${v.value}`)));
    for (const [key, sources] of Object.entries(SEEN_IN)) {
      expect(values.has(key), `SEEN_IN names ${key}, no such choice value`).toBe(true);
      expect(sources.length, key).toBeGreaterThan(0);
      for (const s of sources) {
        expect(s.url, key).toMatch(/^https:\/\//i);
        expect(s.who.length * s.says.length, key).toBeGreaterThan(0);
      }
    }
    for (const r of open) {
      const sourced = choices
        .filter((c) => c.def.requirements.includes(r.id))
        .some((c) => c.def.values.some((v) => SEEN_IN[`${c.name}=${v.value}`] !== undefined));
      expect(
        sourced || UNSOURCED[r.id] !== undefined,
        `${r.id}: no reading seen in a real API, and no UNSOURCED reason`,
      ).toBe(true);
      expect(sourced && UNSOURCED[r.id] !== undefined, `${r.id}: sourced and listed as UNSOURCED`).toBe(false);
    }
  });

  it('lists, in serve --list-choices, every choice with its readings and every open point of the catalog', () => {
    const table = choiceTable();
    for (const r of open) expect(table, r.id).toContain(r.id);
    for (const c of choices)
      for (const v of c.def.values) expect(table, `${c.name}=${v.value}`).toContain(`${c.name}=${v.value}`);
  });

  it('names in hiddenBy only choices and readings there are', () => {
    for (const c of choices) {
      for (const h of c.def.hiddenBy ?? []) {
        const other = choices.find((o) => o.key === h.choice);
        expect(
          other?.def.values.some((v) => v.value === h.value),
          `${c.name} hidden by ${h.choice}=${h.value}`,
        ).toBe(true);
        expect(() => new RegExp(h.recorded, 'i')).not.toThrow();
      }
    }
  });

  it('parses --choice NAME=VALUE, refuses unknown names and values in one line, and lays choices over a variant', () => {
    const [first] = choices;
    const second = first!.def.values[1]!.value;
    expect(parseChoice(`${first!.name}=${second}`)).toEqual({ [first!.key]: second });
    expect(() => parseChoice('no-such-choice=1')).toThrow(ChoiceError);
    expect(() => parseChoice(`${first!.name}=no-such-value`)).toThrow(/takes .+; got "no-such-value"/);
    expect(resolveChoices('alt', { pageMode: 'index' }).pageMode).toBe('index');
    expect(resolveChoices('alt').pageMode).toBe(VARIANTS.alt.pageMode);
  });
});

describe('the committed choices matrix (docs/choices-matrix.json)', () => {
  it('was made with the choices and checks there are now, over every bundle, and shows no problem', () => {
    const committed = doc();
    expect(committed.fingerprint, 'stale: run npm run matrix and commit docs/').toBe(choicesFingerprint(suites));
    expect(committed.bundles.map((b) => b.name)).toEqual(choiceBundles().map((b) => b.name));
    expect(choicesProblems(committed)).toEqual([]);
    expect(readFileSync(new URL('../../docs/choices-matrix.md', import.meta.url), 'utf8')).toBe(
      renderChoicesMatrix(committed),
    );
  });

  it('has docs/open-points.md drawn from the catalog and the choices as they are now', () => {
    expect(readFileSync(new URL('../../docs/open-points.md', import.meta.url), 'utf8')).toBe(renderOpenPoints());
  });
});
