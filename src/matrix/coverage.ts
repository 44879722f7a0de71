// Which checks enforce which requirement of the catalog, and which reference-server faults prove those checks can fail.
// The catalog lists the spec; the checks say what they cite; the detection matrix (docs/detection-matrix.json) says
// which faults each check catches. This joins the three and names every gap: a MUST or SHOULD with neither a check nor
// a reason, and a covered requirement none of whose checks any fault makes fail.
import type { CheckInfo, Level } from '../engine/index.js';
import { checkFile } from '../check-file.js';
import type { DetectionJson } from './proof.js';
import type { Catalog, ContextSentence, Obligation, Requirement } from '../catalog/requirements.js';

interface CheckRef {
  id: string;
  level: Level;
  title: string;
  /** The file that declares it (`suites/<suite>/<area>.ts`, the layout rule of issue 28). */
  file: string;
}

export type RequirementStatus =
  /** Checks enforce it and a fault breaking it is caught by one of them. */
  | 'proven'
  /** Checks enforce it and some fault makes one of them fail, though no fault names this requirement. */
  | 'checked'
  /** Checks enforce it, but no fault makes any of them fail: nothing shows they can. */
  | 'unproven'
  /** No check, with the reason why (not black-box testable, would change what cannot be undone…). */
  | 'excluded'
  /** A point the spec leaves open: every reasonable reading passes; an INFO check may record the one a server took. */
  | 'open'
  /** A client's rule (`party: "client"`): `conformance client` checks it (clientChecks), the server pack does not. */
  | 'client'
  /** A MUST or SHOULD with neither a check nor a reason: a gap. */
  | 'unchecked';

export const STATUSES: readonly RequirementStatus[] = [
  'proven',
  'checked',
  'unproven',
  'excluded',
  'open',
  'client',
  'unchecked',
];

export interface RequirementCoverage extends Requirement {
  status: RequirementStatus;
  checks: CheckRef[];
  /** The client pack's checks citing it (`conformance client`): what a client must do about it. */
  clientChecks: CheckRef[];
  /** Faults that break this requirement and are caught by one of its checks. */
  provenBy: string[];
  /** Faults that make one of its checks fail while breaking other requirements (the check depends on them too). */
  alsoFailedBy: string[];
  /** For an unproven requirement: why no fault makes its checks fail, as the detection matrix records it. */
  unprovenWhy?: string;
}

export interface Coverage {
  specVersion: string;
  requirements: RequirementCoverage[];
  context: ContextSentence[];
  /** Whether a detection matrix was available to prove checks with (an install without docs/ has none). */
  matrix: boolean;
  gaps: {
    /** MUST and SHOULD requirements with no check and no exclusion. */
    unchecked: string[];
    /** Requirements with checks, none of which any fault makes fail. */
    unproven: string[];
    /** Requirements named by a fault's `breaks` that the catalog does not have. */
    unknownInFaults: Array<{ fault: string; id: string }>;
  };
  totals: Record<RequirementStatus, number> & {
    requirements: number;
    must: number;
    should: number;
    /**
     * MUST and SHOULD requirements by whose duty their quoted words state (`obligation.party`): the server's, or a
     * client's (a client rule, or a server's SHOULD read from a client's words). OPEN points are `open`.
     */
    obliges: Record<Obligation['party'], number>;
  };
}

/**
 * `checks` are the server pack's, which the detection matrix proves; `clientChecks` the client pack's, listed beside
 * them. A requirement of `party: "client"` is the client pack's alone: status `client`, never a gap of the server pack.
 */
export function computeCoverage(
  catalog: Catalog,
  checks: readonly CheckInfo[],
  proof?: DetectionJson,
  clientChecks: readonly CheckInfo[] = [],
): Coverage {
  const citing = citations(checks);
  const clientCiting = citations(clientChecks);
  const caughtBy = new Map<string, string[]>();
  for (const f of proof?.faults ?? [])
    for (const id of f.caughtBy) caughtBy.set(id, [...(caughtBy.get(id) ?? []), f.name]);
  const known = new Set(catalog.requirements.map((r) => r.id));

  const requirements = catalog.requirements.map((r): RequirementCoverage => {
    const own = citing.get(r.id) ?? [];
    const ids = new Set(own.map((c) => c.id));
    const failing = (proof?.faults ?? []).filter((f) => f.caughtBy.some((id) => ids.has(id)));
    const provenBy = failing.filter((f) => f.breaks.includes(r.id)).map((f) => f.name);
    const alsoFailedBy = failing.filter((f) => !f.breaks.includes(r.id)).map((f) => f.name);
    const status = statusOf(
      r,
      own,
      provenBy,
      own.some((c) => (caughtBy.get(c.id) ?? []).length > 0),
      proof !== undefined,
    );
    const why =
      status === 'unproven'
        ? own.map((c) => proof?.uncaught.find((u) => u.id === c.id)?.reason).filter((x): x is string => x !== undefined)
        : [];
    return {
      ...r,
      status,
      checks: own.map(refOf),
      clientChecks: (clientCiting.get(r.id) ?? []).map(refOf),
      provenBy,
      alsoFailedBy,
      ...(why.length > 0 ? { unprovenWhy: why.join(' ') } : {}),
    };
  });
  const count = (s: RequirementStatus) => requirements.filter((r) => r.status === s).length;
  return {
    specVersion: catalog.specVersion,
    requirements,
    context: catalog.context,
    matrix: proof !== undefined,
    gaps: {
      unchecked: requirements.filter((r) => r.status === 'unchecked').map((r) => r.id),
      unproven: requirements.filter((r) => r.status === 'unproven').map((r) => r.id),
      unknownInFaults: (proof?.faults ?? []).flatMap((f) =>
        f.breaks.filter((id) => !known.has(id)).map((id) => ({ fault: f.name, id })),
      ),
    },
    totals: {
      requirements: requirements.length,
      must: requirements.filter((r) => r.level === 'MUST').length,
      should: requirements.filter((r) => r.level === 'SHOULD').length,
      obliges: {
        server: requirements.filter((r) => r.level !== 'OPEN' && r.obligation?.party === 'server').length,
        client: requirements.filter((r) => r.level !== 'OPEN' && r.obligation?.party === 'client').length,
      },
      ...(Object.fromEntries(STATUSES.map((s) => [s, count(s)])) as Record<RequirementStatus, number>),
    },
  };
}

function citations(checks: readonly CheckInfo[]): Map<string, CheckInfo[]> {
  const citing = new Map<string, CheckInfo[]>();
  for (const check of checks)
    for (const r of check.requirements) citing.set(r.id, [...(citing.get(r.id) ?? []), check]);
  return citing;
}

function refOf(c: CheckInfo): CheckRef {
  return { id: c.id, level: c.level, title: c.title, file: checkFile(c.id) };
}

function statusOf(
  r: Requirement,
  checks: CheckInfo[],
  provenBy: string[],
  someCaught: boolean,
  haveMatrix: boolean,
): RequirementStatus {
  if (r.level === 'OPEN') return 'open';
  if (r.party === 'client' && checks.length === 0) return 'client';
  if (checks.length === 0) return r.exclusion ? 'excluded' : 'unchecked';
  if (provenBy.length > 0) return 'proven';
  // Without the matrix nothing can be said either way; the checks are there.
  if (someCaught || !haveMatrix) return 'checked';
  return 'unproven';
}
