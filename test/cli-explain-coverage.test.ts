// `conformance explain` for every id `conformance list` prints, and `conformance coverage` against every section of the
// shipped spec. Most calls are in-process for speed; one real CLI call each proves the wiring.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { runCli } from './helpers/cli.js';
import { explain, explainCheck, renderExplanation, deriveExplanation } from '../src/cli/explain.js';
import { closestIds } from '../src/suggest.js';
import { renderCoverage, specCoverage } from '../src/cli/coverage.js';
import { parseCitations, parseSpec, sectionKey } from '../src/spec/sections.js';
import { readDetectionJson } from '../src/matrix/proof.js';
import { UserError } from '../src/errors.js';
import { suites } from '../suites/index.js';

const SPEC = readFileSync(new URL('../spec/investment-api.md', import.meta.url), 'utf8');
const checks = suites.flatMap((s) => s.checks);

describe('conformance explain', () => {
  it('explains every id conformance list --json prints: sentence, level, sends/passes/fails, and the faults that prove it', async () => {
    const listed = await runCli(['list', '--json']);
    expect(listed.code).toBe(0);
    const ids = (JSON.parse(listed.stdout) as Array<{ id: string }>).map((c) => c.id);
    expect(ids.length).toBe(checks.length);
    const matrix = readDetectionJson();
    expect(matrix, 'docs/detection-matrix.json (npm run matrix)').toBeDefined();
    for (const id of ids) {
      const e = explain(id);
      const check = checks.find((c) => c.id === id)!;
      expect(e).toMatchObject({ id, level: check.level, suite: check.suite, title: check.title, spec: { sentence: check.spec.sentence } });
      for (const text of [e.sends, e.passes, e.fails, e.levelMeaning]) expect(text.length, `${id}: ${text}`).toBeGreaterThan(20);
      // Every spec citation resolves to a heading of the shipped spec (RFC citations stay as they are).
      for (const heading of e.spec.headings) expect(heading, id).toMatch(/^(#{2,3} |RFC )/);
      if (check.level === 'INFO') expect(e.provenBy, id).toEqual([]);
      else expect(e.provenBy.length > 0 || matrix!.uncaught.some((u) => u.id === id && u.reason), `${id} has a fault or a reason`).toBe(true);
      for (const f of e.provenBy) expect(matrix!.faults.find((m) => m.name === f.fault)?.caughtBy).toContain(id);
      const text = renderExplanation(e);
      expect(text).toContain(check.spec.sentence.split(' ').slice(0, 3).join(' '));
      expect(text).toMatch(/proven by/);
    }
  });

  it('prints an explanation from the CLI, and for an unknown id exits 2 with the closest ids', async () => {
    const ok = await runCli(['explain', 'signing.reject.expired']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('## Authentication, item 5; RFC 9421 §2.3');
    expect(ok.stdout).toContain('a signature past its expires is invalid');
    expect(ok.stdout).toMatch(/sends +GET \/customers\/\{customerId\}/);
    expect(ok.stdout).toContain('signing.expired-accepted: expires is not checked');

    const bad = await runCli(['explain', 'signing.reject.expird']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/no check has the id "signing\.reject\.expird": did you mean signing\.reject\.expired\?/);
  });

  it('throws a usage error (exit 2) in-process too, suggesting ids that contain a partial one', () => {
    expect(() => explain('nope.nothing')).toThrow(UserError);
    try {
      explain('nope.nothing');
    } catch (err) {
      expect((err as UserError).exitCode).toBe(2);
    }
    expect(closestIds('reject.expired', checks.map((c) => c.id))).toEqual(['signing.reject.expired']);
    expect(closestIds('auth.tokn.scope', checks.map((c) => c.id))).toEqual(['auth.token.scope']);
  });

  it('derives a specific explanation from a rejection title, and says a check without a matrix is not proven', () => {
    const d = deriveExplanation({ title: 'a request whose keyid names no key is rejected', level: 'MUST', suite: 'signing', spec: { section: 'Authentication 5', sentence: 's' } });
    expect(d.sends).toMatch(/^A request whose keyid names no key, correct in every other respect, sent to an endpoint that answers 2xx/);
    expect(d.passes).toMatch(/rejects it/);
    expect(d.fails).toMatch(/a 2xx .* or a 5xx/);
    const check = checks.find((c) => c.id === 'auth.use.no-client-id')!;
    expect(explainCheck(check, parseSpec(SPEC), undefined).noFault).toMatch(/detection matrix .* is not in this installation/);
  });
});

describe('conformance coverage', () => {
  it('lists every ## and ### section of the spec, with the checks citing it or why it is not covered', async () => {
    const res = await runCli(['coverage']);
    expect(res.code).toBe(0);
    const headings = [...SPEC.matchAll(/^(#{2,3}) (.+)$/gm)].map((m) => `${m[1]} ${m[2]!.trim()}`);
    expect(headings.length).toBeGreaterThan(25);
    for (const heading of headings) expect(res.stdout, heading).toContain(`\n${heading}   (line `);
    expect(res.stdout).toMatch(/## Versioning .* not covered: not black-box testable/);
    expect(res.stdout).toMatch(/### Common request rules .* covered: \d+ checks/);
    expect(res.stdout).toContain('table "GET /ussd/requests returns the customer requests menu."');
    expect(res.stdout).toContain('Events: Delivery retries and ordering: not shown.');
    expect(res.stdout).toMatch(/^32 sections: .* 22 tables: 22 covered\.$/m);
  });

  it('accounts for every check and every citation: no check cites a section the spec does not have', () => {
    const coverage = specCoverage();
    expect(coverage.unresolved).toEqual([]);
    const covered = new Set(coverage.sections.flatMap((s) => s.cites.map((c) => c.id)));
    expect(checks.filter((c) => !covered.has(c.id)).map((c) => c.id)).toEqual([]);
    expect(coverage.sections.map((s) => s.heading)).toEqual([...SPEC.matchAll(/^#{2,3} (.+)$/gm)].map((m) => m[1]!.trim()));
    // Each requirement table is listed under its section, with its rows.
    const tables = coverage.sections.flatMap((s) => s.tables);
    expect(tables.length).toBe(SPEC.split('\n').filter((l, i, all) => /^\|[\s:|-]+\|$/.test(l) && /^\|/.test(all[i - 1] ?? '')).length);
    expect(coverage.sections.find((s) => s.heading === 'Paging meta (list responses)')!.tables[0]!.rows).toEqual(['previousPage', 'currentPage', 'nextPage', 'limit', 'currentCount', 'totalCount', 'sort']);
    expect(renderCoverage(coverage)).toContain('RFC 9421 §2.3: signing.reject.expired');
  });

  it('normalises the citation forms the checks use onto the spec headings', () => {
    expect(sectionKey('Paging meta (list responses)')).toBe(sectionKey('Paging meta'));
    expect(parseCitations('Authentication 4–5; Webhooks')).toEqual([
      { kind: 'spec', text: 'Authentication 4–5', key: 'authentication', items: '4–5' },
      { kind: 'spec', text: 'Webhooks', key: 'webhooks' },
    ]);
    expect(parseCitations('Authentication 1, 6; RFC 9421 §2.3')).toEqual([
      { kind: 'spec', text: 'Authentication 1, 6', key: 'authentication', items: '1, 6' },
      { kind: 'rfc', text: 'RFC 9421 §2.3' },
    ]);
  });

  it('ships the spec with a one-line note on its source, the rest being the specification 0.0.1', () => {
    const [first, second] = SPEC.split('\n');
    expect(first).toMatch(/^<!-- Source: .* -->$/);
    expect(second).toBe('# Investment Service Interface Specification');
    expect(SPEC).toContain('The interface description itself carries the version number 0.0.1.');
  });
});
