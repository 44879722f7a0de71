// The requirement catalog (spec/requirements.json) held to the spec and to the checks: every quote is the spec's own
// words where the catalog says they stand, every sentence and table row of the spec is read into it, every MUST and
// SHOULD has a check or a reason, every check cites it, and every covered requirement has a check a fault proves.
import { describe, expect, it } from 'vitest';
import { parseSpec, readSpec } from '../../src/catalog/sections.js';
import { checkLevelOf, loadCatalog, specUnits, uncoveredUnits } from '../../src/catalog/requirements.js';
import { computeCoverage } from '../../src/matrix/coverage.js';
import { readDetectionJson } from '../../src/matrix/proof.js';
import { FAULTS } from '../../src/reference/faults/catalog.js';
import { suites } from '../../suites/index.js';
import { clientSuites } from '../../suites/client/index.js';

const sections = parseSpec(readSpec());
const catalog = loadCatalog();
const checks = suites.flatMap((s) => s.checks);
const clientChecks = clientSuites.flatMap((s) => s.checks);
const byId = new Map(catalog.requirements.map((r) => [r.id, r]));

describe('the requirement catalog against the spec', () => {
  it('quotes the spec word for word, in the section each entry names', () => {
    const misquoted = [...catalog.requirements, ...catalog.context].filter((r) => {
      const section = sections.find((s) => s.heading === r.section);
      return !section || !section.body.includes(r.quote);
    });
    expect(misquoted.map((r) => ('id' in r ? r.id : r.quote))).toEqual([]);
  });

  it('gives each requirement a stable, unique id and a level', () => {
    const ids = catalog.requirements.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of catalog.requirements) {
      expect(r.id).toMatch(/^REQ-[A-Z]+-\d{2}$/);
      expect(['MUST', 'SHOULD', 'OPEN']).toContain(r.level);
    }
  });

  it('gives each requirement its obligation: words of its own quote, and whose duty they state (server or client)', () => {
    const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
    const wrong = catalog.requirements.filter(
      (r) =>
        !r.obligation ||
        squash(r.obligation.text) === '' ||
        !squash(r.quote).includes(squash(r.obligation.text)) ||
        !['server', 'client'].includes(r.obligation.party),
    );
    expect(wrong.map((r) => `${r.id}: ${JSON.stringify(r.obligation)}`)).toEqual([]);
  });

  it('reads every sentence and table row of the spec into a requirement or a context sentence', () => {
    expect(specUnits(sections).length).toBeGreaterThan(200);
    expect(uncoveredUnits(catalog, sections).map((u) => `[${u.section}] ${u.text}`)).toEqual([]);
  });

  it('records every open point ("not shown", "unresolved", "open") as an OPEN requirement with the readings a server may take', () => {
    const open = specUnits(sections).filter((u) => /\bnot shown\b|\bunresolved\b|\bare open\b/.test(u.text));
    expect(open.length).toBeGreaterThan(25);
    for (const u of open) {
      const entry = catalog.requirements.find(
        (r) => r.level === 'OPEN' && r.section === u.section && (r.quote.includes(u.text) || u.text.includes(r.quote)),
      );
      expect(entry, `[${u.section}] ${u.text}`).toBeDefined();
    }
    for (const r of catalog.requirements.filter((x) => x.level === 'OPEN')) {
      expect(r.readings?.length ?? 0, r.id).toBeGreaterThan(0);
      expect(r.exclusion, r.id).toBeUndefined();
    }
  });
});

describe('the requirement catalog against the checks', () => {
  const citing = (id: string) => checks.filter((c) => c.requirements.some((r) => r.id === id));

  it('has a check, or a reason why none, for every MUST and SHOULD requirement, and no reason where a check exists', () => {
    // A client's rule is the client pack's to check (next test).
    const normative = catalog.requirements.filter((r) => r.level !== 'OPEN' && r.party !== 'client');
    expect(normative.filter((r) => citing(r.id).length === 0 && !r.exclusion).map((r) => r.id)).toEqual([]);
    expect(normative.filter((r) => citing(r.id).length > 0 && r.exclusion).map((r) => r.id)).toEqual([]);
  });

  it('holds the level rule: a MUST a server check cites obliges the server; a client rule obliges the client', () => {
    // MUST only where the spec's words state what the server does or gives; what they say a client sends is a client
    // rule, and for a server at most a SHOULD reading or an OPEN point.
    const clientWordsAtMust = catalog.requirements.filter(
      (r) => r.level === 'MUST' && citing(r.id).length > 0 && r.obligation?.party !== 'server',
    );
    expect(clientWordsAtMust.map((r) => `${r.id} (${citing(r.id)[0]!.id}): ${r.obligation?.text}`)).toEqual([]);
    const clientRules = catalog.requirements.filter((r) => r.party === 'client');
    expect(clientRules.filter((r) => r.obligation?.party !== 'client').map((r) => r.id)).toEqual([]);
  });

  it('checks each client rule (party: client) in the client pack only, at SHOULD or MUST, with a note saying the reading, or says why no check can', () => {
    const clientRules = catalog.requirements.filter((r) => r.party === 'client');
    expect(clientRules.length).toBeGreaterThan(0);
    for (const r of clientRules) {
      expect(r.level, r.id).not.toBe('OPEN');
      expect(r.note, r.id).toBeTruthy();
      expect(
        citing(r.id).map((c) => c.id),
        `${r.id}: a server check cites a client rule`,
      ).toEqual([]);
      // A client rule no traffic can break (HTTP framing refuses it first) says why instead.
      const cited = clientChecks.filter((c) => c.requirements.some((x) => x.id === r.id)).length > 0;
      expect(
        cited !== (r.exclusion !== undefined),
        `${r.id}: a client check cites it, or an exclusion says why none`,
      ).toBe(true);
    }
  });

  it('has every check cite at least one requirement, all of its own level (OPEN points make INFO checks)', () => {
    for (const c of [...checks, ...clientChecks]) {
      expect(c.requirements.length, c.id).toBeGreaterThan(0);
      for (const r of c.requirements) {
        expect(byId.get(r.id), `${c.id} cites ${r.id}`).toBeDefined();
        expect(checkLevelOf(r.level), `${c.id} (${c.level}) cites ${r.id} (${r.level})`).toBe(c.level);
        // The quote a report shows is the catalog's, not a copy that could drift.
        expect(r.quote).toBe(byId.get(r.id)!.quote);
      }
    }
  });

  it('has every fault of the reference server break requirements of the catalog, at the level its checks enforce', () => {
    for (const f of FAULTS) {
      expect(f.breaks.length, f.name).toBeGreaterThan(0);
      for (const id of f.breaks) {
        expect(byId.get(id), `${f.name} breaks ${id}`).toBeDefined();
        expect(byId.get(id)!.level, `${f.name} breaks ${id}: an open point cannot be broken`).not.toBe('OPEN');
      }
    }
  });

  it('proves every covered requirement: some fault makes one of its checks fail (docs/detection-matrix.json, kept current by the matrix test)', () => {
    const proof = readDetectionJson();
    expect(proof, 'docs/detection-matrix.json (npm run matrix)').toBeDefined();
    const coverage = computeCoverage(catalog, checks, proof);
    // Reasons a check cannot be made to fail in the matrix (e.g. --long) are the matrix's; such a requirement has
    // another check a fault proves, or it is listed here by the matrix's reasons.
    const reasoned = new Set(proof!.uncaught.filter((u) => u.reason).map((u) => u.id));
    const unproven = coverage.requirements.filter(
      (r) => r.status === 'unproven' && !r.checks.every((c) => reasoned.has(c.id)),
    );
    expect(unproven.map((r) => `${r.id}: ${r.checks.map((c) => c.id).join(', ')}`)).toEqual([]);
    expect(coverage.gaps.unknownInFaults).toEqual([]);
  });
});
