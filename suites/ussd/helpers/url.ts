// URLs of USSD follow-up requests: what counts as the same view, what lies inside the target, and which links would
// change state if followed. Shared by the crawler and the checks so both judge a URL the same way.

/** The endpoints a follow-up URL may address ("Follow-up URLs address the USSD endpoints below, and also /ussd/home and /ussd/portfolio"). */
const USSD_ENDPOINTS = ['stocks', 'assets', 'requests', 'home', 'portfolio'] as const;
export type UssdEndpoint = (typeof USSD_ENDPOINTS)[number];

/** The endpoints whose contract the spec gives (customerId required); home and portfolio are only referenced. */
export const SPECIFIED_ENDPOINTS: readonly UssdEndpoint[] = ['stocks', 'assets', 'requests'];

/** Where the target lives: its origin and the path prefix of `{base_url}` (e.g. "/v1"). */
export interface TargetScope {
  origin: string;
  basePath: string;
}

export function scopeOf(baseUrl: string): TargetScope {
  const u = new URL(baseUrl);
  return { origin: u.origin, basePath: u.pathname.replace(/\/+$/, '') };
}

/** A URL with its own scheme and host; "/v1/ussd/…" and "//host/…" are not "full" URLs. */
export function isAbsoluteUrl(raw: string): boolean {
  return /^[a-z][a-z\d+.-]*:\/\//i.test(raw);
}

/** The URL a client reaches from `raw` found on the view at `base`; undefined when it is not an http(s) URL at all. */
export function resolveUrl(raw: string, base: string): URL | undefined {
  let u: URL;
  try {
    u = new URL(raw, base);
  } catch {
    return undefined;
  }
  return u.protocol === 'http:' || u.protocol === 'https:' ? u : undefined;
}

/**
 * The identity of a view: origin, path and the query parameters sorted, so that the same parameters in another order
 * name the same view. The fragment never reaches the server, so it is dropped. Values are compared exactly: whether
 * `page=0` equals no `page` is the server's business, not something a crawler may assume.
 */
export function normaliseUrl(url: string | URL): string {
  const u = typeof url === 'string' ? new URL(url) : url;
  return `${u.origin}${u.pathname}${sortedQuery(u.searchParams)}`;
}

function sortedQuery(params: URLSearchParams, drop?: string): string {
  const pairs = [...params]
    .filter(([k]) => k !== drop)
    .sort(([ak, av], [bk, bv]) => compare(ak, bk) || compare(av, bv));
  return pairs.length === 0 ? '' : `?${new URLSearchParams(pairs).toString()}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The path below `{base_url}` when the URL is on the target's origin, e.g. "/ussd/stocks"; undefined otherwise. */
export function pathInScope(u: URL, scope: TargetScope): string | undefined {
  if (u.origin !== scope.origin) return undefined;
  if (scope.basePath === '') return u.pathname;
  if (u.pathname !== scope.basePath && !u.pathname.startsWith(`${scope.basePath}/`)) return undefined;
  return u.pathname.slice(scope.basePath.length) || '/';
}

/**
 * How a link that leads outside `{base_url}` is still followed: by its path and query, under `{base_url}`. A server
 * behind a proxy may build its links from its own origin (`http://127.0.0.1:9999/v1/ussd/home…` where the run reaches
 * `https://public.example/v1`), or without the prefix the proxy adds (`https://public.example/v1/ussd/…` where the
 * run reaches `https://public.example/api/v1`): ussd.options.request-url fails such a link once, and every other rule
 * judges where it leads, the path and query the server meant.
 */
export type Moved = 'origin' | 'base-path';

/** Where a link is followed: on the target, below `{base_url}`; `moved` when its own URL lies elsewhere. */
export interface Followed {
  url: URL;
  moved?: Moved;
}

/** A path ending in a USSD view ("/v1/ussd/stocks", "/internal/ussd/home/"): the part from "/ussd/" on. */
const USSD_TAIL = /\/ussd\/[^/]+\/?$/;

/**
 * The URL on the target a client reaches by the link: the URL itself when it lies below `{base_url}` on the target's
 * origin; otherwise, when its path ends in a USSD view, that view below `{base_url}` with the link's query (the
 * run's credentials go only there, never to the link's own origin); undefined for anything else.
 */
export function followedUrl(u: URL, scope: TargetScope): Followed | undefined {
  if (pathInScope(u, scope) !== undefined) return { url: u };
  const tail = USSD_TAIL.exec(u.pathname);
  if (!tail) return undefined;
  const url = new URL(`${scope.origin}${scope.basePath}${tail[0]}${u.search}`);
  return { url, moved: u.origin === scope.origin ? 'base-path' : 'origin' };
}

/** `raw` as written on the view at `viewUrl`, resolved and followed as followedUrl says; undefined when it is no http(s) URL or leads to no USSD view. */
export function followLink(raw: unknown, viewUrl: string, scope: TargetScope): Followed | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  const u = resolveUrl(raw.trim(), viewUrl);
  return u ? followedUrl(u, scope) : undefined;
}

/** The USSD endpoint a URL addresses on the target, tolerating one trailing slash. */
export function endpointOf(u: URL, scope: TargetScope): UssdEndpoint | undefined {
  const path = pathInScope(u, scope);
  const m = path === undefined ? null : /^\/ussd\/([^/]+)\/?$/.exec(path);
  return m && (USSD_ENDPOINTS as readonly string[]).includes(m[1]!) ? (m[1] as UssdEndpoint) : undefined;
}

/** Under `{base_url}/ussd/`: the only place the crawler sends the run's credentials to. */
export function isUnderUssd(u: URL, scope: TargetScope): boolean {
  return pathInScope(u, scope)?.startsWith('/ussd/') ?? false;
}

export type MutationKind = 'order' | 'cancel';

/**
 * Whether following the URL would change state: `amount` places an order ("Total order request amount"),
 * `cancelMode=true` cancels one. Parameter names are matched in any case and any cancelMode value other than an
 * explicit false counts, because guessing wrong here places or cancels a real order.
 */
export function mutationOf(u: URL): MutationKind | undefined {
  let cancel = false;
  for (const [name, value] of u.searchParams) {
    const n = name.toLowerCase();
    if (n === 'amount') return 'order';
    if (n === 'cancelmode' && !['false', '0'].includes(value.trim().toLowerCase())) cancel = true;
  }
  return cancel ? 'cancel' : undefined;
}

/** The identity of a list whatever its page: normaliseUrl without `page`, so every page of a list names the same list. */
export function listIdentity(url: string | URL): string {
  const u = typeof url === 'string' ? new URL(url) : url;
  return `${u.origin}${u.pathname}${sortedQuery(u.searchParams, 'page')}`;
}

/**
 * Two URLs of the same list that differ only in `page` (one may have none): a paging link. Identical URLs are not
 * paging links by this test; the caller decides what a link to the view itself means.
 */
export function differsOnlyInPage(a: URL, b: URL): boolean {
  if (a.origin !== b.origin || a.pathname !== b.pathname) return false;
  if (!a.searchParams.has('page') && !b.searchParams.has('page')) return false;
  if (normaliseUrl(a) === normaliseUrl(b)) return false;
  return sortedQuery(a.searchParams, 'page') === sortedQuery(b.searchParams, 'page');
}
