// What an answer shows of a proxy in front of the server (issue 26): the proxy's own error page (its 502 when the server
// behind it is down, its 404 where it routes nothing, its 413 for a body over its limit) is told as the proxy's, never
// quoted as the server's words; and a proxy named in the answers explains a signature the server checks against
// another address than the client sent. One place says it, for the run's set-up errors and for a check's findings.
//
// What proxies send, as they send it: nginx `Server: nginx/1.22.1` (`nginx` with server_tokens off, `openresty/…`) and an
// HTML page `<html><head><title>502 Bad Gateway</title>…`; AWS ALB `Server: awselb/2.0`, CloudFront `Server: CloudFront`
// with `X-Cache: Error from cloudfront`, Cloudflare `Server: cloudflare` (its 52x pages), Akamai `AkamaiGHost`, Varnish
// `Via: 1.1 varnish`, Azure `Microsoft-Azure-Application-Gateway/v2`, Google's load balancers `Via: 1.1 google`, Caddy,
// Kong, Traefik, HAProxy (no Server field: `<html><body><h1>503 Service Unavailable</h1>`); Envoy and Istio
// `server: envoy` / `istio-envoy` with a text/plain body (`upstream connect error or disconnect/reset before headers.
// reset reason: connection failure`, `no healthy upstream`).
import { STATUS_CODES } from 'node:http';

/** What is read of an answer: its status, its header fields, its body as text. */
export interface Answer {
  status: number;
  header(name: string): string | undefined;
  text: string;
}

/** Server field products that are proxies, load balancers or CDNs (the product token, lower case, before any `/`). */
const PROXY_PRODUCTS = new Set([
  'nginx',
  'openresty',
  'tengine',
  'envoy',
  'istio-envoy',
  'cloudflare',
  'awselb',
  'cloudfront',
  'akamaighost',
  'varnish',
  'caddy',
  'kong',
  'traefik',
  'haproxy',
  'squid',
  'apache',
  'microsoft-azure-application-gateway',
  'google frontend',
  'gfe',
  'ats',
  'h2o',
  'ddos-guard',
  'fly',
]);

/** Bodies Envoy writes itself, in plain text, when it cannot reach the server behind it. */
const ENVOY_BODY =
  /^(upstream connect error or disconnect\/reset before headers|no healthy upstream|upstream request timeout)/i;

/**
 * The proxy an answer names, as its field reads (`Server: nginx/1.22.1`, `Via: 1.1 varnish`), or undefined: a Server
 * field naming a proxy, load balancer or CDN, else a Via field (RFC 9110 §7.6.3: every proxy adds one, when it does).
 */
export function proxyOf(res: Pick<Answer, 'header'>): string | undefined {
  const server = res.header('server')?.trim();
  if (server !== undefined && server !== '') {
    const product = /^[^/(]*/.exec(server)![0].trim().toLowerCase();
    if (PROXY_PRODUCTS.has(product)) return `Server: ${oneLine(server)}`;
  }
  const via = res.header('via')?.trim();
  return via !== undefined && via !== '' ? `Via: ${oneLine(via)}` : undefined;
}

/** A proxy's own error page: who answered, the page's title when it says more than the status, and what it means. */
export interface ProxyPage {
  status: number;
  /** `Server: nginx/1.22.1`, or undefined when the proxy named itself nowhere (a 502 or 504 page says it is one). */
  proxy: string | undefined;
  /** The page's own words (its title), when they say more than the status's reason phrase. */
  title: string | undefined;
  /** In words: who answered what, and what to do. One line, no trailing period. */
  text: string;
}

/**
 * The answer as a proxy's own error page, or undefined when it may be the server's. A page is the proxy's when the
 * status is an error, the body is HTML (or Envoy's plain-text words), and a proxy names itself (Server, Via); a 502 or
 * 504 in HTML is a gateway's by its very status, named or not. A JSON body is the server's, whoever relayed it.
 */
export function proxyErrorPage(res: Answer): ProxyPage | undefined {
  if (res.status < 400) return undefined;
  const body = res.text.trimStart();
  const html = /^(<!doctype html|<html)/i.test(body) || /^text\/html\b/i.test(res.header('content-type')?.trim() ?? '');
  const envoy = ENVOY_BODY.test(body);
  if (!html && !envoy) return undefined;
  const proxy = proxyOf(res);
  const gateway = res.status === 502 || res.status === 503 || res.status === 504;
  if (proxy === undefined && !(html && (res.status === 502 || res.status === 504))) return undefined;
  // Apache httpd serves applications too (mod_php): only its gateway pages are a proxy's for sure.
  if (proxy !== undefined && /^Server: apache\b/i.test(proxy) && !gateway) return undefined;
  const title = ownWords(res.status, body);
  const who = `the proxy in front of the server${proxy === undefined ? '' : ` (${proxy})`}`;
  const page = `${who} answered ${res.status} with its own error page${title === undefined ? '' : ` (${JSON.stringify(title)})`}`;
  return { status: res.status, proxy, title, text: `${page}: ${meaning(res.status)}` };
}

/** What a proxy's page of this status means, and what to do about it. */
function meaning(status: number): string {
  switch (status) {
    case 502:
      return 'the server behind it did not answer; check that it runs and that the proxy points at it';
    case 503:
      return 'no server behind it was available; check that it runs and that the proxy points at it';
    case 504:
      return "the server behind it did not answer in time; check that it runs, and the proxy's time-out for it";
    case 404:
      return "it has no route for this path, and the request did not reach the server; check baseUrl's path (what the proxy forwards to the server)";
    case 413:
      return 'it refused the body as too large before the server saw it; raise its limit (nginx: client_max_body_size)';
    case 401:
    case 403:
      return 'it refused the request itself (an access rule or a firewall in front of the server), and the server never saw it; ask whoever runs the proxy to let this client through';
    default:
      return status >= 500
        ? 'it failed itself, and the server behind it may never have seen the request; its logs say why'
        : 'it refused the request itself, and the server never saw it; its page says why';
  }
}

/** The page's title (or first heading), when it says more than `<status> <reason phrase>`. */
function ownWords(status: number, body: string): string | undefined {
  const found = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1] ?? /<h1[^>]*>([^<]*)<\/h1>/i.exec(body)?.[1];
  const words = found === undefined ? undefined : oneLine(found.replace(/&[a-z]+;|&#\d+;/gi, ' ')).trim();
  if (words === undefined || words === '') return undefined;
  // Letters only: `Gateway Time-out` (nginx, AWS) and `Request Entity Too Large` (nginx) are the reason phrases too.
  const letters = (text: string) => text.toLowerCase().replace(/[^a-z]/g, '');
  const plain = letters(words.replace(new RegExp(`^${status}\\s*`), ''));
  const reasons = [STATUS_CODES[status] ?? '', status === 413 ? 'Request Entity Too Large' : ''].map(letters);
  if (plain === '' || reasons.includes(plain)) return undefined;
  return words.length > 120 ? `${words.slice(0, 119)}…` : words;
}

function oneLine(text: string): string {
  return text.replace(/[^\x20-\x7e]+/g, ' ').replace(/\s+/g, ' ');
}
