// `conformance explain` for every id `conformance list` prints, and `conformance coverage` for every requirement of the
// shipped catalog. Most calls are in-process for speed; one real CLI call each proves the wiring.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { runCli } from '../helpers/cli.js';
import { explain, explainCheck, renderExplanation } from '../../src/cli/explain.js';
import { closestIds } from '../../src/suggest.js';
import { renderCoverage, specCoverage } from '../../src/cli/coverage.js';
import { parseSpec } from '../../src/spec/sections.js';
import { loadCatalog } from '../../src/spec/requirements.js';
import { readDetectionJson } from '../../src/matrix/proof.js';
import { UserError } from '../../src/errors.js';
import { suites } from '../../suites/index.js';

const SPEC = readFileSync(new URL('../../spec/investment-api.md', import.meta.url), 'utf8');
const checks = suites.flatMap((s) => s.checks);

describe('conformance explain', () => {
  it('explains every id conformance list --json prints: requirements quoted, level, sends/passes/fails, and the faults that prove it', async () => {
    const listed = await runCli(['list', '--json']);
    expect(listed.code).toBe(0);
    const ids = (JSON.parse(listed.stdout) as Array<{ id: string }>).map((c) => c.id);
    expect(ids.length).toBe(checks.length);
    const matrix = readDetectionJson();
    expect(matrix, 'docs/detection-matrix.json (npm run matrix)').toBeDefined();
    for (const id of ids) {
      const e = explain(id);
      const check = checks.find((c) => c.id === id)!;
      expect(e).toMatchObject({
        id,
        level: check.level,
        suite: check.suite,
        title: check.title,
        requirements: check.requirements,
      });
      for (const text of [e.sends, e.passes, e.fails, e.levelMeaning])
        expect(text.length, `${id}: ${text}`).toBeGreaterThan(20);
      // Every requirement's section resolves to a heading of the shipped spec.
      for (const heading of e.headings) expect(heading, id).toMatch(/^#{2,3} /);
      if (check.level === 'INFO') expect(e.provenBy, id).toEqual([]);
      else
        expect(
          e.provenBy.length > 0 || matrix!.uncaught.some((u) => u.id === id && u.reason),
          `${id} has a fault or a reason`,
        ).toBe(true);
      for (const f of e.provenBy) expect(matrix!.faults.find((m) => m.name === f.fault)?.caughtBy).toContain(id);
      const text = renderExplanation(e);
      for (const r of check.requirements) expect(text.replace(/\s+/g, ' '), id).toContain(r.id);
      expect(text).toMatch(/proven by/);
    }
  });

  it('prints an explanation from the CLI, and for an unknown id exits 2 with the closest ids', async () => {
    const ok = await runCli(['explain', 'signing.reject.expired']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('## Authentication');
    expect(ok.stdout).toMatch(
      /SHOULD REQ-AUTH-09 \(Authentication\): "The signature covers the ordered components listed in/,
    );
    expect(ok.stdout).toMatch(/sends +GET \/customers\/\{customerId\}/);
    expect(ok.stdout).toContain('signing.expired-accepted: expires is not checked');

    const bad = await runCli(['explain', 'signing.reject.expird']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(
      /no check has the id "signing\.reject\.expird": did you mean signing\.reject\.expired\?/,
    );
  });

  it('throws a usage error (exit 2) in-process too, suggesting ids that contain a partial one', () => {
    expect(() => explain('nope.nothing')).toThrow(UserError);
    try {
      explain('nope.nothing');
    } catch (err) {
      expect((err as UserError).exitCode).toBe(2);
    }
    expect(
      closestIds(
        'reject.expired',
        checks.map((c) => c.id),
      ),
    ).toEqual(['signing.reject.expired']);
    expect(
      closestIds(
        'auth.tokn.scope',
        checks.map((c) => c.id),
      ),
    ).toEqual(['auth.token.scope']);
  });

  it('says a check without a detection matrix is not proven', () => {
    const check = checks.find((c) => c.id === 'auth.use.no-client-id')!;
    expect(explainCheck(check, parseSpec(SPEC), undefined).noFault).toMatch(
      /detection matrix .* is not in this installation/,
    );
  });
});

describe('conformance coverage', () => {
  it('lists every requirement of the catalog with its quote, level, checks and proving faults; --json is the joined catalog', async () => {
    const catalog = loadCatalog();
    const res = await runCli(['coverage']);
    expect(res.code).toBe(0);
    for (const r of catalog.requirements) expect(res.stdout.replace(/\s+/g, ' '), r.id).toContain(`${r.id} ${r.level}`);
    expect(res.stdout).toMatch(/^## Paging meta \(list responses\)$/m);
    expect(res.stdout).toMatch(/REQ-VER-01 +MUST +"- The version is carried in the path prefix/);
    expect(res.stdout).toMatch(/excluded +The \/v1 prefix is part of the configured base URL/);
    expect(res.stdout).toMatch(/^Summary:$/m);

    const json = await runCli(['coverage', '--json']);
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout) as ReturnType<typeof specCoverage>;
    expect(doc.requirements.map((r) => r.id)).toEqual(catalog.requirements.map((r) => r.id));
    const keyid = doc.requirements.find((r) => r.id === 'REQ-AUTH-07')!;
    expect(keyid).toMatchObject({ level: 'MUST', section: 'Authentication', status: 'proven' });
    expect(keyid.checks.map((c) => c.id)).toContain('signing.reject.unknown-keyid');
    expect(keyid.provenBy).toContain('signing.keyid-ignored');
    expect(doc.requirements.find((r) => r.id === 'REQ-LIM-04')).toMatchObject({
      level: 'OPEN',
      status: 'open',
      readings: expect.any(Array),
    });
  });

  it('accounts for every check: each cites requirements of the catalog, and each requirement lists the checks citing it', () => {
    const coverage = specCoverage();
    const listed = new Set(coverage.requirements.flatMap((r) => r.checks.map((c) => c.id)));
    expect(checks.filter((c) => !listed.has(c.id)).map((c) => c.id)).toEqual([]);
    for (const c of checks)
      for (const r of c.requirements)
        expect(
          coverage.requirements.find((x) => x.id === r.id)!.checks.map((x) => x.id),
          r.id,
        ).toContain(c.id);
    expect(renderCoverage(coverage)).toContain('REQ-AUTH-08  MUST');
  });

  it('ships the spec with a one-line note on its source, the rest being the specification 0.0.1', () => {
    const [first, second] = SPEC.split('\n');
    expect(first).toMatch(/^<!-- Source: .* -->$/);
    expect(second).toBe('# Investment Service Interface Specification');
    expect(SPEC).toContain('The interface description itself carries the version number 0.0.1.');
  });
});
