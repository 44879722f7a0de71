// The proxy matrix (issue 30, item 5): example clients through the intercepting proxy of `conformance proxy` against
// the reference server, their traffic judged on both sides as a proxy session judges it (judge-api.ts judgeTraffic).
// Three kinds of row: the good client against the clean server and against open-point choice bundles (no finding on
// either side); each broken example client against the clean server (its own client check fails, on the client side,
// citing an exchange, and no other check; or the row says its flaw is not visible in traffic); the good client against
// each server fault (the server checks that fail are among those the detection matrix says catch it, the client side
// stays clean; a fault the good client's traffic does not show is recorded as not visible). This file holds the pure
// parts (the cases, a row from a judged session, the problems, the documents); ./proxy-run.ts runs a case.
import { createHash } from 'node:crypto';
import type { DeliveryAttempt } from '../reference/webhooks/delivery.js';

/** What a row is: the good client against a server that reads open points some way, a broken client, a server fault. */
type ProxyRowKind = 'choices' | 'flaw' | 'fault';

/** One row to run: a client (a command from the repository's root), its scenarios, and the server it meets. */
export interface ProxyCase {
  name: string;
  kind: ProxyRowKind;
  /** The client's command after `node`: a compiled example client and its arguments. */
  client: string[];
  /** The scenarios run through one proxy session, one client process each, in order. */
  scenarios: string[];
  /** The open-point choice bundle of the server (choices.ts choiceBundles), for `choices`. */
  bundle?: string;
  /** For `choices`: the open points held at their default reading, which the good client cannot follow otherwise. */
  held?: string[];
  /** The server fault (src/reference/faults/), for `fault`. */
  fault?: string;
  /**
   * For `flaw`: the client checks the flaw must fail. For `fault`: the server checks that may fail (those the
   * detection matrix says catch it). Empty for `choices`.
   */
  expected: string[];
  /** Set when the row is not run at all: why its flaw cannot show in a proxy session of this matrix. */
  notRun?: string;
}

/** What a check of a judged session came to: what a row needs of a CheckResult. */
export interface JudgedCheck {
  id: string;
  outcome: string;
  /** Whether its finding cites an exchange of the traffic (among its exchanges, or by number). */
  cited: boolean;
  skipReason?: string;
}

/** A proxy session of a case, judged on both sides. */
export interface JudgedSession {
  /** Exchanges with the target the proxy recorded. */
  exchanges: number;
  /** With the webhooks scenario: the server's deliveries the proxy's webhook leg recorded. */
  deliveries?: number;
  /** Set when a webhooks session did not settle (the key not fetched, deliveries still going) within its time limit. */
  unsettled?: string;
  /**
   * With the webhooks scenario: the server's deliveries whose last attempt got no answer (an error, no status), each as
   * "EVENT: error (attempt n)". Not part of a row: said beside it, so a count that differs names its cause.
   */
  unanswered?: string[];
  checks: JudgedCheck[];
  /** How each scenario's client ended: its exit code (null: killed at its time limit) and its last line on stderr. */
  clients: Array<{ code: number | null; said: string }>;
}

/** The deliveries whose last attempt got no answer at all (an error, no status), as JudgedSession.unanswered says them. */
export function unansweredDeliveries(attempts: readonly DeliveryAttempt[]): string[] {
  return attempts
    .filter((a) => a.outcome !== 'delivered' && a.outcome !== 'retrying' && a.status === undefined)
    .map((a) => `${a.event}: ${a.error ?? a.outcome} (attempt ${a.attempt})`);
}

export interface ProxyRow {
  name: string;
  kind: ProxyRowKind;
  client: string;
  /** `clean`, a choice bundle's name, or a fault's. */
  server: string;
  scenarios: string[];
  /** For `choices`: the open points held at their default reading (ProxyCase.held). */
  held?: string[];
  expected: string[];
  /** Expected checks that failed (or warned), citing an exchange. */
  caught: string[];
  /** For `flaw`: expected checks the traffic exercised that did not fail. */
  missed: string[];
  /** Checks that failed or warned and may not: on a clean row any, else one not expected or on the wrong side. */
  collateral: string[];
  /** Checks that failed or warned citing no exchange of the traffic. */
  uncited: string[];
  /** Checks that broke (outcome error). */
  errored: string[];
  /** Why the row shows nothing, when traffic cannot show its flaw or fault: recorded, not a problem. */
  notVisible?: string;
  /** Set when the good client did not exit 0 on a row it must (choices). */
  clientFailed?: string;
  /** Set when the proxy recorded no exchange of a row that ran: the client did not go through it. */
  noTraffic?: boolean;
  /** With the webhooks scenario: the server's deliveries the webhook leg recorded. */
  deliveries?: number;
  /** Set when a webhooks session did not settle within its time limit (JudgedSession.unsettled). */
  unsettled?: string;
}

export interface ProxyMatrixJson {
  /** Changes when a check, an example client, a fault, a bundle or the detection matrix's catchers change. */
  fingerprint: string;
  rows: ProxyRow[];
}

const failing = (c: JudgedCheck) => c.outcome === 'fail' || c.outcome === 'warn';
const clientSide = (id: string) => id.startsWith('client.');

/** The good example client, as the client matrix runs it (example-clients.ts). */
const GOOD_CLIENT = ['dist/examples/clients/ts/good.js'];

/**
 * The scenarios the good client runs through the proxy: those whose traffic the reference server answers as it does
 * any client's. Not `renew` and `throttle`: the sandbox of `conformance client` ends the token or answers 429 on
 * purpose there, the reference server does not, so the client sends what it sends in `read` (and `token`). `webhooks`
 * runs with the proxy's webhook leg in front of the client's receiver (`conformance proxy --receiver`, ./proxy-run.ts):
 * the server's deliveries go through the proxy and are judged with the traffic.
 */
export const PROXY_SCENARIOS = ['token', 'read', 'update', 'ussd', 'webhooks'];

/**
 * The server a flaw meets, when not the clean one: the reference server's default page mode is an index, so meta.nextPage
 * equals the next index and a client that counts pages sends what a correct one sends; with item offsets they differ.
 */
const FLAW_BUNDLES: Readonly<Record<string, string>> = { 'page-index': 'page-mode=offset' };

/** The choice bundles afforded: the defaults, every choice at its second and at its last reading, the seeded random ones. */
export const PROXY_BUNDLES = ['default', 'all-second', 'all-last', 'random-1', 'random-2', 'random-3', 'random-4'];

/**
 * The open points the good example client follows one reading of (the reference server's default), held there in every
 * bundle: with another it stops (its token read from data.token, a 200 for the token, its revoke without a body, its
 * signature over @target-uri with a 300 s window, its USSD walk by the home portfolio, the delivery key read from the
 * `data` of GET /webhooks/key's envelope). `connection`: when the server
 * drops a kept-alive connection (drop-idle) the proxy answers the client 502 (src/proxy/forward.ts does not retry).
 */
export const HELD_POINTS = [
  'token-envelope',
  'creation-status',
  'revoke-body',
  'signature-target',
  'signature-window',
  'ussd-home-portfolio',
  'webhook-answer',
  'connection',
];

/** A bundle's choices without the open points held at their default (HELD_POINTS, by their camelCase keys). */
export function withoutHeld<T extends object>(choices: T): Partial<T> {
  const keys = HELD_POINTS.map((name) => name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()));
  return Object.fromEntries(Object.entries(choices).filter(([key]) => !keys.includes(key))) as Partial<T>;
}

/** A flaw of examples/clients/ts/flaws.ts, as the matrix needs it. */
export interface FlawLike {
  fails: readonly string[];
  scenario: string;
}

/**
 * The scenarios the good client runs against a fault of each suite: those whose traffic reaches the suite's endpoints
 * (each client process costs a Node start; every scenario against every fault would take minutes). A fault of a suite
 * not listed is not run.
 */
export const FAULT_SCENARIOS: Readonly<Record<string, readonly string[]>> = {
  auth: ['token'],
  signing: ['token'],
  pagination: ['read'],
  resources: ['read', 'update'],
  ussd: ['ussd'],
  webhooks: ['webhooks'],
};

/**
 * Why a client check without an observe facet cannot judge a proxy session, where the generic reason (it needs a
 * scenario of `conformance client`) says too little: the webhooks checks that read what the receiver accepted. The
 * reference server, clean, sends only deliveries that verify: no forged or stale one for a receiver to discard.
 */
const NOT_IN_TRAFFIC: Readonly<Record<string, string>> = {
  'client.webhooks.discards-forged':
    "what the receiver accepted is the eventIds it wrote to CONFORMANCE_ACCEPTED_FILE, not in traffic, and only the sandbox of conformance client forges deliveries: a clean server's all verify",
  'client.webhooks.discards-stale':
    "what the receiver accepted is the eventIds it wrote to CONFORMANCE_ACCEPTED_FILE, not in traffic, and only the sandbox of conformance client sends expired, future and replayed deliveries: a clean server's are fresh",
  'client.webhooks.accepts-valid':
    'what the receiver accepted is the eventIds it wrote to CONFORMANCE_ACCEPTED_FILE, not in traffic (its non-2xx answer to a delivery that verifies is, but no observe facet judges it)',
  'client.webhooks.registered':
    "it judges the sandbox's record of the scenario (a registration and a key fetch, which traffic shows, but no observe facet judges them)",
};

/**
 * Every row, in a fixed order: choices, flaws, faults. `catchers` maps a fault to the checks that catch it; `held` are
 * the open points each bundle holds at their default reading (the good client follows only that one).
 */
export function proxyCases(
  bundles: readonly string[],
  held: readonly string[],
  flaws: Readonly<Record<string, FlawLike>>,
  faults: ReadonlyArray<{ name: string; suite: string }>,
  catchers: ReadonlyMap<string, readonly string[]>,
): ProxyCase[] {
  const cases: ProxyCase[] = bundles.map((bundle) => ({
    name: `good / ${bundle}`,
    kind: 'choices',
    client: GOOD_CLIENT,
    scenarios: PROXY_SCENARIOS,
    bundle,
    ...(bundle === 'default' ? {} : { held: [...held] }),
    expected: [],
  }));
  for (const [name, flaw] of Object.entries(flaws)) {
    cases.push({
      name,
      kind: 'flaw',
      client: ['dist/examples/clients/ts/broken.js', name],
      scenarios: [flaw.scenario],
      ...(FLAW_BUNDLES[name] !== undefined ? { bundle: FLAW_BUNDLES[name] } : {}),
      expected: [...flaw.fails],
    });
  }
  for (const fault of faults) {
    const scenarios = FAULT_SCENARIOS[fault.suite];
    cases.push({
      name: `good / ${fault.name}`,
      kind: 'fault',
      client: GOOD_CLIENT,
      scenarios: [...(scenarios ?? [])],
      fault: fault.name,
      expected: [...(catchers.get(fault.name) ?? [])],
      ...(scenarios === undefined
        ? {
            notRun: `not visible in the good client's traffic: it holds no exchange of the ${fault.suite} suite's endpoints`,
          }
        : {}),
    });
  }
  return cases;
}

/** A row not run (ProxyCase.notRun): nothing found, and why. */
export function notRunRow(c: ProxyCase): ProxyRow {
  return { ...rowHead(c), caught: [], missed: [], collateral: [], uncited: [], errored: [], notVisible: c.notRun! };
}

function rowHead(
  c: ProxyCase,
): Pick<ProxyRow, 'name' | 'kind' | 'client' | 'server' | 'scenarios' | 'held' | 'expected'> {
  return {
    name: c.name,
    kind: c.kind,
    client: c.kind === 'flaw' ? c.name : 'good',
    server: c.bundle ?? c.fault ?? 'clean',
    scenarios: [...c.scenarios],
    ...(c.held !== undefined ? { held: [...c.held] } : {}),
    expected: [...c.expected],
  };
}

/**
 * The row of a judged session. `observable`: the checks that can judge traffic (those with an `observe`
 * facet); a flaw owned by none of them is not visible in traffic, nor is one whose checks all judged nothing.
 */
export function proxyRow(c: ProxyCase, judged: JudgedSession, observable: ReadonlySet<string>): ProxyRow {
  const bad = judged.checks.filter(failing);
  const badIds = bad.map((x) => x.id);
  const row: ProxyRow = {
    ...rowHead(c),
    caught: [],
    missed: [],
    collateral: [],
    uncited: bad.filter((x) => !x.cited).map((x) => x.id),
    errored: judged.checks.filter((x) => x.outcome === 'error').map((x) => x.id),
  };
  if (judged.exchanges === 0) row.noTraffic = true;
  if (judged.deliveries !== undefined) row.deliveries = judged.deliveries;
  if (judged.unsettled !== undefined) row.unsettled = judged.unsettled;
  if (c.kind === 'choices') {
    row.collateral = badIds;
    const ended = judged.clients.map((end, i) => ({ scenario: c.scenarios[i], ...end })).filter((e) => e.code !== 0);
    if (ended.length > 0)
      row.clientFailed = ended
        .map((e) => `${e.scenario}: ${e.code === null ? 'killed' : `exit ${e.code}`}${e.said ? ` (${e.said})` : ''}`)
        .join(', ');
    return row;
  }
  if (c.kind === 'flaw') {
    row.caught = badIds.filter((id) => c.expected.includes(id));
    row.collateral = badIds.filter((id) => !c.expected.includes(id));
    const visible = c.expected.filter((id) => observable.has(id));
    const skipped = (id: string) => judged.checks.find((x) => x.id === id)?.outcome === 'skip';
    row.missed = visible.filter((id) => !badIds.includes(id) && !skipped(id));
    if (row.caught.length === 0 && row.missed.length === 0) {
      const specific = c.expected.filter((id) => NOT_IN_TRAFFIC[id] !== undefined);
      row.notVisible =
        visible.length === 0 && specific.length === c.expected.length
          ? `not visible in traffic: ${c.expected.map((id) => `${id} has no observe facet: ${NOT_IN_TRAFFIC[id]!}`).join('; ')}`
          : visible.length === 0
            ? `not visible in traffic: ${c.expected.join(', ')} ${c.expected.length === 1 ? 'has' : 'have'} no observe facet (${c.expected.length === 1 ? 'it needs' : 'they need'} a scenario of conformance client)`
            : `not visible in traffic: ${visible.join(', ')} judged nothing in this session (${visible
                .map((id) => judged.checks.find((x) => x.id === id)?.skipReason ?? 'skipped')
                .join('; ')})`;
    }
    return row;
  }
  // A fault: server checks among its catchers; nothing on the client side.
  row.caught = badIds.filter((id) => !clientSide(id) && c.expected.includes(id));
  row.collateral = badIds.filter((id) => clientSide(id) || !c.expected.includes(id));
  if (badIds.length === 0) row.notVisible = faultNotVisible(c.expected, observable);
  return row;
}

/**
 * Why a fault shows nothing in the good client's traffic: its catchers cannot judge traffic (no observe facet: they
 * judge what the suite sends on purpose), or those that can passed or judged nothing.
 */
function faultNotVisible(catchers: readonly string[], observable: ReadonlySet<string>): string {
  const visible = catchers.filter((id) => observable.has(id));
  if (catchers.length === 0) return "not visible in the good client's traffic";
  if (visible.length === 0)
    return `not visible in the good client's traffic: ${catchers.join(', ')} ${catchers.length === 1 ? 'has' : 'have'} no observe facet (${catchers.length === 1 ? 'it judges' : 'they judge'} only a run's own requests and receiver)`;
  return `not visible in the good client's traffic: ${visible.join(', ')} found nothing in it`;
}

export function proxyFingerprint(
  checks: ReadonlyArray<{ id: string; level: string; observes: boolean }>,
  cases: readonly ProxyCase[],
): string {
  const rows = cases.map((c) => [
    c.name,
    c.client,
    c.scenarios,
    c.bundle ?? c.fault ?? 'clean',
    c.held ?? [],
    c.expected,
    c.notRun ?? '',
  ]);
  return createHash('sha256')
    .update(JSON.stringify({ checks: checks.map((c) => [c.id, c.level, c.observes]), rows }))
    .digest('hex')
    .slice(0, 16);
}

/** What makes the matrix unacceptable, one line each. */
export function proxyMatrixProblems(matrix: Pick<ProxyMatrixJson, 'rows'>): string[] {
  const problems: string[] = [];
  for (const r of matrix.rows) {
    if (r.noTraffic) problems.push(`${r.name}: the proxy recorded no exchange (did the client go through it?)`);
    if (r.unsettled !== undefined) problems.push(`${r.name}: ${r.unsettled}`);
    if (r.clientFailed !== undefined) problems.push(`${r.name}: the good client did not finish (${r.clientFailed})`);
    if (r.missed.length > 0) problems.push(`${r.name}: not caught by ${r.missed.join(', ')}`);
    if (r.collateral.length > 0)
      problems.push(
        r.kind === 'choices'
          ? `${r.name}: a finding on a clean row: ${r.collateral.join(', ')}`
          : r.kind === 'flaw'
            ? `${r.name}: also failed ${r.collateral.join(', ')} (collateral)`
            : `${r.name}: failed ${r.collateral.join(', ')}, not among the checks the detection matrix says catch it or on the client side (collateral)`,
      );
    if (r.uncited.length > 0) problems.push(`${r.name}: ${r.uncited.join(', ')} failed citing no exchange`);
    if (r.errored.length > 0) problems.push(`${r.name}: checks broke: ${r.errored.join(', ')}`);
  }
  return problems;
}

export function renderProxyMatrixJson(matrix: ProxyMatrixJson): string {
  return `${JSON.stringify(matrix, null, 2)}\n`;
}

export function renderProxyMatrix(matrix: ProxyMatrixJson): string {
  const count = (kind: ProxyRowKind, shown: boolean) =>
    matrix.rows.filter((r) => r.kind === kind && (r.notVisible === undefined) === shown).length;
  const lines = [
    '# Proxy matrix',
    '',
    'Generated by `npm run matrix` (scripts/proxy-matrix.mjs): example clients (examples/clients/ts/) run through the',
    'intercepting proxy of `conformance proxy` (in process) against the reference server over TLS, each session judged',
    'on both sides as `conformance proxy` judges it. A row is one proxy session:',
    '',
    `- the good client against the clean server and open-point choice bundles (scenarios ${PROXY_SCENARIOS.join(', ')}): no finding on either side;`,
    '- each broken client (one flaw of examples/clients/ts/flaws.ts, its own scenario) against the clean server (page-index: with item offsets): its own',
    '  client check fails, on the client side, citing an exchange, and no other check; or the flaw is not visible in',
    '  traffic (its check has no observe facet, or judged nothing in the session);',
    '- the good client against each server fault: the server checks that fail are among those the detection matrix says',
    "  catch it, the client side stays clean; a fault the good client's traffic does not show is not visible.",
    '',
    `Scenarios: ${PROXY_SCENARIOS.join(', ')}. Not renew and throttle (the sandbox of \`conformance client\` ends the token or`,
    'answers 429 on purpose there; the reference server does not, so the client sends what it sends in read).',
    "webhooks runs with the proxy's webhook leg (`conformance proxy --receiver`) in front of the client's receiver: the",
    "client registers the leg's URL, the server trusts the proxy's CA, each delivery is forwarded to the receiver and",
    'judged with the traffic; the session ends once the client has fetched the delivery key and every delivery the',
    'server caused has been answered (the scenarios cell says how many the leg recorded). A clean server sends only',
    'deliveries that verify, so the receiver flaws that need forged or stale ones cannot show.',
    '',
    `Choice bundles: ${count('choices', true)} rows. Flaws: ${count('flaw', true)} caught, ${count('flaw', false)} not visible. Faults: ${count('fault', true)} shown, ${count('fault', false)} not visible in the good client's traffic.`,
    '',
    '| row | client | server | scenarios | must fail (flaw) / may fail (fault) | failed | result |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of matrix.rows) {
    const got = [...r.caught, ...r.collateral.map((id) => `${id} (collateral)`)];
    const problems = proxyMatrixProblems({ rows: [r] });
    const result = problems.length > 0 ? `PROBLEM: ${problems.join('; ')}` : (r.notVisible ?? 'ok');
    lines.push(
      `| ${r.name} | ${r.client} | ${r.server}${r.held?.length ? ` (held at default: ${r.held.join(', ')})` : ''} | ${r.scenarios.join(', ')}${r.deliveries !== undefined ? ` (${r.deliveries} deliver${r.deliveries === 1 ? 'y' : 'ies'})` : ''} | ${r.expected.join(', ') || '—'} | ${got.join(', ') || '—'} | ${result} |`,
    );
  }
  lines.push('');
  return lines.join('\n');
}
