// Walks the USSD menu graph the way a phone user would: from the start menus, every option's requestUrl, breadth-first,
// each distinct view once. It knows nothing of menu texts, depth or numbering in advance, and it must end on any graph
// a server can produce (cycles, graphs that grow without end, slow answers), so views, depth and time are all capped
// and whatever a cap cut off is kept as the frontier for the report.
//
// The crawler only gathers; judging what it found is the checks' job (rules.ts). It is independent of the runner: the
// caller supplies `fetch`, which is how the suite routes requests through the signed, recorded client.
import { parseJson, pool } from '../../kit/index.js';
import {
  followedUrl,
  isUnderUssd,
  mutationOf,
  normaliseUrl,
  resolveUrl,
  scopeOf,
  type MutationKind,
  type Moved,
  type TargetScope,
} from './url.js';

const DEFAULT_CONCURRENCY = 4;
/** Well under the suite's check time limit, so a slow server gives a partial crawl and a warning, not a timeout. */
const DEFAULT_BUDGET_MS = 45_000;

export interface CrawlStart {
  /** How the report names it: "stocks" in "stocks → 2 → 1". */
  name: string;
  url: string;
  /** A start the spec does not define (home, portfolio): it not answering is noted, not a failure. */
  optional?: boolean;
}

/** What one GET gave: a response, or no usable response. `ref` is the caller's handle on it (the recorded exchange). */
export type FetchOutcome<R> = { status: number; text: string; ref: R } | { error: string; ref: R };

export interface CrawlOptions<R> {
  /** `{base_url}`: links are followed only on its origin, under its path, below /ussd/. */
  baseUrl: string;
  starts: readonly CrawlStart[];
  fetch(url: string): Promise<FetchOutcome<R>>;
  maxViews: number;
  maxDepth: number;
  concurrency?: number;
  budgetMs?: number;
  /** Follow links that place (amount) or cancel (cancelMode=true) an order. Off unless the user said so. */
  allowMutations?: boolean;
  signal?: AbortSignal;
}

/** One choice taken on the way to a view. */
export interface Step {
  /** Key of the view the choice was made on. */
  from: string;
  /** The option number as the server sent it. */
  option: unknown;
  /** Position in ussdOptions. */
  index: number;
}

export interface UssdData {
  message: string;
  options: unknown[];
}

export interface CrawlView<R> {
  key: string;
  url: string;
  depth: number;
  /** Name of the start menu the path begins at. */
  start: string;
  /** A start the spec does not define, requested as a start (not reached by a link). */
  optionalStart: boolean;
  /**
   * The choices from the start menu to here (empty for a start): the first path found, which BFS makes a shortest one.
   * Made from a shared path each time it is read, so read it once where it is used many times.
   */
  readonly steps: Step[];
  /** Keys of the views on that path, start first, this view excluded; made when read, like steps. */
  readonly ancestors: string[];
  status?: number;
  /** No usable response (timeout, reset, body over the cap). */
  error?: string;
  text?: string;
  body?: unknown;
  /** When status is 200 and body is not JSON. */
  jsonError?: string;
  /** data.ussdMessage and data.ussdOptions when the body has them with the right types; absent for anything else. */
  ussd?: UssdData;
  ref?: R;
}

export type SkipReason =
  | 'order'
  | 'cancel'
  | 'repeat-mutation'
  | 'method'
  | 'invalid-url'
  | 'foreign-origin'
  | 'outside-ussd'
  | 'view-cap'
  | 'depth-cap'
  | 'budget'
  | 'aborted';

/** Why a link was not followed, in words for the report. */
export const SKIP_REASONS: Record<SkipReason, string> = {
  order: 'places an order (carries amount); followed only with --allow-mutations',
  cancel: 'cancels an order (cancelMode=true); followed only with --allow-mutations',
  'repeat-mutation': 'repeats a change already made in this crawl (the same prompt, or the same request canceled)',
  method: 'requestType is not GET; the crawler only sends GET',
  'invalid-url': 'requestUrl is not an http(s) URL',
  'foreign-origin': "on another origin, and its path names no USSD view: the run's credentials are never sent there",
  'outside-ussd': 'not under {base_url}/ussd/',
  'view-cap': 'the view cap was reached',
  'depth-cap': 'the depth cap was reached',
  budget: "the crawl's time budget ran out",
  aborted: 'the check running the crawl was stopped',
};

/** The caps and the budget: what cut the crawl short. */
export const CAP_REASONS: ReadonlySet<SkipReason> = new Set(['view-cap', 'depth-cap', 'budget', 'aborted']);

export interface CrawlLink {
  /** Key of the view that offers it. */
  from: string;
  index: number;
  option: unknown;
  requestUrl: unknown;
  requestType: unknown;
  /**
   * Resolved against the view's URL (a relative requestUrl is still followed, so the rest of the graph is checked),
   * and moved below `{base_url}` when written outside it (see `moved`).
   */
  url?: string;
  /**
   * Written on another origin, or on the target's outside `{base_url}`, and followed by its path and query below
   * `{base_url}` (url.ts followedUrl): a server behind a proxy that builds links from its own address.
   */
  moved?: Moved;
  key?: string;
  mutation?: MutationKind;
  /** Absent: the target was visited (by this link or another to the same view). */
  skipped?: SkipReason;
}

/** A view the caps left unvisited, with the link that found it (none for a start). */
interface FrontierEntry {
  url: string;
  key: string;
  depth: number;
  reason: SkipReason;
  start: string;
  /** As CrawlView.steps: made when read. */
  readonly steps: Step[];
}

export interface Crawl<R> {
  scope: TargetScope;
  /** In visit order. */
  views: Map<string, CrawlView<R>>;
  links: CrawlLink[];
  frontier: FrontierEntry[];
  maxDepthReached: number;
  durationMs: number;
  /** The signal fired during the crawl: views in flight then may show its errors rather than the server's answers. */
  aborted: boolean;
  options: { maxViews: number; maxDepth: number; concurrency: number; budgetMs: number; allowMutations: boolean };
}

/**
 * The choices from a start menu to a view, as a link to the path of the view it was chosen on. A path is shared, not
 * copied, by every view reached through it: copies cost time and memory in proportion to depth for each view, which a
 * long paged list (a chain of "Next" hundreds deep) turns into a crawl quadratic in its size.
 */
interface Trail {
  step: Step;
  previous: Trail | undefined;
  length: number;
}

function extend(trail: Trail | undefined, step: Step): Trail {
  return { step, previous: trail, length: (trail?.length ?? 0) + 1 };
}

function stepsOf(trail: Trail | undefined): Step[] {
  const steps: Step[] = new Array(trail?.length ?? 0);
  for (let t = trail; t !== undefined; t = t.previous) steps[t.length - 1] = t.step;
  return steps;
}

const TRAIL = Symbol('trail');

/**
 * The prototype of views and frontier entries: `steps` and `ancestors` made from the entry's trail when read (a new
 * array each time), with no per-entry closure to keep.
 */
const PATH = {
  get steps(): Step[] {
    return stepsOf((this as { [TRAIL]?: Trail })[TRAIL]);
  },
  /** Each step names the view it was taken on: the ancestors, start first. */
  get ancestors(): string[] {
    return stepsOf((this as { [TRAIL]?: Trail })[TRAIL]).map((s) => s.from);
  },
};

function withPath<T extends object>(
  fields: T,
  trail: Trail | undefined,
): T & { readonly steps: Step[]; readonly ancestors: string[] } {
  return Object.assign(Object.create(PATH) as typeof PATH, fields, { [TRAIL]: trail });
}

interface Pending {
  url: string;
  key: string;
  depth: number;
  start: string;
  optionalStart: boolean;
  trail: Trail | undefined;
}

/** What a crawl has found so far, and what it has scheduled. */
interface CrawlState<R> {
  scope: TargetScope;
  allowMutations: boolean;
  maxDepth: number;
  views: Map<string, CrawlView<R>>;
  links: CrawlLink[];
  frontier: FrontierEntry[];
  // Key → the one copy of that key string kept: a view is offered by many links, and each link keeps its target's key.
  scheduled: Map<string, string>;
  mutationsDone: Set<string>;
}

export async function crawl<R>(options: CrawlOptions<R>): Promise<Crawl<R>> {
  const started = Date.now();
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  const budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
  const state: CrawlState<R> = {
    scope: scopeOf(options.baseUrl),
    allowMutations: options.allowMutations ?? false,
    maxDepth: options.maxDepth,
    views: new Map(),
    links: [],
    frontier: [],
    scheduled: new Map(),
    mutationsDone: new Set(),
  };
  const { views, frontier } = state;
  let level = startLevel(options, state.scheduled);
  const stopReason = (): SkipReason | undefined => {
    if (options.signal?.aborted) return 'aborted';
    if (Date.now() - started > budgetMs) return 'budget';
    return undefined;
  };
  while (level.length > 0) {
    // The level is cut to the view cap before fetching, so the cap holds whatever the concurrency.
    const room = Math.max(0, options.maxViews - views.size);
    for (const p of level.slice(room)) toFrontier(frontier, p, 'view-cap');
    const batch = level.slice(0, room);
    const fetched = await pool(batch, concurrency, async (p): Promise<CrawlView<R> | undefined> => {
      const stop = stopReason();
      if (stop) {
        toFrontier(frontier, p, stop);
        return undefined;
      }
      return visit(p, options.fetch);
    });
    // Views are recorded and their links read in level order, not completion order: the same server gives the same
    // paths and the same report whatever the timing.
    const next: Pending[] = [];
    fetched.forEach((view, i) => {
      if (!view) return;
      views.set(view.key, view);
      for (const p of readLinks(view, batch[i]!.trail, state)) next.push(p);
    });
    level = next;
  }
  settleUnfollowed(state);
  return {
    scope: state.scope,
    views,
    links: state.links,
    frontier,
    // A loop, not Math.max(...views): spreading a raised view cap's worth of arguments overflows the stack.
    maxDepthReached: [...views.values()].reduce((max, v) => Math.max(max, v.depth), 0),
    durationMs: Date.now() - started,
    aborted: options.signal?.aborted ?? false,
    options: {
      maxViews: options.maxViews,
      maxDepth: options.maxDepth,
      concurrency,
      budgetMs,
      allowMutations: state.allowMutations,
    },
  };
}

/** The start views that resolve below {base_url}, each once: the crawl's first level. */
function startLevel<R>(options: CrawlOptions<R>, scheduled: Map<string, string>): Pending[] {
  const level: Pending[] = [];
  for (const s of options.starts) {
    const u = resolveUrl(s.url, options.baseUrl);
    if (!u) continue;
    const key = normaliseUrl(u);
    if (scheduled.has(key)) continue;
    scheduled.set(key, key);
    level.push({ url: u.href, key, depth: 0, start: s.name, optionalStart: s.optional ?? false, trail: undefined });
  }
  return level;
}

function toFrontier(frontier: FrontierEntry[], p: Pending, reason: SkipReason): void {
  frontier.push(withPath({ url: p.url, key: p.key, depth: p.depth, reason, start: p.start }, p.trail));
}

/**
 * A visited view's options as links (each classified and recorded), and the views they lead to that are not yet
 * scheduled: the next level's, or the frontier's past the depth cap.
 */
function readLinks<R>(view: CrawlView<R>, trail: Trail | undefined, state: CrawlState<R>): Pending[] {
  const { scheduled } = state;
  const next: Pending[] = [];
  view.ussd?.options.forEach((raw, index) => {
    const link = classify(raw, index, view, state.scope, state.allowMutations, state.mutationsDone);
    state.links.push(link);
    if (link.key !== undefined) link.key = scheduled.get(link.key) ?? link.key;
    if (link.skipped || link.key === undefined || scheduled.has(link.key)) return;
    const p: Pending = {
      url: link.url!,
      key: link.key,
      depth: view.depth + 1,
      start: view.start,
      optionalStart: false,
      trail: extend(trail, { from: view.key, option: link.option, index }),
    };
    scheduled.set(link.key, link.key);
    if (p.depth > state.maxDepth) toFrontier(state.frontier, p, 'depth-cap');
    else next.push(p);
  });
  return next;
}

/**
 * A link is followed when its target was visited, whichever link got there first; otherwise it shares the fate
 * (cap, budget) of its target.
 */
function settleUnfollowed<R>({ links, frontier, views }: CrawlState<R>): void {
  const cutOff = new Map(frontier.map((f) => [f.key, f.reason]));
  for (const link of links) {
    if (link.skipped || link.key === undefined || views.has(link.key)) continue;
    link.skipped = cutOff.get(link.key) ?? 'view-cap';
  }
}

async function visit<R>(p: Pending, fetch: CrawlOptions<R>['fetch']): Promise<CrawlView<R>> {
  const view: CrawlView<R> = withPath(
    { key: p.key, url: p.url, depth: p.depth, start: p.start, optionalStart: p.optionalStart },
    p.trail,
  );
  let outcome: FetchOutcome<R>;
  try {
    outcome = await fetch(p.url);
  } catch (e) {
    view.error = (e as Error)?.message ?? String(e);
    return view;
  }
  view.ref = outcome.ref;
  if ('error' in outcome) {
    view.error = outcome.error;
    return view;
  }
  view.status = outcome.status;
  view.text = outcome.text;
  const parsed = parseJson(outcome.text);
  if (!parsed.ok) {
    view.jsonError = parsed.error;
    return view;
  }
  view.body = parsed.value;
  view.ussd = ussdDataOf(parsed.value);
  return view;
}

/** The menu text and options, when the body carries them with the spec's types; the checks judge the rest. */
export function ussdDataOf(body: unknown): UssdData | undefined {
  const data = (body as { data?: unknown } | null)?.data as
    { ussdMessage?: unknown; ussdOptions?: unknown } | undefined;
  if (typeof data !== 'object' || data === null) return undefined;
  if (typeof data.ussdMessage !== 'string' || !Array.isArray(data.ussdOptions)) return undefined;
  return { message: data.ussdMessage, options: data.ussdOptions };
}

function classify<R>(
  raw: unknown,
  index: number,
  view: CrawlView<R>,
  scope: TargetScope,
  allowMutations: boolean,
  done: Set<string>,
): CrawlLink {
  const o = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const link: CrawlLink = {
    from: view.key,
    index,
    option: o.option,
    requestUrl: o.requestUrl,
    requestType: o.requestType,
  };
  const written = typeof o.requestUrl === 'string' ? o.requestUrl.trim() : '';
  const resolved = written !== '' ? resolveUrl(written, view.url) : undefined;
  if (!resolved) return { ...link, skipped: 'invalid-url' };
  // A link outside {base_url} that names a USSD view is followed there, by its path and query: ussd.options.request-url
  // judges where it was written, the other rules where it leads.
  const followed = followedUrl(resolved, scope);
  const u = followed?.url ?? resolved;
  if (followed?.moved) link.moved = followed.moved;
  // The string the server wrote, when it is already the resolved URL: one string kept per link, not two.
  link.url = u.href === written ? written : u.href;
  const key = normaliseUrl(u);
  link.key = key === link.url ? link.url : key;
  if (u.origin !== scope.origin) return { ...link, skipped: 'foreign-origin' };
  if (!isUnderUssd(u, scope)) return { ...link, skipped: 'outside-ussd' };
  // A missing requestType is the schema check's finding; the spec shows GET everywhere, so it is read as GET.
  if (typeof o.requestType === 'string' && o.requestType.trim().toUpperCase() !== 'GET')
    return { ...link, skipped: 'method' };
  const mutation = mutationOf(u);
  if (mutation) {
    link.mutation = mutation;
    if (!allowMutations) return { ...link, skipped: mutation };
    // Even when allowed, one order per prompt and one cancel per request: the rest would only repeat the change
    // (and a second cancel of the same request is a conflict by nature, not a dead link).
    const identity =
      mutation === 'cancel' ? `cancel:${requestIdOf(u) ?? link.key}` : `order:${withoutParam(u, 'amount')}`;
    if (done.has(identity)) return { ...link, skipped: 'repeat-mutation' };
    done.add(identity);
  }
  return link;
}

function requestIdOf(u: URL): string | undefined {
  for (const [k, v] of u.searchParams) if (k.toLowerCase() === 'requestid') return v;
  return undefined;
}

function withoutParam(u: URL, name: string): string {
  const copy = new URL(u.href);
  for (const k of [...copy.searchParams.keys()]) if (k.toLowerCase() === name) copy.searchParams.delete(k);
  return normaliseUrl(copy);
}

// ---- how reports name places in the graph ---------------------------------------------------------------------

/** "stocks → 2 → 1 → 5": the options a phone user presses from the start menu. */
export function formatTrail(start: string, steps: readonly Step[]): string {
  return [start, ...steps.map((s) => String(s.option))].join(' → ');
}

/** A menu as the user sees it: the first line of its text. */
export function menuName<R>(view: CrawlView<R> | undefined): string {
  const first = view?.ussd?.message
    .split(/\r\n|\r|\n/)
    .find((l) => l.trim() !== '')
    ?.trim();
  if (!first) return view ? new URL(view.url).pathname : '?';
  return first.length > 48 ? `${first.slice(0, 47)}…` : first;
}
