// `conformance explain <id>`: everything a server engineer needs to understand one check without reading its code:
// the requirements it enforces (with the spec's words), what it sends, what passes and fails, and the reference-server faults that prove it
// can fail (docs/detection-matrix.json, generated with the detection matrix).
import { suites } from '../../suites/index.js';
import type { CheckDefinition, CheckExplanation } from '../engine/check.js';
import type { Level, RequirementRef, SuiteName } from '../engine/types.js';
import { ConfigError } from '../errors.js';
import { closestIds } from '../suggest.js';
import { readDetectionJson, type DetectionJson } from '../matrix/proof.js';
import { parseSpec, readSpec, type SpecSection } from '../spec/sections.js';
import { requirementLine } from '../report/requirement-text.js';

export interface ExplainOptions {
  json?: boolean;
}

export interface Explanation {
  id: string;
  title: string;
  suite: SuiteName;
  level: Level;
  /** What the level means for this check's verdict. */
  levelMeaning: string;
  /** The requirements the check enforces, with the spec's words. */
  requirements: RequirementRef[];
  /** Where they stand in the spec: `### Customer (under ## Resources and their fields)`. */
  headings: string[];
  note?: string;
  sends: string;
  passes: string;
  fails: string;
  /** True when sends/passes/fails were derived from the title and level, not written with the check. */
  derived: boolean;
  /** Faults of the reference server that make this check fail (`conformance serve --fault NAME`). */
  provenBy: Array<{ fault: string; description: string; breaks: string[] }>;
  /** Why no fault is listed, when none is. */
  noFault?: string;
  /** Faults that make it fail although they break none of its requirements (it depends on them), with why that stays. */
  collateral: Array<{ fault: string; reason?: string }>;
}

const LEVEL_MEANING: Record<Level, string> = {
  MUST: 'the spec states it; a failure fails the run',
  SHOULD: 'the only reasonable reading of the spec, or RFC 9421/9530 practice it points to; a failure is a warning, and fails the run only with --fail-on should',
  INFO: 'a point the spec leaves open; the check records what the server chose and never fails the run',
};

/** How a suite's requests are made, added to the requests a title names. */
const SEND_CONTEXT: Record<SuiteName, string> = {
  auth: 'signed with the client\'s key',
  signing: 'signed with the client\'s key',
  pagination: 'for the target\'s fixture customers',
  resources: 'with the ids of the target\'s fixtures',
  ussd: 'for the target\'s fixture customer',
  webhooks: 'with the built-in receiver\'s https URL as the webhook',
};

/** What a rejection title's subject is sent in, where the subject is a value rather than a request. */
const REJECTION_PREFIX: Partial<Record<SuiteName, string>> = {
  pagination: 'a list request with ',
  webhooks: 'POST /webhooks with ',
};

/** What each suite sends, for checks whose title names no request of its own. */
const SUITE_SENDS: Record<SuiteName, string> = {
  auth: 'token requests (POST /oauth/token, POST /oauth/revoke) and signed reads with the tokens they give, each token revoked afterwards',
  signing:
    'signed requests: GET /customers/{customerId} (GET /instruments where a query is needed), PUT /customers on the mutable customer with its current values, or POST /webhooks with the configuration saved first',
  pagination: 'list requests (GET /transactions, GET /accounts, GET /instruments) with page, limit and sort, walking pages by following meta.nextPage',
  resources:
    'reads of the fixture records (GET /customers/{id}, /accounts, /assets/{id}, /transactions, /instruments) and, for updates, PUT /customers on the mutable customer, restored afterwards',
  ussd: 'GET /ussd/stocks, /ussd/requests and /ussd/assets for the fixture customer, then every option URL the crawler reaches (never one that places or cancels an order without --allow-mutations)',
  webhooks:
    "webhook calls (POST, PUT and GET /webhooks, GET /webhooks/key, POST /webhooks/test) with the built-in receiver's https URL, and the token requests whose events the receiver waits for",
};

const NO_ANSWER = 'no usable answer (refused, reset, timed out, a body over the cap) fails it too';

export function explainCommand(id: string, opts: ExplainOptions = {}, out: { write(text: string): unknown } = process.stdout): number {
  const explanation = explain(id);
  out.write(opts.json ? `${JSON.stringify(explanation, null, 2)}\n` : renderExplanation(explanation));
  return 0;
}

let specSections: SpecSection[] | undefined | null;
let matrix: DetectionJson | undefined | null;

/** The explanation of one check; an unknown id is a ConfigError (exit 2) naming the closest ids. */
export function explain(id: string): Explanation {
  const checks = suites.flatMap((s) => s.checks);
  const check = checks.find((c) => c.id === id);
  if (!check) {
    const near = closestIds(id, checks.map((c) => c.id));
    const hint = near.length > 0 ? `did you mean ${near.join(', ')}? ` : '';
    throw new ConfigError(`explain: no check has the id "${id}": ${hint}'conformance list' prints every id`, 'CONFORMANCE_ERR_USAGE');
  }
  if (specSections === undefined) {
    try {
      specSections = parseSpec(readSpec());
    } catch {
      specSections = null;
    }
  }
  if (matrix === undefined) matrix = readDetectionJson() ?? null;
  return explainCheck(check, specSections ?? [], matrix ?? undefined);
}

export function explainCheck(check: CheckDefinition, sections: SpecSection[], proof: DetectionJson | undefined): Explanation {
  const text = check.explain ?? deriveExplanation(check);
  const headings = [...new Set(check.requirements.map((r) => r.section))].map((heading) => {
    const section = sections.find((s) => s.heading === heading);
    return section ? `${'#'.repeat(section.level)} ${section.heading}${section.parent ? ` (under ## ${section.parent})` : ''}` : heading;
  });
  const provenBy = (proof?.faults ?? []).filter((f) => f.caughtBy.includes(check.id)).map((f) => ({ fault: f.name, description: f.description, breaks: f.breaks }));
  const collateral = (proof?.faults ?? []).flatMap((f) => (f.collateral ?? []).filter((c) => c.id === check.id).map((c) => ({ fault: f.name, ...(c.reason ? { reason: c.reason } : {}) })));
  let noFault: string | undefined;
  if (provenBy.length === 0) {
    if (check.level === 'INFO') noFault = 'none applies: an INFO check records a choice and never fails';
    else if (!proof) noFault = 'unknown: the detection matrix (docs/detection-matrix.json) is not in this installation';
    else noFault = proof.uncaught.find((u) => u.id === check.id)?.reason ?? 'no fault of the reference server makes it fail yet';
  }
  return {
    id: check.id,
    title: check.title,
    suite: check.suite,
    level: check.level,
    levelMeaning: LEVEL_MEANING[check.level],
    requirements: check.requirements,
    headings,
    ...(check.note ? { note: check.note } : {}),
    sends: text.sends,
    passes: text.passes,
    fails: text.fails,
    derived: check.explain === undefined,
    provenBy,
    ...(noFault ? { noFault } : {}),
    collateral,
  };
}

// A rejection check's title reads "<what is sent> is rejected[ <how>]" (or "is refused", "gives no token").
const REJECTION = /^(.*?)\s+(?:is|are)\s+(rejected|refused)\b(.*)$|^(.*?)\s+gives no token(.*)$/i;
const REQUEST = /\b(?:GET|PUT|POST|DELETE|PATCH)\s+\/[\w/{}.-]*[\w}]/g;

/**
 * sends / passes / fails for a check written without them, from what its title, level and suite say. Titles state
 * the expectation ("… is rejected with 401", "… answers 200 with the envelope"), so the derivation stays specific.
 */
export function deriveExplanation(check: Pick<CheckDefinition, 'title' | 'level' | 'suite'>): CheckExplanation {
  const title = check.title.replace(/\s+/g, ' ').trim();
  const named = [...new Set(title.match(REQUEST) ?? [])];
  const consequence = check.level === 'MUST' ? 'the check fails' : check.level === 'SHOULD' ? 'the check warns' : 'the check records it';

  if (check.level === 'INFO') {
    return {
      sends: named.length > 0 ? `${named.join(', ')}, as the title describes: ${title}` : `${SUITE_SENDS[check.suite]}; it looks at ${lowerFirst(title)}`,
      passes: 'always, once the answer could be read: the check records which of the reasonable variants the server chose, as an observation in every report',
      fails: 'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning)',
    };
  }

  const rejection = REJECTION.exec(title);
  if (rejection) {
    const subject = (rejection[1] ?? rejection[4] ?? '').trim();
    const how = (rejection[3] ?? rejection[5] ?? '').trim();
    const verb = rejection[2]?.toLowerCase() === 'refused' ? 'refuses' : 'rejects';
    // Auth and signing rejections go to an ordinary endpoint; the other suites' titles name what they send to.
    const target = check.suite === 'auth' || check.suite === 'signing' ? (/\b(?:GET|PUT|POST|DELETE|PATCH)\b|token request/.test(subject) ? '' : ', sent to an endpoint that answers 2xx to a correct request') : '';
    // "After POST /oauth/revoke, the revoked token is rejected": the subject is a moment and a credential.
    const sends = /^after\b/i.test(subject) ? `${upperFirst(subject)}, sent on an otherwise correct request` : `${upperFirst(`${REJECTION_PREFIX[check.suite] ?? ''}${subject}`)}, correct in every other respect${target}`;
    const status = /\b[45](?:\d\d|xx)\b/.test(how);
    return {
      sends,
      passes: `the server ${verb} it${how ? (how.startsWith(',') ? how : ` ${how}`) : ''}${status ? '' : ' (any 4xx is a rejection)'}`,
      fails: `a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): ${consequence}; ${NO_ANSWER}`,
    };
  }

  return {
    sends: named.length > 0 ? `${named.join(', ')}, ${SEND_CONTEXT[check.suite]}` : SUITE_SENDS[check.suite],
    passes: `the server's answers show that ${lowerFirst(title)}`,
    fails: `any answer that does not (${consequence}); the report names the field, status or item that differs and shows the exchange; ${NO_ANSWER}`,
  };
}

function lowerFirst(text: string): string {
  // "The USSD menus…" → "the USSD menus…", but "GET /x…" stays as it is.
  return /^[A-Z](?:[a-z]|\s)/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}

function upperFirst(text: string): string {
  return text ? text[0]!.toUpperCase() + text.slice(1) : text;
}

export function renderExplanation(e: Explanation): string {
  const lines = [`${e.id}   ${e.level}   suite ${e.suite}`, ''];
  const field = (label: string, text: string) => lines.push(...wrapLabelled(label, text));
  field('title', e.title);
  field('spec', e.headings.join('; '));
  field('enforces', `${e.requirements.length} requirement${e.requirements.length === 1 ? '' : 's'} of spec/requirements.json:`);
  for (const r of e.requirements) field('', `${r.level} ${requirementLine(r)}${r.note ? ` (note: ${r.note})` : ''}`);
  if (e.note) field('note', e.note);
  field('level', `${e.level}: ${e.levelMeaning}`);
  field('sends', e.sends);
  field('passes', e.passes);
  field('fails', e.fails);
  if (e.derived) field('', '(sends, passes and fails are derived from the title and level; the check\'s code has the details)');
  if (e.provenBy.length > 0) {
    field('proven by', `${e.provenBy.length === 1 ? '1 fault of the reference server makes' : `${e.provenBy.length} faults of the reference server make`} it fail (see it with: conformance run --fault NAME --grep '^${e.id.replace(/\./g, '\\.')}$'):`);
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
