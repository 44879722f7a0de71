// `conformance explain <id>`: everything a server engineer needs to understand one check without reading its code:
// the requirements it enforces (with the spec's words), what it sends, what passes and fails, and the reference-server faults that prove it
// can fail (docs/detection-matrix.json, generated with the detection matrix). Every line comes from a field of the
// check's declaration (title, level, requirements, note, explain.sends/passes/fails), never from reading its title:
// rewording a title changes no explanation.
import { suites } from '../../suites/index.js';
import { clientSuites } from '../../suites/client/index.js';
import {
  explainFails,
  type CheckDefinition,
  type Level,
  type RequirementRef,
  type SuiteName,
} from '../engine/index.js';
import { ConfigError } from '../errors.js';
import { closestIds } from '../suggest.js';
import { checkFile } from '../check-file.js';
import { readClientMatrix, readDetectionJson, type DetectionJson } from '../matrix/proof.js';
import { parseSpec, readSpec, type SpecSection } from '../catalog/sections.js';
import { obligationParts, requirementLine } from '../report/requirement-text.js';
import { findRequirement, type Requirement } from '../catalog/requirements.js';

export interface ExplainOptions {
  json?: boolean;
}

export interface Explanation {
  id: string;
  title: string;
  suite: SuiteName;
  /** The file that declares the check (`suites/<suite>/<area>.ts`, the layout rule). */
  file: string;
  level: Level;
  /** What the level means for this check's verdict. */
  levelMeaning: string;
  /** The requirements the check enforces, with the spec's words and whose duty they state (the catalog's obligation). */
  requirements: Array<RequirementRef & Pick<Requirement, 'obligation' | 'party'>>;
  /** Where they stand in the spec: `### Customer (under ## Resources and their fields)`. */
  headings: string[];
  note?: string;
  sends: string;
  passes: string;
  fails: string;
  /** Faults of the reference server that make this check fail (`conformance serve --fault NAME`). */
  provenBy: Array<{ fault: string; description: string; breaks: string[] }>;
  /** Why no fault is listed, when none is. */
  noFault?: string;
  /** A client check: the broken example clients that make it fail (docs/client-matrix.json). */
  provenByClients?: Array<{ client: string; description: string }>;
  /** Faults that make it fail although they break none of its requirements (it depends on them), with why that stays. */
  collateral: Array<{ fault: string; reason?: string }>;
}

const LEVEL_MEANING: Record<Level, string> = {
  MUST: 'the spec states it; a failure fails the run',
  SHOULD:
    'the only reasonable reading of the spec, or RFC 9421/9530 practice it points to; a failure is a warning, and fails the run only with --fail-on should',
  INFO: 'a point the spec leaves open; the check records what the server chose and never fails the run',
};

export function explainCommand(
  id: string,
  opts: ExplainOptions = {},
  out: { write(text: string): unknown } = process.stdout,
): number {
  const explanation = explain(id);
  out.write(opts.json ? `${JSON.stringify(explanation, null, 2)}\n` : renderExplanation(explanation));
  return 0;
}

let specSections: SpecSection[] | undefined | null;
let matrix: DetectionJson | undefined | null;

/** The explanation of one check; an unknown id is a ConfigError (exit 2) naming the closest ids. */
export function explain(id: string): Explanation {
  const checks = [...suites, ...clientSuites].flatMap((s) => s.checks);
  const check = checks.find((c) => c.id === id);
  if (!check) {
    const near = closestIds(
      id,
      checks.map((c) => c.id),
    );
    const hint = near.length > 0 ? `did you mean ${near.join(', ')}? ` : '';
    throw new ConfigError(
      `explain: no check has the id "${id}": ${hint}'conformance list' prints every id`,
      'CONFORMANCE_ERR_USAGE',
    );
  }
  if (specSections === undefined) {
    try {
      specSections = parseSpec(readSpec());
    } catch {
      specSections = null;
    }
  }
  if (clientSuites.some((s) => s.name === check.suite)) return explainClientCheck(check, specSections ?? []);
  if (matrix === undefined) matrix = readDetectionJson() ?? null;
  return explainCheck(check, specSections ?? [], matrix ?? undefined);
}

export function explainCheck(
  check: CheckDefinition,
  sections: SpecSection[],
  proof: DetectionJson | undefined,
  observesOnly = false,
): Explanation {
  const text = check.explain;
  const fails = explainFails(check, observesOnly);
  // Unreachable for the shipped suites (test/cli/explain-fields.test.ts); a check of a pack written without one is ours to fix.
  if (!text || fails === undefined)
    throw new Error(
      `check ${check.id} declares no explain {sends, passes, fails}: every check says what it sends, what passes and what fails`,
    );
  const headings = [...new Set(check.requirements.map((r) => r.section))].map((heading) => {
    const section = sections.find((s) => s.heading === heading);
    return section
      ? `${'#'.repeat(section.level)} ${section.heading}${section.parent ? ` (under ## ${section.parent})` : ''}`
      : heading;
  });
  const provenBy = (proof?.faults ?? [])
    .filter((f) => f.caughtBy.includes(check.id))
    .map((f) => ({ fault: f.name, description: f.description, breaks: f.breaks }));
  const collateral = (proof?.faults ?? []).flatMap((f) =>
    (f.collateral ?? [])
      .filter((c) => c.id === check.id)
      .map((c) => ({ fault: f.name, ...(c.reason ? { reason: c.reason } : {}) })),
  );
  let noFault: string | undefined;
  if (provenBy.length === 0) {
    if (check.level === 'INFO') noFault = 'none applies: an INFO check records a choice and never fails';
    else if (!proof) noFault = 'unknown: the detection matrix (docs/detection-matrix.json) is not in this installation';
    else
      noFault =
        proof.uncaught.find((u) => u.id === check.id)?.reason ?? 'no fault of the reference server makes it fail yet';
  }
  return {
    id: check.id,
    title: check.title,
    suite: check.suite,
    file: checkFile(check.id),
    level: check.level,
    levelMeaning: LEVEL_MEANING[check.level],
    requirements: check.requirements.map((r) => {
      const entry = findRequirement(r.id);
      return {
        ...r,
        ...(entry?.obligation ? { obligation: entry.obligation } : {}),
        ...(entry?.party ? { party: entry.party } : {}),
      };
    }),
    headings,
    ...(check.note ? { note: check.note } : {}),
    sends: text.sends,
    passes: text.passes,
    fails,
    provenBy,
    ...(noFault ? { noFault } : {}),
    collateral,
  };
}

/** A client check is proven by the broken example clients of the client matrix, not by faults of the server. */
function explainClientCheck(check: CheckDefinition, sections: SpecSection[]): Explanation {
  const { provenBy: _none, noFault: _no, ...rest } = explainCheck(check, sections, undefined, true);
  const rows = readClientMatrix()?.rows ?? [];
  const provenByClients = rows
    .filter((r) => r.caughtBy.includes(check.id))
    .map((r) => ({ client: r.name, description: r.description }));
  return {
    ...rest,
    provenBy: [],
    provenByClients,
    ...(provenByClients.length === 0
      ? {
          noFault:
            rows.length === 0
              ? 'unknown: docs/client-matrix.json is not in this installation'
              : 'no example client makes it fail yet',
        }
      : {}),
  };
}

export function renderExplanation(e: Explanation): string {
  const lines = [`${e.id}   ${e.level}   suite ${e.suite}`, ''];
  const field = (label: string, text: string) => lines.push(...wrapLabelled(label, text));
  field('title', e.title);
  field('file', e.file);
  field('spec', e.headings.join('; '));
  field(
    'enforces',
    `${e.requirements.length} requirement${e.requirements.length === 1 ? '' : 's'} of spec/requirements.json:`,
  );
  for (const r of e.requirements) {
    const duty = obligationParts(r);
    field(
      '',
      `${r.level} ${requirementLine(r)}${duty ? ` — ${duty.label} ${duty.text}` : ''}${r.note ? ` (note: ${r.note})` : ''}`,
    );
  }
  if (e.note) field('note', e.note);
  field('level', `${e.level}: ${e.levelMeaning}`);
  field('sends', e.sends);
  field('passes', e.passes);
  field('fails', e.fails);
  if (e.provenByClients !== undefined && e.provenByClients.length > 0) {
    field(
      'proven by',
      `the broken example client${e.provenByClients.length === 1 ? '' : 's'} (see it with: npm run build && conformance client -- node dist/examples/clients/ts/broken.js NAME):`,
    );
    for (const c of e.provenByClients) field('', `${c.client}: ${c.description}`);
  } else if (e.provenBy.length > 0) {
    field(
      'proven by',
      `${e.provenBy.length === 1 ? '1 fault of the reference server makes' : `${e.provenBy.length} faults of the reference server make`} it fail (see it with: conformance run --fault NAME --grep '^${e.id.replace(/\./g, '\\.')}$'):`,
    );
    for (const f of e.provenBy) field('', `${f.fault}: ${f.description} (breaks ${f.breaks.join(', ')})`);
  } else {
    field('proven by', e.noFault ?? 'no fault');
  }
  if (e.collateral.length > 0) {
    field('depends on', 'these faults break none of its requirements yet make it fail (a rule it relies on):');
    for (const c of e.collateral) field('', `${c.fault}${c.reason ? `: ${c.reason}` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

const LABEL_WIDTH = 11;
const WIDTH = 116;

function wrapLabelled(label: string, text: string): string[] {
  const pad = ' '.repeat(LABEL_WIDTH + 2);
  const out: string[] = [];
  let line = `  ${label.padEnd(LABEL_WIDTH)}`;
  let empty = true;
  for (const word of text.split(' ')) {
    if (!empty && line.length + 1 + word.length > WIDTH) {
      out.push(line);
      line = pad + word;
    } else {
      line = empty ? line + word : `${line} ${word}`;
    }
    empty = false;
  }
  out.push(line);
  return out;
}
