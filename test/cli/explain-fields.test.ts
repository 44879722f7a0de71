// `conformance explain` reads what each check declares (explain.sends/passes/fails), never its title: every check of
// every suite declares the three texts, rewording a title changes no explanation, and none of the slips the old
// derivation from titles made (",, correct in every other respect", "it looks at", "as the title describes") is left.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { explain, explainCheck } from '../../src/cli/explain.js';
import { parseSpec } from '../../src/catalog/sections.js';
import { suites } from '../../suites/index.js';
import { explainFails } from '../../src/engine/index.js';

const SECTIONS = parseSpec(readFileSync(new URL('../../spec/investment-api.md', import.meta.url), 'utf8'));
const checks = suites.flatMap((s) => s.checks);
const FIELDS = ['sends', 'passes', 'fails'] as const;

/** What the title-based derivation left behind when its regular expressions guessed wrong. */
const ARTEFACTS: Array<[RegExp, string]> = [
  [/,,/, 'a doubled comma (a title ending in ", is rejected")'],
  [/\s[,;]/, 'a space before a comma or semicolon'],
  [/as the title describes/, "the derivation's INFO wording"],
  [/; it looks at /, "the derivation's INFO wording"],
  [/\b(?:rejects|refuses) it \(4xx\)/, 'a title\'s "is rejected (4xx)" turned into "rejects it (4xx)"'],
  [
    /\b(?:rejects|refuses) it, (?:not|never)\b/,
    'a title\'s "is rejected, not a crash" turned into "rejects it, not a crash"',
  ],
  [
    /show that (?:subscribed|with|without)\b/,
    'a title that is no statement put after "the server\'s answers show that"',
  ],
  [/show that [A-Z][a-z]/, 'a capitalised title put after "show that"'],
];

describe('explain reads the declaration', () => {
  it('finds sends, passes and fails declared on every check of every suite, none empty, none left from the title derivation', () => {
    expect(checks.length).toBeGreaterThan(100);
    const missing = checks.filter((c) => c.explain === undefined).map((c) => c.id);
    expect(missing, 'checks without explain: {sends, passes, fails}').toEqual([]);
    for (const c of checks) {
      // What explain states: the declared texts, `fails` with the clause its level shares (explainFails).
      const said = { sends: c.explain!.sends, passes: c.explain!.passes, fails: explainFails(c) };
      for (const f of FIELDS) {
        const text = said[f];
        expect(typeof text, `${c.id} ${f}`).toBe('string');
        if (typeof text !== 'string') continue;
        expect(text.trim().length, `${c.id} ${f} is empty`).toBeGreaterThan(10);
        expect(text, `${c.id} ${f}: no line breaks (explain wraps the text itself)`).not.toMatch(/\n/);
        for (const [pattern, what] of ARTEFACTS)
          expect(pattern.test(text), `${c.id} ${f}: ${what}: ${text}`).toBe(false);
      }
    }
  });

  it('gives the same sends, passes and fails whatever the title says', () => {
    for (const c of checks) {
      const before = explainCheck(c, SECTIONS, undefined);
      const reworded = explainCheck(
        { ...c, title: 'a request without Signature is rejected with 401 (any 4xx)' },
        SECTIONS,
        undefined,
      );
      expect({ sends: reworded.sends, passes: reworded.passes, fails: reworded.fails }, c.id).toEqual({
        sends: before.sends,
        passes: before.passes,
        fails: before.fails,
      });
      expect({ sends: before.sends, passes: before.passes, fails: before.fails }, c.id).toEqual({
        sends: c.explain!.sends,
        passes: c.explain!.passes,
        fails: explainFails(c),
      });
      expect(before, c.id).not.toHaveProperty('derived');
    }
  });

  it('refuses to explain a check that declares no explain, rather than making one up', () => {
    const c = checks.find((x) => x.id === 'signing.reject.missing-signature')!;
    expect(() => explainCheck({ ...c, explain: undefined } as unknown as typeof c, SECTIONS, undefined)).toThrow(
      /signing\.reject\.missing-signature declares no explain/,
    );
  });

  it('says what it said before the texts moved into the declarations, where they were not rewritten', () => {
    const REJECTED =
      'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too';
    const CRAWL =
      'GET /ussd/stocks, /ussd/requests and /ussd/assets for the fixture customer, then every option URL the crawler reaches (never one that places or cancels an order without --allow-mutations)';
    const before: Record<string, { sends: string; passes: string; fails: string }> = {
      'signing.reject.missing-signature': {
        sends:
          'A request without Signature, correct in every other respect, sent to an endpoint that answers 2xx to a correct request',
        passes: 'the server rejects it (any 4xx is a rejection)',
        fails: REJECTED,
      },
      'signing.reject.digest-mismatch': {
        sends: 'A PUT whose Content-Digest does not match its body, correct in every other respect',
        passes: 'the server rejects it (any 4xx is a rejection)',
        fails: REJECTED,
      },
      'ussd.view.schema': {
        sends: CRAWL,
        passes:
          "the server's answers show that every USSD view answers in the envelope, data = {ussdMessage, ussdOptions[{option, requestUrl, requestType}]}",
        fails:
          'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      'ussd.links.paging': {
        sends: CRAWL,
        passes:
          "the server's answers show that paging options (page=) lead to another page of content, and no option but the last leads to the view it is on",
        fails:
          'any answer that does not (the check warns); the report names the field, status or item that differs and shows the exchange; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      'pagination.page.zero': {
        sends: 'GET of each list with page=0, after the same list without page',
        passes:
          'page=0 answers 200 with the items of the page without page (0 is the first page whether page counts pages or items), and meta.currentPage is 0',
        fails: 'page=0 refused or answered with other items (pages numbered from 1), or a currentPage other than 0',
      },
      'signing.reject.expired': {
        sends:
          "GET /customers/{customerId}, correct in every way except that its signature, with the run's window, expired 600 s before sending (far beyond any clock skew a server tolerates)",
        passes: 'any 4xx: the server refuses a signature past its expires',
        fails:
          'a 2xx (the server served a request on an expired signature, so a captured request can be replayed forever) or a 5xx (it crashed on it)',
      },
    };
    for (const [id, text] of Object.entries(before)) {
      const e = explain(id);
      expect({ sends: e.sends, passes: e.passes, fails: e.fails }, id).toEqual(text);
    }
  });
});

describe('the clause every check of a level shares (explainFails)', () => {
  const explanation = { sends: 'a request', passes: 'a 4xx', fails: 'a 2xx: the check fails' };
  it('adds to a MUST or SHOULD check that no usable answer fails it too, said once in the engine', () => {
    expect(explainFails({ level: 'MUST', explain: explanation })).toBe(
      'a 2xx: the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
    );
    expect(explainFails({ level: 'SHOULD', explain: explanation })).toMatch(/; no usable answer .* fails it too$/);
  });
  it('lets an INFO check leave fails out (it never fails the run), and keeps its own words where it has them', () => {
    const { fails: _none, ...withoutFails } = explanation;
    expect(explainFails({ level: 'INFO', explain: withoutFails })).toBe(
      'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning)',
    );
    expect(explainFails({ level: 'INFO', explain: explanation })).toBe('a 2xx: the check fails');
  });
  it('adds nothing where the check says it all (failsInFull) or only observes (the client pack sends nothing)', () => {
    expect(explainFails({ level: 'MUST', explain: { ...explanation, failsInFull: true } })).toBe(explanation.fails);
    expect(explainFails({ level: 'MUST', explain: explanation }, true)).toBe(explanation.fails);
  });
  it('is typed in no declaration: a check that still ended with it would say it twice', () => {
    const twice = checks.filter((c) => /fails it too$/.test(c.explain?.fails ?? '') && !c.explain?.failsInFull);
    expect(twice.map((c) => c.id)).toEqual([]);
    const infoClause = checks.filter(
      (c) => c.explain?.fails?.startsWith('never: an INFO check') && c.explain.fails.endsWith('warning)'),
    );
    expect(infoClause.map((c) => c.id)).toEqual([]);
  });
});
