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
