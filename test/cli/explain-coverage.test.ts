// `conformance explain` for every id `conformance list` prints, and `conformance coverage` for every requirement of the
// shipped catalog. Most calls are in-process for speed; one real CLI call each proves the wiring.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { runCli } from '../helpers/cli.js';
import { explain, explainCheck, renderExplanation } from '../../src/cli/explain.js';
import { closestIds } from '../../src/suggest.js';
import { renderCoverage, specCoverage } from '../../src/cli/coverage.js';
import { parseSpec } from '../../src/catalog/sections.js';
import { findRequirement, loadCatalog } from '../../src/catalog/requirements.js';
import { readDetectionJson } from '../../src/matrix/proof.js';
import { UserError } from '../../src/errors.js';
import { checkFile } from '../../src/check-file.js';
import { clientSuites } from '../../suites/client/index.js';
import { suites } from '../../suites/index.js';

const SPEC = readFileSync(new URL('../../spec/investment-api.md', import.meta.url), 'utf8');
const checks = suites.flatMap((s) => s.checks);

describe('conformance explain', () => {
  it('explains every id conformance list --json prints: requirements quoted, level, sends/passes/fails, and the faults that prove it', async () => {
    const listed = await runCli(['list', '--json']);
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout) as Array<{ id: string; file: string }>;
    const ids = rows.map((c) => c.id);
    expect(ids.length).toBe(checks.length);
    // Each row names the file that declares the check (the layout rule), and nothing else was added.
    for (const row of rows) {
      expect(Object.keys(row), row.id).toEqual(['id', 'level', 'suite', 'title', 'requirements', 'file']);
      expect(row.file, row.id).toBe(`suites/${row.id.split('.')[0]}/${row.id.split('.')[1]}.ts`);
    }
    const matrix = readDetectionJson();
    expect(matrix, 'docs/detection-matrix.json (npm run matrix)').toBeDefined();
    for (const id of ids) {
      const e = explain(id);
      const check = checks.find((c) => c.id === id)!;
      expect(e).toMatchObject({
        id,
        level: check.level,
        suite: check.suite,
        file: checkFile(id),
        title: check.title,
        requirements: check.requirements,
      });
      for (const text of [e.sends, e.passes, e.fails, e.levelMeaning])
        expect(text.length, `${id}: ${text}`).toBeGreaterThan(20);
      // Every requirement's section resolves to a heading of the shipped spec.
      for (const heading of e.headings) expect(heading, id).toMatch(/^#{2,3} /);
      // Each requirement carries the catalog's obligation: whose duty its quoted words state.
      for (const r of e.requirements) expect(r.obligation, `${id} ${r.id}`).toEqual(findRequirement(r.id)!.obligation);
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
    expect(ok.stdout).toMatch(/^ {2}file {7}suites\/signing\/reject\.ts$/m);
    expect(ok.stdout).toMatch(
      /SHOULD REQ-AUTH-09 \(Authentication\): "The signature covers the ordered components listed in/,
    );
    expect(ok.stdout.replace(/\s+/g, ' ')).toContain(
      "— obliges the client: «`created` and `expires` are Unix times» (the server's SHOULD is a reading of them)",
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

  it('names the file of a client check by the same rule, in --json too', async () => {
    const res = await runCli(['explain', 'client.webhooks.discards-forged', '--json']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      id: 'client.webhooks.discards-forged',
      file: 'suites/client/webhooks.ts',
    });
    const listed = await runCli(['list', '--client', '--json']);
    const rows = JSON.parse(listed.stdout) as Array<{ id: string; file: string }>;
    expect(rows.map((r) => r.id).sort()).toEqual(clientSuites.flatMap((s) => s.checks.map((c) => c.id)).sort());
    for (const row of rows) expect(row.file, row.id).toBe(`suites/client/${row.id.split('.')[1]}.ts`);
  });

  it('maps an id to its file by the layout rule, and refuses an id that is not <suite>.<area>.<what>', () => {
    expect(checkFile('pagination.sort.asc')).toBe('suites/pagination/sort.ts');
    expect(checkFile('webhooks.config.restored')).toBe('suites/webhooks/config.ts');
    expect(checkFile('client.requests.signed')).toBe('suites/client/requests.ts');
    expect(checkFile('a.b.c.d')).toBe('suites/a/b.ts');
    for (const bad of ['auth', 'auth.token', 'auth..x', '.token.x', 'auth.token.'])
      expect(() => checkFile(bad), bad).toThrow(/is not <suite>\.<area>\.<what>/);
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
  it('lists every requirement of the catalog with its quote, level, obligation, checks and proving faults; --json is the joined catalog', async () => {
    const catalog = loadCatalog();
    const res = await runCli(['coverage']);
    expect(res.code).toBe(0);
    const flat = res.stdout.replace(/\s+/g, ' ');
    for (const r of catalog.requirements) {
      expect(flat, r.id).toContain(`${r.id} ${r.level}`);
      // Whose duty the quoted words state, and which words: the level rule, visible per requirement.
      const o = r.obligation!;
      const duty = r.level === 'OPEN' ? `open the ${o.party}'s choice: «` : `obliges the ${o.party}: «`;
      expect(flat, r.id).toContain(`${duty}${o.text.replace(/\s+/g, ' ')}»`);
    }
    expect(res.stdout).toMatch(/^## Paging meta \(list responses\)$/m);
    expect(res.stdout).toMatch(/REQ-VER-01 +MUST +"- The version is carried in the path prefix/);
    expect(res.stdout).toMatch(/excluded +The \/v1 prefix is part of the configured base URL/);
    expect(res.stdout).toMatch(
      /^ {4}obliges {4}the server: «Every request is protected by a bearer token plus an HTTP/m,
    );
    // A server's SHOULD read from words that state what a client sends says so.
    expect(flat).toContain(
      'REQ-HDR-18 SHOULD "The component list of a request covers the headers that the request carries (for example a body-less GET lists no Content-Digest)." obliges the client: «covers the headers that the request carries» (the server\'s SHOULD is a reading of them)',
    );
    expect(res.stdout).toMatch(/^ {4}open {7}the server's choice: «Rate limits: not shown»$/m);
    // Where a requirement names checks, it names the files that declare them.
    expect(res.stdout).toMatch(
      /^ {4}checks {5}auth\.use\.read-endpoints, resources\.customers\.update\n {4}files {6}suites\/auth\/use\.ts, suites\/resources\/customers\.ts$/m,
    );
    expect(res.stdout).toMatch(/^Summary:$/m);
    expect(res.stdout).toMatch(/^Whose duty the quoted words state/m);
    expect(res.stdout).toMatch(
      /^ +\d+ {2}a client's: a client rule, or for the server at most a SHOULD reading of them$/m,
    );

    const json = await runCli(['coverage', '--json']);
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout) as ReturnType<typeof specCoverage>;
    expect(doc.requirements.map((r) => r.id)).toEqual(catalog.requirements.map((r) => r.id));
    expect(doc.requirements.map((r) => r.obligation)).toEqual(catalog.requirements.map((r) => r.obligation));
    const protectedBy = doc.requirements.find((r) => r.id === 'REQ-SVC-09')!;
    expect(protectedBy).toMatchObject({
      level: 'MUST',
      section: 'What the service does',
      status: 'proven',
      obligation: { party: 'server' },
    });
    expect(protectedBy.checks.map((c) => c.id)).toContain('signing.reject.altered-signature');
    for (const r of doc.requirements)
      for (const c of [...r.checks, ...r.clientChecks]) expect(c.file, `${r.id} ${c.id}`).toBe(checkFile(c.id));
    expect(protectedBy.provenBy).toContain('resources.no-token-served');
    // A client's rule: the client pack checks it, no server check cites it.
    const keyid = doc.requirements.find((r) => r.id === 'REQ-AUTH-07')!;
    expect(keyid).toMatchObject({ level: 'MUST', status: 'client', obligation: { party: 'client' }, checks: [] });
    expect(keyid.clientChecks.map((c) => c.id)).toContain('client.requests.signed');
    const { server, client } = doc.totals.obliges;
    expect(server + client + doc.totals.open).toBe(doc.totals.requirements);
    expect(client).toBe(
      catalog.requirements.filter((r) => r.level !== 'OPEN' && r.obligation!.party === 'client').length,
    );
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
