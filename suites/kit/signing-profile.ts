// The signing profile a run learns when it opens (REQ-AUTH-13: "Exact rules for building the signature base and the
// signing algorithm parameters: not shown"). The run starts with the default profile (a 60 s window over @method
// @target-uri @path @query); a token request refused in that shape is tried again in other shapes, shorter windows
// and other components covering the target, at most MAX_SIGNING_SHAPES token requests, and the first shape that gets
// a token signs the whole run. What the target's config fixes (`signing`) is never varied. Session.fetch does the
// trying; this module says which shapes, in which order, and how the run tells of them.
import {
  DEFAULT_SIGNING_PROFILE,
  describeProfile,
  type SigningProfile,
  type TargetComponent,
} from '../../src/http/signature.js';

/** Token requests a run spends at most on finding a signing shape the server takes (the first one included). */
export const MAX_SIGNING_SHAPES = 8;

/** Windows tried, longest first: the default, then what servers with a short limit take (FAPI 2.0: one minute). */
const WINDOWS = [DEFAULT_SIGNING_PROFILE.windowSeconds, 30, 10];

/**
 * Components tried: both ways of covering the target (a server checks either), then @path and @query alone (a server
 * behind a TLS-terminating proxy sees another @target-uri than the client signed), then @target-uri alone (a server
 * that takes no more than it needs).
 */
const TARGETS: ReadonlyArray<readonly TargetComponent[]> = [
  DEFAULT_SIGNING_PROFILE.components,
  ['@method', '@path', '@query'],
  ['@method', '@target-uri'],
];

/**
 * The shapes to try, in order: the default (with what the config fixes), then one thing changed (a shorter window,
 * then other components), then both (the other components with each shorter window); at most MAX_SIGNING_SHAPES. A
 * field the config gives is the same in every shape.
 */
export function signingShapes(fixed: Partial<SigningProfile>): SigningProfile[] {
  const windows = fixed.windowSeconds !== undefined ? [fixed.windowSeconds] : WINDOWS;
  const targets = fixed.components !== undefined ? [fixed.components] : TARGETS;
  const label = fixed.label ?? DEFAULT_SIGNING_PROFILE.label;
  const pairs: Array<[number, number]> = [[0, 0]];
  for (let w = 1; w < windows.length; w++) pairs.push([w, 0]);
  for (let t = 1; t < targets.length; t++) pairs.push([0, t]);
  for (let t = 1; t < targets.length; t++) for (let w = 1; w < windows.length; w++) pairs.push([w, t]);
  return pairs
    .slice(0, MAX_SIGNING_SHAPES)
    .map(([w, t]) => ({ windowSeconds: windows[w]!, components: [...targets[t]!], label }));
}

/**
 * Whether a refused token request may have been refused for its signing shape: any 4xx but 404 and 405 (the path or
 * method is wrong, baseUrl's to fix) and 429 (throttled: the transport waits those out). A 5xx is the server's failure.
 */
export function mayBeTheShape(status: number): boolean {
  return status >= 400 && status <= 499 && status !== 404 && status !== 405 && status !== 429;
}

/** A token request refused in one shape: its status, and what the server said (redacted, one line). */
export interface ShapeRefusal {
  profile: SigningProfile;
  status: number;
  said: string | undefined;
}

/** How the run came by its signing profile, for its notes and signing.info.profile. */
export interface SigningRecord {
  profile: SigningProfile;
  /** The fields the target's config fixed. */
  fixed: ReadonlyArray<keyof SigningProfile>;
  /** The shapes refused before the profile got a token, in order. */
  refused: ShapeRefusal[];
  /** The proxy the token answers named (`Server: nginx/1.22.1`, src/http/proxy.ts), when one did. */
  proxy?: string;
}

/**
 * What a proxy in front of the server changes of the address the client signed, and how it is undone: the Host (nginx
 * passes its upstream's unless told otherwise), the scheme (http behind a proxy that terminates TLS), and, with
 * `prefix`, the path the proxy takes off before forwarding (baseUrl's part before the version).
 */
export function addressRewrites(prefix?: string): string {
  const path =
    prefix === undefined
      ? ''
      : `, or its path (the ${prefix} before the version in baseUrl, which a proxy may take off before forwarding, unless the server reads X-Forwarded-Prefix)`;
  return `its Host (nginx passes its upstream's, \`Host $proxy_host\`, unless told \`proxy_set_header Host $http_host\`) or its scheme (http where the proxy terminates TLS, unless the server reads X-Forwarded-Proto)${path}`;
}

/** The part of baseUrl's path before the version (`/api` of `…/api/v1`), which a proxy may take off; undefined when none. */
export function pathPrefix(baseUrl: string): string | undefined {
  let path: string;
  try {
    path = new URL(baseUrl).pathname;
  } catch {
    return undefined;
  }
  const prefix = /^(\/.*?)\/v\d+\/?$/.exec(path)?.[1];
  return prefix === undefined || prefix === '' ? undefined : prefix;
}

/**
 * Why the profile leaves @target-uri out, when the record shows it: the same window over @target-uri was refused and
 * taken without it. The server then checks @target-uri against another address than the client sent, as a server behind
 * a proxy that rewrites the Host or terminates TLS does; @path and @query come through such a proxy unchanged.
 */
function targetWhy(record: SigningRecord): string | undefined {
  const { profile, refused, proxy } = record;
  if (profile.components.includes('@target-uri')) return undefined;
  const overTarget = refused.some(
    (r) => r.profile.components.includes('@target-uri') && r.profile.windowSeconds === profile.windowSeconds,
  );
  if (!overTarget) return undefined;
  const who =
    proxy === undefined
      ? 'a proxy in front of it may change what the server sees of the address (none named itself in the answers)'
      : `the proxy in front of it (${proxy}) changes what the server sees of the address`;
  return `why: the same signature without @target-uri was taken, so the server checks @target-uri against another address than the client sent: ${who}, ${addressRewrites()}; @path and @query come through unchanged`;
}

function refusalText(r: ShapeRefusal): string {
  return `${r.status}${r.said === undefined ? '' : `, ${r.said}`}`;
}

/**
 * The refusals in words, those that differ only by window told once: `sig1 over @method @target-uri @path @query with
 * a 60, 30 or 10 s window (401, code "SIGNATURE_INVALID", …)`.
 */
function groupRefusals(refused: readonly ShapeRefusal[]): string[] {
  const groups: Array<{ key: string; windows: number[]; first: ShapeRefusal }> = [];
  for (const r of refused) {
    const key = `${r.profile.label} ${r.profile.components.join(' ')} ${refusalText(r)}`;
    const group = groups.find((g) => g.key === key);
    if (group) group.windows.push(r.profile.windowSeconds);
    else groups.push({ key, windows: [r.profile.windowSeconds], first: r });
  }
  return groups.map(({ windows, first }) => {
    const w = windows.length === 1 ? `${windows[0]}` : `${windows.slice(0, -1).join(', ')} or ${windows.at(-1)}`;
    return `${first.profile.label} over ${first.profile.components.join(' ')} with a ${w} s window (${refusalText(first)})`;
  });
}

/** `signing: the server took sig1 over … with a 60 s window …`: the run's note, and the first line of signing.info.profile. */
export function signingNote(record: SigningRecord): string {
  const { profile, fixed, refused } = record;
  const shape = `${describeProfile(profile)} (the headers each request carries covered too)`;
  const config =
    fixed.length === 0
      ? ''
      : `; the target's config sets ${fixed.map((f) => `signing.${f}`).join(', ')}${fixed.length === 3 ? ', so nothing was learnt' : ''}`;
  if (fixed.length === 3 && refused.length === 0) return `signing: ${shape}, as the target's config sets it`;
  if (refused.length === 0)
    return `signing: the server took ${shape} at the first token request${fixed.length === 0 ? ' (the default profile)' : ''}${config}`;
  const first = groupRefusals(refused).join('; ');
  const why = targetWhy(record);
  return `signing: the server took ${shape}, and every request of the run was signed so; refused first: ${first}${why === undefined ? '' : `; ${why}`}${config}${fixed.length === 3 ? '' : "; set `signing` in the target's config to skip this search"}`;
}

/** What was tried, in a few words: `window 60/30/10 s; over @target-uri with @path+@query, @path+@query alone, …`. */
export function shapesTried(shapes: readonly SigningProfile[]): string {
  const windows = [...new Set(shapes.map((s) => s.windowSeconds))];
  const targets = [...new Set(shapes.map((s) => s.components.join(' ')))].map(targetWords);
  const labels = [...new Set(shapes.map((s) => s.label))];
  return `window ${windows.join('/')} s; over ${targets.join(', ')}; label ${labels.join('/')}; ${shapes.length} token request${shapes.length === 1 ? '' : 's'}`;
}

function targetWords(components: string): string {
  const has = (c: string) => components.split(' ').includes(c);
  const pathQuery = has('@path') && has('@query');
  if (has('@target-uri') && pathQuery) return '@target-uri with @path+@query';
  if (pathQuery) return '@path+@query alone';
  if (has('@target-uri')) return '@target-uri alone';
  return components;
}
