// The library entry point behind `conformance judge FILE.har` (issue 30): the server checks that can judge an answer
// alone run their `observe` over a HAR's answers to the target, and the client checks that can judge a request over its
// requests (`side`), sending nothing; every other check is reported as not exercised (skipped, with why), so the
// verdict never claims more than the traffic showed.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { loadConfig, selectTarget } from './config/load.js';
import type { LoadedConfig, ResolvedTarget } from './config/types.js';
import {
  CheckFailed,
  runChecks,
  type CheckResult,
  type Pack,
  type RunResult,
  type RunSettings,
} from './engine/index.js';
import { JudgeSideError, UserError } from './errors.js';
import { generateEd25519 } from './http/keys.js';
import { Redactor } from './http/redact.js';
import { prepareReports, type PreparedReports, type ReportOptions } from './reports.js';
import { readHar } from './traffic/har.js';
import { leftOutLine, toTarget } from './traffic/scope.js';
import type { TrafficExchange } from './traffic/exchange.js';
import type { FoldedSkips } from './report/human.js';
import { pack } from '../suites/index.js';
import { NOT_EXERCISED_CLIENT, clientJudgePack } from '../suites/client/index.js';
import { NOT_EXERCISED, bothSidesPack, judgePack, type JudgePack, type ObservedClient } from '../suites/kit/index.js';

/** Whose side of the traffic is judged: the server's answers, the client's requests, or both. */
export type JudgeSide = 'server' | 'client' | 'both';

/** `--side` as given: a side, or a one-line error (exit 2). */
export function judgeSideOf(text: string): JudgeSide {
  if (text === 'server' || text === 'client' || text === 'both') return text;
  throw new JudgeSideError(`--side: "${text}" is not a side; give server, client or both`);
}

/**
 * The terminal report of a judge run counts the checks traffic cannot exercise in one line (over a hundred), so the
 * checks that judged something stand out; `-v` lists them, and the JSON, JUnit and HTML reports hold every check.
 */
export const NOT_EXERCISED_FOLD: FoldedSkips = {
  reason: NOT_EXERCISED,
  line: (n) =>
    `${n} check${n === 1 ? '' : 's'} not exercised: ${n === 1 ? 'it needs' : 'each needs'} requests of its own, which observed traffic does not hold (-v lists them)`,
};

/** The client checks a judge run cannot exercise, counted in one line as the server's are (NOT_EXERCISED_FOLD). */
const NOT_EXERCISED_CLIENT_FOLD: FoldedSkips = {
  reason: NOT_EXERCISED_CLIENT,
  line: (n) =>
    `${n} client check${n === 1 ? '' : 's'} not exercised: ${n === 1 ? 'it needs' : 'each needs'} a scenario of \`conformance client\` (what the sandbox does on purpose, the task the client is given), which observed traffic does not show (-v lists them)`,
};

/** The terminal report's folds of a judge run: the server checks not exercised, then the client checks. */
export const NOT_EXERCISED_FOLDS: readonly FoldedSkips[] = [NOT_EXERCISED_FOLD, NOT_EXERCISED_CLIENT_FOLD];

export interface JudgeOptions extends ReportOptions, Pick<RunSettings, 'failOn' | 'failOnIncomplete'> {
  /** The HAR file (relative to `cwd`). */
  file: string;
  /** The target whose baseUrl scopes the traffic: a name of the config file. */
  target?: string;
  /** A loaded config, or the path of a config file; by default conformance.config.json in `cwd`. */
  config?: LoadedConfig | string;
  /** The base URL that scopes the traffic, in place of a target's; inferred from the HAR when neither is given. */
  baseUrl?: string;
  cwd?: string;
  /**
   * Whose side to judge (default server): `client` and `both` judge the client as the target of `target` names it (its
   * clientId, keyId and key), so they need `target`.
   */
  side?: JudgeSide;
  /** Told what was left out of the HAR (other hosts, other paths, CONNECT tunnels…); on stderr by default. */
  onNote?: (line: string) => void;
}

/** Judges the HAR's traffic on `side`; throws HarError (exit 2) for a file it cannot read. */
export async function judge(options: JudgeOptions): Promise<RunResult> {
  const side = options.side ?? 'server';
  if (side !== 'server' && options.target === undefined)
    throw new JudgeSideError(
      `--side ${side}: the client is judged as a target of the config names it (its clientId, keyId and privateKeyFile or privateKey): give --target NAME`,
    );
  const reports = await prepareReports(options);
  const path = resolve(options.cwd ?? '.', options.file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new UserError(`${options.file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)})`, 2);
  }
  const har = readHar(text, options.file);
  const target = await judgeTarget(options, har.exchanges);
  const baseUrl = new URL(target.baseUrl);
  const scoped = toTarget(har.exchanges, baseUrl);
  const leftOut = leftOutLine(scoped, baseUrl);
  const skipped = Object.entries(har.skipped).map(([why, n]) => `${n} ${why} entr${n === 1 ? 'y' : 'ies'} skipped`);
  const delivered = har.deliveries.length > 0 ? ` and ${har.deliveries.length} webhook deliver(ies)` : '';
  const notes = [
    `judged ${scoped.exchanges.length} exchange(s)${delivered} of ${options.file}${har.creator !== undefined ? ` (written by ${har.creator})` : ''} against ${target.baseUrl}; ${sideNote(side, target)}`,
    ...(leftOut !== undefined ? [leftOut] : []),
    ...skipped,
  ];
  for (const line of notes.slice(1)) (options.onNote ?? noteOnStderr)(line);
  return judgeTraffic({
    ...options,
    side,
    reports,
    target,
    exchanges: scoped.exchanges,
    deliveries: har.deliveries,
    notes,
  });
}

/** The client a target of the config names: the client side is judged as this client (its id, keyid, public key). */
function clientOf(target: ResolvedTarget): ObservedClient {
  return { clientId: target.clientId, keyId: target.keyId, privateKeyPem: target.privateKeyPem };
}

/**
 * The side a proxy session judges: `asked` (--side), else both when the target names the client (its id, keyid and
 * key), else server; and the line that says which, and why.
 */
export function proxySide(asked: string | undefined, target: ResolvedTarget): { side: JudgeSide; line: string } {
  const client = `the client ${target.clientId} (keyid ${target.keyId}) of target ${target.name}`;
  if (asked !== undefined) {
    const side = judgeSideOf(asked);
    return { side, line: `judging ${sideWords(side)} (--side ${side})${side === 'server' ? '' : `, as ${client}`}` };
  }
  const named = target.clientId !== '' && target.keyId !== '' && target.privateKeyPem !== '';
  return named
    ? {
        side: 'both',
        line: `judging both sides (--side both, the default: the config names ${client}; --side server for the server's alone)`,
      }
    : {
        side: 'server',
        line: "judging the server's side (the default: the target names no client, its clientId, keyId and key)",
      };
}

function sideWords(side: JudgeSide): string {
  return { server: "the server's side", client: "the client's side", both: 'both sides' }[side];
}

/** `side: both (the client as acme, keyid acme-2026)`: the side judged, and as which client. */
export function sideNote(side: JudgeSide, target: ResolvedTarget): string {
  return side === 'server'
    ? 'side: server'
    : `side: ${side} (the client as ${target.clientId}, keyid ${target.keyId}, of target ${target.name})`;
}

/** Traffic to judge, from a HAR (`judge`) or the intercepting proxy (`conformance proxy`). */
export interface JudgeTrafficOptions extends Pick<RunSettings, 'failOn' | 'failOnIncomplete'> {
  /** The reports, prepared before the traffic was read or recorded: a bad report path fails before anything else. */
  reports: PreparedReports;
  /** The target whose base URL scoped the traffic. */
  target: ResolvedTarget;
  /** The traffic to the target, already scoped (traffic/scope.ts toTarget). */
  exchanges: readonly TrafficExchange[];
  /** The run's notes: the first says what was judged, the rest what was left out. */
  notes: string[];
  /** Whose side to judge (default server); the client is the one `target` names. */
  side?: JudgeSide;
  /**
   * The server's webhook deliveries the traffic holds (`conformance proxy --receiver`, or the entries a HAR marks as
   * deliveries: src/traffic/delivery.ts), numbered with the traffic.
   */
  deliveries?: readonly TrafficExchange[];
}

/**
 * The one judge of traffic: the server checks that can judge observed answers run their `observe` over it (the judge
 * pack, suites/kit/judge.ts), the client checks that can judge observed requests theirs (clientJudgePack), as `side`
 * asks; every other check is skipped as not exercised; reports and exit code as a run's (the worst of both sides).
 */
export function judgeTraffic(options: JudgeTrafficOptions): Promise<RunResult> {
  const { target } = options;
  const judged = sidesPack(pack, options.side ?? 'server', target, options.exchanges, options.deliveries);
  return runChecks({
    ...(options.failOn !== undefined ? { failOn: options.failOn } : {}),
    ...(options.failOnIncomplete !== undefined ? { failOnIncomplete: options.failOnIncomplete } : {}),
    target,
    pack: judged.pack,
    reporter: options.reports.reporter({ keyId: target.keyId, privateKey: target.privateKey }),
    notes: options.notes,
    targetArgs: [],
    recordedOptions: {},
    observed: {
      exchanges: options.exchanges,
      ...(options.deliveries !== undefined ? { deliveries: options.deliveries } : {}),
    },
  });
}

/** The checks that can judge observed traffic, and only they: what judgeAlone runs (the others would only skip). */
const observing: Pack = {
  ...pack,
  suites: pack.suites
    .map((s) => ({ ...s, checks: s.checks.filter((c) => c.observe !== undefined) }))
    .filter((s) => s.checks.length > 0),
};

/**
 * What the judges of traffic find in one exchange alone, as `conformance proxy` shows it as it happens (a few ms): the
 * checks that failed, warned or errored on it. The session's verdict is judgeTraffic's over the whole traffic, which
 * also judges what takes several answers; this is a preview of it, never a verdict.
 */
export async function judgeAlone(
  target: ResolvedTarget,
  exchange: TrafficExchange,
  side: JudgeSide = 'server',
): Promise<CheckResult[]> {
  const judged = sidesPack(observing, side, target, [exchange]);
  const result = await runChecks({ target, pack: judged.pack, notes: [], targetArgs: [], recordedOptions: {} });
  return result.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn' || c.outcome === 'error');
}

/**
 * The judge pack of `side` over the traffic: the server checks of `server`, the client checks (the client `target`
 * names), or both in one pack. With the client's side judged, each finding's message begins with its side.
 */
function sidesPack(
  server: Pack,
  side: JudgeSide,
  target: ResolvedTarget,
  traffic: readonly TrafficExchange[],
  deliveries: readonly TrafficExchange[] = [],
): JudgePack {
  const redactor = new Redactor();
  const servers = judgePack(server, traffic, redactor, deliveries);
  if (side === 'server') return servers;
  const clients = clientJudgePack(traffic, {
    baseUrl: target.baseUrl,
    redactor,
    client: clientOf(target),
    deliveries,
  });
  if (side === 'client') return named(clients, 'client');
  return bothSidesPack(named(servers, 'server'), named(clients, 'client'));
}

/** The pack with each finding's message saying its side: `client side: …`. */
function named(judged: JudgePack, side: 'client' | 'server'): JudgePack {
  const suites = judged.pack.suites.map((s) => ({
    ...s,
    checks: s.checks.map((c) => ({
      ...c,
      run: async (ctx: Parameters<typeof c.run>[0]) => {
        try {
          await c.run(ctx);
        } catch (e) {
          if (!(e instanceof CheckFailed)) throw e;
          throw new CheckFailed({ ...e.finding, message: `${side} side: ${e.finding.message}` });
        }
      },
    })),
  }));
  return { ...judged, pack: { ...judged.pack, suites } };
}

/** The target that scopes the traffic: the config's, or one made for the base URL given or inferred. */
async function judgeTarget(options: JudgeOptions, traffic: readonly TrafficExchange[]): Promise<ResolvedTarget> {
  if (options.target !== undefined) {
    if (options.baseUrl !== undefined) throw new UserError('give --target or --base-url, not both', 2);
    return configTarget({ ...options, target: options.target });
  }
  if (options.config !== undefined)
    throw new UserError('--config names the file of --target NAME: give --target too', 2);
  return madeTarget(options.baseUrl !== undefined ? parsedBase(options.baseUrl) : inferredBase(traffic));
}

/** `--target NAME` of the config (`--config FILE`, else conformance.config.json in `cwd`); unknown: exit 2. */
export async function configTarget(options: {
  target: string;
  config?: LoadedConfig | string;
  cwd?: string;
}): Promise<ResolvedTarget> {
  const config =
    typeof options.config === 'object'
      ? options.config
      : await loadConfig({ configPath: options.config, cwd: options.cwd, target: options.target });
  return selectTarget(config, options.target);
}

function parsedBase(text: string): string {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    throw new UserError(`--base-url: "${text}" is not an http(s) URL; give one like https://api.example.com/v1`, 2);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The base URL the traffic shows when it shows exactly one: an origin and a `/v<N>` first path segment. */
function inferredBase(traffic: readonly TrafficExchange[]): string {
  const bases = new Set<string>();
  for (const t of traffic) {
    const url = URL.canParse(t.request.url) ? new URL(t.request.url) : undefined;
    const version = url?.pathname.match(/^\/v\d+(?=\/|$)/)?.[0];
    if (url !== undefined && version !== undefined) bases.add(`${url.origin}${version}`);
  }
  if (bases.size === 1) return [...bases][0]!;
  throw new UserError(
    `cannot tell the API's base URL from the HAR (${bases.size === 0 ? 'no request under a /v1-like path' : `${bases.size} candidates: ${[...bases].sort().join(', ')}`}); pass --target NAME or --base-url URL`,
    2,
  );
}

/** No server of the user's is sent to: a fresh key, made only to sign an evidence package. */
function madeTarget(baseUrl: string): ResolvedTarget {
  const key = generateEd25519();
  return {
    name: 'judged',
    baseUrl,
    clientId: 'conformance-judge',
    clientSecret: randomBytes(24).toString('base64url'),
    keyId: `conformance-judge-${randomBytes(4).toString('hex')}`,
    privateKeyPem: key.privateKeyPem,
    privateKey: key.seed,
    fixtures: {},
    webhook: { listen: '127.0.0.1:0', tls: 'none' },
  };
}

function noteOnStderr(line: string): void {
  process.stderr.write(`conformance: ${line}\n`);
}
